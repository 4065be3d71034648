// Map FastAPI 422 errors to the form fields they name.
//
// A plan body's loc looks like ["body", "dnsperf", "phases", 1, "concurrency", 0]; older or
// non-discriminated responses name the union member instead ("function-after[_no_ramp(), DnsperfPlan]")
// and may add the phase kind after the index (["phases", 0, "baseline", "duration_s"]).
// Plan-level checks come back as loc ["body", "dnsperf"] with "Value error, phases[1].rate: …".
import { ApiError } from "./client";

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** Field path (dot-joined, "" for the whole form) → messages. */
export type FieldErrors = Record<string, string[]>;

const TOOL_NAMES = ["dnsperf", "wrk", "iperf3", "devsim"];
const PHASE_KINDS = ["baseline", "scalability", "saturation", "stability", "custom", "ramp"];
const MONITOR_KINDS = ["mpstat", "ping"];

function toolOfSegment(seg: string): string | null {
  if (TOOL_NAMES.includes(seg)) return seg;
  const m = /\b(Dnsperf|Wrk|Iperf3|Devsim)Plan(Out)?\b/.exec(seg);
  return m ? m[1].toLowerCase() : null;
}

/**
 * The dot path a loc names, or null when it belongs to another union member (another tool).
 * `tool` is the plan's tool for plan bodies, undefined for other bodies.
 */
export function locToPath(loc: (string | number)[], tool?: string): string | null {
  let rest = [...loc];
  if (rest[0] === "body" || rest[0] === "query" || rest[0] === "path") rest = rest.slice(1);
  if (tool !== undefined && typeof rest[0] === "string") {
    const t = toolOfSegment(rest[0]);
    if (t) {
      if (t !== tool) return null;
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
    if (typeof prev === "number" && parent === "monitors" && MONITOR_KINDS.includes(seg)) continue;
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

function cleanMsg(msg: string): string {
  return msg.replace(/^Value error, /, "");
}

/** Group a 422's detail by field path, keeping only the errors of `tool` when it is given. */
export function mapValidationErrors(detail: unknown, tool?: string): FieldErrors {
  const out: FieldErrors = {};
  if (typeof detail === "string") return { "": [detail] };
  if (!Array.isArray(detail)) return {};
  const add = (path: string, msg: string) => {
    const list = (out[path] ??= []);
    if (!list.includes(msg)) list.push(msg);
  };
  const items = detail.filter((d): d is ValidationItem => !!d && typeof d === "object" && Array.isArray(d.loc));
  let kept = items.map((d) => [d, locToPath(d.loc, tool)] as const).filter(([, p]) => p !== null);
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
export function errorsOf(err: unknown, tool?: string): FieldErrors {
  if (!err) return {};
  if (err instanceof ApiError) {
    if (err.status === 422) {
      const mapped = mapValidationErrors(err.detail, tool);
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
