import type { Comparison } from "../../api/compare";
import type { components } from "../../api/schema";
import { colourAt } from "../../charts/palette";
import { fmtCount, fmtNumber, fmtUnit } from "../../format";
import { fmtSeconds } from "../failover/failover";
import TableCard from "../failover/TableCard";

type Across = components["schemas"]["Across"];

/** A figure across repetitions: "917 ms (748 ms–1.01 s)", the median alone when every repetition gave the same, and
 * "in 2 of 3" when some repetitions had none of it; "—" when none had it. */
export function acrossText(a: Across | null | undefined, events: number, fmt: (v: number) => string): string {
  if (!a) return "—";
  const range = a.min === a.max ? "" : ` (${fmt(a.min)}–${fmt(a.max)})`;
  return `${fmt(a.median)}${range}${a.n < events ? ` in ${a.n} of ${events}` : ""}`;
}

/**
 * The comparison's failover table (issue 39): per campaign, each failure event of its plan (its load, action, value and
 * at_s) with its detection and recovery times, failed requests and error window across the repetitions that ran it, as
 * the median and the range, from the points' extra.failover (the API's `failover_events`). Nothing when no side had one.
 */
export default function FailoverEventsTable({ data, rateUnit }: { data: Comparison; rateUnit: string }) {
  const rows = data.selectors.flatMap((key, i) => (data.failover_events?.[key] ?? []).map((e, j) => ({ key, i, e, id: `${key}-${j}` })));
  if (!rows.length) return null;
  return (
    <TableCard label="Failover per event" heading="Failover per event, across repetitions" testId="compare-failover-events" className="failover"
      note={<>Each failure event of each campaign, over the repetitions that ran it: the median and (range). Detection: from the event to the last
        failed request; recovery: from the backend listening again to its first answer; error window: first to last failed request.</>}
      columns={["campaign", "load", "event", "repetitions", "detection", "recovery", "failed requests", "error window"]}>
      {rows.map(({ key, i, e, id }) => (
        <tr key={id}>
          <th scope="row">
            <span className="swatch" style={{ background: colourAt(i) }} />
            {data.campaigns[i]?.name ?? key}
          </th>
          <td>
            {e.phase} {e.offered_rate == null ? "unlimited" : fmtUnit(e.offered_rate, rateUnit)}
          </td>
          <td>
            {e.action.replace(/^lab\./, "")} {e.value} at {fmtNumber(e.at_s)} s
          </td>
          <td className="num">{e.events}</td>
          <td className="num">{acrossText(e.detection_s, e.events, fmtSeconds)}</td>
          <td className="num">{acrossText(e.recovery_s, e.events, fmtSeconds)}</td>
          <td className="num">{acrossText(e.failed, e.events, fmtCount)}</td>
          <td className="num">{acrossText(e.error_window_s, e.events, fmtSeconds)}</td>
        </tr>
      ))}
    </TableCard>
  );
}
