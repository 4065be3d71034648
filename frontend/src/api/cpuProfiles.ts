// A point's CPU profile (docs/profiling.md): its folded stacks, its top functions, and the differential of two points.
import { useContext } from "react";
import { useQuery } from "@tanstack/react-query";
import type { components } from "./schema";
import { ApiError, api, unwrap } from "./client";
import { keys } from "./keys";
import { SharedTokenContext } from "./shares";

export type FoldedProfile = components["schemas"]["FoldedProfile"];
export type TopFunctions = components["schemas"]["TopFunctions"];
export type FunctionCost = components["schemas"]["FunctionCost"];
export type CpuProfileDiff = components["schemas"]["CpuProfileDiff"];
export type FunctionChange = components["schemas"]["FunctionChange"];

/** How many functions the report's table lists (backend/kneeboard/exports/document.py TOP_FUNCTIONS sends as many). */
export const TOP_FUNCTIONS = 15;

/** What a point without a profile answers (409): the API's reason, said in one line. */
export interface Missing {
  missing: string;
}

/** Whether a plan asks for a CPU profile at each point. */
export const asksCpuProfile = (plan: unknown): boolean => !!(plan as { cpu_profile?: unknown } | null)?.cpu_profile;

export const isMissing = (v: unknown): v is Missing => typeof v === "object" && v != null && "missing" in v;

/** A 409 as data (the point has no profile, and why); any other failure stays an error. */
async function orMissing<T>(get: () => Promise<T>): Promise<T | Missing> {
  try {
    return await get();
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return { missing: err.message };
    throw err;
  }
}

/** A point's CPU profile with its folded stacks (on a shared page, through the link). */
export function useCpuProfile(pointId: number | null) {
  const token = useContext(SharedTokenContext);
  return useQuery({
    queryKey: token ? [...keys.shared(token), ...keys.cpuProfile(pointId ?? 0)] : keys.cpuProfile(pointId ?? 0),
    enabled: pointId != null,
    queryFn: ({ signal }) =>
      orMissing(async () => {
        const point_id = pointId!;
        return (token
          ? unwrap(await api.GET("/api/v1/shared/{token}/points/{point_id}/cpu-profile", { params: { path: { token, point_id } }, signal }))
          : unwrap(await api.GET("/api/v1/points/{point_id}/cpu-profile", { params: { path: { point_id } }, signal }))) as FoldedProfile;
      }),
  });
}

/** A point's top functions by self or total samples. */
export function useCpuFunctions(pointId: number | null, by: "self" | "total" = "self", limit = TOP_FUNCTIONS) {
  const token = useContext(SharedTokenContext);
  return useQuery({
    queryKey: token ? [...keys.shared(token), ...keys.cpuFunctions(pointId ?? 0, by, limit)] : keys.cpuFunctions(pointId ?? 0, by, limit),
    enabled: pointId != null,
    queryFn: ({ signal }) =>
      orMissing(async () => {
        const point_id = pointId!;
        const query = { by, limit };
        return (token
          ? unwrap(await api.GET("/api/v1/shared/{token}/points/{point_id}/cpu-profile/functions", { params: { path: { token, point_id }, query }, signal }))
          : unwrap(await api.GET("/api/v1/points/{point_id}/cpu-profile/functions", { params: { path: { point_id }, query }, signal }))) as TopFunctions;
      }),
  });
}

/** Point B's CPU profile against point A's (per 1,000 requests; on a shared page, through the link); null ids: not asked. */
export function useCpuProfileDiff(a: number | null, b: number | null, limit = TOP_FUNCTIONS) {
  const token = useContext(SharedTokenContext);
  const key = keys.cpuProfileDiff(a ?? 0, b ?? 0, limit);
  return useQuery({
    queryKey: token ? [...keys.shared(token), ...key] : key,
    enabled: a != null && b != null,
    queryFn: ({ signal }) =>
      orMissing(async () => {
        const path = { point_id: a!, other_id: b! };
        return (token
          ? unwrap(await api.GET("/api/v1/shared/{token}/points/{point_id}/cpu-profile/diff/{other_id}", { params: { path: { token, ...path }, query: { limit } }, signal }))
          : unwrap(await api.GET("/api/v1/points/{point_id}/cpu-profile/diff/{other_id}", { params: { path, query: { limit } }, signal }))) as CpuProfileDiff;
      }),
  });
}
