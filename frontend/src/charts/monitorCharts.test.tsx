// Issue 35: a point's evidence draws its exporter series beside mpstat's charts, from real samples (a real node_exporter
// scraped with the node, process and go packs; mpstat on the lab), the tools' descriptions from GET /tools.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { keys } from "../api/keys";
import type { Sample } from "../api/types";
import { MAX_SERVER_CHARTS } from "../tools/monitorCharts";
import { MONITOR_SAMPLES, TOOLS } from "../tools/__fixtures__";
import { fixedSizeCharts, yTicks } from "./chartTesting";
import MonitorCharts from "./MonitorCharts";

beforeAll(fixedSizeCharts);

const { node_exporter: NODE_EXPORTER, mpstat: MPSTAT } = MONITOR_SAMPLES;

function draw(samples: Sample[]) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  qc.setQueryData(keys.tools, TOOLS);
  return render(
    <QueryClientProvider client={qc}>
      <MonitorCharts samples={samples} />
    </QueryClientProvider>,
  );
}

const legend = (figure: HTMLElement) => [...figure.querySelectorAll(".recharts-legend-item-text")].map((e) => e.textContent);

describe("monitor charts of a point", () => {
  it("draw mpstat's per-CPU %soft and one chart per exporter series, the rest named", () => {
    const view = draw([...MPSTAT, ...NODE_EXPORTER]);
    const figures = view.getAllByRole("figure");
    expect(figures.map((f) => f.getAttribute("aria-label"))).toEqual([
      "CPU (mpstat): %soft",
      "Go runtime: goroutines", "Go runtime: GC pause (quantiles since start)", "Go runtime: GC pause time per second",
      "Go runtime: GC cycles",
      "Host (node_exporter): CPU time by CPU and mode — softirq", "Host (node_exporter): CPU time by CPU and mode — user",
      "Host (node_exporter): CPU time by CPU and mode — system", "Host (node_exporter): UDP receive-buffer errors",
      "Host (node_exporter): disk writes",
      "Server process: process CPU (user + system)", "Server process: resident memory", "Server process: open file descriptors",
    ]);
    expect(figures).toHaveLength(1 + MAX_SERVER_CHARTS);
    const softirq = view.getByRole("figure", { name: "Host (node_exporter): CPU time by CPU and mode — softirq" });
    expect(legend(softirq)).toEqual(["cpu0", "cpu1"]);
    expect(softirq.querySelectorAll(".recharts-line")).toHaveLength(2);
    expect(legend(view.getByRole("figure", { name: "CPU (mpstat): %soft" }))).toEqual(["cpu0", "cpu1"]);
    // one line, no legend: the metric names it
    const cpu = view.getByRole("figure", { name: "Server process: process CPU (user + system)" });
    expect(cpu.querySelectorAll(".recharts-line")).toHaveLength(1);
    expect(legend(cpu)).toEqual([]);
    expect(yTicks(cpu)[0].at(-1)).toBe("100%");
    // bytes read on the axis in short form (17,690,624 B → "18M"), not cut off
    const [rss] = yTicks(view.getByRole("figure", { name: "Server process: resident memory" }));
    expect(rss).toEqual(["0", "5M", "10M", "15M", "20M"]);
    expect(view.getByTestId("server-zero").textContent).toBe(
      "Zero throughout: Host (node_exporter): NIC received packets, Host (node_exporter): NIC receive drops, " +
        "Host (node_exporter): softnet dropped (backlog full), Host (node_exporter): softnet squeezed (budget ran out), " +
        "Host (node_exporter): TCP listen-queue overflows.",
    );
    expect(view.getByTestId("server-more").textContent).toBe(
      "Not drawn (over 12 charts): Go runtime: heap in use, Go runtime: allocation rate, Go runtime: OS threads, " +
        "Host (node_exporter): load average (1 min), Host (node_exporter): memory available, Server process: file descriptor limit.",
    );
  });

  it("let a process's CPU share pass 100 % (a server on both CPUs: 196 %)", () => {
    const cpu = (t: number, value: number) => ({ t, series: "server.process.cpu", values: { value } });
    expect(yTicks(draw([cpu(1, 150), cpu(2, 196)]).container)).toEqual([["0%", "50%", "100%", "150%", "200%"]]);
  });

  it("draw nothing for a point without monitor samples", () => {
    expect(draw([]).container.innerHTML).toBe("");
  });
});
