// What a point's failover figures look like (extra.failover, events/figures.py; docs/failover.md) and how the charts
// read its outcomes per bucket (extra.outcomes as GET /points/{id}/outcomes gives it, tools/kbhttp/outcomes.py).
import { fmtUnit } from "../../format";

/** Per header value (a backend): its answered requests and their share of all answered ones. */
export type Spread = Record<string, { requests: number; share: number }>;

/** A window of time in epoch seconds. */
export interface Window {
  start: number;
  end: number;
  duration_s: number;
  failed?: number;
}

/** The figures of one failure event (analysis/failover.failover), with the event that caused it. */
export interface FailoverEvent {
  action: string;
  value: string;
  at_s: number;
  event: number;
  error_window: Window | null;
  longest_gap: Window | null;
  failed_by_class: Record<string, number>;
  detection_s: number | null;
  recovery_s: number | null;
  spread: { before: Spread; during: Spread; after: Spread };
  resolution_s: number;
  /** per connection or source address, when the API gives it */
  persistence?: Record<string, unknown> | null;
}

/** The failover figures a point keeps, one per failure event (none without events or outcomes). */
export function failoverOf(extra: Record<string, unknown> | null | undefined): FailoverEvent[] {
  const found = extra?.failover;
  return Array.isArray(found) ? (found as FailoverEvent[]) : [];
}

/** The outcome classes in the order they stack, each with its colour: answered first, then the failures, cancelled last. */
export const OUTCOME_CLASSES: [name: string, label: string, colour: string][] = [
  ["ok", "answered (2xx, 3xx)", "#16a34a"],
  ["http_5xx", "HTTP 5xx", "#dc2626"],
  ["http_4xx", "HTTP 4xx", "#f97316"],
  ["connect", "connect failed", "#7c3aed"],
  ["reset", "reset", "#db2777"],
  ["timeout", "timed out", "#ca8a04"],
  ["tls", "TLS", "#0891b2"],
  ["other", "other failure", "#475569"],
  ["cancelled", "cancelled by a stop", "#94a3b8"],
];

/** A class's label as a reader reads it. */
export const classLabel = (name: string) => OUTCOME_CLASSES.find(([n]) => n === name)?.[1] ?? name;

/** One stored series, dense: stored dense, or sparse as {n, at: [[bucket, count], …]}. */
export function decode(stored: unknown): number[] {
  if (Array.isArray(stored)) return stored.map(Number);
  const sparse = stored as { n?: number; at?: [number, number][] } | null;
  const dense = new Array<number>(Number(sparse?.n ?? 0)).fill(0);
  for (const [i, c] of sparse?.at ?? []) dense[i] = c;
  return dense;
}

// merged bucket widths stay round: 10 ms × 1, 2, 5, 10, 20, 50… (as tools/kbhttp/outcomes.py merges a long point's)
const ROUND_FACTORS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];

/** The stored outcomes as chart rows: `s` seconds since the first bucket, one column per class that occurred, buckets
 * merged (summed, by a round factor) so that at most `maxRows` remain; the merged width in seconds, and the classes found. */
export function outcomeRows(stored: Record<string, unknown>, maxRows = 600): { rows: Record<string, number>[]; width_s: number; classes: string[] } {
  const series = Object.fromEntries(Object.entries((stored.classes as Record<string, unknown>) ?? {}).map(([k, v]) => [k, decode(v)]));
  const classes = OUTCOME_CLASSES.map(([name]) => name).filter((name) => series[name]?.some((c) => c > 0));
  const n = Math.max(0, ...Object.values(series).map((s) => s.length));
  const factor = ROUND_FACTORS.find((f) => f * maxRows >= n) ?? Math.ceil(n / maxRows);
  const width_s = (Number(stored.bucket_ms) / 1000) * factor;
  const rows: Record<string, number>[] = [];
  for (let i = 0; i < n; i += factor) {
    const row: Record<string, number> = { s: Number(((i / factor) * width_s).toFixed(3)) };
    for (const name of classes) {
      let sum = 0;
      for (let j = i; j < Math.min(n, i + factor); j++) sum += series[name][j] ?? 0;
      row[name] = sum;
    }
    rows.push(row);
  }
  return { rows, width_s, classes };
}

/** A time a figure gives in seconds, read in ms below 10 s ("874 ms"), else in seconds; "—" when there is none. */
export const fmtSeconds = (s: number | null | undefined) => (s == null ? "—" : s < 10 ? fmtUnit(s * 1000, "ms") : fmtUnit(s, "s"));

/** A spread in one line: "b1 33.3 % · b2 33.3 % · b3 33.3 %" (largest first), "—" without answers. */
export function spreadText(spread: Spread | null | undefined): string {
  const entries = Object.entries(spread ?? {}).filter(([, v]) => v.requests > 0);
  if (!entries.length) return "—";
  return entries
    .sort((a, b) => b[1].requests - a[1].requests || a[0].localeCompare(b[0], undefined, { numeric: true }))
    .map(([value, v]) => `${value} ${fmtUnit(v.share, "ratio")}`)
    .join(" · ");
}

/** Failed requests by class in one line: "582 (HTTP 5xx 582)", "0". */
export function failedText(byClass: Record<string, number>): string {
  const entries = Object.entries(byClass).filter(([, n]) => n > 0);
  const total = entries.reduce((a, [, n]) => a + n, 0);
  return entries.length ? `${fmtUnit(total, "count")} (${entries.map(([k, n]) => `${classLabel(k)} ${fmtUnit(n, "count")}`).join(", ")})` : "0";
}

/** Persistence as a sentence: per connection or per source (analysis/failover.persistence, persistence_by_source: each
 * source's main backend named), or any other keys the API gives. */
export function persistenceText(p: Record<string, unknown> | null | undefined): string | null {
  if (!p) return null;
  const num = (k: string) => (typeof p[k] === "number" ? (p[k] as number) : null);
  const unit = num("connections") != null ? "connections" : num("sources") != null ? "sources" : null;
  if (unit && num("mean_share") != null) {
    const per = Object.entries((p.per_source as Record<string, { value: string; share: number }> | undefined) ?? {});
    const each = per.length ? ` (${per.map(([name, s]) => `${name} on ${s.value} ${fmtUnit(s.share, "ratio")}`).join(", ")})` : "";
    return `${fmtUnit(num(unit), "count")} ${unit}: ${fmtUnit(num("mean_share"), "ratio")} of their requests on their main backend (lowest ${fmtUnit(num("min_share"), "ratio")}); ${fmtUnit(num("all_on_one"), "count")} stayed on one backend throughout${each}`;
  }
  return Object.entries(p)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "number" ? (k.includes("share") ? fmtUnit(v, "ratio") : fmtUnit(v, "count")) : JSON.stringify(v)}`)
    .join(", ");
}

/** Where a point's answered requests went when no failure split it (extra.distribution, analysis/failover.distribution). */
export interface Distribution {
  header: string | null;
  answered: number;
  values_used: number;
  spread: Spread;
  persistence: Record<string, unknown> | null;
  persistence_by_source?: Record<string, unknown> | null;
}

/** A point's distribution over the backends, or null. */
export function distributionOf(extra: Record<string, unknown> | null | undefined): Distribution | null {
  const found = extra?.distribution;
  return found && typeof found === "object" ? (found as Distribution) : null;
}
