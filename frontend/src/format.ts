// Numbers with their units, one place for the whole UI. Every measured figure is formatted by the
// unit its metric declares in GET /api/v1/tools ("qps", "ms", "%", "bit/s", "ratio", "count", …).

const DASH = "—";

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** 12345.6 → "12,346"; small values keep up to `digits` significant decimals. */
export function fmtNumber(v: number | null | undefined, digits = 2): string {
  if (!isNum(v)) return DASH;
  const abs = Math.abs(v);
  const maxFrac = abs >= 1000 ? 0 : abs >= 100 ? Math.min(1, digits) : abs >= 1 ? digits : Math.max(digits, 3);
  return v.toLocaleString("en-US", { maximumFractionDigits: maxFrac });
}

/** An integer count: "1,204". */
export function fmtCount(v: number | null | undefined): string {
  return isNum(v) ? Math.round(v).toLocaleString("en-US") : DASH;
}

const SI = [
  { f: 1e12, p: "T" },
  { f: 1e9, p: "G" },
  { f: 1e6, p: "M" },
  { f: 1e3, p: "k" },
];

/** Units written with an SI prefix ("1.25 Gbit/s") rather than in full ("16,319 qps"). */
const PREFIXED = new Set(["bit/s", "B", "B/s", "bytes"]);

/** Whether a unit is shown with an SI prefix: long raw numbers in it are worth saying back ("= 1.25 Gbit/s"). */
export function isPrefixedUnit(unit: string | null | undefined): boolean {
  return !!unit && PREFIXED.has(unit);
}

function trim(x: number): string {
  const abs = Math.abs(x);
  const d = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return Number(x.toFixed(d)).toLocaleString("en-US", { maximumFractionDigits: d });
}

function withPrefix(v: number, unit: string): string {
  const abs = Math.abs(v);
  for (const { f, p } of SI) if (abs >= f) return `${trim(v / f)} ${p}${unit}`;
  return `${trim(v)} ${unit}`;
}

/** A duration in milliseconds: "562 µs" below a millisecond, "6.04 ms", "1,204 ms". */
function fmtMillis(v: number): string {
  const abs = Math.abs(v);
  if (abs > 0 && abs < 1) return `${(v * 1000).toLocaleString("en-US", { maximumFractionDigits: abs < 0.01 ? 2 : 0 })} µs`;
  const d = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return `${v.toLocaleString("en-US", { maximumFractionDigits: d })} ms`;
}

/** A percentage given in percent: 0.45 → "0.45 %". */
function fmtPercent(v: number, digits = 2): string {
  const abs = Math.abs(v);
  const d = abs >= 100 ? 0 : abs >= 10 ? 1 : digits;
  return `${v.toLocaleString("en-US", { maximumFractionDigits: d })} %`;
}

/**
 * A value in a metric's unit: "16,319 qps", "9.41 Gbit/s", "562 µs", "0.45 %", ratio 0.816 → "81.6 %",
 * counts as integers, no unit → a plain number. Any other unit is written after the number.
 */
export function fmtUnit(v: number | null | undefined, unit: string | null | undefined): string {
  if (!isNum(v)) return DASH;
  if (isPrefixedUnit(unit)) return withPrefix(v, unit!);
  switch (unit) {
    case "ms":
      return fmtMillis(v);
    case "s":
      return fmtDuration(v);
    case "%":
    case "pct":
      return fmtPercent(v);
    case "ratio":
      return fmtPercent(v * 100, 1);
    case "count":
      return fmtCount(v);
    case "":
    case null:
    case undefined:
      return fmtNumber(v);
    default:
      return `${fmtNumber(v, 1)} ${unit}`;
  }
}

/**
 * An interval in a unit: "14,500–15,100 qps" when both ends share the unit's words, else "562 µs – 1.2 ms".
 * `beside` is the formatted value the interval stands next to: a unit they share is not said twice ("14,834 qps [14,500–15,100]").
 */
