import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import type { LabState } from "./types";

/** The lab's state (or why it is missing) and the actions variants may use. */
export function useLab() {
  return useQuery({
    queryKey: keys.lab,
    refetchInterval: 30_000,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/lab", { signal })) as LabState,
  });
}
