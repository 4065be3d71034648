import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { EvidencePoint } from "../api/types";
import { fmtUnit } from "../format";
import { AXIS_STYLE, ChartFrame, GRID, tick } from "./common";

interface CostRow {
  offered: number;
  cost: number;
  phase: string;
}

/** The points with both an offered load and a cost, by load; the unit is the first cost's (one analysis, one unit). */
export function costRows(points: readonly EvidencePoint[]): { rows: CostRow[]; unit: string } {
  const rows = points
    .filter((p) => p.offered_rate != null && p.cost != null)
    .map((p) => ({ offered: p.offered_rate as number, cost: p.cost!.value, phase: p.phase }))
    .sort((a, b) => a.offered - b.offered);
  return { rows, unit: points.find((p) => p.cost)?.cost?.unit ?? "" };
}

/** The server's cost per unit of work against the offered load: a line that rises where each request costs more. */
export default function ServerCostChart({ points, rateUnit }: { points: readonly EvidencePoint[]; rateUnit: string }) {
  const { rows, unit } = costRows(points);
  if (rows.length < 2) return null;
  return (
    <ChartFrame title={`Server cost (${unit}) vs offered load`} height={200} note="the server process's own CPU counter">
      <ResponsiveContainer>
        <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis dataKey="offered" type="number" domain={["dataMin", "dataMax"]} tick={AXIS_STYLE} tickFormatter={tick}
            label={{ value: rateUnit, position: "insideBottomRight", fontSize: 11 }} />
          <YAxis tick={AXIS_STYLE} width={52} tickFormatter={tick} domain={[0, "auto"]} />
          <Tooltip formatter={(v) => fmtUnit(Number(v), unit)}
            labelFormatter={(_, items) => {
              const row = items?.[0]?.payload as CostRow | undefined;
              return row ? `${fmtUnit(row.offered, rateUnit)} offered · ${row.phase}` : "";
            }} />
          <Line dataKey="cost" name="cost" stroke="#0891b2" dot isAnimationActive={false} connectNulls />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
