import type { Point } from "../../api/types";
import { steadyOf } from "../../api/types";
import { fmtDuration } from "../../format";
import { steadyCounts } from "./PointsTable";

/** What the steady-state check made of the points: how many were unsteady and kept out of verdicts. */
export default function SteadyNote({ points }: { points: Point[] }) {
  const { unsteady, unjudged, judged } = steadyCounts(points);
  if (judged === 0) return null;
  const warmup = points.map(steadyOf).find((s) => s != null)?.warmup_s;
  const trimmed = warmup != null ? `; each point's first ${fmtDuration(warmup)} left out as warm-up` : "";
  const notJudged = unjudged ? ` ${unjudged} too short to judge.` : "";
  return (
    <p className={`pad small ${unsteady ? "warn-text" : "muted"}`} data-testid="steady-note">
      {unsteady
        ? `${unsteady} of ${judged} point${judged === 1 ? "" : "s"} unsteady: kept out of comparison verdicts${trimmed}.`
        : `Every judged point was steady (${judged})${trimmed}.`}
      {notJudged}
    </p>
  );
}
