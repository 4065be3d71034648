import type { ReactNode } from "react";
import type { Point } from "../../api/types";
import { fmtNumber } from "../../format";
import TableCard from "./TableCard";
import { failedText, failoverOf, fmtSeconds, persistenceText, spreadText, type FailoverEvent, type Window } from "./failover";

/** A window as seconds into the load (the event's `at_s` is on that clock): "3.00–3.88 s (0.88 s)". */
function windowText(w: Window | null, f: FailoverEvent): string {
  if (!w) return "none";
  const load0 = f.event - f.at_s;
  return `${fmtNumber(w.start - load0)}–${fmtNumber(w.end - load0)} s (${fmtSeconds(w.duration_s)})`;
}

/**
 * The report's failover table (issue 39): one row per failure event of every point that had one, with its error window,
 * the longest gap between answered requests, the failed requests by class, the detection and recovery times and where
 * the traffic went before, during and after it. Nothing when no point had a failure event.
 */
export default function FailoverTable({ points, suffix }: { points: Point[]; suffix?: ReactNode }) {
  const rows = [...points]
    .sort((a, b) => a.seq - b.seq)
    .flatMap((p) => failoverOf(p.extra).map((f, i) => ({ p, f, key: `${p.id}-${i}` })));
  if (!rows.length) return null;
  const persistence = rows.some(({ f }) => f.persistence);
  const resolution = Math.max(...rows.map(({ f }) => f.resolution_s ?? 0));
  return (
    <TableCard label="Failover" heading={<>Failover{suffix}</>} testId="failover-table" className="failover"
      note={<>Per failure event, from kbhttp's outcomes by intended send time; every time is exact to one bucket ({fmtSeconds(resolution)}). Detection: from
        the event to the last failed request; recovery: from the backend listening again to its first answer.</>}
      columns={["point", "event", "error window", "longest gap", "failed", "detection", "recovery", "spread before", "during", "after", persistence && "persistence"]}>
      {rows.map(({ p, f, key }) => (
        <tr key={key}>
          <th scope="row">{p.seq + 1}</th>
          <td>
            {f.action.replace(/^lab\./, "")} {f.value} at {fmtNumber(f.at_s)} s
          </td>
          <td>{windowText(f.error_window, f)}</td>
          <td className="num">{fmtSeconds(f.longest_gap?.duration_s)}</td>
          <td>{failedText(f.failed_by_class)}</td>
          <td className="num">{fmtSeconds(f.detection_s)}</td>
          <td className="num">{fmtSeconds(f.recovery_s)}</td>
          <td>{spreadText(f.spread.before)}</td>
          <td>{spreadText(f.spread.during)}</td>
          <td>{spreadText(f.spread.after)}</td>
          {persistence && <td>{persistenceText(f.persistence) ?? "—"}</td>}
        </tr>
      ))}
    </TableCard>
  );
}
