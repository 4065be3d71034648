import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import type { ExporterPack } from "./types";

/** The query packs a target's exporter may name (data files on the server; GET /exporters/packs). */
export function useExporterPacks() {
  return useQuery({
    queryKey: keys.exporterPacks,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/exporters/packs", { signal })) as ExporterPack[],
  });
}
