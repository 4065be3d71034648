import { useState, type FormEvent } from "react";
import { useReanalyse } from "../../api/campaigns";
import { errorsOf, messagesFor } from "../../api/errors";
import type { Analysis } from "../../api/types";
import { latencyLabel, sloMetricsOf, type ToolInfo } from "../../tools/catalog";
import Field, { FormErrors, InputField } from "../common/Field";

type Values = Record<"slo_ms" | "green_ms" | "yellow_ms" | "k" | "min_efficiency", string>;

const FIELDS: [keyof Values, string, string?][] = [
  ["slo_ms", "Capacity: latency target (ms)", "empty = the yellow limit"],
  ["green_ms", "Green below (ms)"],
  ["yellow_ms", "Yellow below (ms)"],
  ["k", "Knee: latency within k × baseline"],
  ["min_efficiency", "Knee: efficiency at least (%)"],
];

/** The latency target (on the percentile chosen from the tool's), the knee rule and SLA zone latencies; changing them recomputes the stored analysis. */
export default function ThresholdsForm({ campaignId, analysis, tool }: { campaignId: number; analysis: Analysis | null; tool?: ToolInfo }) {
  const t = (analysis?.thresholds ?? {}) as Record<string, number | null | undefined> & { slo_metric?: string | null };
  const choices = sloMetricsOf(tool);
  // "" = the API's default: p99 when the points measured it, else the mean
  const [sloMetric, setSloMetric] = useState<string>(t.slo_metric ?? "");
  const [v, setV] = useState<Values>({
    slo_ms: t.slo_ms != null ? String(t.slo_ms) : "",
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
    // an empty target falls back to the yellow limit (the API's default)
    re.mutate({ slo_ms: v.slo_ms.trim() === "" ? null : n(v.slo_ms), ...(sloMetric ? { slo_metric: sloMetric } : {}), green_ms: n(v.green_ms), yellow_ms: n(v.yellow_ms), k: n(v.k), min_efficiency: typeof eff === "number" ? eff / 100 : eff } as never);
  };
  const set = (k: keyof Values) => (value: string) => setV((x) => ({ ...x, [k]: value }));
  return (
    <details className="card thresholds">
      <summary>
        <strong>Analysis settings</strong> <span className="muted small">latency target, knee rule and SLA zones</span>
      </summary>
      <form onSubmit={submit} aria-label="Analysis settings">
        <div className="grid-4">
          {choices.length > 0 && (
            <Field label="Capacity: read on" errors={messagesFor(errors, "slo_metric")} hint="the latency the target applies to">
              <select name="slo_metric" value={sloMetric} onChange={(e) => setSloMetric(e.target.value)}>
                <option value="">automatic (p99 when measured, else the mean)</option>
                {choices.map((m) => (
                  <option key={m.name} value={m.name}>
                    {latencyLabel(tool, m.name)}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {FIELDS.map(([k, label, hint]) => (
            <InputField key={k} label={label} name={k} errors={errors} value={v[k]} onValue={set(k)} inputMode="decimal" hint={hint} />
          ))}
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
