import { CartesianGrid, ComposedChart, ErrorBar, Legend, Line, ReferenceArea, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Analysis, GeneratorLimited, Point } from "../api/types";
import { axisUnit, fmtMs, fmtUnit } from "../format";
import { latencyLabel, rateUnitOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartChoice, ChartFrame, GRID, LogToggle, latencyUnit, legendToggle, tick, useChartOptions, valueAxis } from "./common";
import { kneeRows, PERCENTILES, type KneeRow } from "./pointData";
import { niceDomain, zoneBands } from "./zones";

/**
 * Latency against load, with the knee and the SLA zones when the analysis has them.
 * The analysis states the knee and the zones in offered load, so open-loop tools (every point has
 * an offered rate) are drawn against it; closed-loop ones against the achieved rate.
 * The reader picks the percentile drawn beside the average and a log latency axis; a legend click hides a line (all kept in the URL).
 * Repeated loads draw the spread of their average latency as error bars.
 */
export default function KneeChart({ points, tool, analysis }: { points: Point[]; tool: ToolInfo | undefined; analysis?: Analysis | null }) {
  const unit = rateUnitOf(tool);
  const fmtRate = (v: number | null | undefined) => fmtUnit(v, unit);
  const all = kneeRows(points);
  const limitedRows = all.filter((r) => r.limited != null);
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
  const opts = useChartOptions("knee", "p99");
  const pcts = (Object.keys(PERCENTILES) as (keyof typeof PERCENTILES)[]).filter((k) => rows.some((r) => r[k] != null));
  const pct = pcts.find((k) => k === opts.pct) ?? pcts[pcts.length - 1];
  const pctLabel = (k: keyof typeof PERCENTILES) => latencyLabel(tool, PERCENTILES[k]);
  const pctName = pct ? `latency ${pctLabel(pct)}` : "";
  const shown = (k: string) => !opts.hide.includes(k);
  const lat = latencyUnit(rows.flatMap((r) => [r.latency, pct ? r[pct] : null, r.limited]));
  const yAxis = valueAxis(
    rows.flatMap((r) => [
      ...(shown("latency") ? [r.latency, r.latency == null ? null : r.latency + (r.latencySpread?.[1] ?? 0)] : []),
      shown("pct") && pct ? r[pct] : null,
      shown("limited") ? r.limited : null,
    ]),
    { log: opts.log, scale: lat.scale },
  );
  const controls = (
    <span className="chart-options">
      {pcts.length > 1 && pct && (
        <ChartChoice label="percentile" ariaLabel="Percentile shown" value={pct} options={pcts.map((k) => [k, pctLabel(k)])} onChange={opts.setPct} />
      )}
      <LogToggle on={opts.log} onChange={opts.setLog} />
    </span>
  );
  const axis = byOffered ? "offered" : "achieved";
  const ceiling = analysis?.ceiling?.achieved_rate;
  return (
    <ChartFrame
      title={`Knee: latency vs ${axis} load`}
      footer={<GeneratorLimitedList left={analysis?.generator_limited ?? []} fmtRate={fmtRate} />}
      empty={rows.length === 0 && "No completed load points"}
      note={
        <>
          {kneeX != null && (
            <span data-testid="knee-note" title={knee?.why ?? undefined}>
              knee at {fmtRate(kneeX)} {axis} ({knee?.rule_text})
            </span>
          )}
          {bands.length > 0 && <span className="muted"> · zones by mean latency</span>}
          {rows.length > 0 && controls}
        </>
      }
    >
      <ResponsiveContainer>
        <ComposedChart data={rows} margin={{ top: 14, right: 12, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={GRID} />
          {bands.map((b) => (
            <ReferenceArea key={b.zone} x1={b.x1} x2={b.x2} fill={b.fill} fillOpacity={0.12} strokeOpacity={0} ifOverflow="hidden" label={{ value: b.zone, position: "insideTop", fontSize: 11, fill: b.fill }} />
          ))}
          <XAxis dataKey="x" type="number" domain={domain} tickFormatter={tick} tick={AXIS_STYLE} label={{ value: `${axis} ${axisUnit(unit)}`, position: "insideBottomRight", offset: -2, fontSize: 11 }} />
          <YAxis {...yAxis} tick={AXIS_STYLE} width={48} label={{ value: lat.unit, angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip
            formatter={(v, name, item) => {
              const r = item?.payload as KneeRow | undefined;
              if (name === LIMITED && r?.generator) return [`${fmtMs(Number(v))} — load not sent (${r.generator.sent_pct} % sent): ${r.generator.cause}`, name];
              return [`${fmtMs(Number(v))}${name === "latency avg" && r?.n && r.n > 1 ? ` (mean of ${r.n} runs)` : ""}`, name];
            }}
            labelFormatter={(l, payload) => {
              const r = payload?.[0]?.payload as { offered?: number | null; achieved?: number | null } | undefined;
              return byOffered
                ? `offered ${fmtRate(Number(l))}${r?.achieved != null ? ` (achieved ${fmtRate(r.achieved)})` : ""}`
                : `achieved ${fmtRate(Number(l))}`;
            }}
          />
          <Legend {...legendToggle({ hide: opts.hide, toggle: (k) => opts.toggle(k === "latency" || k === "limited" ? k : "pct") })} />
          {byOffered && ceiling != null && ceiling >= domain[0] && ceiling <= domain[1] && (
            <ReferenceLine x={ceiling} stroke="#475569" strokeDasharray="5 4" label={{ value: `ceiling ${fmtRate(ceiling)}`, position: "insideBottomLeft", fontSize: 11, fill: "#475569", offset: 8 }} />
          )}
          <Line dataKey="latency" name="latency avg" hide={!shown("latency")} stroke="#d97706" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls>
            {rows.some((r) => r.latencySpread) && <ErrorBar dataKey="latencySpread" width={6} stroke="#92400e" direction="y" />}
          </Line>
          {pct && <Line dataKey={pct} name={pctName} hide={!shown("pct")} stroke="#64748b" strokeDasharray="4 3" dot={false} isAnimationActive={false} connectNulls />}
          {limitedRows.length > 0 && (
            <Line dataKey="limited" name={LIMITED} hide={!shown("limited")} stroke="none" legendType="circle" isAnimationActive={false}
              dot={{ r: 5, fill: "#fff", stroke: LIMITED_COLOUR, strokeWidth: 2 }} activeDot={{ r: 6, fill: "#fff", stroke: LIMITED_COLOUR }} />
          )}
          {kneeX != null && knee?.latency_avg_ms != null && (
            <ReferenceDot x={kneeX} y={knee.latency_avg_ms} r={7} fill="#dc2626" stroke="#fff" strokeWidth={2} label={{ value: "knee", position: "top", fontSize: 12, fill: "#dc2626" }} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

const LIMITED = "generator-limited";
const LIMITED_COLOUR = "#7c3aed";

/** The loads the generator did not send, left out of knee, ceiling, capacity, USL and zones, each with the change that would lift it. */
export function GeneratorLimitedList({ left, fmtRate }: { left: GeneratorLimited[]; fmtRate: (v: number | null | undefined) => string }) {
  if (left.length === 0) return null;
  return (
    <div className="banner warn" role="note" aria-label="Generator-limited points">
      {left.length === 1 ? "1 point was" : `${left.length} points were`} generator-limited and left out of the knee, ceiling, capacity, USL and
      zones: the load generator did not send what they offered.
      <ul>
        {left.map((g, i) => (
          <li key={i}>
            {fmtRate(g.offered_rate)} offered{g.repeat ? ` (repetition ${g.repeat + 1})` : ""}: {g.sent_pct} % sent — {g.cause}
            {g.detail ? `: ${g.detail}` : ""}. Suggestion: {g.suggestion}
          </li>
        ))}
      </ul>
    </div>
  );
}
