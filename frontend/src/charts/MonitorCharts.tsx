import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fmtNumber } from "../format";
import type { ReactNode } from "react";
import type { Point, Sample } from "../api/types";
import { axisUnit, fmtTick, fmtUnit } from "../format";
import { MAX_SERVER_CHARTS, monitorCharts, serverCharts, type ServerChart } from "../tools/monitorCharts";
import { useTools } from "../tools/useTools";
import { AXIS_STYLE, ChartFrame, GRID, SECONDS_AXIS } from "./common";
import { downsample } from "./downsample";
import { eventMarkers, startOf, type PointEventRecord } from "./eventMarkers";
import { colourAt } from "./palette";

/** Samples by time: one row per t (its `s` seconds since the first sample of all) with a column per cell `cells` reads
 * from a sample ([column, value] pairs), and the columns found, in numeric-aware order. */
function pivotCells(samples: readonly Sample[], cells: (s: Sample) => [string, number][]): { rows: Record<string, number | null>[]; columns: string[] } {
  const byT = new Map<number, Record<string, number | null>>();
  const names = new Set<string>();
  const t0 = samples.length ? Math.min(...samples.map((s) => s.t)) : 0;
  for (const s of samples) {
    for (const [column, v] of cells(s)) {
      names.add(column);
      const row = byT.get(s.t) ?? { s: Number((s.t - t0).toFixed(2)) };
      row[column] = v;
      byT.set(s.t, row);
    }
  }
  const rows = [...byT.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  return { rows: downsample(rows), columns: [...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })) };
}

/** Group monitor samples by time: one row per t with one column per series. */
export function pivot(samples: Sample[], field: string, filter: (series: string) => boolean): { rows: Record<string, number | null>[]; series: string[] } {
  const { rows, columns } = pivotCells(samples, (s) => {
    const v = s.values[field];
    return filter(s.series) && v != null ? [[s.series, v]] : [];
  });
  return { rows, series: columns };
}

/** One exporter chart's rows and lines: a column per drawn key with a value, named by its place in `chart.keys` ("k0"…:
 * a key such as "0.softirq" would read as a path where a chart looks a column up), and its legend name. */
export function pivotServer(samples: readonly Sample[], chart: ServerChart): { rows: Record<string, number | null>[]; lines: { column: string; label: string }[] } {
  const { rows, columns } = pivotCells(samples, (s) =>
    s.series !== chart.series ? [] : chart.keys.flatMap((k, i): [string, number][] => (s.values[k] != null ? [[`k${i}`, s.values[k]]] : [])),
  );
  return { rows, lines: columns.map((column) => ({ column, label: chart.label(chart.keys[Number(column.slice(1))]) })) };
}

