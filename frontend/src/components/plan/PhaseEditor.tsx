import type { components as Components } from "../../api/schema";
import type { PhaseKind } from "../../api/types";
import { messagesFor, type FieldErrors } from "../../api/errors";
import { fmtUnit, isPrefixedUnit } from "../../format";
import { concurrencyUnit, rateUnitOf, type ToolInfo } from "../../tools/catalog";
import Field from "../common/Field";
import { blankCriterion, concurrencyIsList, FOUND_FIGURES, phaseKindsFor, rateModesFor, searchMetricsFor, type FoundFigure, type PhaseDraft, type RateMode } from "./planModel";

const KIND_HELP: Record<PhaseKind, string> = {
  baseline: "A low-rate serial point: the system's floor.",
  scalability: "A concurrency list; offered rate = concurrency × unit rate.",
  saturation: "Fixed concurrency, offered rate over a list or a range: finds the knee.",
  stability: "One long point near the knee: a fixed rate, or a fraction of what an earlier phase of the same run found.",
  custom: "Any concurrency list crossed with any rate list.",
  ramp: "Concurrency doubles up to a maximum until errors pass a threshold.",
  search: "Finds the capacity at each criterion between two rates: brackets, then bisects; short trials first, up to the duration near the boundary.",
  fractions: "Latency at fractions of what an earlier phase found (FD.io CSIT's 10, 50 and 90 % of the capacity its search found): one point per fraction.",
};

const DERIVED_HELP =
  "Resolved when this phase starts: the fraction × what the named earlier phase found in the same run (a search's capacity, a sweep's knee or ceiling), " +
  "so the load needs no picking by hand and holds on any server. Caps and the target policy are checked against the most it can be; " +
  "a reference that found nothing skips this phase with the reason.";

const WHY_HINT = "optional; the report says it beside the rate (e.g. a fifth below where latency bends)";
const MODE_LABEL: Record<RateMode, string> = { none: "unlimited", single: "single", list: "list", range: "range", derived: "from an earlier phase" };

