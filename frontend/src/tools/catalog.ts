// What GET /api/v1/tools says about each tool, and the questions the UI asks of it.
// Nothing here names a tool: every answer comes from the tool's own description.
import type { components } from "../api/schema";
import type { TargetKind } from "../api/types";

export type ToolInfo = components["schemas"]["ToolOut"];
export type MetricInfo = components["schemas"]["MetricOut"];
export type ToolRole = ToolInfo["role"];

/** The tools that generate load, in the API's order (the plan editor's tool list). */
export function loadTools(tools: readonly ToolInfo[] | undefined): ToolInfo[] {
  return (tools ?? []).filter((t) => t.role === "load");
}

/** The tools that watch beside the load (a plan's monitors). */
export function monitorTools(tools: readonly ToolInfo[] | undefined): ToolInfo[] {
  return (tools ?? []).filter((t) => t.role === "monitor");
}

/** A tool by name, or undefined while the list loads or for a tool no longer registered. */
export function findTool(tools: readonly ToolInfo[] | undefined, name: string | null | undefined): ToolInfo | undefined {
  return name ? tools?.find((t) => t.name === name) : undefined;
}

/** One of the tool's metrics by name. */
export function metricOf(tool: ToolInfo | undefined, name: string): MetricInfo | undefined {
  return tool?.metrics.find((m) => m.name === name);
}

/** The metric a report, a chart and a comparison lead with (throughput for a network tool, answers per second for DNS…). */
export function headlineOf(tool: ToolInfo | undefined): MetricInfo | undefined {
  return tool?.headline ? metricOf(tool, tool.headline) : undefined;
}

/** The unit of a metric of the tool ("" when the tool or the metric is unknown). */
export function unitOf(tool: ToolInfo | undefined, metric: string): string {
  return metricOf(tool, metric)?.unit ?? "";
}

/** The unit of a point's offered and achieved rate. */
export function rateUnitOf(tool: ToolInfo | undefined): string {
  return tool?.rate_unit ?? "";
}

/** A unit as an API answer states it, where "rate" means the tool's rate unit (the compare headline does so). */
export function resolveUnit(unit: string, tool: ToolInfo | undefined): string {
  return unit === "rate" ? rateUnitOf(tool) : unit;
}

/** The target kind a tool runs against (the first it lists). */
export function targetKindOf(tool: ToolInfo | undefined): TargetKind | undefined {
  return tool?.target_kinds[0] as TargetKind | undefined;
}

/** "clients" → "client": one unit of the tool's concurrency. */
export function concurrencyUnit(tool: ToolInfo | undefined): string {
  const label = tool?.concurrency_label ?? "concurrency";
  return label.endsWith("s") ? label.slice(0, -1) : label;
}

/** The latency an SLO is read on, as a short label: "p99" (from the metric's title "Latency p99"), else "mean latency" or the title. */
export function latencyLabel(tool: ToolInfo | undefined, metric: string): string {
  const title = metricOf(tool, metric)?.title;
  const last = title?.split(" ").pop() ?? "";
  if (/^p\d/.test(last)) return last;
  const pct = /_p(\d)(\d*)_ms$/.exec(metric);
  if (pct) return `p${pct[1]}${pct[2].slice(0, 1)}${pct[2].length > 1 ? `.${pct[2].slice(1)}` : ""}`;
  if (metric === "latency_avg_ms") return "mean latency";
  return title?.toLowerCase() ?? metric;
}

/** Whether the tool sends per-interval samples while a point runs (false: the live view shows progress only). */
export function hasLiveSamples(tool: ToolInfo | undefined): boolean {
  return tool?.live_samples ?? true;
}

/** The latencies a capacity target may be read on: the API's `slo_metric` choices (the compiler keeps this list equal to them), mean first. */
type SloMetric = NonNullable<components["schemas"]["Thresholds"]["slo_metric"]>;
const SLO_ORDER: Record<SloMetric, number> = { latency_avg_ms: 0, latency_p50_ms: 1, latency_p90_ms: 2, latency_p99_ms: 3, latency_p999_ms: 4 };

/** The latencies a capacity SLO may be read on that the tool declares (mean, p50, p90, p99, p99.9). */
export function sloMetricsOf(tool: ToolInfo | undefined): MetricInfo[] {
  return (Object.keys(SLO_ORDER) as SloMetric[]).flatMap((n) => metricOf(tool, n) ?? []);
}

/** The latency percentiles charted and tabled (p50, p90, p99, p99.9) that the tool declares, lowest first. */
export function percentilesOf(tool: ToolInfo | undefined): MetricInfo[] {
  return sloMetricsOf(tool).filter((m) => m.name !== "latency_avg_ms");
}
