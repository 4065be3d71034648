// Issue 38: CPU profiles where the numbers are: a point's flame graph and top functions (zoomable in the app, static on a
// share page and in a file), and the differential on the compare page. Stacks are real (__fixtures__/make_fixtures.py).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import type { MatchedPoint } from "../../api/compare";
import { TOP_FUNCTIONS, type CpuProfileDiff, type FoldedProfile, type FunctionChange, type TopFunctions } from "../../api/cpuProfiles";
import { keys } from "../../api/keys";
import type { Point } from "../../api/types";
import FlameGraph from "../../charts/FlameGraph";
import { layoutFlame, parseFolded } from "../../charts/flame";
import CpuProfile from "./CpuProfile";
import { CpuProfileDiffView, matchedPairs } from "./CpuProfileCompare";
import coredns from "./__fixtures__/perf-coredns-log_file-Q10000.folded.json";
import diffFixture from "./__fixtures__/coredns-minimal-vs-log_file.diff.json";

const LOG = "github.com/coredns/coredns/plugin/log.(*Logger).ServeDNS";
const describeFrame = (f: { name: string; value: number }) => `${f.name}: ${f.value} samples`;

const profile: FoldedProfile = {
  point_id: 7, process: "coredns", frequency_hz: 99, window_s: 20, samples: coredns.samples, all_samples: 400, cpu_pct: 4.9,
  requests: 200_000, per_1k: (1000 * coredns.samples) / 200_000, stack_depth: coredns.stack_depth, stacks: coredns.stacks,
  dropped_stacks: 0, dropped_samples: 0, folded: coredns.folded,
}; // prettier-ignore
const top: TopFunctions = {
  profile,
  by: "self",
  functions: [
    { function: "<script>alert(1)</script>", self_samples: 9, total_samples: 9, self_pct: 9.3, total_pct: 9.3, self_per_1k: 0.045, total_per_1k: 0.045 },
    { function: LOG, self_samples: 1, total_samples: 40, self_pct: 1.0, total_pct: 41.2, self_per_1k: 0.005, total_per_1k: 0.2 },
  ],
};

/** A query cache holding what the routes would answer, as the export seeds it: nothing is fetched. */
function seeded(children: ReactNode, data: Record<string, unknown>) {
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  qc.setQueryData(keys.cpuProfile(7), data.profile);
  qc.setQueryData(keys.cpuFunctions(7, "self", TOP_FUNCTIONS), data.functions);
  return <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
}

describe("FlameGraph", () => {
  const stacks = parseFolded(coredns.folded);

  it("draws a rectangle per frame wide enough to see, each with its name and figures as a title", () => {
    const { container } = render(<FlameGraph stacks={stacks} title="Flame graph: coredns" describe={describeFrame} />);
    const drawn = layoutFlame(stacks, { minWidth: 0.5 / 900 });
    const frames = container.querySelectorAll("svg.flame-graph g.flame-frame");
    expect(frames).toHaveLength(drawn.frames.length);
    expect(frames.length).toBeGreaterThan(50);
    const log = [...frames].find((g) => g.querySelector("title")?.textContent?.startsWith(LOG + ":"))!;
    expect(log).toBeTruthy();
    expect(log.querySelector("rect")!.getAttribute("fill")).toMatch(/^rgb\(/);
    // static: no buttons, nothing focusable
    expect(container.querySelector("[tabindex], button")).toBeNull();
  });

  it("keeps a frame named like markup as text", () => {
    const evil = "<script>alert(1)</script>";
    const { container } = render(<FlameGraph stacks={[{ frames: ["main", evil], value: 5 }, { frames: ["main", "<img src=x onerror=alert(2)>"], value: 5 }]} title="t" describe={describeFrame} />);
    expect(container.querySelector("script, img")).toBeNull();
    expect([...container.querySelectorAll("title")].map((t) => t.textContent)).toContain(`${evil}: 5 samples`);
    expect(container.innerHTML).toContain("&lt;script&gt;");
  });

  it("zooms into a clicked frame in the app, and back out", () => {
    const { container } = render(<FlameGraph stacks={stacks} title="Flame graph: coredns" describe={describeFrame} interactive />);
    const frame = () => [...container.querySelectorAll<SVGGElement>("g.flame-frame")].find((g) => g.querySelector("title")?.textContent?.startsWith(LOG + ":"))!;
    const before = Number(frame().querySelector("rect")!.getAttribute("width"));
    expect(before).toBeLessThan(899);
    fireEvent.click(frame());
    expect(Number(frame().querySelector("rect")!.getAttribute("width"))).toBeCloseTo(899.5, 6);
    expect(container.querySelectorAll('g.flame-frame[opacity="0.5"]').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole("button", { name: "Reset zoom" }));
    expect(Number(frame().querySelector("rect")!.getAttribute("width"))).toBeCloseTo(before, 6);
    fireEvent.keyDown(frame(), { key: "Enter" });
    expect(Number(frame().querySelector("rect")!.getAttribute("width"))).toBeCloseTo(899.5, 6);
  });
});

describe("CpuProfile (a point's)", () => {
  it("shows the stack depth, the flame graph and the top functions, names as text", () => {
    const { container } = render(seeded(<CpuProfile pointId={7} heading="CPU profile of point 3" />, { profile, functions: top }));
    const section = screen.getByRole("region", { name: "CPU profile of point 3" });
    expect(within(section).getByTestId("cpu-profile-facts").textContent).toContain("full stacks");
    expect(within(section).getByTestId("cpu-profile-facts").textContent).toContain("0.485 per 1,000 requests");
    expect(container.querySelectorAll("g.flame-frame").length).toBeGreaterThan(50);
    const rows = within(section).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getByText("<script>alert(1)</script>")).toBeTruthy();
    expect(rows[2].textContent).toContain("41.2 %");
    expect(container.querySelector("script")).toBeNull();
  });

  it("says in one line why a point has none (409)", () => {
    const missing = { missing: "point 7 has no stored CPU profile: CPU profile not taken: perf is not permitted" };
    render(seeded(<CpuProfile pointId={7} heading="CPU profile" />, { profile: missing, functions: missing }));
    expect(screen.getByTestId("cpu-profile-missing").textContent).toBe(`No CPU profile: ${missing.missing}`);
    expect(document.querySelector("svg")).toBeNull();
  });

  it("labels nginx's profile leaf functions only", () => {
    render(seeded(<CpuProfile pointId={7} heading="CPU profile" />, { profile: { ...profile, process: "nginx", stack_depth: "leaf functions only" }, functions: top }));
    expect(screen.getByTestId("cpu-profile-facts").textContent).toMatch(/^leaf functions only · nginx/);
  });
});

