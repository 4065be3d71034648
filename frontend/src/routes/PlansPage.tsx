import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useLaunchCampaign } from "../api/campaigns";
import { useDeletePlan, usePlans } from "../api/plans";
import { useTargets } from "../api/targets";
import type { Plan } from "../api/types";
import DeleteDialog, { DeleteButton } from "../components/common/DeleteDialog";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";
import Table from "../components/common/Table";
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
      <PageHead title="Plans">
        <Link to="/plans/new" className="btn primary">
          New plan
        </Link>
      </PageHead>
      <section className="card flush">
        <QueryView
          query={plans}
          loading="Loading plans"
          empty={
            <>
              No plans yet. <Link to="/plans/new">Start one from a template</Link>.
            </>
          }
        >
          {(data) => (
            <Table columns={["#", "Name", "Tool", "Target", "Phases", "Updated"]} actions="Actions">
              {data.map((p) => (
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
                    <Link className="btn small" to={`/trends?plan=${p.id}`} aria-label={`History of plan ${p.name}`}>
                      History
                    </Link>
                    <DeleteButton onClick={() => { del.reset(); setDeleting(p); }} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
        {launch.isError && <p className="error-text pad">Launch failed: {launch.error.message}</p>}
      </section>
      <DeleteDialog noun="plan" item={deleting} del={del} onClose={() => setDeleting(null)}>
        <p>Campaigns launched from it keep their frozen copy.</p>
      </DeleteDialog>
    </div>
  );
}
