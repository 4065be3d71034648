// The plan editor's form state: strings as the user typed them, turned into a plan body for the API.
// Anything that does not parse is sent as typed, so the API's 422 names the field.
// What each tool takes (its params, whether it takes a rate, ramps) comes from GET /tools, the lab's actions from GET /lab.
import type { components as Components } from "../../api/schema";
import type { PhaseKind, PlanBody } from "../../api/types";
import type { FieldErrors } from "../../api/errors";
import { findTool, monitorTools, sloMetricsOf, type ToolInfo } from "../../tools/catalog";
import { defaultParams, fieldsOf, num, paramsFromApi, paramsToApi, type ParamValues } from "../../tools/schemaFields";
import { EXPORTER_FIELD, namesExporter } from "../../tools/targetExporters";

export { num };

export type RateMode = "none" | "single" | "list" | "range" | "derived";

/** What an earlier phase found that a derived rate is a fraction of (the API's Found.of). */
export type FoundFigure = Components["schemas"]["Found"]["of"];
export const FOUND_FIGURES: FoundFigure[] = ["capacity", "knee", "ceiling"];

export interface PhaseDraft {
  key: string;
  kind: PhaseKind;
  concurrency: string; // an integer, or a comma list for scalability/custom
  rateMode: RateMode;
  rate: string; // a number, or a comma list
  rateStart: string;
  rateStop: string;
  rateStep: string;
  unitRate: string;
  maxConcurrency: string;
  stopErrorPct: string;
  duration: string;
  label: string;
  // a search phase: the load range, the resolution and its criteria
  low: string;
  high: string;
  resolutionPct: string;
  criteria: CriterionDraft[];
  timeBudget: string; // seconds; empty = none
  // a derived rate (rateMode "derived", and a fractions phase): what an earlier phase found, by its label
  fromPhase: string;
  fromFigure: FoundFigure;
  fromCriterion: string; // a search's criterion, counted from 1
  fraction: string; // one fraction (derived rate), or a comma list (a fractions phase)
  fromWhy?: string; // the plan's reason for that figure and fraction (said with the rate in the report)
  /** The phase's keys the form does not edit (its point events, its agents), sent back as they came. */
  kept?: Record<string, unknown>;
}

/** A phase's keys the form edits; every other key (events, agents) is kept as it came. */
const PHASE_EDITED = new Set(["kind", "concurrency", "rate", "unit_rate", "duration_s", "label", "max_concurrency", "stop_error_pct",
  "low", "high", "resolution_pct", "time_budget_s", "criteria", "found", "fractions"]);

/** One criterion of a search: a metric and its limit as typed. */
export interface CriterionDraft {
  key: string;
  metric: SearchMetric;
  limit: string;
}

type SearchMetric = Components["schemas"]["SearchCriterion"]["metric"];
/** What a search criterion may limit (the API's SearchCriterion.metric; tsc fails here when the API adds one). */
export const SEARCH_METRICS = ["latency_p99_ms", "latency_p999_ms", "latency_p90_ms", "latency_p50_ms", "latency_avg_ms", "loss_pct", "efficiency_pct"] as const satisfies readonly SearchMetric[];
type Missing = Exclude<SearchMetric, (typeof SEARCH_METRICS)[number]>;
const _allMetrics: Missing extends never ? true : Missing = true;
void _allMetrics;

/** The criteria a tool can be searched on: the latencies it measures, loss and efficiency. */
export function searchMetricsFor(tool: ToolInfo | undefined): SearchMetric[] {
  const measured = new Set((tool?.metrics ?? []).map((m) => m.name));
  return SEARCH_METRICS.filter((m) => !tool || m === "loss_pct" || m === "efficiency_pct" || measured.has(m));
}

/** A new criterion row: p99 ≤ 10 ms when the tool measures it, else loss ≤ 1 %. */
export function blankCriterion(tool: ToolInfo | undefined): CriterionDraft {
  const metric = searchMetricsFor(tool)[0];
  return { key: newKey(), metric, limit: metric === "loss_pct" ? "1" : metric === "efficiency_pct" ? "95" : "10" };
}

