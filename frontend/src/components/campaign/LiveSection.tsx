import { useMemo } from "react";
import { usePointSamples } from "../../api/points";
import type { CampaignOut, Point } from "../../api/types";
import TimeSeriesChart from "../../charts/TimeSeriesChart";
import type { PointEventRecord } from "../../charts/eventMarkers";
import { fmtUnit } from "../../format";
import { hasLiveSamples, rateUnitOf, type ToolInfo } from "../../tools/catalog";
import CampaignTimeline from "./CampaignTimeline";
import ProgressBar from "./ProgressBar";
import type { StreamState } from "./liveStream";
import type { LiveSample } from "./useCampaignEvents";

/** What the live dot says, and its tooltip, for each state of the stream. */
const STREAM_LABELS: Record<StreamState, [label: string, title: string]> = {
  connecting: ["connecting…", "opening the live stream"],
  live: ["live", "receiving live events"],
  reconnecting: ["reconnecting…", "the live stream dropped; reconnecting"],
  polling: ["reconnecting…", "the live stream is down; polling every 2 s while it reconnects"],
};

/**
 * Progress, the running point's per-second chart (fed by the stored samples and then the live stream), and the
 * whole campaign's timeline (`allPoints`: every variant's). `events`: the points' events as the live stream told them,
 * drawn as markers on the running point's chart (and the timeline) until the point stores its own. A tool without live
 * samples says so plainly.
 */
export default function LiveSection({
  campaign,
  tool,
  points,
  allPoints = points,
  live,
  stream,
  events = {},
}: {
  campaign: CampaignOut;
  tool: ToolInfo | undefined;
  points: Point[];
  allPoints?: Point[];
  live: Record<number, LiveSample[]>;
  stream: StreamState;
  events?: Record<number, PointEventRecord[]>;
}) {
  const runningId = campaign.progress.running_point_id ?? points.find((p) => p.status === "running")?.id ?? null;
  const running = allPoints.find((p) => p.id === runningId);
  const liveTool = hasLiveSamples(tool);
  const stored = usePointSamples(runningId, "point");
  const rows = useMemo(() => {
    const byT = new Map<number, LiveSample>();
    for (const s of stored.data?.samples ?? []) byT.set(s.t, { t: s.t, values: s.values });
    for (const s of (runningId != null ? live[runningId] : undefined) ?? []) byT.set(s.t, s);
    return [...byT.values()].sort((a, b) => a.t - b.t);
  }, [stored.data, live, runningId]);

  return (
    <section className="card live" aria-label="Live progress">
      <div className="section-head">
        <h2>Live</h2>
        <span className={`live-dot ${stream === "live" ? "on" : ""}`} data-testid="live-state" data-state={stream} title={STREAM_LABELS[stream][1]}>
          {STREAM_LABELS[stream][0]}
        </span>
      </div>
      <ProgressBar campaign={campaign} />
      {!liveTool && (
        <p className="banner info small" data-testid="live-note">
          {tool?.name ?? campaign.tool} reports at the end: live view shows progress only
        </p>
      )}
      <TimeSeriesChart
        title={
          running
            ? `Running point ${running.seq + 1}: ${running.phase}, concurrency ${running.concurrency}${running.offered_rate != null ? `, offered ${fmtUnit(running.offered_rate, rateUnitOf(tool))}` : ""}`
            : "Running point"
        }
        rows={rows}
        tool={tool}
        events={(runningId != null ? events[runningId] : undefined) ?? []}
        height={220}
        empty={
          campaign.status === "queued"
            ? "Waiting to start"
            : running
              ? liveTool
                ? "Waiting for the first interval…"
                : `${tool?.name ?? campaign.tool} reports at the end of the point`
              : "Between points"
        }
      />
      <CampaignTimeline points={allPoints} tool={tool} live={live} liveEvents={events} runningId={runningId} height={200} />
    </section>
  );
}
