import { describe, expect, it } from "vitest";
import { axisUnit, fmtCount, fmtDiffRange, fmtDuration, fmtP, fmtRange, fmtMs, fmtNumber, fmtPct, fmtRatio, fmtSignedPct, fmtTick, fmtUnit, isPrefixedUnit, metricLabel } from "./format";
import { headlineOf, metricOf, rateUnitOf, resolveUnit } from "./tools/catalog";
import { TOOLS, tool } from "./tools/__fixtures__";

describe("format", () => {
  it("formats numbers and counts", () => {
    expect(fmtNumber(16319.4)).toBe("16,319");
    expect(fmtNumber(0.5623)).toBe("0.562");
    expect(fmtNumber(null)).toBe("—");
    expect(fmtNumber(Number.NaN)).toBe("—");
    expect(fmtCount(100000)).toBe("100,000");
    expect(fmtUnit(1204.4, "count")).toBe("1,204");
  });
  it("formats rates in each tool's rate unit, from GET /tools", () => {
    const rate = (name: string, v: number) => fmtUnit(v, rateUnitOf(tool(name)));
    expect(rate("dnsperf", 16319)).toBe("16,319 qps");
    expect(rate("iperf3", 1.25e9)).toBe("1.25 Gbit/s");
    expect(rate("devsim", 95502)).toBe("95,502 reports/s");
    expect(rate("wrk", 1200.5)).toBe("1,201 req/s");
    expect(fmtUnit(3, rateUnitOf(undefined))).toBe("3");
  });
  it("formats bits per second with SI prefixes", () => {
    expect(fmtUnit(999, "bit/s")).toBe("999 bit/s");
    expect(fmtUnit(1e6, "bit/s")).toBe("1 Mbit/s");
    expect(fmtUnit(9.41e9, "bit/s")).toBe("9.41 Gbit/s");
    expect(fmtUnit(123.4e9, "bit/s")).toBe("123 Gbit/s");
    expect(isPrefixedUnit("bit/s")).toBe(true);
    expect(isPrefixedUnit("qps")).toBe(false);
  });
  it("formats milliseconds, switching to microseconds below one", () => {
    expect(fmtMs(0.5623)).toBe("562 µs");
    expect(fmtMs(0.0042)).toBe("4.2 µs");
    expect(fmtMs(6.04)).toBe("6.04 ms");
    expect(fmtMs(0)).toBe("0 ms");
    expect(fmtMs(1204.3)).toBe("1,204 ms");
  });
  it("formats percentages and ratios", () => {
    expect(fmtPct(0.45)).toBe("0.45 %");
    expect(fmtPct(34)).toBe("34 %");
    expect(fmtRatio(0.816)).toBe("81.6 %");
    expect(fmtSignedPct(4.21)).toBe("+4.2 %");
    expect(fmtSignedPct(-3)).toBe("−3 %");
  });
  it("formats durations and ticks", () => {
    expect(fmtDuration(45)).toBe("45 s");
    expect(fmtDuration(2.5)).toBe("2.5 s");
    expect(fmtDuration(125)).toBe("2 min 5 s");
    expect(fmtDuration(3725)).toBe("1 h 2 min");
    expect(fmtDuration(null)).toBe("—");
    expect(fmtTick(16000)).toBe("16k");
    expect(fmtTick(2.5e9)).toBe("2.5G");
    expect(fmtTick(0.25)).toBe("0.25");
  });
  it("formats every metric of every tool by its unit", () => {
    const units = new Set(TOOLS.flatMap((t) => t.metrics.map((m) => m.unit)));
    for (const unit of units) {
      expect(fmtUnit(1234.5, unit)).not.toBe("—");
      expect(fmtUnit(null, unit)).toBe("—");
    }
    const dns = tool("dnsperf");
    expect(fmtUnit(0.45, metricOf(dns, "loss_pct")?.unit)).toBe("0.45 %");
    expect(fmtUnit(0.98, metricOf(dns, "efficiency")?.unit)).toBe("98 %");
    expect(fmtUnit(12, metricOf(dns, "lost")?.unit)).toBe("12");
    expect(fmtUnit(0.25, metricOf(tool("ping"), "rtt_ms")?.unit)).toBe("250 µs");
  });
  it("labels a metric with its unit and resolves the compare API's 'rate'", () => {
    const net = tool("iperf3");
    expect(metricLabel(headlineOf(net))).toBe("Throughput (bit/s)");
    expect(metricLabel(metricOf(tool("dnsperf"), "completed"))).toBe("Answers");
    expect(metricLabel(metricOf(tool("dnsperf"), "efficiency"))).toBe("Efficiency (achieved / offered) (%)");
    expect(axisUnit("count")).toBe("");
    expect(fmtUnit(2e9, resolveUnit("rate", net))).toBe("2 Gbit/s");
    expect(fmtUnit(10950, resolveUnit("rate", tool("dnsperf")))).toBe("10,950 qps");
    expect(resolveUnit("ms", net)).toBe("ms");
  });
});

describe("intervals and p-values (issue 14)", () => {
  it("say an interval's shared unit once, or not at all beside a value in it", () => {
    expect(fmtRange(14500, 15100, "qps")).toBe("14,500–15,100 qps");
    expect(fmtRange(14500, 15100, "qps", "14,834 qps")).toBe("14,500–15,100");
    expect(fmtRange(9.3e9, 9.5e9, "bit/s", "9.41 Gbit/s")).toBe("9.3–9.5");
    expect(fmtRange(9.5e8, 1.2e9, "bit/s", "1 Gbit/s")).toBe("950 Mbit/s – 1.2 Gbit/s");
    expect(fmtRange(null, 1, "qps")).toBe("—");
    expect(fmtDiffRange(-0.02, 0.03, "ms")).toBe("−20, +30 µs");
    expect(fmtDiffRange(-0.5, 2, "ms")).toBe("−500 µs, +2 ms");
    expect(fmtP(0.0004)).toBe("< 0.001");
    expect(fmtP(0.0123)).toBe("0.012");
    expect(fmtP(0.0046)).toBe("0.0046");
    expect(fmtP(0.5)).toBe("0.5");
    expect(fmtP(null)).toBe("—");
  });
});
