// What the point evidence charts of each monitor's samples. A monitor writes its samples under series
// named after it ("<name>" or "<name>.<part>"); by default its first metric is charted over all of them.
import { monitorTools, type MetricInfo, type ToolInfo } from "./catalog";

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

/** The charts of every registered monitor whose metric is known. */
export function monitorCharts(tools: readonly ToolInfo[] | undefined): MonitorChart[] {
  return monitorTools(tools).flatMap((tool) => {
    const own = OVERRIDES[tool.name];
    const metric = own ? tool.metrics.find((m) => m.name === own.metric) : tool.metrics[0];
    if (!metric) return [];
    const series = own ? (s: string) => s.startsWith(own.prefix) : (s: string) => s === tool.name || s.startsWith(`${tool.name}.`);
    const seriesLabel = (s: string) => (s === tool.name ? metric.title : s.slice(tool.name.length + 1));
    return [{ tool, metric, series, seriesLabel }];
  });
}
