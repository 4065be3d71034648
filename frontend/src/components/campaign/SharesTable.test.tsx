// Issue 18: a point run by several agents shows its shares — offered, achieved, CPU, start offset, error.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import PointEvidence from "./PointEvidence";
import SharesTable, { sharesOf } from "./SharesTable";

const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

const shares = [
  { agent: "agent-1", offered_rate: 500, achieved_rate: 499.5, cpu_s: 0.8, cpus: 2, started_at: 1000.0, error: null, hdr: "HISTFAAA" },
  { agent: "agent-2", offered_rate: 500, achieved_rate: null, cpu_s: null, cpus: 2, started_at: 1000.0013, error: "agent agent-2 stopped answering" },
];

const rowOf = (name: string) => within(screen.getByRole("row", { name: new RegExp(name) }));

describe("SharesTable", () => {
  beforeEach(() => fetchMock.mockReset());

  it("lists each agent with its rates, CPU share, start after the earliest, and error", () => {
    render(<SharesTable shares={shares} skewMs={1.3} durationS={4} />);
    expect(screen.getByText(/2 agents/).textContent).toContain("start skew 1.3 ms");
    const first = rowOf("agent-1");
    expect(first.getAllByRole("cell").map((c) => c.textContent)).toEqual(["500", "499.5", "10 %", "0", ""]);
    const second = rowOf("agent-2");
    expect(second.getAllByRole("cell").map((c) => c.textContent)).toEqual(["500", "—", "—", "1.3", "agent agent-2 stopped answering"]);
  });

  it("finds shares only in a fanned point's extra", () => {
    expect(sharesOf({ shares })).toHaveLength(2);
    expect(sharesOf({ hdr: "x" })).toBeNull();
    expect(sharesOf({ shares: [] })).toBeNull();
    expect(sharesOf({ shares: [{ nope: 1 }] })).toBeNull();
    expect(sharesOf(null)).toBeNull();
  });

  it("shows the table in the point's evidence instead of the raw shares", async () => {
    const point = {
      id: 7, campaign_id: 1, seq: 0, phase: "baseline", phase_index: 0, status: "completed", concurrency: 4, offered_rate: 1000,
      duration_s: 4, variant: null, repeat: 0, attempt: 1, started_at: null, ended_at: null, metrics: {}, warnings: [], error: null,
      extra: { shares, start_skew_ms: 1.3 }, argv: ["loadgen"], exit_code: 0, stdout: "", stderr: "", tool_version: null, agent: null,
      parser_version: "1",
    };
    fetchMock.mockImplementation(async (req) => json(String(req?.url).includes("/samples") ? { point_id: 7, samples: [] } : point));
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={qc}>
        <PointEvidence pointId={7} />
      </QueryClientProvider>,
    );
    const table = await screen.findByTestId("shares");
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    expect(screen.queryByText(/HISTFAAA/)).toBeNull();
    expect(screen.getByText("start_skew_ms")).toBeTruthy();
  });
});
