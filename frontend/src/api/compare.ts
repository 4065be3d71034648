// GET /compare?c=…&c=… : two to ten campaigns (or "id@variant" selectors) side by side.
import { useQuery } from "@tanstack/react-query";
import type { components } from "./schema";
import { API_BASE, api, unwrap } from "./client";
import { keys } from "./keys";

export type Comparison = components["schemas"]["Comparison"];
export type HeadlineMetric = components["schemas"]["Headline"];
export type Difference = components["schemas"]["Difference"];
export type Verdict = NonNullable<HeadlineMetric["verdicts"][string]>;
export type PointVerdicts = components["schemas"]["PointVerdicts"];
export type MetricVerdict = components["schemas"]["MetricVerdict"];

/** One metric of one matched point (verdicts.py `point_tests`): the test of B against A, corrected with the comparison's. */
export interface PointMetricVerdict {
  n_a: number;
  n_b: number;
  mean_a: number | null;
  mean_b: number | null;
  diff: number | null;
  ci_low: number | null;
  ci_high: number | null;
  change_pct: number | null;
  p: number | null;
  p_adjusted: number | null;
  verdict: Verdict;
  margin_pct?: number | null;
  detectable_pct?: number | null;
}

/** A matched point: its coordinates, then one entry per metric. */
export type MatchedPoint = { phase: string; concurrency: number; offered_rate: number | null } & Record<string, unknown>;

/** A metric's verdict on a matched point, when the row has one. */
export function pointMetric(row: MatchedPoint, metric: string): PointMetricVerdict | null {
  const v = row[metric];
  return v && typeof v === "object" && "verdict" in (v as object) ? (v as PointMetricVerdict) : null;
}

/** A verdict as a reader reads it: "equivalent" names its margin ("equivalent within ±2 %"). */
export function verdictText(v: string, marginPct: number | null | undefined): string {
  return v === "equivalent" && marginPct != null ? `equivalent within ±${marginPct} %` : v;
}

/** A verdict as a CSS class: "no detectable difference" → "no-detectable-difference". */
export function verdictClass(v: string): string {
  return v
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export function useCompare(selectors: string[]) {
  return useQuery({
    queryKey: keys.compare(selectors),
    enabled: selectors.length >= 2,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/compare", { params: { query: { c: selectors } }, signal })) as Comparison,
  });
}

/** The comparison as one self-contained HTML file, or Markdown with its charts as SVG files in a zip (docs/exports.md). */
export const compareExportUrl = (selectors: string[], fmt: "html" | "md.zip" = "html") =>
  `${API_BASE}/compare/export.${fmt}?${selectors.map((c) => `c=${encodeURIComponent(c)}`).join("&")}`;
