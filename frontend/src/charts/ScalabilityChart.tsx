import { CartesianGrid, ComposedChart, ErrorBar, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Point, Usl } from "../api/types";
import { fmtRange, fmtUnit, metricLabel } from "../format";
import { headlineOf, rateUnitOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartFrame, GRID, legendToggle, useChartOptions, valueAxis } from "./common";
import { scalabilityRows, type ScalabilityRow } from "./pointData";
import { sampleUsl, uslRate } from "./usl";
import { concurrencyTicks } from "./zones";

/** The measured row nearest to concurrency `x` (the cursor), or undefined when there is none. */
export function measuredNear(rows: ScalabilityRow[], x: number): ScalabilityRow | undefined {
  let best: ScalabilityRow | undefined;
  for (const r of rows) if (r.headline != null && (!best || Math.abs(r.concurrency - x) < Math.abs(best.concurrency - x))) best = r;
  return best;
}

/** "point 3", or "points 3, 7" for a load measured more than once (1-based, as the points table numbers them). */
export const pointLabel = (r: ScalabilityRow) => `point${r.seqs.length > 1 ? "s" : ""} ${r.seqs.map((s) => s + 1).join(", ")}`;

/**
 * The tooltip: the measured point nearest the cursor (value, unit, point label, the repeats' range) and, apart, what the
 * USL model predicts at that concurrency. The cursor snaps to the model's dense samples; the reader wants the measurement.
 */
export function ScalabilityTooltip({ active, label, rows, usl, unit, title, fitted }: {
  active?: boolean;
  label?: unknown;
  rows: ScalabilityRow[];
  usl?: Usl | null;
  unit: string | undefined;
  title: string;
  fitted: boolean;
}) {
  const r = active ? measuredNear(rows, Number(label)) : undefined;
  if (!r) return null;
  const model = fitted && usl ? uslRate(r.concurrency, usl) : null;
  const value = fmtUnit(r.headline, unit);
  return (
    <div className="chart-tooltip" data-testid="scalability-tooltip">
      <div className="chart-tooltip-head">
        concurrency {r.concurrency} · {pointLabel(r)}
      </div>
      <div data-testid="tooltip-measured">
        measured {title}: <strong>{value}</strong>
        {r.spread && r.headline != null && (
          <span className="muted"> ({fmtRange(r.headline - r.spread[0], r.headline + r.spread[1], unit, value)} over {r.n} runs)</span>
        )}
      </div>
      {r.efficiency != null && <div>efficiency: {fmtUnit(r.efficiency, "ratio")}</div>}
      {model != null && (
        <div className="muted" data-testid="tooltip-model">
          USL model at {r.concurrency}: {fmtUnit(model, unit)}
        </div>
      )}
    </div>
  );
}

/**
 * The tool's headline metric and the API's efficiency against concurrency, with the USL fit over the measured points.
 * Repeated loads draw their min–max as error bars; a legend click hides a series (kept in the URL).
 */
export default function ScalabilityChart({ points, tool, usl }: { points: Point[]; tool: ToolInfo | undefined; usl?: Usl | null }) {
  const headline = headlineOf(tool);
  const rows = scalabilityRows(points, headline?.name);
  const ns = rows.map((r) => r.concurrency);
  // the USL fit is of the achieved rate: drawn over the headline when it is in the same unit
  const fitted = !headline || headline.unit === rateUnitOf(tool);
  const curve = fitted && rows.length >= 2 ? sampleUsl(usl, Math.min(...ns), Math.max(...ns)) : [];
  const title = headline?.title ?? "Achieved";
  const ticks = ns.length ? concurrencyTicks(Math.min(...ns), Math.max(...ns)) : undefined;
  const opts = useChartOptions("scal");
  const shown = (k: string) => !opts.hide.includes(k);
  const yAxis = valueAxis([
    ...(shown("headline") ? rows.flatMap((r) => (r.headline == null ? [] : [r.headline - (r.spread?.[0] ?? 0), r.headline + (r.spread?.[1] ?? 0)])) : []),
    ...(shown("usl") ? curve.map((c) => c.usl) : []),
  ]);
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
          <YAxis yAxisId="rate" {...yAxis} tick={AXIS_STYLE} width={52} label={{ value: metricLabel(headline), angle: -90, position: "insideLeft", fontSize: 11 }} />
          <YAxis yAxisId="eff" orientation="right" domain={[0, 1.1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={(v) => `${Math.round(v * 100)}%`} tick={AXIS_STYLE} width={44} />
          <Tooltip content={<ScalabilityTooltip rows={rows} usl={usl} unit={headline?.unit} title={title.toLowerCase()} fitted={fitted} />} />
          <Legend {...legendToggle(opts)} />
          <Line yAxisId="rate" data={rows} dataKey="headline" name={title.toLowerCase()} hide={!shown("headline")} stroke="#2563eb" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls>
            {rows.some((r) => r.spread) && <ErrorBar dataKey="spread" width={6} stroke="#1e3a8a" direction="y" />}
          </Line>
          <Line yAxisId="eff" data={rows} dataKey="efficiency" name="efficiency" hide={!shown("efficiency")} stroke="#059669" strokeDasharray="4 3" dot={{ r: 2 }} isAnimationActive={false} connectNulls />
          {curve.length > 0 && (
            <Line yAxisId="rate" data={curve} dataKey="usl" name="USL fit" hide={!shown("usl")} stroke="#7c3aed" strokeWidth={1.5} dot={false} activeDot={false} isAnimationActive={false} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
