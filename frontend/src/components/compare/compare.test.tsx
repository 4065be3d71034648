// The compare page leads with capacity at SLO (with intervals), verdicts as CSS-safe classes, and per-point verdicts.
import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { verdictClass, type Comparison } from "../../api/compare";
import { tool } from "../../tools/__fixtures__";
import HeadlineTable from "./HeadlineTable";
import PointVerdictsTable, { verdictMetrics } from "./PointVerdictsTable";

const row = (over: Record<string, unknown>) => ({
  n_a: 3, n_b: 3, mean_a: 1000, mean_b: 1100, diff: 100, ci_low: 40, ci_high: 160, change_pct: 10, p: 0.004, p_adjusted: 0.008, verdict: "better", ...over,
}); // prettier-ignore
const basis = "Welch's t-test at 2 matched point(s): 1 better, 1 not enough data";
const method = "Welch's t-test at each matched point on the repetitions (≥ 3 a side), 95% confidence; corrected for the number of tests";

const data = {
  selectors: ["1", "2"],
  method,
  campaigns: [{ id: 1, analysis: { capacity: { metric: "latency_p99_ms", limit_ms: 3 } } }, { id: 2, analysis: null }],
  headline: [
    { metric: "capacity_at_slo", label: "Capacity at p99 latency ≤ 3 ms (SLO, sweep)", unit: "rate", better: "higher", values: { 1: 14834, 2: 15200 }, intervals: { 1: [14500, 15100], 2: null },
      deltas: { 1: null, 2: { abs: 366, pct: 2.5 } }, verdicts: { 1: null, 2: "no detectable difference" }, basis: { 1: null, 2: "Welch's t-test on 3 and 3 per-repetition capacities" },
      details: { 1: null, 2: "the interval is wider than ±2 %; smallest detectable change 6.1 % (α = 0.05, power 0.8)" }, kinds: { 1: "between", 2: "between" } },
    { metric: "max_achieved_rate", label: "Max achieved rate", unit: "rate", better: "higher", values: { 1: 16000, 2: 17000 }, intervals: null,
      deltas: { 1: null, 2: { abs: 1000, pct: 6.25 } }, verdicts: { 1: null, 2: "not enough data" }, basis: { 1: null, 2: basis } },
  ],
  point_verdicts: {
    2: {
      confidence: 0.95,
      points: [
        { phase: "saturation", concurrency: 20, offered_rate: 10000, achieved_rate: row({}), latency_avg_ms: row({ mean_a: 0.5, mean_b: 0.5, diff: 0, ci_low: -0.02, ci_high: 0.03, change_pct: 0, p: 0.9, p_adjusted: 1, verdict: "no detectable difference" }) },
        { phase: "saturation", concurrency: 20, offered_rate: 20000, achieved_rate: row({ n_b: 2, diff: null, ci_low: null, ci_high: null, p: null, p_adjusted: null, verdict: "not enough data" }), latency_avg_ms: row({ verdict: "worse", ci_low: 0.1, ci_high: 0.3 }) },
      ],
      overall: {
        achieved_rate: { verdict: "better", better: 1, worse: 0, same: 0, few: 1, basis },
        latency_avg_ms: { verdict: "mixed", better: 0, worse: 1, same: 1, few: 0, basis },
      },
    },
  },
  points: {},
  differences: { plan: [], environment: [], target: [] },
} as unknown as Comparison; // prettier-ignore

