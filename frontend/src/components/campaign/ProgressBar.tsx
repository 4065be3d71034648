import type { CampaignOut, SearchProgress } from "../../api/types";
import { fmtDuration, fmtUnit } from "../../format";

export function queueMessage(c: Pick<CampaignOut, "status" | "agent" | "progress">): string | null {
  if (c.status !== "queued") return null;
  const n = c.progress.queue_position;
  if (n == null) return `waiting for agent ${c.agent}`;
  if (n === 0) return `waiting for agent ${c.agent}, next in line`;
  return `waiting for agent ${c.agent}, ${n} campaign${n === 1 ? "" : "s"} ahead`;
}

/** A running search's line: its trials so far and the bracket it has reached (a search has no total or ETA). */
export function searchLine(search: SearchProgress): string {
  const { bracket: b, unit, trials } = search;
  const where = b.low == null && b.high == null ? "bracketing" : `capacity in [${fmtUnit(b.low, unit)} – ${fmtUnit(b.high, unit)}]`;
  return `search: ${trials} trial${trials === 1 ? "" : "s"} so far · ${b.criterion}: ${where}`;
}

export default function ProgressBar({ campaign }: { campaign: CampaignOut }) {
  const { done, total, failed, elapsed_s, eta_s } = campaign.progress;
  // points cancelled or skipped (cancel, ramp stop, crash); absent from older APIs
  const cancelled = campaign.progress.cancelled ?? 0;
  const search = campaign.progress.search;
  // a search makes its points as it goes: the bar shows how far its bracket has narrowed instead of a growing total
  const pct = search ? search.narrowed_pct : total ? Math.min(100, (100 * done) / total) : 0;
  const queued = queueMessage(campaign);
  return (
    <div className="progress-block" data-testid="progress">
      <div
        className={`progress ${campaign.status}`}
        role="progressbar"
        aria-label={search ? "Search narrowed" : "Points done"}
        aria-valuemin={0}
        aria-valuemax={search ? 100 : total}
        aria-valuenow={search ? Math.round(pct) : done}
        aria-valuetext={search ? searchLine(search) : `${done} of ${total} points`}
      >
        <span className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <div className="progress-meta">
        <span data-testid="progress-count">
          {search ? (
            <span data-testid="progress-search">{searchLine(search)}</span>
          ) : (
            <>
              <strong>{done}</strong> / {total} points
            </>
          )}
          {failed ? <span className="error-text"> · {failed} failed</span> : null}
          {cancelled ? <span className="muted" data-testid="progress-cancelled"> · {cancelled} cancelled or skipped</span> : null}
        </span>
        {queued ? (
          <span className="queue" data-testid="queue">
            {queued}
          </span>
        ) : (
          <>
            <span>elapsed {fmtDuration(elapsed_s)}</span>
            {eta_s != null && campaign.status !== "completed" && <span>ETA {fmtDuration(eta_s)}</span>}
          </>
        )}
      </div>
    </div>
  );
}
