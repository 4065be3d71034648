import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import PrometheusPage from "../../routes/PrometheusPage";

const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

const TOKEN = "tok-given-once";
const team = { id: 1, name: "team", url: "https://prometheus.example.com", auth: "bearer", username: null, scrape_interval_s: 15,
  remote_write: true, created_by: "admin", created_at: "", updated_at: "" };

/** The API as the page meets it: an admin, one server, an allow-list; a POST answers 422 on `url`. */
function api() {
  const posted: unknown[] = [];
  const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  fetchMock.mockImplementation(async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/v1/auth/me") return answer({ username: "admin", role: "admin" });
    if (path === "/api/v1/policy/prometheus") return answer({ networks: ["10.0.0.0/24"], hosts: [], updated_by: "admin" });
    if (path === "/api/v1/prometheus" && request.method === "POST") {
      posted.push(await request.json());
      return answer({ detail: [{ loc: ["body", "url"], msg: "10.9.9.9 is not on the Prometheus allow-list", type: "value_error" }] }, 422);
    }
    if (path === "/api/v1/prometheus") return answer([team]);
    return answer({ detail: "not found" }, 404);
  });
  return posted;
}

describe("the Prometheus page", () => {
  it("lists servers with only whether a credential is set, and shows a refused registration's 422 on its field", async () => {
    const posted = api();
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><PrometheusPage /></QueryClientProvider>);
    const row = (await screen.findByText("team")).closest("tr")!;
    expect(within(row).getByText("set (bearer)")).toBeTruthy();
    expect(within(row).getByText("yes")).toBeTruthy();
    expect(await screen.findByDisplayValue("10.0.0.0/24")).toBeTruthy();
    const form = await screen.findByRole("form", { name: "New Prometheus" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "other" } });
    fireEvent.change(within(form).getByLabelText("URL"), { target: { value: "http://10.9.9.9:9090" } });
    fireEvent.change(within(form).getByLabelText("Auth"), { target: { value: "bearer" } });
    fireEvent.change(within(form).getByLabelText("Bearer token"), { target: { value: TOKEN } });
    fireEvent.submit(form);
    expect(await within(form).findByText("10.9.9.9 is not on the Prometheus allow-list")).toBeTruthy();
    expect(within(form).getByLabelText("URL").getAttribute("aria-invalid")).toBe("true");
    expect(posted).toEqual([{ name: "other", url: "http://10.9.9.9:9090", scrape_interval_s: 15, remote_write: false, bearer_token: TOKEN }]);
    await waitFor(() => expect(document.body.textContent).not.toContain(TOKEN));
  });
});
