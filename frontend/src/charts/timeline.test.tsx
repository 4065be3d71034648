// The campaign timeline draws every point: a six-point dnsperf sweep of 2 s points with pause_s 0 had interval samples
// for three points only (dnsperf -S 1 prints none for an interval the run's end cuts), and the chart showed those alone.
import { describe, expect, it } from "vitest";
import { render } from "@testing-library/react";
import type { Point } from "../api/types";
import { tool } from "../tools/__fixtures__";
import { fixedSizeCharts } from "./chartTesting";
import TimelineChart from "./TimelineChart";
import { timelineSegments } from "./timeline";

fixedSizeCharts();

// as measured from a real run (points' start and end, and the -S 1 lines dnsperf printed), epoch 1795731118.97 onwards
const START = 1795731118.97;
const iso = (t: number) => new Date(t * 1000).toISOString();
const points = [0, 1, 2, 3, 4, 5].map(
  (seq) =>
    ({ id: seq + 1, seq, phase: "saturation", concurrency: 2, offered_rate: 200 * (seq + 1), status: "completed", metrics: { achieved_rate: 200 * (seq + 1) },
       started_at: iso(START + 2.1 * seq), ended_at: iso(START + 2.1 * seq + 2.09) }) as unknown as Point, // prettier-ignore
);
const stored = {
  1: [{ t: 1795731120.023657, values: { achieved_rate: 200.68 } }],
  4: [{ t: 1795731126.278784, values: { achieved_rate: 800.71 } }],
  6: [{ t: 1795731130.52394, values: { achieved_rate: 1199.78 } }],
};

describe("campaign timeline", () => {
  it("has a segment for every finished point: its samples, else its own figure over its run", () => {
    const { segments, samples } = timelineSegments(points, stored, {}, "achieved_rate");
    expect(segments.map((s) => [s.pointId, s.whole, s.rows.length])).toEqual([
      [1, false, 1],
      [2, true, 2],
      [3, true, 2],
      [4, false, 1],
      [5, true, 2],
      [6, false, 1],
    ]);
    expect(samples).toBe(3);
    const second = segments[1].rows;
    expect(second.map((r) => r.value)).toEqual([400, 400]);
    expect(second[0].s).toBeCloseTo(2.1 - 1.053657, 3); // from its start, on the axis of the campaign's first row
    expect(second[1].s - second[0].s).toBeCloseTo(2.09, 2);
  });

  it("draws six points, not the three that printed an interval", () => {
    const { segments, samples } = timelineSegments(points, stored, {}, "achieved_rate");
    const { container, getByTestId } = render(<TimelineChart segments={segments} samples={samples} tool={tool("dnsperf")} />);
    const lines = [...container.querySelectorAll(".recharts-line")];
    expect(lines).toHaveLength(6);
    expect(container.querySelectorAll(".recharts-line-dot, .recharts-dot")).toHaveLength(3);
    expect(container.querySelectorAll('.recharts-line-curve[stroke-dasharray="4 3"]')).toHaveLength(3);
    expect(getByTestId("campaign-timeline").textContent).toContain("6 points (3 dashed");
  });

  it("leaves out a point that has neither samples nor a figure (pending, or still running without a sample)", () => {
    const running = { ...points[5], status: "running", ended_at: null, metrics: {} } as unknown as Point;
    const { segments } = timelineSegments([...points.slice(0, 5), running], { 1: stored[1] }, {}, "achieved_rate");
    expect(segments.map((s) => s.pointId)).toEqual([1, 2, 3, 4, 5]);
  });
});
