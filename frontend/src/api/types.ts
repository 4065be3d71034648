// Names for the generated schema's types, plus shapes the OpenAPI leaves untyped (analysis).
import type { components, operations } from "./schema";

type S = components["schemas"];
type CreatePlan = operations["create_plan_api_v1_plans_post"];

export type Target = S["TargetOut"];
export type TargetCreate = S["TargetCreate"];
export type TargetUpdate = S["TargetUpdate"];
export type TargetKind = Target["kind"];
export type TargetExporter = S["Exporter"];
export type ExporterPack = S["PackOut"];
export type PrometheusServer = S["ServerOut"];
export type PrometheusServerCreate = S["ServerCreate"];
export type PrometheusServerUpdate = S["ServerUpdate"];
export type PrometheusAllowList = S["AllowListOut"];
export type PrometheusSource = S["PrometheusSource"];
export type PrometheusQuery = S["CustomQuery"];

/** A plan body as POST /plans takes it (a union over the registered tools). */
export type PlanBody = CreatePlan["requestBody"]["content"]["application/json"];
/** A stored plan. */
export type Plan = CreatePlan["responses"][201]["content"]["application/json"];
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
/** A point's latency histogram (GET /points/{id}/histogram): log-spaced buckets and the percentile table. */
export type Histogram = S["Histogram"];
export type Sample = S["SampleOut"];
export type Agent = S["AgentOut"];
export type Health = S["Health"];
export type LabState = S["LabState"];

export const TARGET_KINDS: TargetKind[] = ["dns", "http", "net", "device"];

// --- statuses: the generated unions; the compiler checks each table names every status, and no other ---
export type CampaignStatus = S["CampaignStatus"];
export type PointStatus = S["PointStatus"];
export type AgentStatus = S["AgentStatus"];

/** Per campaign status: is it still going (queued or running), may it be cancelled, may it be resumed. */
const CAMPAIGN_STATUS: Record<CampaignStatus, { active: boolean; cancellable: boolean; resumable: boolean }> = {
  queued: { active: true, cancellable: true, resumable: false },
  starting: { active: true, cancellable: true, resumable: false },
  running: { active: true, cancellable: true, resumable: false },
  cancelling: { active: true, cancellable: false, resumable: false },
  completed: { active: false, cancellable: false, resumable: false },
  failed: { active: false, cancellable: false, resumable: false },
  cancelled: { active: false, cancellable: false, resumable: true },
  crashed: { active: false, cancellable: false, resumable: true },
};

/** Every campaign status, in lifecycle order (the filter's choices). */
export const CAMPAIGN_STATUSES = Object.keys(CAMPAIGN_STATUS) as CampaignStatus[];

/** Whether a campaign in this status is queued or running (so it is polled and followed live). */
export function isActive(status: CampaignStatus): boolean {
  return CAMPAIGN_STATUS[status]?.active ?? false;
}

/** Whether a campaign in this status may be cancelled. */
export function isCancellable(status: CampaignStatus): boolean {
  return CAMPAIGN_STATUS[status]?.cancellable ?? false;
}

/** Whether a campaign in this status may be resumed (POST /campaigns/{id}/resume runs the points that did not complete). */
export function isResumable(status: CampaignStatus): boolean {
  return CAMPAIGN_STATUS[status]?.resumable ?? false;
}

// --- analysis (the API's Analysis schema; every figure's rule and metric come with it) ---
export type Usl = S["UslFit"];
export type Zone = S["Zone"];
/** Capacity at an SLO: the highest achieved rate keeping `metric` ≤ `limit_ms` (and efficiency), with its bootstrap interval. */
export type Capacity = S["CapacityAtSlo"];
/** A search criterion's capacity over the search's repetitions (mean, interval, each repetition's). */
export type SearchedCapacity = S["SearchedCapacity"];
export type Knee = S["Knee"];
export type Analysis = S["Analysis"];
/** A point left out of the analysis because the generator did not send its load: why, and the change that would lift it. */
export type GeneratorLimited = S["GeneratorLimited"];
/** A search phase's outcome on the analysis: capacity per criterion when done, else its bracket. */
export type SearchResult = S["SearchResult"];
export type SearchCapacity = S["SearchCapacity"];
export type SearchProgress = S["SearchProgress"];

/** A point's steady window (`extra.steady`): its warm-up trimmed, and whether what is left is steady. */
export interface Steady {
  warmup_s: number;
  intervals: number;
  mean: number | null;
  cv: number | null;
  trend_pct: number | null;
  unsteady: boolean;
  reason: string | null;
}

/** The point's steady-window judgement, or null (not judged: too few intervals, or an imported point). */
export function steadyOf(p: { extra?: Record<string, unknown> | null }): Steady | null {
  const s = p.extra?.steady;
  return s && typeof s === "object" ? (s as Steady) : null;
}

