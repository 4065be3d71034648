// Issue 14 on the report: capacity at SLO first, the SLO setting, steady state, the live timeline, run again / edit a copy.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { keys } from "../../api/keys";
import type { Analysis, CampaignOut, Point, SampleSeries } from "../../api/types";
import { timelineSegments } from "../../charts/timeline";
import { tool } from "../../tools/__fixtures__";
import { FakeEventSource } from "./__fixtures__/eventSource";
import CampaignTimeline from "./CampaignTimeline";
import LiveSection from "./LiveSection";
import PointsTable from "./PointsTable";
import RerunActions, { planCopy, RerunNote } from "./RerunActions";
import SteadyNote from "./SteadyNote";
import { CapacityCard } from "./SummaryCards";
import ThresholdsForm from "./ThresholdsForm";
import { useCampaignEvents } from "./useCampaignEvents";

const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

let qc: QueryClient;
beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());
const withQuery = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;

const dns = tool("dnsperf");
const capacity = { kind: "between", metric: "latency_p99_ms", limit_ms: 3, min_efficiency: 0.95, value: 14834, low: 14000, high: 16000, ci_low: 14500, ci_high: 15100, repeats: 3, how: "interpolated where the target broke" };
const analysis = (cap: unknown) => ({ capacity: cap }) as unknown as Analysis;

const pt = (id: number, over: Partial<Point> = {}): Point =>
  ({
    id, attempt: 1, campaign_id: 5, seq: id - 1, variant: null, phase_index: 0, phase: "saturation", concurrency: 4, offered_rate: 1000 * id,
    duration_s: 5, repeat: 0, status: "completed", error: null, warnings: [], metrics: { achieved_rate: 1000 * id }, extra: {}, started_at: null, ended_at: null, ...over,
  }) as Point; // prettier-ignore

describe("capacity at SLO card", () => {
  it("leads with the figure, its interval and how it was found, in the tool's rate unit", () => {
    render(<CapacityCard analysis={analysis(capacity)} tool={dns} active={false} />);
    const card = screen.getByTestId("card-capacity");
    expect(card.querySelector(".stat-label")?.textContent).toBe("Capacity at p99 ≤ 3 ms");
    expect(card.querySelector(".stat-value")?.textContent).toBe("14,834 qps [14,500–15,100]");
    expect(card.textContent).toContain("interpolated where the target broke");
  });
  it("says there is no interval with one run per load, and reads the mean when no p99 was measured", () => {
    render(<CapacityCard analysis={analysis({ ...capacity, metric: "latency_avg_ms", ci_low: null, ci_high: null, repeats: 1 })} tool={dns} active={false} />);
    const card = screen.getByTestId("card-capacity");
    expect(card.querySelector(".stat-label")?.textContent).toBe("Capacity at mean latency ≤ 3 ms");
    expect(card.textContent).toContain("no interval: one run per load");
    expect(screen.queryByTestId("capacity-interval")).toBeNull();
  });
  it("says a bound as a bound, without an interval", () => {
    render(<CapacityCard analysis={analysis({ ...capacity, kind: "at_least", value: 4000, high: null, how: "a lower bound: the SLO held at every load tested" })} tool={dns} active={false} />);
    const card = screen.getByTestId("card-capacity");
    expect(card.querySelector(".stat-value")?.textContent).toBe("≥ 4,000 qps");
    expect(card.textContent).toContain("the SLO held at every load tested");
    expect(screen.queryByTestId("capacity-interval")).toBeNull();
  });
  it("formats a prefixed unit's interval in full, and says when there is no capacity", () => {
    const { rerender } = render(<CapacityCard analysis={analysis({ ...capacity, value: 9.41e9, ci_low: 9.3e9, ci_high: 9.5e9 })} tool={tool("iperf3")} active={false} />);
    expect(screen.getByTestId("card-capacity").querySelector(".stat-value")?.textContent).toBe("9.41 Gbit/s [9.3–9.5]");
    rerender(<CapacityCard analysis={analysis({ ...capacity, kind: "below", value: 500, ci_low: null, ci_high: null, how: "an upper bound: the SLO was already missed at the lowest load tested" })} tool={dns} active={false} />);
    expect(screen.getByTestId("card-capacity").querySelector(".stat-value")?.textContent).toBe("< 500 qps");
    expect(screen.getByTestId("card-capacity").textContent).toMatch(/upper bound: the SLO was already missed at the lowest load/);
    rerender(<CapacityCard analysis={analysis(null)} tool={dns} active={false} />);
    expect(screen.getByTestId("card-capacity").textContent).toMatch(/not measured/);
  });
});

