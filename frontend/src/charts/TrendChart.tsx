import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import type { ChangePoint, TrendMetric, TrendPoint } from "../api/trends";
import { fmtNumber } from "../format";
import { AXIS_STYLE, ChartFrame, GRID, valueAxis } from "./common";

export const METRIC_LABELS: Record<TrendMetric, string> = {
  capacity_at_slo: "Capacity (the search's first criterion, else at the SLO)",
  max_achieved_rate: "Ceiling (highest achieved rate, mean of repetitions)",
  latency_p50_ms: "Latency p50 at low load (ms)",
  latency_p99_ms: "Latency p99 at low load (ms)",
  loss_pct: "Loss (%)",
  server_cost: "Server CPU per unit of work (CPU-s, the server process's own)",
};

export interface TrendRow {
  t: number;
  id: number;
  value: number | null; // a figure (capacity: only where it is one, kind "between")
  range: [number, number] | null; // its 95 % interval
  atLeast: number | null; // capacity that is a lower bound (the target held at every load)
}

/** The chart's rows: one per campaign that ended, oldest first; bounds are kept apart from figures. */
export function trendRows(points: TrendPoint[], metric: TrendMetric): TrendRow[] {
  return points
    .filter((p) => p.ended_at)
    .map((p) => {
      const t = Date.parse(p.ended_at as string);
      if (metric !== "capacity_at_slo") return { t, id: p.campaign_id, value: p[metric] ?? null, range: null, atLeast: null };
      const c = p.capacity;
      const figure = c.kind === "between" ? c.value : null;
      const range: [number, number] | null = figure != null && c.low != null && c.high != null ? [c.low, c.high] : null;
      return { t, id: p.campaign_id, value: figure, range, atLeast: c.kind === "at_least" ? (c.bound ?? c.value) : null };
    });
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A metric over time, a marker at each change point (its later campaign), intervals as a band, lower bounds as ▲. */
export default function TrendChart({ points, changes, metric }: { points: TrendPoint[]; changes: ChangePoint[]; metric: TrendMetric }) {
  const rows = trendRows(points, metric);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const yAxis = valueAxis(rows.flatMap((r) => [r.value, r.atLeast, ...(r.range ?? [])]));
  const dots = rows.length <= 120;
  return (
    <div data-testid="trend-chart" data-rows={rows.length} data-changes={changes.length}>
      <ChartFrame title={`${METRIC_LABELS[metric]} by campaign end`} empty={rows.length === 0 && "No completed campaign yet"} height={280}>
        <ResponsiveContainer>
          <ComposedChart data={rows} margin={{ top: 16, right: 16, bottom: 4, left: 8 }}>
            <CartesianGrid stroke={GRID} />
            <XAxis dataKey="t" type="number" scale="time" domain={["dataMin", "dataMax"]} tick={AXIS_STYLE} tickFormatter={day} />
            <YAxis {...yAxis} tick={AXIS_STYLE} width={56} />
            <Tooltip
              labelFormatter={(t) => day(Number(t))}
              formatter={(v, name) => [Array.isArray(v) ? v.map((x) => fmtNumber(Number(x))).join("–") : fmtNumber(Number(v)), name]}
            />
            <Area dataKey="range" name="95 % interval" stroke="none" fill="var(--series-0)" fillOpacity={0.18} isAnimationActive={false} connectNulls={false} />
            <Line dataKey="value" name={METRIC_LABELS[metric]} stroke="var(--series-0)" dot={dots ? { r: 2 } : false} isAnimationActive={false} connectNulls />
            <Scatter dataKey="atLeast" name="at least (lower bound)" fill="var(--series-1)" shape="triangle" isAnimationActive={false} />
            {changes.map((c) => {
              const at = byId.get(c.after_campaign_id);
              return at ? (
                <ReferenceLine
                  key={`${c.metric}-${c.after_campaign_id}`}
                  x={at.t}
                  stroke={c.direction === "worse" ? "var(--bad, #dc2626)" : "var(--good, #16a34a)"}
                  strokeDasharray="4 3"
                  label={{ value: c.change_pct != null ? `${c.change_pct > 0 ? "+" : ""}${c.change_pct.toFixed(1)} %` : "change", position: "top", fontSize: 11, fill: "var(--chart-axis)" }}
                />
              ) : null;
            })}
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
    </div>
  );
}
