import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { PointPreview } from "../api/types";
import { axisUnit, fmtUnit } from "../format";
import { rateUnitOf, type ToolInfo } from "../tools/catalog";
import { downsample } from "./downsample";
import { AXIS_STYLE, ChartFrame, GRID, PHASE_COLOURS, tick } from "./common";

/** Offered load per point of a plan preview (concurrency when the tool is closed-loop). */
export default function OfferedLoadChart({ points, tool }: { points: PointPreview[]; tool: ToolInfo | undefined }) {
  const hasRate = points.some((p) => p.offered_rate != null);
  const data = downsample(points).map((p) => ({ seq: p.seq + 1, value: hasRate ? p.offered_rate ?? 0 : p.concurrency, phase: p.phase }));
  return (
    <ChartFrame
      title={hasRate ? `Offered load per point (${axisUnit(rateUnitOf(tool))})` : "Concurrency per point"}
      height={180}
      empty={points.length === 0 && "No points"}
    >
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="seq" tick={AXIS_STYLE} interval="preserveStartEnd" />
          <YAxis tickFormatter={tick} tick={AXIS_STYLE} width={48} />
          <Tooltip
            formatter={(v) => (hasRate ? fmtUnit(Number(v), rateUnitOf(tool)) : `${v} concurrent`)}
            labelFormatter={(l, payload) => `point ${l} · ${payload?.[0]?.payload?.phase ?? ""}`}
          />
          <Bar dataKey="value" isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.seq} fill={PHASE_COLOURS[d.phase] ?? "#64748b"} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