/** One phase of a plan: its kind, concurrency, duration and (when the tool takes one) offered rate. */
export default function PhaseEditor({
  phase,
  index,
  count,
  tool,
  errors,
  onChange,
  onKind,
  onMove,
  onRemove,
}: {
  phase: PhaseDraft;
  index: number;
  count: number;
  tool: ToolInfo | undefined;
  errors: FieldErrors;
  onChange: (patch: Partial<PhaseDraft>) => void;
  onKind: (kind: PhaseKind) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const base = `phases.${index}`;
  const err = (f: string) => messagesFor(errors, `${base}.${f}`);
  const unit = rateUnitOf(tool);
  const modes = rateModesFor(phase.kind, tool);
  const takesRate = tool?.takes_rate ?? true;
  const showRate = phase.kind !== "scalability" && phase.kind !== "ramp" && phase.kind !== "fractions" && takesRate;
  const own = messagesFor(errors, base, { exact: true }).concat(messagesFor(errors, `${base}.kind`));
  const rateErrors = err("rate");
  // rates in a prefixed unit (bit/s) are long numbers: say them back ("= 1.25 Gbit/s")
  const sayBack = isPrefixedUnit(unit);
  const said = (x: string) => (Number.isFinite(Number(x)) ? fmtUnit(Number(x), unit) : x);
  const bitsHint = (v: string) => (sayBack && v.trim() ? `= ${said(v.trim())}` : undefined);
  const listHint = sayBack ? `comma-separated; ${phase.rate.split(/[\s,;]+/).filter(Boolean).map(said).join(", ")}` : "comma-separated";
  const perUnit = tool?.rate_per_concurrency ? ` per ${concurrencyUnit(tool)}` : "";

  return (
    <fieldset className={`phase-card phase-${phase.kind}`} data-testid={`phase-${index}`}>
      <legend>
        <span className="phase-index">{index + 1}</span>
        <span className="phase-kind-label">{phase.kind}</span>
        {phase.label && <span className="muted"> · {phase.label}</span>}
      </legend>
      <div className="phase-tools">
        <button type="button" className="btn icon" onClick={() => onMove(index - 1)} disabled={index === 0} aria-label={`Move phase ${index + 1} up`} title="Move up">
          ↑
        </button>
        <button type="button" className="btn icon" onClick={() => onMove(index + 1)} disabled={index === count - 1} aria-label={`Move phase ${index + 1} down`} title="Move down">
          ↓
        </button>
        <button type="button" className="btn icon danger-outline" onClick={onRemove} disabled={count === 1} aria-label={`Remove phase ${index + 1}`} title="Remove">
          ✕
        </button>
      </div>
      <p className="muted small phase-help">{KIND_HELP[phase.kind]}</p>
      <div className="phase-grid">
        <Field label="Kind" errors={own}>
          <select value={phase.kind} onChange={(e) => onKind(e.target.value as PhaseKind)} name={`phase-${index}-kind`}>
            {phaseKindsFor(tool).map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </Field>
        <Field
          label={concurrencyIsList(phase.kind) ? "Concurrency list" : phase.kind === "ramp" ? "Start concurrency" : "Concurrency"}
          errors={err("concurrency")}
          hint={[tool?.concurrency_label, concurrencyIsList(phase.kind) ? "comma-separated, e.g. 1, 2, 4, 8" : undefined].filter(Boolean).join("; ") || undefined}
        >
          <input value={phase.concurrency} onChange={(e) => onChange({ concurrency: e.target.value })} name={`phase-${index}-concurrency`} inputMode={concurrencyIsList(phase.kind) ? "text" : "numeric"} />
        </Field>
        {phase.kind === "ramp" && (
          <>
            <Field label="Max concurrency" errors={err("max_concurrency")}>
              <input value={phase.maxConcurrency} onChange={(e) => onChange({ maxConcurrency: e.target.value })} inputMode="numeric" />
            </Field>
            <Field label="Stop at errors (%)" errors={err("stop_error_pct")}>
              <input value={phase.stopErrorPct} onChange={(e) => onChange({ stopErrorPct: e.target.value })} inputMode="decimal" />
            </Field>
          </>
        )}
        {phase.kind === "scalability" && takesRate && (
          <Field label={`Unit rate (${unit} per ${concurrencyUnit(tool)})`} errors={err("unit_rate")} hint="empty = unlimited">
            <input value={phase.unitRate} onChange={(e) => onChange({ unitRate: e.target.value })} name={`phase-${index}-unit_rate`} inputMode="decimal" />
          </Field>
        )}
        {phase.kind === "search" && (
          <>
            <Field label={`From (${unit})`} errors={err("low")} hint={bitsHint(phase.low)}>
              <input value={phase.low} onChange={(e) => onChange({ low: e.target.value })} name={`phase-${index}-low`} inputMode="decimal" />
            </Field>
            <Field label={`To (${unit})`} errors={err("high")} hint={bitsHint(phase.high) ?? "in total; caps are checked here"}>
              <input value={phase.high} onChange={(e) => onChange({ high: e.target.value })} name={`phase-${index}-high`} inputMode="decimal" />
            </Field>
            <Field label="Resolution (%)" errors={err("resolution_pct")}>
              <input value={phase.resolutionPct} onChange={(e) => onChange({ resolutionPct: e.target.value })} name={`phase-${index}-resolution`} inputMode="decimal" />
            </Field>
            <Field label="Time budget (s)" errors={err("time_budget_s")} hint="optional: stops before a trial that would pass it">
              <input value={phase.timeBudget} onChange={(e) => onChange({ timeBudget: e.target.value })} name={`phase-${index}-time_budget`} inputMode="decimal" />
            </Field>
          </>
        )}
        <Field label={phase.kind === "search" ? "Longest trial (s)" : "Duration (s)"} errors={err("duration_s")}>
          <input value={phase.duration} onChange={(e) => onChange({ duration: e.target.value })} name={`phase-${index}-duration`} inputMode="decimal" />
        </Field>
        <Field label="Label" errors={err("label")} hint="optional">
          <input value={phase.label} onChange={(e) => onChange({ label: e.target.value })} name={`phase-${index}-label`} maxLength={80} />
        </Field>
      </div>
      {phase.kind === "search" && (
        <div className="criteria-rows" role="group" aria-label={`Phase ${index + 1} criteria`}>
          {messagesFor(errors, `${base}.criteria`, { exact: true }).map((m) => (
            <p key={m} className="error-text small">{m}</p>
          ))}
          {phase.criteria.map((c, j) => (
            <div key={c.key} className="range-inputs">
              <Field label={`Criterion ${j + 1}`} errors={err(`criteria.${j}.metric`)}>
                <select value={c.metric} name={`phase-${index}-criterion-${j}-metric`}
                  onChange={(e) => onChange({ criteria: phase.criteria.map((x, k) => (k === j ? { ...x, metric: e.target.value as typeof c.metric } : x)) })}>
                  {searchMetricsFor(tool).map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
              </Field>
              <Field label={c.metric === "efficiency_pct" ? "at least" : "at most"} errors={err(`criteria.${j}.limit`)} hint={c.metric.endsWith("_ms") ? "ms" : "%"}>
                <input value={c.limit} name={`phase-${index}-criterion-${j}-limit`} inputMode="decimal"
                  onChange={(e) => onChange({ criteria: phase.criteria.map((x, k) => (k === j ? { ...x, limit: e.target.value } : x)) })} />
              </Field>
              <button type="button" className="btn icon danger-outline" aria-label={`Remove criterion ${j + 1}`} disabled={phase.criteria.length === 1}
                onClick={() => onChange({ criteria: phase.criteria.filter((_, k) => k !== j) })}>
                ✕
              </button>
            </div>
          ))}
          <button type="button" className="btn" disabled={phase.criteria.length >= 4} onClick={() => onChange({ criteria: [...phase.criteria, blankCriterion(tool)] })}>
            Add criterion
          </button>
        </div>
      )}
      {showRate && phase.kind !== "search" && (
        <div className="rate-row">
          <div className="segmented" role="radiogroup" aria-label={`Phase ${index + 1} offered rate`}>
            <span className="segmented-label">Offered rate ({unit}{perUnit})</span>
            {modes.map((m) => (
              <label key={m} className={phase.rateMode === m ? "on" : ""}>
                <input type="radio" name={`phase-${index}-rate-mode`} value={m} checked={phase.rateMode === m} onChange={() => onChange({ rateMode: m })} />
                {MODE_LABEL[m]}
              </label>
            ))}
          </div>
          {phase.rateMode === "single" && (
            <Field label="Rate" errors={rateErrors} hint={bitsHint(phase.rate)}>
              <input value={phase.rate} onChange={(e) => onChange({ rate: e.target.value })} name={`phase-${index}-rate`} inputMode="decimal" />
            </Field>
          )}
          {phase.rateMode === "derived" && <DerivedFields phase={phase} index={index} errors={errors} at={`${base}.rate`} onChange={onChange} />}
          {phase.rateMode === "list" && (
            <Field label="Rates" errors={rateErrors} hint={listHint}>
              <input value={phase.rate} onChange={(e) => onChange({ rate: e.target.value })} name={`phase-${index}-rate`} />
            </Field>
          )}
          {phase.rateMode === "range" && (
            <div className="range-inputs">
              <Field label="From" errors={err("rate.start")} hint={bitsHint(phase.rateStart)}>
                <input value={phase.rateStart} onChange={(e) => onChange({ rateStart: e.target.value })} name={`phase-${index}-rate-start`} inputMode="decimal" />
              </Field>
              <Field label="To" errors={err("rate.stop")} hint={bitsHint(phase.rateStop)}>
                <input value={phase.rateStop} onChange={(e) => onChange({ rateStop: e.target.value })} name={`phase-${index}-rate-stop`} inputMode="decimal" />
              </Field>
              <Field label="Step" errors={err("rate.step")} hint={bitsHint(phase.rateStep)}>
                <input value={phase.rateStep} onChange={(e) => onChange({ rateStep: e.target.value })} name={`phase-${index}-rate-step`} inputMode="decimal" />
              </Field>
              {messagesFor(errors, `${base}.rate`, { exact: true }).length > 0 && (
                <ul className="field-errors">
                  {messagesFor(errors, `${base}.rate`, { exact: true }).map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
      )}
      {phase.kind === "fractions" && (
        <DerivedFields phase={phase} index={index} errors={errors} at={`${base}.found`} fractions onChange={onChange} />
      )}
      <PhaseEvents events={phase.kept?.events} errors={messagesFor(errors, `${base}.events`)} />
    </fieldset>
  );
}

/** A derived load: the earlier phase (by its label), what it found, and the fraction (a list for a fractions phase). */
function DerivedFields({ phase, index, errors, at, fractions = false, onChange }: {
  phase: PhaseDraft;
  index: number;
  errors: FieldErrors;
  at: string;
  fractions?: boolean;
  onChange: (patch: Partial<PhaseDraft>) => void;
}) {
  const own = messagesFor(errors, at, { exact: true });
  return (
    <div className="range-inputs" role="group" aria-label={`Phase ${index + 1} derived load`} data-testid={`phase-${index}-derived`}>
      <Field label="Earlier phase (its label)" errors={messagesFor(errors, `${at}.phase`)}>
        <input value={phase.fromPhase} onChange={(e) => onChange({ fromPhase: e.target.value })} name={`phase-${index}-from-phase`} maxLength={80} />
      </Field>
      <Field label="What it found" errors={messagesFor(errors, `${at}.of`)}>
        <select value={phase.fromFigure} onChange={(e) => onChange({ fromFigure: e.target.value as FoundFigure })} name={`phase-${index}-from-figure`}>
          {FOUND_FIGURES.map((f) => (
            <option key={f}>{f}</option>
          ))}
        </select>
      </Field>
      {phase.fromFigure === "capacity" && (
        <Field label="Criterion" errors={messagesFor(errors, `${at}.criterion`)} hint="the search's criterion, from 1">
          <input value={phase.fromCriterion} onChange={(e) => onChange({ fromCriterion: e.target.value })} name={`phase-${index}-from-criterion`} inputMode="numeric" />
        </Field>
      )}
      <Field label={fractions ? "Fractions" : "Fraction"} errors={messagesFor(errors, fractions ? `phases.${index}.fractions` : `${at}.fraction`)}
        hint={fractions ? "comma-separated, e.g. 0.1, 0.5, 0.9" : "e.g. 0.8 = 80 %"}>
        <input value={phase.fraction} onChange={(e) => onChange({ fraction: e.target.value })} name={`phase-${index}-fraction`} inputMode="decimal" />
      </Field>
      <Field label="Why this figure and fraction" errors={messagesFor(errors, `${at}.why`)} hint={WHY_HINT}>
        <input value={phase.fromWhy ?? ""} onChange={(e) => onChange({ fromWhy: e.target.value })} name={`phase-${index}-from-why`} maxLength={200} />
      </Field>
      {own.length > 0 && (
        <ul className="field-errors">
          {own.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <p className="muted small">{DERIVED_HELP}</p>
    </div>
  );
}

type PointEvent = Components["schemas"]["PointEvent"];

/** The phase's point events (kept as loaded: a template's or the API's), listed so a plan that acts on a system during
 * its points says so where it is edited. */
function PhaseEvents({ events, errors }: { events: unknown; errors: string[] }) {
  const list = Array.isArray(events) ? (events as PointEvent[]) : [];
  if (!list.length && !errors.length) return null;
  return (
    <div className="phase-events" data-testid="phase-events">
      <span className="segmented-label">Events in each point (docs/failover.md; set through a template or the API)</span>
      <ul>
        {list.map((e, i) => (
          <li key={i}>
            at {e.at_s} s: <code>{e.action}</code> {e.value}
            {e.observer ? ` on observer ${e.observer}` : ""}
          </li>
        ))}
      </ul>
      {errors.length > 0 && (
        <ul className="field-errors">
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
