import { useState } from "react";
import { useCreateTarget, useDeleteTarget, useTargets, useUpdateTarget } from "../api/targets";
import type { Target } from "../api/types";
import ConfirmDialog from "../components/common/ConfirmDialog";
import { Empty, ErrorState, Loading } from "../components/common/States";
import TargetForm from "../components/targets/TargetForm";

export default function TargetsPage() {
  const targets = useTargets();
  const create = useCreateTarget();
  const update = useUpdateTarget();
  const del = useDeleteTarget();
  const [editing, setEditing] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [formKey, setFormKey] = useState(0);

  return (
    <div className="page targets-page">
      <div className="page-head">
        <div>
          <h1>Targets</h1>
          <p className="muted">Systems under test: DNS servers, HTTP servers, iperf3 servers, device platforms.</p>
        </div>
      </div>
      <div className="two-col">
        <section className="card" aria-label="Targets">
          {targets.isPending ? (
            <Loading what="Loading targets" />
          ) : targets.isError ? (
            <ErrorState error={targets.error} retry={() => targets.refetch()} />
          ) : targets.data.length === 0 ? (
            <Empty>No targets yet. Create the first one with the form.</Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Kind</th>
                  <th>Address</th>
                  <th>Tags</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {targets.data.map((t) => (
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
                      <button type="button" className="btn small danger-outline" onClick={() => { del.reset(); setDeleting(t); }}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <div>
          {editing ? (
            <TargetForm
              target={editing}
              busy={update.isPending}
              error={update.error}
              onCancel={() => setEditing(null)}
              onSubmit={(body) => update.mutate({ id: editing.id, body }, { onSuccess: () => setEditing(null) })}
            />
          ) : (
            <TargetForm
              key={formKey}
              busy={create.isPending}
              error={create.error}
              onSubmit={(body) => create.mutate(body, { onSuccess: () => setFormKey((k) => k + 1) })}
            />
          )}
        </div>
      </div>
      <ConfirmDialog
        open={!!deleting}
        title={`Delete target ${deleting?.name ?? ""}?`}
        confirmLabel="Delete target"
        cancelLabel="Keep it"
        danger
        busy={del.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        <p>Campaigns keep their own snapshot of the target; plans that use it will need another target.</p>
        {del.isError && <p className="error-text">{del.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
