// GET /compare?c=…&c=… — typed by hand until the route appears in openapi.json.
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { keys } from "./keys";
import type { CampaignOut, Point } from "./types";

export interface Delta {
  abs: number | null;
  pct: number | null;
}
export type Verdict = "better" | "worse" | "indistinguishable";
export interface HeadlineMetric {
  metric: string;
  label: string;
  unit: string;
  better: "higher" | "lower";
  values: Record<string, number | null>;
  deltas: Record<string, Delta | null>;
  verdicts: Record<string, Verdict | null>;
}
export interface Difference {
  key: string;
  values: Record<string, string | null>;
}
export interface Comparison {
  campaigns: CampaignOut[];
  points: Record<string, Point[]>;
  headline: HeadlineMetric[];
  differences: { plan: Difference[]; environment: Difference[] };
}

export function useCompare(ids: number[]) {
  return useQuery({
    queryKey: keys.compare(ids),
    enabled: ids.length >= 2,
    queryFn: ({ signal }) => getJson<Comparison>(`/compare?${ids.map((id) => `c=${id}`).join("&")}`, signal),
  });
}
