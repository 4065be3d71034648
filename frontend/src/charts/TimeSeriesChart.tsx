import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { axisUnit, fmtUnit, metricLabel } from "../format";
import { headlineOf, metricOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartFrame, GRID, SECONDS_AXIS, latencyUnit, legendToggle, useChartOptions, valueAxis } from "./common";
import { downsample } from "./downsample";
import { eventMarkers, startOf, type PointEventRecord } from "./eventMarkers";
import { relativeTime } from "./pointData";

export interface SeriesRow {
  t: number;
  values: Record<string, number | null>;
}

/**
 * The tool's headline metric (and average latency when the samples have it) per interval over time. Axes are zero-based with
 * distinct ticks (one sample, or all zeros, still gets a readable axis); latency is labelled in µs below a millisecond.
 * A legend click hides a series (kept in the URL under `id`). `events`: the point's fired events, drawn as markers.
 */
export default function TimeSeriesChart({
  title,
  rows,
  tool,
  empty,
  height = 240,
  note,
  id = "series",
  events = [],
}: {
  id?: string;
  title: string;
  rows: SeriesRow[];
  tool: ToolInfo | undefined;
  empty?: string;
  height?: number;
  note?: string;
  events?: readonly PointEventRecord[];
}) {
  const headline = headlineOf(tool);
  const key = headline?.name ?? "achieved_rate";
  const latencyMetric = metricOf(tool, "latency_avg_ms");
  const sampled = downsample(rows);
  const data = relativeTime(sampled).map((r) => ({ s: r.s, value: r.values[key] ?? null, latency: r.values.latency_avg_ms ?? null }));
  const hasLatency = data.some((d) => d.latency != null);
  const valueName = (headline?.title ?? "achieved").toLowerCase();
  const latencyName = (latencyMetric?.title ?? "latency avg").toLowerCase();
  const opts = useChartOptions(id);
  const rateAxis = valueAxis(data.map((d) => d.value));
  const lat = latencyUnit(data.map((d) => d.latency));
  const latAxis = valueAxis(data.map((d) => d.latency), { scale: lat.scale });
  return (
    <ChartFrame title={title} height={height} empty={data.length === 0 && (empty ?? "No samples yet")} note={note}>
      <ResponsiveContainer>
        <ComposedChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis {...SECONDS_AXIS} />
          <YAxis yAxisId="rate" {...rateAxis} tick={AXIS_STYLE} width={52} label={{ value: metricLabel(headline), angle: -90, position: "insideLeft", fontSize: 11 }} />
          {hasLatency && <YAxis yAxisId="lat" orientation="right" {...latAxis} tick={AXIS_STYLE} width={44} label={{ value: axisUnit(lat.unit), angle: 90, position: "insideRight", fontSize: 11 }} />}
          <Tooltip formatter={(v, name) => [name === latencyName ? fmtUnit(Number(v), latencyMetric?.unit ?? "ms") : fmtUnit(Number(v), headline?.unit), name]} labelFormatter={(l) => `t = ${l} s`} />
          <Legend {...legendToggle(opts)} />
          <Line yAxisId="rate" dataKey="value" name={valueName} hide={opts.hide.includes("value")} stroke="#2563eb" strokeWidth={2} dot={data.length < 60 ? { r: 2 } : false} isAnimationActive={false} connectNulls />
          {eventMarkers(events, startOf(sampled), "rate")}
          {hasLatency && <Line yAxisId="lat" dataKey="latency" name={latencyName} hide={opts.hide.includes("latency")} stroke="#d97706" dot={false} isAnimationActive={false} connectNulls />}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
