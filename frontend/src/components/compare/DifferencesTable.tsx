import type { Difference } from "../../api/compare";
import { colourAt } from "../../charts/palette";
import Table from "../common/Table";

/** Keys whose values differ between the campaigns; values unlike the reference are highlighted. */
export default function DifferencesTable({ title, rows, keys, empty }: { title: string; rows: Difference[]; keys: string[]; empty: string }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="scroll-x">
          <Table
            className="table differences"
            columns={[
              "Key",
              ...keys.map((k, i) => ({
                label: (
                  <>
                    <span className="swatch" style={{ background: colourAt(i) }} /> #{k}
                  </>
                ),
              })),
            ]}
          >
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" className="mono">
                  {r.key}
                </th>
                {keys.map((k, i) => {
                  const v = r.values[k];
                  const differs = i > 0 && v !== r.values[keys[0]];
                  return (
                    <td key={k} className={`mono ${differs ? "differs" : ""}`}>
                      {v ?? <span className="muted">—</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </Table>
        </div>
      )}
    </section>
  );
}
