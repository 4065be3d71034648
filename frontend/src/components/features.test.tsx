import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { importCampaign } from "../api/campaigns";
import { ApiError } from "../api/client";
import { errorsOf } from "../api/errors";
import { profileNames } from "../api/profiles";
import type { CampaignOut, Point } from "../api/types";
import { compareVariantsUrl, summaryOf, variantLabels } from "../charts/pointData";
import { concurrencyTicks } from "../charts/zones";
import { parseProfileJson } from "../routes/ProfilesPage";
import { VariantFactsTable } from "./campaign/FactsTable";
import ProgressBar from "./campaign/ProgressBar";
import VariantsEditor, { MonitorsEditor } from "./plan/VariantsEditor";
import { blankVariant, type MonitorDraft } from "./plan/planModel";
import { LAB_ACTIONS, LAB_STATE } from "./plan/__fixtures__/lab";
import { mapValidationErrors } from "../api/errors";
import { keys } from "../api/keys";
import { monitorTools } from "../tools/catalog";
import { TOOLS, planContext } from "../tools/__fixtures__";
import ParamsEditor from "./plan/ParamsEditor";

afterEach(() => vi.unstubAllGlobals());

const wrap = (ui: ReactNode) => <QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>;
/** `ui` under a query cache that already holds GET /api/v1/lab's answer. */
function withLab(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(keys.lab, LAB_STATE);
  return <QueryClientProvider client={client}>{ui}</QueryClientProvider>;
}

describe("import", () => {
  it("posts the files as multipart `file` fields with the name and target", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ id: 7 }), { status: 201 }));
    vi.stubGlobal("fetch", fetchMock);
    const c = await importCampaign({ files: [new File(["a"], "p1.txt"), new File(["b"], "p2.txt")], name: " seed ", target_id: 3 });
    expect(c.id).toBe(7);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/v1/campaigns/import");
    const body = init.body as FormData;
    expect(body.getAll("file").map((f) => (f as File).name)).toEqual(["p1.txt", "p2.txt"]);
    expect(body.get("name")).toBe("seed");
    expect(body.get("target_id")).toBe("3");
  });

  it("turns a 422 into a message on the file field, naming file, line and column", async () => {
    const detail = [{ type: "value_error", loc: ["body", "file"], msg: "bad.csv: line 2, column 4: Actual_QPS must be a number, got 'abc'" }];
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ detail }), { status: 422 })));
    const err = await importCampaign({ files: [new File(["x"], "bad.csv")] }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(errorsOf(err)).toEqual({ file: ["bad.csv: line 2, column 4: Actual_QPS must be a number, got 'abc'"] });
  });
});

describe("profiles", () => {
  it("lists the built-in profile first, once", () => {
    const p = (name: string) => ({ id: 1, name, document: {}, summary: "", created_at: "" });
    expect(profileNames([p("zeta"), p("singlelight"), p("alpha")])).toEqual(["singlelight", "alpha", "zeta"]);
    expect(profileNames(undefined)).toEqual(["singlelight"]);
  });
  it("names the line and column of pasted JSON that does not parse", () => {
    expect(parseProfileJson('{"a": 1}').document).toEqual({ a: 1 });
    expect(parseProfileJson("[1]").error).toMatch(/JSON object/);
    expect(parseProfileJson("").error).toMatch(/paste/);
    expect(parseProfileJson('{\n  "a": ,\n}').error).toMatch(/^not JSON/);
  });
});

const pt = (seq: number, variant: string | null, phase: string, metrics: Record<string, number>, status = "completed"): Point =>
  ({ id: seq, attempt: 0, campaign_id: 1, seq, variant, phase_index: 0, phase, concurrency: 1, offered_rate: null, duration_s: 1, repeat: 0, status, error: null, warnings: [], metrics, extra: {}, started_at: null, ended_at: null }) as Point;

