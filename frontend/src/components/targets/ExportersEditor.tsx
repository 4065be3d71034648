import type { FieldErrors } from "../../api/errors";
import { messagesFor } from "../../api/errors";
import type { ExporterPack } from "../../api/types";
import Field, { GroupErrors } from "../common/Field";

export const MAX_EXPORTERS = 8;

export interface ExporterDraft {
  name: string;
  url: string;
  packs: string[];
}

/** A target's Prometheus exporters: name, URL and the query packs reading it (the packs come from the API). */
export default function ExportersEditor({
  value,
  onChange,
  packs,
  errors,
}: {
  value: ExporterDraft[];
  onChange: (next: ExporterDraft[]) => void;
  packs: ExporterPack[];
  errors: FieldErrors;
}) {
  const put = (i: number, change: Partial<ExporterDraft>) => onChange(value.map((e, j) => (j === i ? { ...e, ...change } : e)));
  const toggle = (i: number, pack: string) =>
    put(i, { packs: value[i].packs.includes(pack) ? value[i].packs.filter((p) => p !== pack) : [...value[i].packs, pack] });
  return (
    <fieldset className="exporters" aria-label="Exporters">
      <legend>Exporters</legend>
      <p className="muted small">
        Prometheus endpoints scraped every second beside each point of a plan that names them (at most {MAX_EXPORTERS}); each pack reads one
        exporter of the target.
      </p>
      <GroupErrors messages={messagesFor(errors, "exporters", { exact: true })} />
      {value.map((e, i) => (
        <div key={i} className="exporter-row" aria-label={`Exporter ${i + 1}`} role="group">
          <div className="grid-2">
            <Field label={`Exporter ${i + 1} name`} errors={messagesFor(errors, `exporters.${i}.name`)}>
              <input value={e.name} placeholder="coredns" onChange={(ev) => put(i, { name: ev.target.value })} />
            </Field>
            <Field label={`Exporter ${i + 1} URL`} errors={messagesFor(errors, `exporters.${i}.url`)}>
              <input value={e.url} placeholder="http://10.77.0.2:9153/metrics" onChange={(ev) => put(i, { url: ev.target.value })} />
            </Field>
          </div>
          <Field label={`Exporter ${i + 1} packs`} errors={messagesFor(errors, `exporters.${i}.packs`)}>
            <div className="pack-choices">
              {packs.map((p) => (
                <label key={p.name} title={p.description || p.title} className="check">
                  <input type="checkbox" checked={e.packs.includes(p.name)} onChange={() => toggle(i, p.name)} /> {p.name}
                </label>
              ))}
            </div>
          </Field>
          <button type="button" className="btn small" onClick={() => onChange(value.filter((_, j) => j !== i))}>
            Remove exporter {i + 1}
          </button>
        </div>
      ))}
      {value.length < MAX_EXPORTERS && (
        <button type="button" className="btn small" onClick={() => onChange([...value, { name: "", url: "", packs: [] }])}>
          Add exporter
        </button>
      )}
    </fieldset>
  );
}
