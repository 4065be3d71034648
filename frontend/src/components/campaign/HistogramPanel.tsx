import { useCallback, useRef, useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ApiError } from "../../api/client";
import { usePointHistogram } from "../../api/points";
import type { Histogram } from "../../api/types";
import { AXIS_STYLE, ChartFrame, GRID, tick } from "../../charts/common";
import { colourAt } from "../../charts/palette";
import { fmtCount, fmtMs, fmtPct } from "../../format";
import { Backdrop, useModal } from "../common/Modal";
import { Empty, ErrorState, Loading } from "../common/States";

type Bucket = Histogram["buckets"][number];

/** "p99.9" for 99.9. */
export const percentileName = (q: number) => `p${Number(q.toFixed(4))}`;

/** The bucket bars: buckets are log-spaced, so equal-width bars make a logarithmic latency axis. */
function Bars({ buckets }: { buckets: Bucket[] }) {
  const rows = buckets.map((b) => ({ ...b, name: fmtMs(b.value_ms) }));
  return (
    <ChartFrame title="Answers per latency bucket (log-spaced latency)" height={240}>
      <ResponsiveContainer>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 4 }} barCategoryGap={0}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="name" tick={AXIS_STYLE} interval="preserveStartEnd" minTickGap={24} />
          <YAxis tickFormatter={tick} tick={AXIS_STYLE} width={48} allowDecimals={false} />
          <Tooltip
            content={({ active, payload }) => {
              const b = active ? (payload?.[0]?.payload as Bucket | undefined) : undefined;
              return b ? (
                <div className="chart-tooltip">
                  <strong>
                    {fmtMs(b.from_ms)} – {fmtMs(b.value_ms)}
                  </strong>
                  <div>{fmtCount(b.count)} in this bucket</div>
                  <div className="muted small">{fmtPct(b.percentile, 3)} at or below {fmtMs(b.value_ms)}</div>
                </div>
              ) : null;
            }}
          />
          <Bar dataKey="count" name="count" fill={colourAt(0)} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** The percentile table and the distribution's min, mean, max and count. */
function PercentileTable({ h }: { h: Histogram }) {
  const rows: [string, string][] = [
    ...h.percentiles.map((p): [string, string] => [percentileName(p.percentile), fmtMs(p.value_ms)]),
    ["min", fmtMs(h.min_ms)],
    ["mean", fmtMs(h.mean_ms)],
    ["max", fmtMs(h.max_ms)],
    ["count", fmtCount(h.count)],
  ];
  return (
    <table className="table percentile-table" data-testid="percentile-table">
      <caption className="sr-only">Latency percentiles</caption>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td className="num">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the panel shows for the query: loading, the reason a point has no histogram (409), an error with retry, or the histogram. */
function HistogramBody({ pointId, part }: { pointId: number; part: "all" | "steady" }) {
  const h = usePointHistogram(pointId, part);
  if (h.isPending) return <Loading what="Loading histogram" />;
  if (h.isError) {
    if (h.error instanceof ApiError && h.error.status === 409) return <Empty>{h.error.message}</Empty>;
    return <ErrorState error={h.error} what="the latency histogram" retry={() => h.refetch()} />;
  }
  if (h.data.count === 0) return <Empty>No answers were timed in this window.</Empty>;
  return (
    <div className="histogram-body" data-testid="histogram">
      <div className="histogram-chart">
        <Bars buckets={h.data.buckets} />
      </div>
      <PercentileTable h={h.data} />
    </div>
  );
}

/** A dialog with one point's latency histogram (whole run or steady window) and its percentile table; Escape or Close shuts it. */
export default function HistogramPanel({ pointId, label, onClose }: { pointId: number; label: string; onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const [part, setPart] = useState<"all" | "steady">("all");
  // a stable close: the modal's effect (focus, Escape) must not re-run, stealing focus, on each render
  const latest = useRef(onClose);
  latest.current = onClose;
  const close = useCallback(() => latest.current(), []);
  useModal(true, close, closeRef);
  return (
    <Backdrop onClose={close}>
      <div className="modal histogram-dialog" role="dialog" aria-modal="true" aria-labelledby="histogram-title">
        <h2 id="histogram-title">Latency histogram · {label}</h2>
        <label className="chart-option">
          Window{" "}
          <select value={part} onChange={(e) => setPart(e.target.value as "all" | "steady")}>
            <option value="all">whole run</option>
            <option value="steady">steady window (after the warm-up)</option>
          </select>
        </label>
        <HistogramBody pointId={pointId} part={part} />
        <div className="modal-actions">
          <button type="button" className="btn" ref={closeRef} onClick={close}>
            Close
          </button>
        </div>
      </div>
    </Backdrop>
  );
}
