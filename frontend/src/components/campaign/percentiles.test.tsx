// Issue 15: latency percentiles where people look — the percentile chart, the points table's columns and histogram,
// the SLO percentile setting and the capacity card, and percentile rows and overlays in a comparison.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Comparison } from "../../api/compare";
import { SharedTokenContext } from "../../api/shares";
import type { Analysis, Histogram, Point } from "../../api/types";
import OverlayCharts from "../../charts/OverlayCharts";
import PercentileChart, { percentileSeries } from "../../charts/PercentileChart";
import { tool } from "../../tools/__fixtures__";
import HeadlineTable from "../compare/HeadlineTable";
import HistogramPanel from "./HistogramPanel";
import PointsTable from "./PointsTable";
import { CapacityCard } from "./SummaryCards";
import ThresholdsForm from "./ThresholdsForm";

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
const withQuery = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;

/** jsdom has no layout: every ResponsiveContainer measures 600 × 260, so Recharts draws. */
beforeAll(() => {
  globalThis.ResizeObserver = class {
    constructor(private cb: ResizeObserverCallback) {}
    observe(target: Element) {
      this.cb([{ target, contentRect: { width: 600, height: 260 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

const dns = tool("dnsperf");
const pcts = (p50: number) => ({ latency_p50_ms: p50, latency_p90_ms: 2 * p50, latency_p99_ms: 5 * p50, latency_p999_ms: 9 * p50 });
const pt = (id: number, over: Partial<Point> = {}, metrics: Record<string, number | null> = {}): Point =>
  ({
    id, attempt: 1, campaign_id: 5, seq: id - 1, variant: null, phase_index: 0, phase: "saturation", concurrency: 4, offered_rate: 1000 * id,
    duration_s: 5, repeat: 0, status: "completed", error: null, warnings: [], extra: {}, started_at: null, ended_at: null,
    metrics: { achieved_rate: 990 * id, latency_avg_ms: 0.3 * id, ...pcts(0.1 * id), ...metrics }, ...over,
  }) as Point; // prettier-ignore

describe("latency percentiles vs load", () => {
  it("plots one series per declared, measured percentile with each point's own values, by offered load", () => {
    const points = [pt(3), pt(1), pt(2, {}, { latency_p999_ms: null }), pt(4, { phase: "stability" }), pt(5, { status: "failed" })];
    const { rows, series, byOffered } = percentileSeries(points, dns);
    expect(series.map((m) => m.name)).toEqual(["latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms"]);
    expect(byOffered).toBe(true);
    expect(rows.map((r) => [r.x, r.label])).toEqual([[1000, "point 1 · saturation"], [2000, "point 2 · saturation"], [3000, "point 3 · saturation"]]);
    expect(rows.map((r) => r.values.latency_p99_ms)).toEqual([0.5, 1, 1.5].map((v) => expect.closeTo(v, 9)));
    expect(rows[1].values.latency_p999_ms).toBeNull();
  });

  it("leaves out what the tool does not declare (the mean, p75) and what no point measured", () => {
    const wrk = tool("wrk");
    expect(wrk.metrics.some((m) => m.name === "latency_p75_ms")).toBe(true);
    const points = [pt(1, { offered_rate: null }, { latency_p75_ms: 1, latency_p999_ms: null }), pt(2, { offered_rate: null }, { latency_p75_ms: 2, latency_p999_ms: null })];
    const { series, byOffered, rows } = percentileSeries(points, wrk);
    expect(series.map((m) => m.name)).toEqual(["latency_p50_ms", "latency_p90_ms", "latency_p99_ms"]);
    expect(byOffered).toBe(false);
    expect(rows.map((r) => r.x)).toEqual([990, 1980]);
    expect(percentileSeries(points, tool("iperf3")).series).toEqual([]);
  });

  it("draws the lines with the tool's labels, hides one from the legend, and shows nothing without percentiles", () => {
    const points = [pt(1), pt(2), pt(3)];
    const { container } = render(<PercentileChart points={points} tool={dns} />);
    const chart = screen.getByTestId("percentile-chart");
    expect(within(chart).getByText("Latency percentiles vs offered load")).toBeTruthy();
    const legend = [...container.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent);
    expect(legend).toEqual(["p50", "p90", "p99", "p99.9"]);
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(4);
    // the p99 line runs through the points' p99 values: its dots sit in the same order, higher than p90's
    const dots = (i: number) => [...container.querySelectorAll(".recharts-line-dots")][i].querySelectorAll("circle");
    const ys = (i: number) => [...dots(i)].map((c) => Number(c.getAttribute("cy")));
    expect(ys(2).every((y, j) => y < ys(1)[j])).toBe(true);
    fireEvent.click(container.querySelectorAll(".recharts-legend-item")[0]);
    expect(container.querySelectorAll(".recharts-line-curve")).toHaveLength(3);
    fireEvent.click(screen.getByLabelText("log latency axis"));
    expect((screen.getByLabelText("log latency axis") as HTMLInputElement).checked).toBe(true);
    const { container: none } = render(<PercentileChart points={[pt(1, {}, { latency_p50_ms: null, latency_p90_ms: null, latency_p99_ms: null, latency_p999_ms: null })]} tool={dns} />);
    expect(none.innerHTML).toBe("");
  });
});

const histogram: Histogram = {
  point_id: 2, window: "all", intervals: null, count: 1500, min_ms: 0.017, max_ms: 4.279, mean_ms: 0.125,
  percentiles: [{ percentile: 50, value_ms: 0.057 }, { percentile: 90, value_ms: 0.106 }, { percentile: 99, value_ms: 2.011 }, { percentile: 99.9, value_ms: 4.061 }, { percentile: 99.99, value_ms: 4.279 }],
  buckets: [{ from_ms: 0.016, value_ms: 0.017, count: 1, percentile: 0.07 }, { from_ms: 0.017, value_ms: 0.06, count: 800, percentile: 53.4 }, { from_ms: 0.06, value_ms: 4.279, count: 699, percentile: 100 }],
}; // prettier-ignore

describe("points table", () => {
  it("has a column per declared percentile, none for a tool without", () => {
    render(<PointsTable points={[pt(1)]} tool={dns} evidence={false} />);
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent?.replace(/[▲▼]/g, "").trim());
    expect(headers).toEqual(expect.arrayContaining(["Latency p50", "Latency p90", "Latency p99", "Latency p99.9"]));
    expect(screen.getByRole("row", { name: /^1 saturation/ }).textContent).toContain("900 µs"); // p99.9 of point 1
    render(<PointsTable points={[pt(1)]} tool={tool("iperf3")} evidence={false} />);
    expect(screen.getAllByRole("columnheader").filter((h) => /p50/.test(h.textContent ?? ""))).toHaveLength(1);
  });

  it("opens a point's histogram: bars per bucket and the percentile table", async () => {
    fetchMock.mockImplementation(async () => json(histogram));
    render(<PointsTable points={[pt(1, {}, { latency_p50_ms: null, latency_p90_ms: null, latency_p99_ms: null, latency_p999_ms: null }), pt(2)]} tool={dns} />, { wrapper: withQuery });
    expect(screen.queryByRole("button", { name: "Latency histogram of point 1" })).toBeNull(); // no percentiles: no histogram
    fireEvent.click(screen.getByRole("button", { name: "Latency histogram of point 2" }));
    const dialog = screen.getByRole("dialog", { name: "Latency histogram · point 2 · saturation" });
    await waitFor(() => expect(within(dialog).getByTestId("histogram")).toBeTruthy());
    expect(new URL(fetchMock.mock.calls[0][0].url).pathname).toBe("/api/v1/points/2/histogram");
    await waitFor(() => expect(dialog.querySelectorAll(".recharts-bar-rectangle").length).toBe(3)); // drawn once sized
    const table = within(dialog).getByTestId("percentile-table");
    expect(within(table).getAllByRole("row").map((r) => r.textContent)).toEqual(["p5057 µs", "p90106 µs", "p992.01 ms", "p99.94.06 ms", "p99.994.28 ms", "min17 µs", "mean125 µs", "max4.28 ms", "count1,500"]);
    fireEvent.change(within(dialog).getByLabelText(/Window/), { target: { value: "steady" } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(new URL(fetchMock.mock.calls[1][0].url).search).toBe("?window=steady");
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("on a shared page, opens a point's histogram through the link, never the signed-in route", async () => {
    fetchMock.mockImplementation(async () => json(histogram));
    render(
      <SharedTokenContext.Provider value="tok123">
        <PointsTable points={[pt(2)]} tool={dns} evidence={false} />
      </SharedTokenContext.Provider>,
      { wrapper: withQuery },
    );
    fireEvent.click(screen.getByRole("button", { name: "Latency histogram of point 2" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(new URL(fetchMock.mock.calls[0][0].url).pathname).toBe("/api/v1/shared/tok123/points/2/histogram");
  });

  it("says why a point has no histogram, and offers a retry when loading failed", async () => {
    fetchMock.mockImplementationOnce(async () => json({ detail: "point 7 has no stored latency histogram: latency capture was off" }, 409));
    const { unmount } = render(<HistogramPanel pointId={7} label="point 7" onClose={() => {}} />, { wrapper: withQuery });
    expect((await screen.findByText(/no stored latency histogram: latency capture was off/)).closest(".state")?.className).toContain("empty");
    unmount();
    fetchMock.mockImplementationOnce(async () => json({ detail: "database gone" }, 503));
    render(<HistogramPanel pointId={8} label="point 8" onClose={() => {}} />, { wrapper: withQuery });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/Could not load the latency histogram.*database gone/);
    fetchMock.mockImplementationOnce(async () => json({ ...histogram, point_id: 8 }));
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(screen.getByTestId("histogram")).toBeTruthy());
  });
});

describe("capacity at an SLO percentile", () => {
  it("offers the tool's latencies and sends the one chosen; the API's 422 shows beside it", async () => {
    fetchMock.mockImplementationOnce(async () => json({ detail: [{ loc: ["body", "slo_metric"], msg: "dnsperf does not measure latency_p75_ms", type: "value_error" }] }, 422));
    const thresholds = { slo_ms: 5, slo_metric: "latency_p99_ms", green_ms: 1, yellow_ms: 3, k: 2, min_efficiency: 0.95 };
    render(<ThresholdsForm campaignId={5} analysis={{ thresholds } as unknown as Analysis} tool={dns} />, { wrapper: withQuery });
    const select = screen.getByLabelText("Capacity: read on") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["automatic (p99 when measured, else the mean)", "mean latency", "p50", "p90", "p99", "p99.9"]);
    expect(select.value).toBe("latency_p99_ms");
    fireEvent.change(select, { target: { value: "latency_p999_ms" } });
    fireEvent.submit(screen.getByRole("form", { name: "Analysis settings" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect((await fetchMock.mock.calls[0][0].json()).slo_metric).toBe("latency_p999_ms");
    expect((await screen.findByTestId("field-error")).textContent).toBe("dnsperf does not measure latency_p75_ms");
    render(<ThresholdsForm campaignId={6} analysis={null} tool={tool("iperf3")} />, { wrapper: withQuery });
    expect(screen.getAllByLabelText("Capacity: read on")).toHaveLength(1); // no latency: no choice
  });

  it("names the percentile on the capacity card", () => {
    const cap = { metric: "latency_p999_ms", limit_ms: 5, min_efficiency: 0.95, capacity: 12000, ci_low: null, ci_high: null, repeats: 1, how: "interpolated where the target broke" };
    render(<CapacityCard analysis={{ capacity: cap } as unknown as Analysis} tool={dns} active={false} />);
    expect(screen.getByTestId("card-capacity").querySelector(".stat-label")?.textContent).toBe("Capacity at p99.9 ≤ 5 ms");
  });
});

describe("comparison", () => {
  it("shows the API's percentile rows in the headline, in ms", () => {
    const p99 = { metric: "latency_p99_ms", label: "Latency p99 at low load", unit: "ms", better: "lower", values: { 1: 0.5, 2: 1 }, intervals: null,
      deltas: { 1: null, 2: { abs: 0.5, pct: 100 } }, verdicts: { 1: null, 2: "worse" }, basis: { 1: null, 2: "Welch" } }; // prettier-ignore
    const data = { selectors: ["1", "2"], campaigns: [{ id: 1, analysis: null }, { id: 2, analysis: null }], headline: [p99] } as unknown as Comparison;
    render(<HeadlineTable data={data} tool={dns} />);
    const row = screen.getByRole("row", { name: /Latency p99 at low load/ });
    expect(row.getAttribute("data-metric")).toBe("latency_p99_ms");
    expect(row.textContent).toContain("500 µs");
    expect(row.textContent).toContain("+500 µs · +100 %");
    expect(within(row).getByTestId("verdict").textContent).toBe("worse");
  });

  it("overlays a chosen percentile of each campaign's sweep", () => {
    const series = [
      { key: "1", name: "before", points: [pt(1), pt(2)] },
      { key: "2", name: "after", points: [pt(1, {}, pcts(0.2)), pt(2, {}, pcts(0.4))] },
    ];
    render(<OverlayCharts series={series} tool={dns} />);
    const choice = screen.getByLabelText("Latency shown") as HTMLSelectElement;
    expect([...choice.options].map((o) => o.textContent)).toEqual(["mean latency", "p50", "p90", "p99", "p99.9"]);
    expect(screen.getByText("Saturation: mean latency vs achieved rate")).toBeTruthy();
    fireEvent.change(choice, { target: { value: "p99" } });
    expect(screen.getByText("Saturation: p99 vs achieved rate")).toBeTruthy();
  });
});
