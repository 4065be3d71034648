import { CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fmtUnit, metricLabel } from "../format";
import { headlineOf, type ToolInfo } from "../tools/catalog";
import { AXIS_STYLE, ChartFrame, GRID, PHASE_COLOURS, SECONDS_AXIS, valueAxis } from "./common";
import { eventMarkers, type PointEventRecord } from "./eventMarkers";
import type { TimelineSegment } from "./timeline";

/**
 * Every point of the campaign on one time axis: the tool's headline metric per interval, a line per point coloured by
 * phase; a point without interval samples (too short for the tool's intervals) is its own figure, dashed, over its run.
 * `events`: the points' fired events, marked on the axis that starts at the epoch second `t0`.
 */
export default function TimelineChart({
  segments,
  samples,
  tool,
  height = 220,
  empty,
  note,
  events = [],
  t0 = 0,
}: {
  segments: TimelineSegment[];
  samples: number;
  tool: ToolInfo | undefined;
  height?: number;
  empty?: string;
  note?: string;
  events?: readonly PointEventRecord[];
  t0?: number;
}) {
  const headline = headlineOf(tool);
  const phases = [...new Set(segments.map((s) => s.phase))];
  const whole = segments.filter((s) => s.whole).length;
  const dots = samples <= 150;
  // zero-based, distinct ticks: the first live sample (or an idle point's zeros) still reads sensibly
  const yAxis = valueAxis(segments.flatMap((seg) => seg.rows.map((r) => r.value)));
  return (
    <div data-testid="campaign-timeline" data-segments={segments.length} data-samples={samples}>
      <ChartFrame
        title={`Campaign timeline: ${(headline?.title ?? "achieved rate").toLowerCase()} of every point`}
        height={height}
        empty={segments.length === 0 && (empty ?? "No samples yet")}
        note={note}
      >
        <ResponsiveContainer>
          <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
            <CartesianGrid stroke={GRID} />
            <XAxis {...SECONDS_AXIS} />
            <YAxis {...yAxis} tick={AXIS_STYLE} width={52} label={{ value: metricLabel(headline), angle: -90, position: "insideLeft", fontSize: 11 }} />
            <Tooltip formatter={(v) => fmtUnit(Number(v), headline?.unit)} labelFormatter={(l) => `t = ${l} s`} />
            {segments.map((seg) => (
              <Line
                key={seg.pointId}
                data={seg.rows}
                dataKey="value"
                name={`point ${seg.seq + 1} · ${seg.phase} · ${seg.concurrency}${seg.whole ? " (the point's figure: no interval sample)" : ""}`}
                stroke={PHASE_COLOURS[seg.phase] ?? "#2563eb"}
                strokeWidth={seg.running ? 2.5 : 1.5}
                strokeDasharray={seg.whole ? "4 3" : undefined}
                dot={dots && !seg.whole ? { r: 2 } : false}
                isAnimationActive={false}
                className={seg.running ? "running" : undefined}
              />
            ))}
            {eventMarkers(events, t0)}
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
      {phases.length > 0 && (
        <p className="muted small timeline-note">
          {phases.map((ph) => (
            <span key={ph} className="timeline-key">
              <span className="swatch" style={{ background: PHASE_COLOURS[ph] ?? "#2563eb" }} /> {ph}{" "}
            </span>
          ))}
          · {segments.length} point{segments.length === 1 ? "" : "s"}
          {whole > 0 && ` (${whole} dashed: the point's own figure over its run, too short for an interval sample)`}
        </p>
      )}
    </div>
  );
}
