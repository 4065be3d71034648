import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Point, Usl } from "../api/types";
import { fmtUnit, metricLabel } from "../format";
import { headlineOf, rateUnitOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartFrame, GRID, tick } from "./common";
import { scalabilityRows } from "./pointData";
import { sampleUsl } from "./usl";
import { concurrencyTicks } from "./zones";

/** The tool's headline metric and the API's efficiency against concurrency, with the USL fit over the measured points. */
export default function ScalabilityChart({ points, tool, usl }: { points: Point[]; tool: ToolInfo | undefined; usl?: Usl | null }) {
  const headline = headlineOf(tool);
  const rows = scalabilityRows(points, headline?.name);
  const ns = rows.map((r) => r.concurrency);
  // the USL fit is of the achieved rate: drawn over the headline when it is in the same unit
  const fitted = !headline || headline.unit === rateUnitOf(tool);
  const curve = fitted && rows.length >= 2 ? sampleUsl(usl, Math.min(...ns), Math.max(...ns)) : [];
  const title = headline?.title ?? "Achieved";
  const ticks = ns.length ? concurrencyTicks(Math.min(...ns), Math.max(...ns)) : undefined;
  return (
    <ChartFrame
      title={`Scalability: ${title.toLowerCase()} and efficiency vs concurrency`}
      empty={rows.length === 0 && "No completed scalability points"}
      note={curve.length > 0 && usl?.r2 != null ? `USL fit R² ${usl.r2.toFixed(3)}` : undefined}
    >
      <ResponsiveContainer>
        <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis dataKey="concurrency" type="number" domain={["dataMin", "dataMax"]} ticks={ticks} tick={AXIS_STYLE} allowDecimals={false} allowDuplicatedCategory={false} label={{ value: tool?.concurrency_label ?? "concurrency", position: "insideBottomRight", offset: -2, fontSize: 11 }} />
          <YAxis yAxisId="rate" tickFormatter={tick} tick={AXIS_STYLE} width={52} label={{ value: metricLabel(headline), angle: -90, position: "insideLeft", fontSize: 11 }} />
          <YAxis yAxisId="eff" orientation="right" domain={[0, 1.1]} tickFormatter={(v) => `${Math.round(v * 100)}%`} tick={AXIS_STYLE} width={44} />
          <Tooltip
            formatter={(v, name) => (name === "efficiency" ? fmtUnit(Number(v), "ratio") : fmtUnit(Number(v), headline?.unit))}
            labelFormatter={(l) => `concurrency ${l}`}
          />
          <Legend />
          <Line yAxisId="rate" data={rows} dataKey="headline" name={title.toLowerCase()} stroke="#2563eb" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls />
          <Line yAxisId="eff" data={rows} dataKey="efficiency" name="efficiency" stroke="#059669" strokeDasharray="4 3" dot={{ r: 2 }} isAnimationActive={false} connectNulls />
          {curve.length > 0 && (
            <Line yAxisId="rate" data={curve} dataKey="usl" name="USL fit" stroke="#7c3aed" strokeWidth={1.5} dot={false} isAnimationActive={false} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
