import { messagesFor, type FieldErrors } from "../../api/errors";
import Field from "../common/Field";
import { LAB_ACTIONS, actionOf, blankSetting, blankVariant, nextAction, type SettingDraft, type VariantDraft } from "./planModel";

/** Monitors beside every point: mpstat (per-CPU %soft) and ping (rtt, loss) to a host. */
export function MonitorsEditor({
  mpstat,
  ping,
  pingHost,
  errors,
  onChange,
}: {
  mpstat: boolean;
  ping: boolean;
  pingHost: string;
  errors: FieldErrors;
  onChange: (patch: { mpstat?: boolean; ping?: boolean; pingHost?: string }) => void;
}) {
  // draftToBody lists mpstat first, then ping
  const pingIndex = mpstat ? 1 : 0;
  const general = messagesFor(errors, "monitors", { exact: true });
  const hostErrors = messagesFor(errors, `monitors.${pingIndex}.host`);
  return (
    <fieldset className="monitors" aria-label="Monitors">
      <legend className="label">Monitors beside every point</legend>
      <div className="monitor-row">
        <label>
          <input type="checkbox" name="monitor-mpstat" checked={mpstat} onChange={(e) => onChange({ mpstat: e.target.checked })} /> mpstat (per-CPU usr/sys/%soft/idle)
        </label>
        <label>
          <input type="checkbox" name="monitor-ping" checked={ping} onChange={(e) => onChange({ ping: e.target.checked })} /> ping (rtt and loss)
        </label>
        {ping && (
          <Field label="ping host" errors={hostErrors} hint="an address or name; empty is refused">
            <input name="ping_host" value={pingHost} onChange={(e) => onChange({ pingHost: e.target.value })} placeholder="e.g. 10.99.0.2" />
          </Field>
        )}
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
      {action?.type === "bool" ? (
        <select name={`variant-${vi}-value-${si}`} aria-label={`${setting.action} value`} value={setting.value} onChange={(e) => onChange({ value: e.target.value })}>
          <option value="on">on</option>
          <option value="off">off</option>
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
