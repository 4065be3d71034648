import type { ReactNode } from "react";

/** A report card holding one table: its heading, an optional note, the column headers, and the rows (`children`). */
export default function TableCard({ label, heading, note, testId, className, columns, children }: {
  label: string;
  heading: ReactNode;
  note?: ReactNode;
  testId: string;
  className: string;
  columns: (string | false)[];
  children: ReactNode;
}) {
  return (
    <section className="card flush" aria-label={label}>
      <h2 className="pad">{heading}</h2>
      {note && <p className="muted small pad">{note}</p>}
      <div className="table-scroll">
        <table className={`table ${className}`} data-testid={testId}>
          <thead>
            <tr>
              {columns.filter((c): c is string => c !== false).map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </section>
  );
}
