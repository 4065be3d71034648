import { verdictClass, type Comparison } from "../../api/compare";
import { bottlenecksOf } from "../../api/types";
import { fmtRange, fmtSignedPct, fmtUnit } from "../../format";
import { colourAt } from "../../charts/palette";
import { resolveUnit, type ToolInfo } from "../../tools/catalog";
import { capacityText } from "../campaign/SummaryCards";

/**
 * Each campaign's bottleneck (the API's `bottlenecks`, by selector), a line each, and whether it moved: the resources
 * named differ. Nothing when the comparison has none (older servers, no server evidence).
 */
export function Bottlenecks({ data }: { data: Comparison }) {
  const found = bottlenecksOf(data);
  const keys = data.selectors.filter((k) => k in found);
  if (!keys.length) return null;
  const named = keys.filter((k) => found[k]?.resource);
  const moved = new Set(named.map((k) => found[k]?.resource)).size > 1;
  return (
    <div className="bottlenecks-line pad" data-testid="bottlenecks">
      <strong>Bottleneck</strong>
      {moved && (
        <span data-testid="bottleneck-moved">
          {" "}
          · the bottleneck moved: {named.map((k) => `${found[k]?.resource} (#${k})`).join(" → ")}
        </span>
      )}
      <ul className="plain">
        {keys.map((k) => (
          <li key={k}>
            <span className="swatch" style={{ background: colourAt(data.selectors.indexOf(k)) }} /> #{k}: {found[k]?.text ?? <span className="muted">no server evidence</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The headline metrics side by side, each labelled by the API with its metric and rule, capacities first (with their intervals); deltas are against the first
 * campaign (the reference), and the verdict column says, per other campaign, better, worse, no detectable
 * difference, not enough data, or mixed; an undecided one says its next step (the repetitions that would detect a 10 %
 * change, from the spread measured). The method common to every verdict is said once under the table (the API's
 * `method`); each verdict's own basis (the points or repetitions it tested) is its tooltip.
 */
export default function HeadlineTable({ data, tool }: { data: Comparison; tool: ToolInfo | undefined }) {
  const keys = data.selectors;
  // the API states rates in "rate": the reference campaign's tool says which unit that is
  const fmtValue = (v: number | null | undefined, unit: string) => fmtUnit(v, resolveUnit(unit, tool));
  return (
    <>
      <table className="table compare-headline" data-testid="headline">
        <thead>
          <tr>
            <th>Metric</th>
            {keys.map((k, i) => (
              <th key={k} className="num">
                <span className="swatch" style={{ background: colourAt(i) }} /> #{k}
                {i === 0 && <span className="muted small"> (reference)</span>}
              </th>
            ))}
            <th className="verdict-col">Verdict vs #{keys[0]}</th>
          </tr>
        </thead>
        <tbody>
          {data.headline.map((h, row) => (
            <tr key={h.metric} className={row === 0 ? "lead" : undefined} data-metric={h.metric}>
              <th scope="row">
                {h.label} <span className="muted small">({h.better} is better)</span>
              </th>
              {keys.map((k, i) => {
                const d = h.deltas[k];
                const ci = h.intervals?.[k];
                const kind = h.kinds?.[k];
                const value = kind ? capacityText({ kind, value: h.values[k] ?? null }, resolveUnit(h.unit, tool)) : fmtValue(h.values[k], h.unit);
                return (
                  <td key={k} className="num">
                    <div className="value">
                      {value}
                      {h.intervals && h.values[k] != null && (!kind || kind === "between") && (
                        <span className="headline-interval" data-testid="headline-interval" title={ci ? "95 % bootstrap interval over repetitions" : "one run per load: no interval"}>
                          {" "}
                          {ci && ci.length === 2 ? `[${fmtRange(ci[0], ci[1], resolveUnit(h.unit, tool), value)}]` : "[no interval]"}
                        </span>
                      )}
                    </div>
                    {i > 0 && d && (
                      <div className="delta small">
                        {d.abs > 0 ? "+" : d.abs < 0 ? "−" : ""}
                        {fmtValue(Math.abs(d.abs), h.unit)} · {fmtSignedPct(d.pct)}
                      </div>
                    )}
                  </td>
                );
              })}
              <td className="verdict-col">
                {keys.slice(1).map((k, j) => {
                  const verdict = h.verdicts[k];
                  return (
                    <div key={k} className="verdict-line">
                      {keys.length > 2 && <span className="swatch" style={{ background: colourAt(j + 1) }} title={`#${k}`} />}
                      {verdict ? (
                        <>
                        <span className={`verdict ${verdictClass(verdict)}`} title={h.basis?.[k] ?? undefined} data-testid="verdict">
                          {h.verdict_texts?.[k] ?? verdict}
                        </span>
                        {h.details?.[k] && (
                          <span className="muted small verdict-detail" data-testid="verdict-detail">
                            {" "}
                            {h.details[k]}
                          </span>
                        )}
                        {h.next_steps?.[k] && (
                          <span className="small next-step" data-testid="next-step">
                            Next step: {h.next_steps[k]?.text}
                          </span>
                        )}
                        </>
                      ) : (
                        <span className="muted small" title="no per-point test for this figure">
                          —
                        </span>
                      )}
                    </div>
                  );
                })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Bottlenecks data={data} />
      {data.method && (
        <p className="muted small pad" data-testid="verdict-method">
          Verdicts: {data.method}.
        </p>
      )}
    </>
  );
}