describe("analysis settings", () => {
  it("send the latency target, empty meaning the API's default", async () => {
    fetchMock.mockImplementation(async () => json({ id: 5 }));
    render(<ThresholdsForm campaignId={5} analysis={{ thresholds: { slo_ms: 2, green_ms: 1, yellow_ms: 3, k: 2, min_efficiency: 0.95 } } as unknown as Analysis} />, { wrapper: withQuery });
    const slo = screen.getByLabelText(/Capacity: latency target/) as HTMLInputElement;
    expect(slo.value).toBe("2");
    fireEvent.change(slo, { target: { value: "1.5" } });
    fireEvent.submit(screen.getByRole("form", { name: "Analysis settings" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const req = fetchMock.mock.calls[0][0];
    expect(new URL(req.url).pathname).toBe("/api/v1/campaigns/5/analysis");
    expect(await req.json()).toEqual({ slo_ms: 1.5, green_ms: 1, yellow_ms: 3, k: 2, min_efficiency: 0.95 });
    fireEvent.change(slo, { target: { value: "" } });
    fireEvent.submit(screen.getByRole("form", { name: "Analysis settings" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect((await fetchMock.mock.calls[1][0].json()).slo_ms).toBeNull();
  });
});

describe("steady state", () => {
  const steady = (unsteady: boolean, reason: string | null = null) => ({ steady: { warmup_s: 1, intervals: 9, mean: 1000, cv: 0.2, trend_pct: 3, unsteady, reason } });
  const points = [pt(1, { extra: steady(false) }), pt(2, { extra: steady(true, "the rate varies by 20 % between intervals (more than 15 %)") }), pt(3, { extra: { steady: null } })];
  it("flags an unsteady point with its reason", () => {
    render(<PointsTable points={points} tool={dns} evidence={false} />);
    const badges = screen.getAllByTestId("unsteady-badge");
    expect(badges).toHaveLength(1);
    expect(badges[0].getAttribute("title")).toBe("the rate varies by 20 % between intervals (more than 15 %)");
  });
  it("says how many points were kept out of verdicts", () => {
    render(<SteadyNote points={points} />);
    expect(screen.getByTestId("steady-note").textContent).toBe("1 of 2 points unsteady: kept out of comparison verdicts; each point's first 1 s left out as warm-up. 1 too short to judge.");
  });
});

describe("live view", () => {
  it("says plainly when a tool reports only at the end", () => {
    const c = { id: 5, tool: "x", status: "running", progress: { total: 2, done: 0, running_point_id: null }, summary: {} } as unknown as CampaignOut;
    render(<LiveSection campaign={c} tool={tool("wrk")} points={[]} live={{}} stream="live" />, { wrapper: withQuery });
    expect(screen.getByTestId("live-note").textContent).toBe("wrk reports at the end: live view shows progress only");
    render(<LiveSection campaign={c} tool={dns} points={[]} live={{}} stream="live" />, { wrapper: withQuery });
    expect(screen.getAllByTestId("live-note")).toHaveLength(1);
  });

  it("builds one timeline segment per point, stored and live samples merged on one time axis", () => {
    const rows = (t0: number, n: number, v = 100) => Array.from({ length: n }, (_, i) => ({ t: t0 + i, values: { achieved_rate: v + i } }));
    const points = [pt(1), pt(2, { status: "running" }), pt(3, { status: "pending" })];
    const { segments, samples } = timelineSegments(points, { 1: rows(1000, 3) }, { 2: rows(1005, 2, 200) }, "achieved_rate", 2);
    expect(segments.map((s) => [s.pointId, s.running, s.rows.map((r) => r.s)])).toEqual([
      [1, false, [0, 1, 2]],
      [2, true, [5, 6]],
    ]);
    expect(samples).toBe(5);
    // the live stream's copy of a stored sample is not counted twice; a sample without the metric is not drawn
    const again = timelineSegments(points, { 1: rows(1000, 3) }, { 1: [...rows(1002, 2), { t: 1010, values: { other: 1 } }] }, "achieved_rate");
    expect(again.segments[0].rows.map((r) => r.s)).toEqual([0, 1, 2, 3]);
  });

  it("grows as the running point's samples arrive, and reads every started point's stored samples", async () => {
    const series = (id: number): SampleSeries => ({ point_id: id, series: "point", downsampled: false, samples: [{ t: 1000 + 10 * id, values: { achieved_rate: 5 } }] }) as unknown as SampleSeries;
    fetchMock.mockImplementation(async (req) => json(series(Number(new URL(req.url).pathname.split("/")[4]))));
    const points = [pt(1), pt(2), pt(3, { status: "running" }), pt(4, { status: "pending" })];
    const { rerender } = render(<CampaignTimeline points={points} tool={dns} live={{}} runningId={3} />, { wrapper: withQuery });
    const timeline = () => screen.getByTestId("campaign-timeline");
    await waitFor(() => expect(timeline().dataset.segments).toBe("3"));
    expect(fetchMock.mock.calls.map((c) => new URL(c[0].url).pathname).sort()).toEqual(["/api/v1/points/1/samples", "/api/v1/points/2/samples", "/api/v1/points/3/samples"]);
    expect(timeline().dataset.samples).toBe("3");
    rerender(<CampaignTimeline points={points} tool={dns} live={{ 3: [{ t: 1031, values: { achieved_rate: 6 } }, { t: 1032, values: { achieved_rate: 7 } }] }} runningId={3} />);
    expect(timeline().dataset.samples).toBe("5");
  });

  it("refetches a point's samples when it ends, and every point's when the campaign ends", () => {
    FakeEventSource.all = [];
    vi.stubGlobal("EventSource", FakeEventSource);
    qc.setQueryData(keys.campaignPoints(5), [pt(1), pt(2)]);
    for (const id of [1, 2]) qc.setQueryData(keys.samples(id, "point", 2000), { samples: [] });
    renderHook(() => useCampaignEvents(5, true), { wrapper: withQuery });
    const es = FakeEventSource.last;
    act(() => es.open());
    act(() => es.emit("point", { id: 1, status: "running" }));
    expect(qc.getQueryState(keys.samples(1, "point", 2000))?.isInvalidated).toBe(false);
    act(() => es.emit("point", { id: 1, status: "completed" }));
    expect(qc.getQueryState(keys.samples(1, "point", 2000))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(keys.samples(2, "point", 2000))?.isInvalidated).toBe(false);
    act(() => es.emit("end", {}));
    expect(qc.getQueryState(keys.samples(2, "point", 2000))?.isInvalidated).toBe(true);
  });
});

describe("run again and edit a copy", () => {
  const done = { id: 5, name: "night run", tool: "x", status: "completed", source: "live", target_id: 3, plan: { name: "DNS sweep", tool: "x", target_id: 3, phases: [], profile_document: "{}" } } as unknown as CampaignOut;
  function Where() {
    const loc = useLocation();
    return <p data-testid="where">{`${loc.pathname}${loc.search} ${JSON.stringify(loc.state)}`}</p>;
  }
  const renderAt = (ui: ReactNode) =>
    render(
      <QueryClientProvider client={qc}>
        <MemoryRouter initialEntries={["/campaigns/5"]}>
          <Routes>
            <Route path="/campaigns/5" element={ui} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );

  it("runs again and opens the new campaign, which remembers the original", async () => {
    fetchMock.mockResolvedValueOnce(json({ ...done, id: 9, status: "queued" }, 202));
    renderAt(<RerunActions campaign={done} />);
    fireEvent.click(screen.getByRole("button", { name: "Run again" }));
    expect((await screen.findByTestId("where")).textContent).toMatch(/^\/campaigns\/9\?rerun_of=5 /);
    const req = fetchMock.mock.calls[0][0];
    expect([req.method, new URL(req.url).pathname]).toEqual(["POST", "/api/v1/campaigns/5/rerun"]);
    expect(qc.getQueryData<CampaignOut>(keys.campaign(9))?.status).toBe("queued");
  });

  it("cannot run an imported campaign again", () => {
    renderAt(<RerunActions campaign={{ ...done, source: "seed.csv (seed CSV)" }} />);
    expect((screen.getByRole("button", { name: "Run again" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("opens the plan editor with the frozen plan, renamed", async () => {
    renderAt(<RerunActions campaign={done} />);
    fireEvent.click(screen.getByRole("button", { name: "Edit a copy" }));
    const text = (await screen.findByTestId("where")).textContent!;
    expect(text.startsWith("/plans/new ")).toBe(true);
    expect(JSON.parse(text.slice("/plans/new ".length))).toEqual(planCopy(done));
    expect(planCopy(done).copyOf.plan).toEqual({ name: "DNS sweep (copy)", tool: "x", target_id: 3, phases: [] });
  });

  it("offers the comparison with the original once the re-run completes", () => {
    const { rerender } = renderAt(<RerunNote campaign={{ ...done, id: 9, status: "running" }} originalId={5} />);
    expect(screen.queryByRole("link", { name: "Compare with #5" })).toBeNull();
    rerender(
      <QueryClientProvider client={qc}>
        <MemoryRouter initialEntries={["/campaigns/5"]}>
          <Routes>
            <Route path="/campaigns/5" element={<RerunNote campaign={{ ...done, id: 9 }} originalId={5} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole("link", { name: "Compare with #5" }).getAttribute("href")).toBe("/compare?c=5&c=9");
  });
});
