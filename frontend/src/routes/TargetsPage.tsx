import { useState } from "react";
import { useExporterPacks } from "../api/exporters";
import { usePrometheusServers } from "../api/prometheus";
import { useCreateTarget, useDeleteTarget, useTargets, useUpdateTarget } from "../api/targets";
import type { Target } from "../api/types";
import DeleteDialog, { DeleteButton } from "../components/common/DeleteDialog";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";
import Table from "../components/common/Table";
import LabBanner from "../components/lab/LabBanner";
import TargetForm from "../components/targets/TargetForm";

export default function TargetsPage() {
  const targets = useTargets();
  const create = useCreateTarget();
  const update = useUpdateTarget();
  const del = useDeleteTarget();
  const packs = useExporterPacks().data ?? [];
  const servers = usePrometheusServers().data ?? [];
  const [editing, setEditing] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [formKey, setFormKey] = useState(0);

  return (
    <div className="page targets-page">
      <PageHead title="Targets" note={<p className="muted">Systems under test: DNS servers, HTTP servers, iperf3 servers, device platforms.</p>} />
      <LabBanner />
      <div className="two-col">
        <section className="card" aria-label="Targets">
          <QueryView query={targets} loading="Loading targets" empty="No targets yet. Create the first one with the form.">
            {(data) => (
              <Table columns={["Name", "Kind", "Address", "Tags"]} actions="Actions">
                {data.map((t) => (
                  <tr key={t.id} className={editing?.id === t.id ? "selected" : ""}>
                    <td>
                      <strong>{t.name}</strong>
                      {t.notes && <div className="muted small">{t.notes}</div>}
                    </td>
                    <td>
                      <span className="badge kind">{t.kind}</span>
                    </td>
                    <td className="mono">
                      {t.host}:{t.port}
                    </td>
                    <td>{(t.tags ?? []).map((x) => <span key={x} className="tag">{x}</span>)}</td>
                    <td className="row-actions">
                      <button type="button" className="btn small" onClick={() => { update.reset(); setEditing(t); }}>
                        Edit
                      </button>
                      <DeleteButton onClick={() => { del.reset(); setDeleting(t); }} />
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          </QueryView>
        </section>
        <div>
          {editing ? (
            <TargetForm
              target={editing}
              packs={packs}
              servers={servers}
              busy={update.isPending}
              error={update.error}
              onCancel={() => setEditing(null)}
              onSubmit={(body) => update.mutate({ id: editing.id, body }, { onSuccess: () => setEditing(null) })}
            />
          ) : (
            <TargetForm
              key={formKey}
              packs={packs}
              servers={servers}
              busy={create.isPending}
              error={create.error}
              onSubmit={(body) => create.mutate(body, { onSuccess: () => setFormKey((k) => k + 1) })}
            />
          )}
        </div>
      </div>
      <DeleteDialog noun="target" item={deleting} del={del} onClose={() => setDeleting(null)}>
        <p>Campaigns keep their own snapshot of the target; plans that use it will need another target.</p>
      </DeleteDialog>
    </div>
  );
}
