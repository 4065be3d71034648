// A team's Prometheus servers (PromQL read per point, results out by remote write) and their allow-list; admins edit.
import { useState } from "react";
import { useMe } from "../api/auth";
import {
  useCreatePrometheusServer,
  useDeletePrometheusServer,
  usePrometheusAllowList,
  usePrometheusServers,
  usePutPrometheusAllowList,
  useUpdatePrometheusServer,
} from "../api/prometheus";
import type { PrometheusServer, PrometheusServerCreate, PrometheusServerUpdate } from "../api/types";
import DeleteDialog, { DeleteButton } from "../components/common/DeleteDialog";
import PageHead from "../components/common/PageHead";
import { ErrorState, Loading, QueryView } from "../components/common/States";
import Table from "../components/common/Table";
import AllowListForm from "../components/prometheus/AllowListForm";
import ServerForm from "../components/prometheus/ServerForm";

export default function PrometheusPage() {
  const admin = useMe().data?.role === "admin";
  const servers = usePrometheusServers();
  const allow = usePrometheusAllowList();
  const putAllow = usePutPrometheusAllowList();
  const create = useCreatePrometheusServer();
  const update = useUpdatePrometheusServer();
  const del = useDeletePrometheusServer();
  const [editing, setEditing] = useState<PrometheusServer | null>(null);
  const [deleting, setDeleting] = useState<PrometheusServer | null>(null);
  const [formKey, setFormKey] = useState(0);

  return (
    <div className="page prometheus-page">
      <PageHead
        title="Prometheus"
        note={<p className="muted">A team's Prometheus: targets read their server metrics from it by PromQL after each point, and it may receive each campaign's results by remote write (docs/prometheus.md).</p>}
      />
      <div className="two-col">
        <div>
          <section className="card" aria-label="Prometheus servers">
            <QueryView query={servers} loading="Loading the Prometheus servers" empty="No Prometheus registered yet.">
              {(data) => (
                <Table columns={["Name", "URL", "Credential", "Scrape interval", "Remote write"]} actions={admin ? "Actions" : undefined}>
                  {data.map((s) => (
                    <tr key={s.id} className={editing?.id === s.id ? "selected" : ""}>
                      <td>
                        <strong>{s.name}</strong>
                      </td>
                      <td className="mono">{s.url}</td>
                      <td>{s.auth === "none" ? "not set" : `set (${s.auth}${s.username ? `, ${s.username}` : ""})`}</td>
                      <td>{s.scrape_interval_s} s</td>
                      <td>{s.remote_write ? "yes" : "no"}</td>
                      {admin && (
                        <td className="row-actions">
                          <button type="button" className="btn small" onClick={() => { update.reset(); setEditing(s); }}>
                            Edit
                          </button>
                          <DeleteButton label={`Delete ${s.name}`} onClick={() => { del.reset(); setDeleting(s); }} />
                        </td>
                      )}
                    </tr>
                  ))}
                </Table>
              )}
            </QueryView>
          </section>
          {allow.isPending && <Loading what="Loading the allow-list" />}
          {allow.isError && <ErrorState error={allow.error} retry={() => allow.refetch()} what="the Prometheus allow-list" />}
          {allow.data && (
            <AllowListForm value={allow.data} editable={admin} busy={putAllow.isPending} error={putAllow.error} onSubmit={(body) => putAllow.mutate(body)} />
          )}
        </div>
        {admin && (
          <div>
            {editing ? (
              <ServerForm
                server={editing}
                busy={update.isPending}
                error={update.error}
                onCancel={() => setEditing(null)}
                onSubmit={(body) => update.mutate({ id: editing.id, body: body as PrometheusServerUpdate }, { onSuccess: () => setEditing(null) })}
              />
            ) : (
              <ServerForm
                key={formKey}
                busy={create.isPending}
                error={create.error}
                onSubmit={(body) => create.mutate(body as PrometheusServerCreate, { onSuccess: () => setFormKey((k) => k + 1) })}
              />
            )}
          </div>
        )}
      </div>
      <DeleteDialog noun="Prometheus" item={deleting} del={del} onClose={() => setDeleting(null)}>
        <p>Only a Prometheus no target names can be forgotten; campaigns keep what they read from it.</p>
      </DeleteDialog>
    </div>
  );
}
