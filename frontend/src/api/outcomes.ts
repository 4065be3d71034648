// A kbhttp point's request outcomes per 10 ms and their summary (GET /points/{id}/outcomes, issue 39).
import { useContext } from "react";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useById } from "./query";
import type { components } from "./schema";
import { SharedTokenContext } from "./shares";

export type PointOutcomes = components["schemas"]["PointOutcomes"];

/** The outcomes of a point that stored them (`extra.outcomes_stored`), through a share link's token on a shared page;
 * 409 (ApiError) says why a point has none. */
export function usePointOutcomes(pointId: number | null) {
  const token = useContext(SharedTokenContext);
  return useById(
    (id) => (token ? [...keys.shared(token), ...keys.outcomes(id)] : keys.outcomes(id)),
    pointId,
    async (point_id, signal) =>
      (token
        ? unwrap(await api.GET("/api/v1/shared/{token}/points/{point_id}/outcomes", { params: { path: { token, point_id } }, signal }))
        : unwrap(await api.GET("/api/v1/points/{point_id}/outcomes", { params: { path: { point_id } }, signal }))) as PointOutcomes,
  );
}
