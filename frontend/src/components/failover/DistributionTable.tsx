import type { ReactNode } from "react";
import type { Point } from "../../api/types";
import { fmtUnit } from "../../format";
import TableCard from "./TableCard";
import { distributionOf, persistenceText, spreadText } from "./failover";

/**
 * The report's distribution table (issue 39): per point that counted a backend header and that no failure split, the
 * answered requests, how they spread over the backends, and how well each connection and each source address (an agent
 * of a fanned point) stayed on one backend. Nothing when no point has one.
 */
export default function DistributionTable({ points, suffix }: { points: Point[]; suffix?: ReactNode }) {
  const rows = [...points].sort((a, b) => a.seq - b.seq).flatMap((p) => {
    const d = distributionOf(p.extra);
    return d ? [{ p, d }] : [];
  });
  if (!rows.length) return null;
  const bySource = rows.some(({ d }) => d.persistence_by_source);
  return (
    <TableCard label="Distribution over the backends" heading={<>Distribution over the backends{suffix}</>} testId="distribution-table" className="distribution"
      columns={["point", "answered", "spread", "persistence per connection", bySource && "per source address"]}>
      {rows.map(({ p, d }) => (
        <tr key={p.id}>
          <th scope="row">{p.seq + 1}</th>
          <td className="num">
            {fmtUnit(d.answered, "count")} by {d.header ?? "header"}
          </td>
          <td>{spreadText(d.spread)}</td>
          <td>{persistenceText(d.persistence) ?? "—"}</td>
          {bySource && <td>{persistenceText(d.persistence_by_source) ?? "—"}</td>}
        </tr>
      ))}
    </TableCard>
  );
}
