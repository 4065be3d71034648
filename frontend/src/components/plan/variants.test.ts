import { describe, expect, it } from "vitest";
import { TOOLS, tool } from "../../tools/__fixtures__";
import { LAB_ACTIONS, blankDraft, blankSetting, blankVariant, draftFromPlan, draftToBody, nextAction } from "./planModel";

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
    const v = blankVariant([]);
    v.settings[0].value = "two";
    const body = draftToBody({ ...d, variants: [v] }, TOOLS) as unknown as { variants: unknown };
    expect(body.variants).toEqual([{ label: "1 queue", set: { "lab.veth_queues": "two" } }]);
  });

  it("offers the next queue count and only registered actions", () => {
    const a = blankVariant([]);
    const b = blankVariant([a]);
    expect([a.label, b.label]).toEqual(["1 queue", "2 queues"]);
    expect(b.settings[0]).toMatchObject({ action: "lab.veth_queues", value: "2" });
    expect(nextAction(a)).toBe("lab.rps");
    const all = { ...a, settings: LAB_ACTIONS.map((x, i) => ({ key: String(i), action: x.name, value: "on" })) };
    expect(nextAction(all)).toBeNull();
    expect(LAB_ACTIONS.map((x) => x.name)).toEqual(["lab.veth_queues", "lab.rps", "lab.gro", "lab.threaded_napi", "lab.coredns_config"]);
  });

  it("sets CoreDNS's configuration by name, its first choice by default", () => {
    const v = { ...blankVariant([]), label: "logging", settings: [{ ...blankSetting("lab.coredns_config") }] };
    expect(v.settings[0].value).toBe("minimal");
    v.settings[0].value = "log_file";
    const body = draftToBody({ ...blankDraft(tool("dnsperf")), variants: [v] }, TOOLS) as unknown as { variants: unknown };
    expect(body.variants).toEqual([{ label: "logging", set: { "lab.coredns_config": "log_file" } }]);
  });
});
