// Issue 19: the theme and its switch, the header's menu, page titles, the 404 page, error states, scrolling tables.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import App from "./App";
import { api } from "./api/client";
import { effectiveTheme, initTheme, setTheme, storedTheme } from "./theme";
import ThemeSwitch from "./components/common/ThemeSwitch";
import PageHead from "./components/common/PageHead";
import { ErrorState, failedThing, QueryView } from "./components/common/States";
import Table from "./components/common/Table";
import { pageTitle } from "./components/common/useTitle";
import NotFoundPage from "./routes/NotFoundPage";
import { ApiError } from "./api/client";

/** A matchMedia that answers `dark` for prefers-color-scheme and lets the test flip it. */
function fakeSystem(dark: boolean) {
  const listeners: (() => void)[] = [];
  const mql = { matches: dark, addEventListener: (_: string, fn: () => void) => listeners.push(fn) };
  vi.stubGlobal("matchMedia", (q: string) => (q.includes("dark") ? mql : { matches: false, addEventListener() {} }));
  return { set: (d: boolean) => ((mql.matches = d), listeners.forEach((fn) => fn())) };
}

beforeEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});
afterEach(() => vi.unstubAllGlobals());

describe("theme", () => {
  it("follows the system by default, light or dark, and keeps following it", () => {
    const system = fakeSystem(true);
    expect(storedTheme()).toBe("system");
    initTheme();
    expect(document.documentElement.dataset.theme).toBe("dark");
    system.set(false);
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("a stored choice wins over the system's and survives a reload; system forgets it", () => {
    const system = fakeSystem(false);
    setTheme("dark");
    expect(localStorage.getItem("kb-theme")).toBe("dark");
    delete document.documentElement.dataset.theme;
    initTheme(); // a reload
    expect(document.documentElement.dataset.theme).toBe("dark");
    system.set(false); // the system's change does not override a choice
    expect(document.documentElement.dataset.theme).toBe("dark");
    setTheme("system");
    expect(localStorage.getItem("kb-theme")).toBeNull();
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("ignores a stored value it does not know", () => {
    localStorage.setItem("kb-theme", "neon");
    expect(storedTheme()).toBe("system");
    expect(effectiveTheme("system", true)).toBe("dark");
    expect(effectiveTheme("light", true)).toBe("light");
  });

  it("the switch is a labelled choice that applies and stores the theme", () => {
    fakeSystem(false);
    localStorage.setItem("kb-theme", "light");
    render(<ThemeSwitch />);
    const select = screen.getByLabelText("Theme") as HTMLSelectElement;
    expect(select.value).toBe("light");
    fireEvent.change(select, { target: { value: "dark" } });
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem("kb-theme")).toBe("dark");
  });
});

describe("the header's menu", () => {
  it("the Menu button opens and closes it (aria-expanded), Escape and a new page close it", async () => {
    fakeSystem(false);
    vi.stubGlobal("fetch", () => new Promise(() => {})); // health and the user stay loading
    vi.stubGlobal("scrollTo", () => {});
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/plans"]}>
          <App />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const toggle = screen.getByRole("button", { name: "Menu" });
    const menu = document.getElementById(toggle.getAttribute("aria-controls")!)!;
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(menu.className).not.toMatch(/\bopen\b/);
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(menu.className).toMatch(/\bopen\b/);
    fireEvent.keyDown(toggle, { key: "Escape" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    await act(async () => fireEvent.click(screen.getByRole("link", { name: "Targets" })));
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.getByRole("navigation", { name: "Main" })).toBeTruthy();
  });
});

describe("titles, 404, error states", () => {
  it("a page's heading is its tab's title", () => {
    expect(pageTitle("Campaign #12")).toBe("Campaign #12 — Kneeboard");
    expect(pageTitle(null)).toBe("Kneeboard");
    render(<PageHead title="Plans" />);
    expect(document.title).toBe("Plans — Kneeboard");
  });

  it("an unknown id has a not-found page of its own", () => {
    render(
      <MemoryRouter>
        <NotFoundPage what="Campaign 999999" />
      </MemoryRouter>,
    );
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Campaign 999999 not found");
    expect(document.title).toBe("Campaign 999999 not found — Kneeboard");
    expect(screen.getByRole("link", { name: "Back to campaigns" })).toBeTruthy();
  });

  it("a failed request says what failed and offers Retry", () => {
    const retry = vi.fn();
    render(<ErrorState error={new ApiError(503, "database down")} retry={retry} what="the plans" />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toMatch(/Could not load the plans/);
    expect(alert.textContent).toMatch(/database down \(HTTP 503\)/);
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(retry).toHaveBeenCalledOnce();
    expect(failedThing("Loading the audit log")).toBe("the audit log");
  });

  it("QueryView names the failed query from its loading text", () => {
    const refetch = vi.fn();
    render(
      <QueryView query={{ isPending: false, isError: true, error: new Error("HTTP 500"), data: undefined, refetch }} loading="Loading targets">
        {() => null}
      </QueryView>,
    );
    expect(screen.getByRole("alert").textContent).toMatch(/Could not load targets/);
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it("a table scrolls in a labelled region that takes keyboard focus", () => {
    render(
      <Table columns={["Name", "Kind"]}>
        <tr>
          <td>a</td>
          <td>b</td>
        </tr>
      </Table>,
    );
    const region = screen.getByRole("region", { name: "Table of name, kind" });
    expect(region.tabIndex).toBe(0);
    expect(region.querySelector("table")).toBeTruthy();
  });
});

describe("a signed-out browser", () => {
  it("asks the API only who is signed in before any page's data (no burst of 401s)", async () => {
    const asked: string[] = [];
    let answer: (me: unknown) => void = () => {};
    const get = vi.spyOn(api, "GET").mockImplementation(((path: string) => {
      asked.push(path);
      if (path === "/api/v1/auth/me") // a slow /auth/me, as on a cold start
        return new Promise((resolve) => (answer = (me) => resolve({ data: me, response: new Response(null, { status: 200 }) })));
      return new Promise(() => {});
    }) as unknown as typeof api.GET);
    vi.stubGlobal("scrollTo", () => {});
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/campaigns/12"]}>
          <App />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(asked.filter((p) => p !== "/api/v1/health")).toEqual(["/api/v1/auth/me"]);
    expect(screen.getAllByRole("status").some((s) => /Checking the sign-in/.test(s.textContent ?? ""))).toBe(true);
    await act(async () => answer({ username: "u", role: "viewer", via: "session", user_id: 1 }));
    await waitFor(() => expect(asked.some((p) => p.startsWith("/api/v1/campaigns/"))).toBe(true), { timeout: 5000 });
    get.mockRestore();
  });
});