describe("compare headline", () => {
  it("leads with capacity at SLO, labelled by the API, and its interval beside each value", () => {
    render(<HeadlineTable data={data} tool={tool("dnsperf")} />);
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows[0].getAttribute("data-metric")).toBe("capacity_at_slo");
    expect(within(rows[0]).getByRole("rowheader").textContent).toMatch(/^Capacity at p99 latency ≤ 3 ms \(SLO, sweep\)/); // the API's label
    const intervals = within(rows[0]).getAllByTestId("headline-interval").map((e) => e.textContent?.trim());
    expect(intervals).toEqual(["[14,500–15,100]", "[no interval]"]);
    expect(within(rows[1]).queryByTestId("headline-interval")).toBeNull();
  });
  it("says bounds as bounds, equivalence with its margin, and what the data could detect", () => {
    const bounded = { ...data, headline: [{ ...data.headline[0], values: { 1: 4000, 2: 4000 }, intervals: { 1: null, 2: null }, kinds: { 1: "at_least", 2: "at_least" },
      verdicts: { 1: null, 2: "not enough data" }, details: { 1: null, 2: "both ≥ the range tested (≥ 4,000 qps, ≥ 4,000 qps); widen the range" } }] } as unknown as Comparison; // prettier-ignore
    const { unmount } = render(<HeadlineTable data={bounded} tool={tool("dnsperf")} />);
    const values = screen.getAllByRole("row")[1].querySelectorAll(".value");
    expect([...values].map((v) => v.textContent)).toEqual(["≥ 4,000 qps", "≥ 4,000 qps"]);
    expect(screen.getByTestId("verdict-detail").textContent).toContain("widen the range");
    unmount();
    const equivalent = { ...data, headline: [{ ...data.headline[0], verdicts: { 1: null, 2: "equivalent" }, verdict_texts: { 1: null, 2: "equivalent within ±2 %" } }] } as unknown as Comparison; // prettier-ignore
    render(<HeadlineTable data={equivalent} tool={tool("dnsperf")} />);
    expect(screen.getByTestId("verdict").textContent).toBe("equivalent within ±2 %");
    expect(screen.getByTestId("verdict").className).toBe("verdict equivalent");
    expect(screen.getByTestId("verdict-detail").textContent).toContain("smallest detectable change 6.1 %");
  });
  it("says the method once under the headline, however many rows (each row's own basis is its verdict's tooltip)", () => {
    const many = { ...data, headline: Array.from({ length: 10 }, (_, i) => ({ ...data.headline[1], metric: `m${i}`, basis: { 1: null, 2: `Welch's t-test at ${i + 1} matched point(s)` } })) } as unknown as Comparison; // prettier-ignore
    const { container } = render(<HeadlineTable data={many} tool={tool("dnsperf")} />);
    expect(container.textContent?.match(/Verdicts:/g)).toHaveLength(1);
    expect(screen.getByTestId("verdict-method").textContent).toBe(`Verdicts: ${method}.`);
    expect(screen.getAllByTestId("verdict")[3].getAttribute("title")).toBe("Welch's t-test at 4 matched point(s)");
  });
  it("maps verdicts with spaces to one CSS class each", () => {
    render(<HeadlineTable data={data} tool={tool("dnsperf")} />);
    const [first, second] = screen.getAllByTestId("verdict");
    expect(first.className).toBe("verdict no-detectable-difference");
    expect(second.className).toBe("verdict not-enough-data");
    expect(verdictClass("mixed")).toBe("mixed");
  });
});

