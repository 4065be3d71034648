import { useEffect, useState, type FormEvent } from "react";
import { errorsOf, messagesFor } from "../../api/errors";
import type { PrometheusAllowList } from "../../api/types";
import Field, { FormActions, FormErrors } from "../common/Field";

const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/** The Prometheus allow-list: networks and host names a Prometheus may be at (admins edit; a 422 names the line). */
export default function AllowListForm({
  value,
  editable,
  onSubmit,
  busy,
  error,
}: {
  value?: PrometheusAllowList;
  editable: boolean;
  onSubmit: (body: { networks: string[]; hosts: string[] }) => void;
  busy?: boolean;
  error?: unknown;
}) {
  const [networks, setNetworks] = useState("");
  const [hosts, setHosts] = useState("");
  useEffect(() => {
    setNetworks((value?.networks ?? []).join("\n"));
    setHosts((value?.hosts ?? []).join("\n"));
  }, [value]);
  const errors = errorsOf(error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ networks: lines(networks), hosts: lines(hosts) });
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Prometheus allow-list">
      <h2>Allow-list</h2>
      <p className="muted small">
        Where a registered Prometheus may be: its own list, neither the target policy nor the webhooks' (a Prometheus never becomes a load
        target). Empty: nowhere.
      </p>
      <Field label="Networks (CIDR, one a line)" errors={messagesFor(errors, "networks")}>
        <textarea name="networks" rows={4} value={networks} onChange={(e) => setNetworks(e.target.value)} readOnly={!editable} />
      </Field>
      <Field label="Host names (one a line, *.suffix allowed)" errors={messagesFor(errors, "hosts")}>
        <textarea name="hosts" rows={4} value={hosts} onChange={(e) => setHosts(e.target.value)} readOnly={!editable} />
      </Field>
      <FormErrors errors={errors[""]} />
      {editable && <FormActions busy={busy} label="Save allow-list" />}
      {value?.updated_by && <p className="muted small">Last changed by {value.updated_by}</p>}
    </form>
  );
}
