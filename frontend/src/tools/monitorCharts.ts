// What the point evidence charts of each monitor's samples. A monitor writes its samples under series
// named after it ("<name>" or "<name>.<part>"); by default its first metric is charted over all of them.
// The exporter monitor is the exception: its series are `server.<pack>.<query>`, one chart each (serverCharts).
import type { Sample } from "../api/types";
import { findTool, monitorTools, type MetricInfo, type ToolInfo } from "./catalog";

/** One monitor chart: the metric, and which of the monitor's series it draws. */
export interface MonitorChart {
  tool: ToolInfo;
  metric: MetricInfo;
  series: (name: string) => boolean;
  /** A series' legend name ("cpu0" for "<name>.cpu0"; the metric's title for the bare "<name>"). */
  seriesLabel: (name: string) => string;
}

/** Monitors charted otherwise than by default: the metric that tells the story, the series that carry it. */
const OVERRIDES: Record<string, { metric: string; prefix: string }> = {
  // per-CPU softirq share (the aggregate "mpstat.all" would hide the one saturated CPU)
  mpstat: { metric: "soft", prefix: "mpstat.cpu" },
  // the same, measured on the server by its node_exporter (node.softnet.* and node.net.* are rates, not shares)
  node: { metric: "soft", prefix: "node.cpu" },
};

/** The charts of every registered monitor whose metric is known (the exporter's are serverCharts'). */
export function monitorCharts(tools: readonly ToolInfo[] | undefined): MonitorChart[] {
  return monitorTools(tools).filter((tool) => tool.name !== EXPORTER).flatMap((tool) => {
    const own = OVERRIDES[tool.name];
    const metric = own ? tool.metrics.find((m) => m.name === own.metric) : tool.metrics[0];
    if (!metric) return [];
    const series = own ? (s: string) => s.startsWith(own.prefix) : (s: string) => s === tool.name || s.startsWith(`${tool.name}.`);
    const seriesLabel = (s: string) => (s === tool.name ? metric.title : s.slice(tool.name.length + 1));
    return [{ tool, metric, series, seriesLabel }];
  });
}

/** The monitor that scrapes the target's Prometheus exporters; its metrics are "<pack>.<query>". */
const EXPORTER = "exporter";
const SERVER_PREFIX = "server.";
/** Exporter charts drawn per point at most; the rest are listed by name. */
export const MAX_SERVER_CHARTS = 12;

/** Exporter series drawn as one chart per part of their keys ("<by>.<part>"), and the parts worth drawing. node.cpu's
 * keys are CPU × mode (8 modes a CPU): one chart per mode with a line per CPU, as mpstat's, for the modes the
 * bottleneck rules and a reader look at. */
const SPLIT: Record<string, { parts: string[]; label: (by: string) => string }> = {
  "server.node.cpu": { parts: ["softirq", "user", "system"], label: (cpu) => `cpu${cpu}` },
};

/** One chart of an exporter series: a line per value key it draws. */
export interface ServerChart {
  /** Unique per point: the series, or the series and the part it draws ("server.node.cpu/softirq"). */
  id: string;
  series: string;
  title: string;
  unit: string;
  /** The series' value keys drawn, each a line, in a readable order ("0.softirq", "NOERROR", "p50", "value"). */
  keys: string[];
  /** A key's legend name (the key itself, "cpu0" for node.cpu's "0.softirq"). */
  label: (key: string) => string;
}

/** A point's exporter charts: at most `max` drawn, those whose values are all 0 and those over the cap named only. */
export interface ServerCharts {
  charts: ServerChart[];
  /** Titles of charts whose every value was 0 (a drop counter that never moved says so in one line). */
  zero: string[];
  /** Titles of charts over the cap. */
  more: string[];
}

/** Keys in a reader's order: numbers as numbers (quantiles "0.25" before "0.5"), others with their digits as numbers ("cpu2" before "cpu10"). */
function byNumber(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b, undefined, { numeric: true });
}

/** The exporter series present in a point's samples, one chart each (node.cpu one per mode), titled and unitised
 * by the exporter tool's metric ("<pack>.<query>"). Over `max`, the charts are picked a pack at a time in turn
 * (each pack's queries in its file's order: its authors put the telling ones first) and drawn in the tool's order. */
export function serverCharts(tools: readonly ToolInfo[] | undefined, samples: readonly Sample[], max = MAX_SERVER_CHARTS): ServerCharts {
  const tool = findTool(tools, EXPORTER);
  const keys = new Map<string, Set<string>>();
  const nonZero = new Set<string>();
  for (const s of samples) {
    if (!s.series.startsWith(SERVER_PREFIX)) continue;
    const seen = keys.get(s.series) ?? new Set<string>();
    keys.set(s.series, seen);
    for (const [key, value] of Object.entries(s.values)) {
      if (value == null) continue;
      seen.add(key);
      if (value !== 0) nonZero.add(`${s.series}\n${key}`);
    }
  }
  const order = (series: string) => {
    const at = tool?.metrics.findIndex((m) => `${SERVER_PREFIX}${m.name}` === series) ?? -1;
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  const all = [...keys.keys()].sort((a, b) => order(a) - order(b) || byNumber(a, b)).flatMap((series) => chartsOf(series, [...keys.get(series)!].sort(byNumber), tool));
  const zero = all.filter((c) => !c.keys.some((k) => nonZero.has(`${c.series}\n${k}`)));
  const drawn = new Set(inTurn(all.filter((c) => !zero.includes(c))).slice(0, max));
  return { charts: all.filter((c) => drawn.has(c)), zero: zero.map((c) => c.title), more: all.filter((c) => !drawn.has(c) && !zero.includes(c)).map((c) => c.title) };
}

/** One series' charts: one over all its keys, or one per part for a SPLIT series (parts without a key left out). */
function chartsOf(series: string, keys: string[], tool: ToolInfo | undefined): ServerChart[] {
  const metric = tool?.metrics.find((m) => `${SERVER_PREFIX}${m.name}` === series);
  const title = metric?.title ?? series;
  const unit = metric?.unit ?? "";
  const split = SPLIT[series];
  if (!split) {
    const label = (key: string) => (key === "value" ? (metric?.title ?? key) : key);
    return keys.length ? [{ id: series, series, title, unit, keys, label }] : [];
  }
  const by = (key: string) => key.slice(0, key.lastIndexOf("."));
  return split.parts.flatMap((part) => {
    const mine = keys.filter((k) => k.endsWith(`.${part}`));
    return mine.length ? [{ id: `${series}/${part}`, series, title: `${title} — ${part}`, unit, keys: mine, label: (k: string) => split.label(by(k)) }] : [];
  });
}

/** Charts in turns: each turn, every pack's next series (a pack is the series' second part: server.<pack>.<query>). */
function inTurn(charts: ServerChart[]): ServerChart[] {
  const packs = new Map<string, ServerChart[][]>();
  for (const c of charts) {
    const queue = packs.get(c.series.split(".")[1]) ?? [];
    const last = queue[queue.length - 1];
    if (last?.[0].series === c.series) last.push(c);
    else queue.push([c]);
    packs.set(c.series.split(".")[1], queue);
  }
  const queues = [...packs.values()];
  const longest = Math.max(0, ...queues.map((q) => q.length));
  return Array.from({ length: longest }, (_, turn) => queues.flatMap((q) => q[turn] ?? [])).flat();
}
