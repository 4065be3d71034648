import { CartesianGrid, ComposedChart, Legend, Line, ReferenceArea, ReferenceDot, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Analysis, Point } from "../api/types";
import { fmtMs, fmtRate, rateUnit } from "../format";
import { AXIS_STYLE, ChartFrame, GRID, tick } from "./common";
import { kneeRows } from "./pointData";
import { niceDomain, zoneBands } from "./zones";

/** Latency against achieved rate, with the knee and the SLA zones when the analysis has them. */
export default function KneeChart({ points, tool, analysis }: { points: Point[]; tool: string; analysis?: Analysis | null }) {
  const rows = kneeRows(points);
  const xs = rows.map((r) => r.achieved!).filter((x) => x != null);
  const knee = analysis?.knee;
  if (knee?.achieved_rate != null) xs.push(knee.achieved_rate);
  const lo = xs.length ? Math.min(...xs) : 0;
  const hi = xs.length ? Math.max(...xs) : 1;
  // a little room on the right so a knee at the last load is not cut by the edge
  const domain = niceDomain(lo, hi + (hi - lo) * 0.03);
  const bands = zoneBands(analysis?.zones, domain);
  const hasP99 = rows.some((r) => r.p99 != null);
  return (
    <ChartFrame
      title="Knee: latency vs achieved rate"
      empty={rows.length === 0 && "No completed load points"}
      note={knee?.achieved_rate != null ? `knee at ${fmtRate(knee.achieved_rate, tool)}` : undefined}
    >
      <ResponsiveContainer>
        <ComposedChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          {bands.map((b) => (
            <ReferenceArea key={b.zone} x1={b.x1} x2={b.x2} fill={b.fill} fillOpacity={0.1} strokeOpacity={0} ifOverflow="hidden" label={{ value: b.zone, position: "insideTop", fontSize: 11, fill: b.fill }} />
          ))}
          <XAxis dataKey="achieved" type="number" domain={domain} tickFormatter={tick} tick={AXIS_STYLE} label={{ value: `achieved ${rateUnit(tool)}`, position: "insideBottomRight", offset: -2, fontSize: 11 }} />
          <YAxis tickFormatter={(v) => String(v)} tick={AXIS_STYLE} width={48} label={{ value: "ms", angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip
            formatter={(v, name) => [fmtMs(Number(v)), name]}
            labelFormatter={(l, payload) => {
              const r = payload?.[0]?.payload as { offered?: number | null } | undefined;
              return `achieved ${fmtRate(Number(l), tool)}${r?.offered != null ? ` (offered ${fmtRate(r.offered, tool)})` : ""}`;
            }}
          />
          <Legend />
          <Line dataKey="latency" name="latency avg" stroke="#d97706" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls />
          {hasP99 && <Line dataKey="p99" name="latency p99" stroke="#94a3b8" strokeDasharray="4 3" dot={false} isAnimationActive={false} connectNulls />}
          {knee?.achieved_rate != null && knee.latency_avg_ms != null && (
            <ReferenceDot x={knee.achieved_rate} y={knee.latency_avg_ms} r={7} fill="#dc2626" stroke="#fff" strokeWidth={2} label={{ value: "knee", position: "top", fontSize: 12, fill: "#dc2626" }} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
