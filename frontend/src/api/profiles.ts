import { useQuery } from "@tanstack/react-query";
import type { components } from "./schema";
import { api, unwrap } from "./client";

export type Profile = components["schemas"]["ProfileOut"];

/** devsim device profiles (the built-in `singlelight` is always there). */
export function useProfiles(enabled = true) {
  return useQuery({
    queryKey: ["profiles"],
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/profiles", { signal })) as Profile[],
  });
}
