import { useEffect, useState, type FormEvent } from "react";
import { errorsOf, messagesFor } from "../../api/errors";
import { TARGET_KINDS, type ExporterPack, type PrometheusServer, type Target, type TargetCreate, type TargetKind } from "../../api/types";
import Field, { FormActions, FormErrors, InputField } from "../common/Field";
import ExportersEditor, { type ExporterDraft } from "./ExportersEditor";
import PrometheusSourceEditor, { prometheusBody, prometheusDraft, type PrometheusDraft } from "./PrometheusSourceEditor";

const DEFAULT_PORTS: Record<TargetKind, string> = { dns: "53", http: "80", net: "5201", device: "9000" };

interface Draft {
  name: string;
  kind: TargetKind;
  host: string;
  port: string;
  tags: string;
  notes: string;
  metricsUrl: string;
  process: string;
  exporters: ExporterDraft[];
  prometheus: PrometheusDraft;
}

const fromTarget = (t?: Target | null): Draft =>
  t
    ? {
        name: t.name, kind: t.kind, host: t.host, port: String(t.port), tags: (t.tags ?? []).join(", "), notes: t.notes ?? "", metricsUrl: t.metrics_url ?? "",
        process: t.process ?? "",
        exporters: (t.exporters ?? []).map((e) => ({ name: e.name, url: e.url, packs: [...e.packs] })), prometheus: prometheusDraft(t.prometheus),
      }
    : { name: "", kind: "dns", host: "127.0.0.1", port: "53", tags: "", notes: "", metricsUrl: "", process: "", exporters: [], prometheus: prometheusDraft() };

/** Create or edit a target; the API's 422s appear beside the fields they name. */
export default function TargetForm({
  target,
  onSubmit,
  onCancel,
  busy,
  error,
  packs = [],
  servers = [],
}: {
  target?: Target | null;
  onSubmit: (body: TargetCreate) => void;
  onCancel?: () => void;
  busy?: boolean;
  error?: unknown;
  /** the query packs an exporter may name (GET /api/v1/exporters/packs) */
  packs?: ExporterPack[];
  /** the registered Prometheus servers a target may read (GET /api/v1/prometheus) */
  servers?: PrometheusServer[];
}) {
  const [d, setD] = useState<Draft>(() => fromTarget(target));
  useEffect(() => setD(fromTarget(target)), [target]);
  const errors = errorsOf(error);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const port = Number(d.port);
    onSubmit({
      name: d.name.trim(),
      kind: d.kind,
      host: d.host.trim(),
      port: (d.port.trim() === "" || !Number.isFinite(port) ? d.port : port) as number,
      notes: d.notes,
      tags: d.tags.split(/[\s,]+/).filter(Boolean),
      metrics_url: d.metricsUrl.trim() || null,
      process: d.process.trim() || null,
      exporters: d.exporters.map((e) => ({ name: e.name.trim(), url: e.url.trim(), packs: e.packs })),
      prometheus: prometheusBody(d.prometheus),
    });
  };

  return (
    <form className="card form target-form" onSubmit={submit} aria-label={target ? `Edit target ${target.name}` : "New target"}>
      <h2>{target ? `Edit ${target.name}` : "New target"}</h2>
      <div className="grid-2">
        <InputField label="Name" name="name" errors={errors} value={d.name} onValue={(v) => set("name", v)} autoFocus={!target} required />
        <Field label="Kind" errors={messagesFor(errors, "kind")}>
          <select
            name="kind"
            value={d.kind}
            onChange={(e) => {
              const kind = e.target.value as TargetKind;
              setD((x) => ({ ...x, kind, port: x.port === DEFAULT_PORTS[x.kind] ? DEFAULT_PORTS[kind] : x.port }));
            }}
          >
            {TARGET_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </Field>
        <InputField label="Host" name="host" errors={errors} hint="loopback or a lab address" value={d.host} onValue={(v) => set("host", v)} />
        <InputField label="Port" name="port" errors={errors} value={d.port} onValue={(v) => set("port", v)} inputMode="numeric" />
      </div>
      <InputField
        label="Metrics URL"
        name="metrics_url"
        errors={errors}
        hint="optional: the server's node_exporter, e.g. http://10.77.0.2:9100/metrics (for the node monitor)"
        value={d.metricsUrl}
        onValue={(v) => set("metricsUrl", v)}
      />
      <InputField
        label="Server process"
        name="process"
        errors={errors}
        hint="optional: the server's command name as /proc shows it (comm, at most 15 characters), e.g. coredns, nginx, AdGuardHome. Every process of that name is counted: its CPU per unit of work and the CPUs it may use, read on this host for a loopback or lab target, by the observer on the server's host for a remote one (the plan's cpu_profile.observer)"
        value={d.process}
        onValue={(v) => set("process", v)}
        maxLength={15}
      />
      <ExportersEditor value={d.exporters} onChange={(v) => set("exporters", v)} packs={packs} errors={errors} />
      <PrometheusSourceEditor value={d.prometheus} onChange={(v) => set("prometheus", v)} servers={servers} packs={packs} errors={errors} />
      <InputField label="Tags" name="tags" errors={errors} hint="comma-separated, e.g. lab, 2-core" value={d.tags} onValue={(v) => set("tags", v)} />
      <Field label="Notes" errors={messagesFor(errors, "notes")}>
        <textarea name="notes" rows={2} value={d.notes} onChange={(e) => set("notes", e.target.value)} />
      </Field>
      <FormErrors errors={errors[""]} />
      <FormActions busy={busy} label={target ? "Save target" : "Create target"} onCancel={onCancel} />
    </form>
  );
}
