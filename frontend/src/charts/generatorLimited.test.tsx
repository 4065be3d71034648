// A point whose load the generator did not send is drawn apart (a hollow "generator-limited" marker, its cause in the tooltip),
// left out of the knee line and the summary, and listed under the chart with the change that would lift it.
import { fireEvent, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeAll, describe, expect, it } from "vitest";
import type { Analysis, Point } from "../api/types";
import { tool } from "../tools/__fixtures__";
import { fixedSizeCharts } from "./chartTesting";
import KneeChart from "./KneeChart";
import { kneeRows, summaryOf } from "./pointData";

beforeAll(fixedSizeCharts);

const TOOL = tool("dnsperf");
const VERDICT = { asked: 180000, sent: 87773, sent_pct: 48.8, limited: true, cause: "outstanding", suggestion: "raise max_outstanding to ≥ 820",
                  detail: "dnsperf keeps at most 100 queries outstanding; at 3.4 ms that caps the rate at 29,400 qps (Little's law)" };  // prettier-ignore
const point = (seq: number, rate: number, achieved: number, latency: number, limited = false) =>
  ({ id: seq + 1, seq, phase: "saturation", status: "completed", concurrency: 10, offered_rate: rate, variant: null, repeat: 0, duration_s: 3,
     extra: limited ? { generator: VERDICT } : { generator: { ...VERDICT, limited: false, sent_pct: 100, cause: null, suggestion: null } },
     metrics: { achieved_rate: achieved, latency_avg_ms: latency, latency_p99_ms: latency * 4 } }) as unknown as Point;  // prettier-ignore
const POINTS = [point(0, 10000, 10000, 0.2), point(1, 20000, 19990, 0.4), point(2, 30000, 29950, 1.1), point(3, 60000, 29258, 3.4, true)];
const ANALYSIS = { generator_limited: [{ offered_rate: 60000, concurrency: 10, phase: "saturation", repeat: 0, sent_pct: 48.8, cause: "outstanding",
                   detail: VERDICT.detail, suggestion: VERDICT.suggestion }] } as unknown as Analysis;  // prettier-ignore

function draw(points: Point[], analysis: Analysis | null = ANALYSIS) {
  const router = createMemoryRouter([{ path: "/c", element: <KneeChart points={points} tool={TOOL} analysis={analysis} /> }], { initialEntries: ["/c"] });
  return render(<RouterProvider router={router} />);
}

describe("generator-limited points", () => {
  it("are a row of their own: their latency off the knee line, their verdict kept", () => {
    const rows = kneeRows(POINTS);
    expect(rows.map((r) => [r.offered, r.latency, r.limited])).toEqual([[10000, 0.2, null], [20000, 0.4, null], [30000, 1.1, null], [60000, null, 3.4]]);
    expect(rows[3].generator?.cause).toBe("outstanding");
    expect(rows[3].p99).toBeNull();
  });

  it("are left out of the summary's highest rate, as the API leaves them out", () => {
    expect(summaryOf(POINTS).max_achieved_rate).toBe(29950);
    expect(summaryOf(POINTS).points_completed).toBe(4);
  });

  it("are drawn as a hollow generator-limited series and listed with the suggestion", () => {
    const view = draw(POINTS);
    const legend = [...view.container.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent);
    expect([...legend].sort()).toEqual(["generator-limited", "latency avg", "latency p99"]);
    const hollow = [...view.container.querySelectorAll(".recharts-line-dot")].filter((d) => d.getAttribute("fill") === "#fff" && d.getAttribute("stroke") === "#7c3aed");
    expect(hollow.length).toBe(1);
    const note = view.getByRole("note", { name: "Generator-limited points" });
    expect(note.textContent).toContain("1 point was generator-limited and left out of the knee, ceiling, capacity, USL and zones");
    expect(note.textContent).toContain("60,000");
    expect(note.textContent).toContain("48.8 % sent — outstanding");
    expect(note.textContent).toContain("Suggestion: raise max_outstanding to ≥ 820");
  });

  it("say their cause in the tooltip", async () => {
    const view = draw(POINTS);
    fireEvent.mouseMove(view.container.querySelector(".recharts-wrapper")!, { clientX: 575, clientY: 100 });  // the 60,000 q/s load, at the right edge
    await new Promise((r) => setTimeout(r, 30));
    const tip = view.container.querySelector(".recharts-tooltip-wrapper")?.textContent?.replace(/\s+/g, " ") ?? "";
    expect(tip).toContain("offered 60,000");
    expect(tip).toContain("generator-limited : 3.4 ms — load not sent (48.8 % sent): outstanding");
  });

  it("leave the chart as it was when every load was sent", () => {
    const view = draw(POINTS.slice(0, 3), null);
    const legend = [...view.container.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent);
    expect(legend).toEqual(["latency avg", "latency p99"]);
    expect(view.queryByRole("note", { name: "Generator-limited points" })).toBeNull();
  });
});
