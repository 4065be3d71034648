import type { FieldErrors } from "../../api/errors";
import { messagesFor } from "../../api/errors";
import type { ExporterPack, PrometheusQuery, PrometheusServer, PrometheusSource } from "../../api/types";
import Field, { GroupErrors } from "../common/Field";

export const MAX_QUERIES = 20;

export interface PrometheusDraft {
  server: string;
  selector: string;
  packs: string[];
  queries: PrometheusQuery[];
}

export const prometheusDraft = (p?: PrometheusSource | null): PrometheusDraft => ({
  server: p?.server ?? "",
  selector: p?.selector ?? "",
  packs: [...(p?.packs ?? [])],
  queries: (p?.queries ?? []).map((q) => ({ ...q })),
});

/** The target's `prometheus` field: null when no server is picked (which removes the source). */
export const prometheusBody = (d: PrometheusDraft): PrometheusSource | null =>
  d.server
    ? {
        server: d.server,
        selector: d.selector.trim(),
        packs: d.packs,
        queries: d.queries.map((q) => ({ ...q, name: q.name.trim(), query: q.query.trim(), unit: q.unit.trim() })),
      }
    : null;

const P = "prometheus";

/** Where the target's server metrics come from by PromQL: a registered Prometheus (from the API), the query packs read
 * with a label selector, and the target's own queries. */
export default function PrometheusSourceEditor({
  value,
  onChange,
  servers,
  packs,
  errors,
}: {
  value: PrometheusDraft;
  onChange: (next: PrometheusDraft) => void;
  servers: PrometheusServer[];
  packs: ExporterPack[];
  errors: FieldErrors;
}) {
  const set = (change: Partial<PrometheusDraft>) => onChange({ ...value, ...change });
  const putQuery = (i: number, change: Partial<PrometheusQuery>) => set({ queries: value.queries.map((q, j) => (j === i ? { ...q, ...change } : q)) });
  const toggle = (pack: string) => set({ packs: value.packs.includes(pack) ? value.packs.filter((p) => p !== pack) : [...value.packs, pack] });
  const known = servers.some((s) => s.name === value.server);
  return (
    <fieldset className="exporters prometheus-source" aria-label="Prometheus">
      <legend>Prometheus (PromQL)</legend>
      <p className="muted small">Read the server's metrics from a registered Prometheus after each point, as the exporter scrape's series.</p>
      <GroupErrors messages={messagesFor(errors, P, { exact: true })} />
      <Field label="Prometheus server" errors={messagesFor(errors, `${P}.server`)}>
        <select value={value.server} onChange={(e) => set({ server: e.target.value })}>
          <option value="">none</option>
          {!known && value.server && <option value={value.server}>{value.server} (not registered)</option>}
          {servers.map((s) => (
            <option key={s.id} value={s.name}>
              {s.name} ({s.url})
            </option>
          ))}
        </select>
      </Field>
      {value.server && (
        <>
          <Field label="Label selector" errors={messagesFor(errors, `${P}.selector`)} hint='the target&apos;s series there, e.g. {job="coredns",instance="10.0.0.5:9153"}'>
            <input className="mono" value={value.selector} onChange={(e) => set({ selector: e.target.value })} />
          </Field>
          <Field label="Prometheus packs" errors={messagesFor(errors, `${P}.packs`)}>
            <div className="pack-choices" role="group" aria-label="Prometheus packs">
              {packs.map((p) => (
                <label key={p.name} title={p.description || p.title} className="check">
                  <input type="checkbox" aria-label={`PromQL pack ${p.name}`} checked={value.packs.includes(p.name)} onChange={() => toggle(p.name)} /> {p.name}
                </label>
              ))}
            </div>
          </Field>
          <GroupErrors messages={messagesFor(errors, `${P}.queries`, { exact: true })} />
          {value.queries.map((q, i) => (
            <div key={i} className="exporter-row" role="group" aria-label={`Query ${i + 1}`}>
              <div className="grid-2">
                <Field label={`Query ${i + 1} name`} errors={messagesFor(errors, `${P}.queries.${i}.name`)}>
                  <input value={q.name} placeholder="upstream_p99" onChange={(e) => putQuery(i, { name: e.target.value })} />
                </Field>
                <Field label={`Query ${i + 1} unit`} errors={messagesFor(errors, `${P}.queries.${i}.unit`)}>
                  <input value={q.unit} placeholder="ms" onChange={(e) => putQuery(i, { unit: e.target.value })} />
                </Field>
              </div>
              <Field label={`Query ${i + 1} PromQL`} errors={messagesFor(errors, `${P}.queries.${i}.query`)}>
                <textarea className="mono" rows={2} value={q.query} onChange={(e) => putQuery(i, { query: e.target.value })} />
              </Field>
              <button type="button" className="btn small" onClick={() => set({ queries: value.queries.filter((_, j) => j !== i) })}>
                Remove query {i + 1}
              </button>
            </div>
          ))}
          {value.queries.length < MAX_QUERIES && (
            <button type="button" className="btn small" onClick={() => set({ queries: [...value.queries, { name: "", query: "", unit: "" }] })}>
              Add query
            </button>
          )}
        </>
      )}
    </fieldset>
  );
}
