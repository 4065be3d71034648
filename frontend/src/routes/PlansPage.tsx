import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useLaunchCampaign } from "../api/campaigns";
import { useDeletePlan, usePlans } from "../api/plans";
import { useTargets } from "../api/targets";
import type { Plan } from "../api/types";
import ConfirmDialog from "../components/common/ConfirmDialog";
import { Empty, ErrorState, Loading } from "../components/common/States";
import { fmtDateTime } from "../format";

function phaseSummary(p: Plan): string {
  return p.phases.map((ph) => ph.kind).join(" → ");
}

export default function PlansPage() {
  const plans = usePlans();
  const targets = useTargets();
  const del = useDeletePlan();
  const launch = useLaunchCampaign();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const targetName = (id: number | null | undefined) => targets.data?.find((t) => t.id === id)?.name ?? (id ? `#${id}` : "—");

  return (
    <div className="page plans-page">
      <div className="page-head">
        <h1>Plans</h1>
        <div className="actions">
          <Link to="/plans/new" className="btn primary">
            New plan
          </Link>
        </div>
      </div>
      <section className="card flush">
        {plans.isPending ? (
          <Loading what="Loading plans" />
        ) : plans.isError ? (
          <ErrorState error={plans.error} retry={() => plans.refetch()} />
        ) : plans.data.length === 0 ? (
          <Empty>
            No plans yet. <Link to="/plans/new">Start one from a template</Link>.
          </Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>#</th>
                <th>Name</th>
                <th>Tool</th>
                <th>Target</th>
                <th>Phases</th>
                <th>Updated</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {plans.data.map((p) => (
                <tr key={p.id}>
                  <td className="muted">{p.id}</td>
                  <td>
                    <Link to={`/plans/${p.id}`}>{p.name}</Link>
                  </td>
                  <td>{p.tool}</td>
                  <td>{targetName(p.target_id)}</td>
                  <td className="small">{phaseSummary(p)}</td>
                  <td className="muted small">{fmtDateTime(p.updated_at ?? p.created_at)}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="btn small primary"
                      disabled={launch.isPending}
                      onClick={() => launch.mutate({ plan_id: p.id }, { onSuccess: (c) => navigate(`/campaigns/${c.id}`) })}
                    >
                      Launch
                    </button>
                    <button type="button" className="btn small danger-outline" onClick={() => { del.reset(); setDeleting(p); }}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {launch.isError && <p className="error-text pad">Launch failed: {launch.error.message}</p>}
      </section>
      <ConfirmDialog
        open={!!deleting}
        title={`Delete plan ${deleting?.name ?? ""}?`}
        confirmLabel="Delete plan"
        cancelLabel="Keep it"
        danger
        busy={del.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        <p>Campaigns launched from it keep their frozen copy.</p>
        {del.isError && <p className="error-text">{del.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
