import { describe, expect, it } from "vitest";
import { TOOLS, tool } from "../../tools/__fixtures__";
import { blankDraft, blankPhase, draftFromPlan, draftGaps, draftToBody, hasDerivedLoad, movePhase, numList, phaseKindsFor, rateModesFor, withMonitor, withTool } from "./planModel";

const template = {
  name: "DNS three dimensions",
  tool: "dnsperf",
  target_id: null,
  params: { names: ["www.example.lab"], qtype: "A", timeout_s: 5, latency_capture: true, max_outstanding: 1000 },
  phases: [
    { kind: "baseline", concurrency: 1, rate: 500, duration_s: 30 },
    { kind: "scalability", concurrency: [1, 2, 4], unit_rate: 2500, duration_s: 20 },
    { kind: "saturation", concurrency: 20, rate: [2000, 4000], duration_s: 20 },
    { kind: "saturation", concurrency: 20, rate: { start: 1000, stop: 3000, step: 1000 }, duration_s: 20 },
    { kind: "stability", concurrency: 100, rate: 11000, duration_s: 60 },
  ],
  pause_s: 3,
  repeat: 1,
};

describe("plan draft", () => {
  it("round-trips a template", () => {
    const d = draftFromPlan(template, TOOLS);
    d.targetId = "4";
    const body = draftToBody(d, TOOLS) as unknown as Record<string, unknown>;
    expect(body.target_id).toBe(4);
    expect(body.phases).toEqual(template.phases);
    expect(body.params).toEqual({ ...template.params, mode: "udp", tls_skip_verify: false }); // the schema's defaults of an enum and a switch, said
    expect(body.pause_s).toBe(3);
    expect(body.monitors).toEqual([]);
  });
  it("round-trips derived loads: a stability at a fraction of a sweep's knee, CSIT's fractions of a search's capacity", () => {
    const phases = [
      { kind: "search", label: "find", concurrency: 20, low: 1000, high: 40000, resolution_pct: 1, duration_s: 8, criteria: [{ metric: "latency_p99_ms", limit: 10 }] },
      { kind: "saturation", label: "sweep", concurrency: 20, rate: [2000, 4000], duration_s: 20 },
      { kind: "stability", concurrency: 20, rate: { phase: "sweep", of: "knee", fraction: 0.8 }, duration_s: 60 },
      { kind: "fractions", concurrency: 20, found: { phase: "find", of: "capacity", criterion: 0 }, fractions: [0.1, 0.5, 0.9], duration_s: 10 },
    ];
    const d = draftFromPlan({ ...template, phases }, TOOLS);
    expect(d.phases[2]).toMatchObject({ rateMode: "derived", fromPhase: "sweep", fromFigure: "knee", fraction: "0.8" });
    expect(d.phases[3]).toMatchObject({ fromPhase: "find", fromFigure: "capacity", fromCriterion: "1", fraction: "0.1, 0.5, 0.9" });
    expect((draftToBody(d, TOOLS) as unknown as { phases: unknown }).phases).toEqual(phases);
    expect(draftGaps({ ...d, targetId: "4" }, TOOLS)).toEqual({}); // a derived rate is no "not a number"
    const unnamed = { ...d, targetId: "4", phases: d.phases.map((p, i) => (i === 2 ? { ...p, fromPhase: "", fraction: "lots" } : p)) };
    expect(draftGaps(unnamed, TOOLS)).toEqual({ "phases.2.rate.phase": ["name the earlier phase (its label)"], "phases.2.rate.fraction": ["not a number"] });
    expect(rateModesFor("stability", tool("dnsperf"))).toContain("derived");
    expect(phaseKindsFor(tool("wrk"))).not.toContain("fractions"); // closed loop: no rate to derive
  });
  it("sends whose finding a derived load takes only when it is the reference's, and offers it only for derived loads", () => {
    const derived = { ...template, phases: [template.phases[2], { kind: "stability", concurrency: 20, rate: { phase: "s", of: "ceiling", fraction: 0.5 }, duration_s: 9 }] };
    const matched = draftFromPlan({ ...derived, derive: "reference" }, TOOLS);
    expect([matched.derive, hasDerivedLoad(matched)]).toEqual(["reference", true]);
    expect((draftToBody(matched, TOOLS) as unknown as { derive?: string }).derive).toBe("reference");
    matched.derive = "own";
    expect("derive" in (draftToBody(matched, TOOLS) as object)).toBe(false); // the API's default
    expect(hasDerivedLoad(draftFromPlan(template, TOOLS))).toBe(false);
  });
  it("shows the SLO's default and sends the one chosen; a tool without that latency drops it", () => {
    const blank = draftFromPlan(template, TOOLS);
    expect([blank.sloMetric, blank.sloLimit]).toEqual(["", "3"]); // visible: p99 when measured, else the mean, ≤ 3 ms
    expect((draftToBody(blank, TOOLS) as unknown as { slo: unknown }).slo).toEqual({ metric: null, limit_ms: 3 });
    const chosen = draftFromPlan({ ...template, slo: { metric: "latency_p99_ms", limit_ms: 10 } }, TOOLS);
    expect((draftToBody(chosen, TOOLS) as unknown as { slo: unknown }).slo).toEqual({ metric: "latency_p99_ms", limit_ms: 10 });
    expect(withTool(chosen, tool("iperf3")).sloMetric).toBe("");
  });
  it("keeps a phase's events and agents, which the form does not edit, as they came", () => {
    const events = [{ at_s: 10, action: "lab.backend_kill", value: "b2" }, { at_s: 20, action: "host.haproxy_enable", value: "servers/b2", observer: "lb-1" }];
    const failover = { ...template, phases: [{ kind: "stability", concurrency: 50, rate: 2000, duration_s: 30, events, agents: ["a1"] }] };
    const d = draftFromPlan(failover, TOOLS);
    d.phases[0].duration = "40";
    const body = draftToBody(d, TOOLS) as unknown as { phases: Record<string, unknown>[] };
    expect(body.phases).toEqual([{ kind: "stability", concurrency: 50, rate: 2000, duration_s: 40, events, agents: ["a1"] }]);
  });
  it("keeps what does not parse so the API can name it", () => {
    const d = draftFromPlan(template, TOOLS);
    d.phases[0].duration = "abc";
    d.phases[1].concurrency = "1, x, 4";
    const body = draftToBody(d, TOOLS) as unknown as { phases: Record<string, unknown>[] };
    expect(body.phases[0].duration_s).toBe("abc");
    expect(body.phases[1].concurrency).toEqual([1, "x", 4]);
  });
  it("drops empty optional fields", () => {
    const d = blankDraft(tool("dnsperf"));
    d.phases[0].rateMode = "none";
    const body = draftToBody(d, TOOLS) as unknown as { phases: Record<string, unknown>[]; target_id?: unknown };
    expect("rate" in body.phases[0]).toBe(false);
    expect("target_id" in body).toBe(false);
  });
  it("switching to wrk removes rates", () => {
    const d = withTool(draftFromPlan(template, TOOLS), tool("wrk"));
    const body = draftToBody(d, TOOLS) as unknown as { phases: Record<string, unknown>[]; params: Record<string, unknown> };
    expect(body.phases.every((p) => !("rate" in p))).toBe(true);
    expect(body.params).toEqual({ path: "/", timeout_s: 2, scheme: "http" });
  });
  it("parses lists and moves phases", () => {
    expect(numList("1, 2 4;8")).toEqual([1, 2, 4, 8]);
    const d = draftFromPlan(template, TOOLS);
    const moved = movePhase(d.phases, 0, 1);
    expect(moved.map((p) => p.kind).slice(0, 2)).toEqual(["scalability", "baseline"]);
    expect(movePhase(d.phases, 0, -1)).toBe(d.phases);
  });
  it("adds monitors with their own parameters", () => {
    const d = blankDraft(tool("dnsperf"));
    d.monitors = withMonitor(withMonitor(d.monitors, tool("mpstat"), true), tool("ping"), true);
    d.monitors[1].params.host = "127.0.0.1";
    expect((draftToBody(d, TOOLS) as unknown as { monitors: unknown }).monitors).toEqual([{ kind: "mpstat", interval_s: 1 }, { kind: "ping", host: "127.0.0.1" }]);
    expect(withMonitor(d.monitors, tool("mpstat"), false).map((m) => m.kind)).toEqual(["ping"]);
  });
  it("offers phase kinds and rates by what the tool declares", () => {
    expect(phaseKindsFor(tool("wrk"))).toContain("ramp");
    expect(phaseKindsFor(tool("dnsperf"))).not.toContain("ramp");
    expect(rateModesFor("saturation", tool("wrk"))).toEqual(["none"]);
    expect(rateModesFor("saturation", tool("iperf3"))).toEqual(["list", "range"]);
    expect(blankPhase("scalability", tool("dnsperf")).unitRate).toBe("2500");
    expect(blankPhase("scalability", tool("devsim")).unitRate).toBe("");
    expect(blankPhase("baseline", tool("wrk")).rateMode).toBe("none");
  });
});
