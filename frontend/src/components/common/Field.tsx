import { useId, type InputHTMLAttributes, type ReactElement, cloneElement } from "react";
import { messagesFor, type FieldErrors } from "../../api/errors";

/** A labelled form control with its validation messages beside it. */
export default function Field({
  label,
  errors,
  hint,
  children,
  className,
}: {
  label: string;
  errors?: string[];
  hint?: string;
  children: ReactElement<Record<string, unknown>>;
  className?: string;
}) {
  const id = useId();
  const errId = `${id}-err`;
  const hintId = `${id}-hint`;
  const has = !!errors?.length;
  const describedBy = [has ? errId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field ${has ? "invalid" : ""} ${className ?? ""}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, "aria-invalid": has || undefined, "aria-describedby": describedBy })}
      {hint && (
        <small id={hintId} className="hint">
          {hint}
        </small>
      )}
      {has && (
        <ul id={errId} className="field-errors" data-testid="field-error">
          {errors!.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A Field around a text input named `name`, showing the API's messages for that name. */
export function InputField({
  label,
  name,
  errors,
  hint,
  value,
  onValue,
  ...rest
}: {
  label: string;
  name: string;
  errors: FieldErrors;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange">) {
  return (
    <Field label={label} errors={messagesFor(errors, name)} hint={hint}>
      <input name={name} value={value} onChange={(e) => onValue(e.target.value)} {...rest} />
    </Field>
  );
}

/** Messages that belong to no single field. */
export function FormErrors({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div className="form-errors" role="alert">
      {errors.map((e) => (
        <div key={e}>{e}</div>
      ))}
    </div>
  );
}

/** Messages about a group of fields (a fieldset), each an alert. */
export function GroupErrors({ messages }: { messages: string[] }) {
  return (
    <>
      {messages.map((m) => (
        <p key={m} className="error" role="alert">
          {m}
        </p>
      ))}
    </>
  );
}

/** A form's submit button (saying "Saving…" while busy) and its optional Cancel. */
export function FormActions({ busy, label, onCancel }: { busy?: boolean; label: string; onCancel?: () => void }) {
  return (
    <div className="actions">
      <button type="submit" className="btn primary" disabled={busy}>
        {busy ? "Saving…" : label}
      </button>
      {onCancel && (
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
