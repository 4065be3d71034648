// Turn campaign points into chart rows.
import type { Point } from "../api/types";

export const metric = (p: Point, k: string): number | null => {
  const v = p.metrics?.[k];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
};

export const completed = (points: Point[]) => points.filter((p) => p.status === "completed");

/** The phase whose points drive a chart: the named one when it has completed points. */
export function ofPhase(points: Point[], phase: string): Point[] {
  return completed(points).filter((p) => p.phase === phase);
}

export interface ScalabilityRow {
  concurrency: number;
  achieved: number | null;
  efficiency: number | null; // percent
  latency: number | null;
  variant: string | null;
}

/** Scalability-phase points by concurrency (repeats averaged). */
export function scalabilityRows(points: Point[]): ScalabilityRow[] {
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
    .map((ps) => {
      const eff = mean(ps.map((p) => metric(p, "efficiency")));
      return {
        concurrency: ps[0].concurrency,
        achieved: mean(ps.map((p) => metric(p, "achieved_rate"))),
        efficiency: eff == null ? null : eff * 100,
        latency: mean(ps.map((p) => metric(p, "latency_avg_ms"))),
        variant: ps[0].variant,
      };
    })
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
