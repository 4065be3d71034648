// The comparison's failover table: per campaign and failure event, its figures across repetitions as the API gives them
// (figures from a run of tests/integration/test_failover_compare_lab.py: b2 killed, or drained, at 1 s of three 6.5 s points).
import { describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import type { Comparison } from "../../api/compare";
import FailoverEventsTable, { acrossText } from "./FailoverEventsTable";

const load = { phase: "stability", concurrency: 20, offered_rate: 1000, value: "b2", at_s: 1, events: 3 };
const data = {
  selectors: ["1", "2"],
  campaigns: [{ id: 1, name: "failover kill x3" }, { id: 2, name: "failover disable x3" }],
  failover_events: {
    1: [{ ...load, action: "lab.backend_kill", detection_s: { median: 0.78827, min: 0.573045, max: 0.922197, n: 3 },
          recovery_s: { median: 0.674784, min: 0.458183, max: 0.809536, n: 3 }, failed: { median: 261, min: 187, max: 304, n: 3 },
          error_window_s: { median: 0.79, min: 0.57, max: 0.92, n: 3 } }],
    2: [{ ...load, action: "lab.haproxy_disable", detection_s: null, recovery_s: { median: 0, min: 0, max: 0, n: 3 },
          failed: { median: 0, min: 0, max: 0, n: 3 }, error_window_s: null }],
  },
} as unknown as Comparison; // prettier-ignore

describe("compare failover table", () => {
  it("gives each campaign's failure events their median and range across the repetitions", () => {
    render(<FailoverEventsTable data={data} rateUnit="req/s" />);
    const rows = within(screen.getByTestId("compare-failover-events")).getAllByRole("row").slice(1);
    const cells = rows.map((r) => [...r.querySelectorAll("th, td")].map((c) => c.textContent?.trim()));
    expect(cells[0]).toEqual(["failover kill x3", "stability 1,000 req/s", "backend_kill b2 at 1 s", "3", "788 ms (573 ms–922 ms)", "675 ms (458 ms–810 ms)", "261 (187–304)", "790 ms (570 ms–920 ms)"]); // prettier-ignore
    expect(cells[1]).toEqual(["failover disable x3", "stability 1,000 req/s", "haproxy_disable b2 at 1 s", "3", "—", "0 ms", "0", "—"]);
  });
  it("says when only some repetitions had a figure, and draws nothing without failure events", () => {
    expect(acrossText({ median: 0.6, min: 0.5, max: 0.7, n: 2 }, 3, String)).toBe("0.6 (0.5–0.7) in 2 of 3");
    const { container } = render(<FailoverEventsTable data={{ ...data, failover_events: { 1: [], 2: [] } }} rateUnit="req/s" />);
    expect(container.innerHTML).toBe("");
  });
});
