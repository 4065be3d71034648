// GET /api/v1/tools through TanStack Query: fetched once per session (the registry changes only on a deploy).
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { keys } from "../api/keys";
import { findTool, type ToolInfo } from "./catalog";

/** Every registered tool (load tools and monitors) with its params schema and metrics. */
export function useTools() {
  return useQuery({
    queryKey: keys.tools,
    staleTime: Infinity,
    gcTime: Infinity,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/tools", { signal })) as ToolInfo[],
  });
}

/** One tool's description by name; undefined while loading or when the name is not registered. */
export function useTool(name: string | null | undefined): ToolInfo | undefined {
  return findTool(useTools().data, name);
}
