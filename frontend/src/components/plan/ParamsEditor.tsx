import { useMemo } from "react";
import { messagesFor, type FieldErrors } from "../../api/errors";
import { fieldsOf, type ParamField, type ParamValue, type ParamValues } from "../../tools/schemaFields";
import { useFieldChoices } from "../../tools/useFieldChoices";
import Field from "../common/Field";

/** One parameter's control, chosen by the field's kind (select, checkbox, number, list, text). */
function SchemaField({ field, name, value, errors, onChange }: { field: ParamField; name: string; value: ParamValue; errors: string[]; onChange: (v: ParamValue) => void }) {
  const text = typeof value === "string" ? value : "";
  const { choices, error } = useFieldChoices(field, text);
  if (field.kind === "checkbox") {
    return (
      <div className={`field checkbox ${errors.length ? "invalid" : ""}`}>
        <label title={field.hint}>
          <input type="checkbox" name={name} checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {field.label}
        </label>
        {errors.length > 0 && <ul className="field-errors" data-testid="field-error">{errors.map((m) => <li key={m}>{m}</li>)}</ul>}
      </div>
    );
  }
  const options = choices ?? field.options?.map((o) => ({ value: o, label: o }));
  const hint = error ? `${field.hint ?? ""}${field.hint ? "; " : ""}choices unavailable` : field.hint;
  let control;
  if (options) {
    control = (
      <select name={name} value={text} onChange={(e) => onChange(e.target.value)}>
        {field.nullable && <option value="">(default)</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === "list" || field.kind === "multiline") {
    control = <textarea name={name} rows={field.kind === "list" ? 2 : 4} value={text} maxLength={field.maxLength} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.kind === "number") {
    control = <input name={name} type="number" min={field.min} max={field.max} step={field.integer ? 1 : "any"} inputMode={field.integer ? "numeric" : "decimal"} value={text} onChange={(e) => onChange(e.target.value)} />;
  } else {
    control = <input name={name} value={text} maxLength={field.maxLength} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <Field label={field.label} errors={errors} hint={hint}>
      {control}
    </Field>
  );
}

/**
 * A tool's (or a monitor's) own parameters: one field per property of its params JSON Schema.
 * `path` is where the API's messages for them live ("params", "monitors.1"); `inputName` names each input.
 */
export default function ParamsEditor({
  schema,
  values,
  errors,
  path = "params",
  inputName = (f) => `params-${f}`,
  onChange,
}: {
  schema: unknown;
  values: ParamValues;
  errors: FieldErrors;
  path?: string;
  inputName?: (field: string) => string;
  onChange: (key: string, value: ParamValue) => void;
}) {
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const general = messagesFor(errors, path, { exact: true });
  return (
    <div className="params">
      {general.length > 0 && <ul className="field-errors">{general.map((m) => <li key={m}>{m}</li>)}</ul>}
      <div className="grid-3">
        {fields.map((f) => (
          <SchemaField key={f.name} field={f} name={inputName(f.name)} value={values[f.name] ?? ""} errors={messagesFor(errors, `${path}.${f.name}`)} onChange={(v) => onChange(f.name, v)} />
        ))}
      </div>
    </div>
  );
}
