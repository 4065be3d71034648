// Issue 38: the flame graph's layout, on real stacks: perf script output of the lab's CoreDNS (with `log`) and nginx,
// folded by the backend (src/components/profiling/__fixtures__/make_fixtures.py says how).
import { describe, expect, it } from "vitest";
import coredns from "../components/profiling/__fixtures__/perf-coredns-log_file-Q10000.folded.json";
import nginx from "../components/profiling/__fixtures__/perf-nginx-wrk-c8.folded.json";
import diff from "../components/profiling/__fixtures__/coredns-minimal-vs-log_file.diff.json";
import { diffColour, diffStacks, fitLabel, frameColour, layoutFlame, parseFolded, type FlameFrame, type FlameStack } from "./flame";

const LOG = "github.com/coredns/coredns/plugin/log.(*Logger).ServeDNS";
const EPS = 1e-9;

/** The samples beneath a path, counted straight from the stacks (not through the layout's tree). */
function beneath(stacks: FlameStack[], path: string): number {
  const frames = path.split(";");
  return stacks.filter((s) => frames.every((f, i) => s.frames[i] === f)).reduce((sum, s) => sum + s.value, 0);
}

describe("parseFolded", () => {
  it("reads every stack and sample the backend folded", () => {
    const stacks = parseFolded(coredns.folded);
    expect(stacks).toHaveLength(coredns.stacks);
    expect(stacks.reduce((s, x) => s + x.value, 0)).toBe(coredns.samples);
    expect(stacks[0].frames[0]).toBe("runtime.goexit.abi0");
  });

  it("skips a line without a count", () => {
    expect(parseFolded("a;b 3\nnot a line\nc;d x\n\ne 1")).toEqual([
      { frames: ["a", "b"], value: 3 },
      { frames: ["e"], value: 1 },
    ]);
  });
});

