// Issue 49 item 4: one comparison body. The compare page, a share link's page and the exported files (HTML and
// Markdown) draw the same ComparisonBody from the same comparison: the same sections, headings, tables and figures.
// The comparison is the API's real answer for the real CoreDNS pair (tests/fixtures/real-campaigns/coredns-{minimal,log}-
// untuned.json imported, then GET /api/v1/compare?c=1&c=2), the tools are GET /tools' (tools/__fixtures__).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { render, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import type { Comparison, MatchedPoint } from "../../api/compare";
import type { CpuProfileDiff } from "../../api/cpuProfiles";
import { fixedSizeCharts } from "../../charts/chartTesting";
import ComparePage from "../../routes/ComparePage";
import SharedPage from "../../routes/SharedPage";
import { TOOLS } from "../../tools/__fixtures__";
import { renderHtml, renderMarkdown } from "../../../export/report";
import type { ExportDocument } from "../../../export/document";
import realDiff from "../profiling/__fixtures__/coredns-minimal-vs-log_file.diff.json";
import { matchedPairs } from "../profiling/CpuProfileCompare";
import real from "./__fixtures__/coredns-minimal-vs-log.compare.json";

const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

let comparison = real as unknown as Comparison;
/** The same pair with both plans asking for CPU profiles: the body adds the differential (the real minimal-vs-log one,
 * profiling/__fixtures__), fetched on the pages (signed in, or through the link) and carried by the file's document. */
const profiled = { ...comparison, campaigns: comparison.campaigns.map((c) => ({ ...c, plan: { ...(c.plan as object), cpu_profile: { process: "coredns", frequency_hz: 99 } } })) } as Comparison;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

/** What the API answers the pages: the comparison, the tools, and the share link's report of the same comparison. */
function answer(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  if (path === "/api/v1/compare") return Promise.resolve(json(comparison));
  if (path === "/api/v1/tools") return Promise.resolve(json(TOOLS));
  if (/^\/api\/v1\/(shared\/tok\/)?points\/\d+\/cpu-profile\/diff\/\d+$/.test(path)) return Promise.resolve(json(realDiff));
  if (path === "/api/v1/shared/tok")
    return Promise.resolve(
      json({ kind: "comparison", comparison, tools: TOOLS, created_at: "2026-11-28T20:00:00Z", expires_at: "2026-12-05T20:00:00Z", newer_analysis_available: false }),
    );
  return Promise.reject(new Error(`unexpected request ${path}`));
}

const CONTROLS = "button, input, select, textarea, label.chart-option, .recharts-tooltip-wrapper"; // what a file has not (export/clean.ts)
const STRIPPED = 'button, input, select, textarea, label, svg, [aria-hidden="true"], .sr-only, .recharts-wrapper';
const text = (el: Element) => {
  const copy = el.cloneNode(true) as Element;
  copy.querySelectorAll(STRIPPED).forEach((e) => e.remove());
  return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
};

/** What a reader sees of a comparison body, controls aside (a file has none): its sections, headings, test ids, and
 * every table's header and first five cells per row (the compare page's row controls come after). */
function outline(drawn: Element) {
  const body = drawn.cloneNode(true) as Element;
  body.querySelectorAll(CONTROLS).forEach((e) => e.remove());
  return {
    sections: [...body.querySelectorAll("section[aria-label]")].map((s) => s.getAttribute("aria-label")),
    headings: [...body.querySelectorAll("h2, h3, h4")].map(text),
    testIds: [...new Set([...body.querySelectorAll("[data-testid]")].map((e) => e.getAttribute("data-testid")))],
    metrics: [...body.querySelectorAll("tr[data-metric]")].map((r) => r.getAttribute("data-metric")),
    tables: [...body.querySelectorAll("table")].map((t) => [...t.querySelectorAll("tr")].map((tr) => [...tr.children].slice(0, 5).map(text))),
  };
}

let qc: QueryClient;
beforeAll(() => fixedSizeCharts());
beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  fetchMock.mockReset();
  fetchMock.mockImplementation(answer);
});

