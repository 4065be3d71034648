import type { ReactNode, TableHTMLAttributes } from "react";
import ScrollBox from "./ScrollBox";

export type Column = string | { label: ReactNode; className?: string; hidden?: boolean; sort?: "ascending" | "descending" | "none" };

/**
 * A table with a header row; `hidden` columns (and `actions`, last) are named for screen readers only.
 * It scrolls sideways inside its own box (a labelled region, reachable by keyboard) when the screen is narrower.
 */
export default function Table({
  columns,
  actions,
  label,
  className = "table",
  children,
  ...rest
}: { columns: Column[]; actions?: string; label?: string; children: ReactNode } & TableHTMLAttributes<HTMLTableElement>) {
  const all = actions ? [...columns, { label: actions, hidden: true }] : columns;
  const name = label ?? rest["aria-label"] ?? `Table of ${columns.filter((c) => typeof c === "string").slice(0, 3).join(", ").toLowerCase() || "rows"}`;
  return (
    <ScrollBox label={name}>
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
    </ScrollBox>
  );
}