describe("the differential on the compare page", () => {
  const diff = diffFixture as unknown as CpuProfileDiff;

  it("colours the log handler's frames as grown and lists it first", () => {
    const { container } = render(<CpuProfileDiffView diff={diff} />);
    const log = [...container.querySelectorAll("g.flame-frame")].filter((g) => g.querySelector("title")?.textContent?.startsWith(LOG + ":"));
    expect(log.length).toBeGreaterThan(0);
    // grown: full red, less green and blue
    expect(log[0].querySelector("rect")!.getAttribute("fill")).toMatch(/^rgb\(255,(\d+),\1\)$/);
    expect(log[0].querySelector("rect")!.getAttribute("fill")).not.toBe("rgb(255,255,255)");
    // a file shows both views: by self change first (the default), then by total change, where the log handler leads
    const [bySelf, byTotal] = [...container.querySelectorAll("table.changed-functions")];
    expect(bySelf.getAttribute("data-ranked-by")).toBe("self");
    const selfRows = within(bySelf as HTMLElement).getAllByRole("row");
    expect(selfRows[1].textContent).toContain(diff.functions[0].function);
    const rows = within(byTotal as HTMLElement).getAllByRole("row");
    expect(byTotal.getAttribute("data-ranked-by")).toBe("total");
    expect(rows[1].textContent).toContain("plugin/log.");
    expect(rows[1].querySelector(".grew")!.textContent).toBe("+1.9");
    expect(screen.getByTestId("diff-sign").textContent).toContain("B − A per 1,000 requests, A the reference");
  });

  it("ranks by self change by default in the app and switches to total change", () => {
    const hot = (name: string, self: number, total: number) =>
      ({ function: name, self_per_1k_a: 0, self_per_1k_b: self, self_per_1k_change: self, total_per_1k_a: 0, total_per_1k_b: total,
         total_per_1k_change: total, self_pct_a: 0, self_pct_b: 0, self_pct_change: 0, total_pct_a: 0, total_pct_b: 0, total_pct_change: 0 }) as FunctionChange;
    const functions = [hot("main.hot", 60, 60), hot("net/http.(*Server).Serve", 0, 106)];
    const grown = { ...diff, functions, functions_by_total: [functions[1], functions[0]] } as CpuProfileDiff;
    const { container } = render(<CpuProfileDiffView diff={grown} interactive />);
    const first = () => within(container.querySelector("table.changed-functions") as HTMLElement).getAllByRole("row")[1].textContent;
    expect(container.querySelectorAll("table.changed-functions")).toHaveLength(1);
    expect(first()).toContain("main.hot");
    fireEvent.change(screen.getByLabelText("Rank the changed functions by"), { target: { value: "total" } });
    expect(first()).toContain("net/http.(*Server).Serve");
  });

  it("pairs the comparison's matched loads with a completed point of each side", () => {
    const pt = (id: number, over: Partial<Point>) => ({ id, seq: id, status: "completed", phase: "stability", concurrency: 4, offered_rate: 10000, ...over }) as Point;
    const rows = [{ phase: "stability", concurrency: 4, offered_rate: 10000 }, { phase: "stability", concurrency: 4, offered_rate: 20000 }] as MatchedPoint[];
    const pairs = matchedPairs(rows, [pt(1, { status: "failed" }), pt(2, {}), pt(3, { offered_rate: 20000 })], [pt(11, {}), pt(12, { concurrency: 8, offered_rate: 20000 })], "qps");
    expect(pairs.map((p) => [p.a.id, p.b.id])).toEqual([[2, 11]]);
    expect(pairs[0].label).toContain("stability · concurrency 4");
  });
});
