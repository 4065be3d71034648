import { useMemo, useState } from "react";
import { useSamplesOfPoints } from "../../api/points";
import type { Point } from "../../api/types";
import TimelineChart from "../../charts/TimelineChart";
import { eventsOf, type PointEventRecord } from "../../charts/eventMarkers";
import { timelineSegments } from "../../charts/timeline";
import { hasLiveSamples, headlineOf, type ToolInfo } from "../../tools/catalog";
import type { LiveSample } from "./useCampaignEvents";

/** Samples per point the timeline asks for (the running point's live ones come on top). */
export const TIMELINE_MAX_SAMPLES = 600;

/**
 * The whole campaign on one time axis: every point's stored samples (fetched again when the live stream says a
 * point ended), and the running point growing from the live stream; a point's events from its stored record, or as
 * the live stream told them (`liveEvents`) until it has one.
 */
export default function CampaignTimeline({
  points,
  tool,
  live = {},
  liveEvents = {},
  runningId = null,
  height,
}: {
  points: Point[];
  tool: ToolInfo | undefined;
  live?: Record<number, LiveSample[]>;
  liveEvents?: Record<number, PointEventRecord[]>;
  runningId?: number | null;
  height?: number;
}) {
  // points that have run or are running have samples; pending ones have none yet
  const started = useMemo(() => points.filter((p) => p.status !== "pending"), [points]);
  const ids = useMemo(() => started.map((p) => p.id), [started]);
  const stored = useSamplesOfPoints(ids, "point", TIMELINE_MAX_SAMPLES);
  const metric = headlineOf(tool)?.name ?? "achieved_rate";
  const storedRows = Object.fromEntries(Object.entries(stored).map(([id, s]) => [id, s.samples]));
  const storedKey = Object.entries(stored)
    .map(([id, s]) => `${id}:${s.samples.length}:${s.samples[s.samples.length - 1]?.t ?? ""}`)
    .join(",");
  const { segments, samples, t0 } = useMemo(
    () => timelineSegments(started, storedRows, live, metric, runningId),
    // storedRows is rebuilt each render; its content is what storedKey names
    [started, storedKey, live, metric, runningId],
  );
  const liveTool = hasLiveSamples(tool);
  return (
    <TimelineChart
      segments={segments}
      samples={samples}
      tool={tool}
      events={started.flatMap((p) => {
        const stored = eventsOf(p.extra);
        return stored.length ? stored : (liveEvents[p.id] ?? []);
      })}
      t0={t0}
      height={height}
      empty={started.length === 0 ? "Waiting for the first point" : liveTool ? "Waiting for the first interval…" : "Samples arrive as each point ends"}
    />
  );
}

/** The timeline on a finished report: open at first for a short campaign; a long one loads its samples only when opened. */
export function TimelineCard({ points, tool }: { points: Point[]; tool: ToolInfo | undefined }) {
  const [open, setOpen] = useState(() => points.length <= 40);
  return (
    <details className="card timeline-card" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>
        <strong>Timeline</strong> <span className="muted small">every point's samples over the campaign</span>
      </summary>
      {open && <CampaignTimeline points={points} tool={tool} />}
    </details>
  );
}