/** A line chart over seconds since the start; `children` are its y axis, tooltip and lines; `markers` the point's events. */
function SecondsChart({ title, rows, children, markers }: { title: string; rows: Record<string, number | null>[]; children: ReactNode; markers: ReactNode }) {
  return (
    <ChartFrame title={title} height={200}>
      <ResponsiveContainer>
        <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis {...SECONDS_AXIS} />
          {children}
          {markers}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** The y axis, tooltip and legend of a monitor chart in `unit` (a share: 0 to 100 %, or more for a process on several CPUs). */
function unitAxis(unit: string, lines: number) {
  const pct = unit === "%";
  return [
    <YAxis key="y" domain={pct ? [0, (max: number) => Math.max(100, Math.ceil(max / 100) * 100)] : undefined} tick={AXIS_STYLE} width={44} tickFormatter={pct ? (v) => `${v}%` : fmtTick} label={{ value: axisUnit(unit), angle: -90, position: "insideLeft", fontSize: 11 }} />,
    <Tooltip key="tip" formatter={(v) => fmtUnit(Number(v), unit)} labelFormatter={(l) => `t = ${l} s`} />,
    lines > 1 && <Legend key="legend" />,
  ];
}

/** Monitors beside a point: one chart per registered monitor with samples (which metric, from the tools module), and one per
 * exporter series (`server.<pack>.<query>`, at most MAX_SERVER_CHARTS; the others named below them); the point's `events`
 * as markers on each. */
export default function MonitorCharts({ samples, events = [] }: { samples: Sample[]; events?: readonly PointEventRecord[] }) {
  const tools = useTools().data;
  const charts = monitorCharts(tools)
    .map((c) => ({ ...c, data: pivot(samples, c.metric.name, c.series) }))
    .filter((c) => c.data.rows.length > 0);
  const server = serverCharts(tools, samples);
  if (!charts.length && !server.charts.length && !server.zero.length) return null;
  const markers = eventMarkers(events, startOf(samples)); // the rows' 0 s is the first sample of all (pivotCells)
  return (
    <>
      <div className="chart-grid monitors">
        {charts.map(({ tool, metric, seriesLabel, data }) => (
          <SecondsChart key={tool.name} title={`${tool.title}: ${metric.title}`} rows={data.rows} markers={markers}>
            {unitAxis(metric.unit, data.series.length)}
            {data.series.map((name, i) => (
              <Line key={name} dataKey={name} name={seriesLabel(name)} stroke={colourAt(i)} dot={data.rows.length === 1} isAnimationActive={false} connectNulls />
            ))}
          </SecondsChart>
        ))}
        {server.charts.map((chart) => {
          const data = pivotServer(samples, chart);
          return (
            <SecondsChart key={chart.id} title={chart.title} rows={data.rows} markers={markers}>
              {unitAxis(chart.unit, data.lines.length)}
              {data.lines.map(({ column, label }, i) => (
                <Line key={column} dataKey={column} name={label} stroke={colourAt(i)} dot={data.rows.length === 1} isAnimationActive={false} connectNulls />
              ))}
            </SecondsChart>
          );
        })}
      </div>
      {server.zero.length > 0 && <p className="muted small" data-testid="server-zero">Zero throughout: {server.zero.join(", ")}.</p>}
      {server.more.length > 0 && <p className="muted small" data-testid="server-more">Not drawn (over {MAX_SERVER_CHARTS} charts): {server.more.join(", ")}.</p>}
    </>
  );
}

/** The host-CPU lines of the report, from each point's mpstat summary (`extra.monitors.mpstat`, tools/mpstat summarise). */
export const HOST_CPU_LINES = [
  { key: "all_avg_busy_pct", name: "all CPUs, mean busy", colour: "#2563eb" },
  { key: "cpu_max_busy_pct", name: "busiest CPU, peak busy", colour: "#dc2626" },
  { key: "cpu_max_soft_pct", name: "busiest CPU, peak %soft", colour: "#d97706" },
] as const;

type HostCpuRow = { point: number; phase: string; offered: number | null } & Partial<Record<(typeof HOST_CPU_LINES)[number]["key"], number | null>>;

/** One row per completed point whose mpstat monitor ran, in run order. */
export function hostCpuRows(points: readonly Point[]): HostCpuRow[] {
  return [...points]
    .filter((p) => p.status === "completed")
    .sort((a, b) => a.seq - b.seq)
    .flatMap((p) => {
      const summary = (p.extra?.monitors as Record<string, Record<string, number | null>> | undefined)?.mpstat;
      if (!summary) return [];
      const row: HostCpuRow = { point: p.seq + 1, phase: p.phase, offered: p.offered_rate ?? null };
      for (const line of HOST_CPU_LINES) row[line.key] = summary[line.key] ?? null;
      return [row];
    });
}

/** The report's host-CPU panel: how busy the load generator's host was at each point, when the plan ran mpstat. */
export function HostCpuChart({ points }: { points: readonly Point[] }) {
  const rows = hostCpuRows(points);
  if (!rows.length) return null;
  return (
    <section className="card" aria-label="Host CPU" data-testid="host-cpu">
      <ChartFrame title="Host CPU (mpstat) per point" height={220} note="the load generator's host: mean over the point">
        <ResponsiveContainer>
          <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
            <CartesianGrid stroke={GRID} />
            <XAxis dataKey="point" type="number" domain={["dataMin", "dataMax"]} allowDecimals={false} tick={AXIS_STYLE}
              label={{ value: "point", position: "insideBottomRight", fontSize: 11 }} />
            <YAxis domain={[0, 100]} tick={AXIS_STYLE} width={44} tickFormatter={(v) => `${v}%`} />
            <Tooltip formatter={(v) => `${fmtNumber(Number(v))} %`}
              labelFormatter={(_, items) => {
                const row = items?.[0]?.payload as HostCpuRow | undefined;
                return row ? `point ${row.point} · ${row.phase}${row.offered != null ? ` · ${fmtNumber(row.offered)} offered` : ""}` : "";
              }} />
            <Legend />
            {HOST_CPU_LINES.map((line) => (
              <Line key={line.key} dataKey={line.key} name={line.name} stroke={line.colour} dot isAnimationActive={false} connectNulls />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </ChartFrame>
    </section>
  );
}
