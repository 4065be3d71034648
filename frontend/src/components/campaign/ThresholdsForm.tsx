import { useState, type FormEvent } from "react";
import { useReanalyse } from "../../api/campaigns";
import { errorsOf, messagesFor } from "../../api/errors";
import type { Analysis } from "../../api/types";
import Field, { FormErrors } from "../common/Field";

/** The knee rule and SLA zone latencies; changing them recomputes the stored analysis. */
export default function ThresholdsForm({ campaignId, analysis }: { campaignId: number; analysis: Analysis | null }) {
  const t = analysis?.thresholds ?? {};
  const [v, setV] = useState({
    green_ms: String(t.green_ms ?? 1),
    yellow_ms: String(t.yellow_ms ?? 3),
    k: String(t.k ?? 2),
    min_efficiency: String(t.min_efficiency != null ? t.min_efficiency * 100 : 95),
  });
  const re = useReanalyse(campaignId);
  const errors = errorsOf(re.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = (s: string) => (s.trim() === "" || !Number.isFinite(Number(s)) ? s : Number(s));
    const eff = n(v.min_efficiency);
    re.mutate({ green_ms: n(v.green_ms), yellow_ms: n(v.yellow_ms), k: n(v.k), min_efficiency: typeof eff === "number" ? eff / 100 : eff } as never);
  };
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((x) => ({ ...x, [k]: e.target.value }));
  return (
    <details className="card thresholds">
      <summary>
        <strong>Analysis settings</strong> <span className="muted small">knee rule and SLA zones</span>
      </summary>
      <form onSubmit={submit} aria-label="Analysis settings">
        <div className="grid-4">
          <Field label="Green below (ms)" errors={messagesFor(errors, "green_ms")}>
            <input value={v.green_ms} onChange={set("green_ms")} inputMode="decimal" />
          </Field>
          <Field label="Yellow below (ms)" errors={messagesFor(errors, "yellow_ms")}>
            <input value={v.yellow_ms} onChange={set("yellow_ms")} inputMode="decimal" />
          </Field>
          <Field label="Knee: latency within k × baseline" errors={messagesFor(errors, "k")}>
            <input value={v.k} onChange={set("k")} inputMode="decimal" />
          </Field>
          <Field label="Knee: efficiency at least (%)" errors={messagesFor(errors, "min_efficiency")}>
            <input value={v.min_efficiency} onChange={set("min_efficiency")} inputMode="decimal" />
          </Field>
        </div>
        <FormErrors errors={errors[""]} />
        <div className="actions">
          <button type="submit" className="btn" disabled={re.isPending}>
            {re.isPending ? "Analysing…" : "Reanalyse"}
          </button>
          {re.isSuccess && <span className="muted small">Analysis updated.</span>}
        </div>
      </form>
    </details>
  );
}