/** A monitor beside every point: the monitor's name and its own parameters as typed. */
export interface MonitorDraft {
  kind: string;
  params: ParamValues;
}

export interface PlanDraft {
  name: string;
  tool: string;
  targetId: string;
  params: ParamValues;
  phases: PhaseDraft[];
  pause: string;
  repeat: string;
  /** The capacity's latency target: the metric ("" = p99 when measured, else the mean) and its limit in ms. */
  sloMetric: string;
  sloLimit: string;
  tags: string;
  monitors: MonitorDraft[];
  variants: VariantDraft[];
  /** A derived rate: each variant and repetition resolves its own ("own"), or all take the reference's ("reference"). */
  derive?: DeriveMode;
  /** The plan's settings this form does not edit (agents, cpu_profile, margin_pct…), sent back as they came. */
  kept?: Record<string, unknown>;
}

/** A plan's keys the form edits (or the server sets); every other key is kept as it came. */
const EDITED = new Set(["name", "tool", "target_id", "params", "phases", "pause_s", "repeat", "slo", "tags", "monitors", "variants", "derive",
  "id", "created_at", "updated_at", "baseline_campaign_id", "profile_document"]);

/** Whose finding a derived rate is a fraction of, when there are variants or repetitions (the API's plan.derive). */
export type DeriveMode = "own" | "reference";

/** Whether any phase's load is derived from an earlier phase (a derived rate, or a fractions phase). */
export function hasDerivedLoad(d: PlanDraft): boolean {
  return d.phases.some((p) => p.kind === "fractions" || p.rateMode === "derived");
}

/** The SLO a plan gets when it names none (the API's `slo` default): shown in the editor, never applied silently. */
export const DEFAULT_SLO_LIMIT_MS = "3";

// --- variants: settings applied by the lab's registered actions (never a free-text action name) ---

/** A registered lab action a variant may set, as GET /api/v1/lab lists it: its type (int, bool, enum), range, choices, default. */
export type LabAction = Components["schemas"]["LabAction"];

/** How a setting's value is sent: an integer (text that is not one goes as typed, for the API's 422), on/off, or a name as is. */
export type SettingKind = "int" | "bool" | "name";

export interface SettingDraft {
  key: string;
  action: string; // an action the API lists (or a name a loaded plan already had)
  kind: SettingKind;
  value: string; // an integer as typed, "on" / "off", or an enum's name
}

export interface VariantDraft {
  key: string;
  label: string;
  settings: SettingDraft[];
  /** The tool parameters the variant changes over the plan's (e.g. dnsperf's mode and port), kept as loaded. */
  params?: Record<string, unknown>;
}

/** A listed lab action by name. */
export const actionOf = (actions: readonly LabAction[], name: string): LabAction | undefined => actions.find((a) => a.name === name);

/** How a value of the action is sent. */
export const kindOf = (a: LabAction): SettingKind => (a.type === "bool" ? "bool" : a.type === "int" ? "int" : "name");

/** A value as the form holds it: on/off for a boolean, "" for none. */
const valueText = (v: unknown): string => (typeof v === "boolean" ? (v ? "on" : "off") : v == null ? "" : String(v));

/** A switch's values as the form holds them. */
export const SWITCH_VALUES: readonly string[] = ["on", "off"];

/** The values a switch or an enum takes, its default first when it has one (none for an int). */
export function valuesOf(a: LabAction): string[] {
  const values = a.type === "bool" ? SWITCH_VALUES : (a.choices ?? []);
  const start = Math.max(0, values.indexOf(valueText(a.default)));
  return [...values.slice(start), ...values.slice(0, start)];
}

/** The action's n-th value (from 0): its default or lowest count first, then the next (an int up to its maximum, the others in turn). */
export function nthValue(a: LabAction, n: number): string {
  if (a.type === "int") {
    const next = (typeof a.default === "number" ? a.default : (a.min ?? 1)) + n;
    return String(a.max == null ? next : Math.min(next, a.max));
  }
  const values = valuesOf(a);
  return values.length ? values[n % values.length] : valueText(a.default);
}

/** A new setting of the action, at its default (an int at its lowest, a switch on when it has no default). */
export function blankSetting(a: LabAction): SettingDraft {
  return { key: newKey(), action: a.name, kind: kindOf(a), value: nthValue(a, 0) };
}

