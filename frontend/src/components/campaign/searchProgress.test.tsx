// Issue 34: a search's preview is a range (with a time budget the user may set), its progress is trials and bracket, not a
// growing total and ETA, and a search its budget stopped says so with the bracket it had reached.
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { CampaignOut, PlanPreview, SearchResult } from "../../api/types";
import { tool, TOOLS } from "../../tools/__fixtures__";
import PhaseEditor from "../plan/PhaseEditor";
import { blankPhase, draftFromPlan, draftToBody } from "../plan/planModel";
import PreviewPanel from "../plan/PreviewPanel";
import ProgressBar from "./ProgressBar";
import SearchPanel from "./SearchPanel";

const bracket = { criterion: "latency_p99_ms ≤ 3", low: 40000, high: 44000, rate: 42000, duration_s: 5, stage: 2, range: [1000, 60000] };
const running = {
  id: 9, status: "running", agent: "local",
  progress: { done: 7, total: 8, failed: 0, cancelled: 0, elapsed_s: 95, eta_s: null, running_point_id: 8, queue_position: 0,
              search: { phase_index: 0, variant: null, repeat: 0, trials: 7, unit: "q/s", bracket, narrowed_pct: 62.5 } },
} as unknown as CampaignOut; // prettier-ignore

describe("a search's progress", () => {
  it("shows its trials so far and its bracket, no total and no ETA", () => {
    render(<ProgressBar campaign={running} />);
    expect(screen.getByTestId("progress-search").textContent).toBe("search: 7 trials so far · latency_p99_ms ≤ 3: capacity in [40,000 q/s – 44,000 q/s]");
    expect(screen.getByTestId("progress-count").textContent).not.toContain("/ 8");
    expect(screen.queryByText(/ETA/)).toBeNull();
    const bar = screen.getByRole("progressbar", { name: "Search narrowed" });
    expect(bar.getAttribute("aria-valuenow")).toBe("63");
  });

  it("keeps points done of total for a campaign without a search left", () => {
    const sweep = { ...running, progress: { ...running.progress, search: null, eta_s: 30 } } as unknown as CampaignOut;
    render(<ProgressBar campaign={sweep} />);
    expect(screen.getByTestId("progress-count").textContent).toContain("7 / 8 points");
    expect(screen.getByText(/ETA/)).toBeTruthy();
  });
});

describe("a search's preview and budget", () => {
  it("gives the duration as a range and each search's trials", () => {
    const preview = { points: [], point_count: 2, estimated_s: 1110, estimated_min_s: 34.5,
                      searches: [{ phase_index: 1, runs: 3, trials_min: 2, trials_max: 20, seconds_min: 8, seconds_max: 360, time_budget_s: null, budget_bound: false }] } as unknown as PlanPreview; // prettier-ignore
    render(<PreviewPanel preview={preview} tool={tool("dnsperf")} errors={{}} checking={false} />);
    expect(screen.getByTestId("estimated").textContent).toBe("35 s – 18 min 30 s");
    expect(screen.getByTestId("search-estimates").textContent).toContain("Search (phase 2): 2–20 trials, 8 s – 6 min each of 3 runs");
  });

  it("is a field of the search phase that round-trips as time_budget_s", () => {
    const onChange = vi.fn();
    render(<PhaseEditor phase={blankPhase("search", tool("dnsperf"))} index={0} count={1} tool={tool("dnsperf")} errors={{}} onChange={onChange} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    fireEvent.change(screen.getByLabelText("Time budget (s)"), { target: { value: "600" } });
    expect(onChange).toHaveBeenCalledWith({ timeBudget: "600" });
    const phase = { kind: "search", concurrency: 10, low: 1000, high: 60000, resolution_pct: 1, duration_s: 10, time_budget_s: 600, criteria: [{ metric: "latency_p99_ms", limit: 3 }] };
    const d = draftFromPlan({ name: "s", tool: "dnsperf", target_id: 1, params: {}, phases: [phase], pause_s: 3, repeat: 1 }, TOOLS);
    expect((draftToBody(d, TOOLS) as unknown as { phases: unknown[] }).phases).toEqual([phase]);
  });

  it("says on the report that the budget stopped the search, with the bracket it reached", () => {
    const result = { phase_index: 0, variant: null, repeat: 0, done: false, trials: 12, trial_seconds: 80, unit: "q/s", criteria: [], bracket,
                     stopped: "stopped at its time budget of 120 s: 117.5 s spent, the next trial would take 8.5 s more" } as SearchResult; // prettier-ignore
    render(<SearchPanel results={[result]} />);
    expect(screen.getByTestId("search-stopped").textContent).toBe(
      "Search stopped at its time budget of 120 s: 117.5 s spent, the next trial would take 8.5 s more: latency_p99_ms ≤ 3 within [40,000 q/s – 44,000 q/s].",
    );
  });
});
