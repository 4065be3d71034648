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
  /** seconds since the campaign's first sample, and the metric's value */
  rows: { s: number; value: number }[];
}

/**
 * One segment per point that has samples, in time order: its stored samples merged with those the live
 * stream brought (by time; the live one wins), the metric read from each. Time is seconds since the first
 * sample of the campaign. Each segment is thinned so the whole chart stays near 2 × MAX_CHART_POINTS.
 */
export function timelineSegments(
  points: readonly Point[],
  stored: Record<number, readonly TimedValues[] | undefined>,
  live: Record<number, readonly TimedValues[] | undefined>,
  metric: string,
  runningId: number | null = null,
): { segments: TimelineSegment[]; samples: number } {
  const merged = points.map((p) => {
    const byT = new Map<number, number>();
    for (const src of [stored[p.id], live[p.id]])
      for (const r of src ?? []) {
        const v = r.values?.[metric];
        if (typeof v === "number" && Number.isFinite(v)) byT.set(r.t, v);
      }
    return { p, rows: [...byT.entries()].sort((a, b) => a[0] - b[0]) };
  });
  const withData = merged.filter((m) => m.rows.length > 0);
  const t0 = Math.min(...withData.map((m) => m.rows[0][0]));
  const perSegment = Math.max(30, Math.floor((2 * MAX_CHART_POINTS) / Math.max(1, withData.length)));
  const segments = withData
    .map(({ p, rows }) => ({
      pointId: p.id,
      seq: p.seq,
      phase: p.phase,
      concurrency: p.concurrency,
      offered: p.offered_rate ?? null,
      running: p.id === runningId || p.status === "running",
      rows: downsample(rows, perSegment).map(([t, value]) => ({ s: Number((t - t0).toFixed(3)), value })),
    }))
    .sort((a, b) => a.rows[0].s - b.rows[0].s || a.seq - b.seq);
  return { segments, samples: segments.reduce((n, s) => n + s.rows.length, 0) };
}
