import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import type { Health } from "./types";

export function useHealth() {
  return useQuery({
    queryKey: keys.health,
    refetchInterval: 30_000,
    retry: false,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/health", { signal })) as Health,
  });
}
