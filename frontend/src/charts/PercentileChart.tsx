// Latency percentiles against load: a line per percentile the tool declares (p50, p90, p99, p99.9), from the points' metrics.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Point } from "../api/types";
import { axisUnit, fmtUnit } from "../format";
import { latencyLabel, percentilesOf, rateUnitOf, type MetricInfo, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartFrame, GRID, LogToggle, latencyUnit, legendToggle, tick, useChartOptions, valueAxis } from "./common";
import { colourAt } from "./palette";
import { completed, metric, ofPhase } from "./pointData";
import { niceDomain } from "./zones";

/** One measured point: its load, its label and its percentiles (keyed by metric name). */
export interface PercentileRow {
  x: number;
  offered: number | null;
  achieved: number | null;
  label: string;
  values: Record<string, number | null>;
}

/** "point 3 · saturation · 2 queues (r2)": how a tooltip names a measured point. */
export function pointLabel(p: Point): string {
  return `point ${p.seq + 1} · ${p.phase}${p.variant ? ` · ${p.variant}` : ""}${p.repeat ? ` (r${p.repeat + 1})` : ""}`;
}

/**
 * The chart's rows and series: the saturation sweep (else every load point but stability), each point on its own
 * (repetitions are not averaged: the tooltip shows what was measured), against offered load when every point has
 * one, else achieved; a series per percentile the tool declares that some point measured.
 */
export function percentileSeries(points: Point[], tool: ToolInfo | undefined): { rows: PercentileRow[]; series: MetricInfo[]; byOffered: boolean } {
  let ps = ofPhase(points, "saturation");
  if (ps.length < 2) ps = completed(points).filter((p) => p.phase !== "stability");
  const declared = percentilesOf(tool);
  const measured = ps
    .map((p) => ({ p, offered: p.offered_rate ?? metric(p, "offered_rate"), achieved: metric(p, "achieved_rate") }))
    .filter((r) => declared.some((m) => metric(r.p, m.name) != null));
  const byOffered = measured.length > 0 && measured.every((r) => r.offered != null);
  const rows = measured
    .filter((r) => (byOffered ? r.offered : r.achieved) != null)
    .map(({ p, offered, achieved }) => ({
      x: (byOffered ? offered : achieved)!,
      offered,
      achieved,
      label: pointLabel(p),
      values: Object.fromEntries(declared.map((m) => [m.name, metric(p, m.name)])),
    }))
    .sort((a, b) => a.x - b.x);
  const series = declared.filter((m) => rows.some((r) => r.values[m.name] != null));
  return { rows, series, byOffered };
}

/** The hovered point: its label, its load, and each shown percentile in its unit. */
function PointTip({ row, series, fmtRate }: { row: PercentileRow; series: MetricInfo[]; fmtRate: (v: number | null) => string }) {
  return (
    <div className="chart-tooltip" data-testid="percentile-tooltip">
      <strong>{row.label}</strong>
      <div className="muted small">
        offered {row.offered == null ? "unlimited" : fmtRate(row.offered)} · achieved {fmtRate(row.achieved)}
      </div>
      <ul>
        {series.map((m) => (
          <li key={m.name}>
            {m.title}: {fmtUnit(row.values[m.name], m.unit)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * "Latency percentiles vs load": nothing when no point measured a percentile. The legend hides a series, the
 * latency axis may be logarithmic (tails are often ten times the median); both are kept in the URL (`pctl.*`).
 */
export default function PercentileChart({ points, tool }: { points: Point[]; tool: ToolInfo | undefined }) {
  const opts = useChartOptions("pctl");
  const { rows, series, byOffered } = percentileSeries(points, tool);
  if (series.length === 0) return null;
  const rateUnit = rateUnitOf(tool);
  const fmtRate = (v: number | null) => fmtUnit(v, rateUnit);
  const shown = series.filter((m) => !opts.hide.includes(m.name));
  const values = rows.flatMap((r) => shown.map((m) => r.values[m.name]));
  const { unit, scale } = latencyUnit(values);
  const y = valueAxis(values, { zero: !opts.log, log: opts.log, scale });
  const xs = rows.map((r) => r.x);
  const axis = byOffered ? "offered" : "achieved";
  const data = rows.map((r) => ({ ...r, ...r.values }));
  return (
    <section className="card" aria-label="Latency percentiles" data-testid="percentile-chart">
      <ChartFrame title={`Latency percentiles vs ${axis} load`} note={<LogToggle on={opts.log} onChange={opts.setLog} label="log latency axis" />}>
        <ResponsiveContainer>
          <LineChart data={data} margin={{ top: 14, right: 12, bottom: 4, left: 8 }}>
            <CartesianGrid stroke={GRID} />
            <XAxis dataKey="x" type="number" domain={niceDomain(Math.min(...xs), Math.max(...xs))} tickFormatter={tick} tick={AXIS_STYLE}
              label={{ value: `${axis} ${axisUnit(rateUnit)}`, position: "insideBottomRight", offset: -2, fontSize: 11 }} />
            <YAxis {...y} tick={AXIS_STYLE} width={52} label={{ value: unit, angle: -90, position: "insideLeft", fontSize: 11 }} />
            <Tooltip content={({ active, payload }) => (active && payload?.length ? <PointTip row={payload[0].payload as PercentileRow} series={shown} fmtRate={fmtRate} /> : null)} />
            <Legend {...legendToggle(opts)} />
            {series.map((m, i) => (
              <Line key={m.name} dataKey={m.name} name={latencyLabel(tool, m.name)} hide={opts.hide.includes(m.name)} stroke={colourAt(i)} strokeWidth={2}
                dot={{ r: 3 }} isAnimationActive={false} connectNulls />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </ChartFrame>
    </section>
  );
}
