import { messagesFor, type FieldErrors } from "../../api/errors";
import Field from "../common/Field";
import type { ToolInfo } from "../../tools/catalog";
import type { ParamValue } from "../../tools/schemaFields";
import ParamsEditor from "./ParamsEditor";
import type { TargetExporter } from "../../api/types";
import { EXPORTER_FIELD, namesExporter } from "../../tools/targetExporters";
import { useLab } from "../../api/lab";
import {
  actionOf,
  blankSetting,
  blankVariant,
  kindOf,
  nextAction,
  nthValue,
  SWITCH_VALUES,
  valuesOf,
  withExporter,
  withMonitor,
  type LabAction,
  type MonitorDraft,
  type SettingDraft,
  type VariantDraft,
} from "./planModel";

/** A params schema without one of its fields (the exporter's name, chosen by its checkbox instead). */
function withoutField(schema: unknown, name: string): unknown {
  const s = (schema ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
  const properties = Object.fromEntries(Object.entries(s.properties ?? {}).filter(([k]) => k !== name));
  return { ...s, properties, required: (s.required ?? []).filter((r) => r !== name) };
}

/**
 * A monitor that names one of the target's exporters: a checkbox per exporter the target lists (each ticked one its own
 * monitor), plus any the plan names that the target does not list, so the API's message about it has a place.
 */
function ExporterMonitors({
  tool,
  monitors,
  exporters,
  errors,
  onChange,
  setParam,
}: {
  tool: ToolInfo;
  monitors: MonitorDraft[];
  exporters: readonly TargetExporter[] | undefined;
  errors: FieldErrors;
  onChange: (monitors: MonitorDraft[]) => void;
  setParam: (index: number, key: string, value: ParamValue) => void;
}) {
  const named = monitors.filter((m) => m.kind === tool.name).map((m) => String(m.params[EXPORTER_FIELD] ?? ""));
  const choices = [...(exporters ?? []).map((e) => e.name), ...named.filter((n) => !exporters?.some((e) => e.name === n))];
  const schema = withoutField(tool.params_schema, EXPORTER_FIELD);
  return (
    <div className="monitor exporter-monitors" role="group" aria-label={tool.title}>
      <span title={tool.metrics.map((m) => m.title).join(", ")}>{tool.title}:</span>
      {choices.length === 0 && <span className="muted small"> {exporters ? "the target lists no exporters (add them on the Targets page)" : "choose a target first"}</span>}
      {choices.map((name) => {
        const index = monitors.findIndex((m) => m.kind === tool.name && m.params[EXPORTER_FIELD] === name);
        const listed = exporters?.find((e) => e.name === name);
        return (
          <div key={name} className="monitor">
            <label title={listed ? `${listed.url} · packs: ${listed.packs.join(", ")}` : undefined}>
              <input type="checkbox" name={`monitor-${tool.name}-${name}`} checked={index >= 0} onChange={(e) => onChange(withExporter(monitors, tool, name, e.target.checked))} /> {name}
              {listed ? <span className="muted small"> ({listed.packs.join(", ")})</span> : <span className="warn-text small"> (not an exporter of this target)</span>}
            </label>
            {index >= 0 && (
              <>
                <ParamsEditor schema={schema} values={monitors[index].params} errors={errors} path={`monitors.${index}`} inputName={(f) => `${tool.name}_${name}_${f}`} onChange={(k, v) => setParam(index, k, v)} />
                {messagesFor(errors, `monitors.${index}.${EXPORTER_FIELD}`).map((m) => (
                  <p key={m} className="field-errors">
                    {m}
                  </p>
                ))}
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}

/**
 * Monitors beside every point: a checkbox per registered monitor (GET /tools, role "monitor"), and the
 * ticked ones' own parameters (ping's host…) as fields beside it, with the API's messages. A monitor that names one of
 * the target's exporters gets a checkbox per exporter (`exporters`: the target's).
 */
export function MonitorsEditor({
  monitors,
  available,
  exporters,
  errors,
  onChange,
}: {
  monitors: MonitorDraft[];
  available: ToolInfo[];
  exporters?: readonly TargetExporter[];
  errors: FieldErrors;
  onChange: (monitors: MonitorDraft[]) => void;
}) {
  const general = messagesFor(errors, "monitors", { exact: true });
  // the body lists monitors in the draft's order: errors name them by that index
  const setParam = (index: number, key: string, value: ParamValue) =>
    onChange(monitors.map((m, i) => (i === index ? { ...m, params: { ...m.params, [key]: value } } : m)));
  return (
    <fieldset className="monitors" aria-label="Monitors">
      <legend className="label">Monitors beside every point</legend>
      <div className="monitor-row">
        {available.map((tool) => {
          if (namesExporter(tool))
            return <ExporterMonitors key={tool.name} tool={tool} monitors={monitors} exporters={exporters} errors={errors} onChange={onChange} setParam={setParam} />;
          const index = monitors.findIndex((m) => m.kind === tool.name);
          const on = index >= 0;
          return (
            <div key={tool.name} className="monitor">
              <label title={tool.metrics.map((m) => m.title).join(", ")}>
                <input type="checkbox" name={`monitor-${tool.name}`} checked={on} onChange={(e) => onChange(withMonitor(monitors, tool, e.target.checked))} /> {tool.title}
              </label>
              {on && (
                <ParamsEditor
                  schema={tool.params_schema}
                  values={monitors[index].params}
                  errors={errors}
                  path={`monitors.${index}`}
                  inputName={(f) => `${tool.name}_${f}`}
                  onChange={(k, v) => setParam(index, k, v)}
                />
              )}
            </div>
          );
        })}
      </div>
      {general.length > 0 && <ul className="field-errors">{general.map((m) => <li key={m}>{m}</li>)}</ul>}
    </fieldset>
  );
}

/** The value input a setting's action takes: a count within its range, on/off, or one of its choices (its default marked). */
function ValueInput({ setting, action, name, onChange }: { setting: SettingDraft; action: LabAction | undefined; name: string; onChange: (value: string) => void }) {
  const label = `${setting.action} value`;
  // an action the lab does not list keeps the input its stored value's type calls for
  const options = action ? valuesOf(action) : setting.kind === "bool" ? SWITCH_VALUES : [];
  if (options.length) {
    const byDefault = action?.default == null ? null : nthValue(action, 0);
    return (
      <select name={name} aria-label={label} value={setting.value} onChange={(e) => onChange(e.target.value)}>
        {options.map((c) => (
          <option key={c} value={c}>
            {c === byDefault ? `${c} (default)` : c}
          </option>
        ))}
        {!options.includes(setting.value) && <option value={setting.value}>{setting.value} (not a choice)</option>}
      </select>
    );
  }
  const int = action ? action.type === "int" : setting.kind === "int";
  return (
    <input
      name={name}
      aria-label={label}
      type={int ? "number" : "text"}
      min={int ? (action?.min ?? undefined) : undefined}
      max={int ? (action?.max ?? undefined) : undefined}
      step={int ? 1 : undefined}
      size={5}
      style={{ width: int ? "6rem" : "12rem" }}
      value={setting.value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function SettingRow({
  setting,
  actions,
  used,
  vi,
  si,
  onChange,
  onRemove,
}: {
  setting: SettingDraft;
  actions: readonly LabAction[];
  used: string[];
  vi: number;
  si: number;
  onChange: (setting: SettingDraft) => void;
  onRemove: () => void;
}) {
  const action = actionOf(actions, setting.action);
  const choices = actions.filter((a) => a.name === setting.action || !used.includes(a.name));
  const range = action?.type === "int" && action.min != null && action.max != null ? ` (${action.min}…${action.max})` : "";
  return (
    <div className="setting-row" data-testid={`variant-${vi}-setting-${si}`}>
      <label className="sr-only" htmlFor={`v${vi}-s${si}-action`}>
        Setting {si + 1} of variant {vi + 1}
      </label>
      <select
        id={`v${vi}-s${si}-action`}
        name={`variant-${vi}-action-${si}`}
        value={setting.action}
        onChange={(e) => {
          const picked = actionOf(actions, e.target.value);
          if (picked) onChange({ ...blankSetting(picked), key: setting.key });
        }}
      >
        {choices.map((a) => (
          <option key={a.name} value={a.name} title={a.description}>
            {a.name}
          </option>
        ))}
        {!action && <option value={setting.action}>{setting.action} (unknown)</option>}
      </select>
      <span aria-hidden="true">=</span>
      <ValueInput
        setting={setting}
        action={action}
        name={`variant-${vi}-value-${si}`}
        onChange={(value) => onChange({ ...setting, value, kind: action ? kindOf(action) : setting.kind })}
      />
      <button type="button" className="btn small icon" onClick={onRemove} aria-label={`Remove setting ${setting.action} from variant ${vi + 1}`}>
        ×
      </button>
      {action ? (
        <span className="muted small">
          {action.description}
          {range}
        </span>
      ) : (
        actions.length > 0 && <span className="warn-text small">not an action the lab lists</span>
      )}
    </div>
  );
}

/** Why the lab's actions are not there yet (loading, or the API's error); null once they are. */
function actionsNote(lab: ReturnType<typeof useLab>): string | null {
  if (lab.isPending) return "Loading the lab's actions…";
  if (lab.isError) return `Could not load the lab's actions: ${lab.error instanceof Error ? lab.error.message : String(lab.error)}`;
  return lab.data?.actions?.length ? null : "The lab lists no actions.";
}

/** Variants: the phases repeated under each; a variant is a label and settings of the lab's registered actions (GET /api/v1/lab). */
export default function VariantsEditor({ variants, errors, onChange }: { variants: VariantDraft[]; errors: FieldErrors; onChange: (v: VariantDraft[]) => void }) {
  const lab = useLab();
  const actions = lab.data?.actions ?? [];
  const note = actionsNote(lab);
  const set = (i: number, patch: Partial<VariantDraft>) => onChange(variants.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const setSetting = (i: number, k: number, setting: SettingDraft) => set(i, { settings: variants[i].settings.map((s, j) => (j === k ? setting : s)) });
  const general = messagesFor(errors, "variants", { exact: true });
  return (
    <fieldset className="variants" aria-label="Variants">
      <legend className="label">Variants</legend>
      <p className="muted small">
        Every phase runs once under each variant, after its settings are applied by the lab's registered actions (the lab must be up:{" "}
        <span className="mono">kneeboard lab up</span>). The report and compare page show the variants side by side.
      </p>
      {note && (
        <p className="muted small" data-testid="lab-actions-note">
          {note}
        </p>
      )}
      {general.length > 0 && <ul className="field-errors">{general.map((m) => <li key={m}>{m}</li>)}</ul>}
      <div className="variant-rows">
        {variants.map((v, i) => {
          const setErrors = messagesFor(errors, `variants.${i}.set`);
          const next = nextAction(v, actions);
          return (
            <div className="variant-row" key={v.key} data-testid={`variant-${i}`}>
              <div className="variant-head">
                <Field label={`Variant ${i + 1} label`} errors={messagesFor(errors, `variants.${i}.label`)}>
                  <input name={`variant-${i}-label`} value={v.label} onChange={(e) => set(i, { label: e.target.value })} maxLength={80} placeholder="e.g. 4 queues" />
                </Field>
                <button type="button" className="btn small" disabled={!next} onClick={() => next && set(i, { settings: [...v.settings, blankSetting(next)] })}>
                  + setting
                </button>
                <button type="button" className="btn small danger-outline" onClick={() => onChange(variants.filter((_, j) => j !== i))} aria-label={`Remove variant ${i + 1}`}>
                  Remove
                </button>
              </div>
              {v.settings.length === 0 && <p className="muted small">No settings: the phases run under the environment as it is.</p>}
              {v.params && (
                <p className="muted small" data-testid={`variant-${i}-params`}>
                  Tool parameters over the plan&apos;s:{" "}
                  {Object.entries(v.params)
                    .map(([k, x]) => `${k} = ${JSON.stringify(x)}`)
                    .join(", ")}{" "}
                  <button type="button" className="btn small" onClick={() => set(i, { params: undefined })}>
                    Drop them
                  </button>
                </p>
              )}
              {v.settings.map((s, k) => (
                <SettingRow
                  key={s.key}
                  setting={s}
                  actions={actions}
                  used={v.settings.map((x) => x.action)}
                  vi={i}
                  si={k}
                  onChange={(setting) => setSetting(i, k, setting)}
                  onRemove={() => set(i, { settings: v.settings.filter((_, j) => j !== k) })}
                />
              ))}
              {setErrors.length > 0 && (
                <ul className="field-errors" data-testid="field-error">
                  {setErrors.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </div>
      <button type="button" className="btn small" disabled={variants.length >= 10} onClick={() => onChange([...variants, blankVariant(variants, actions)])}>
        + variant
      </button>
    </fieldset>
  );
}
