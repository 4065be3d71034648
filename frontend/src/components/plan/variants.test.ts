import { describe, expect, it } from "vitest";
import { TOOLS, tool } from "../../tools/__fixtures__";
import { LAB_ACTIONS, labAction } from "./__fixtures__/lab";
import { blankDraft, blankSetting, blankVariant, draftFromPlan, draftToBody, nextAction, nthValue, valuesOf, variantFromApi, variantToApi, type VariantDraft } from "./planModel";

describe("variants and monitors in the plan draft", () => {
  const plan = {
    name: "NIC queues",
    tool: "iperf3",
    target_id: 3,
    params: { protocol: "udp" },
    phases: [{ kind: "baseline", concurrency: 4, rate: 1e9, duration_s: 10 }],
    monitors: [{ kind: "mpstat", interval_s: 1 }, { kind: "ping", host: "10.99.0.2" }],
    variants: [
      { label: "1 queue", set: { "lab.veth_queues": 1, "lab.rps": false } },
      { label: "4 queues", set: { "lab.veth_queues": 4, "lab.gro": true } },
    ],
  };

  it("round-trips variants and monitors", () => {
    const d = draftFromPlan(plan, TOOLS);
    expect(d.monitors).toEqual([
      { kind: "mpstat", params: { interval_s: "1" } },
      { kind: "ping", params: { host: "10.99.0.2" } },
    ]);
    expect(d.variants.map((v) => v.label)).toEqual(["1 queue", "4 queues"]);
    expect(d.variants[0].settings.map((s) => [s.action, s.value])).toEqual([
      ["lab.veth_queues", "1"],
      ["lab.rps", "off"],
    ]);
    const body = draftToBody(d, TOOLS) as unknown as Record<string, unknown>;
    expect(body.variants).toEqual(plan.variants);
    expect(body.monitors).toEqual(plan.monitors);
  });

  it("sends a ping monitor with an empty host so the API names the field, and none when unticked", () => {
    const d = { ...blankDraft(tool("dnsperf")), monitors: [{ kind: "ping", params: { host: " " } }] };
    expect((draftToBody(d, TOOLS) as unknown as { monitors: unknown }).monitors).toEqual([{ kind: "ping", host: "" }]);
    expect((draftToBody({ ...d, monitors: [] }, TOOLS) as unknown as { monitors: unknown }).monitors).toEqual([]);
  });

  it("keeps a non-number queue count for the API to refuse, and leaves out variants when there are none", () => {
    const d = blankDraft(tool("dnsperf"));
    expect("variants" in (draftToBody(d, TOOLS) as object)).toBe(false);
    const v = blankVariant([], LAB_ACTIONS);
    v.settings[0].value = "two";
    const body = draftToBody({ ...d, variants: [v] }, TOOLS) as unknown as { variants: unknown };
    expect(body.variants).toEqual([{ label: "lab.veth_queues=1", set: { "lab.veth_queues": "two" } }]);
  });

  it("offers the next queue count up to the API's maximum, and every action the API lists", () => {
    const a = blankVariant([], LAB_ACTIONS);
    const b = blankVariant([a], LAB_ACTIONS);
    const c = blankVariant([a, b], LAB_ACTIONS);
    expect([a, b, c].map((v) => v.label)).toEqual(["lab.veth_queues=1", "lab.veth_queues=2", "lab.veth_queues=2"]); // max 2 on 2 CPUs
    expect(b.settings[0]).toMatchObject({ action: "lab.veth_queues", kind: "int", value: "2" });
    expect(nextAction(a, LAB_ACTIONS)?.name).toBe("lab.rps");
    // adding settings until none is left sets every listed action once, the new AdGuard one included
    const all: VariantDraft = { ...a, settings: [...a.settings] };
    for (let next = nextAction(all, LAB_ACTIONS); next; next = nextAction(all, LAB_ACTIONS)) all.settings.push(blankSetting(next));
    expect(all.settings.map((s) => s.action)).toEqual(LAB_ACTIONS.map((x) => x.name));
    expect(all.settings.map((s) => s.action)).toContain("lab.adguard_config");
    expect(nextAction(all, [])).toBeUndefined();
    expect(blankVariant([], [])).toMatchObject({ label: "variant 1", settings: [] });
  });

  it("starts an enum at its default and sends its name as is, underscores kept", () => {
    const coredns = blankSetting(labAction("lab.coredns_config"));
    expect(coredns).toMatchObject({ kind: "name", value: "minimal" });
    expect(blankSetting(labAction("lab.adguard_config")).value).toBe("querylog_off");
    expect(valuesOf(labAction("lab.adguard_config"))).toEqual(["querylog_off", "querylog_on"]);
    const v = { ...blankVariant([], LAB_ACTIONS), label: "logging", settings: [{ ...coredns, value: "log_file" }] };
    const body = draftToBody({ ...blankDraft(tool("dnsperf")), variants: [v] }, TOOLS) as unknown as { variants: unknown };
    expect(body.variants).toEqual([{ label: "logging", set: { "lab.coredns_config": "log_file" } }]);
  });

  it("puts an action's default first, for enums and switches alike, and keeps an int within its range", () => {
    const enumDefault = { ...labAction("lab.coredns_config"), default: "log_file" };
    expect(valuesOf(enumDefault)).toEqual(["log_file", "minimal", "log_discard"]);
    expect([0, 1, 3].map((n) => nthValue(enumDefault, n))).toEqual(["log_file", "minimal", "log_file"]);
    expect(valuesOf(labAction("lab.gro"))).toEqual(["on", "off"]); // no default: on first
    expect(valuesOf({ ...labAction("lab.gro"), default: false })).toEqual(["off", "on"]);
    const queues = labAction("lab.veth_queues");
    expect(valuesOf(queues)).toEqual([]);
    expect([0, 1, 5].map((n) => nthValue({ ...queues, max: 4 }, n))).toEqual(["1", "2", "4"]);
  });

  it("keeps a loaded plan's unknown actions, each sent back as its stored type", () => {
    const stored = { label: "old", set: { "lab.gone": 3, "lab.old_switch": false, "lab.old_enum": "a_b" } };
    const v = variantFromApi(stored);
    expect(v.settings.map((s) => [s.action, s.kind, s.value])).toEqual([
      ["lab.gone", "int", "3"],
      ["lab.old_switch", "bool", "off"],
      ["lab.old_enum", "name", "a_b"],
    ]);
    expect(variantToApi(v)).toEqual(stored);
  });

  it("keeps the plan's settings the form does not edit (cpu_profile, agents) and drops what the server set", () => {
    const stored = { name: "p", tool: "dnsperf", target_id: 3, phases: [{ kind: "baseline", concurrency: 1, rate: 100, duration_s: 2 }], id: 9,
                     created_at: "x", cpu_profile: { process: "coredns", frequency_hz: 99 }, agents: 2, on_agent_failure: null };
    const body = draftToBody(draftFromPlan(stored, TOOLS), TOOLS) as unknown as Record<string, unknown>;
    expect(body.cpu_profile).toEqual({ process: "coredns", frequency_hz: 99 });
    expect(body.agents).toBe(2);
    expect("id" in body || "created_at" in body).toBe(false);
  });

  it("keeps a variant's tool parameters through the form, and sends none when it has none", () => {
    const stored = { label: "DoT", set: {}, params: { mode: "dot", port: 853 } };
    expect(variantToApi(variantFromApi(stored))).toEqual(stored);
    expect(variantToApi(variantFromApi({ label: "UDP", set: {}, params: {} }))).toEqual({ label: "UDP", set: {} });
  });
});
