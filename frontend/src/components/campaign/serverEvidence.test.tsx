// Issue 35: the server's evidence on the report (one ReportBody for the app, share links and exports): the bottleneck first,
// the server's count against the client's and where a difference went, the cost in the unit the analysis gives.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { beforeAll, describe, expect, it } from "vitest";
import type { Bottleneck, CampaignOut, EvidencePoint, Point, ServerEvidence as Evidence } from "../../api/types";
import { fixedSizeCharts } from "../../charts/chartTesting";
import { tool } from "../../tools/__fixtures__";
import ReportBody from "./ReportBody";
import ServerEvidence from "./ServerEvidence";

beforeAll(fixedSizeCharts);

const softirq: Bottleneck = {
  resource: "cpu1.softirq", kind: "utilisation", text: "CPU1's softirq is ≥ 95 % while CPU0 is 60 % idle: one receive queue",
  evidence: ["cpu1 %soft 98 (threshold 95)", "cpu0 idle 60 %"], value: 98, threshold: 95,
}; // prettier-ignore
const agree = { server_rate: 10000, sent_rate: 10050, answered_rate: 10040, lost_rate: 10, difference_pct: -0.5, agree: true, source: "coredns_dns_requests_total", where: [], text: "they agree" };
const evPoint = (id: number, rate: number, over: Partial<EvidencePoint> = {}): EvidencePoint => ({
  point_id: id, phase: "saturation", offered_rate: rate, concurrency: 4, repeat: 0, variant: null,
  agreement: { ...agree, server_rate: rate, sent_rate: rate, answered_rate: rate },
  cost: { value: 0.012 * id, unit: "CPU-s per 1,000 reports", cpu_pct: 40, source: "process_cpu_seconds_total" },
  bottleneck: { ...softirq, resource: null, kind: "none", text: "nothing near saturation", evidence: [], value: null, threshold: null }, ...over,
}); // prettier-ignore
const EVIDENCE: Evidence = {
  bottleneck: softirq,
  at: { point_id: 3, offered_rate: 30000, where: "at the knee" },
  notes: ["host CPU includes the load generator's: it shares this host (loopback)"],
  missing: null,
  points: [
    evPoint(1, 10000),
    evPoint(2, 20000),
    evPoint(3, 30000, {
      bottleneck: softirq,
      agreement: {
        server_rate: 27000, sent_rate: 30000, answered_rate: 26900, lost_rate: 3100, difference_pct: -10, agree: false, source: "coredns_dns_requests_total",
        where: [{ what: "UDP receive-buffer errors", rate: 2800, share_pct: 93.3 }], text: "the server counted 27,000/s of the 30,000/s the client sent (-10.0 %)",
      }, // prettier-ignore
    }),
  ],
};

const pt = (id: number, rate: number, variant: string | null = null) =>
  ({ id, attempt: 1, campaign_id: 7, seq: id - 1, variant, phase_index: 0, phase: "saturation", concurrency: 4, offered_rate: rate, duration_s: 5,
     repeat: 0, status: "completed", error: null, warnings: [], metrics: { achieved_rate: rate, latency_avg_ms: 0.2 }, started_at: null, ended_at: null, extra: {} }) as unknown as Point; // prettier-ignore
const campaign = (analysis: unknown) =>
  ({ id: 7, name: "c", tool: "devsim", status: "completed", attempt: 1, analysis, target: {}, plan: {}, tags: [],
     summary: { max_achieved_rate: 30000, baseline_latency_ms: null, loss_pct: 0, points_completed: 3, points_failed: 0 } }) as unknown as CampaignOut; // prettier-ignore

