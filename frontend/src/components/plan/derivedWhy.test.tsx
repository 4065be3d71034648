// Issue 50: a derived load's reason (the plan's `why`, said with the rate in the report) survives the plan editor.
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { tool, TOOLS } from "../../tools/__fixtures__";
import PhaseEditor from "./PhaseEditor";
import { draftFromPlan, draftToBody, type PhaseDraft } from "./planModel";

describe("a derived load's reason", () => {
  it("round-trips through the editor with the rate and the fractions it explains", () => {
    const why = "below where latency bends: the server where it still serves well";
    const phases = [
      { kind: "saturation", label: "sweep", concurrency: 20, rate: [2000, 4000], duration_s: 20 },
      { kind: "stability", concurrency: 20, rate: { phase: "sweep", of: "knee", why, fraction: 0.8 }, duration_s: 60 },
      { kind: "fractions", concurrency: 20, found: { phase: "sweep", of: "ceiling", why: "CSIT's fractions" }, fractions: [0.1, 0.9], duration_s: 10 },
    ];
    const d = draftFromPlan({ name: "p", tool: "dnsperf", target_id: 4, params: {}, phases, pause_s: 3, repeat: 1 }, TOOLS);
    expect(d.phases[1].fromWhy).toBe(why);
    expect((draftToBody(d, TOOLS) as unknown as { phases: unknown }).phases).toEqual(phases);
    d.phases[1].fromWhy = " ";
    const [, hold] = (draftToBody(d, TOOLS) as unknown as { phases: { rate: object }[] }).phases;
    expect(hold.rate).toEqual({ phase: "sweep", of: "knee", fraction: 0.8 }); // none given: none sent
  });
});

describe("the derived load's fields", () => {
  it("offer the reason beside the earlier phase, its figure and the fraction, with what resolving means", () => {
    const phases = [
      { kind: "saturation", label: "sweep", concurrency: 20, rate: [2000, 4000], duration_s: 20 },
      { kind: "stability", concurrency: 20, rate: { phase: "sweep", of: "knee", why: "a fifth below the knee", fraction: 0.8 }, duration_s: 60 },
    ];
    const d = draftFromPlan({ name: "p", tool: "dnsperf", target_id: 4, params: {}, phases, pause_s: 3, repeat: 1 }, TOOLS);
    let patch: Partial<PhaseDraft> = {};
    render(<PhaseEditor phase={d.phases[1]} index={1} count={2} tool={tool("dnsperf")} errors={{ "phases.1.rate.why": ["at most 200 characters"] }}
      onChange={(p) => (patch = p)} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    expect(screen.getByRole("radio", { name: "from an earlier phase" })).toBeTruthy();
    const why = screen.getByLabelText(/Why this figure and fraction/) as HTMLInputElement;
    expect(why.value).toBe("a fifth below the knee");
    expect(screen.getByText("at most 200 characters")).toBeTruthy(); // the API's error shown at its field
    fireEvent.change(why, { target: { value: "where it still serves well" } });
    expect(patch).toEqual({ fromWhy: "where it still serves well" });
    expect(screen.getByText(/Resolved when this phase starts/)).toBeTruthy();
  });
});
