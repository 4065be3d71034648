import type { Tool } from "../../api/types";
import { messagesFor, type FieldErrors } from "../../api/errors";
import { BUILTIN_PROFILE, profileNames, useProfiles } from "../../api/profiles";
import Field from "../common/Field";

const QTYPES = ["A", "AAAA", "CNAME", "MX", "NS", "PTR", "SOA", "SRV", "TXT", "CAA", "DS", "DNSKEY", "HTTPS", "ANY"];

/** The tool's own parameters. */
export default function ParamsEditor({
  tool,
  params,
  errors,
  onChange,
}: {
  tool: Tool;
  params: Record<string, string | boolean>;
  errors: FieldErrors;
  onChange: (key: string, value: string | boolean) => void;
}) {
  const err = (k: string) => messagesFor(errors, `params.${k}`);
  const profiles = useProfiles(tool === "devsim");
  const text = (k: string, label: string, hint?: string, inputMode: "numeric" | "decimal" | "text" = "decimal") => (
    <Field label={label} errors={err(k)} hint={hint}>
      <input name={`params-${k}`} value={String(params[k] ?? "")} onChange={(e) => onChange(k, e.target.value)} inputMode={inputMode} />
    </Field>
  );
  // a stored plan may name a profile deleted since: keep it selectable so the API's message explains
  const current = String(params.profile ?? "");
  const names = profileNames(profiles.data);
  const profileOptions = current && !names.includes(current) ? [...names, current] : names;
  const optionLabel = (n: string) => {
    if (n === BUILTIN_PROFILE) return `${n} (built-in)`;
    const p = profiles.data?.find((x) => x.name === n);
    if (!p) return profiles.data ? `${n} (not uploaded)` : n;
    return p.summary ? `${n} — ${p.summary.length > 60 ? `${p.summary.slice(0, 59)}…` : p.summary}` : n;
  };
  const general = messagesFor(errors, "params", { exact: true });
  return (
    <div className="params">
      {general.length > 0 && <ul className="field-errors">{general.map((m) => <li key={m}>{m}</li>)}</ul>}
      {tool === "dnsperf" && (
        <div className="grid-3">
          <Field label="Query names" errors={err("names")} hint="one per line; one name repeated = cache hits">
            <textarea name="params-names" rows={2} value={String(params.names ?? "")} onChange={(e) => onChange("names", e.target.value)} />
          </Field>
          <Field label="Record type" errors={err("qtype")}>
            <select name="params-qtype" value={String(params.qtype ?? "A")} onChange={(e) => onChange("qtype", e.target.value)}>
              {QTYPES.map((q) => (
                <option key={q}>{q}</option>
              ))}
            </select>
          </Field>
          {text("timeout_s", "Timeout (s)")}
        </div>
      )}
      {tool === "wrk" && (
        <div className="grid-3">
          {text("path", "Path", "e.g. /index.html", "text")}
          {text("threads", "Threads", undefined, "numeric")}
          {text("timeout_s", "Timeout (s)")}
        </div>
      )}
      {tool === "iperf3" && (
        <div className="grid-3">
          <Field label="Protocol" errors={err("protocol")}>
            <select name="params-protocol" value={String(params.protocol ?? "tcp")} onChange={(e) => onChange("protocol", e.target.value)}>
              <option value="tcp">tcp</option>
              <option value="udp">udp</option>
            </select>
          </Field>
          {text("length", "Datagram/buffer length (bytes)", "empty = iperf3's default", "numeric")}
          <div className="field checkbox">
            <label>
              <input type="checkbox" checked={params.reverse === true} onChange={(e) => onChange("reverse", e.target.checked)} /> Reverse (server sends)
            </label>
          </div>
        </div>
      )}
      {tool === "devsim" && (
        <div className="grid-3">
          <Field label="Device profile" errors={err("profile")} hint={profiles.isError ? "uploaded profiles unavailable" : "built-in singlelight or an uploaded one (Profiles page)"}>
            <select name="params-profile" value={String(params.profile ?? BUILTIN_PROFILE)} onChange={(e) => onChange("profile", e.target.value)}>
              {profileOptions.map((n) => (
                <option key={n} value={n}>
                  {optionLabel(n)}
                </option>
              ))}
            </select>
          </Field>
          {text("start_id", "First device id", undefined, "numeric")}
          {text("ramp_per_s", "Logins per second", undefined, "numeric")}
          {text("login_timeout_s", "Login timeout (s)")}
          {text("procs", "Processes", undefined, "numeric")}
          {text("source_ips", "Source addresses", undefined, "numeric")}
        </div>
      )}
    </div>
  );
}
