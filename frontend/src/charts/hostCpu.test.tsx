// The report's host-CPU panel: when the plan ran mpstat, each point's summary (extra.monitors.mpstat) is drawn on the report,
// not only in one point's evidence (which the report's table does not open). No mpstat, no panel.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { beforeAll, describe, expect, it } from "vitest";
import type { CampaignOut, Point } from "../api/types";
import ReportBody from "../components/campaign/ReportBody";
import { tool } from "../tools/__fixtures__";
import { fixedSizeCharts } from "./chartTesting";
import { hostCpuRows } from "./MonitorCharts";

beforeAll(fixedSizeCharts);

const mpstat = (busy: number) => ({ all_avg_busy_pct: busy, cpu_max_busy_pct: busy + 10, cpu_max_soft_pct: busy / 4, all_avg_soft_pct: busy / 8 });
const point = (seq: number, rate: number, busy: number | null, status = "completed") =>
  ({ id: seq + 1, attempt: 1, campaign_id: 7, seq, variant: null, phase_index: 0, phase: "saturation", concurrency: 10, offered_rate: rate, duration_s: 5,
     repeat: 0, status, error: null, warnings: [], metrics: { achieved_rate: rate, latency_avg_ms: 0.2 }, started_at: null, ended_at: null,
     extra: busy == null ? {} : { monitors: { mpstat: mpstat(busy) } } }) as unknown as Point; // prettier-ignore
const POINTS = [point(2, 30000, 61), point(0, 10000, 22), point(1, 20000, 40), point(3, 40000, 90, "failed")];
const CAMPAIGN = { id: 7, name: "c", tool: "dnsperf", status: "completed", attempt: 1, analysis: null, target: {}, plan: {}, tags: [],
                   summary: { max_achieved_rate: 30000, baseline_latency_ms: null, loss_pct: 0, points_completed: 3, points_failed: 1 } } as unknown as CampaignOut; // prettier-ignore

function report(points: Point[]) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <ReportBody campaign={CAMPAIGN} points={points} variant={null} labels={[]} tool={tool("dnsperf")} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("host CPU on the report", () => {
  it("has one row per completed point with an mpstat summary, in run order", () => {
    const rows = hostCpuRows(POINTS);
    expect(rows.map((r) => [r.point, r.offered, r.all_avg_busy_pct, r.cpu_max_busy_pct, r.cpu_max_soft_pct])).toEqual([
      [1, 10000, 22, 32, 5.5],
      [2, 20000, 40, 50, 10],
      [3, 30000, 61, 71, 15.25],
    ]);
  });

  it("is a panel of the report when mpstat ran", () => {
    const view = report(POINTS);
    const panel = view.getByRole("region", { name: "Host CPU" });
    expect(panel.textContent).toContain("Host CPU (mpstat) per point");
    const legend = [...panel.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent);
    expect([...legend].sort()).toEqual(["all CPUs, mean busy", "busiest CPU, peak %soft", "busiest CPU, peak busy"]);
    expect(panel.querySelectorAll(".recharts-line-dot").length).toBe(9);
  });

  it("is absent when no point ran mpstat", () => {
    const view = report([point(0, 10000, null), point(1, 20000, null)]);
    expect(view.queryByRole("region", { name: "Host CPU" })).toBeNull();
  });
});
