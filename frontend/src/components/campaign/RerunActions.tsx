import { Link, useNavigate } from "react-router-dom";
import { useRerunCampaign } from "../../api/campaigns";
import { isActive, type CampaignOut } from "../../api/types";

/** The query parameter a re-run's page carries: the campaign it re-ran, to offer the comparison once it completes. */
export const RERUN_OF = "rerun_of";

/** What "Edit a copy" hands the plan editor (router state): the frozen plan, renamed. */
export interface PlanCopyState {
  copyOf: { campaignId: number; plan: Record<string, unknown> };
}

/** The frozen plan as a new plan's draft: "<name> (copy)", without what only a stored campaign carries. */
export function planCopy(campaign: Pick<CampaignOut, "id" | "name" | "plan">): PlanCopyState {
  const { profile_document: _doc, ...plan } = campaign.plan as Record<string, unknown>;
  const name = typeof plan.name === "string" && plan.name ? plan.name : campaign.name;
  return { copyOf: { campaignId: campaign.id, plan: { ...plan, name: `${name} (copy)` } } };
}

/** "Run again" (same frozen plan, new campaign; its page then offers the comparison) and "Edit a copy" (the plan editor, prefilled). */
export default function RerunActions({ campaign }: { campaign: CampaignOut }) {
  const navigate = useNavigate();
  const rerun = useRerunCampaign();
  const runnable = campaign.source === "live" && campaign.target_id != null;
  const why = !runnable ? "imported results, or the target is gone: nothing to run again" : isActive(campaign.status) ? "still running" : undefined;
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={!!why || rerun.isPending}
        title={why ?? "a new campaign with this frozen plan, target and agent"}
        onClick={() => rerun.mutate(campaign.id, { onSuccess: (c) => navigate(`/campaigns/${c.id}?${RERUN_OF}=${campaign.id}`) })}
      >
        {rerun.isPending ? "Starting…" : "Run again"}
      </button>
      <button type="button" className="btn" disabled={!campaign.plan || !campaign.plan.tool} onClick={() => navigate("/plans/new", { state: planCopy(campaign) })}>
        Edit a copy
      </button>
      {rerun.isError && (
        <span className="error-text small" role="alert">
          {rerun.error.message}
        </span>
      )}
    </>
  );
}

/** On a re-run's page: where it came from, and the comparison with it once it completes. */
export function RerunNote({ campaign, originalId }: { campaign: CampaignOut; originalId: number }) {
  const done = campaign.status === "completed";
  return (
    <div className="banner info rerun-note" data-testid="rerun-note">
      <span>
        Run again from <Link to={`/campaigns/${originalId}`}>#{originalId}</Link>
        {done ? "." : isActive(campaign.status) ? ": the comparison is offered when it completes." : ` (${campaign.status}).`}
      </span>
      {done && (
        <Link className="btn small primary" to={`/compare?c=${originalId}&c=${campaign.id}`}>
          Compare with #{originalId}
        </Link>
      )}
    </div>
  );
}
