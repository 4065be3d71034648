// Shared chart bits: axis domains and ticks, the options a reader sets (kept in the URL), phase colours, an empty placeholder.
import { useMemo, type ReactNode } from "react";
import { fmtTick } from "../format";
import { param, useUrlState, type Schema } from "../urlState";

export const tick = (v: number) => fmtTick(v);
// axis text and grid read the theme's variables (styles.css), so charts are legible in light and dark
export const AXIS_STYLE = { fontSize: 12, fill: "var(--chart-axis)" };
export const GRID = "var(--chart-grid)";
/** The props of an x axis of seconds since the start (rows keyed `s`). */
export const SECONDS_AXIS = {
  dataKey: "s",
  type: "number",
  domain: ["dataMin", "dataMax"],
  allowDecimals: false,
  tick: AXIS_STYLE,
  tickFormatter: (v: number) => `${v}s`,
} as const;

export const PHASE_COLOURS: Record<string, string> = {
  baseline: "#64748b",
  scalability: "#2563eb",
  saturation: "#d97706",
  stability: "#059669",
  custom: "#7c3aed",
  ramp: "#db2777",
};

export function ChartFrame({ title, children, empty, height = 260, note, footer }: { title: string; children: ReactNode; empty?: string | false; height?: number; note?: ReactNode; footer?: ReactNode }) {
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>
        <span>{title}</span>
        {note && <span className="chart-note">{note}</span>}
      </figcaption>
      {empty ? (
        <div className="chart-empty" style={{ height }}>
          {empty}
        </div>
      ) : (
        <div style={{ width: "100%", height }}>{children}</div>
      )}
      {footer}
    </figure>
  );
}

const SI_TICK: [number, string][] = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];

/** Round, distinct ticks over [lo, hi] in steps of 1, 2, 2.5 or 5 × 10^k; a flat range (one sample, all zeros) gets a unit-wide axis. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    if (hi === 0) return niceTicks(0, 1, count);
    const pad = Math.abs(hi) * 0.1;
    return niceTicks(lo >= 0 ? Math.max(0, lo - pad) : lo - pad, hi + pad, count);
  }
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((x) => x >= raw * 0.999) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.floor(lo / step + 1e-9) * step; t < hi + step * 0.999; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

/** A tick label with the SI prefix of its value and just enough decimals to tell it from the next tick (`step` apart). */
export function tickLabel(v: number, step: number): string {
  if (!Number.isFinite(v)) return "";
  const [f, p] = SI_TICK.find(([x]) => Math.abs(v) >= x) ?? [1, ""];
  // as many decimals as the step has in this prefix (ticks are multiples of it): 0.25M apart → "1.25M"
  const unit = Math.abs(step) / f;
  let decimals = 0;
  while (decimals < 6 && Math.abs(unit * 10 ** decimals - Math.round(unit * 10 ** decimals)) > 1e-6 * 10 ** decimals) decimals++;
  return `${Number((v / f).toFixed(decimals))}${p}`;
}

export interface ValueAxis {
  domain: [number, number];
  ticks: number[];
  tickFormatter: (v: number) => string;
  scale: "linear" | "log";
  allowDataOverflow: boolean;
}

/** Decades (and 2×, 5× between them when there are few) covering [lo, hi] > 0. */
function logTicks(lo: number, hi: number): number[] {
  const a = Math.floor(Math.log10(lo));
  const b = Math.max(a + 1, Math.ceil(Math.log10(hi)));
  const steps = b - a <= 2 ? [1, 2, 5] : [1];
  const out: number[] = [];
  for (let e = a; e <= b; e++) for (const m of steps) if (m * 10 ** e <= 10 ** b) out.push(Number((m * 10 ** e).toPrecision(6)));
  return out;
}

/**
 * A y axis for `values`: zero-based when `zero` (rates, counts: zero means something), else fitted to the data;
 * `log` spreads positive values over decades. `scale` multiplies the labels (1000: ms values labelled in µs).
 */
