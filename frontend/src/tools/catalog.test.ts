import { describe, expect, it } from "vitest";
import { concurrencyUnit, findTool, hasLiveSamples, headlineOf, latencyLabel, loadTools, monitorTools, rateUnitOf, targetKindOf } from "./catalog";
import { monitorCharts } from "./monitorCharts";
import { TOOLS, tool } from "./__fixtures__";

describe("the tool catalog (GET /tools)", () => {
  it("splits load tools from monitors", () => {
    expect(loadTools(TOOLS).every((t) => t.role === "load")).toBe(true);
    expect(monitorTools(TOOLS).every((t) => t.role === "monitor")).toBe(true);
    expect(loadTools(TOOLS).length + monitorTools(TOOLS).length).toBe(TOOLS.length);
    expect(loadTools(undefined)).toEqual([]);
  });
  it("answers per tool from its description", () => {
    expect(headlineOf(tool("iperf3"))?.name).toBe("throughput_bps");
    expect(headlineOf(tool("dnsperf"))?.name).toBe("achieved_rate");
    expect(headlineOf(tool("ping"))).toBeUndefined();
    expect(rateUnitOf(tool("wrk"))).toBe("req/s");
    expect(targetKindOf(tool("devsim"))).toBe("device");
    expect(concurrencyUnit(tool("devsim"))).toBe("device");
    expect(findTool(TOOLS, "nope")).toBeUndefined();
  });
  it("charts each monitor's telling metric over its own series", () => {
    const charts = monitorCharts(TOOLS);
    expect(charts.map((c) => [c.tool.name, c.metric.name])).toEqual([
      ["mpstat", "soft"],
      ["ping", "rtt_ms"],
      ["node", "soft"],
      ["process", "cpu_pct"],
    ]);
    const [cpu, rtt, server] = charts;
    expect(["mpstat.cpu0", "mpstat.all", "ping"].filter(cpu.series)).toEqual(["mpstat.cpu0"]);
    expect(cpu.seriesLabel("mpstat.cpu0")).toBe("cpu0");
    expect(["mpstat.cpu0", "ping"].filter(rtt.series)).toEqual(["ping"]);
    expect(rtt.seriesLabel("ping")).toBe("Round trip");
    // the server's own per-CPU softirq, from its node_exporter: only the CPU series carry "soft"
    expect(`${server.tool.title}: ${server.metric.title}`).toBe("Server (node_exporter): per-CPU %soft");
    expect(["node.cpu0", "node.softnet.cpu0", "node.net.eth0", "mpstat.cpu0"].filter(server.series)).toEqual(["node.cpu0"]);
    expect(server.seriesLabel("node.cpu1")).toBe("cpu1");
  });
});

describe("latency labels (capacity at SLO)", () => {
  it("name the percentile from the metric's title, else the mean", () => {
    const wrk = TOOLS.find((t) => t.name === "wrk");
    expect(latencyLabel(wrk, "latency_p99_ms")).toBe("p99");
    expect(latencyLabel(wrk, "latency_p999_ms")).toBe("p99.9");
    expect(latencyLabel(undefined, "latency_p999_ms")).toBe("p99.9");
    expect(latencyLabel(wrk, "latency_avg_ms")).toBe("mean latency");
    expect(hasLiveSamples(wrk)).toBe(false);
    expect(hasLiveSamples(undefined)).toBe(true);
  });
});
