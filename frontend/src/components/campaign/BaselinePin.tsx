import { Link } from "react-router-dom";
import { usePinBaseline } from "../../api/campaigns";
import { usePlan } from "../../api/plans";
import type { CampaignOut } from "../../api/types";

type Props = { campaign: Pick<CampaignOut, "id" | "status" | "plan_id" | "baseline_campaign_id"> };

/**
 * The plan's pinned baseline, on a campaign's report: "Baseline: #N — compare with it" when one is pinned
 * (`baseline_campaign_id`, never the campaign itself), "Pin as baseline" for a completed campaign of a plan,
 * and "Unpin" when this campaign is the pinned one (GET /plans/{plan_id} says which).
 */
export default function BaselinePin({ campaign: c }: Props) {
  const planId = c.plan_id ?? null;
  const plan = usePlan(planId);
  const pin = usePinBaseline(planId ?? 0, c.id);
  const baseline = c.baseline_campaign_id ?? null;
  const pinnedHere = planId != null && plan.data?.baseline_campaign_id === c.id;
  const canPin = planId != null && c.status === "completed" && !pinnedHere && plan.isSuccess;
  if (baseline == null && !pinnedHere && !canPin) return null;

  return (
    <div className="subline baseline-line" data-testid="baseline-line">
      {baseline != null && baseline !== c.id && (
        <span>
          Baseline: <Link to={`/campaigns/${baseline}`}>#{baseline}</Link> —{" "}
          <Link to={`/compare?c=${baseline}&c=${c.id}`}>compare with it</Link>
        </span>
      )}
      {pinnedHere && <span className="muted">Pinned as this plan's baseline: its other reports compare against it.</span>}
      {pinnedHere ? (
        <button type="button" className="btn small" disabled={pin.isPending} onClick={() => pin.mutate(null)}>
          Unpin
        </button>
      ) : (
        canPin && (
          <button
            type="button"
            className="btn small"
            disabled={pin.isPending}
            title={baseline != null ? `replaces #${baseline} as the plan's baseline` : "this plan's reports will compare against this campaign"}
            onClick={() => pin.mutate(c.id)}
          >
            Pin as baseline
          </button>
        )
      )}
      {pin.isError && (
        <span className="error-text small" role="alert">
          {pin.error.message}
        </span>
      )}
    </div>
  );
}
