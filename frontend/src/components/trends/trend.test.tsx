import { afterEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { keys } from "../../api/keys";
import type { Trend, TrendPoint } from "../../api/trends";
import { trendRows } from "../../charts/TrendChart";
import TrendPage, { fmtCapacity } from "../../routes/TrendPage";

const point = (id: number, capacity: TrendPoint["capacity"], day: number): TrendPoint => ({
  campaign_id: id,
  name: "nightly",
  ended_at: `2026-01-${String(day).padStart(2, "0")}T02:00:00Z`,
  capacity,
  max_achieved_rate: 9000,
  latency_p50_ms: 0.4,
  latency_p99_ms: 1.2,
  loss_pct: 0,
});

const TREND: Trend = {
  scope: { key: "plan:3", plan_id: 3, target_id: null, tool: null, tag: null },
  metric: "capacity_at_slo",
  baseline_campaign_id: 10,
  points: [
    point(10, { value: 8000, low: 7900, high: 8100, kind: "between", bound: null }, 1),
    point(11, { value: 12000, low: null, high: null, kind: "at_least", bound: 12000 }, 2),
    point(12, { value: null, low: null, high: null, kind: "below", bound: null }, 3),
  ],
  change_points: [
    {
      metric: "capacity_at_slo", before_campaign_id: 10, after_campaign_id: 11, mean_before: 8000, mean_after: 7200, diff: -800,
      ci_low: -900, ci_high: -700, change_pct: -10, pvalue: 0.0001, direction: "worse", detected_at: null,
      differences: { plan: [], target: [], environment: [{ key: "tools.dnsperf", values: { "10": "2.11.2", "11": "2.14.0" } }], notes: [] },
      compare_url: "/compare?c=10&c=11",
    },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe("trend", () => {
  it("shows bounds as bounds, never as figures", () => {
    expect(fmtCapacity(TREND.points[0].capacity)).toBe("8,000 [7,900–8,100]");
    expect(fmtCapacity(TREND.points[1].capacity)).toBe("≥ 12,000");
    expect(fmtCapacity(TREND.points[2].capacity)).toBe("below the lowest load");
    const rows = trendRows(TREND.points, "capacity_at_slo");
    expect(rows.map((r) => [r.value, r.atLeast])).toEqual([[8000, null], [null, 12000], [null, null]]);
    expect(rows[0].range).toEqual([7900, 8100]);
  });

  it("shows the trend the URL names and links each change point to its comparison", async () => {
    vi.stubGlobal("fetch", () => new Promise(() => {})); // nothing else is asked for: the trend below is the one the URL names
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(keys.trend({ plan_id: 3, metric: "capacity_at_slo", since: "2026-01-01" }), TREND);
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/trends?plan=3&since=2026-01-01"]}>
          <Routes>
            <Route path="/trends" element={<TrendPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const link = await screen.findByRole("link", { name: "Compare #10 and #11" });
    expect(link.getAttribute("href")).toBe("/compare?c=10&c=11");
    const changes = screen.getByTestId("change-points");
    expect(within(changes).getByText("tools.dnsperf").closest("li")?.textContent).toContain("2.11.2 → 2.14.0");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Trend of plan #3");
    expect(screen.getByText("≥ 12,000")).toBeTruthy();
  });
});
