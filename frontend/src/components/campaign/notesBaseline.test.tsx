import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { keys } from "../../api/keys";
import type { CampaignOut, Plan } from "../../api/types";
import BaselinePin from "./BaselinePin";
import CampaignNotes from "./CampaignNotes";

// the typed client, pointed at a mock fetch (openapi-fetch keeps the fetch it was made with)
const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const route = (req: Request) => [req.method, new URL(req.url).pathname];

const campaign = (over: Partial<CampaignOut> = {}) =>
  ({ id: 9, name: "night run", status: "completed", notes: "", plan_id: 3, baseline_campaign_id: null, ...over }) as CampaignOut;
const plan = (baseline: number | null) => ({ id: 3, name: "p", baseline_campaign_id: baseline }) as unknown as Plan;

let qc: QueryClient;
beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  fetchMock.mockReset();
});

const renderIn = (ui: React.ReactElement) =>
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );

describe("campaign notes", () => {
  it("shows the notes, edits them and saves with PATCH, updating the campaign query", async () => {
    const c = campaign({ notes: "first line\nsecond" });
    qc.setQueryData(keys.campaign(9), c);
    fetchMock.mockImplementation(async () => json({ ...c, notes: "kernel 6.8, irqbalance off" }));
    renderIn(<CampaignNotes campaign={c} />);
    expect(screen.getByTestId("campaign-notes").textContent).toBe("first line\nsecond");

    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    const box = screen.getByRole("textbox", { name: "Notes" }) as HTMLTextAreaElement;
    expect(box.value).toBe("first line\nsecond");
    fireEvent.change(box, { target: { value: "kernel 6.8, irqbalance off" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));

    await waitFor(() => expect(screen.queryByRole("textbox")).toBeNull());
    const req = fetchMock.mock.calls[0][0];
    expect(route(req)).toEqual(["PATCH", "/api/v1/campaigns/9"]);
    expect(await req.json()).toEqual({ notes: "kernel 6.8, irqbalance off" });
    expect(qc.getQueryData<CampaignOut>(keys.campaign(9))?.notes).toBe("kernel 6.8, irqbalance off");
  });

  it("says so when there are no notes", () => {
    renderIn(<CampaignNotes campaign={campaign()} />);
    expect(screen.getByTestId("campaign-notes").textContent).toBe("No notes.");
  });

  it("shows the API's 422 beside the field and stays in edit mode", async () => {
    fetchMock.mockResolvedValueOnce(
      json({ detail: [{ loc: ["body", "notes"], msg: "String should have at most 10000 characters", type: "string_too_long" }] }, 422),
    );
    renderIn(<CampaignNotes campaign={campaign()} />);
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Notes" }), { target: { value: "x".repeat(10_001) } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("field-error")).textContent).toBe("String should have at most 10000 characters");
    expect(screen.getByRole("textbox", { name: "Notes" }).getAttribute("aria-invalid")).toBe("true");
  });

  it("cancel drops the draft", () => {
    renderIn(<CampaignNotes campaign={campaign({ notes: "kept" })} />);
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Notes" }), { target: { value: "changed" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByTestId("campaign-notes").textContent).toBe("kept");
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("baseline pin", () => {
  it("links to the comparison with the pinned baseline and offers to pin this one instead", async () => {
    fetchMock.mockImplementation(async () => json(plan(5)));
    renderIn(<BaselinePin campaign={campaign({ baseline_campaign_id: 5 })} />);
    expect(screen.getByRole("link", { name: "compare with it" }).getAttribute("href")).toBe("/compare?c=5&c=9");
    expect(screen.getByRole("link", { name: "#5" }).getAttribute("href")).toBe("/campaigns/5");
    expect(screen.getByTestId("baseline-line").textContent).toMatch(/^Baseline: #5 — compare with it/);
    expect(await screen.findByRole("button", { name: "Pin as baseline" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Unpin" })).toBeNull();
  });

  it("pins a completed campaign with PUT /plans/{id}/baseline and then offers Unpin", async () => {
    qc.setQueryData(keys.campaign(9), campaign());
    fetchMock.mockImplementation(async (req) =>
      req.method === "PUT" ? json(plan(9)) : route(req)[1] === "/api/v1/plans/3" ? json(plan(null)) : json(campaign()),
    );
    renderIn(<BaselinePin campaign={campaign()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Pin as baseline" }));
    expect(await screen.findByRole("button", { name: "Unpin" })).toBeTruthy();
    const put = fetchMock.mock.calls.map((c) => c[0]).find((r) => r.method === "PUT")!;
    expect(new URL(put.url).pathname).toBe("/api/v1/plans/3/baseline");
    expect(await put.json()).toEqual({ campaign_id: 9 });
    expect(qc.getQueryData<Plan>(keys.plan(3))?.baseline_campaign_id).toBe(9);
    expect(screen.queryByRole("link", { name: "compare with it" })).toBeNull();
  });

  it("unpins with campaign_id null when this campaign is the pinned one", async () => {
    fetchMock.mockImplementation(async (req) => (req.method === "PUT" ? json(plan(null)) : json(plan(9))));
    renderIn(<BaselinePin campaign={campaign()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Unpin" }));
    expect(await screen.findByRole("button", { name: "Pin as baseline" })).toBeTruthy();
    const put = fetchMock.mock.calls.map((c) => c[0]).find((r) => r.method === "PUT")!;
    expect(await put.json()).toEqual({ campaign_id: null });
  });

  it("shows the API's 422 when the campaign cannot be pinned", async () => {
    fetchMock.mockImplementation(async (req) =>
      req.method === "PUT"
        ? json({ detail: [{ loc: ["body", "campaign_id"], msg: "campaign 9 is not a completed campaign of this plan's tool", type: "value_error" }] }, 422)
        : json(plan(null)),
    );
    renderIn(<BaselinePin campaign={campaign()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Pin as baseline" }));
    expect((await screen.findByRole("alert")).textContent).toBe("campaign 9 is not a completed campaign of this plan's tool");
  });

  it("offers no pin for a campaign that did not complete or has no plan", async () => {
    fetchMock.mockImplementation(async () => json(plan(null)));
    const { container, rerender } = renderIn(<BaselinePin campaign={campaign({ status: "failed" })} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(container.textContent).toBe("");
    rerender(
      <QueryClientProvider client={qc}>
        <MemoryRouter>
          <BaselinePin campaign={campaign({ plan_id: null })} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(container.textContent).toBe("");
  });
});
