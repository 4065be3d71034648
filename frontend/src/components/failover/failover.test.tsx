// Issue 39: a failover point's events drawn on its charts, its request outcomes and where the traffic went, and the
// report's failover table, from a real capture (kbhttp at 2,000 req/s through the lab's HAProxy, backend b2 stopped 3 s in
// and started 4 s later; __fixtures__/make_fixtures.py reads it with the backend's own code).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "../../api/client";
import { keys } from "../../api/keys";
import type { CampaignOut, Point } from "../../api/types";
import { along, fixedSizeCharts, markers } from "../../charts/chartTesting";
import MonitorCharts from "../../charts/MonitorCharts";
import TimeSeriesChart from "../../charts/TimeSeriesChart";
import TimelineChart from "../../charts/TimelineChart";
import { eventsOf, type PointEventRecord } from "../../charts/eventMarkers";
import { timelineSegments } from "../../charts/timeline";
import { MONITOR_SAMPLES, TOOLS, tool } from "../../tools/__fixtures__";
import ReportBody from "../campaign/ReportBody";
import FailoverPanel from "./FailoverPanel";
import OutcomesChart from "./OutcomesChart";
import capture from "./__fixtures__/b2-stopped.json";

beforeAll(fixedSizeCharts);
afterEach(() => vi.restoreAllMocks());

const EVENTS = capture.events as PointEventRecord[];
const OUTCOMES = capture.outcomes.outcomes as Record<string, unknown>;
const START = OUTCOMES.start as number;

function draw(ui: React.ReactNode, enabled = false, seed: (qc: QueryClient) => void = () => {}) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, enabled } } });
  qc.setQueryData(keys.tools, TOOLS);
  seed(qc);
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("event markers", () => {
  it("mark the stop and the start on the outcomes chart, at their times on its clock", () => {
    const view = draw(<OutcomesChart outcomes={OUTCOMES} events={EVENTS} />);
    const found = markers(view.container);
    expect(found.map((m) => m.label)).toEqual(["backend_stop b2", "backend_start b2"]);
    // the stop was 2.996 s and the start 6.995 s after the first bucket: within a pixel's worth of a second
    expect(along(view.container, found[0].x)).toBeCloseTo(EVENTS[0].t - START, 1);
    expect(along(view.container, found[1].x)).toBeCloseTo(EVENTS[1].t - START, 1);
  });

  it("mark the events on the point's samples chart and on each monitor chart", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ t: START + 1 + i, values: { achieved_rate: i === 3 ? 1500 : 2000, latency_avg_ms: 0.4 } }));
    const series = draw(<TimeSeriesChart title="samples" rows={rows} tool={tool("kbhttp")} events={EVENTS} />);
    const onSeries = markers(series.container);
    expect(onSeries.map((m) => m.label)).toEqual(["backend_stop b2", "backend_start b2"]);
    expect(along(series.container, onSeries[0].x)).toBeCloseTo(EVENTS[0].t - (START + 1), 1); // 0 s is the first sample
    series.unmount();

    const mpstat = MONITOR_SAMPLES.mpstat;
    const t0 = Math.min(...mpstat.map((s) => s.t));
    const failed: PointEventRecord = { at_s: 1, action: "lab.backend_start", value: "b3", t: t0 + 1, error: "b3 is already running" };
    const monitors = draw(<MonitorCharts samples={mpstat} events={[failed]} />);
    const figure = monitors.getByRole("figure", { name: "CPU (mpstat): %soft" });
    expect(markers(figure).map((m) => m.label)).toEqual(["backend_start b3 (failed)"]);
  });

  it("mark every point's events on the campaign timeline", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ t: START + 1 + i, values: { achieved_rate: 2000 } }));
    const p = point(1, { events: capture.events });
    const { segments, samples, t0 } = timelineSegments([p, point(2, {})], { 1: rows }, {}, "achieved_rate");
    const view = draw(<TimelineChart segments={segments} samples={samples} tool={tool("kbhttp")} events={eventsOf(p.extra)} t0={t0} />);
    const found = markers(view.container);
    expect(found.map((m) => m.label)).toEqual(["backend_stop b2", "backend_start b2"]);
    expect(along(view.container, found[1].x)).toBeCloseTo(EVENTS[1].t - (START + 1), 1);
  });

  it("draw no marker for a point without events", () => {
    const view = draw(<OutcomesChart outcomes={OUTCOMES} />);
    expect(markers(view.container)).toEqual([]);
  });
});

