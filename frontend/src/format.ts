// Numbers with their units, one place for the whole UI.

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

/** Bits per second with an SI prefix: 1.25e9 → "1.25 Gbit/s". */
export function fmtBits(v: number | null | undefined): string {
  if (!isNum(v)) return DASH;
  const abs = Math.abs(v);
  for (const { f, p } of SI) if (abs >= f) return `${trim(v / f)} ${p}bit/s`;
  return `${trim(v)} bit/s`;
}

function trim(x: number): string {
  const abs = Math.abs(x);
  const d = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return Number(x.toFixed(d)).toLocaleString("en-US", { maximumFractionDigits: d });
}

/** Milliseconds: "0.562 ms", "12.3 ms", "1,204 ms". */
export function fmtMs(v: number | null | undefined): string {
  if (!isNum(v)) return DASH;
  const abs = Math.abs(v);
  const d = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return `${v.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: 0 })} ms`;
}

/** A percentage given in percent: 0.45 → "0.45 %". */
export function fmtPct(v: number | null | undefined, digits = 2): string {
  if (!isNum(v)) return DASH;
  const abs = Math.abs(v);
  const d = abs >= 100 ? 0 : abs >= 10 ? 1 : digits;
  return `${v.toLocaleString("en-US", { maximumFractionDigits: d })} %`;
}

/** A ratio as a percentage: 0.816 → "81.6 %". */
export function fmtRatio(v: number | null | undefined): string {
  return isNum(v) ? fmtPct(v * 100, 1) : DASH;
}

/** A signed percentage for deltas: "+4.2 %", "−3 %". */
export function fmtSignedPct(v: number | null | undefined): string {
  if (!isNum(v)) return DASH;
  const s = fmtPct(Math.abs(v), 1);
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : s;
}

export type RateTool = "dnsperf" | "wrk" | "iperf3" | "devsim" | string;

/** The unit of a tool's offered/achieved rate. */
export function rateUnit(tool: RateTool | null | undefined): string {
  switch (tool) {
    case "dnsperf":
      return "qps";
    case "wrk":
      return "req/s";
    case "iperf3":
      return "bit/s";
    case "devsim":
      return "reports/s";
    default:
      return "ops/s";
  }
}

/** A rate in the tool's unit: "16,319 qps", "9.41 Gbit/s", "500 reports/s". */
export function fmtRate(v: number | null | undefined, tool?: RateTool | null): string {
  if (!isNum(v)) return DASH;
  if (tool === "iperf3") return fmtBits(v);
  return `${fmtNumber(v, 1)} ${rateUnit(tool)}`;
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

/** Format a value by the unit name the compare API gives ("qps", "ms", "%", "bit/s", …). */
export function fmtByUnit(v: number | null | undefined, unit: string | null | undefined): string {
  if (!isNum(v)) return DASH;
  switch (unit) {
    case "ms":
      return fmtMs(v);
    case "%":
    case "pct":
      return fmtPct(v);
    case "bit/s":
    case "bps":
    case "bits/s":
      return fmtBits(v);
    case "ratio":
      return fmtRatio(v);
    case "":
    case null:
    case undefined:
      return fmtNumber(v);
    default:
      return `${fmtNumber(v, 1)} ${unit}`;
  }
}
