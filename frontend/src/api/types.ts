// Names for the generated schema's types, plus shapes the OpenAPI leaves untyped (analysis).
import type { components } from "./schema";

type S = components["schemas"];

export type Target = S["TargetOut"];
export type TargetCreate = S["TargetCreate"];
export type TargetUpdate = S["TargetUpdate"];
export type TargetKind = Target["kind"];

export type PlanBody = S["DnsperfPlan"] | S["WrkPlan"] | S["Iperf3Plan"] | S["DevsimPlan"];
export type Plan = S["DnsperfPlanOut"] | S["WrkPlanOut"] | S["Iperf3PlanOut"] | S["DevsimPlanOut"];
export type PlanTemplate = S["PlanTemplate"];
export type PlanPreview = S["PlanPreview"];
export type PointPreview = S["PointPreview"];
export type Tool = PlanBody["tool"];
export type Phase = PlanBody["phases"][number];
export type PhaseKind = Phase["kind"];
export type RateRange = S["RateRange"];

export type CampaignBrief = S["CampaignBrief"];
export type CampaignOut = S["CampaignOut"];
export type CampaignPage = S["CampaignPage"];
export type Progress = S["Progress"];
export type Summary = S["Summary"];
export type Point = S["PointOut"];
export type PointEvidence = S["PointEvidence"];
export type SampleSeries = S["SampleSeries"];
export type Sample = S["SampleOut"];
export type Agent = S["AgentOut"];
export type Health = S["Health"];
export type LabState = S["LabState"];

export const TOOLS: Tool[] = ["dnsperf", "wrk", "iperf3", "devsim"];
export const TARGET_KINDS: TargetKind[] = ["dns", "http", "net", "device"];
export const TOOL_KIND: Record<Tool, TargetKind> = { dnsperf: "dns", wrk: "http", iperf3: "net", devsim: "device" };
export const CAMPAIGN_STATUSES = [
  "queued",
  "starting",
  "running",
  "cancelling",
  "completed",
  "failed",
  "cancelled",
  "crashed",
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const ACTIVE_STATUSES: string[] = ["queued", "starting", "running", "cancelling"];

// --- analysis (CampaignOut.analysis is a free-form object in the OpenAPI) ---
export interface Usl {
  sigma: number | null;
  kappa: number | null;
  lambda_: number | null;
  peak_concurrency: number | null;
  peak_rate: number | null;
  r2: number | null;
  amdahl_p: number | null;
  note: string | null;
}
export interface Zone {
  zone: "green" | "yellow" | "red";
  from_rate: number;
  to_rate: number;
}
export interface Analysis {
  knee: { offered_rate: number | null; achieved_rate: number | null; latency_avg_ms: number | null } | null;
  ceiling: { achieved_rate: number | null } | null;
  optimal_concurrency: number | null;
  usl: Usl | null;
  zones: Zone[] | null;
  stability: { verdict: string | null; rate_drift_pct: number | null; latency_drift_pct: number | null } | null;
  oscillation: unknown[] | null;
  conclusion: string | null;
  thresholds?: Record<string, number>;
  variants?: Record<string, Analysis>;
  error?: string;
}

export function analysisOf(c: { analysis?: unknown } | undefined | null): Analysis | null {
  const a = c?.analysis;
  if (!a || typeof a !== "object") return null;
  return a as Analysis;
}

// --- live events (GET /campaigns/{id}/events) ---
export interface ProgressEvent {
  status: string;
  progress: Progress;
  summary: Summary;
}
export interface SampleEvent {
  point_id: number;
  t: number;
  series: string;
  values: Record<string, number | null>;
}
export interface PointEvent {
  id: number;
  status: string;
}
