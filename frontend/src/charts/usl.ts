import type { Usl } from "../api/types";

/** The Universal Scalability Law: X(N) = λN / (1 + σ(N−1) + κN(N−1)). */
export function uslRate(n: number, usl: Pick<Usl, "sigma" | "kappa" | "lambda_">): number | null {
  const { sigma, kappa, lambda_ } = usl;
  if (lambda_ == null || sigma == null || kappa == null) return null;
  const denom = 1 + sigma * (n - 1) + kappa * n * (n - 1);
  if (!(denom > 0)) return null;
  return (lambda_ * n) / denom;
}

export interface UslPoint {
  concurrency: number;
  usl: number;
}

/**
 * The USL curve sampled over [nMin, nMax] for drawing: `steps` evenly spaced values plus every
 * integer concurrency when there are few, plus the predicted peak when it falls inside the range.
 */
export function sampleUsl(usl: Usl | null | undefined, nMin: number, nMax: number, steps = 120): UslPoint[] {
  if (!usl || usl.lambda_ == null || !(nMax >= nMin) || !Number.isFinite(nMin) || !Number.isFinite(nMax)) return [];
  const lo = Math.max(1, nMin);
  const hi = Math.max(lo, nMax);
  const ns = new Set<number>();
  const count = Math.max(2, Math.min(steps, 2000));
  for (let i = 0; i < count; i++) ns.add(lo + ((hi - lo) * i) / (count - 1));
  if (hi - lo <= steps) for (let n = Math.ceil(lo); n <= hi; n++) ns.add(n);
  if (usl.peak_concurrency != null && usl.peak_concurrency >= lo && usl.peak_concurrency <= hi) ns.add(usl.peak_concurrency);
  const out: UslPoint[] = [];
  for (const n of [...ns].sort((a, b) => a - b)) {
    const x = uslRate(n, usl);
    if (x != null && Number.isFinite(x)) out.push({ concurrency: Number(n.toFixed(4)), usl: x });
  }
  return out;
}
