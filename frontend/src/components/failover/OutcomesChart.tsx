import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, ChartFrame, GRID, SECONDS_AXIS, legendToggle, useChartOptions, valueAxis } from "../../charts/common";
import { eventMarkers, type PointEventRecord } from "../../charts/eventMarkers";
import { fmtUnit } from "../../format";
import { OUTCOME_CLASSES, fmtSeconds, outcomeRows } from "./failover";

/**
 * A point's requests by outcome over its run, stacked: answered, then each failure class, per bucket of intended send
 * time (10 ms, merged to wider buckets for a long point: the caption says which), with the point's events as markers
 * on the same clock (the first bucket's start is 0 s). A legend click hides a class (kept in the URL under `id`).
 */
export default function OutcomesChart({ outcomes, events = [], id = "outcomes" }: { outcomes: Record<string, unknown>; events?: readonly PointEventRecord[]; id?: string }) {
  const { rows, width_s, classes } = outcomeRows(outcomes);
  const opts = useChartOptions(id);
  const shown = OUTCOME_CLASSES.filter(([name]) => classes.includes(name));
  const totals = rows.map((r) => shown.reduce((a, [name]) => a + (opts.hide.includes(name) ? 0 : r[name] ?? 0), 0));
  return (
    <ChartFrame title={`Requests by outcome per ${fmtSeconds(width_s)} of intended send time`} height={240} empty={rows.length === 0 && "No outcomes recorded"}
      note={outcomes.header ? `backends told apart by ${String(outcomes.header)}` : undefined}>
      <ResponsiveContainer>
        <AreaChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis {...SECONDS_AXIS} />
          <YAxis {...valueAxis(totals)} tick={AXIS_STYLE} width={52} label={{ value: "requests", angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip formatter={(v, name) => [fmtUnit(Number(v), "count"), name]} labelFormatter={(l) => `sent at t = ${l} s`} />
          <Legend {...legendToggle(opts)} />
          {shown.map(([name, label, colour]) => (
            <Area key={name} dataKey={name} name={label} stackId="outcomes" type="stepAfter" stroke={colour} fill={colour} fillOpacity={0.55}
              hide={opts.hide.includes(name)} isAnimationActive={false} />
          ))}
          {eventMarkers(events, Number(outcomes.start))}
        </AreaChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
