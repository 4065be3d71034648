// A guard for a Playwright page: it records console errors, uncaught page errors, failed requests and
// API answers of 400 or more, and `assertClean()` fails with the list. A step that provokes an error on
// purpose (a 422 from a bad form, a 401 before login) declares it first with `guard.expect(...)`.
//
//   import { attachGuard } from "./guard.mjs";
//   const guard = attachGuard(page);
//   guard.expect({ status: 422, url: "/api/v1/targets" });   // this step sends a bad port on purpose
//   ...
//   guard.assertClean("targets: a 422 shows beside the field");  // throws if anything else went wrong
//
// Requests the browser itself abandons (net::ERR_ABORTED: a navigation or a cancelled query) are not failures.

/**
 * Whether an API answer matches one of the declared expectations.
 * A rule is { status?: number | number[], url?: string | RegExp, method?: string }; a string url matches as a
 * substring of the request's URL, a missing field matches anything.
 */
export function isExpected(rules, { url, status, method }) {
  return rules.some((r) => {
    if (r.status != null && !(Array.isArray(r.status) ? r.status : [r.status]).includes(status)) return false;
    if (r.method != null && method != null && r.method.toUpperCase() !== method.toUpperCase()) return false;
    if (r.url == null) return true;
    return typeof r.url === "string" ? url.includes(r.url) : r.url.test(url);
  });
}

/** Whether a URL is one of Kneeboard's API calls (the only responses whose status the guard judges). */
export const isApi = (url) => {
  try {
    return new URL(url).pathname.startsWith("/api/");
  } catch {
    return false;
  }
};

/**
 * The problem a browser event amounts to, or null when it is none (or declared expected). Events:
 * { kind: "console", type, text, url } (url: the message's source, for "Failed to load resource" the resource),
 * { kind: "pageerror", text, url }, { kind: "requestfailed", url, method, failure },
 * { kind: "response", url, method, status }.
 */
export function problemOf(event, rules = []) {
  switch (event.kind) {
    case "console": {
      if (event.type !== "error") return null;
      // Chromium logs every answer of 400 or more once more as a console error: judge it as that answer
      const status = /Failed to load resource: the server responded with a status of (\d+)/.exec(event.text);
      if (status && isExpected(rules, { url: event.url ?? "", status: Number(status[1]) })) return null;
      if (status && isApi(event.url ?? "")) return null; // the response itself is reported (once) below
      return `console error: ${event.text}${event.url ? ` (${event.url})` : ""}`;
    }
    case "pageerror":
      return `uncaught error: ${event.text}`;
    case "requestfailed":
      if (/ERR_ABORTED/.test(event.failure ?? "")) return null;
      return `request failed: ${event.method} ${event.url}: ${event.failure}`;
    case "response":
      if (event.status < 400 || !isApi(event.url)) return null;
      if (isExpected(rules, event)) return null;
      return `HTTP ${event.status}: ${event.method} ${event.url}`;
    default:
      return null;
  }
}

/**
 * Attach a guard to a Playwright page. Returns { expect(rule), problems(), assertClean(where), reset() }:
 * `assertClean` throws when anything was recorded since the last check, then starts afresh (expectations too).
 */
export function attachGuard(page) {
  let rules = [];
  let problems = [];
  const note = (event) => {
    const p = problemOf(event, rules);
    if (p) problems.push(`${p} [page ${page.url()}]`);
  };
  page.on("console", (m) => note({ kind: "console", type: m.type(), text: m.text(), url: m.location()?.url }));
  page.on("pageerror", (e) => note({ kind: "pageerror", text: String(e?.stack ?? e?.message ?? e).split("\n").slice(0, 4).join(" | ") }));
  page.on("requestfailed", (r) => note({ kind: "requestfailed", url: r.url(), method: r.method(), failure: r.failure()?.errorText ?? "" }));
  page.on("response", (r) => note({ kind: "response", url: r.url(), method: r.request().method(), status: r.status() }));
  const reset = () => {
    problems = [];
    rules = [];
  };
  const guard = {
    /** Declare an error answer this step provokes on purpose (see isExpected for the rule's fields). */
    expect(rule) {
      rules.push(rule);
      return guard;
    },
    /** What was recorded since the last check. */
    problems: () => [...problems],
    /** Forget what was recorded and expected. */
    reset,
    /** Throw with the list of what went wrong since the last check (`where` names the step), then reset. */
    assertClean(where = "") {
      const found = problems;
      reset();
      if (found.length) throw new Error(`${where ? `${where}: ` : ""}${found.length} browser problem(s):\n  ${found.join("\n  ")}`);
    },
  };
  return guard;
}
