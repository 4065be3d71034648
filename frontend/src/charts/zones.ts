import type { Zone } from "../api/types";
import { ZONE_FILL } from "./palette";

export interface ZoneBand {
  zone: string;
  x1: number;
  x2: number;
  fill: string;
}

/** SLA zones as x-axis bands clipped to the chart's domain; empty or inverted bands are dropped. */
export function zoneBands(zones: Zone[] | null | undefined, domain: [number, number]): ZoneBand[] {
  if (!zones?.length) return [];
  const [lo, hi] = domain[0] <= domain[1] ? domain : [domain[1], domain[0]];
  const out: ZoneBand[] = [];
  zones.forEach((z, i) => {
    const from = Number.isFinite(z.from_rate) ? z.from_rate : lo;
    // the last zone runs to the edge of the chart
    const to = i === zones.length - 1 ? Math.max(hi, z.to_rate ?? hi) : Number.isFinite(z.to_rate) ? z.to_rate : hi;
    const x1 = Math.max(lo, Math.min(from, to));
    const x2 = Math.min(hi, Math.max(from, to));
    if (x2 > x1) out.push({ zone: z.zone, x1, x2, fill: ZONE_FILL[z.zone] ?? "#999" });
  });
  return out;
}

/** A domain widened to round numbers, so axis ticks land on values like 600, 700… rather than 588, 673… */
export function niceDomain(lo: number, hi: number, ticks = 5): [number, number] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    if (hi === 0) return [0, 1];
    const m = Math.abs(hi) * 0.1;
    return niceDomain(lo - m, hi + m, ticks);
  }
  const raw = (hi - lo) / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const nlo = Math.floor(lo / step) * step;
  const nhi = Math.ceil(hi / step) * step;
  return [Math.max(lo >= 0 ? 0 : -Infinity, Number(nlo.toPrecision(12))), Number(nhi.toPrecision(12))];
}

/** Integer axis ticks for concurrency: the first value, then round steps (1, 16, 32, 48, 64 rather than 1, 21, 41, 61, 64). */
export function concurrencyTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi <= lo) return Number.isFinite(lo) ? [lo] : [];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 4, 5, 8, 10].map((f) => f * mag).find((x) => x >= raw) ?? 10 * mag);
  const out = [lo];
  for (let t = Math.ceil((lo + step / 2) / step) * step; t <= hi; t += step) out.push(t);
  if (out[out.length - 1] < hi && hi - out[out.length - 1] >= step / 2) out.push(hi);
  return out;
}