describe("request outcomes of a point", () => {
  it("stack answered and failed requests per bucket, merged to round buckets, at most 600", () => {
    const view = draw(<OutcomesChart outcomes={OUTCOMES} events={EVENTS} />);
    expect(view.getByRole("figure").getAttribute("aria-label")).toBe("Requests by outcome per 50 ms of intended send time");
    expect([...view.container.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent).sort()).toEqual(["HTTP 5xx", "answered (2xx, 3xx)"]);
    expect(view.container.querySelectorAll(".recharts-area").length).toBe(2);
  });

  it("show the spread before, during and after the failure and the persistence, from GET /points/{id}/outcomes", async () => {
    const get = vi.spyOn(api, "GET").mockResolvedValue({ data: capture.outcomes, response: new Response() } as never);
    const view = draw(<FailoverPanel pointId={1} extra={{ events: capture.events, failover: capture.failover, outcomes_stored: true }} />, true);
    const panel = await view.findByTestId("failover-panel");
    expect(get).toHaveBeenCalledWith("/api/v1/points/{point_id}/outcomes", expect.objectContaining({ params: { path: { point_id: 1 } } }));
    const table = within(panel).getByRole("table");
    const row = (name: string) => [...within(table).getByRole("rowheader", { name }).parentElement!.querySelectorAll("td")].map((td) => td.textContent);
    expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["backend", "before", "during", "after"]);
    expect(row("b2")).toEqual(["1,993 (33.3 %)", "4 (0.3 %)", "2,753 (33.3 %)"]);
    expect(row("b1")).toEqual(["1,994 (33.3 %)", "580 (49.8 %)", "2,753 (33.3 %)"]);
    expect(within(panel).getByTestId("persistence").textContent).toBe(
      "Persistence: 50 connections: 45.6 % of their requests on their main backend (lowest 39.7 %); 0 stayed on one backend throughout.",
    );
    await waitFor(() => expect(markers(panel).map((m) => m.label)).toEqual(["backend_stop b2", "backend_start b2"]));
  });
});

const point = (id: number, extra: Record<string, unknown>) =>
  ({ id, attempt: 1, campaign_id: 9, seq: id - 1, variant: null, phase_index: 0, phase: "stability", concurrency: 50, offered_rate: 2000, duration_s: 12,
     repeat: 0, status: "completed", error: null, warnings: [], metrics: { achieved_rate: 1951 }, started_at: null, ended_at: null, extra }) as unknown as Point; // prettier-ignore
const campaign = { id: 9, name: "failover", tool: "kbhttp", status: "completed", attempt: 1, analysis: null, target: {}, plan: {}, tags: [],
  summary: { max_achieved_rate: 1951, baseline_latency_ms: null, loss_pct: 0, points_completed: 2, points_failed: 0 } } as unknown as CampaignOut; // prettier-ignore

describe("the report's failover table", () => {
  it("gives each failure event its window, gap, failures, detection, recovery and spread", () => {
    const points = [point(1, { events: capture.events, failover: capture.failover, outcomes_stored: true }), point(2, {})];
    const view = draw(<ReportBody campaign={campaign} points={points} variant={null} labels={[]} tool={tool("kbhttp")} />);
    const table = view.getByTestId("failover-table");
    const cells = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent));
    expect(cells).toEqual([
      ["1", "backend_stop b2 at 3 s", "2.99–3.87 s (880 ms)", "0 ms", "582 (HTTP 5xx 582)", "874 ms", "720 ms",
       "b1 33.3 % · b2 33.3 % · b3 33.3 %", "b1 49.8 % · b3 49.8 % · b2 0.3 %", "b3 33.3 % · b1 33.3 % · b2 33.3 %"],
    ]); // prettier-ignore
  });

  it("gives a point no failure split its spread and persistence per connection and per source address", () => {
    const view = draw(<ReportBody campaign={campaign} points={[point(1, { distribution: capture.distribution })]} variant={null} labels={[]} tool={tool("kbhttp")} />);
    const table = view.getByTestId("distribution-table");
    const cells = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent));
    expect(cells).toEqual([
      ["1", "39,418 by X-Backend", "b1 41.4 % · b3 41.4 % · b2 17.1 %",
       "100 connections: 48.4 % of their requests on their main backend (lowest 39.7 %); 0 stayed on one backend throughout",
       "2 sources: 41.4 % of their requests on their main backend (lowest 39.9 %); 0 stayed on one backend throughout (agent-1 on b3 39.9 %, agent-2 on b1 43.8 %)"],
    ]); // prettier-ignore
    expect(view.queryByTestId("failover-table")).toBeNull();
  });

  it("comes with the outcomes chart of the point the stability chart draws, its events marked (a file's data seeded)", () => {
    const points = [point(1, { events: capture.events, failover: capture.failover, outcomes_stored: true })];
    const view = draw(<ReportBody campaign={campaign} points={points} variant={null} labels={[]} tool={tool("kbhttp")} />, false,
      (qc) => qc.setQueryData(keys.outcomes(1), capture.outcomes)); // prettier-ignore
    const card = view.getByRole("region", { name: "Request outcomes of point 1" });
    expect(within(card).getByRole("figure").getAttribute("aria-label")).toBe("Requests by outcome per 50 ms of intended send time");
    expect(markers(card).map((m) => m.label)).toEqual(["backend_stop b2", "backend_start b2"]);
  });

  it("is left out when no point had a failure event", () => {
    const view = draw(<ReportBody campaign={campaign} points={[point(1, {}), point(2, { outcomes_stored: true })]} variant={null} labels={[]} tool={tool("kbhttp")} />);
    expect(view.queryByTestId("failover-table")).toBeNull();
  });
});
