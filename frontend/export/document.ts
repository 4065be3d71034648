// What the backend sends the renderer (backend/kneeboard/exports/document.py builds it): a report or a comparison,
// with everything its charts would fetch, so that rendering needs no network.
import { QueryClient } from "@tanstack/react-query";
import type { Comparison } from "../src/api/compare";
import { TOP_FUNCTIONS, type CpuProfileDiff, type FoldedProfile, type TopFunctions } from "../src/api/cpuProfiles";
import { keys } from "../src/api/keys";
import type { PointOutcomes } from "../src/api/outcomes";
import type { CampaignOut, Point, SampleSeries } from "../src/api/types";
import type { ToolInfo } from "../src/tools/catalog";

/** A point's samples as a chart asks for them: (point, series, max_points) is the query the data answers. */
export interface SamplesEntry {
  point_id: number;
  series: string | null;
  max_points: number;
  data: SampleSeries;
}

/** A point's CPU profile as the report asks for it (its folded stacks cut to a size; its top functions by self). */
export interface CpuProfileEntry {
  point_id: number;
  profile?: FoldedProfile;
  functions?: TopFunctions;
  missing?: string;
}

/** A comparison's CPU differential as its body asks for it: point B against point A (TOP_FUNCTIONS functions), or
 * the reason there is none. */
export interface CpuProfileDiffEntry {
  a: number;
  b: number;
  diff?: CpuProfileDiff;
  missing?: string;
}

export interface ExportDocument {
  kind: "campaign" | "comparison";
  /** Kneeboard's version, and when the file was made (ISO 8601). */
  version: string;
  generated_at: string;
  /** The report's page in Kneeboard, and the site's root (relative links in the report are made absolute on it). */
  link: string;
  site: string;
  tools: ToolInfo[];
  campaign?: CampaignOut;
  points?: Point[];
  samples?: SamplesEntry[];
  /** The request outcomes the report's outcomes chart draws (GET /points/{id}/outcomes' answer per point). */
  outcomes?: { point_id: number; data: PointOutcomes }[];
  /** Points whose monitor charts the report shows (their samples are the entry with series null). */
  monitor_points?: number[];
  /** The CPU profiles the report draws (the point each variant details), with their top functions; a point without
   * one carries the reason (`missing`). */
  cpu_profiles?: CpuProfileEntry[];
  /** The campaign against its plan's pinned baseline, when there is one. */
  baseline?: Comparison | null;
  comparison?: Comparison;
  /** The comparison's CPU differentials (each campaign against the reference at its default matched load). */
  cpu_profile_diffs?: CpuProfileDiffEntry[];
}

/** The samples' max_points the monitor charts are read with (the point evidence panel's). */
export const MONITOR_MAX_POINTS = 2000;

/** A query cache holding what the document carries, never stale: the components find their data without fetching. */
export function seededClient(doc: ExportDocument): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity, retry: false } } });
  qc.setQueryData(keys.tools, doc.tools);
  for (const s of doc.samples ?? []) qc.setQueryData(keys.samples(s.point_id, s.series ?? undefined, s.max_points), s.data);
  for (const o of doc.outcomes ?? []) qc.setQueryData(keys.outcomes(o.point_id), o.data);
  for (const e of doc.cpu_profiles ?? []) {
    const missing = e.missing != null ? { missing: e.missing } : undefined;
    qc.setQueryData(keys.cpuProfile(e.point_id), missing ?? e.profile);
    qc.setQueryData(keys.cpuFunctions(e.point_id, "self", TOP_FUNCTIONS), missing ?? e.functions);
  }
  for (const d of doc.cpu_profile_diffs ?? []) qc.setQueryData(keys.cpuProfileDiff(d.a, d.b, TOP_FUNCTIONS), d.missing != null ? { missing: d.missing } : d.diff);
  return qc;
}

/** A link that may go in the file: an absolute http(s) URL, else none. */
export function safeUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}
