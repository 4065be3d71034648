/** A flat dict of facts (environment, target snapshot) as a two-column list. */
export default function FactsTable({ facts, empty = "No facts recorded." }: { facts: Record<string, unknown> | null | undefined; empty?: string }) {
  const entries = Object.entries(facts ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return <p className="muted">{empty}</p>;
  return (
    <dl className="facts env">
      {entries.map(([k, v]) => (
        <div key={k} className="fact-row">
          <dt>{k}</dt>
          <dd className="mono">{v == null ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
