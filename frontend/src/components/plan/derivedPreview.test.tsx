// Issue 50: a derived load's preview is a range (up to the most it can be: the referenced phase's top times the
// fraction, what caps were checked against) with what it depends on, resolved only when its phase starts.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PlanPreview } from "../../api/types";
import { tool } from "../../tools/__fixtures__";
import PreviewPanel from "./PreviewPanel";

const point = { variant: null, phase_index: 0, concurrency: 20, duration_s: 10, repeat: 0 };
const preview = {
  point_count: 2, estimated_s: 25, estimated_min_s: 25, searches: [],
  points: [
    { ...point, seq: 0, phase: "saturation", offered_rate: 40000, rate_from: null },
    { ...point, seq: 1, phase_index: 1, phase: "stability", offered_rate: 32000,
      rate_from: "80 % of the knee found by phase 'sweep', resolved when its phase starts (at most 32,000)" },
  ],
} as unknown as PlanPreview; // prettier-ignore

describe("a derived load's preview", () => {
  it("shows the most it can be as a range, and where it comes from; a fixed load stays one figure", () => {
    render(<PreviewPanel preview={preview} tool={tool("dnsperf")} errors={{}} checking={false} />);
    const rows = screen.getAllByRole("row").slice(1).map((r) => r.textContent);
    expect(rows[0]).toContain("40,000 qps");
    expect(rows[0]).not.toContain("up to");
    expect(rows[1]).toContain("up to 32,000 qps");
    expect(screen.getByTestId("rate-from").textContent).toBe("80 % of the knee found by phase 'sweep', resolved when its phase starts (at most 32,000)");
  });
});

describe("repeat until decided's preview", () => {
  it("counts its first passes' points up to its most passes', and the duration as a range", () => {
    const until = { ...preview, point_count: 4, point_count_max: 40, estimated_min_s: 50, estimated_s: 500 } as unknown as PlanPreview;
    render(<PreviewPanel preview={until} tool={tool("dnsperf")} errors={{}} checking={false} />);
    expect(screen.getByTestId("point-count").textContent).toBe("4–40");
    expect(screen.getByTestId("estimated").textContent).toMatch(/–/);
  });

  it("stays one figure when the plan runs a fixed number of passes", () => {
    render(<PreviewPanel preview={{ ...preview, point_count_max: 2 } as unknown as PlanPreview} tool={tool("dnsperf")} errors={{}} checking={false} />);
    expect(screen.getByTestId("point-count").textContent).toBe("2");
  });
});
