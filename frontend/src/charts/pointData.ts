// Turn campaign points into chart rows.
import type { Point } from "../api/types";

/** A point's metric as a finite number, or null. */
export const metric = (p: Point, k: string): number | null => {
  const v = p.metrics?.[k];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
};

/** The points that completed. */
export const completed = (points: Point[]) => points.filter((p) => p.status === "completed");

/** Whether a point's offered load was sent (`extra.generator`, analysis/generator.py): when not, why and what would lift it. */
export interface GeneratorVerdict {
  asked: number;
  sent: number;
  sent_pct: number;
  limited: boolean;
  cause: string | null;
  detail: string | null;
  suggestion: string | null;
}

/** The point's generator verdict, or null (not judged: no offered rate, an imported or older point). */
export function generatorOf(p: { extra?: Record<string, unknown> | null }): GeneratorVerdict | null {
  const g = p.extra?.generator;
  return g && typeof g === "object" ? (g as GeneratorVerdict) : null;
}

/** A point whose load the generator did not send: drawn apart, left out of what judges the server. */
export const generatorLimited = (p: Point) => generatorOf(p)?.limited === true;

/** The completed points the server is judged on: generator-limited ones left out, as the API's analysis does. */
const judged = (points: Point[]) => completed(points).filter((p) => !generatorLimited(p));

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
  /** how many repetitions were measured at this load, their sequence numbers (0-based) */
  n: number;
  seqs: number[];
  /** the repeats' spread around the mean [below, above] for an error bar; null with one run */
  spread: [number, number] | null;
}

/** The mean of the finite values, or null. */
const mean = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x != null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

/** Repeats' min and max around their mean, as an error bar's [below, above]; null when fewer than two ran. */
export function spreadOf(values: (number | null)[], centre: number | null): [number, number] | null {
  const v = values.filter((x): x is number => x != null);
  if (v.length < 2 || centre == null) return null;
  return [centre - Math.min(...v), Math.max(...v) - centre];
}

/** Scalability-phase points by concurrency (repeats averaged), charting `headline` (a metric name). */
export function scalabilityRows(points: Point[], headline = "achieved_rate"): ScalabilityRow[] {
  const groups = new Map<string, Point[]>();
  for (const p of ofPhase(points, "scalability").filter((p) => !generatorLimited(p))) {
    const k = `${p.variant ?? ""}|${p.concurrency}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  return [...groups.values()]
    .map((ps) => {
      const values = ps.map((p) => metric(p, headline));
      const centre = mean(values);
      return {
        concurrency: ps[0].concurrency,
        headline: centre,
        efficiency: mean(ps.map((p) => metric(p, "efficiency"))),
        latency: mean(ps.map((p) => metric(p, "latency_avg_ms"))),
        variant: ps[0].variant,
        n: ps.length,
        seqs: ps.map((p) => p.seq).sort((a, b) => a - b),
        spread: spreadOf(values, centre),
      };
    })
    .sort((a, b) => a.concurrency - b.concurrency);
}

export interface KneeRow {
  offered: number | null;
  achieved: number | null;
  latency: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  p999: number | null;
  seq: number;
  /** runs at this load (repeats are averaged) and the spread of their average latency [below, above] */
  n: number;
  latencySpread: [number, number] | null;
  /** generator-limited runs are a row of their own: their latency here (not in `latency`), with the first one's verdict */
  limited: number | null;
  generator: GeneratorVerdict | null;
}

/** The latency percentiles a knee row carries, by row field → metric. */
export const PERCENTILES = { p50: "latency_p50_ms", p90: "latency_p90_ms", p99: "latency_p99_ms", p999: "latency_p999_ms" } as const;

/** Latency against achieved rate: the saturation sweep, or every load point when there is none; repeats of a load averaged. */
export function kneeRows(points: Point[]): KneeRow[] {
  let ps = ofPhase(points, "saturation");
  if (ps.length < 2) ps = completed(points).filter((p) => p.phase !== "stability");
  const groups = new Map<string, Point[]>();
  for (const p of ps) {
    const k = `${p.variant ?? ""}|${p.phase}|${p.concurrency}|${p.offered_rate ?? metric(p, "offered_rate") ?? ""}|${generatorLimited(p)}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  return [...groups.values()]
    .map((g) => {
      const limited = generatorLimited(g[0]);
      const avg = (k: string) => (limited ? null : mean(g.map((p) => metric(p, k))));
      const latencies = g.map((p) => metric(p, "latency_avg_ms"));
      const latency = mean(latencies);
      return {
        offered: g[0].offered_rate ?? metric(g[0], "offered_rate"),
        achieved: mean(g.map((p) => metric(p, "achieved_rate"))),
        latency: limited ? null : latency,
        p50: avg(PERCENTILES.p50),
        p90: avg(PERCENTILES.p90),
        p99: avg(PERCENTILES.p99),
        p999: avg(PERCENTILES.p999),
        seq: Math.min(...g.map((p) => p.seq)),
        n: g.length,
        latencySpread: limited ? null : spreadOf(latencies, latency),
        limited: limited ? latency : null,
        generator: limited ? generatorOf(g[0]) : null,
      };
    })
    .filter((r) => r.achieved != null && (r.latency != null || r.limited != null))
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

/** The campaign summary of a subset of points (one variant's), computed as the API computes the whole campaign's
 * (the highest rate and the baseline from the points the server is judged on: generator-limited ones left out). */
export function summaryOf(points: Point[]): PointsSummary {
  const done = completed(points);
  const rates = judged(points).map((p) => metric(p, "achieved_rate")).filter((x): x is number => x != null);
  const baseline = judged(points).filter((p) => p.phase === "baseline").map((p) => metric(p, "latency_avg_ms")).filter((x): x is number => x != null);
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
