import type { ReactNode } from "react";
import type { Point } from "../../api/types";
import { fmtUnit } from "../../format";
import TableCard from "../failover/TableCard";

/** A point's `extra.impairment` (issue 39): what was in force on the lab's link, what it dropped, what TCP sent again. */
export type LinkImpairment = {
  in_force?: { loss_permille?: number; rate_mbit?: number; delay_ms?: number };
  packets?: { arrived: number; dropped: number; dropped_pct: number | null };
  tcp_retransmissions?: { host?: number | null; lab?: number | null };
  error?: string;
};

/** The point's impairment record, or null when the point has none. */
export function impairmentOf(extra: Record<string, unknown> | null | undefined): LinkImpairment | null {
  const found = extra?.impairment;
  return found && typeof found === "object" ? (found as LinkImpairment) : null;
}

/** "loss 1 %, 100 Mbit/s, 20 ms", or "none". */
export function inForceText(f: LinkImpairment["in_force"]): string {
  const said = [
    f?.loss_permille ? `loss ${fmtUnit(f.loss_permille / 10, "%")}` : "",
    f?.rate_mbit ? `${f.rate_mbit} Mbit/s` : "",
    f?.delay_ms ? `delay ${f.delay_ms} ms` : "",
  ].filter(Boolean);
  return said.length ? said.join(", ") : "none";
}

/**
 * The report's link table: per point of a campaign whose link was impaired at some point (a variant such as "1 % loss",
 * or a point event), what was in force, the packets the link dropped (its nftables counters), the TCP segments sent
 * again on the host and in the lab, and p99: what the impairment cost, beside the clean points. Nothing otherwise.
 */
export default function LinkCostTable({ points, suffix }: { points: Point[]; suffix?: ReactNode }) {
  const rows = [...points].sort((a, b) => a.seq - b.seq).flatMap((p) => {
    const link = impairmentOf(p.extra);
    return link ? [{ p, link }] : [];
  });
  if (!rows.some(({ link }) => link.packets || Object.keys(link.in_force ?? {}).length)) return null;
  return (
    <TableCard label="The link's impairment and its cost" heading={<>The link's impairment and its cost{suffix}</>} testId="link-cost-table"
      className="link-cost" note="Packets: arrived from the lab's veth and dropped by the impairment (both ways). Retransmissions: TCP segments sent again (RetransSegs), host side / lab side."
      columns={["point", "variant", "in force", "packets dropped", "TCP retransmissions", "p99"]}>
      {rows.map(({ p, link }) => (
        <tr key={p.id}>
          <th scope="row">{p.seq + 1}</th>
          <td>{p.variant ?? "—"}</td>
          <td>{inForceText(link.in_force)}</td>
          <td className="num">
            {link.packets ? `${fmtUnit(link.packets.dropped, "count")} of ${fmtUnit(link.packets.arrived, "count")} (${fmtUnit(link.packets.dropped_pct, "%")})` : "—"}
          </td>
          <td className="num">
            {fmtUnit(link.tcp_retransmissions?.host, "count")} / {fmtUnit(link.tcp_retransmissions?.lab, "count")}
          </td>
          <td className="num">{fmtUnit(p.metrics.latency_p99_ms, "ms")}</td>
        </tr>
      ))}
    </TableCard>
  );
}
