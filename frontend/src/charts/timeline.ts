// The campaign timeline: every point's per-interval samples on one time axis, one segment per point.
import type { Point } from "../api/types";
import { downsample, MAX_CHART_POINTS } from "./downsample";

export interface TimedValues {
  t: number;
  values: Record<string, number | null>;
}

export interface TimelineSegment {
  pointId: number;
  seq: number;
  phase: string;
  concurrency: number;
  offered: number | null;
  running: boolean;
  /** no interval sample (a point shorter than two of the tool's intervals has none, or only its last): the point's own
   * figure, drawn flat from its start to its end */
  whole: boolean;
  /** seconds since the campaign's first sample, and the metric's value */
  rows: { s: number; value: number }[];
}

/** A finished point's own figure over its run, [[start, value], [end, value]] in epoch seconds, when it has both. */
function wholePoint(p: Point, metric: string): [number, number][] {
  const value = p.metrics?.[metric];
  const start = p.started_at ? Date.parse(p.started_at) / 1000 : NaN;
  const end = p.ended_at ? Date.parse(p.ended_at) / 1000 : NaN;
  if (typeof value !== "number" || !Number.isFinite(value) || !Number.isFinite(start) || !(end > start)) return [];
  return [
    [start, value],
    [end, value],
  ];
}

/**
 * One segment per point, in time order: its stored samples merged with those the live stream brought (by
 * time; the live one wins), the metric read from each; a finished point without any sample is drawn by its
 * own figure over its run (`whole`), so every point shows. Time is seconds since the campaign's first row.
 * Each segment is thinned so the whole chart stays near 2 × MAX_CHART_POINTS. `samples` counts real samples; `t0` is
 * the epoch second the time axis starts at.
 */
export function timelineSegments(
  points: readonly Point[],
  stored: Record<number, readonly TimedValues[] | undefined>,
  live: Record<number, readonly TimedValues[] | undefined>,
  metric: string,
  runningId: number | null = null,
): { segments: TimelineSegment[]; samples: number; t0: number } {
  const merged = points.map((p) => {
    const byT = new Map<number, number>();
    for (const src of [stored[p.id], live[p.id]])
      for (const r of src ?? []) {
        const v = r.values?.[metric];
        if (typeof v === "number" && Number.isFinite(v)) byT.set(r.t, v);
      }
    const rows = [...byT.entries()].sort((a, b) => a[0] - b[0]);
    return rows.length ? { p, rows, whole: false } : { p, rows: wholePoint(p, metric), whole: true };
  });
  const withData = merged.filter((m) => m.rows.length > 0);
  const t0 = Math.min(...withData.map((m) => m.rows[0][0]));
  const perSegment = Math.max(30, Math.floor((2 * MAX_CHART_POINTS) / Math.max(1, withData.length)));
  const segments = withData
    .map(({ p, rows, whole }) => ({
      pointId: p.id,
      seq: p.seq,
      phase: p.phase,
      concurrency: p.concurrency,
      offered: p.offered_rate ?? null,
      running: p.id === runningId || p.status === "running",
      whole,
      rows: downsample(rows, perSegment).map(([t, value]) => ({ s: Number((t - t0).toFixed(3)), value })),
    }))
    .sort((a, b) => a.rows[0].s - b.rows[0].s || a.seq - b.seq);
  return { segments, samples: segments.reduce((n, s) => n + (s.whole ? 0 : s.rows.length), 0), t0 };
}
