import { CartesianGrid, ComposedChart, Legend, Line, ReferenceArea, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Analysis, Point } from "../api/types";
import { axisUnit, fmtMs, fmtUnit } from "../format";
import { rateUnitOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartFrame, GRID, tick } from "./common";
import { kneeRows } from "./pointData";
import { niceDomain, zoneBands } from "./zones";

/**
 * Latency against load, with the knee and the SLA zones when the analysis has them.
 * The analysis states the knee and the zones in offered load, so open-loop tools (every point has
 * an offered rate) are drawn against it; closed-loop ones against the achieved rate.
 */
export default function KneeChart({ points, tool, analysis }: { points: Point[]; tool: ToolInfo | undefined; analysis?: Analysis | null }) {
  const unit = rateUnitOf(tool);
  const fmtRate = (v: number | null | undefined) => fmtUnit(v, unit);
  const all = kneeRows(points);
  const byOffered = all.length > 0 && all.every((r) => r.offered != null);
  const rows = all.map((r) => ({ ...r, x: byOffered ? r.offered! : r.achieved! }));
  const xs = rows.map((r) => r.x);
  const knee = analysis?.knee;
  const kneeX = byOffered ? (knee?.offered_rate ?? null) : (knee?.achieved_rate ?? null);
  if (kneeX != null) xs.push(kneeX);
  const lo = xs.length ? Math.min(...xs) : 0;
  const hi = xs.length ? Math.max(...xs) : 1;
  // a little room on the right so a knee at the last load is not cut by the edge
  const domain = niceDomain(lo, hi + (hi - lo) * 0.03);
  const bands = zoneBands(analysis?.zones, domain);
  const hasP99 = rows.some((r) => r.p99 != null);
  const axis = byOffered ? "offered" : "achieved";
  const ceiling = analysis?.ceiling?.achieved_rate;
  return (
    <ChartFrame
      title={`Knee: latency vs ${axis} load`}
      empty={rows.length === 0 && "No completed load points"}
      note={kneeX != null ? `knee at ${fmtRate(kneeX)} ${axis}` : undefined}
    >
      <ResponsiveContainer>
        <ComposedChart data={rows} margin={{ top: 14, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          {bands.map((b) => (
            <ReferenceArea key={b.zone} x1={b.x1} x2={b.x2} fill={b.fill} fillOpacity={0.12} strokeOpacity={0} ifOverflow="hidden" label={{ value: b.zone, position: "insideTop", fontSize: 11, fill: b.fill }} />
          ))}
          <XAxis dataKey="x" type="number" domain={domain} tickFormatter={tick} tick={AXIS_STYLE} label={{ value: `${axis} ${axisUnit(unit)}`, position: "insideBottomRight", offset: -2, fontSize: 11 }} />
          <YAxis tickFormatter={(v) => String(v)} tick={AXIS_STYLE} width={48} label={{ value: "ms", angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip
            formatter={(v, name) => [fmtMs(Number(v)), name]}
            labelFormatter={(l, payload) => {
              const r = payload?.[0]?.payload as { offered?: number | null; achieved?: number | null } | undefined;
              return byOffered
                ? `offered ${fmtRate(Number(l))}${r?.achieved != null ? ` (achieved ${fmtRate(r.achieved)})` : ""}`
                : `achieved ${fmtRate(Number(l))}`;
            }}
          />
          <Legend />
          {byOffered && ceiling != null && ceiling >= domain[0] && ceiling <= domain[1] && (
            <ReferenceLine x={ceiling} stroke="#475569" strokeDasharray="5 4" label={{ value: `ceiling ${fmtRate(ceiling)}`, position: "insideBottomLeft", fontSize: 11, fill: "#475569", offset: 8 }} />
          )}
          <Line dataKey="latency" name="latency avg" stroke="#d97706" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls />
          {hasP99 && <Line dataKey="p99" name="latency p99" stroke="#94a3b8" strokeDasharray="4 3" dot={false} isAnimationActive={false} connectNulls />}
          {kneeX != null && knee?.latency_avg_ms != null && (
            <ReferenceDot x={kneeX} y={knee.latency_avg_ms} r={7} fill="#dc2626" stroke="#fff" strokeWidth={2} label={{ value: "knee", position: "top", fontSize: 12, fill: "#dc2626" }} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
