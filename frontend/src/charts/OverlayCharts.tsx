import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReactNode } from "react";
import type { Point } from "../api/types";
import { fmtMs, fmtUnit, metricLabel } from "../format";
import { headlineOf, latencyLabel, rateUnitOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartChoice, ChartFrame, GRID, LogToggle, latencyUnit, legendToggle, tick, useChartOptions, valueAxis } from "./common";
import { downsample } from "./downsample";
import { kneeRows, metric, ofPhase, PERCENTILES, scalabilityRows } from "./pointData";
import { colourAt } from "./palette";
import { concurrencyTicks, niceDomain } from "./zones";

export interface Series {
  key: string;
  name: string;
  points: Point[];
}

// "#12 name", or "#12 name · 1 queue" for a variant (the API's name carries the label)
const label = (s: Series) => `#${s.key.split("@")[0]} ${s.name}`;

/** A line per campaign of `rows(points)`'s `y`; `children` are the axes and tooltip. A legend click hides a campaign (in the URL). */
function OverlayLines({ title, series, rows, y, note, children }: { title: string; series: Series[]; rows: (points: Point[]) => object[]; y: string; note?: ReactNode; children: ReactNode }) {
  const opts = useChartOptions("overlay");
  const keyOf = (e: { value?: unknown }) => series.find((s) => label(s) === e.value)?.key;
  return (
    <ChartFrame title={title} note={note}>
      <ResponsiveContainer>
        <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          {children}
          <Legend {...legendToggle(opts, keyOf)} />
          {series.map((s, i) => (
            <Line key={s.key} data={downsample(rows(s.points))} dataKey={y} name={label(s)} hide={opts.hide.includes(s.key)} stroke={colourAt(i)} strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/**
 * One chart per phase the campaigns share, one colour per campaign (the palette order is the selection order).
 * Scalability and the baseline/stability bars show the tool's headline metric; the knee is latency vs achieved rate.
 */
export default function OverlayCharts({ series, tool }: { series: Series[]; tool: ToolInfo | undefined }) {
  const phases = new Set(series.flatMap((s) => s.points.filter((p) => p.status === "completed").map((p) => p.phase)));
  const headline = headlineOf(tool);
  const key = headline?.name ?? "achieved_rate";
  const title = (headline?.title ?? "Achieved").toLowerCase();
  const fmt = (v: unknown) => fmtUnit(Number(v), headline?.unit);
  const fmtRate = (v: unknown) => fmtUnit(Number(v), rateUnitOf(tool));
  // the saturation overlay draws the mean latency, or a percentile the campaigns measured (kept in the URL)
  const latency = useChartOptions("overlay", "latency");
  const pcts = (Object.keys(PERCENTILES) as (keyof typeof PERCENTILES)[]).filter((k) => series.some((s) => kneeRows(s.points).some((r) => r[k] != null)));
  const latencyKey = pcts.find((k) => k === latency.pct) ?? "latency";
  const latencyName = (k: string) => (k === "latency" ? "mean latency" : latencyLabel(tool, PERCENTILES[k as keyof typeof PERCENTILES]));
  const charts = [];

  if (phases.has("scalability")) {
    const rowsOf = (points: Point[]) => scalabilityRows(points, key);
    const ns = series.flatMap((s) => rowsOf(s.points).map((r) => r.concurrency));
    const ticks = ns.length ? concurrencyTicks(Math.min(...ns), Math.max(...ns)) : undefined;
    charts.push(
      <OverlayLines key="scal" title={`Scalability: ${title} vs concurrency`} series={series} rows={rowsOf} y="headline">
        <XAxis dataKey="concurrency" type="number" domain={["dataMin", "dataMax"]} ticks={ticks} tick={AXIS_STYLE} allowDecimals={false} allowDuplicatedCategory={false} />
        <YAxis tickFormatter={tick} tick={AXIS_STYLE} width={52} label={{ value: metricLabel(headline), angle: -90, position: "insideLeft", fontSize: 11 }} />
        <Tooltip formatter={fmt} labelFormatter={(l) => `concurrency ${l}`} />
      </OverlayLines>,
    );
  }
  if (phases.has("saturation") || phases.has("custom") || phases.has("ramp")) {
    const xs = series.flatMap((s) => kneeRows(s.points).map((r) => r.achieved!));
    const kneeDomain = niceDomain(Math.min(...xs), Math.max(...xs));
    const ys = series.filter((s) => !latency.hide.includes(s.key)).flatMap((s) => kneeRows(s.points).map((r) => r[latencyKey as "latency"]));
    const lat = latencyUnit(ys);
    const latAxis = valueAxis(ys, { log: latency.log, scale: lat.scale });
    charts.push(
      <OverlayLines key="knee" title={`Saturation: ${latencyName(latencyKey)} vs achieved rate`} series={series} rows={kneeRows} y={latencyKey}
        note={
          <span className="chart-options">
            {pcts.length > 0 && (
              <ChartChoice label="latency" ariaLabel="Latency shown" testId="overlay-latency" value={latencyKey}
                options={["latency", ...pcts].map((k) => [k, latencyName(k)])} onChange={latency.setPct} />
            )}
            <LogToggle on={latency.log} onChange={latency.setLog} />
          </span>
        }>
        <XAxis dataKey="achieved" type="number" domain={kneeDomain} tickFormatter={tick} tick={AXIS_STYLE} allowDuplicatedCategory={false} />
        <YAxis {...latAxis} tick={AXIS_STYLE} width={48} label={{ value: lat.unit, angle: -90, position: "insideLeft", fontSize: 11 }} />
        <Tooltip formatter={(v) => fmtMs(Number(v))} labelFormatter={(l) => `achieved ${fmtRate(l)}`} />
      </OverlayLines>,
    );
  }
  for (const phase of ["baseline", "stability"]) {
    if (!phases.has(phase)) continue;
    const rows = series.map((s, i) => {
      const ps = ofPhase(s.points, phase);
      const avg = (k: string) => {
        const v = ps.map((p) => metric(p, k)).filter((x): x is number => x != null);
        return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
      };
      return { name: `#${s.key}`, headline: avg(key), latency: avg("latency_avg_ms"), colour: colourAt(i) };
    });
    const phaseTitle = `${phase[0].toUpperCase()}${phase.slice(1)}`;
    const bars = (col: "headline" | "latency", fmtV: (v: number) => string, unit: string) => (
      <ResponsiveContainer width="50%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="name" tick={AXIS_STYLE} />
          <YAxis tickFormatter={tick} tick={AXIS_STYLE} width={48} label={{ value: unit, angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip formatter={(v) => fmtV(Number(v))} cursor={{ fill: "#f1f5f9" }} />
          <Bar dataKey={col} name={col === "headline" ? title : "latency avg"} isAnimationActive={false}>
            {rows.map((r) => (
              <Cell key={r.name} fill={r.colour} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    );
    charts.push(
      <ChartFrame key={phase} title={`${phaseTitle}: ${title} and average latency`} height={220}>
        <div style={{ display: "flex", width: "100%", height: "100%" }}>
          {bars("headline", fmt, metricLabel(headline))}
          {bars("latency", fmtMs, "ms")}
        </div>
      </ChartFrame>,
    );
  }
  if (!charts.length) return <p className="muted">No completed points to chart.</p>;
  return (
    <div className="chart-grid">
      {charts.map((c) => (
        <section className="card" key={c.key}>
          {c}
        </section>
      ))}
    </div>
  );
}
