import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fmtMs, fmtRate, rateUnit } from "../format";
import { AXIS_STYLE, ChartFrame, GRID, SECONDS_AXIS, tick } from "./common";
import { downsample } from "./downsample";
import { relativeTime } from "./pointData";

export interface SeriesRow {
  t: number;
  values: Record<string, number | null>;
}

/** Achieved rate (and latency when present) per interval over time. */
export default function TimeSeriesChart({
  title,
  rows,
  tool,
  empty,
  height = 240,
  note,
}: {
  title: string;
  rows: SeriesRow[];
  tool: string;
  empty?: string;
  height?: number;
  note?: string;
}) {
  const data = relativeTime(downsample(rows)).map((r) => ({ s: r.s, rate: r.values.achieved_rate ?? null, latency: r.values.latency_avg_ms ?? null }));
  const hasLatency = data.some((d) => d.latency != null);
  return (
    <ChartFrame title={title} height={height} empty={data.length === 0 && (empty ?? "No samples yet")} note={note}>
      <ResponsiveContainer>
        <ComposedChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis {...SECONDS_AXIS} />
          <YAxis yAxisId="rate" tickFormatter={tick} tick={AXIS_STYLE} width={52} label={{ value: rateUnit(tool), angle: -90, position: "insideLeft", fontSize: 11 }} />
          {hasLatency && <YAxis yAxisId="lat" orientation="right" tick={AXIS_STYLE} width={44} label={{ value: "ms", angle: 90, position: "insideRight", fontSize: 11 }} />}
          <Tooltip formatter={(v, name) => [name === "latency avg" ? fmtMs(Number(v)) : fmtRate(Number(v), tool), name]} labelFormatter={(l) => `t = ${l} s`} />
          <Legend />
          <Line yAxisId="rate" dataKey="rate" name="achieved rate" stroke="#2563eb" strokeWidth={2} dot={data.length < 60 ? { r: 2 } : false} isAnimationActive={false} connectNulls />
          {hasLatency && <Line yAxisId="lat" dataKey="latency" name="latency avg" stroke="#d97706" dot={false} isAnimationActive={false} connectNulls />}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
