// Issue 35: a point's exporter samples (`server.<pack>.<query>`) are drawn, one chart per series, titled and unitised by
// the exporter tool's metrics in GET /tools. Samples are real: the exporter monitor's own code path run on captured
// CoreDNS pages and on a real node_exporter's scrapes (scripts/frontend_fixtures.py).
import { describe, expect, it } from "vitest";
import type { Sample } from "../api/types";
import { pivotServer } from "../charts/MonitorCharts";
import { MAX_SERVER_CHARTS, monitorCharts, serverCharts } from "./monitorCharts";
import { MONITOR_SAMPLES, TOOLS } from "./__fixtures__";

const { coredns: COREDNS, node_exporter: NODE_EXPORTER, mpstat: MPSTAT } = MONITOR_SAMPLES;
/** A node_exporter listed with the node pack only (a target's second exporter beside CoreDNS's own). */
const NODE = NODE_EXPORTER.filter((s) => s.series.startsWith("server.node."));
const summary = (samples: Sample[], max?: number) => {
  const found = serverCharts(TOOLS, samples, max);
  return { ...found, charts: found.charts.map((c) => ({ title: c.title, unit: c.unit, lines: c.keys.map(c.label) })) };
};

describe("exporter charts of a point", () => {
  it("draw CoreDNS's own series with the metric's title and unit, a line per value key", () => {
    const { charts, zero, more } = summary(COREDNS);
    expect(charts.slice(0, 3)).toEqual([
      { title: "CoreDNS: requests", unit: "qps", lines: ["CoreDNS: requests"] },
      { title: "CoreDNS: responses by rcode", unit: "qps", lines: ["NOERROR"] },
      { title: "CoreDNS: request duration", unit: "ms", lines: ["p50", "p99"] },
    ]);
    expect(charts.find((c) => c.title === "Server process: process CPU (user + system)")).toEqual({
      title: "Server process: process CPU (user + system)", unit: "%", lines: ["Server process: process CPU (user + system)"] });
    expect(charts.find((c) => c.title === "Go runtime: GC pause (quantiles since start)")?.lines).toEqual(["0", "0.25", "0.5", "0.75", "1"]);
    // CoreDNS counted no panic: named, not drawn
    expect(zero).toEqual(["CoreDNS: panics"]);
    // 14 series moved: 12 drawn, each pack's first queries in turn (coredns 3, go 5, process 4), the rest named
    expect(charts).toHaveLength(MAX_SERVER_CHARTS);
    expect(more).toEqual(["Go runtime: allocation rate", "Go runtime: OS threads"]);
  });

  it("draw node_exporter's CPU time as one chart per mode (softirq, user, system) with a line per CPU", () => {
    const found = serverCharts(TOOLS, NODE);
    const cpu = found.charts.filter((c) => c.series === "server.node.cpu");
    expect(cpu.map((c) => [c.title, c.unit, c.keys, c.keys.map(c.label)])).toEqual([
      ["Host (node_exporter): CPU time by CPU and mode — softirq", "%", ["0.softirq", "1.softirq"], ["cpu0", "cpu1"]],
      ["Host (node_exporter): CPU time by CPU and mode — user", "%", ["0.user", "1.user"], ["cpu0", "cpu1"]],
      ["Host (node_exporter): CPU time by CPU and mode — system", "%", ["0.system", "1.system"], ["cpu0", "cpu1"]],
    ]);
    expect(found.charts.map((c) => c.title).slice(3)).toEqual([
      "Host (node_exporter): UDP receive-buffer errors", "Host (node_exporter): disk writes",
      "Host (node_exporter): load average (1 min)", "Host (node_exporter): memory available"]);
    expect(found.charts.find((c) => c.series === "server.node.disk_written")?.keys).toEqual(["vda", "zram0"]);
    expect(found.zero).toEqual(["Host (node_exporter): NIC received packets", "Host (node_exporter): NIC receive drops",
      "Host (node_exporter): softnet dropped (backlog full)", "Host (node_exporter): softnet squeezed (budget ran out)",
      "Host (node_exporter): TCP listen-queue overflows"]);
    expect(found.more).toEqual([]);
  });

  it("share the cap between a point's exporters, each pack's leading charts first", () => {
    const { charts, more } = summary([...COREDNS, ...NODE]);
    expect(charts).toHaveLength(MAX_SERVER_CHARTS);
    const titles = charts.map((c) => c.title);
    // each pack's first charts made it; drawn in the tool's order (pack by pack)
    // a turn takes each pack's next query: node.cpu's three charts are one query, the UDP drops its next
    expect(titles).toEqual([
      "CoreDNS: requests", "CoreDNS: responses by rcode", "CoreDNS: request duration",
      "Go runtime: goroutines", "Go runtime: GC pause (quantiles since start)", "Go runtime: GC pause time per second",
      "Host (node_exporter): CPU time by CPU and mode — softirq", "Host (node_exporter): CPU time by CPU and mode — user",
      "Host (node_exporter): CPU time by CPU and mode — system", "Host (node_exporter): UDP receive-buffer errors",
      "Server process: process CPU (user + system)", "Server process: resident memory"]);
    // 14 CoreDNS-exporter charts and 7 node_exporter ones moved: the 9 left named
    expect(more).toEqual(["Go runtime: GC cycles", "Go runtime: heap in use", "Go runtime: allocation rate", "Go runtime: OS threads",
      "Host (node_exporter): disk writes", "Host (node_exporter): load average (1 min)", "Host (node_exporter): memory available",
      "Server process: open file descriptors", "Server process: file descriptor limit"]);
  });

  it("pivot a chart's keys by time, the values the series holds", () => {
    const [softirq] = serverCharts(TOOLS, NODE).charts;
    const { rows, lines } = pivotServer(NODE, softirq);
    const raw = NODE.filter((s) => s.series === "server.node.cpu");
    expect(lines).toEqual([{ column: "k0", label: "cpu0" }, { column: "k1", label: "cpu1" }]);
    expect(rows.map((r) => [r.k0, r.k1])).toEqual(raw.map((s) => [s.values["0.softirq"], s.values["1.softirq"]]));
    expect(rows.map((r) => r.s)).toEqual([0, 1.01, 2]);
  });

  it("without the exporter's description (an older API), name a chart by its series; nothing without server series", () => {
    const old = TOOLS.filter((t) => t.name !== "exporter");
    const requests = serverCharts(old, COREDNS).charts.find((c) => c.series === "server.coredns.requests");
    expect(requests).toMatchObject({ title: "server.coredns.requests", unit: "", keys: ["value"] });
    expect(requests?.label("value")).toBe("value");
    expect(serverCharts(TOOLS, MPSTAT)).toEqual({ charts: [], zero: [], more: [] });
  });

  it("leave the other monitors' charts as they were, and the exporter's out of them", () => {
    expect(monitorCharts(TOOLS).map((c) => c.tool.name)).toEqual(["mpstat", "ping", "node", "process"]);
    const [cpu] = monitorCharts(TOOLS);
    expect([...new Set(MPSTAT.map((s) => s.series))].filter(cpu.series)).toEqual(["mpstat.cpu0", "mpstat.cpu1"]);
  });
});