/** A new variant row: the first listed action at its next value (a queue count 1, 2, … up to its maximum), none when the lab lists none. */
export function blankVariant(existing: readonly VariantDraft[], actions: readonly LabAction[]): VariantDraft {
  const n = existing.length;
  const a = actions[0];
  if (!a) return { key: newKey(), label: `variant ${n + 1}`, settings: [] };
  const setting = { ...blankSetting(a), value: nthValue(a, n) };
  return { key: newKey(), label: `${a.name}=${setting.value}`, settings: [setting] };
}

/** The next listed action a variant could add (undefined when it already sets them all). */
export function nextAction(v: VariantDraft, actions: readonly LabAction[]): LabAction | undefined {
  return actions.find((a) => !v.settings.some((s) => s.action === a.name));
}

function settingValueToApi(s: SettingDraft): unknown {
  if (s.kind === "bool") return s.value === "on";
  if (s.kind === "int") return num(s.value) ?? s.value;
  return s.value; // a name: num() would drop its underscores
}

/** A stored setting → the form: its kind from the value's JSON type (the API stores them normalized). */
function settingFromApi(action: string, v: unknown): SettingDraft {
  const kind: SettingKind = typeof v === "boolean" ? "bool" : typeof v === "number" ? "int" : "name";
  return { key: newKey(), action, kind, value: valueText(v) };
}

/** A variant of the form → the API's `{label, set}`. */
export function variantToApi(v: VariantDraft): { label: string; set: Record<string, unknown>; params?: Record<string, unknown> } {
  const set = Object.fromEntries(v.settings.map((s) => [s.action, settingValueToApi(s)]));
  return { label: v.label.trim(), set, ...(v.params && Object.keys(v.params).length ? { params: v.params } : {}) };
}

/** A variant from the API → the form. */
export function variantFromApi(v: unknown): VariantDraft {
  const o = (v ?? {}) as { label?: unknown; set?: Record<string, unknown>; params?: Record<string, unknown> };
  return {
    key: newKey(),
    label: o.label == null ? "" : String(o.label),
    settings: Object.entries(o.set ?? {}).map(([action, value]) => settingFromApi(action, value)),
    ...(o.params && Object.keys(o.params).length ? { params: o.params } : {}),
  };
}

export const PHASE_KINDS: PhaseKind[] = ["baseline", "scalability", "saturation", "stability", "custom", "ramp", "search", "fractions"];

/** Phase kinds a tool accepts: a stress ramp only where the tool allows it, a search where it takes a rate (the API refuses them elsewhere). */
export function phaseKindsFor(tool: ToolInfo | undefined): PhaseKind[] {
  return PHASE_KINDS.filter((k) => (k !== "ramp" || tool?.ramp_allowed) && ((k !== "search" && k !== "fractions") || (tool?.takes_rate ?? true)));
}

/** Rate modes a phase kind accepts; a closed-loop tool takes no rate. */
export function rateModesFor(kind: PhaseKind, tool: ToolInfo | undefined): RateMode[] {
  if (tool && !tool.takes_rate) return ["none"];
  switch (kind) {
    case "baseline":
      return ["none", "single"];
    case "stability":
      return ["none", "single", "derived"];
    case "saturation":
      return ["list", "range"];
    case "custom":
      return ["none", "single", "list", "range"];
    default:
      return ["none"];
  }
}

/** Whether a phase kind takes a list of concurrencies. */
export const concurrencyIsList = (kind: PhaseKind) => kind === "scalability" || kind === "custom";

/** A tool's parameter defaults as the form holds them (from its params schema). */
export function defaultParamsOf(tool: ToolInfo | undefined): ParamValues {
  return tool ? defaultParams(fieldsOf(tool.params_schema)) : {};
}

let keySeq = 0;
/** A fresh React key for a form row. */
export const newKey = () => `p${++keySeq}`;

