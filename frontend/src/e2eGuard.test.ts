import { describe, expect, it } from "vitest";
import { attachGuard, isExpected, problemOf } from "../../tests/e2e/guard.mjs";

const api = "http://127.0.0.1:8765/api/v1/targets";

describe("the e2e guard (tests/e2e/guard.mjs)", () => {
  it("reports API answers of 400 or more unless a step declared them", () => {
    const answer = { kind: "response" as const, url: api, method: "POST", status: 422 };
    expect(problemOf(answer)).toBe(`HTTP 422: POST ${api}`);
    expect(problemOf(answer, [{ status: 422, url: "/api/v1/targets" }])).toBeNull();
    expect(problemOf(answer, [{ status: 422, url: "/api/v1/plans" }])).not.toBeNull();
    expect(problemOf(answer, [{ status: [401, 403] }])).not.toBeNull();
    expect(problemOf(answer, [{ status: 422, method: "GET" }])).not.toBeNull();
    expect(problemOf({ ...answer, status: 200 })).toBeNull();
    // assets are not judged by status (a missing one shows as a console error)
    expect(problemOf({ ...answer, url: "http://127.0.0.1:8765/favicon.ico", status: 404 })).toBeNull();
  });

  it("matches rules by status list, substring or pattern", () => {
    expect(isExpected([{ url: /\/targets$/ }], { url: api, status: 500 })).toBe(true);
    expect(isExpected([{ status: [401, 422] }], { url: api, status: 401 })).toBe(true);
    expect(isExpected([], { url: api, status: 401 })).toBe(false);
  });

  it("counts console errors and page errors, not other console messages", () => {
    expect(problemOf({ kind: "console", type: "warning", text: "careful" })).toBeNull();
    expect(problemOf({ kind: "console", type: "error", text: "boom" })).toBe("console error: boom");
    expect(problemOf({ kind: "pageerror", text: "TypeError: x is undefined" })).toMatch(/uncaught error: TypeError/);
    // Chromium's echo of a failed API answer: reported once, by the response; an expected one not at all
    const echo = { kind: "console" as const, type: "error", text: "Failed to load resource: the server responded with a status of 422 ()", url: api };
    expect(problemOf(echo)).toBeNull();
    expect(problemOf({ ...echo, url: "http://127.0.0.1:8765/missing.js" })).toMatch(/console error: Failed to load resource/);
    expect(problemOf({ ...echo, url: "http://127.0.0.1:8765/missing.js" }, [{ status: 422, url: "/missing.js" }])).toBeNull();
  });

  it("ignores requests the browser abandons, not others", () => {
    expect(problemOf({ kind: "requestfailed", url: api, method: "GET", failure: "net::ERR_ABORTED" })).toBeNull();
    expect(problemOf({ kind: "requestfailed", url: api, method: "GET", failure: "net::ERR_CONNECTION_REFUSED" })).toMatch(/request failed: GET/);
  });

  it("assertClean throws with the list, then starts afresh", () => {
    const handlers: Record<string, (arg: unknown) => void> = {};
    const page = { on: (ev: string, fn: (arg: unknown) => void) => (handlers[ev] = fn), url: () => "http://x/targets" };
    const guard = attachGuard(page);
    const response = (status: number) => ({ url: () => api, status: () => status, request: () => ({ method: () => "POST" }) });
    guard.expect({ status: 422, url: "/api/v1/targets" });
    handlers.response(response(422));
    expect(() => guard.assertClean("step 1")).not.toThrow();
    // the expectation was for step 1 only
    handlers.response(response(422));
    handlers.pageerror(new Error("bad"));
    expect(guard.problems()).toHaveLength(2);
    expect(() => guard.assertClean("step 2")).toThrow(/step 2: 2 browser problem\(s\):\n {2}HTTP 422: POST .*\[page http:\/\/x\/targets\]\n {2}uncaught error: Error: bad/);
    expect(() => guard.assertClean("step 3")).not.toThrow();
  });
});
