import { Fragment, useMemo, useState } from "react";
import type { Point } from "../../api/types";
import { metric } from "../../charts/pointData";
import { fmtDuration, fmtMs, fmtPct, fmtRate, fmtRatio } from "../../format";
import StatusBadge from "../common/StatusBadge";
import Table, { type Column } from "../common/Table";
import PointEvidence from "./PointEvidence";

type Col = { key: string; label: string; num?: boolean; get: (p: Point) => number | string | null; show: (p: Point, tool: string) => string };

const COLUMNS: Col[] = [
  { key: "seq", label: "#", num: true, get: (p) => p.seq, show: (p) => String(p.seq + 1) },
  { key: "phase", label: "Phase", get: (p) => p.phase, show: (p) => p.phase + (p.variant ? ` · ${p.variant}` : "") + (p.repeat ? ` (r${p.repeat + 1})` : "") },
  { key: "concurrency", label: "Conc.", num: true, get: (p) => p.concurrency, show: (p) => String(p.concurrency) },
  { key: "offered", label: "Offered", num: true, get: (p) => p.offered_rate, show: (p, t) => (p.offered_rate == null ? "unlimited" : fmtRate(p.offered_rate, t)) },
  { key: "achieved", label: "Achieved", num: true, get: (p) => metric(p, "achieved_rate"), show: (p, t) => fmtRate(metric(p, "achieved_rate"), t) },
  { key: "efficiency", label: "Eff.", num: true, get: (p) => metric(p, "efficiency"), show: (p) => fmtRatio(metric(p, "efficiency")) },
  { key: "lat", label: "Lat. avg", num: true, get: (p) => metric(p, "latency_avg_ms"), show: (p) => fmtMs(metric(p, "latency_avg_ms")) },
  { key: "p99", label: "p99", num: true, get: (p) => metric(p, "latency_p99_ms"), show: (p) => fmtMs(metric(p, "latency_p99_ms")) },
  { key: "loss", label: "Loss", num: true, get: (p) => metric(p, "loss_pct"), show: (p) => fmtPct(metric(p, "loss_pct")) },
  { key: "duration", label: "Dur.", num: true, get: (p) => p.duration_s, show: (p) => fmtDuration(p.duration_s) },
  { key: "status", label: "Status", get: (p) => p.status, show: () => "" },
];

/** Every point, sortable by any column; a row opens its evidence. */
export default function PointsTable({ points, tool }: { points: Point[]; tool: string }) {
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 }>({ key: "seq", dir: 1 });
  const [open, setOpen] = useState<number | null>(null);
  const sorted = useMemo(() => {
    const col = COLUMNS.find((c) => c.key === sort.key) ?? COLUMNS[0];
    return [...points].sort((a, b) => {
      const x = col.get(a);
      const y = col.get(b);
      if (x == null && y == null) return a.seq - b.seq;
      if (x == null) return 1;
      if (y == null) return -1;
      return (x < y ? -1 : x > y ? 1 : a.seq - b.seq) * sort.dir;
    });
  }, [points, sort]);
  const toggleSort = (key: string) => setSort((s) => (s.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: 1 }));
  const columns: Column[] = [
    { label: "Evidence", hidden: true },
    ...COLUMNS.map((c): Column => ({
      className: c.num ? "num" : "",
      sort: sort.key === c.key ? (sort.dir === 1 ? "ascending" : "descending") : "none",
      label: (
        <button type="button" className="sort" onClick={() => toggleSort(c.key)}>
          {c.label}
          <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 1 ? " ▲" : " ▼") : ""}</span>
        </button>
      ),
    })),
  ];

  return (
    <Table className="table points" data-testid="points-table" columns={columns}>
      {sorted.map((p) => (
        <Fragment key={p.id}>
          <tr className={`${p.status === "failed" ? "failed" : ""} ${open === p.id ? "selected" : ""}`}>
            <td>
              <button
                type="button"
                className="btn icon"
                aria-expanded={open === p.id}
                aria-label={`${open === p.id ? "Hide" : "Show"} evidence of point ${p.seq + 1}`}
                onClick={() => setOpen(open === p.id ? null : p.id)}
              >
                {open === p.id ? "▾" : "▸"}
              </button>
            </td>
            {COLUMNS.map((c) =>
              c.key === "status" ? (
                <td key={c.key}>
                  <StatusBadge status={p.status} />
                  {p.error && <div className="error-text small point-error">{p.error}</div>}
                </td>
              ) : (
                <td key={c.key} className={c.num ? "num" : ""}>
                  {c.show(p, tool)}
                </td>
              ),
            )}
          </tr>
          {open === p.id && (
            <tr className="evidence-row">
              <td colSpan={COLUMNS.length + 1}>
                <PointEvidence pointId={p.id} />
              </td>
            </tr>
          )}
        </Fragment>
      ))}
    </Table>
  );
}
