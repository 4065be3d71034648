import { messagesFor, type FieldErrors } from "../../api/errors";
import Field from "../common/Field";
import type { ToolInfo } from "../../tools/catalog";
import type { ParamValue } from "../../tools/schemaFields";
import ParamsEditor from "./ParamsEditor";
import { LAB_ACTIONS, actionOf, blankSetting, blankVariant, nextAction, withMonitor, type MonitorDraft, type SettingDraft, type VariantDraft } from "./planModel";

/**
 * Monitors beside every point: a checkbox per registered monitor (GET /tools, role "monitor"), and the
 * ticked ones' own parameters (ping's host…) as fields beside it, with the API's messages.
 */
export function MonitorsEditor({
  monitors,
  available,
  errors,
  onChange,
}: {
  monitors: MonitorDraft[];
  available: ToolInfo[];
  errors: FieldErrors;
  onChange: (monitors: MonitorDraft[]) => void;
}) {
  const general = messagesFor(errors, "monitors", { exact: true });
  const setParam = (kind: string, key: string, value: ParamValue) =>
    onChange(monitors.map((m) => (m.kind === kind ? { ...m, params: { ...m.params, [key]: value } } : m)));
  return (
    <fieldset className="monitors" aria-label="Monitors">
      <legend className="label">Monitors beside every point</legend>
      <div className="monitor-row">
        {available.map((tool) => {
          // the body lists monitors in the draft's order: errors name them by that index
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
                  onChange={(k, v) => setParam(tool.name, k, v)}
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

function SettingRow({
  setting,
  used,
  vi,
  si,
  onChange,
  onRemove,
}: {
  setting: SettingDraft;
  used: string[];
  vi: number;
  si: number;
  onChange: (patch: Partial<SettingDraft>) => void;
  onRemove: () => void;
}) {
  const action = actionOf(setting.action);
  const choices = LAB_ACTIONS.filter((a) => a.name === setting.action || !used.includes(a.name));
  return (
    <div className="setting-row" data-testid={`variant-${vi}-setting-${si}`}>
      <label className="sr-only" htmlFor={`v${vi}-s${si}-action`}>
        Setting {si + 1} of variant {vi + 1}
      </label>
      <select
        id={`v${vi}-s${si}-action`}
        name={`variant-${vi}-action-${si}`}
        value={setting.action}
        onChange={(e) => onChange({ action: e.target.value, value: blankSetting(e.target.value).value })}
      >
        {choices.map((a) => (
          <option key={a.name} value={a.name}>
            {a.name} ({a.label})
          </option>
        ))}
        {!action && <option value={setting.action}>{setting.action} (unknown)</option>}
      </select>
      <span aria-hidden="true">=</span>
      {action?.type === "bool" || action?.choices ? (
        <select name={`variant-${vi}-value-${si}`} aria-label={`${setting.action} value`} value={setting.value} onChange={(e) => onChange({ value: e.target.value })}>
          {(action.choices ?? ["on", "off"]).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <input
          name={`variant-${vi}-value-${si}`}
          aria-label={`${setting.action} value`}
          type="number"
          min={1}
          step={1}
          size={5}
          style={{ width: "6rem" }}
          value={setting.value}
          onChange={(e) => onChange({ value: e.target.value })}
        />
      )}
      <button type="button" className="btn small icon" onClick={onRemove} aria-label={`Remove setting ${setting.action} from variant ${vi + 1}`}>
        ×
      </button>
      {action && <span className="muted small">{action.description}</span>}
    </div>
  );
}

/** Variants: the phases repeated under each; a variant is a label and settings of registered lab actions. */
export default function VariantsEditor({ variants, errors, onChange }: { variants: VariantDraft[]; errors: FieldErrors; onChange: (v: VariantDraft[]) => void }) {
  const set = (i: number, patch: Partial<VariantDraft>) => onChange(variants.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const setSetting = (i: number, k: number, patch: Partial<SettingDraft>) =>
    set(i, { settings: variants[i].settings.map((s, j) => (j === k ? { ...s, ...patch } : s)) });
  const general = messagesFor(errors, "variants", { exact: true });
  return (
    <fieldset className="variants" aria-label="Variants">
      <legend className="label">Variants</legend>
      <p className="muted small">
        Every phase runs once under each variant, after its settings are applied by the lab's registered actions (the lab must be up:{" "}
        <span className="mono">kneeboard lab up</span>). The report and compare page show the variants side by side.
      </p>
      {general.length > 0 && <ul className="field-errors">{general.map((m) => <li key={m}>{m}</li>)}</ul>}
      <div className="variant-rows">
        {variants.map((v, i) => {
          const setErrors = messagesFor(errors, `variants.${i}.set`);
          const next = nextAction(v);
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
              {v.settings.map((s, k) => (
                <SettingRow
                  key={s.key}
                  setting={s}
                  used={v.settings.map((x) => x.action)}
                  vi={i}
                  si={k}
                  onChange={(patch) => setSetting(i, k, patch)}
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
      <button type="button" className="btn small" disabled={variants.length >= 10} onClick={() => onChange([...variants, blankVariant(variants)])}>
        + variant
      </button>
    </fieldset>
  );
}