async function drawn(path: string) {
  const { container, unmount } = render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/compare" element={<ComparePage />} />
          <Route path="/s/:token" element={<SharedPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await within(container).findByTestId("comparison-body");
  await waitFor(() => expect(container.querySelectorAll('[data-testid="comparison-body"] tr[data-metric]').length).toBeGreaterThan(0));
  await waitFor(() => expect(container.textContent).not.toContain("Loading the profiles"));
  const out = outline(container.querySelector('[data-testid="comparison-body"]')!);
  unmount();
  return out;
}

/** The export renderer's own act() calls, as in its node process (dom.ts sets the flag there). */
async function exporting<T>(run: () => Promise<T>): Promise<T> {
  const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const before = g.IS_REACT_ACT_ENVIRONMENT;
  g.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    return await run();
  } finally {
    g.IS_REACT_ACT_ENVIRONMENT = before;
  }
}

const docOf = (c: Comparison): ExportDocument => ({ kind: "comparison", version: "test", generated_at: "2026-11-28T20:00:00Z", link: "https://kb.example/compare?c=1&c=2", site: "https://kb.example", tools: TOOLS, comparison: c });
const doc = docOf(comparison);

describe("one comparison body", () => {
  afterEach(() => {
    comparison = real as unknown as Comparison;
  });
  it("the compare page, the share page and the exported HTML draw the same sections, tables and figures", async () => {
    const page = await drawn("/compare?c=1&c=2");
    const shared = await drawn("/s/tok");
    const file = new DOMParser().parseFromString(await exporting(() => renderHtml(doc)), "text/html");
    const exported = outline(file.querySelector('[data-testid="comparison-body"]')!);

    // the body has what a comparison shows, from the real pair: both campaigns, the headline led by capacity at the SLO,
    // the per-point verdicts and what differs (the target's exporters, the plan's name)
    expect(page.sections).toEqual(expect.arrayContaining(["Campaigns compared", "Headline metrics"]));
    expect(page.metrics[0]).toBe("capacity_at_slo");
    expect(page.metrics).toEqual(comparison.headline.map((h) => h.metric));
    expect(page.tables[0].slice(1).map((r) => r[0])).toEqual(comparison.campaigns.map((c, i) => `#${c.id} ${c.name}${i === 0 ? " reference" : ""}`));
    expect(page.headings).toEqual(expect.arrayContaining(["Headline", "Target details that differ", "Plan parameters that differ"]));

    expect(shared).toEqual(page);
    expect(exported).toEqual(page);
  });

  it("the Markdown export is read from the same body: its sections' headings and the headline's rows, in order", async () => {
    const page = await drawn("/compare?c=1&c=2");
    const md = (await exporting(() => renderMarkdown(doc)))["report.md"];
    expect(md).toBeDefined();
    let at = -1;
    for (const heading of page.headings) {
      const found = md.indexOf(heading, at + 1);
      expect(found, heading).toBeGreaterThan(at);
      at = found;
    }
    const headline = page.tables.find((t) => t[0].includes("Metric")) ?? page.tables[1];
    for (const row of headline.slice(1)) expect(md).toContain(row[0]);
  });

  it("with CPU profiles on both sides, the three draw the same differential (the share page through its link)", async () => {
    comparison = profiled;
    const [a, b] = comparison.selectors;
    const pair = matchedPairs(comparison.point_verdicts[b].points as MatchedPoint[], comparison.points[a], comparison.points[b]).at(-1)!;
    const page = await drawn("/compare?c=1&c=2");
    const shared = await drawn("/s/tok");
    const withDiff = { ...docOf(profiled), cpu_profile_diffs: [{ a: pair.a.id, b: pair.b.id, diff: realDiff as unknown as CpuProfileDiff }] };
    const file = new DOMParser().parseFromString(await exporting(() => renderHtml(withDiff)), "text/html");
    const exported = outline(file.querySelector('[data-testid="comparison-body"]')!);

    expect(page.sections).toContain("CPU profiles compared");
    expect(page.testIds).toContain("cpu-profile-diff");
    const asked = fetchMock.mock.calls.map(([req]) => new URL(req.url).pathname).filter((u) => u.includes("/cpu-profile/diff/"));
    expect(asked).toEqual([`/api/v1/points/${pair.a.id}/cpu-profile/diff/${pair.b.id}`, `/api/v1/shared/tok/points/${pair.a.id}/cpu-profile/diff/${pair.b.id}`]);
    expect(shared).toEqual(page);
    expect(exported).toEqual(page);
  });
});