function report(analysis: unknown, variant: string | null = null, labels: string[] = []) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  const points = [pt(1, 10000, variant), pt(2, 20000, variant), pt(3, 30000, variant)];
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <ReportBody campaign={campaign(analysis)} points={points} variant={variant} labels={labels} tool={tool("devsim")} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("server evidence on the report", () => {
  it("leads with the bottleneck, in bold, with its evidence, where it was judged and the notes", () => {
    const view = report({ conclusion: "x", evidence: EVIDENCE });
    const card = view.getByRole("region", { name: "Server evidence" });
    const bold = card.querySelector(".bottleneck strong");
    expect(bold?.textContent).toBe(softirq.text);
    expect(card.querySelector(".bottleneck")?.textContent).toContain("at the knee, 30,000");
    expect([...card.querySelectorAll(".evidence-lines li")].map((l) => l.textContent)).toEqual(softirq.evidence);
    expect(card.textContent).toContain("host CPU includes the load generator's: it shares this host (loopback)");
  });

  it("says where a disagreeing point's difference went, and the cost in the unit the analysis gives", () => {
    const view = report({ conclusion: "x", evidence: EVIDENCE });
    const table = within(view.getByRole("region", { name: "Server evidence per point" }));
    // the units in the headers: the tool's rate unit, the cost's as the analysis gives it
    expect(view.getByTestId("server-evidence-units").textContent).toBe("Rates in reports/s; cost in CPU-s per 1,000 reports.");
    const rows = table.getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const bad = rows[2];
    expect(bad.className).toBe("disagree");
    expect(within(bad).getByTestId("difference").textContent).toBe("−10 %");
    expect(bad.textContent).toContain("UDP receive-buffer errors: 2,800/s (93.3 % of the difference)");
    expect(bad.textContent).toContain("cpu1.softirq");
    expect([...bad.querySelectorAll("td")].map((td) => td.textContent)).toEqual([
      "30,000 saturation", "27,000", "30,000 / 26,900 · 3,100 lost", "−10 %", "UDP receive-buffer errors: 2,800/s (93.3 % of the difference)", "0.036", "cpu1.softirq",
    ]); // prettier-ignore
    expect(rows[0].className).toBe("");
    expect(rows[0].textContent).toContain("none");
    expect(view.container.textContent).not.toMatch(/queries/);
    // and the cost against the offered load, one dot a point
    const chart = view.getByRole("figure", { name: "Server cost (CPU-s per 1,000 reports) vs offered load" });
    expect(chart.querySelectorAll(".recharts-line-dot").length).toBe(3);
  });

  it("reads a variant's own evidence", () => {
    const other = { ...EVIDENCE, bottleneck: { ...softirq, text: "both CPUs ≥ 97 % busy: CPU-bound" } };
    const view = report({ conclusion: "x", evidence: EVIDENCE, variants: { b: { conclusion: "y", evidence: other } } }, "b", ["a", "b"]);
    expect(view.getByRole("region", { name: "Server evidence" }).querySelector(".bottleneck strong")?.textContent).toBe("both CPUs ≥ 97 % busy: CPU-bound");
  });

  it("renders nothing for an analysis without evidence, one muted line when it says why there is none", () => {
    const older = report({ conclusion: "x" });
    expect(older.queryByRole("region", { name: "Server evidence" })).toBeNull();
    expect(older.queryByTestId("server-evidence-missing")).toBeNull();
    older.unmount();
    const none = render(<ServerEvidence evidence={{ bottleneck: null, at: null, points: [], notes: [], missing: "no exporter scraped" }} tool={tool("dnsperf")} />);
    expect(none.getByTestId("server-evidence-missing").textContent).toBe("No server evidence: no exporter scraped");
    expect(none.queryByRole("region", { name: "Server evidence" })).toBeNull();
  });

  it("draws the per-point table only with figures in it, else one line saying what would fill it", () => {
    // issue 47: 18 rows of dashes when nothing server-side counted requests or CPU
    const empty = (id: number) => evPoint(id, id * 10000, { agreement: null, cost: null, bottleneck: { ...softirq, resource: null, kind: "none", text: "nothing read", evidence: [], value: null, threshold: null } });
    const bare = { ...EVIDENCE, bottleneck: null, at: null, missing: "No bottleneck named: nothing server-side was read", points: [1, 2, 3].map(empty) };
    const view = render(<ServerEvidence evidence={bare} tool={tool("dnsperf")} />);
    expect(view.queryByRole("region", { name: "Server evidence per point" })).toBeNull();
    expect(view.getByTestId("server-evidence-empty").textContent).toMatch(/^No per-point server figures: .* would fill a table here\.$/);
    expect(view.container.textContent).toContain("No bottleneck named: nothing server-side was read");
    expect(view.container.textContent).not.toMatch(/No bottleneck named: no bottleneck named/i);
    view.unmount();
    // only host CPUs read: the bottleneck column alone, no columns of dashes
    const cpus = { ...EVIDENCE, points: [evPoint(1, 10000, { agreement: null, cost: null, bottleneck: softirq }), evPoint(2, 20000, { agreement: null, cost: null })] };
    const some = render(<ServerEvidence evidence={cpus} tool={tool("dnsperf")} />);
    const table = some.getByRole("region", { name: "Server evidence per point" });
    expect([...table.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["Load", "Bottleneck"]);
  });
});

describe("the conclusion on the report", () => {
  it("leads with the headline, then a paragraph per section; an older analysis keeps its one paragraph", () => {
    const sections = [
      { key: "bottleneck", title: "Bottleneck", text: "Bottleneck (at the knee): the host's CPUs are full." },
      { key: "knee", title: "Knee", text: "Knee (its rule): 11,081 q/s offered." },
    ];
    const view = report({ headline: "Mean latency stays under 1 ms up to about 10,567 q/s offered. It breaks at the knee.", sections, conclusion: "old paragraph" });
    const card = view.getByRole("region", { name: "Conclusion" });
    expect(within(card).getByTestId("conclusion-headline").textContent).toBe("Mean latency stays under 1 ms up to about 10,567 q/s offered. It breaks at the knee.");
    expect([...card.querySelectorAll("[data-section]")].map((p) => [p.getAttribute("data-section"), p.textContent])).toEqual(sections.map((s) => [s.key, s.text]));
    expect(card.textContent).not.toContain("old paragraph");
    view.unmount();
    const older = report({ conclusion: "old paragraph" });
    expect(older.getByRole("region", { name: "Conclusion" }).textContent).toBe("Conclusionold paragraph");
  });
});

// Issue 46 item 2: per point, the server process's CPU per unit of work with its share of one CPU, and the host's CPUs split
// between the server, the load generator and the rest, as the evidence gives them (a column only when a point has one).
describe("ServerEvidence: the server process's CPU and the host's split", () => {
  const split = { server: 1.0, generator: 0.62, other: 0.18, idle: 0.2, cpus: 2, text: "of 2 CPUs: server 1.00, generator 0.62, other 0.18, idle 0.20" };
  it("shows each point's cost with its share of one CPU, and the split where the evidence gives it", () => {
    const evidence = { ...EVIDENCE, points: [evPoint(1, 10000, { host_split: split }), evPoint(2, 20000)] };
    const view = render(<ServerEvidence evidence={evidence} tool={tool("dnsperf")} />);
    const rows = within(view.getByTestId("server-evidence-points")).getAllByRole("row");
    expect(within(rows[0]).getByText("Host CPUs busy")).toBeTruthy();
    expect(within(rows[1]).getByText("0.012").getAttribute("title")).toContain("the process used 40 % of one CPU");
    const cells = view.getAllByTestId("host-split");
    expect(cells[0].textContent).toBe("server 1 · generator 0.62 · other 0.18 of 2");
    expect(cells[0].getAttribute("title")).toBe(split.text);
    expect(cells[1].textContent).toBe("—");
    view.unmount();
    const none = render(<ServerEvidence evidence={EVIDENCE} tool={tool("dnsperf")} />);
    expect(none.queryByText("Host CPUs busy")).toBeNull();
  });
});
