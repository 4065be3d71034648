import { CartesianGrid, ComposedChart, Line, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import type { SearchEvent, SearchResult } from "../../api/types";
import { AXIS_STYLE, ChartFrame, GRID } from "../../charts/common";
import { fmtDuration, fmtTick, fmtUnit } from "../../format";

/** Chart rows of a search's live events: the bracket (low, high) and the trial asked at each step. */
export function bracketRows(events: SearchEvent[]) {
  return events
    .filter((e) => !e.done)
    .map((e, i) => ({ step: i + 1, low: e.low ?? null, high: e.high ?? null, rate: e.rate ?? null, criterion: e.criterion, duration: e.duration_s }));
}

function title(e: { phase_index: number; variant?: string | null; repeat?: number }) {
  return `Search · phase ${e.phase_index + 1}${e.variant ? ` · ${e.variant}` : ""}${e.repeat ? ` · repetition ${e.repeat + 1}` : ""}`;
}

/** One live search: its bracket narrowing trial after trial, and where it stands. */
function LiveSearch({ events }: { events: SearchEvent[] }) {
  const last = events[events.length - 1];
  const rows = bracketRows(events);
  const unit = last.unit;
  return (
    <div data-testid="search-live" data-steps={rows.length}>
      <p className="pad small" data-testid="search-bracket">
        {last.error
          ? `Search stopped: ${last.error}.`
          : last.stopped
          ? `Search ${last.stopped}; ${last.criterion}: capacity in [${fmtUnit(last.low, unit)} – ${fmtUnit(last.high, unit)}] so far.`
          : last.done
          ? `Search done after ${last.trials} trials.`
          : `${last.criterion}: capacity in [${fmtUnit(last.low, unit)} – ${fmtUnit(last.high, unit)}] · next trial ${fmtUnit(last.rate, unit)} for ${fmtDuration(last.duration_s)} (stage ${(last.stage ?? 0) + 1})`}
      </p>
      <ChartFrame title={`${title(last)}: the bracket narrowing`} height={180} empty={rows.length === 0 && "No trial yet"}>
        <ResponsiveContainer>
          <ComposedChart data={rows} margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
            <CartesianGrid stroke={GRID} />
            <XAxis dataKey="step" type="number" allowDecimals={false} tick={AXIS_STYLE} label={{ value: "trial", position: "insideBottomRight", fontSize: 11 }} />
            <YAxis tick={AXIS_STYLE} width={52} tickFormatter={fmtTick} domain={last.range ? [last.range[0], last.range[1]] : ["auto", "auto"]} />
            <Tooltip formatter={(v) => fmtUnit(Number(v), unit)} labelFormatter={(l) => `trial ${l}`} />
            <Line dataKey="low" name="lower bound (met)" stroke="#16a34a" type="stepAfter" dot={false} connectNulls isAnimationActive={false} />
            <Line dataKey="high" name="upper bound (missed)" stroke="#dc2626" type="stepAfter" dot={false} connectNulls isAnimationActive={false} />
            <Scatter dataKey="rate" name="trial" fill="#2563eb" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
    </div>
  );
}

/** What a finished search found, per criterion: the capacity said as a value, or as a bound. */
function SearchFound({ result }: { result: SearchResult }) {
  return (
    <div data-testid="search-result">
      <h3 className="small">{title(result)}</h3>
      {result.done ? (
        <ul className="small">
          {(result.criteria ?? []).map((c) => (
            <li key={c.criterion} data-testid="search-capacity" data-kind={c.kind}>
              capacity at {c.criterion}: <strong>{c.statement}</strong> <span className="muted">(to {c.resolution_pct} %)</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="small warn-text" data-testid="search-stopped">
          {result.stopped ? `Search ${result.stopped}` : "Stopped before the end"}: {result.bracket?.criterion} within [{fmtUnit(result.bracket?.low, result.unit)} –{" "}
          {fmtUnit(result.bracket?.high, result.unit)}]{result.stopped ? "." : "; resume to continue from there."}
        </p>
      )}
      <p className="muted small">
        {result.trials} trials, {fmtDuration(result.trial_seconds)} of load
      </p>
    </div>
  );
}

/** The campaign's searches: live brackets while running (`events`), the capacities found once analysed (`results`). */
export default function SearchPanel({ events = {}, results }: { events?: Record<string, SearchEvent[]>; results?: SearchResult[] | null }) {
  const live = Object.values(events).filter((e) => e.length > 0);
  if (!live.length && !results?.length) return null;
  return (
    <section className="card" aria-label="Capacity search">
      {results?.length ? results.map((r) => <SearchFound key={`${r.phase_index}/${r.variant}/${r.repeat}`} result={r} />) : live.map((e) => <LiveSearch key={`${e[0].phase_index}/${e[0].variant}/${e[0].repeat}`} events={e} />)}
    </section>
  );
}
