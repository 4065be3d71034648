import { describe, expect, it } from "vitest";
import {
  fmtBits, fmtByUnit, fmtCount, fmtDuration, fmtMs, fmtNumber, fmtPct, fmtRate, fmtRatio, fmtSignedPct, fmtTick, rateUnit,
} from "./format";

describe("format", () => {
  it("formats numbers and counts", () => {
    expect(fmtNumber(16319.4)).toBe("16,319");
    expect(fmtNumber(0.5623)).toBe("0.562");
    expect(fmtNumber(null)).toBe("—");
    expect(fmtNumber(Number.NaN)).toBe("—");
    expect(fmtCount(100000)).toBe("100,000");
  });
  it("formats rates in the tool's unit", () => {
    expect(fmtRate(16319, "dnsperf")).toBe("16,319 qps");
    expect(fmtRate(1.25e9, "iperf3")).toBe("1.25 Gbit/s");
    expect(fmtRate(95502, "devsim")).toBe("95,502 reports/s");
    expect(fmtRate(1200.5, "wrk")).toBe("1,201 req/s");
    expect(rateUnit("other")).toBe("ops/s");
  });
  it("formats bits per second with SI prefixes", () => {
    expect(fmtBits(999)).toBe("999 bit/s");
    expect(fmtBits(1e6)).toBe("1 Mbit/s");
    expect(fmtBits(9.41e9)).toBe("9.41 Gbit/s");
    expect(fmtBits(123.4e9)).toBe("123 Gbit/s");
  });
  it("formats latency and percentages", () => {
    expect(fmtMs(0.5623)).toBe("0.562 ms");
    expect(fmtMs(6.04)).toBe("6.04 ms");
    expect(fmtMs(1204.3)).toBe("1,204 ms");
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
  it("formats by a named unit", () => {
    expect(fmtByUnit(1.5, "ms")).toBe("1.5 ms");
    expect(fmtByUnit(2e9, "bit/s")).toBe("2 Gbit/s");
    expect(fmtByUnit(10950, "qps")).toBe("10,950 qps");
    expect(fmtByUnit(null, "qps")).toBe("—");
  });
});