/** A new phase of a kind, with defaults that suit the tool. */
export function blankPhase(kind: PhaseKind, tool: ToolInfo | undefined): PhaseDraft {
  const modes = rateModesFor(kind, tool);
  // a unit rate per client suits open-loop tools whose rate is not already per unit of concurrency
  const unitRate = tool && (!tool.takes_rate || tool.rate_per_concurrency) ? "" : "2500";
  const defaults: Record<PhaseKind, Partial<PhaseDraft>> = {
    baseline: { concurrency: "1", rate: "500", duration: "30" },
    scalability: { concurrency: "1, 2, 4, 8", unitRate, duration: "20" },
    saturation: { concurrency: "20", rateStart: "2000", rateStop: "20000", rateStep: "2000", duration: "20" },
    stability: { concurrency: "100", rate: "11000", duration: "60" },
    custom: { concurrency: "1, 2", duration: "20" },
    ramp: { concurrency: "10", maxConcurrency: "10000", stopErrorPct: "10", duration: "20" },
    search: { concurrency: "64", low: "100", high: "10000", resolutionPct: "1", duration: "8", criteria: [blankCriterion(tool)] },
    fractions: { concurrency: "20", fromFigure: "capacity", fraction: "0.1, 0.5, 0.9", duration: "20" },
  };
  const mode: RateMode = kind === "saturation" ? "range" : modes.includes("single") ? "single" : modes[0];
  return {
    key: newKey(),
    kind,
    concurrency: "",
    rateMode: mode,
    rate: "",
    rateStart: "",
    rateStop: "",
    rateStep: "",
    unitRate: "",
    maxConcurrency: "",
    stopErrorPct: "",
    duration: "",
    label: "",
    low: "",
    high: "",
    resolutionPct: "",
    criteria: [],
    timeBudget: "",
    fromPhase: "",
    fromFigure: "knee",
    fromCriterion: "1",
    fraction: "0.8",
    ...defaults[kind],
  };
}

/** A blank plan for a tool: one baseline phase, the tool's default parameters. */
export function blankDraft(tool: ToolInfo): PlanDraft {
  return {
    name: "",
    tool: tool.name,
    targetId: "",
    params: defaultParamsOf(tool),
    phases: [blankPhase("baseline", tool)],
    pause: "3",
    repeat: "1",
    sloMetric: "",
    sloLimit: DEFAULT_SLO_LIMIT_MS,
    tags: "",
    monitors: [],
    variants: [],
  };
}

const str = (v: unknown) => (v == null ? "" : String(v));
const listStr = (v: unknown) => (Array.isArray(v) ? v.join(", ") : str(v));

/** A tool's params (or a monitor's) from the API → form values, typed by its schema. */
function paramsOf(tools: readonly ToolInfo[], name: string, raw: unknown): ParamValues {
  return paramsFromApi(fieldsOf(findTool(tools, name)?.params_schema), (raw ?? {}) as Record<string, unknown>);
}

/** A plan as the API gives it (stored, template or frozen) → the form; `tools` is GET /tools. */
export function draftFromPlan(plan: Record<string, unknown>, tools: readonly ToolInfo[]): PlanDraft {
  const name = str(plan.tool);
  const tool = findTool(tools, name);
  const monitors = ((plan.monitors as Record<string, unknown>[]) ?? []).map(({ kind, ...rest }) => ({ kind: str(kind), params: paramsOf(tools, str(kind), rest) }));
  const phases = ((plan.phases as Record<string, unknown>[]) ?? []).map((ph) => phaseFromApi(ph, tool));
  return {
    name: str(plan.name),
    tool: name,
    targetId: str(plan.target_id),
    params: paramsOf(tools, name, plan.params),
    phases: phases.length ? phases : [blankPhase("baseline", tool)],
    pause: str(plan.pause_s ?? 3),
    repeat: str(plan.repeat ?? 1),
    sloMetric: str((plan.slo as { metric?: string } | undefined)?.metric),
    sloLimit: str((plan.slo as { limit_ms?: number } | undefined)?.limit_ms ?? DEFAULT_SLO_LIMIT_MS),
    tags: Array.isArray(plan.tags) ? (plan.tags as string[]).join(", ") : "",
    monitors,
    variants: Array.isArray(plan.variants) ? (plan.variants as unknown[]).map(variantFromApi) : [],
    derive: plan.derive === "reference" ? "reference" : "own",
    kept: Object.fromEntries(Object.entries(plan).filter(([k, v]) => !EDITED.has(k) && v != null)),
  };
}

