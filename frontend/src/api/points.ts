import { useContext } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useById } from "./query";
import { SharedTokenContext, sharedSamples } from "./shares";
import type { Point, PointEvidence, SampleSeries } from "./types";

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

export function usePointSamples(pointId: number | null | undefined, series?: string, maxPoints = MAX_SAMPLES) {
  const max = Math.min(maxPoints, MAX_SAMPLES);
  // on a shared page (/s/{token}) samples come through the link, never the signed-in route
  const token = useContext(SharedTokenContext);
  return useById(
    (id) => (token ? [...keys.shared(token), ...keys.samples(id, series, max)] : keys.samples(id, series, max)),
    pointId,
    async (point_id, signal) =>
      (token
        ? await sharedSamples(token, point_id, series, max, signal)
        : unwrap(await api.GET("/api/v1/points/{point_id}/samples", { params: { path: { point_id }, query: { series, max_points: max } }, signal }))) as SampleSeries,
  );
}
