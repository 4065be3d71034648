// Axis ticks as the charts draw them (Recharts rendered in jsdom at a fixed size) and the helpers behind them.
import { render } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { tool } from "../tools/__fixtures__";
import { latencyUnit, niceTicks, tickLabel, valueAxis } from "./common";
import { fixedSizeCharts, yTicks } from "./chartTesting";
import TimelineChart from "./TimelineChart";
import TimeSeriesChart from "./TimeSeriesChart";
import type { TimelineSegment } from "./timeline";

// dnsperf as GET /tools describes it: headline achieved_rate in qps, latency in ms
const TOOL = tool("dnsperf");

beforeAll(fixedSizeCharts);

describe("y-axis ticks of the live charts", () => {
  // the first live sample: one interval, whatever it measured (idle zero, a trickle, a fraction of a millisecond)
  const firsts: Record<string, number>[] = [{ achieved_rate: 0 }, { achieved_rate: 0.0004 }, { achieved_rate: 3, latency_avg_ms: 0.31 }, { achieved_rate: 0, latency_avg_ms: 0 }];
  for (const values of firsts) {
    it(`has distinct labels with one sample ${JSON.stringify(values)}`, () => {
      const { container } = render(<TimeSeriesChart title="live" rows={[{ t: 1000, values }]} tool={TOOL} />);
      const axes = yTicks(container);
      expect(axes.length).toBeGreaterThan(0);
      for (const ticks of axes) {
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(new Set(ticks).size).toBe(ticks.length);
      }
    });
    it(`timeline has distinct labels with one sample ${JSON.stringify(values)}`, () => {
      const seg = { pointId: 1, seq: 0, phase: "baseline", concurrency: 1, running: true, rows: [{ s: 0, value: values.achieved_rate }] } as unknown as TimelineSegment;
      const { container } = render(<TimelineChart segments={[seg]} samples={1} tool={TOOL} />);
      const [ticks] = yTicks(container);
      expect(new Set(ticks).size).toBe(ticks.length);
    });
  }
  it("labels sub-millisecond latency in µs, zero-based", () => {
    const { container } = render(<TimeSeriesChart title="live" rows={[{ t: 1, values: { achieved_rate: 16000, latency_avg_ms: 0.31 } }]} tool={TOOL} />);
    const [rate, latency] = yTicks(container);
    expect(rate).toEqual(["0", "5k", "10k", "15k", "20k"]);
    expect(latency).toEqual(["0", "100", "200", "300", "400"]);
    expect(container.textContent).toContain("µs");
  });
});

describe("axis helpers", () => {
  it("gives a flat or empty range a unit-wide axis", () => {
    expect(niceTicks(0, 0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(valueAxis([]).domain).toEqual([0, 1]);
    expect(valueAxis([null, 0]).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
  it("labels ticks with just enough decimals to tell them apart", () => {
    const axis = valueAxis([0.0004]);
    const labels = axis.ticks.map(axis.tickFormatter);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain("0.0004");
    expect(tickLabel(1_250_000, 250_000)).toBe("1.25M");
    expect(tickLabel(12_000, 2_000)).toBe("12k");
  });
  it("starts at zero unless told to fit the data", () => {
    expect(valueAxis([95, 105]).ticks).toEqual([0, 25, 50, 75, 100, 125]);
    expect(valueAxis([95, 105], { zero: false }).ticks).toEqual([94, 96, 98, 100, 102, 104, 106]);
  });
  it("spreads a log axis over decades", () => {
    const axis = valueAxis([0.2, 3, 480], { log: true });
    expect(axis.scale).toBe("log");
    expect(axis.ticks).toEqual([0.1, 1, 10, 100, 1000]);
    expect(axis.ticks.map(axis.tickFormatter)).toEqual(["0.1", "1", "10", "100", "1k"]);
  });
  it("picks µs below a millisecond", () => {
    expect(latencyUnit([0.2, 0.9])).toEqual({ unit: "µs", scale: 1000 });
    expect(latencyUnit([0.2, 1.5])).toEqual({ unit: "ms", scale: 1 });
  });
});