function phaseFromApi(ph: Record<string, unknown>, tool: ToolInfo | undefined): PhaseDraft {
  const kind = ph.kind as PhaseKind;
  const d = { ...blankPhase(kind, tool), concurrency: "", rate: "", rateStart: "", rateStop: "", rateStep: "", unitRate: "", duration: "", maxConcurrency: "", stopErrorPct: "" };
  d.concurrency = listStr(ph.concurrency);
  d.duration = str(ph.duration_s);
  d.label = str(ph.label);
  d.unitRate = str(ph.unit_rate);
  d.maxConcurrency = str(ph.max_concurrency);
  d.stopErrorPct = str(ph.stop_error_pct);
  const kept = Object.entries(ph).filter(([k, v]) => !PHASE_EDITED.has(k) && v != null);
  if (kept.length) d.kept = Object.fromEntries(kept);
  if (kind === "search") {
    d.low = str(ph.low);
    d.high = str(ph.high);
    d.resolutionPct = str(ph.resolution_pct);
    d.timeBudget = str(ph.time_budget_s);
    d.criteria = ((ph.criteria as { metric: SearchMetric; limit: unknown }[]) ?? []).map((c) => ({ key: newKey(), metric: c.metric, limit: str(c.limit) }));
  }
  const found = (kind === "fractions" ? ph.found : ph.rate) as { phase?: string; of?: FoundFigure; criterion?: number; fraction?: number; why?: string | null } | null;
  if (found && typeof found === "object" && (kind === "fractions" || "fraction" in found)) {
    d.fromPhase = str(found.phase);
    d.fromFigure = found.of ?? "knee";
    d.fromCriterion = str((found.criterion ?? 0) + 1);
    d.fromWhy = str(found.why);
    d.fraction = kind === "fractions" ? listStr(ph.fractions ?? [0.1, 0.5, 0.9]) : str(found.fraction);
    d.rateMode = "derived";
    return d;
  }
  const rate = ph.rate;
  if (rate == null) d.rateMode = "none";
  else if (Array.isArray(rate)) {
    d.rateMode = "list";
    d.rate = rate.join(", ");
  } else if (typeof rate === "object") {
    const r = rate as { start?: number; stop?: number; step?: number };
    d.rateMode = "range";
    d.rateStart = str(r.start);
    d.rateStop = str(r.stop);
    d.rateStep = str(r.step);
  } else {
    d.rateMode = "single";
    d.rate = str(rate);
  }
  return d;
}

/** "1, 2, 4" → [1, 2, 4]; non-numbers are kept for the API to refuse. */
export function numList(s: string): (number | string)[] {
  return s
    .split(/[\s,;]+/)
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => num(x) as number | string);
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A phase of the form → the API's phase. */
export function phaseToApi(p: PhaseDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { ...p.kept, kind: p.kind, duration_s: num(p.duration) };
  if (p.label.trim()) out.label = p.label.trim();
  if (concurrencyIsList(p.kind)) {
    const list = numList(p.concurrency);
    out.concurrency = p.kind === "custom" && list.length === 1 ? list[0] : list;
  } else out.concurrency = num(p.concurrency);
  if (p.kind === "scalability") out.unit_rate = num(p.unitRate);
  if (p.kind === "ramp") {
    out.max_concurrency = num(p.maxConcurrency);
    out.stop_error_pct = num(p.stopErrorPct);
  }
  if (p.kind === "search") {
    out.low = num(p.low);
    out.high = num(p.high);
    out.resolution_pct = num(p.resolutionPct);
    out.time_budget_s = num(p.timeBudget);
    out.criteria = p.criteria.map((c) => ({ metric: c.metric, limit: num(c.limit) }));
    return dropUndefined(out);
  }
  const found = () => dropUndefined({ phase: p.fromPhase.trim(), of: p.fromFigure, criterion: p.fromFigure === "capacity" ? criterionIndex(p.fromCriterion) : undefined, why: p.fromWhy?.trim() || undefined });
  if (p.kind === "fractions") {
    out.found = found();
    out.fractions = numList(p.fraction);
    return dropUndefined(out);
  }
  if (p.kind !== "scalability" && p.kind !== "ramp") {
    if (p.rateMode === "derived") out.rate = { ...found(), fraction: num(p.fraction) };
    else if (p.rateMode === "single") out.rate = num(p.rate);
    else if (p.rateMode === "list") out.rate = numList(p.rate);
    else if (p.rateMode === "range") out.rate = dropUndefined({ start: num(p.rateStart), stop: num(p.rateStop), step: num(p.rateStep) });
  }
  return dropUndefined(out);
}

