import ScrollBox from "../common/ScrollBox";

const show = (v: unknown) => (v == null ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** A flat dict of facts (environment, target snapshot) as a two-column list; `omit` drops keys shown elsewhere. */
export default function FactsTable({ facts, empty = "No facts recorded.", omit = [] }: { facts: Record<string, unknown> | null | undefined; empty?: string; omit?: string[] }) {
  const entries = Object.entries(facts ?? {})
    .filter(([k]) => !omit.includes(k))
    .sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return <p className="muted">{empty}</p>;
  return (
    <dl className="facts env">
      {entries.map(([k, v]) => (
        <div key={k} className="fact-row">
          <dt>{k}</dt>
          <dd className="mono">{show(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The facts taken under each variant (environment.variants[label], each a flat dict), one column per
 * variant; a value unlike the first variant's is highlighted, the selected variant's column marked.
 */
export function VariantFactsTable({ variants, labels, selected }: { variants: Record<string, Record<string, unknown>>; labels: string[]; selected?: string }) {
  const cols = [...labels.filter((l) => l in variants), ...Object.keys(variants).filter((l) => !labels.includes(l))];
  const keys = [...new Set(cols.flatMap((l) => Object.keys(variants[l] ?? {})))].sort((a, b) => a.localeCompare(b));
  if (!cols.length || !keys.length) return <p className="muted">No facts recorded under the variants.</p>;
  return (
    <ScrollBox label="Facts per variant" className="variant-facts">
      <table className="table differences" data-testid="variant-facts">
        <thead>
          <tr>
            <th>Fact</th>
            {cols.map((l) => (
              <th key={l} className={l === selected ? "selected" : ""} aria-current={l === selected ? "true" : undefined}>
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k}>
              <th scope="row" className="mono">
                {k}
              </th>
              {cols.map((l, i) => {
                const v = show(variants[l]?.[k]);
                const differs = i > 0 && v !== show(variants[cols[0]]?.[k]);
                return (
                  <td key={l} className={`mono ${differs ? "differs" : ""}`}>
                    {v}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