export function valueAxis(values: (number | null | undefined)[], { zero = true, log = false, scale = 1 } = {}): ValueAxis {
  const xs = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const pos = xs.filter((v) => v > 0);
  if (log && pos.length) {
    const ticks = logTicks(Math.min(...pos) * scale, Math.max(...pos) * scale).map((t) => t / scale);
    return {
      domain: [ticks[0], ticks[ticks.length - 1]],
      ticks,
      tickFormatter: (v) => tickLabel(v * scale, v * scale),
      scale: "log",
      allowDataOverflow: true,
    };
  }
  const lo = xs.length ? Math.min(...xs) : 0;
  const hi = xs.length ? Math.max(...xs) : 0;
  const scaled = niceTicks((zero ? Math.min(0, lo) : lo) * scale, hi * scale);
  const step = scaled.length > 1 ? scaled[1] - scaled[0] : 1;
  const ticks = scaled.map((t) => t / scale);
  return {
    domain: [ticks[0], ticks[ticks.length - 1]],
    ticks,
    tickFormatter: (v) => tickLabel(v * scale, step),
    scale: "linear",
    allowDataOverflow: false,
  };
}

/** Latencies (held in ms) are labelled in µs when every one is below a millisecond. */
export function latencyUnit(values: (number | null | undefined)[]): { unit: "ms" | "µs"; scale: number } {
  const xs = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  return xs.length && Math.max(...xs.map(Math.abs)) < 1 ? { unit: "µs", scale: 1000 } : { unit: "ms", scale: 1 };
}

/** What a reader sets on a chart: series hidden (by legend click), log scale, the percentile shown. */
export interface ChartOptions {
  hide: string[];
  log: boolean;
  pct: string;
}

/**
 * A chart's options in the URL under its `id` (`?knee.log=1&knee.hide=p99`), so a pasted link shows the same chart;
 * Back undoes a change. `pctDefault` is the percentile shown when the URL names none.
 */
export function useChartOptions(id: string, pctDefault = "") {
  const schema = useMemo<Schema>(() => ({ [`${id}.hide`]: param.list(), [`${id}.log`]: param.bool(), [`${id}.pct`]: param.str(pctDefault) }), [id, pctDefault]);
  const [v, set] = useUrlState(schema);
  const options: ChartOptions = { hide: v[`${id}.hide`] as string[], log: v[`${id}.log`] as boolean, pct: v[`${id}.pct`] as string };
  return {
    ...options,
    /** Legend click: hide the series, or show it again. */
    toggle: (key: string) => set({ [`${id}.hide`]: options.hide.includes(key) ? options.hide.filter((k) => k !== key) : [...options.hide, key] }),
    setLog: (log: boolean) => set({ [`${id}.log`]: log }),
    setPct: (pct: string) => set({ [`${id}.pct`]: pct }),
  };
}

type LegendEntry = { dataKey?: unknown; value?: unknown };

/**
 * Legend props that hide a series on click and grey it out while hidden. A series is known by its dataKey, or by
 * `keyOf` where several lines share one (a line per campaign).
 */
export function legendToggle(opts: { hide: string[]; toggle: (key: string) => void }, keyOf: (e: LegendEntry) => string | undefined = (e) => (e.dataKey == null ? undefined : String(e.dataKey))) {
  const off = (e: LegendEntry) => opts.hide.includes(keyOf(e) ?? "");
  return {
    onClick: (e: LegendEntry) => {
      const key = keyOf(e);
      if (key != null) opts.toggle(key);
    },
    formatter: (value: ReactNode, entry: LegendEntry) => (
      <span className={off(entry) ? "legend-off" : undefined} style={{ cursor: "pointer", opacity: off(entry) ? 0.45 : 1 }}>
        {value}
      </span>
    ),
  };
}

/** A "log scale" checkbox for a chart's caption. */
export function LogToggle({ on, onChange, label = "log scale" }: { on: boolean; onChange: (on: boolean) => void; label?: string }) {
  return (
    <label className="chart-option">
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}

/** A choice in a chart's caption (the latency or percentile drawn): `options` are [value, label] pairs. */
export function ChartChoice({ label, ariaLabel, value, options, onChange, testId }: {
  label: string;
  ariaLabel: string;
  value: string;
  options: [value: string, label: string][];
  onChange: (value: string) => void;
  testId?: string;
}) {
  return (
    <label className="chart-option">
      {label}{" "}
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={ariaLabel} data-testid={testId}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}