/** A criterion as typed (counted from 1) → its index; text that is not a number goes as typed for the API's 422. */
function criterionIndex(typed: string): number | string | undefined {
  const n = num(typed);
  return typeof n === "number" ? n - 1 : n;
}

/** A tool's (or a monitor's) form values → its API params, typed by its schema. */
function paramsFor(tools: readonly ToolInfo[], name: string, values: ParamValues): Record<string, unknown> {
  return paramsToApi(fieldsOf(findTool(tools, name)?.params_schema), values);
}

/** The form → a plan body for /plans/preview, POST /plans and PUT /plans/{id}; `tools` is GET /tools. */
export function draftToBody(d: PlanDraft, tools: readonly ToolInfo[]): PlanBody {
  // a required monitor field left empty (ping's host) is sent as is: the API's 422 names it
  const monitors = d.monitors.map((m) => ({ kind: m.kind, ...paramsFor(tools, m.kind, m.params) }));
  const body: Record<string, unknown> = {
    ...d.kept,
    name: d.name,
    tool: d.tool,
    target_id: num(d.targetId),
    params: paramsFor(tools, d.tool, d.params),
    phases: d.phases.map(phaseToApi),
    pause_s: num(d.pause),
    repeat: num(d.repeat),
    slo: dropUndefined({ metric: d.sloMetric || null, limit_ms: num(d.sloLimit) }),
    tags: d.tags.split(/[\s,]+/).filter(Boolean),
    monitors,
  };
  if (d.variants.length) body.variants = d.variants.map(variantToApi);
  if (d.derive === "reference") body.derive = "reference";
  return dropUndefined(body) as unknown as PlanBody;
}

/** Switch tool: reset params and drop rates/kinds the new tool does not take. */
export function withTool(d: PlanDraft, tool: ToolInfo): PlanDraft {
  const kinds = phaseKindsFor(tool);
  return {
    ...d,
    tool: tool.name,
    params: defaultParamsOf(tool),
    sloMetric: sloMetricsOf(tool).some((m) => m.name === d.sloMetric) ? d.sloMetric : "",
    phases: d.phases
      .filter((p) => kinds.includes(p.kind))
      .map((p) => {
        const modes = rateModesFor(p.kind, tool);
        return modes.includes(p.rateMode) ? p : { ...p, rateMode: modes[0] };
      }),
  };
}

/** Tick or untick a monitor; a ticked one starts with its default parameters. */
export function withMonitor(monitors: MonitorDraft[], tool: ToolInfo, on: boolean): MonitorDraft[] {
  const has = monitors.some((m) => m.kind === tool.name);
  if (on === has) return monitors;
  return on ? [...monitors, { kind: tool.name, params: defaultParamsOf(tool) }] : monitors.filter((m) => m.kind !== tool.name);
}

const isExporter = (m: MonitorDraft, tool: ToolInfo, name: string) => m.kind === tool.name && m.params[EXPORTER_FIELD] === name;

/** Tick or untick one of the target's exporters: each ticked one is a monitor of its own naming it, with the monitor's defaults. */
export function withExporter(monitors: MonitorDraft[], tool: ToolInfo, name: string, on: boolean): MonitorDraft[] {
  const has = monitors.some((m) => isExporter(m, tool, name));
  if (on === has) return monitors;
  return on ? [...monitors, { kind: tool.name, params: { ...defaultParamsOf(tool), [EXPORTER_FIELD]: name } }] : monitors.filter((m) => !isExporter(m, tool, name));
}

