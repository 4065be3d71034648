// Issue 25: a search phase in the plan editor, its bracket narrowing live, the capacity it found on the report.
import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import PhaseEditor from "../plan/PhaseEditor";
import type { Analysis, SearchEvent, SearchResult } from "../../api/types";
import { tool, TOOLS } from "../../tools/__fixtures__";
import { blankPhase, draftFromPlan, draftToBody, draftGaps, phaseKindsFor, searchMetricsFor } from "../plan/planModel";
import SearchPanel, { bracketRows } from "./SearchPanel";
import { variantAnalysis } from "./StabilityChart";
import { CapacityCard } from "./SummaryCards";
import { addSearchEvent } from "./useCampaignEvents";

const searchPhase = {
  kind: "search", concurrency: 200, low: 100, high: 20000, resolution_pct: 1, duration_s: 8,
  criteria: [{ metric: "latency_p99_ms", limit: 10 }, { metric: "loss_pct", limit: 1 }],
};
const at = (low: number | null, high: number | null, rate: number): SearchEvent => ({
  phase_index: 0, variant: null, repeat: 0, unit: "req/s", done: false, trials: 0, criterion: "latency_p99_ms ≤ 10", low, high, rate, duration_s: 1, stage: 0, range: [100, 20000],
});

describe("search phase", () => {
  it("round-trips through the plan editor and is offered only to tools with a rate", () => {
    const d = draftFromPlan({ name: "cap", tool: "dnsperf", target_id: 3, params: {}, phases: [searchPhase], pause_s: 1, repeat: 1 }, TOOLS);
    expect((draftToBody(d, TOOLS) as unknown as { phases: unknown[] }).phases).toEqual([searchPhase]);
    expect(phaseKindsFor(tool("dnsperf"))).toContain("search");
    expect(phaseKindsFor(tool("wrk"))).not.toContain("search");
    expect(searchMetricsFor(tool("iperf3"))).toEqual(["loss_pct", "efficiency_pct"]); // it measures no latency
    const blank = blankPhase("search", tool("dnsperf"));
    expect(blank.criteria.map((c) => [c.metric, c.limit])).toEqual([["latency_p99_ms", "10"]]);
    const typo = { ...d, phases: [{ ...d.phases[0], high: "lots", criteria: [{ ...d.phases[0].criteria[0], limit: "ten" }] }] };
    expect(Object.keys(draftGaps(typo, TOOLS))).toEqual(expect.arrayContaining(["phases.0.high", "phases.0.criteria.0.limit"]));
  });

  it("is edited with its range, resolution and criteria, and says the API's errors beside them", () => {
    const phase = blankPhase("search", tool("dnsperf"));
    let patch: Record<string, unknown> = {};
    const errors = { "phases.0.high": ["high must be above low"], "phases.0.criteria.0.limit": ["must be at least 0"] };
    render(<PhaseEditor phase={phase} index={0} count={1} tool={tool("dnsperf")} errors={errors} onChange={(p) => (patch = p)} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    expect((screen.getByRole("textbox", { name: /^To/ }) as HTMLInputElement).value).toBe("10000");
    expect(screen.getByText("high must be above low")).toBeTruthy();
    expect(screen.getByText("must be at least 0")).toBeTruthy();
    expect(screen.getByLabelText("Longest trial (s)")).toBeTruthy();
    expect(screen.queryByRole("radiogroup")).toBeNull(); // no offered-rate modes: the range is the rate
    fireEvent.click(screen.getByRole("button", { name: "Add criterion" }));
    expect((patch.criteria as unknown[]).length).toBe(2);
  });

  it("shows the bracket narrowing live, then the capacity found", () => {
    let events: Record<string, SearchEvent[]> = {};
    for (const e of [at(null, null, 20000), at(null, 20000, 4000), at(4000, 20000, 5000), at(4000, 5000, 4500)]) events = addSearchEvent(events, e);
    expect(bracketRows(events["0//0"]).map((r) => [r.low, r.high])).toEqual([[null, null], [null, 20000], [4000, 20000], [4000, 5000]]);
    const { rerender } = render(<SearchPanel events={events} />);
    expect(screen.getByTestId("search-live").dataset.steps).toBe("4");
    expect(screen.getByTestId("search-bracket").textContent).toContain("[4,000 req/s – 5,000 req/s] · next trial 4,500 req/s");
    const result = {
      phase_index: 0, variant: null, repeat: 0, done: true, trials: 14, trial_seconds: 40, unit: "req/s",
      criteria: [{ criterion: "latency_p99_ms ≤ 10", metric: "latency_p99_ms", limit: 10, kind: "at_least", value: 20000, low: 20000, high: null, trials: 3, resolution_pct: 1, statement: "≥ 20,000 req/s — the criterion held at every load tested" }],
    } as SearchResult;
    rerender(<SearchPanel events={events} results={[result]} />);
    const found = screen.getByTestId("search-capacity");
    expect(found.dataset.kind).toBe("at_least");
    expect(found.textContent).toContain("≥ 20,000 req/s — the criterion held at every load tested");
  });
});

describe("a search on the report", () => {
  const found = (variant: string | null, value: number, kind = "between"): SearchResult => ({
    phase_index: 0, variant, repeat: 0, done: true, trials: 9, trial_seconds: 12, unit: "req/s",
    criteria: [{ criterion: "loss_pct ≤ 2", metric: "loss_pct", limit: 2, kind, value, low: value, high: value * 1.02, trials: 9, resolution_pct: 2, statement: `${value} req/s [${value}–${value * 1.02}]` }],
  }) as SearchResult;

  const searched = (value: number, kind = "between", repeats = 1) => ({
    criterion: "loss_pct ≤ 2", label: "loss ≤ 2 %", metric: "loss_pct", limit: 2, kind, value, ci_low: kind === "between" ? value * 0.98 : null,
    ci_high: kind === "between" ? value * 1.02 : null, repeats, per_repeat: Array.from({ length: repeats }, (_, i) => ({ repeat: i, kind, value })),
    resolution_pct: 2, statement: "",
  }); // prettier-ignore

  it("leads the capacity card with what the search found, the mean of its repetitions, a bound said as a bound", () => {
    const sweepCapacity = { kind: "between", value: 123, metric: "latency_p99_ms", limit_ms: 3, how: "interpolated" };
    const { rerender } = render(<CapacityCard analysis={{ capacity: sweepCapacity, search: [found(null, 500)], searched: [searched(500, "between", 3)] } as unknown as Analysis} tool={tool("dnsperf")} active={false} />);
    const card = screen.getByTestId("card-capacity");
    expect(card.querySelector(".stat-label")?.textContent).toBe("Capacity at loss ≤ 2 %");
    expect(card.querySelector(".stat-value")?.textContent).toBe("500 qps [490–510]"); // not the bisection read as a sweep (123)
    expect(screen.getByTestId("capacity-kind").textContent).toContain("found by the search, to 2 %, mean of 3 repetitions");
    rerender(<CapacityCard analysis={{ capacity: sweepCapacity, searched: [searched(1000, "at_least")] } as unknown as Analysis} tool={tool("dnsperf")} active={false} />);
    expect(screen.getByTestId("card-capacity").querySelector(".stat-value")?.textContent).toBe("≥ 1,000 qps");
  });

  it("shows every criterion the search found, each labelled with it", () => {
    const two = [searched(500), { ...searched(450), criterion: "latency_p99_ms ≤ 10", label: "p99 latency ≤ 10 ms", metric: "latency_p99_ms", limit: 10 }];
    render(<CapacityCard analysis={{ searched: two } as unknown as Analysis} tool={tool("dnsperf")} active={false} />);
    expect(screen.getByTestId("card-searched").querySelector(".stat-label")?.textContent).toBe("Capacity at p99 latency ≤ 10 ms");
  });

  it("gives each variant its own searches", () => {
    const analysis = { search: [found("a", 500), found("b", 700)], variants: { a: {}, b: {} } } as unknown as Analysis;
    expect(variantAnalysis(analysis, "b", "a")?.search?.map((s) => s.criteria?.[0].value)).toEqual([700]);
    expect(variantAnalysis(analysis, null, "a")?.search).toHaveLength(2);
  });
});
