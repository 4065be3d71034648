import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, ChartFrame, GRID } from "../../charts/common";
import { colourAt } from "../../charts/palette";
import { fmtUnit } from "../../format";
import type { Spread } from "./failover";

const PHASES = ["before", "during", "after"] as const;

/** The header values (backends) found in any phase, in numeric-aware order. */
const valuesOf = (spread: Partial<Record<string, Spread>>) =>
  [...new Set(Object.values(spread).flatMap((s) => Object.keys(s ?? {})))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));

/**
 * Where the answered requests went before a failure, during its error window and after it: a bar per phase, stacked by
 * backend (its share of that phase's answers), and the same as a table of requests and shares. A point without events
 * has one phase, the whole run (`spread.whole`).
 */
export default function SpreadPanel({ spread, title }: { spread: Partial<Record<"before" | "during" | "after" | "whole", Spread>>; title: string }) {
  const phases = [...PHASES, "whole" as const].filter((ph) => spread[ph] != null);
  const values = valuesOf(spread);
  const rows = phases.map((ph) => ({ phase: ph, ...Object.fromEntries(values.map((v) => [v, (spread[ph]?.[v]?.share ?? 0) * 100])) }));
  return (
    <div className="spread" data-testid="spread">
      <ChartFrame title={title} height={160} empty={values.length === 0 && "No answered request carried the counted header"}>
        <ResponsiveContainer>
          <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 12, bottom: 4, left: 8 }}>
            <CartesianGrid stroke={GRID} />
            <XAxis type="number" domain={[0, 100]} tick={AXIS_STYLE} tickFormatter={(v) => `${v}%`} />
            <YAxis type="category" dataKey="phase" tick={AXIS_STYLE} width={56} />
            <Tooltip formatter={(v, name) => [`${fmtUnit(Number(v), "%")}`, name]} />
            <Legend />
            {values.map((v, i) => (
              <Bar key={v} dataKey={v} name={v} stackId="spread" fill={colourAt(i)} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </ChartFrame>
      {values.length > 0 && (
        <table className="table compact" aria-label={`${title}: requests per backend`}>
          <thead>
            <tr>
              <th scope="col">backend</th>
              {phases.map((ph) => (
                <th scope="col" key={ph} className="num">
                  {ph}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {values.map((v) => (
              <tr key={v}>
                <th scope="row">{v}</th>
                {phases.map((ph) => {
                  const cell = spread[ph]?.[v];
                  return (
                    <td key={ph} className="num">
                      {cell ? `${fmtUnit(cell.requests, "count")} (${fmtUnit(cell.share, "ratio")})` : "—"}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
