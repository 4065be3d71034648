import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { keys } from "../../api/keys";
import type { CampaignOut, Point } from "../../api/types";
import CampaignFilters, { type FilterValues } from "../campaigns/CampaignFilters";
import { FakeEventSource } from "./__fixtures__/eventSource";
import AttemptsNote, { pointsByAttempt, seqRanges } from "./AttemptsNote";
import CampaignActions from "./CampaignActions";
import LiveSection from "./LiveSection";
import { columnsFor } from "./PointsTable";
import { useCampaignEvents } from "./useCampaignEvents";

// the typed client, pointed at a mock fetch (openapi-fetch keeps the fetch it was made with)
const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

const json = (body: unknown, status = 200) => new Response(body === null ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const campaign = (over: Partial<CampaignOut> = {}) =>
  ({
    id: 5, name: "night run", status: "cancelled", attempt: 1, archived: false,
    progress: { total: 6, done: 6 }, summary: { points_completed: 4, points_failed: 0 }, ...over,
  }) as CampaignOut; // prettier-ignore

let qc: QueryClient;
beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

const withQuery = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;

function renderActions(c: CampaignOut) {
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[`/campaigns/${c.id}`]}>
        <Routes>
          <Route path="/campaigns/:id" element={<CampaignActions campaign={c} />} />
          <Route path="/campaigns" element={<p>the list</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("campaign actions", () => {
  it("resumes a cancelled campaign after saying how many points run again", async () => {
    fetchMock.mockResolvedValueOnce(json(campaign({ status: "queued", attempt: 2 }), 202));
    qc.setQueryData(keys.campaignList({ limit: 20 }), { items: [], total: 0 });
    renderActions(campaign());
    fireEvent.click(screen.getByRole("button", { name: "Resume" }));
    expect(screen.getByTestId("resume-count").textContent).toMatch(/^2 points that did not complete will run again .* as attempt 2\. The 4 completed points/);
    fireEvent.click(screen.getAllByRole("button", { name: "Resume" })[1]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const req = fetchMock.mock.calls[0][0];
    expect([req.method, new URL(req.url).pathname]).toEqual(["POST", "/api/v1/campaigns/5/resume"]);
    expect(qc.getQueryData<CampaignOut>(keys.campaign(5))?.status).toBe("queued");
    expect(qc.getQueryState(keys.campaignList({ limit: 20 }))?.isInvalidated).toBe(true);
  });

  it("shows the API's message when the campaign cannot be resumed", async () => {
    fetchMock.mockResolvedValueOnce(json({ detail: "campaign 5 has no point left to run" }, 409));
    renderActions(campaign({ status: "crashed" }));
    fireEvent.click(screen.getByRole("button", { name: "Resume" }));
    fireEvent.click(screen.getAllByRole("button", { name: "Resume" })[1]);
    expect((await screen.findByRole("alert")).textContent).toBe("campaign 5 has no point left to run");
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("offers no resume and no delete while the campaign is active", () => {
    renderActions(campaign({ status: "running" }));
    expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
    expect((screen.getByRole("button", { name: "Delete" }) as HTMLButtonElement).disabled).toBe(true);
    renderActions(campaign({ status: "completed" }));
    expect(screen.queryAllByRole("button", { name: "Resume" })).toHaveLength(0);
  });

  it("deletes after a confirm and goes back to the list", async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    qc.setQueryData(keys.campaign(5), campaign());
    renderActions(campaign({ status: "completed" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete campaign" }));
    await screen.findByText("the list");
    const req = fetchMock.mock.calls[0][0];
    expect([req.method, new URL(req.url).pathname]).toEqual(["DELETE", "/api/v1/campaigns/5"]);
    expect(qc.getQueryData(keys.campaign(5))).toBeUndefined();
  });

  it("archives and unarchives in place", async () => {
    fetchMock.mockImplementation(async (req) => json(campaign({ archived: (await req.json()).archived })));
    renderActions(campaign());
    fireEvent.click(screen.getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(qc.getQueryData<CampaignOut>(keys.campaign(5))?.archived).toBe(true));
    const req = fetchMock.mock.calls[0][0];
    expect([req.method, new URL(req.url).pathname]).toEqual(["PATCH", "/api/v1/campaigns/5"]);
    renderActions(campaign({ archived: true }));
    expect(screen.getByRole("button", { name: "Unarchive" })).toBeTruthy();
  });
});

describe("attempts of a resumed campaign", () => {
  const pts = [0, 1, 2, 4].map((seq) => ({ seq, attempt: 1 })).concat([3, 5].map((seq) => ({ seq, attempt: 2 })));
  it("names point ranges the way the table numbers them", () => {
    expect(seqRanges([4, 0, 1, 2, 6, 2])).toBe("1–3, 5, 7");
    expect(pointsByAttempt(pts)).toEqual([
      { attempt: 1, points: "1–3, 5", count: 4 },
      { attempt: 2, points: "4, 6", count: 2 },
    ]);
  });
  it("says which points ran in which attempt, only when resumed", () => {
    const { rerender } = render(<AttemptsNote campaign={{ attempt: 1 }} points={pts} />);
    expect(screen.queryByTestId("attempts-note")).toBeNull();
    rerender(<AttemptsNote campaign={{ attempt: 2 }} points={pts} />);
    expect(screen.getByTestId("attempts-note").textContent).toBe("Resumed: attempt 2. attempt 1 ran points 1–3, 5; attempt 2 ran points 4, 6");
  });
  it("adds the attempt column to the points table when asked", () => {
    expect(columnsFor(undefined).map((c) => c.key)).not.toContain("attempt");
    const col = columnsFor(undefined, true).find((c) => c.key === "attempt");
    expect(col?.show({ attempt: 2 } as Point)).toBe("2");
  });
});

describe("live stream of the report", () => {
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal("EventSource", FakeEventSource);
  });

  it("reconnects by itself and refetches the campaign and its points when back", () => {
    qc.setQueryData(keys.campaign(5), campaign({ status: "running" }));
    qc.setQueryData(keys.campaignPoints(5), []);
    const { result } = renderHook(() => useCampaignEvents(5, true), { wrapper: withQuery });
    const es = FakeEventSource.last;
    expect(es.url).toBe("/api/v1/campaigns/5/events");
    act(() => es.open());
    expect(result.current.stream).toBe("live");
    act(() => es.emit("progress", { status: "running", progress: { total: 6, done: 3 }, summary: { points_completed: 3 } }));
    expect(qc.getQueryData<CampaignOut>(keys.campaign(5))?.progress.done).toBe(3);
    act(() => es.drop());
    expect(result.current.stream).toBe("reconnecting");
    expect(qc.getQueryState(keys.campaignPoints(5))?.isInvalidated).toBe(false);
    act(() => es.open());
    expect(result.current.stream).toBe("live");
    expect(qc.getQueryState(keys.campaign(5))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(keys.campaignPoints(5))?.isInvalidated).toBe(true);
  });

  it("shows reconnecting… in the live section while the stream is down", () => {
    const c = campaign({ status: "running", progress: { total: 6, done: 2, running_point_id: null } as CampaignOut["progress"] });
    const { rerender } = render(<LiveSection campaign={c} tool={undefined} points={[]} live={{}} stream="reconnecting" />, { wrapper: withQuery });
    expect(screen.getByTestId("live-state").textContent).toBe("reconnecting…");
    rerender(<LiveSection campaign={c} tool={undefined} points={[]} live={{}} stream="polling" />);
    expect(screen.getByTestId("live-state").textContent).toBe("reconnecting…");
    rerender(<LiveSection campaign={c} tool={undefined} points={[]} live={{}} stream="live" />);
    expect(screen.getByTestId("live-state").textContent).toBe("live");
  });
});

describe("campaign filters", () => {
  it("toggles the archived campaigns, and Clear turns it off", () => {
    fetchMock.mockImplementation(async () => json([]));
    const onChange = vi.fn();
    const values: FilterValues = { status: "", target_id: "", tool: "", tag: "", q: "", archived: "" };
    const { rerender } = render(<CampaignFilters values={values} onChange={onChange} />, { wrapper: withQuery });
    fireEvent.click(screen.getByLabelText("Show archived"));
    expect(onChange).toHaveBeenLastCalledWith({ archived: "1" });
    rerender(<CampaignFilters values={{ ...values, archived: "1" }} onChange={onChange} />);
    expect((screen.getByLabelText("Show archived") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ archived: "" }));
  });
});