export function fmtRange(lo: number | null | undefined, hi: number | null | undefined, unit: string | null | undefined, beside?: string): string {
  if (!isNum(lo) || !isNum(hi)) return DASH;
  const split = (s: string): [string, string] => {
    const i = s.indexOf(" ");
    return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + 1)];
  };
  const a = fmtUnit(lo, unit);
  const b = fmtUnit(hi, unit);
  const [na, ua] = split(a);
  const [nb, ub] = split(b);
  if (ua !== ub) return `${a} – ${b}`;
  const omit = !ua || (beside != null && split(beside)[1] === ua);
  return omit ? `${na}–${nb}` : `${na}–${nb} ${ua}`;
}

/** An interval of a difference, signed: "−20, +30 µs", "+40, +160 qps" (the unit said once when both ends share it). */
export function fmtDiffRange(lo: number | null | undefined, hi: number | null | undefined, unit: string | null | undefined): string {
  if (!isNum(lo) || !isNum(hi)) return DASH;
  const signed = (v: number) => {
    const s = fmtUnit(Math.abs(v), unit);
    const i = s.indexOf(" ");
    const [n, u] = i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + 1)];
    return [`${v > 0 ? "+" : v < 0 ? "−" : ""}${n}`, u];
  };
  const [na, ua] = signed(lo);
  const [nb, ub] = signed(hi);
  if (ua === ub) return ua ? `${na}, ${nb} ${ua}` : `${na}, ${nb}`;
  return `${na} ${ua}, ${nb} ${ub}`;
}

/** A p-value: "< 0.001", "0.012", "1". */
export function fmtP(p: number | null | undefined): string {
  if (!isNum(p)) return DASH;
  if (p < 0.001) return "< 0.001";
  return Number(p.toFixed(p < 0.01 ? 4 : 3)).toString();
}

/** Milliseconds (shorthand for `fmtUnit(v, "ms")`). */
export const fmtMs = (v: number | null | undefined): string => fmtUnit(v, "ms");

/** A percentage given in percent, with up to `digits` decimals below 10 %. */
export function fmtPct(v: number | null | undefined, digits = 2): string {
  return isNum(v) ? fmtPercent(v, digits) : DASH;
}

/** A ratio as a percentage (shorthand for `fmtUnit(v, "ratio")`): 0.816 → "81.6 %". */
export const fmtRatio = (v: number | null | undefined): string => fmtUnit(v, "ratio");

/** A signed percentage for deltas: "+4.2 %", "−3 %". */
export function fmtSignedPct(v: number | null | undefined): string {
  if (!isNum(v)) return DASH;
  const s = fmtPct(Math.abs(v), 1);
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : s;
}

/** The unit as an axis shows it: "%" for ratios, nothing for counts. */
export function axisUnit(unit: string | null | undefined): string {
  if (unit === "ratio") return "%";
  if (!unit || unit === "count") return "";
  return unit;
}

/** A metric's label with its unit: "Throughput (bit/s)", "Answers" for a count. */
export function metricLabel(m: { title: string; unit: string } | null | undefined, fallback = ""): string {
  if (!m) return fallback;
  const u = axisUnit(m.unit);
  return u ? `${m.title} (${u})` : m.title;
}

/** A short axis tick: 16000 → "16k", 2.5e9 → "2.5G". */
export function fmtTick(v: number): string {
  if (!isNum(v)) return "";
  const abs = Math.abs(v);
  for (const { f, p } of SI) if (abs >= f) return `${Number((v / f).toFixed(abs / f >= 100 ? 0 : 1))}${p}`;
  return String(Number(v.toFixed(abs >= 10 ? 0 : abs >= 1 ? 1 : 3)));
}

/** Seconds as a duration: 45 → "45 s", 125 → "2 min 5 s", 3725 → "1 h 2 min". */
export function fmtDuration(s: number | null | undefined): string {
  if (!isNum(s)) return DASH;
  if (s < 0) s = 0;
  if (s < 60) return `${Number(s.toFixed(s < 10 && s % 1 !== 0 ? 1 : 0))} s`;
  const total = Math.round(s);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h > 0) return m ? `${h} h ${m} min` : `${h} h`;
  return sec ? `${m} min ${sec} s` : `${m} min`;
}

/** An ISO date-time in the user's locale, short. */
export function fmtDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return DASH;
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
