import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Point, Usl } from "../api/types";
import { fmtRatio, fmtRate, rateUnit } from "../format";
import { AXIS_STYLE, ChartFrame, GRID, tick } from "./common";
import { scalabilityRows } from "./pointData";
import { sampleUsl } from "./usl";
import { concurrencyTicks } from "./zones";

/** Achieved rate and efficiency against concurrency, with the USL fit over the measured points. */
export default function ScalabilityChart({ points, tool, usl }: { points: Point[]; tool: string; usl?: Usl | null }) {
  const rows = scalabilityRows(points);
  const ns = rows.map((r) => r.concurrency);
  const curve = rows.length >= 2 ? sampleUsl(usl, Math.min(...ns), Math.max(...ns)) : [];
  const fmt = (v: number) => fmtRate(v, tool);
  const ticks = ns.length ? concurrencyTicks(Math.min(...ns), Math.max(...ns)) : undefined;
  return (
    <ChartFrame
      title="Scalability: achieved rate and efficiency vs concurrency"
      empty={rows.length === 0 && "No completed scalability points"}
      note={curve.length > 0 && usl?.r2 != null ? `USL fit R² ${usl.r2.toFixed(3)}` : undefined}
    >
      <ResponsiveContainer>
        <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis dataKey="concurrency" type="number" domain={["dataMin", "dataMax"]} ticks={ticks} tick={AXIS_STYLE} allowDecimals={false} allowDuplicatedCategory={false} label={{ value: "concurrency", position: "insideBottomRight", offset: -2, fontSize: 11 }} />
          <YAxis yAxisId="rate" tickFormatter={tick} tick={AXIS_STYLE} width={52} label={{ value: rateUnit(tool), angle: -90, position: "insideLeft", fontSize: 11 }} />
          <YAxis yAxisId="eff" orientation="right" domain={[0, 110]} tickFormatter={(v) => `${v}%`} tick={AXIS_STYLE} width={44} />
          <Tooltip
            formatter={(v, name) => (name === "efficiency" ? fmtRatio(Number(v) / 100) : fmt(Number(v)))}
            labelFormatter={(l) => `concurrency ${l}`}
          />
          <Legend />
          <Line yAxisId="rate" data={rows} dataKey="achieved" name="achieved rate" stroke="#2563eb" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls />
          <Line yAxisId="eff" data={rows} dataKey="efficiency" name="efficiency" stroke="#059669" strokeDasharray="4 3" dot={{ r: 2 }} isAnimationActive={false} connectNulls />
          {curve.length > 0 && (
            <Line yAxisId="rate" data={curve} dataKey="usl" name="USL fit" stroke="#7c3aed" strokeWidth={1.5} dot={false} isAnimationActive={false} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
