// GET /compare?c=…&c=… : two to ten campaigns (or "id@variant" selectors) side by side.
import { useQuery } from "@tanstack/react-query";
import type { components } from "./schema";
import { api, unwrap } from "./client";
import { keys } from "./keys";

export type Comparison = components["schemas"]["Comparison"];
export type HeadlineMetric = components["schemas"]["Headline"];
export type Difference = components["schemas"]["Difference"];
export type Verdict = NonNullable<HeadlineMetric["verdicts"][string]>;

export function useCompare(selectors: string[]) {
  return useQuery({
    queryKey: keys.compare(selectors),
    enabled: selectors.length >= 2,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/compare", { params: { query: { c: selectors } }, signal })) as Comparison,
  });
}
