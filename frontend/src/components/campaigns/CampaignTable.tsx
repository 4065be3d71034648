import { Link } from "react-router-dom";
import { isActive, type CampaignBrief } from "../../api/types";
import { fmtDateTime, fmtMs, fmtPct, fmtUnit } from "../../format";
import { findTool, rateUnitOf } from "../../tools/catalog";
import { useTools } from "../../tools/useTools";
import ArchiveButton from "../campaign/ArchiveButton";
import StatusBadge from "../common/StatusBadge";
import Table, { type Column } from "../common/Table";

const num = (label: string): Column => ({ label, className: "num" });
const COLUMNS: Column[] = [
  { label: "Compare", className: "check", hidden: true },
  "#",
  "Campaign",
  "Target",
  "Tool",
  "Status",
  "Progress",
  num("Max rate"),
  num("Baseline"),
  num("Loss"),
  "Started",
];

/** Campaigns in a table, with a checkbox each to pick them for comparison and an Archive/Unarchive button; rates in each tool's unit. */
export default function CampaignTable({
  items,
  selected,
  onToggle,
}: {
  items: CampaignBrief[];
  selected: number[];
  onToggle: (id: number) => void;
}) {
  const tools = useTools();
  return (
    <Table className="table campaigns" columns={COLUMNS} actions="Archive">
      {items.map((c) => {
        const target = c.target as { name?: string; host?: string; port?: number };
        const checked = selected.includes(c.id);
        // a finished campaign counts what completed (cancelled points count as "done" in progress)
        const done = isActive(c.status) ? c.progress.done : c.summary.points_completed;
        return (
          <tr key={c.id} className={checked ? "selected" : ""} data-campaign-id={c.id}>
            <td className="check">
              <input type="checkbox" checked={checked} onChange={() => onToggle(c.id)} aria-label={`Select campaign ${c.id} to compare`} />
            </td>
            <td className="muted">{c.id}</td>
            <td>
              <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
              {c.tags.length > 0 && <div>{c.tags.map((t) => <span key={t} className="tag">{t}</span>)}</div>}
            </td>
            <td>{target?.name ?? (c.target_id ? `#${c.target_id}` : "—")}</td>
            <td>{c.tool}</td>
            <td>
              <StatusBadge status={c.status} partial={c.partial} />
            </td>
            <td>
              <span className="mini-progress" title={`${done} of ${c.progress.total} points`}>
                <span style={{ width: `${c.progress.total ? (100 * done) / c.progress.total : 0}%` }} />
              </span>{" "}
              <span className="muted small">
                {done}/{c.progress.total}
              </span>
            </td>
            <td className="num">{fmtUnit(c.summary.max_achieved_rate, rateUnitOf(findTool(tools.data, c.tool)))}</td>
            <td className="num">{fmtMs(c.summary.baseline_latency_ms)}</td>
            <td className="num">{fmtPct(c.summary.loss_pct)}</td>
            <td className="muted small">{fmtDateTime(c.started_at ?? c.created_at)}</td>
            <td className="actions">
              <ArchiveButton campaign={c} small />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
