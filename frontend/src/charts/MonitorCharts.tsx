import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReactNode } from "react";
import type { Sample } from "../api/types";
import { fmtMs, fmtPct } from "../format";
import { AXIS_STYLE, ChartFrame, GRID, SECONDS_AXIS } from "./common";
import { downsample } from "./downsample";
import { colourAt } from "./palette";

/** Group monitor samples by time: one row per t with one column per series. */
export function pivot(samples: Sample[], field: string, filter: (series: string) => boolean): { rows: Record<string, number | null>[]; series: string[] } {
  const byT = new Map<number, Record<string, number | null>>();
  const names = new Set<string>();
  const t0 = samples.length ? Math.min(...samples.map((s) => s.t)) : 0;
  for (const s of samples) {
    if (!filter(s.series)) continue;
    const v = s.values[field];
    if (v == null) continue;
    names.add(s.series);
    const row = byT.get(s.t) ?? { s: Number((s.t - t0).toFixed(2)) };
    row[s.series] = v;
    byT.set(s.t, row);
  }
  const rows = [...byT.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  return { rows: downsample(rows), series: [...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })) };
}

/** A line chart over seconds since the start; `children` are its y axis, tooltip and lines. */
function SecondsChart({ title, rows, children }: { title: string; rows: Record<string, number | null>[]; children: ReactNode }) {
  return (
    <ChartFrame title={title} height={200}>
      <ResponsiveContainer>
        <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis {...SECONDS_AXIS} />
          {children}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** Monitors beside a point: per-CPU softirq share (mpstat) and ping round-trip time. */
export default function MonitorCharts({ samples }: { samples: Sample[] }) {
  const soft = pivot(samples, "soft", (s) => s.startsWith("mpstat.cpu"));
  const ping = pivot(samples, "rtt_ms", (s) => s === "ping");
  if (!soft.rows.length && !ping.rows.length) return null;
  return (
    <div className="chart-grid monitors">
      {soft.rows.length > 0 && (
        <SecondsChart title="mpstat: %soft per CPU" rows={soft.rows}>
          <YAxis domain={[0, 100]} tick={AXIS_STYLE} width={40} tickFormatter={(v) => `${v}%`} />
          <Tooltip formatter={(v) => fmtPct(Number(v), 1)} labelFormatter={(l) => `t = ${l} s`} />
          <Legend />
          {soft.series.map((s, i) => (
            <Line key={s} dataKey={s} name={s.replace("mpstat.", "")} stroke={colourAt(i)} dot={false} isAnimationActive={false} connectNulls />
          ))}
        </SecondsChart>
      )}
      {ping.rows.length > 0 && (
        <SecondsChart title="ping: round-trip time" rows={ping.rows}>
          <YAxis tick={AXIS_STYLE} width={44} />
          <Tooltip formatter={(v) => fmtMs(Number(v))} labelFormatter={(l) => `t = ${l} s`} />
          <Line dataKey="ping" name="rtt (ms)" stroke="#0072B2" dot={false} isAnimationActive={false} connectNulls />
        </SecondsChart>
      )}
    </div>
  );
}