describe("compare: the server's evidence", () => {
  const bn = (resource: string | null, text: string) => ({ resource, kind: resource ? "utilisation" : "none", text, evidence: [], value: null, threshold: null });
  const cost = { metric: "server_cost", label: "Server CPU per 1,000 queries", unit: "CPU-s per 1,000 queries", better: "lower", values: { 1: 0.05, 2: 0.0705 }, intervals: null,
    deltas: { 1: null, 2: { abs: 0.0205, pct: 41 } }, verdicts: { 1: null, 2: "worse" }, verdict_texts: { 1: null, 2: "worse" } }; // prettier-ignore
  it("renders the server_cost row like any other, in the unit the API gives", () => {
    render(<HeadlineTable data={{ ...data, headline: [...data.headline, cost] } as unknown as Comparison} tool={tool("dnsperf")} />);
    const row = screen.getAllByRole("row").find((r) => r.getAttribute("data-metric") === "server_cost")!;
    expect(within(row).getByRole("rowheader").textContent).toMatch(/^Server CPU per 1,000 queries \(lower is better\)/);
    expect([...row.querySelectorAll(".value")].map((v) => v.textContent)).toEqual(["0.05 CPU-s per 1,000 queries", "0.071 CPU-s per 1,000 queries"]);
    expect(row.querySelector(".delta")?.textContent).toBe("+0.021 CPU-s per 1,000 queries · +41 %");
  });
  it("says under an undecided verdict the repetitions that would decide a 10 % change", () => {
    const text = "to detect a 10 % change: 12 repetitions a side at the same point length (now 3; α = 0.05, power 0.8); these could detect 24.3 %";
    const undecided = { ...cost, verdicts: { 1: null, 2: "no detectable difference" }, verdict_texts: { 1: null, 2: "no detectable difference" },
      next_steps: { 1: null, 2: { change_pct: 10, repetitions: 12, now: 3, detectable_pct: 24.3, text } } }; // prettier-ignore
    render(<HeadlineTable data={{ ...data, headline: [...data.headline, undecided, cost] } as unknown as Comparison} tool={tool("dnsperf")} />);
    expect(screen.getAllByTestId("next-step").map((e) => e.textContent)).toEqual([`Next step: ${text}`]);
  });
  it("gives each campaign's bottleneck a line, and says when it moved", () => {
    const moved = { ...data, bottlenecks: { 1: bn("cpu1.softirq", "CPU1's softirq ≥ 95 %: one receive queue"), 2: bn("disk", "the disk is 97 % busy") } } as unknown as Comparison;
    const { unmount } = render(<HeadlineTable data={moved} tool={tool("dnsperf")} />);
    const lines = within(screen.getByTestId("bottlenecks")).getAllByRole("listitem").map((l) => l.textContent?.trim());
    expect(lines).toEqual(["#1: CPU1's softirq ≥ 95 %: one receive queue", "#2: the disk is 97 % busy"]);
    expect(screen.getByTestId("bottleneck-moved").textContent).toContain("the bottleneck moved: cpu1.softirq (#1) → disk (#2)");
    unmount();
    const same = { ...data, bottlenecks: { 1: bn("cpu", "both CPUs ≥ 97 % busy: CPU-bound"), 2: bn("cpu", "both CPUs ≥ 98 % busy: CPU-bound") } } as unknown as Comparison;
    const second = render(<HeadlineTable data={same} tool={tool("dnsperf")} />);
    expect(screen.queryByTestId("bottleneck-moved")).toBeNull();
    second.unmount();
    const none = { ...data, bottlenecks: { 1: null, 2: bn(null, "nothing near saturation") } } as unknown as Comparison;
    const third = render(<HeadlineTable data={none} tool={tool("dnsperf")} />);
    expect(within(screen.getByTestId("bottlenecks")).getAllByRole("listitem").map((l) => l.textContent?.trim())).toEqual(["#1: no server evidence", "#2: nothing near saturation"]);
    expect(screen.queryByTestId("bottleneck-moved")).toBeNull();
    third.unmount();
    render(<HeadlineTable data={data} tool={tool("dnsperf")} />);
    expect(screen.queryByTestId("bottlenecks")).toBeNull();
  });
});

describe("per-point verdicts", () => {
  it("lists each matched point with change, CI of the difference, adjusted p and verdict, under a collapsed section", () => {
    render(<PointVerdictsTable data={data} tool={tool("dnsperf")} />);
    const details = screen.getByTestId("point-verdicts") as HTMLDetailsElement;
    expect(details.open).toBe(false);
    fireEvent.click(within(details).getByText("Per-point verdicts"));
    const body = within(screen.getByTestId("point-verdicts-table")).getAllByRole("row").slice(2);
    const cells = body.map((r) => within(r).getAllByRole("cell").map((c) => c.textContent));
    expect(cells[0]).toEqual(["saturation", "20", "10,000 qps", "+10 %", "[+40, +160 qps]", "0.008", "better", "0 %", "[−20, +30 µs]", "1", "no detectable difference"]);
    expect(cells[1].slice(3, 7)).toEqual(["+10 %", "—", "—", "not enough data"]);
    expect(details.textContent).toContain(`Basis: ${method}.`);
    expect(details.querySelector(".verdict.mixed")).toBeTruthy();
  });
  it("shows the headline metric and latency", () => {
    expect(verdictMetrics(tool("dnsperf"), data.point_verdicts["2"].points as never)).toEqual(["achieved_rate", "latency_avg_ms"]);
  });
});
