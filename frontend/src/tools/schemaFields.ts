// A tool's params JSON Schema (its pydantic Params model) → form fields, and form values ↔ API params.
// Form values are kept as typed (strings, booleans); what does not parse is sent as typed so the API's 422 names it.

/** The part of a JSON Schema property the mapper reads. */
export interface SchemaProp {
  type?: string;
  enum?: unknown[];
  anyOf?: SchemaProp[];
  items?: SchemaProp;
  title?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  maxLength?: number;
}

/** How a field is edited. */
export type FieldKind = "select" | "checkbox" | "number" | "list" | "text" | "multiline";

/** A string allowed to be longer than this is edited in a text area, its line breaks kept (a PEM bundle). */
export const MULTILINE_OVER = 4096;

/** One form field of a tool's parameters. */
export interface ParamField {
  name: string;
  kind: FieldKind;
  label: string;
  hint?: string;
  options?: string[];
  integer?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  nullable: boolean;
  required: boolean;
  default?: unknown;
}

/** A field's value in the form: text as typed, or a checkbox's state. */
export type ParamValue = string | boolean;
export type ParamValues = Record<string, ParamValue>;

interface ObjectSchema {
  properties?: Record<string, SchemaProp>;
  required?: string[];
}

/** The non-null branch of an `anyOf` (pydantic's `X | None`), and whether null is allowed. */
function unwrapNullable(prop: SchemaProp): [SchemaProp, boolean] {
  if (!prop.anyOf) return [prop, false];
  const branches = prop.anyOf.filter((b) => b.type !== "null");
  const nullable = branches.length < prop.anyOf.length;
  return [{ ...(branches[0] ?? {}), ...prop, anyOf: undefined, type: branches[0]?.type }, nullable];
}

function kindOf(p: SchemaProp): FieldKind {
  if (Array.isArray(p.enum)) return "select";
  if (p.type === "boolean") return "checkbox";
  if (p.type === "integer" || p.type === "number") return "number";
  if (p.type === "array") return "list";
  return (p.maxLength ?? 0) > MULTILINE_OVER ? "multiline" : "text";
}

function rangeHint(min: number | undefined, max: number | undefined): string | undefined {
  if (min != null && max != null) return `${min} … ${max}`;
  if (min != null) return `≥ ${min}`;
  if (max != null) return `≤ ${max}`;
  return undefined;
}

/** The form fields of a params schema, in the schema's order: enum → select, boolean → checkbox,
 * integer/number → numeric input with the schema's bounds, array → one item per line, a long string → a text area,
 * anything else → text. */
export function fieldsOf(schema: unknown): ParamField[] {
  const s = (schema ?? {}) as ObjectSchema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, raw]) => {
    const [p, nullable] = unwrapNullable(raw);
    const kind = kindOf(p);
    const min = p.minimum ?? p.exclusiveMinimum;
    const max = p.maximum ?? p.exclusiveMaximum;
    const range = kind === "number" ? rangeHint(min, max) : undefined;
    const parts = [p.description, kind === "list" ? "one per line" : undefined, range, nullable && kind !== "checkbox" ? "empty = default" : undefined];
    return {
      name,
      kind,
      label: p.title ?? name,
      hint: parts.filter(Boolean).join("; ") || undefined,
      options: kind === "select" ? p.enum!.map(String) : undefined,
      integer: p.type === "integer" || undefined,
      min,
      max,
      maxLength: p.maxLength,
      nullable,
      required: required.has(name),
      default: p.default,
    };
  });
}

/** A value from the API (or a schema default) as the form holds it. */
function toForm(field: ParamField, v: unknown): ParamValue {
  if (field.kind === "checkbox") return v === true;
  if (v == null) return "";
  if (Array.isArray(v)) return v.map(String).join("\n");
  return String(v);
}

/** The form values of a tool's defaults. */
export function defaultParams(fields: readonly ParamField[]): ParamValues {
  return Object.fromEntries(fields.map((f) => [f.name, toForm(f, f.default)]));
}

/** API params (a stored plan's, a template's) → form values; the defaults fill what is absent. */
export function paramsFromApi(fields: readonly ParamField[], raw: Record<string, unknown> | null | undefined): ParamValues {
  const out = defaultParams(fields);
  for (const [k, v] of Object.entries(raw ?? {})) {
    const field = fields.find((f) => f.name === k);
    out[k] = field ? toForm(field, v) : typeof v === "boolean" ? v : v == null ? "" : String(v);
  }
  return out;
}

/** "1,204.5" stays a string (the API names it); "" is absent; a number parses. */
export function num(s: string): number | string | undefined {
  const t = s.trim().replace(/_/g, "");
  if (t === "") return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

function toApi(field: ParamField, v: ParamValue): unknown {
  if (typeof v === "boolean") return v;
  switch (field.kind) {
    case "number":
      return num(v);
    case "list": {
      const items = v.split(/\n/).map((x) => x.trim()).filter(Boolean);
      return items.length ? items : undefined;
    }
    default: {
      const t = v.trim();
      // an empty optional value falls back to the tool's default; an empty required one goes out for the API to name
      return t === "" && !field.required ? undefined : t;
    }
  }
}

/** Form values → the API's params: the fields the schema knows, typed as it says; empty optional ones left out. */
export function paramsToApi(fields: readonly ParamField[], values: ParamValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f.name in values)) continue;
    const v = toApi(f, values[f.name]);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}
