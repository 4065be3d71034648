/** One metric's sequential verdict (analysis/sequential.py): the last, the interval, and the verdict after each pass. */
interface MetricTrace {
  verdict: string;
  passes: number;
  effect_pct: number | null;
  low_pct: number | null;
  high_pct: number | null;
  history: string[];
}

/** Repeat until decided's record on the campaign's analysis (runs/passes.py). */
export interface UntilDecidedRecord {
  reference: string;
  variants: Record<string, { metrics: Record<string, MetricTrace>; level: number; margin_pct: number }>;
  passes: number;
  spent_s: number;
  stopped: string | null;
  max_passes: number;
  budget_s: number | null;
}

const pct = (v: number | null) => (v == null ? "…" : `${v >= 0 ? "+" : ""}${v.toFixed(1)} %`);

/** How the verdict evolved pass by pass, each variant against the reference, and why the campaign stopped. */
export default function UntilDecidedPanel({ record }: { record: UntilDecidedRecord | null | undefined }) {
  if (!record) return null;
  const budget = record.budget_s != null ? `, budget ${record.budget_s} s` : "";
  return (
    <section className="card">
      <h3>Repeat until decided</h3>
      <p>
        {record.passes} passes in {Math.round(record.spent_s)} s of points (at most {record.max_passes}{budget}); stopped:{" "}
        <strong>{record.stopped ?? "still running"}</strong>.
      </p>
      <table className="table">
        <thead>
          <tr><th>variant vs {record.reference}</th><th>metric</th><th>verdict</th><th>change (anytime-valid interval)</th><th>after each pass</th></tr>
        </thead>
        <tbody>
          {Object.entries(record.variants).flatMap(([label, v]) =>
            Object.entries(v.metrics).map(([metric, m]) => (
              <tr key={`${label}-${metric}`}>
                <td>{label}</td>
                <td>{metric}</td>
                <td>{m.verdict === "equivalent" ? `equivalent within ±${v.margin_pct} %` : m.verdict}</td>
                <td>{pct(m.effect_pct)} ({pct(m.low_pct)} … {pct(m.high_pct)})</td>
                <td className="muted">{m.history.join(" → ")}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}
