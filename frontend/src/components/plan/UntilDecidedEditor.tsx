import { messagesFor, type FieldErrors } from "../../api/errors";
import Field from "../common/Field";

/** The plan's repeat-until-decided option (the API's plan.until_decided), kept as the API takes it. */
export interface UntilDecided {
  metrics: string[];
  margin_pct?: number;
  max_passes?: number;
  budget_s?: number | null;
}

export const UNTIL_DECIDED_WHY =
  "Keep running passes (each variant once, back to back, the order swapped every other pass so a drifting host falls on both sides) " +
  "until every named metric is decided — worse, better, or equivalent within ±margin — or the most passes or the time budget is spent. " +
  "The test may look after every pass: the chance that identical variants are called different on any named metric stays ≤ 5 %. " +
  "Caps, the preview and the schedule count the most passes.";

const number = (text: string): number | undefined => (text.trim() === "" || Number.isNaN(Number(text)) ? undefined : Number(text));

/** Turns repeat until decided on or off and edits its metrics, margin, most passes and budget (for two variants or more). */
export default function UntilDecidedEditor({ value, errors, onChange }: {
  value: UntilDecided | undefined;
  errors: FieldErrors;
  onChange: (value: UntilDecided | undefined) => void;
}) {
  const err = (p: string) => messagesFor(errors, `until_decided${p}`, { exact: p === "" });
  const on = value !== undefined;
  return (
    <div className="until-decided">
      <Field label="Repeat until decided" errors={err("")} hint={UNTIL_DECIDED_WHY}>
        <input type="checkbox" name="until_decided" checked={on}
          onChange={(e) => onChange(e.target.checked ? { metrics: ["server_cost"], margin_pct: 5, max_passes: 20 } : undefined)} />
      </Field>
      {value && (
        <div className="row">
          <Field label="Metrics to decide" errors={err(".metrics")} hint="comma-separated point figures, e.g. server_cost, latency_p99_ms">
            <input name="until_decided_metrics" value={value.metrics.join(", ")}
              onChange={(e) => onChange({ ...value, metrics: e.target.value.split(/[\s,]+/).filter(Boolean) })} />
          </Field>
          <Field label="Equivalent within ± %" errors={err(".margin_pct")}>
            <input name="until_decided_margin" inputMode="decimal" defaultValue={value.margin_pct ?? ""}
              onChange={(e) => onChange({ ...value, margin_pct: number(e.target.value) })} />
          </Field>
          <Field label="Most passes" errors={err(".max_passes")}>
            <input name="until_decided_max_passes" inputMode="numeric" defaultValue={value.max_passes ?? ""}
              onChange={(e) => onChange({ ...value, max_passes: number(e.target.value) })} />
          </Field>
          <Field label="Time budget (s)" errors={err(".budget_s")} hint="empty: no budget but the most passes">
            <input name="until_decided_budget" inputMode="decimal" defaultValue={value.budget_s ?? ""}
              onChange={(e) => onChange({ ...value, budget_s: number(e.target.value) ?? null })} />
          </Field>
        </div>
      )}
    </div>
  );
}
