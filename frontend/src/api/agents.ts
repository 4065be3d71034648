import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import type { Agent } from "./types";

export function useAgents() {
  return useQuery({
    queryKey: keys.agents,
    refetchInterval: 15_000,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/agents", { signal })) as Agent[],
  });
}