describe("variants in the report", () => {
  it("labels come from the frozen plan, in its order", () => {
    const plan = { variants: [{ label: "4 queues" }, { label: "1 queue" }] };
    expect(variantLabels(plan, [pt(0, "1 queue", "baseline", {})])).toEqual(["4 queues", "1 queue"]);
    expect(variantLabels({}, [])).toEqual([]);
  });
  it("summarises one variant's points as the API summarises a campaign", () => {
    const s = summaryOf([
      pt(0, "a", "baseline", { achieved_rate: 100, latency_avg_ms: 0.5, sent: 100, lost: 1 }),
      pt(1, "a", "saturation", { achieved_rate: 900, latency_avg_ms: 2, sent: 900, lost: 9 }),
      pt(2, "a", "saturation", {}, "failed"),
    ]);
    expect(s).toEqual({ max_achieved_rate: 900, baseline_latency_ms: 0.5, loss_pct: 1, points_completed: 2, points_failed: 1 });
  });
  it("links the variants to the compare page with encoded selectors", () => {
    expect(compareVariantsUrl(12, ["1 queue", "4 queues"])).toBe("/compare?c=12%401%20queue&c=12%404%20queues");
    expect(new URLSearchParams(compareVariantsUrl(12, ["1 queue", "a&b"]).split("?")[1]).getAll("c")).toEqual(["12@1 queue", "12@a&b"]);
  });
  it("shows each variant's facts in a column, differences highlighted", () => {
    render(
      <VariantFactsTable
        labels={["1 queue", "4 queues"]}
        selected="4 queues"
        variants={{ "4 queues": { "setting.lab.veth_queues": "4", kernel: "6.1" }, "1 queue": { "setting.lab.veth_queues": "1", kernel: "6.1" } }}
      />,
    );
    const table = screen.getByTestId("variant-facts");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Fact", "1 queue", "4 queues"]);
    const row = within(table).getByText("setting.lab.veth_queues").closest("tr")!;
    expect(row.querySelector("td.differs")?.textContent).toBe("4");
    expect(within(table).getByText("kernel").closest("tr")!.querySelector("td.differs")).toBeNull();
  });
});

describe("charts", () => {
  it("puts concurrency ticks on round numbers", () => {
    expect(concurrencyTicks(1, 64)).toEqual([1, 20, 40, 60]);
    expect(concurrencyTicks(1, 8)).toEqual([1, 2, 4, 6, 8]);
    expect(concurrencyTicks(1, 2)).toEqual([1, 2]);
  });
});

describe("ProgressBar", () => {
  it("counts points cancelled or skipped", () => {
    const progress = { done: 6, total: 6, failed: 1, cancelled: 3, elapsed_s: 12, eta_s: null, running_point_id: null, queue_position: null };
    render(<ProgressBar campaign={{ status: "cancelling", agent: "local", progress } as unknown as CampaignOut} />);
    expect(screen.getByTestId("progress-cancelled").textContent).toContain("3 cancelled or skipped");
  });
});

describe("plan editor: variants and monitors", () => {
  it("offers only the registered actions, with on/off for switches", () => {
    const onChange = vi.fn();
    const v = blankVariant([], LAB_ACTIONS);
    render(withLab(<VariantsEditor variants={[{ ...v, settings: [...v.settings, { key: "s2", action: "lab.gro", kind: "bool", value: "on" }] }]} errors={{}} onChange={onChange} />));
    const action = screen.getByLabelText("Setting 1 of variant 1") as HTMLSelectElement;
    // the first setting may become any action the variant does not already set
    expect([...action.options].map((o) => o.value)).toEqual(LAB_ACTIONS.map((a) => a.name).filter((n) => n !== "lab.gro"));
    expect(action.tagName).toBe("SELECT");
    const gro = screen.getByLabelText("lab.gro value") as HTMLSelectElement;
    expect([...gro.options].map((o) => o.value)).toEqual(["on", "off"]);
    fireEvent.change(screen.getByLabelText("lab.veth_queues value"), { target: { value: "4" } });
    expect(onChange.mock.calls[0][0][0].settings[0].value).toBe("4");
    fireEvent.click(screen.getByRole("button", { name: "+ variant" }));
    expect(onChange.mock.calls[1][0].map((x: { label: string }) => x.label)).toEqual(["lab.veth_queues=1", "lab.veth_queues=2"]);
  });

  it("shows the API's message beside the variant and the ping host", () => {
    const errors = mapValidationErrors(
      [
        { loc: ["body", "dnsperf", "variants", 0, "set"], msg: "Value error, lab.veth_queues: 99 is out of range 1…2" },
        { loc: ["body", "dnsperf", "monitors", 1, "ping", "host"], msg: "String should have at least 1 character" },
      ],
      planContext("dnsperf"),
    );
    render(withLab(<VariantsEditor variants={[blankVariant([], LAB_ACTIONS)]} errors={errors} onChange={() => {}} />));
    expect(within(screen.getByTestId("variant-0")).getByText("lab.veth_queues: 99 is out of range 1…2")).toBeTruthy();
    const monitors: MonitorDraft[] = [
      { kind: "mpstat", params: { interval_s: "1" } },
      { kind: "ping", params: { host: "" } },
    ];
    render(wrap(<MonitorsEditor monitors={monitors} available={monitorTools(TOOLS)} errors={errors} onChange={() => {}} />));
    const host = screen.getByLabelText("Host");
    expect(host.getAttribute("name")).toBe("ping_host");
    expect(host.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("String should have at least 1 character")).toBeTruthy();
  });
});

