// Issue 35: a plan scrapes several of its target's exporters, each its own {kind: "exporter", exporter: name} monitor, all of
// them ticked when a load tool's plan picks a target that lists exporters.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { monitorTools } from "../../tools/catalog";
import { TOOLS, tool } from "../../tools/__fixtures__";
import { openTemplate } from "./__fixtures__/editor";
import { draftFromPlan, draftToBody, withTargetExporters, type MonitorDraft } from "./planModel";
import { MonitorsEditor } from "./VariantsEditor";

const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

// GET /tools's exporter monitor (the shared fixture is the backend registry's dump)
const EXPORTER = tool("exporter");
const EXPORTERS = [
  { name: "coredns", url: "http://10.77.0.2:9153/metrics", packs: ["coredns", "process", "go"] },
  { name: "node", url: "http://10.77.0.2:9100/metrics", packs: ["node"] },
];
const template = {
  name: "DNS",
  tool: "dnsperf",
  target_id: null,
  params: { names: ["www.example.lab"], qtype: "A", timeout_s: 5 },
  phases: [{ kind: "baseline", concurrency: 1, rate: 500, duration_s: 30 }],
  pause_s: 3,
  repeat: 1,
  monitors: [{ kind: "mpstat", interval_s: 1 }],
};
const bodyMonitors = (monitors: MonitorDraft[]) => (draftToBody({ ...draftFromPlan(template, TOOLS), targetId: "3", monitors }, TOOLS) as unknown as { monitors: unknown }).monitors;

const IDLE = new QueryClient({ defaultOptions: { queries: { enabled: false } } });

/** The editor's monitors as state, so ticks add up. */
function Picker({ initial, onMonitors }: { initial: MonitorDraft[]; onMonitors: (m: MonitorDraft[]) => void }) {
  const [monitors, setMonitors] = useState(initial);
  const change = (m: MonitorDraft[]) => {
    setMonitors(m);
    onMonitors(m);
  };
  return (
    <QueryClientProvider client={IDLE}>
      <MonitorsEditor monitors={monitors} available={monitorTools(TOOLS)} exporters={EXPORTERS} errors={{}} onChange={change} />
    </QueryClientProvider>
  );
}

describe("the exporter picker", () => {
  it("offers a checkbox per exporter of the target, and each ticked one is a monitor of its own", () => {
    let last: MonitorDraft[] = [];
    render(<Picker initial={[]} onMonitors={(m) => (last = m)} />);
    const group = within(screen.getByRole("group", { name: EXPORTER.title }));
    expect(group.getAllByRole("checkbox").map((c) => c.getAttribute("name"))).toEqual(["monitor-exporter-coredns", "monitor-exporter-node"]);
    expect(group.getByText("(coredns, process, go)")).toBeTruthy();
    fireEvent.click(group.getByRole("checkbox", { name: /coredns/ }));
    fireEvent.click(group.getByRole("checkbox", { name: /node/ }));
    expect(bodyMonitors(last)).toEqual([
      { kind: "exporter", exporter: "coredns", interval_s: 1 },
      { kind: "exporter", exporter: "node", interval_s: 1 },
    ]);
    // each has its own interval, named apart; the exporter's name is the checkbox, not a text field
    expect(screen.getAllByLabelText("Interval (s)").map((i) => i.getAttribute("name"))).toEqual(["exporter_coredns_interval_s", "exporter_node_interval_s"]);
    fireEvent.change(screen.getAllByLabelText("Interval (s)")[1], { target: { value: "5" } });
    fireEvent.click(group.getByRole("checkbox", { name: /coredns/ }));
    expect(bodyMonitors(last)).toEqual([{ kind: "exporter", exporter: "node", interval_s: 5 }]);
  });

  it("keeps a plan's exporter the target does not list visible and ticked, so it can be unticked", () => {
    render(<Picker initial={[{ kind: "exporter", params: { exporter: "haproxy", interval_s: "1" } }]} onMonitors={() => {}} />);
    const box = screen.getByRole("checkbox", { name: /haproxy/ }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.closest("label")?.textContent).toContain("not an exporter of this target");
  });

  it("ticks every exporter of a picked target, keeping what was set and dropping another target's", () => {
    const ticked = withTargetExporters(
      [{ kind: "mpstat", params: { interval_s: "1" } }, { kind: "exporter", params: { exporter: "node", interval_s: "5" } }, { kind: "exporter", params: { exporter: "haproxy", interval_s: "1" } }],
      TOOLS,
      EXPORTERS,
    );
    expect(ticked.map((m) => [m.kind, m.params.exporter ?? null, m.params.interval_s])).toEqual([
      ["mpstat", null, "1"],
      ["exporter", "node", "5"],
      ["exporter", "coredns", "1"],
    ]);
    expect(withTargetExporters(ticked, TOOLS, []).map((m) => m.kind)).toEqual(["mpstat"]);
  });

  it("in the editor: a load tool's plan starts with every exporter of its default target ticked", async () => {
    const previews: { monitors: unknown }[] = [];
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (req: Request) => {
      const url = new URL(req.url).pathname;
      const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "content-type": "application/json" } });
      if (url.endsWith("/tools")) return json(TOOLS);
      if (url.endsWith("/plans/templates")) return json([{ id: "dns", title: "DNS", description: "", tool: "dnsperf", plan: template }]);
      if (url.endsWith("/targets")) return json([{ id: 3, name: "lab coredns", kind: "dns", host: "10.77.0.2", port: 5300, exporters: EXPORTERS }]);
      if (url.endsWith("/plans/preview")) {
        previews.push(await req.clone().json());
        return json({ point_count: 1, estimated_s: 30, points: [] });
      }
      return json({});
    });
    await openTemplate(500);
    await waitFor(() => expect(previews.length).toBeGreaterThan(0), { timeout: 4000 });
    expect(previews.at(-1)?.monitors).toEqual([
      { kind: "mpstat", interval_s: 1 },
      { kind: "exporter", exporter: "coredns", interval_s: 1 },
      { kind: "exporter", exporter: "node", interval_s: 1 },
    ]);
    expect((screen.getByRole("checkbox", { name: /coredns/ }) as HTMLInputElement).checked).toBe(true);
  });
});
