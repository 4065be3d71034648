// What the browser scripts (journey.mjs, pages.mjs, views.mjs) share: the settings they read from the environment,
// Debian's Chromium launched by playwright-core, a signed-in page with a guard (guard.mjs), named steps closing with
// "N passed, M failed", and the API calls that set a scene up.
//
//   import { BASE, USER, api, assert, launchBrowser, makeSteps, openPage } from "./harness.mjs";
//   const { step, finish } = makeSteps({ afterFailure: "skip" });
//   const { browser, close } = await launchBrowser("kb-views-");
//   try {
//     await step("the home page loads", async () => {
//       const { page, guard } = await openPage(browser);
//       await page.goto("/");
//       guard.assertClean();
//     });
//   } finally {
//     await close();
//   }
//   finish();
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { attachGuard } from "./guard.mjs";

/** The repository's root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** `require` for the frontend's packages (playwright-core, @axe-core/playwright). */
export const frontendRequire = createRequire(join(root, "frontend", "package.json"));
const { chromium } = frontendRequire("playwright-core");

/** The API (serving the UI) under test. */
export const BASE = (process.env.KB_BASE_URL ?? "http://127.0.0.1:8765").replace(/\/$/, "");
/** The DNS server the stack answers on, for dns targets. */
export const DNS_HOST = process.env.KB_DNS_HOST ?? "127.0.0.1";
export const DNS_PORT = Number(process.env.KB_DNS_PORT ?? "5354");
/** Where screenshots for the docs go. */
export const SHOTS = process.env.KB_SCREENSHOTS ?? join(root, "docs", "screenshots");
export const CHROMIUM = process.env.KB_CHROMIUM ?? "/usr/bin/chromium";
/** The user the browser logs in as, and the bearer token of the script's own API calls. */
export const USER = process.env.KB_E2E_USER ?? "admin";
export const PASSWORD = process.env.KB_E2E_PASSWORD ?? "";
export const TOKEN = process.env.KB_TOKEN ?? "";
/** The Authorization header that goes with TOKEN (none without one). */
export const authHeader = TOKEN ? { authorization: `Bearer ${TOKEN}` } : {};
/** A mark for the names this run creates. */
export const stamp = Date.now().toString(36);

/** The path of a screenshot named `name` in SHOTS (created if need be). */
export function shotPath(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, `${name}.png`);
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/**
 * Named steps, each timed and printed (✓ or ✗ with the first `stackLines` lines of the error), and `finish(note)`
 * printing the note and "N passed, M failed", then exiting 1 if any failed.
 *   afterFailure: "continue" runs the next steps anyway; "skip" prints "- skip NAME" for them instead.
 *   countSkipped: a skipped step counts as failed.
 *   check(): run after each step's body, as part of the step (a throw fails it).
 *   onFailure(): run after a failure is printed (e.g. a screenshot).
 */
export function makeSteps({ afterFailure = "continue", countSkipped = false, stackLines = 6, check, onFailure } = {}) {
  let passed = 0;
  let failed = 0;
  async function step(name, fn) {
    if (afterFailure === "skip" && failed) {
      console.log(`- skip ${name}`);
      if (countSkipped) failed++;
      return;
    }
    const t0 = Date.now();
    try {
      await fn();
      if (check) await check();
      passed++;
      console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failed++;
      console.log(`✗ ${name}\n  ${String(err?.stack ?? err).split("\n").slice(0, stackLines).join("\n  ")}`);
      if (onFailure) await onFailure();
    }
  }
  function finish(note = "") {
    console.log(`\n${note ? `${note}\n` : ""}${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  }
  return { step, finish };
}

/**
 * Debian's Chromium, headless, with a private TMPDIR (Playwright gives it a new, empty --user-data-dir there).
 * `close()` closes the browser and removes that directory.
 */
export async function launchBrowser(prefix = "kb-e2e-") {
  const userDataRoot = mkdtempSync(join(tmpdir(), prefix));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    env: { ...process.env, TMPDIR: userDataRoot },
  });
  const close = async () => {
    await browser.close().catch(() => {});
    rmSync(userDataRoot, { recursive: true, force: true });
  };
  return { browser, close };
}

/**
 * A page in a new browser context on BASE with a guard: { page, guard, ctx }. With `signIn` (the default) the context
 * logs in as USER by POST /api/v1/auth/login (the session cookie). Other options go to browser.newContext
 * (viewport, storageState, colorScheme…).
 */
export async function openPage(browser, { signIn = true, viewport = { width: 1280, height: 800 }, ...contextOptions } = {}) {
  const ctx = await browser.newContext({ viewport, baseURL: BASE, ...contextOptions });
  if (signIn) {
    const res = await ctx.request.post("/api/v1/auth/login", { data: { username: USER, password: PASSWORD } });
    if (!res.ok()) throw new Error(`login as ${USER}: HTTP ${res.status()}`);
  }
  const page = await ctx.newPage();
  page.setDefaultTimeout(90_000); // the background lane runs on the CPU time the other lane leaves: none while a foreground test keeps both cores busy (a capacity test, 70-90 s)
  return { page, guard: attachGuard(page), ctx };
}

/** A call to the API (`path` under /api/v1) with TOKEN; throws on an error answer, returns the JSON body (null for 204). */
export async function api(path, init) {
  const res = await fetch(`${BASE}/api/v1${path}`, { ...init, headers: { "content-type": "application/json", ...authHeader, ...init?.headers } });
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** A campaign of the plan launched through the API and polled until it ends (a bounded wait); fails unless it completed. */
export async function runCampaign(planId, name, timeoutMs = 120_000) {
  const { id } = await api("/campaigns", { method: "POST", body: JSON.stringify({ plan_id: planId, name }) });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await api(`/campaigns/${id}`);
    if (["completed", "failed", "crashed", "cancelled"].includes(c.status)) {
      assert(c.status === "completed", `campaign ${id} ended ${c.status}: ${c.error ?? ""}`);
      return id;
    }
    assert(Date.now() < deadline, `campaign ${id} still ${c.status} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
