// Turn campaign points into chart rows.
import type { Point } from "../api/types";

/** A point's metric as a finite number, or null. */
export const metric = (p: Point, k: string): number | null => {
  const v = p.metrics?.[k];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
};

/** The points that completed. */
export const completed = (points: Point[]) => points.filter((p) => p.status === "completed");

/** The phase whose points drive a chart: the named one when it has completed points. */
export function ofPhase(points: Point[], phase: string): Point[] {
  return completed(points).filter((p) => p.phase === phase);
}

export interface ScalabilityRow {
  concurrency: number;
  headline: number | null; // the tool's headline metric
  efficiency: number | null; // the API's ratio (achieved / offered)
  latency: number | null;
  variant: string | null;
}

/** Scalability-phase points by concurrency (repeats averaged), charting `headline` (a metric name). */
export function scalabilityRows(points: Point[], headline = "achieved_rate"): ScalabilityRow[] {
  const groups = new Map<string, Point[]>();
  for (const p of ofPhase(points, "scalability")) {
    const k = `${p.variant ?? ""}|${p.concurrency}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  const mean = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x != null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  return [...groups.values()]
    .map((ps) => ({
      concurrency: ps[0].concurrency,
      headline: mean(ps.map((p) => metric(p, headline))),
      efficiency: mean(ps.map((p) => metric(p, "efficiency"))),
      latency: mean(ps.map((p) => metric(p, "latency_avg_ms"))),
      variant: ps[0].variant,
    }))
    .sort((a, b) => a.concurrency - b.concurrency);
}

export interface KneeRow {
  offered: number | null;
  achieved: number | null;
  latency: number | null;
  p99: number | null;
  seq: number;
}

/** Latency against achieved rate: the saturation sweep, or every load point when there is none. */
export function kneeRows(points: Point[]): KneeRow[] {
  let ps = ofPhase(points, "saturation");
  if (ps.length < 2) ps = completed(points).filter((p) => p.phase !== "stability");
  return ps
    .map((p) => ({
      offered: p.offered_rate ?? metric(p, "offered_rate"),
      achieved: metric(p, "achieved_rate"),
      latency: metric(p, "latency_avg_ms"),
      p99: metric(p, "latency_p99_ms"),
      seq: p.seq,
    }))
    .filter((r) => r.achieved != null && r.latency != null)
    .sort((a, b) => (a.offered ?? a.achieved ?? 0) - (b.offered ?? b.achieved ?? 0) || a.seq - b.seq);
}

/** Samples' epoch seconds → seconds since the first sample. */
export function relativeTime<T extends { t: number }>(rows: T[]): (T & { s: number })[] {
  const t0 = rows.length ? Math.min(...rows.map((r) => r.t)) : 0;
  return rows.map((r) => ({ ...r, s: Number((r.t - t0).toFixed(3)) }));
}

export interface PointsSummary {
  max_achieved_rate: number | null;
  baseline_latency_ms: number | null;
  loss_pct: number | null;
  points_completed: number;
  points_failed: number;
}

/** The campaign summary of a subset of points (one variant's), computed as the API computes the whole campaign's. */
export function summaryOf(points: Point[]): PointsSummary {
  const done = completed(points);
  const rates = done.map((p) => metric(p, "achieved_rate")).filter((x): x is number => x != null);
  const baseline = done.filter((p) => p.phase === "baseline").map((p) => metric(p, "latency_avg_ms")).filter((x): x is number => x != null);
  const sent = done.reduce((a, p) => a + (metric(p, "sent") ?? 0), 0);
  const lost = done.reduce((a, p) => a + (metric(p, "lost") ?? 0), 0);
  return {
    max_achieved_rate: rates.length ? Math.max(...rates) : null,
    baseline_latency_ms: baseline.length ? baseline.reduce((a, b) => a + b, 0) / baseline.length : null,
    loss_pct: sent ? (100 * lost) / sent : null,
    points_completed: done.length,
    points_failed: points.filter((p) => p.status === "failed").length,
  };
}

/** The variant labels of a campaign: its frozen plan's, in plan order, then any others its points carry. */
export function variantLabels(plan: unknown, points: Point[] = []): string[] {
  const fromPlan = ((plan as { variants?: { label?: unknown }[] } | null)?.variants ?? []).map((v) => String(v?.label ?? "")).filter(Boolean);
  const fromPoints = points.map((p) => p.variant).filter((v): v is string => !!v);
  return [...new Set([...fromPlan, ...fromPoints])];
}

/** `/compare?c=12@1%20queue&c=12@4%20queues`: the variants of one campaign side by side (the API takes ten at most). */
export function compareVariantsUrl(campaignId: number, labels: string[]): string {
  return `/compare?${labels
    .slice(0, 10)
    .map((l) => `c=${encodeURIComponent(`${campaignId}@${l}`)}`)
    .join("&")}`;
}