/** The campaign's analysis, or null when it has none yet. */
export function analysisOf(c: { analysis?: unknown } | undefined | null): Analysis | null {
  const a = c?.analysis;
  if (!a || typeof a !== "object") return null;
  return a as Analysis;
}

// --- live events (GET /campaigns/{id}/events) ---
export interface ProgressEvent {
  status: CampaignStatus;
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
  status: PointStatus;
}
/** One fired event as the point keeps it (`extra.events`, events/schedule.py): when it was asked for (`at_s` into the
 * load) and fired (`t`, epoch seconds), when it was done, when a started backend listened again, or why it failed;
 * `observer` when an observer ran it on the server's host. */
export interface PointEventRecord {
  at_s: number;
  action: string;
  value: string;
  t: number;
  done?: number;
  listening?: number;
  error?: string;
  observer?: string;
}
/** `point_event`: one of the running point's events, told as it fires and again when it is done (or failed). */
export interface PointEventMessage extends PointEventRecord {
  point_id: number;
}
/** `search`: where a running search stands (its bracket and the trial asked next), or, with `done`, what it found. */
export interface SearchEvent {
  phase_index: number;
  variant: string | null;
  repeat: number;
  unit: string;
  done: boolean;
  trials: number;
  criterion?: string;
  low?: number | null;
  high?: number | null;
  rate?: number;
  duration_s?: number;
  stage?: number;
  range?: number[];
  criteria?: SearchCapacity[];
  error?: string;
  /** why it ended before its resolution (its time budget), with the bracket it had reached */
  stopped?: string;
}

// --- server evidence (`analysis.evidence`, each variant's too): the server's own metrics per point, read by the analysis ---
/** The resource closest to saturation by the USE method, with the lines that show it; kind "none" says nothing was near. */
export interface Bottleneck {
  /** null when nothing was judged near saturation (kind "none") */
  resource: string | null;
  kind: "utilisation" | "saturation" | "errors" | "none";
  text: string;
  evidence: string[];
  value: number | null;
  threshold: number | null;
}

/** Where the difference went: a counter that explains requests the server did not count (kernel drops, refusals…). */
export interface AgreementPart {
  what: string;
  rate: number;
  share_pct: number | null;
}

/** The server's request count beside the client's at one point; `agree` is false past the tolerance (2 %). */
export interface Agreement {
  server_rate: number;
  sent_rate: number | null;
  answered_rate: number | null;
  lost_rate: number | null;
  difference_pct: number;
  agree: boolean;
  source: string;
  where: AgreementPart[];
  text: string;
}

/** The server process's own CPU per unit of work ("CPU-s per 1,000 queries"), from its counter. */
export interface ServerCost {
  value: number;
  unit: string;
  cpu_pct: number;
  /** its CPU-seconds over the whole load, when read so */
  cpu_s?: number | null;
  /** the CPUs it may use (affinity, cgroup quota, GOMAXPROCS), when read */
  usable_cpus?: number | null;
  source: string;
}

/** A point's host CPUs, in CPUs busy: the server process, the load generator with Kneeboard's monitors, the rest, idle. */
export type HostSplit = S["HostSplit"];

/** One point's server evidence. */
export interface EvidencePoint {
  point_id: number;
  phase: string;
  offered_rate: number | null;
  concurrency: number | null;
  repeat: number;
  variant: string | null;
  agreement: Agreement | null;
  cost: ServerCost | null;
  bottleneck: Bottleneck | null;
  /** the host's CPUs split between server, generator, other and idle (newer analyses) */
  host_split?: HostSplit | null;
}

/** An analysis' server evidence: the bottleneck it leads with, where it was judged, each point's, notes, or why there is none. */
export interface ServerEvidence {
  bottleneck: Bottleneck | null;
  /** the point it was judged at, and how that point was chosen ("at the knee", "at the highest load judged") */
  at: { point_id: number; offered_rate: number | null; achieved_rate?: number | null; where?: string } | null;
  points: EvidencePoint[];
  notes: string[];
  missing: string | null;
}

/** An analysis' (or a variant's) server evidence, or null when it has none (analyses from before it). */
export function evidenceOf(analysis: unknown): ServerEvidence | null {
  const e = analysis && typeof analysis === "object" ? (analysis as { evidence?: unknown }).evidence : null;
  return e && typeof e === "object" ? (e as ServerEvidence) : null;
}

/** A comparison's bottleneck per selector (`bottlenecks`), or {} when the response has none. */
export function bottlenecksOf(comparison: unknown): Record<string, Bottleneck | null> {
  const b = comparison && typeof comparison === "object" ? (comparison as { bottlenecks?: unknown }).bottlenecks : null;
  return b && typeof b === "object" ? (b as Record<string, Bottleneck | null>) : {};
}
