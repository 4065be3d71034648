import { Fragment } from "react";
import { pointMetric, verdictClass, verdictText, type Comparison, type MatchedPoint } from "../../api/compare";
import { colourAt } from "../../charts/palette";
import { fmtDiffRange, fmtP, fmtSignedPct, fmtUnit } from "../../format";
import { headlineOf, metricOf, rateUnitOf, type ToolInfo } from "../../tools/catalog";
import ScrollBox from "../common/ScrollBox";

/** The metrics the per-point table shows: the tool's headline, then latency (the mean, else p99), when the verdicts carry them. */
export function verdictMetrics(tool: ToolInfo | undefined, rows: MatchedPoint[]): string[] {
  const has = (m: string) => rows.some((r) => pointMetric(r, m) != null);
  const headline = headlineOf(tool)?.name ?? "achieved_rate";
  const latency = ["latency_avg_ms", "latency_p99_ms"].find(has);
  return [headline, ...(latency ? [latency] : [])].filter((m, i, all) => has(m) && all.indexOf(m) === i);
}

/**
 * Per matched point (phase, concurrency, offered rate), for the headline metric and latency: the change in %, the
 * confidence interval of the difference, the adjusted p (corrected with every test of the comparison) and the verdict;
 * one table per campaign against the reference, collapsed under "Per-point verdicts", with the method said once.
 */
export default function PointVerdictsTable({ data, tool }: { data: Comparison; tool: ToolInfo | undefined }) {
  const ref = data.selectors[0];
  const others = data.selectors.slice(1).filter((k) => data.point_verdicts[k]);
  if (!others.length) return null;
  const rateUnit = rateUnitOf(tool);
  return (
    <details className="card flush point-verdicts" data-testid="point-verdicts">
      <summary>
        <strong>Per-point verdicts</strong>{" "}
        <span className="muted small">each matched point tested on its repetitions (unsteady points left out)</span>
      </summary>
      {others.map((key) => {
        const pv = data.point_verdicts[key];
        const rows = pv.points as MatchedPoint[];
        const metrics = verdictMetrics(tool, rows);
        const i = data.selectors.indexOf(key);
        return (
          <section key={key} aria-label={`Per-point verdicts of #${key}`}>
            {others.length > 1 && (
              <h3>
                <span className="swatch" style={{ background: colourAt(i) }} /> #{key} against #{ref}
              </h3>
            )}
            {rows.length === 0 ? (
              <p className="pad muted">No point matches the reference's (phase, concurrency and offered rate).</p>
            ) : (
              <ScrollBox label="Verdicts per point">
                <table className="table point-verdicts-table" data-testid="point-verdicts-table">
                  <thead>
                    <tr>
                      <th colSpan={3} />
                      {metrics.map((m) => (
                        <th key={m} colSpan={4} className="group">
                          {metricOf(tool, m)?.title ?? m}
                          {pv.overall[m]?.verdict && (
                            <span className={`verdict ${verdictClass(pv.overall[m].verdict!)}`} title={[pv.overall[m].basis, pv.overall[m].detail].filter(Boolean).join("; ")}>
                              {" "}
                              {verdictText(pv.overall[m].verdict!, pv.overall[m].margin_pct)}
                            </span>
                          )}
                        </th>
                      ))}
                    </tr>
                    <tr>
                      <th>Phase</th>
                      <th className="num">Conc.</th>
                      <th className="num">Offered</th>
                      {metrics.map((m) => (
                        <Fragment key={m}>
                          <th className="num">Change</th>
                          <th className="num">CI of the difference</th>
                          <th className="num">Adj. p</th>
                          <th>Verdict</th>
                        </Fragment>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r, j) => (
                      <tr key={j}>
                        <td>{r.phase}</td>
                        <td className="num">{r.concurrency}</td>
                        <td className="num">{r.offered_rate == null ? "unlimited" : fmtUnit(r.offered_rate, rateUnit)}</td>
                        {metrics.map((m) => {
                          const v = pointMetric(r, m);
                          const unit = metricOf(tool, m)?.unit;
                          return (
                            <Fragment key={m}>
                              <td className="num">{fmtSignedPct(v?.change_pct)}</td>
                              <td className="num" title={v ? `${v.n_a} vs ${v.n_b} repetitions` : undefined}>
                                {v?.ci_low != null && v.ci_high != null ? `[${fmtDiffRange(v.ci_low, v.ci_high, unit)}]` : "—"}
                              </td>
                              <td className="num">{fmtP(v?.p_adjusted)}</td>
                              <td>{v ? <span className={`verdict ${verdictClass(v.verdict)}`}>{verdictText(v.verdict, v.margin_pct)}</span> : "—"}</td>
                            </Fragment>
                          );
                        })}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollBox>
            )}
          </section>
        );
      })}
      {data.method && <p className="muted small basis">Basis: {data.method}.</p>}
    </details>
  );
}