describe("layoutFlame", () => {
  const stacks = parseFolded(coredns.folded);
  const layout = layoutFlame(stacks);
  const byPath = new Map(layout.frames.map((f) => [f.path, f]));

  it("gives each frame its share of the samples as its width", () => {
    expect(layout.total).toBe(coredns.samples);
    for (const f of layout.frames) expect(f.width).toBeCloseTo(beneath(stacks, f.path) / coredns.samples, 12);
    const log = layout.frames.filter((f) => f.name === LOG);
    expect(log.length).toBeGreaterThan(0);
    expect(log[0].value).toBeGreaterThan(0);
  });

  it("puts a frame per depth row, its children side by side within it, in name order", () => {
    const roots = layout.frames.filter((f) => f.depth === 0);
    expect(roots.reduce((s, f) => s + f.width, 0)).toBeCloseTo(1, 12);
    for (const f of layout.frames) {
      expect(f.depth).toBe(f.path.split(";").length - 1);
      if (f.depth === 0) continue;
      const parent = byPath.get(f.path.split(";").slice(0, -1).join(";"))!;
      expect(f.x).toBeGreaterThanOrEqual(parent.x - EPS);
      expect(f.x + f.width).toBeLessThanOrEqual(parent.x + parent.width + EPS);
    }
    // every row's frames under one parent: side by side, in name order (the same order in A and B)
    const groups = new Map<string, FlameFrame[]>();
    const parentOf = (f: FlameFrame) => f.path.split(";").slice(0, -1).join(";");
    for (const f of layout.frames) groups.set(parentOf(f), [...(groups.get(parentOf(f)) ?? []), f]);
    const multi = [...groups.values()].filter((g) => g.length > 1);
    expect(multi.length).toBeGreaterThan(5);
    for (const kids of multi) {
      const byX = [...kids].sort((p, q) => p.x - q.x);
      expect(byX.map((k) => k.name)).toEqual(kids.map((k) => k.name).sort());
      byX.slice(1).forEach((k, i) => expect(k.x).toBeCloseTo(byX[i].x + byX[i].width, 12));
    }
    expect(layout.rows).toBe(Math.max(...stacks.map((s) => s.frames.length)));
  });

  it("zooms into a frame: it spans the width, the frames below it fade, the rest go", () => {
    const log = layout.frames.find((f) => f.name === LOG)!;
    const zoomed = layoutFlame(stacks, { focus: log.path });
    const top = zoomed.frames.find((f) => f.path === log.path)!;
    expect(top).toMatchObject({ x: 0, width: 1, depth: log.depth, ancestor: false });
    expect(zoomed.shown).toBe(log.value);
    const below = zoomed.frames.filter((f) => f.ancestor);
    expect(below.map((f) => f.path)).toEqual(log.path.split(";").slice(0, -1).map((_, i, all) => all.slice(0, i + 1).join(";")));
    for (const f of zoomed.frames.filter((x) => !x.ancestor)) {
      expect(f.path.startsWith(log.path)).toBe(true);
      expect(f.width).toBeCloseTo(f.value / log.value, 12);
    }
    expect(layoutFlame(stacks, { focus: "no;such;path" }).frames).toHaveLength(layout.frames.length);
  });

  it("leaves out frames narrower than minWidth, and counts them", () => {
    const cut = layoutFlame(stacks, { minWidth: 2 / coredns.samples });
    expect(cut.frames.every((f) => f.width >= 2 / coredns.samples)).toBe(true);
    expect(cut.hidden).toBeGreaterThan(0);
    expect(cut.frames.length).toBeLessThan(layout.frames.length);
  });

  it("keeps the widest frames beyond maxFrames, never a frame without the one below it", () => {
    const kept = layoutFlame(stacks, { maxFrames: 40 });
    expect(kept.frames).toHaveLength(40);
    expect(kept.hidden).toBe(layout.frames.length - 40);
    const paths = new Set(kept.frames.map((f) => f.path));
    for (const f of kept.frames) if (f.depth > 0) expect(paths.has(f.path.split(";").slice(0, -1).join(";"))).toBe(true);
    const narrowest = Math.min(...kept.frames.map((f) => f.width));
    expect(layout.frames.filter((f) => !paths.has(f.path)).every((f) => f.width <= narrowest)).toBe(true);
  });

  it("draws nginx's leaf-only stacks one user frame deep", () => {
    const flat = layoutFlame(parseFolded(nginx.folded));
    expect(nginx.stack_depth).toBe("leaf functions only");
    expect(flat.total).toBe(nginx.samples);
    expect(flat.frames.filter((f) => f.depth === 0).every((f) => !f.name.endsWith("_[k]"))).toBe(true);
  });
});

describe("a differential", () => {
  const stacks = diffStacks(diff.stacks);
  const layout = layoutFlame(stacks);

  it("sums A's and B's per 1,000 requests under each frame, the wider of the two setting the width", () => {
    const log = layout.frames.find((f) => f.name === LOG)!;
    expect(log.a).toBe(0);
    const fromApi = diff.frames.find((f) => f.path === log.path)!;
    expect(log.b).toBeCloseTo(fromApi.total_per_1k_b, 9);
    expect(log.b - log.a).toBeCloseTo(fromApi.total_per_1k_change, 9);
    for (const f of layout.frames) expect(f.value).toBeGreaterThanOrEqual(Math.max(f.a, f.b) - EPS);
    expect(layout.total).toBeCloseTo(stacks.reduce((s, x) => s + x.value, 0), 9);
  });

  it("colours growth red and shrinkage blue, the largest change the deepest", () => {
    expect(diffColour(2, 2)).toBe("rgb(255,35,35)");
    expect(diffColour(-1, 2)).toBe("rgb(145,145,255)");
    expect(diffColour(0, 2)).toBe("rgb(255,255,255)");
  });
});

describe("frame colours and labels", () => {
  it("keeps a function's colour, marks kernel frames orange", () => {
    expect(frameColour("main.main")).toBe(frameColour("main.main"));
    expect(frameColour("vfs_write_[k]")).toMatch(/^rgb\(2[3-5]\d,1[4-9]\d,/);
  });

  it("cuts a label to fit", () => {
    expect(fitLabel("runtime.mcall", 20)).toBe("runtime.mcall");
    expect(fitLabel("runtime.mcall", 8)).toBe("runtime…");
    expect(fitLabel("runtime.mcall", 2)).toBe("");
  });
});
