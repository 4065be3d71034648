import { useContext } from "react";
import { useQueries, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useById } from "./query";
import { SharedTokenContext, sharedHistogram, sharedSamples } from "./shares";
import type { Histogram, Point, PointEvidence, SampleSeries } from "./types";

/** Charts never ask for more than this many samples per series. */
export const MAX_SAMPLES = 2000;

export function useCampaignPoints(campaignId: number, opts: { live?: boolean } = {}) {
  return useQuery({
    queryKey: keys.campaignPoints(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/v1/campaigns/{campaign_id}/points", { params: { path: { campaign_id: campaignId } }, signal }),
      ) as Point[],
    refetchInterval: opts.live ? 10_000 : false,
  });
}

export function usePointEvidence(pointId: number | null) {
  return useById(keys.point, pointId, async (point_id, signal) =>
    unwrap(await api.GET("/api/v1/points/{point_id}", { params: { path: { point_id } }, signal })) as PointEvidence,
  );
}

/** A point's latency histogram: the whole run ("all") or its steady window; 409 (ApiError) says why a point has none.
 * On a shared page (/s/{token}) it comes through the link, like the samples. */
export function usePointHistogram(pointId: number | null, window: "all" | "steady" = "all") {
  const token = useContext(SharedTokenContext);
  return useById(
    (id) => (token ? [...keys.shared(token), ...keys.histogram(id, window)] : keys.histogram(id, window)),
    pointId,
    async (point_id, signal) =>
      (token
        ? await sharedHistogram(token, point_id, window, signal)
        : unwrap(await api.GET("/api/v1/points/{point_id}/histogram", { params: { path: { point_id }, query: { window } }, signal }))) as Histogram,
  );
}

/** A point's samples, through a share link's token when there is one. */
async function fetchSamples(token: string | null | undefined, point_id: number, series: string | undefined, max: number, signal: AbortSignal): Promise<SampleSeries> {
  return (token
    ? await sharedSamples(token, point_id, series, max, signal)
    : unwrap(await api.GET("/api/v1/points/{point_id}/samples", { params: { path: { point_id }, query: { series, max_points: max } }, signal }))) as SampleSeries;
}

export function usePointSamples(pointId: number | null | undefined, series?: string, maxPoints = MAX_SAMPLES) {
  const max = Math.min(maxPoints, MAX_SAMPLES);
  // on a shared page (/s/{token}) samples come through the link, never the signed-in route
  const token = useContext(SharedTokenContext);
  return useById(
    (id) => (token ? [...keys.shared(token), ...keys.samples(id, series, max)] : keys.samples(id, series, max)),
    pointId,
    (point_id, signal) => fetchSamples(token, point_id, series, max, signal),
  );
}

/** The samples of several points (the campaign timeline): point id → its samples, for those fetched so far. */
export function useSamplesOfPoints(pointIds: readonly number[], series?: string, maxPoints = MAX_SAMPLES): Record<number, SampleSeries> {
  const max = Math.min(maxPoints, MAX_SAMPLES);
  const token = useContext(SharedTokenContext);
  return useQueries({
    queries: pointIds.map((id) => ({
      queryKey: token ? [...keys.shared(token), ...keys.samples(id, series, max)] : keys.samples(id, series, max),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchSamples(token, id, series, max, signal),
    })),
    combine: (results) => {
      const out: Record<number, SampleSeries> = {};
      results.forEach((r, i) => {
        if (r.data) out[pointIds[i]] = r.data;
      });
      return out;
    },
  });
}
