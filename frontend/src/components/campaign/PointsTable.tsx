import { Fragment, useMemo, useState } from "react";
import { steadyOf, type Point } from "../../api/types";
import { metric } from "../../charts/pointData";
import { fmtDuration, fmtUnit } from "../../format";
import { pointLabel } from "../../charts/PercentileChart";
import { headlineOf, metricOf, percentilesOf, rateUnitOf, type ToolInfo } from "../../tools/catalog";
import StatusBadge from "../common/StatusBadge";
import Table, { type Column } from "../common/Table";
import HistogramPanel from "./HistogramPanel";
import PointEvidence from "./PointEvidence";

type Col = { key: string; label: string; num?: boolean; get: (p: Point) => number | string | null; show: (p: Point) => string };

/** The metrics shown per point, when the tool has them: its headline first, then these, then its latency percentiles. */
const METRIC_COLUMNS = ["achieved_rate", "efficiency", "latency_avg_ms", "loss_pct"];

/** A column of one of the tool's metrics: its title, formatted by its unit. */
function metricColumn(name: string, title: string, unit: string): Col {
  return { key: name, label: title, num: true, get: (p) => metric(p, name), show: (p) => fmtUnit(metric(p, name), unit) };
}

/** The attempt a point ran in, for a resumed campaign. */
const ATTEMPT_COLUMN: Col = { key: "attempt", label: "Attempt", num: true, get: (p) => p.attempt, show: (p) => String(p.attempt) };

/**
 * The table's columns for a tool: the point's coordinates, the tool's metrics (titles and units from GET /tools), duration, status;
 * with `showAttempt` (a resumed campaign), the attempt each point ran in.
 */
export function columnsFor(tool: ToolInfo | undefined, showAttempt = false): Col[] {
  const rateUnit = rateUnitOf(tool);
  const names = [headlineOf(tool)?.name, ...METRIC_COLUMNS, ...percentilesOf(tool).map((m) => m.name)].filter((n, i, all): n is string => !!n && all.indexOf(n) === i);
  const metrics = names.flatMap((n) => {
    const m = metricOf(tool, n);
    return m ? [metricColumn(m.name, m.title, m.unit)] : [];
  });
  return [
    { key: "seq", label: "#", num: true, get: (p) => p.seq, show: (p) => String(p.seq + 1) },
    { key: "phase", label: "Phase", get: (p) => p.phase, show: (p) => p.phase + (p.variant ? ` · ${p.variant}` : "") + (p.repeat ? ` (r${p.repeat + 1})` : "") },
    { key: "concurrency", label: "Conc.", num: true, get: (p) => p.concurrency, show: (p) => String(p.concurrency) },
    { key: "offered", label: "Offered", num: true, get: (p) => p.offered_rate, show: (p) => (p.offered_rate == null ? "unlimited" : fmtUnit(p.offered_rate, rateUnit)) },
    ...metrics,
    ...(showAttempt ? [ATTEMPT_COLUMN] : []),
    { key: "duration", label: "Dur.", num: true, get: (p) => p.duration_s, show: (p) => fmtDuration(p.duration_s) },
    { key: "status", label: "Status", get: (p) => p.status, show: () => "" },
  ];
}

/** "unsteady" beside a point whose steady window wandered or drifted; the reason is its tooltip. */
export function UnsteadyBadge({ point }: { point: Point }) {
  const steady = steadyOf(point);
  if (!steady?.unsteady) return null;
  return (
    <span className="badge unsteady" title={steady.reason ?? "unsteady"} data-testid="unsteady-badge">
      unsteady
    </span>
  );
}

/** How many completed points are unsteady (kept out of comparison verdicts), and how many were not judged (too few intervals). */
export function steadyCounts(points: Point[]): { unsteady: number; unjudged: number; judged: number } {
  const done = points.filter((p) => p.status === "completed");
  const unsteady = done.filter((p) => steadyOf(p)?.unsteady).length;
  const unjudged = done.filter((p) => !steadyOf(p)).length;
  return { unsteady, unjudged, judged: done.length - unjudged };
}

/** Every point, sortable by any column; a row opens its evidence (not with `evidence={false}`, as on a shared page). `showAttempt` adds the attempt column (a resumed campaign); `cpuProfile`: the plan asks for CPU profiles (the evidence shows each point's). */
export default function PointsTable({ points, tool, showAttempt = false, evidence = true, cpuProfile = false }: { points: Point[]; tool: ToolInfo | undefined; showAttempt?: boolean; evidence?: boolean; cpuProfile?: boolean }) {
  const COLUMNS = useMemo(() => columnsFor(tool, showAttempt), [tool, showAttempt]);
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 }>({ key: "seq", dir: 1 });
  const [open, setOpen] = useState<number | null>(null);
  const [histogram, setHistogram] = useState<Point | null>(null);
  const percentiles = percentilesOf(tool);
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
  }, [points, sort, COLUMNS]);
  const toggleSort = (key: string) => setSort((s) => (s.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: 1 }));
  const columns: Column[] = [
    ...(evidence ? [{ label: "Evidence", hidden: true }] : []),
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
    <>
    <Table className="table points" data-testid="points-table" columns={columns}>
      {sorted.map((p) => (
        <Fragment key={p.id}>
          <tr className={`${p.status === "failed" ? "failed" : ""} ${open === p.id ? "selected" : ""}`}>
            {evidence && <td>
              <button
                type="button"
                className="btn icon"
                aria-expanded={open === p.id}
                aria-label={`${open === p.id ? "Hide" : "Show"} evidence of point ${p.seq + 1}`}
                onClick={() => setOpen(open === p.id ? null : p.id)}
              >
                {open === p.id ? "▾" : "▸"}
              </button>
            </td>}
            {COLUMNS.map((c) =>
              c.key === "status" ? (
                <td key={c.key}>
                  <StatusBadge status={p.status} />
                  <UnsteadyBadge point={p} />
                  {p.status === "completed" && percentiles.some((m) => metric(p, m.name) != null) && (
                    <button type="button" className="btn small" aria-label={`Latency histogram of point ${p.seq + 1}`} onClick={() => setHistogram(p)}>
                      Histogram
                    </button>
                  )}
                  {p.error && <div className="error-text small point-error">{p.error}</div>}
                </td>
              ) : (
                <td key={c.key} className={c.num ? "num" : ""}>
                  {c.show(p)}
                </td>
              ),
            )}
          </tr>
          {open === p.id && (
            <tr className="evidence-row">
              <td colSpan={COLUMNS.length + 1}>
                <PointEvidence pointId={p.id} cpuProfile={cpuProfile} />
              </td>
            </tr>
          )}
        </Fragment>
      ))}
    </Table>
    {histogram && <HistogramPanel pointId={histogram.id} label={pointLabel(histogram)} onClose={() => setHistogram(null)} />}
    </>
  );
}
