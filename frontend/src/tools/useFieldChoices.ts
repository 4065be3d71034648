// Parameters whose values name a stored document: their choices come from another API resource.
// Keyed by the parameter's name in the tool's params schema, so any tool with such a field gets the choices.
import { BUILTIN_PROFILE, profileNames, useProfiles } from "../api/profiles";
import type { ParamField } from "./schemaFields";

/** One choice of a select: the value sent and what the user reads. */
export interface Choice {
  value: string;
  label: string;
}

/** Which stored documents a parameter names, by parameter name. */
const STORED_DOCUMENTS: Record<string, "profiles"> = { profile: "profiles" };

/** Whether a field's value names a stored document (so it is edited as a select of them). */
export function hasStoredChoices(field: ParamField): boolean {
  return field.name in STORED_DOCUMENTS;
}

const shorten = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);

/**
 * The choices of a stored-document field (null for any other field), the current value kept even when
 * it is no longer stored so the API's message explains it. `error` is set when the list could not load.
 */
export function useFieldChoices(field: ParamField, current: string): { choices: Choice[] | null; error: boolean } {
  const wanted = STORED_DOCUMENTS[field.name] === "profiles";
  const profiles = useProfiles(wanted);
  if (!wanted) return { choices: null, error: false };
  const names = profileNames(profiles.data);
  const all = current && !names.includes(current) ? [...names, current] : names;
  const label = (n: string) => {
    if (n === BUILTIN_PROFILE) return `${n} (built-in)`;
    const p = profiles.data?.find((x) => x.name === n);
    if (!p) return profiles.data ? `${n} (not uploaded)` : n;
    return p.summary ? `${n} — ${shorten(p.summary)}` : n;
  };
  return { choices: all.map((n) => ({ value: n, label: label(n) })), error: profiles.isError };
}