describe("plan editor: params from the tool's schema", () => {
  const find = (name: string) => TOOLS.find((t) => t.name === name)!;
  it("renders a select, a checkbox and a bounded number from the schema, and reports edits", () => {
    const onChange = vi.fn();
    render(wrap(<ParamsEditor schema={find("iperf3").params_schema} values={{ protocol: "tcp", reverse: false, length: "" }} errors={{}} onChange={onChange} />));
    const protocol = screen.getByLabelText("Protocol") as HTMLSelectElement;
    expect([...protocol.options].map((o) => o.value)).toEqual(["tcp", "udp"]);
    const length = screen.getByLabelText("Length (bytes)") as HTMLInputElement;
    expect([length.type, length.min, length.max, length.name]).toEqual(["number", "16", "1048576", "params-length"]);
    fireEvent.click(screen.getByLabelText("Reverse (server sends, -R)"));
    expect(onChange).toHaveBeenCalledWith("reverse", true);
    fireEvent.change(protocol, { target: { value: "udp" } });
    expect(onChange).toHaveBeenCalledWith("protocol", "udp");
  });
  it("shows the API's message beside the field it names", () => {
    const errors = mapValidationErrors([{ loc: ["body", "wrk", "params", "threads"], msg: "Input should be less than or equal to 64" }], planContext("wrk"));
    render(wrap(<ParamsEditor schema={find("wrk").params_schema} values={{ threads: "99" }} errors={errors} onChange={() => {}} />));
    expect(screen.getByLabelText("Threads").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Input should be less than or equal to 64")).toBeTruthy();
  });
  it("offers the stored documents a field names (uploaded profiles), built-in first", async () => {
    const qc = new QueryClient();
    qc.setQueryData(keys.profiles, [{ id: 1, name: "lamp", document: {}, summary: "a lamp", created_at: "" }]);
    render(
      <QueryClientProvider client={qc}>
        <ParamsEditor schema={find("devsim").params_schema} values={{ profile: "singlelight" }} errors={{}} onChange={() => {}} />
      </QueryClientProvider>,
    );
    const select = (await screen.findByDisplayValue("singlelight (built-in)")) as HTMLSelectElement;
    expect(select.name).toBe("params-profile");
    await screen.findByText("lamp — a lamp");
    expect([...select.options].map((o) => o.value)).toEqual(["singlelight", "lamp"]);
  });
  it("lists the registered monitors and ticks one on with its defaults", () => {
    const onChange = vi.fn();
    render(wrap(<MonitorsEditor monitors={[]} available={monitorTools(TOOLS)} errors={{}} onChange={onChange} />));
    expect(screen.getAllByRole("checkbox").map((c) => c.getAttribute("name"))).toEqual(["monitor-mpstat", "monitor-ping", "monitor-node", "monitor-process"]);
    fireEvent.click(screen.getByLabelText("Round trip (ping)"));
    expect(onChange).toHaveBeenCalledWith([{ kind: "ping", params: { host: "" } }]);
  });
});
