import type { ReactNode, TableHTMLAttributes } from "react";

export type Column = string | { label: ReactNode; className?: string; hidden?: boolean; sort?: "ascending" | "descending" | "none" };

/** A table with a header row; `hidden` columns (and `actions`, last) are named for screen readers only. */
export default function Table({
  columns,
  actions,
  className = "table",
  children,
  ...rest
}: { columns: Column[]; actions?: string; children: ReactNode } & TableHTMLAttributes<HTMLTableElement>) {
  const all = actions ? [...columns, { label: actions, hidden: true }] : columns;
  return (
    <table className={className} {...rest}>
      <thead>
        <tr>
          {all.map((c, i) => {
            const col: Exclude<Column, string> = typeof c === "string" ? { label: c } : c;
            return (
              <th key={i} className={col.className} aria-sort={col.sort}>
                {col.hidden ? <span className="sr-only">{col.label}</span> : col.label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
