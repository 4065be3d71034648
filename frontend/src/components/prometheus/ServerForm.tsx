import { useEffect, useState, type FormEvent } from "react";
import { errorsOf, messagesFor, type FieldErrors } from "../../api/errors";
import type { PrometheusServer, PrometheusServerCreate, PrometheusServerUpdate } from "../../api/types";
import Field, { FormActions, FormErrors, GroupErrors, InputField } from "../common/Field";

type Auth = PrometheusServer["auth"];

export interface ServerDraft {
  name: string;
  url: string;
  scrapeInterval: string;
  remoteWrite: boolean;
  auth: Auth;
  username: string;
  /** the token or password being typed: never filled from the API, which never gives it */
  secret: string;
}

export const draftOf = (s?: PrometheusServer | null): ServerDraft =>
  s
    ? { name: s.name, url: s.url, scrapeInterval: String(s.scrape_interval_s), remoteWrite: s.remote_write, auth: s.auth, username: s.username ?? "", secret: "" }
    : { name: "", url: "", scrapeInterval: "15", remoteWrite: false, auth: "none", username: "", secret: "" };

const SECRET_FIELD: Record<Auth, string> = { none: "", bearer: "bearer_token", basic: "basic.password" };

/**
 * The body to send for a draft: a credential only when one is typed (or asked to be removed); on an edit, a change of
 * auth kind or of the basic user needs the secret again, since the stored one is never read back.
 */
export function serverBody(d: ServerDraft, server?: PrometheusServer | null): { body: PrometheusServerCreate | PrometheusServerUpdate } | { errors: FieldErrors } {
  const interval = Number(d.scrapeInterval);
  const common = {
    url: d.url.trim(),
    scrape_interval_s: (d.scrapeInterval.trim() !== "" && Number.isFinite(interval) ? interval : d.scrapeInterval) as number,
    remote_write: d.remoteWrite,
  };
  const needsSecret = d.auth !== "none" && (!server || server.auth !== d.auth || (d.auth === "basic" && (server.username ?? "") !== d.username.trim()));
  if (needsSecret && !d.secret) return { errors: { [SECRET_FIELD[d.auth]]: ["give it once: it is stored and never shown again"] } };
  const credential =
    d.auth === "bearer" && d.secret ? { bearer_token: d.secret }
    : d.auth === "basic" && d.secret ? { basic: { username: d.username.trim(), password: d.secret } }
    : {};
  if (!server) return { body: { name: d.name.trim(), ...common, ...credential } };
  return { body: { ...common, ...credential, remove_credential: d.auth === "none" && server.auth !== "none" } };
}

/** Register or edit a team's Prometheus; its credential is typed once and only "set" / "not set" is ever shown. */
export default function ServerForm({
  server,
  onSubmit,
  onCancel,
  busy,
  error,
}: {
  server?: PrometheusServer | null;
  onSubmit: (body: PrometheusServerCreate | PrometheusServerUpdate) => void;
  onCancel?: () => void;
  busy?: boolean;
  error?: unknown;
}) {
  const [d, setD] = useState<ServerDraft>(() => draftOf(server));
  const [local, setLocal] = useState<FieldErrors>({});
  useEffect(() => {
    setD(draftOf(server));
    setLocal({});
  }, [server]);
  const errors = { ...errorsOf(error), ...local };
  const set = <K extends keyof ServerDraft>(k: K, v: ServerDraft[K]) => setD((x) => ({ ...x, [k]: v }));
  const stored = server ? (server.auth === "none" ? "not set" : "set") : "not set";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const out = serverBody(d, server);
    if ("errors" in out) return setLocal(out.errors);
    setLocal({});
    onSubmit(out.body);
  };

  return (
    <form className="card form prometheus-form" onSubmit={submit} aria-label={server ? `Edit Prometheus ${server.name}` : "New Prometheus"}>
      <h2>{server ? `Edit ${server.name}` : "Register a Prometheus"}</h2>
      <div className="grid-2">
        <InputField label="Name" name="name" errors={errors} hint="what a target names" value={d.name} onValue={(v) => set("name", v)} readOnly={!!server} required />
        <InputField label="URL" name="url" errors={errors} hint="e.g. https://prometheus.example.com; its host on the allow-list" value={d.url} onValue={(v) => set("url", v)} required />
        <InputField label="Scrape interval (s)" name="scrape_interval_s" errors={errors} hint="how often it scrapes the target's exporters" value={d.scrapeInterval} onValue={(v) => set("scrapeInterval", v)} inputMode="decimal" />
        <Field label="Auth" errors={messagesFor(errors, "auth")}>
          <select name="auth" value={d.auth} onChange={(e) => setD((x) => ({ ...x, auth: e.target.value as Auth, secret: "" }))}>
            <option value="none">none</option>
            <option value="bearer">bearer token</option>
            <option value="basic">basic (user and password)</option>
          </select>
        </Field>
      </div>
      <p className="muted small" aria-label="Credential">
        Credential: <strong>{stored}</strong>
        {server && server.auth !== "none" && ` (${server.auth}${server.username ? `, user ${server.username}` : ""}); type a new one to replace it, pick "none" to forget it`}
      </p>
      {d.auth === "basic" && (
        <InputField label="User" name="basic.username" errors={errors} value={d.username} onValue={(v) => set("username", v)} autoComplete="off" />
      )}
      {d.auth !== "none" && (
        <InputField
          label={d.auth === "bearer" ? "Bearer token" : "Password"}
          name={SECRET_FIELD[d.auth]}
          type="password"
          autoComplete="new-password"
          errors={errors}
          hint="given once: stored, never shown again"
          value={d.secret}
          onValue={(v) => set("secret", v)}
        />
      )}
      <label className="check">
        <input type="checkbox" name="remote_write" checked={d.remoteWrite} onChange={(e) => set("remoteWrite", e.target.checked)} /> Receives
        remote write (every settled campaign's results are sent here)
      </label>
      <GroupErrors messages={messagesFor(errors, "remote_write")} />
      <FormErrors errors={errors[""]} />
      <FormActions busy={busy} label={server ? "Save Prometheus" : "Register Prometheus"} onCancel={onCancel} />
    </form>
  );
}
