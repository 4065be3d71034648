import type { Comparison } from "../../api/compare";
import { fmtByUnit, fmtRate, fmtSignedPct } from "../../format";
import { colourAt } from "../../charts/palette";

function fmtValue(v: number | null | undefined, unit: string, tool: string) {
  return unit === "rate" ? fmtRate(v, tool) : fmtByUnit(v, unit);
}

/** The headline metrics side by side; deltas and verdicts are against the first campaign. */
export default function HeadlineTable({ data }: { data: Comparison }) {
  const keys = data.selectors;
  const tool = data.campaigns[0]?.tool ?? "";
  return (
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
        </tr>
      </thead>
      <tbody>
        {data.headline.map((h) => (
          <tr key={h.metric}>
            <th scope="row">
              {h.label} <span className="muted small">({h.better} is better)</span>
            </th>
            {keys.map((k, i) => {
              const d = h.deltas[k];
              const verdict = h.verdicts[k];
              return (
                <td key={k} className="num">
                  <div className="value">{fmtValue(h.values[k], h.unit, tool)}</div>
                  {i > 0 && d && (
                    <div className="delta small">
                      {d.abs > 0 ? "+" : d.abs < 0 ? "−" : ""}
                      {fmtValue(Math.abs(d.abs), h.unit, tool)} · {fmtSignedPct(d.pct)}
                    </div>
                  )}
                  {i > 0 && verdict && (
                    <span className={`verdict ${verdict}`} title={h.basis?.[k] ?? undefined} data-testid="verdict">
                      {verdict}
                    </span>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
