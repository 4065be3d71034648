import type { Tool } from "../../api/types";
import { messagesFor, type FieldErrors } from "../../api/errors";
import { useProfiles } from "../../api/profiles";
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
          <Field label="Device profile" errors={err("profile")} hint="uploaded profiles, or the built-in singlelight">
            <input name="params-profile" list="devsim-profiles" value={String(params.profile ?? "")} onChange={(e) => onChange("profile", e.target.value)} />
          </Field>
          <datalist id="devsim-profiles">
            {(profiles.data ?? []).map((p) => (
              <option key={p.id} value={p.name}>
                {p.summary}
              </option>
            ))}
            {!profiles.data?.some((p) => p.name === "singlelight") && <option value="singlelight" />}
          </datalist>
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
