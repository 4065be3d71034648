// GET /trends: the completed campaigns of a plan (or a target with a tool, or a tag) over time, and their change points.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { components, operations } from "./schema";
import { api, unwrap } from "./client";
import { keys } from "./keys";

export type Trend = components["schemas"]["Trend"];
export type TrendPoint = components["schemas"]["TrendPoint"];
export type ChangePoint = components["schemas"]["ChangePointOut"];
export type TrendCapacity = components["schemas"]["Capacity"];
export type TrendQuery = NonNullable<operations["trend_api_v1_trends_get"]["parameters"]["query"]>;
export type TrendMetric = NonNullable<TrendQuery["metric"]>;

export const TREND_METRICS: readonly TrendMetric[] = ["capacity_at_slo", "max_achieved_rate", "latency_p50_ms", "latency_p99_ms", "loss_pct"];

export function useTrend(query: TrendQuery, enabled: boolean) {
  return useQuery({
    queryKey: keys.trend(query),
    enabled,
    placeholderData: keepPreviousData, // changing the metric keeps the chart while the new change points load
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/trends", { params: { query }, signal })) as Trend,
  });
}