/**
 * Every exporter of the plan's target ticked, as a load tool's plan starts when it picks its target: an exporter already
 * ticked keeps its parameters, one the target does not list (another target's) is dropped.
 */
export function withTargetExporters(monitors: MonitorDraft[], tools: readonly ToolInfo[], exporters: readonly { name: string }[]): MonitorDraft[] {
  const tool = monitorTools(tools).find(namesExporter);
  if (!tool) return monitors;
  const names = exporters.map((e) => e.name);
  const kept = monitors.filter((m) => m.kind !== tool.name || names.includes(String(m.params[EXPORTER_FIELD])));
  return names.reduce((all, name) => withExporter(all, tool, name, true), kept);
}

/** Move a phase from one place to another (out-of-range moves change nothing). */
export function movePhase(phases: PhaseDraft[], from: number, to: number): PhaseDraft[] {
  if (to < 0 || to >= phases.length || from === to) return phases;
  const next = phases.slice();
  const [p] = next.splice(from, 1);
  next.splice(to, 0, p);
  return next;
}

/** The phase fields that hold numbers, as the API names them. */
const PHASE_NUMBERS = ["duration_s", "concurrency", "unit_rate", "max_concurrency", "stop_error_pct", "rate", "low", "high", "resolution_pct"] as const;

/** Whether a phase's rate is derived from an earlier phase ({phase, of, fraction}) rather than numbers. */
const isDerived = (rate: unknown): boolean => !!rate && typeof rate === "object" && !Array.isArray(rate) && "fraction" in rate;

/** Whether `v` (a number, a list of them or a start/stop/step range) still holds text that is not a number. */
const holdsText = (v: unknown): boolean =>
  typeof v === "string" || (Array.isArray(v) && v.some(holdsText)) || (!!v && typeof v === "object" && Object.values(v).some(holdsText));

/**
 * What keeps a draft from being previewed, by field path (empty when it can be): no tool, no target, no phase, a phase
 * without duration or concurrency, a required parameter left empty, text in a number field. Only a complete draft is sent
 * to /plans/preview; numbers out of range still go, and the API's 422 names them beside their field.
 */
export function draftGaps(d: PlanDraft, tools: readonly ToolInfo[]): FieldErrors {
  const gaps: FieldErrors = {};
  const add = (path: string, msg: string) => (gaps[path] ??= []).push(msg);
  const tool = findTool(tools, d.tool);
  if (!tool) add("tool", "choose a tool");
  if (typeof num(d.targetId) !== "number") add("target_id", "choose a target");
  if (d.phases.length === 0) add("phases", "add a phase");
  d.phases.map(phaseToApi).forEach((p, i) => {
    if (p.duration_s === undefined) add(`phases.${i}.duration_s`, "required");
    if (p.concurrency === undefined || (Array.isArray(p.concurrency) && p.concurrency.length === 0)) add(`phases.${i}.concurrency`, "required");
    for (const k of PHASE_NUMBERS) if (k !== "rate" || !isDerived(p.rate)) if (holdsText(p[k])) add(`phases.${i}.${k}`, "not a number");
    const derived = (isDerived(p.rate) ? p.rate : p.found) as Record<string, unknown> | undefined;
    if (derived) {
      const at = isDerived(p.rate) ? "rate" : "found";
      if (!derived.phase) add(`phases.${i}.${at}.phase`, "name the earlier phase (its label)");
      for (const k of ["criterion", "fraction"]) if (holdsText(derived[k])) add(`phases.${i}.${at}.${k}`, "not a number");
      if (holdsText(p.fractions)) add(`phases.${i}.fractions`, "not a number");
    }
    ((p.criteria as { limit: unknown }[]) ?? []).forEach((c, j) => holdsText(c.limit) && add(`phases.${i}.criteria.${j}.limit`, "not a number"));
  });
  for (const f of fieldsOf(tool?.params_schema)) {
    const v = d.params[f.name];
    if (f.required && (v === undefined || v === "")) add(`params.${f.name}`, "required");
    else if (f.kind === "number" && typeof v === "string" && typeof num(v) === "string") add(`params.${f.name}`, "not a number");
  }
  return gaps;
}
