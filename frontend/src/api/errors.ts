// Map FastAPI 422 errors to the form fields they name.
//
// A plan body's loc looks like ["body", <tool>, "phases", 1, "concurrency", 0]; older or
// non-discriminated responses name the union member instead ("function-after[_no_ramp(), <Tool>Plan]")
// and may add the phase kind after the index (["phases", 0, "baseline", "duration_s"]) or the
// monitor's name (["monitors", 1, <monitor>, "host"]).
// Plan-level checks come back as loc ["body", <tool>] with "Value error, phases[1].rate: …".
// The tool and monitor names come from GET /tools (`PlanErrorContext.names`): nothing here names a tool.
import { ApiError } from "./client";

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** Field path (dot-joined, "" for the whole form) → messages. */
export type FieldErrors = Record<string, string[]>;

/** What a plan body's errors are read against: the plan's tool, and the names of every registered tool and monitor. */
export interface PlanErrorContext {
  tool: string;
  names: readonly string[];
}

const PHASE_KINDS = ["baseline", "scalability", "saturation", "stability", "custom", "ramp"];

/** The tool a loc's first segment names: its discriminator tag, or a union member such as "WrkPlanOut". */
function toolOfSegment(seg: string, names: readonly string[]): string | null {
  if (names.includes(seg)) return seg;
  const m = /\b([A-Z][A-Za-z0-9]*)Plan(Out)?\b/.exec(seg);
  return m ? m[1].toLowerCase() : null;
}

/**
 * The dot path a loc names, or null when it belongs to another union member (another tool).
 * `plan` is given for plan bodies, undefined for other bodies.
 */
export function locToPath(loc: (string | number)[], plan?: PlanErrorContext): string | null {
  let rest = [...loc];
  if (rest[0] === "body" || rest[0] === "query" || rest[0] === "path") rest = rest.slice(1);
  if (plan !== undefined && typeof rest[0] === "string") {
    const t = toolOfSegment(rest[0], plan.names);
    if (t) {
      if (t !== plan.tool.toLowerCase()) return null;
      rest = rest.slice(1);
    }
  }
  const out: (string | number)[] = [];
  for (let i = 0; i < rest.length; i++) {
    const seg = rest[i];
    if (typeof seg === "number") {
      out.push(seg);
      continue;
    }
    const prev = out[out.length - 1];
    const parent = out[out.length - 2];
    // the discriminator tag pydantic inserts after a list index
    if (typeof prev === "number" && parent === "phases" && PHASE_KINDS.includes(seg)) continue;
    if (typeof prev === "number" && parent === "monitors" && plan?.names.includes(seg)) continue;
    // union member tags such as "list[constrained-float]", "RateRange", "function-after[…]"
    if (!/^[a-z_][a-z0-9_]*$/.test(seg)) continue;
    out.push(seg);
  }
  return out.join(".");
}

/** "Value error, phases[1].rate: wrk is closed-loop…" → ["phases.1.rate", "wrk is closed-loop…"]. */
function splitValueError(msg: string): [string, string] | null {
  const m = /^(?:Value error, )?([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*): (.+)$/s.exec(msg);
  if (!m) return null;
  const path = m[1].replace(/\[(\d+)\]/g, ".$1");
  return [path, m[2]];
}

/** A message without pydantic's "Value error, " prefix. */
function cleanMsg(msg: string): string {
  return msg.replace(/^Value error, /, "");
}

/** Group a 422's detail by field path, keeping only the errors of the plan's tool when `plan` is given. */
export function mapValidationErrors(detail: unknown, plan?: PlanErrorContext): FieldErrors {
  const out: FieldErrors = {};
  if (typeof detail === "string") return { "": [detail] };
  if (!Array.isArray(detail)) return {};
  const add = (path: string, msg: string) => {
    const list = (out[path] ??= []);
    if (!list.includes(msg)) list.push(msg);
  };
  const items = detail.filter((d): d is ValidationItem => !!d && typeof d === "object" && Array.isArray(d.loc));
  let kept = items.map((d) => [d, locToPath(d.loc, plan)] as const).filter(([, p]) => p !== null);
  // if nothing names this tool (e.g. the tool itself is missing), show everything rather than nothing
  if (kept.length === 0 && items.length > 0) kept = items.map((d) => [d, locToPath(d.loc)] as const);
  for (const [d, p] of kept) {
    let path = p ?? "";
    let msg = cleanMsg(String(d.msg));
    const split = splitValueError(String(d.msg));
    if (split && (path === "" || split[0].startsWith(path))) [path, msg] = split;
    add(path, msg);
  }
  return out;
}

/** FieldErrors from any thrown error: a 422 maps by field, anything else lands on "". */
export function errorsOf(err: unknown, plan?: PlanErrorContext): FieldErrors {
  if (!err) return {};
  if (err instanceof ApiError) {
    if (err.status === 422) {
      const mapped = mapValidationErrors(err.detail, plan);
      return Object.keys(mapped).length ? mapped : { "": [err.message] };
    }
    return { "": [err.message] };
  }
  return { "": [err instanceof Error ? err.message : String(err)] };
}

/** Messages for one field: its own, plus those of its items ("#2: …" for list entries). */
export function messagesFor(errors: FieldErrors, path: string, opts: { exact?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const [p, msgs] of Object.entries(errors)) {
    if (p === path) out.push(...msgs);
    else if (!opts.exact && p.startsWith(path + ".")) {
      const sub = p.slice(path.length + 1);
      const label = /^\d+$/.test(sub) ? `#${Number(sub) + 1}` : sub.replace(/\.(\d+)/g, (_, n) => ` #${Number(n) + 1}`);
      out.push(...msgs.map((m) => `${label}: ${m}`));
    }
  }
  return out;
}

/** A readable label for a path in the error summary. */
export function describePath(path: string): string {
  if (!path) return "plan";
  return path
    .split(".")
    .map((seg, i, all) => (/^\d+$/.test(seg) ? (all[i - 1] === "phases" ? `${Number(seg) + 1}` : `#${Number(seg) + 1}`) : seg.replace(/_/g, " ")))
    .join(" ")
    .replace(/^phases (\d+)/, "phase $1");
}
