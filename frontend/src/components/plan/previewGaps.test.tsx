// The plan editor asks /plans/preview only about a complete draft: loading a template logs no 422.
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TOOLS } from "../../tools/__fixtures__";
import { openTemplate } from "./__fixtures__/editor";
import { draftFromPlan, draftGaps } from "./planModel";

// the typed client, pointed at a mock fetch (openapi-fetch keeps the fetch it was made with)
const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

const template = {
  name: "DNS three dimensions",
  tool: "dnsperf",
  target_id: null,
  params: { names: ["www.example.lab"], qtype: "A", timeout_s: 5 },
  phases: [
    { kind: "baseline", concurrency: 1, rate: 500, duration_s: 30 },
    { kind: "scalability", concurrency: [1, 2, 4], unit_rate: 2500, duration_s: 20 },
  ],
  pause_s: 3,
  repeat: 1,
};

describe("draftGaps", () => {
  it("names what a template lacks before it can be previewed", () => {
    const d = draftFromPlan(template, TOOLS);
    expect(draftGaps(d, TOOLS)).toEqual({ target_id: ["choose a target"] });
    d.targetId = "3";
    expect(draftGaps(d, TOOLS)).toEqual({});
  });
  it("holds back empty and non-numeric fields, not out-of-range numbers (the API names those)", () => {
    const d = { ...draftFromPlan(template, TOOLS), targetId: "3" };
    d.phases[0].duration = "";
    d.phases[1].concurrency = "1, x";
    expect(draftGaps(d, TOOLS)).toEqual({ "phases.0.duration_s": ["required"], "phases.1.concurrency": ["not a number"] });
    d.phases[0].duration = "-1";
    d.phases[1].concurrency = "1, 2";
    expect(draftGaps(d, TOOLS)).toEqual({});
    expect(draftGaps({ ...d, phases: [] }, TOOLS)).toEqual({ phases: ["add a phase"] });
  });
});

describe("plan editor preview", () => {
  /** The API the editor talks to; `targets` is what GET /targets answers. */
  function stubApi(targets: object[]) {
    const calls: { url: string; body: unknown }[] = [];
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (req: Request) => {
        const url = new URL(req.url).pathname;
        const body = req.method === "POST" ? await req.clone().json() : null;
        calls.push({ url, body });
        const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "content-type": "application/json" } });
        if (url.endsWith("/tools")) return json(TOOLS);
        if (url.endsWith("/plans/templates")) return json([{ id: "dns", title: "DNS", description: "", tool: "dnsperf", plan: template }]);
        if (url.endsWith("/targets")) return json(targets);
        if (url.endsWith("/plans/preview"))
          return (body as { target_id?: unknown }).target_id == null
            ? json({ detail: [{ loc: ["body", "dnsperf", "target_id"], msg: "Field required" }] }, 422)
            : json({ point_count: 4, estimated_s: 90, points: [] });
        return json({});
    });
    return calls;
  }

  const loadTemplate = () => openTemplate(800);

  it("sends no preview while the template has no target, and says what is missing", async () => {
    const calls = stubApi([]);
    await loadTemplate();
    expect(calls.filter((c) => c.url.endsWith("/plans/preview"))).toEqual([]);
    expect(screen.getByTestId("plan-problems").textContent).toContain("choose a target");
  });
  it("previews once the default target is set, and never without it", async () => {
    const calls = stubApi([{ id: 3, name: "lab dns", kind: "dns", host: "127.0.0.1", port: 53 }]);
    await loadTemplate();
    const isPreview = (c: { url: string }) => c.url.endsWith("/plans/preview");
    await waitFor(() => expect(calls.some(isPreview)).toBe(true), { timeout: 4000 });
    const previews = calls.filter(isPreview);
    expect(previews.map((c) => (c.body as { target_id?: number }).target_id)).toEqual(previews.map(() => 3));
    expect(await screen.findByTestId("point-count")).toHaveProperty("textContent", "4");
  });
});
