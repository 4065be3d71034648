// Chart options a reader sets (log axis, percentile, hidden series) live in the URL: a pasted link draws the same chart.
import { act, fireEvent, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeAll, describe, expect, it } from "vitest";
import type { Point } from "../api/types";
import { tool } from "../tools/__fixtures__";
import { fixedSizeCharts, yTicks } from "./chartTesting";
import KneeChart from "./KneeChart";
import OverlayCharts from "./OverlayCharts";

beforeAll(fixedSizeCharts);

const TOOL = tool("dnsperf");
const point = (seq: number, rate: number, latency: number, repeat = 0) =>
  ({ id: seq + 1, seq, phase: "saturation", status: "completed", concurrency: 10, offered_rate: rate, variant: null, repeat, duration_s: 10,
     metrics: { achieved_rate: rate * 0.99, latency_avg_ms: latency, latency_p50_ms: latency * 0.9, latency_p99_ms: latency * 4, latency_p999_ms: latency * 9 } }) as unknown as Point;  // prettier-ignore
const POINTS = [point(0, 1000, 0.2), point(1, 2000, 0.3), point(2, 4000, 0.5), point(3, 8000, 4), point(4, 8000, 6, 1)];

function renderAt(search: string) {
  const router = createMemoryRouter([{ path: "/c", element: <KneeChart points={POINTS} tool={TOOL} /> }], { initialEntries: [`/c${search}`] });
  const view = render(<RouterProvider router={router} />);
  const legend = () => [...view.container.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent);
  return { router, view, legend };
}

describe("knee chart options", () => {
  it("draws the default view: p99 beside the average, linear axis in ms", () => {
    const { view, legend } = renderAt("");
    expect(legend()).toEqual(["latency avg", "latency p99"]);
    const [ticks] = yTicks(view.container);
    expect(ticks[0]).toBe("0");
    expect(new Set(ticks).size).toBe(ticks.length);
  });
  it("restores the percentile and log axis from the URL", () => {
    const { view, legend } = renderAt("?knee.pct=p999&knee.log=1");
    expect(legend()).toEqual(["latency avg", "latency p99.9"]);
    expect(yTicks(view.container)[0]).toEqual(["0.1", "1", "10", "100"]);
    expect((view.getByLabelText("Percentile shown") as HTMLSelectElement).value).toBe("p999");
    expect((view.getByLabelText("log scale") as HTMLInputElement).checked).toBe(true);
  });
  it("writes a legend click and the controls to the URL, each a history entry", async () => {
    const { router, view } = renderAt("");
    await act(async () => fireEvent.click(view.getByText("latency p99")));
    expect(router.state.location.search).toBe("?knee.hide=pct");
    expect(view.container.querySelectorAll(".recharts-line").length).toBe(1);
    await act(async () => fireEvent.click(view.getByLabelText("log scale")));
    expect(router.state.location.search).toBe("?knee.hide=pct&knee.log=1");
    await act(async () => router.navigate(-1));
    expect(router.state.location.search).toBe("?knee.hide=pct");
  });
  it("averages repeats of a load and draws their spread", () => {
    const { view } = renderAt("");
    expect(view.container.querySelectorAll(".recharts-errorBar").length).toBeGreaterThan(0);
  });
});

describe("comparison overlay options", () => {
  const series = [
    { key: "12", name: "alpha", points: POINTS },
    { key: "13", name: "beta", points: POINTS.map((p) => ({ ...p, metrics: { ...p.metrics, latency_avg_ms: (p.metrics.latency_avg_ms as number) * 2 } })) },
  ];
  function renderOverlay(search: string) {
    const router = createMemoryRouter([{ path: "/compare", element: <OverlayCharts series={series} tool={TOOL} /> }], { initialEntries: [`/compare${search}`] });
    const view = render(<RouterProvider router={router} />);
    const saturation = () => view.container.querySelector('figure[aria-label^="Saturation"]') as HTMLElement;
    return { router, view, saturation };
  }
  it("hides a campaign by its legend entry, and keeps it in the URL", async () => {
    const { router, view, saturation } = renderOverlay("");
    expect(saturation().querySelectorAll(".recharts-line").length).toBe(2);
    await act(async () => fireEvent.click(view.getAllByText("#13 beta")[0]));
    expect(router.state.location.search).toBe("?overlay.hide=13");
    expect(saturation().querySelectorAll(".recharts-line").length).toBe(1);
  });
  it("draws the latency on a log axis when the URL says so", () => {
    const { saturation } = renderOverlay("?overlay.log=1&overlay.hide=13");
    const [ticks] = yTicks(saturation());
    // alpha alone: 0.2 … 5 ms, two decades with 2 and 5 between
    expect(ticks).toEqual(["0.1", "0.2", "0.5", "1", "2", "5", "10"]);
    expect((saturation().querySelector('input[type="checkbox"]') as HTMLInputElement).checked).toBe(true);
  });
});
