// End-to-end journey through the Kneeboard UI with playwright-core and Debian's Chromium.
//
//   KB_BASE_URL=http://127.0.0.1:8765 KB_DNS_HOST=127.0.0.1 KB_DNS_PORT=5354 node tests/e2e/journey.mjs
//
// Needs the real stack (API serving frontend/dist, a Celery worker, Redis, a DNS server).
// Saves a 1280×800 screenshot of each page to docs/screenshots/. Exits non-zero on failure
// and closes with "N passed, M failed".
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const require = createRequire(join(root, "frontend", "package.json"));
const { chromium } = require("playwright-core");

const BASE = (process.env.KB_BASE_URL ?? "http://127.0.0.1:8765").replace(/\/$/, "");
const DNS_HOST = process.env.KB_DNS_HOST ?? "127.0.0.1";
const DNS_PORT = process.env.KB_DNS_PORT ?? "5354";
const SHOTS = process.env.KB_SCREENSHOTS ?? join(root, "docs", "screenshots");
const CHROMIUM = process.env.KB_CHROMIUM ?? "/usr/bin/chromium";
const RUN_TIMEOUT = Number(process.env.KB_E2E_RUN_TIMEOUT_MS ?? 180_000);
const VIEWPORT = { width: 1280, height: 800 };
const stamp = Date.now().toString(36);

mkdirSync(SHOTS, { recursive: true });

let passed = 0;
let failed = 0;
let aborted = false;
async function step(name, fn) {
  if (aborted) {
    console.log(`- skip ${name}`);
    failed++;
    return;
  }
  const t0 = Date.now();
  try {
    await fn();
    passed++;
    console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed++;
    aborted = true;
    console.log(`✗ ${name}\n  ${String(err?.stack ?? err).split("\n").slice(0, 6).join("\n  ")}`);
    if (currentPage) await currentPage.screenshot({ path: join(tmpdir(), `kb-e2e-failure-${stamp}.png`) }).catch(() => {});
    if (currentPage) console.log(`  (failure screenshot: ${join(tmpdir(), `kb-e2e-failure-${stamp}.png`)}, url ${currentPage.url()})`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

// Chromium: Debian's binary; Playwright's launch() gives it a new, empty --user-data-dir of its own.
const userDataRoot = mkdtempSync(join(tmpdir(), "kb-e2e-"));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  env: { ...process.env, TMPDIR: userDataRoot },
});
let currentPage = null;
const consoleErrors = [];
async function newPage() {
  const ctx = await browser.newContext({ viewport: VIEWPORT, baseURL: BASE });
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
  currentPage = page;
  return page;
}

async function api(path, init) {
  const res = await fetch(`${BASE}/api/v1${path}`, { headers: { "content-type": "application/json" }, ...init });
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

async function waitStatus(page, statuses, timeout = RUN_TIMEOUT) {
  const sel = statuses.map((s) => `.campaign-page[data-status="${s}"]`).join(", ");
  await page.locator(sel).waitFor({ timeout });
  return page.locator(".campaign-page").getAttribute("data-status");
}

/** Fill a phase's field by its input name. */
const phaseInput = (page, i, field) => page.locator(`[data-testid="phase-${i}"] [name="phase-${i}-${field}"]`);

const targetName = `e2e-dns-${stamp}`;
const planName = `e2e plan ${stamp}`;
let targetId = null;
let planId = null;
const campaigns = [];

try {
  const page = await newPage();

  await step("the home page loads", async () => {
    await page.goto("/");
    await page.getByRole("heading", { name: "Campaigns" }).waitFor();
  });

  await step("targets: a 422 shows beside the field", async () => {
    await page.goto("/targets");
    const form = page.getByRole("form", { name: "New target" });
    await form.getByLabel("Name").fill(targetName);
    await form.getByLabel("Kind").selectOption("dns");
    await form.getByLabel("Host").fill(DNS_HOST);
    await form.getByLabel("Port").fill("99999");
    await form.getByLabel("Port").press("Enter"); // Enter submits
    const err = form.locator(".field.invalid", { has: page.getByLabel("Port") }).locator(".field-errors");
    await err.waitFor();
    assert(/65535/.test(await err.innerText()), "port error names the limit");
  });

  await step("targets: create a dns target", async () => {
    const form = page.getByRole("form", { name: "New target" });
    await form.getByLabel("Port").fill(String(DNS_PORT));
    await form.getByRole("button", { name: "Create target" }).click();
    await page.getByRole("cell", { name: new RegExp(targetName) }).waitFor();
    const list = await api("/targets");
    targetId = list.find((t) => t.name === targetName)?.id;
    assert(targetId, "target stored");
    await shot(page, "targets");
  });

  await step("plan editor: start from the template", async () => {
    await page.goto("/plans/new");
    await page.locator('[data-template-id="dns-three-dimensions"]').getByRole("button", { name: "Use this template" }).click();
    await page.getByLabel("Plan name").fill(planName);
    await page.getByLabel("Target").selectOption(String(targetId));
    await page.locator('[data-testid="point-count"]').waitFor();
  });

  await step("plan editor: an invalid value is named beside its field", async () => {
    await phaseInput(page, 0, "duration").fill("-1");
    const err = page.locator('[data-testid="phase-0"] .field.invalid .field-errors');
    await err.first().waitFor();
    assert(/greater than 0/.test(await err.first().innerText()), "duration error shown");
    await page.locator('[data-testid="plan-problems"]').waitFor();
  });

  await step("plan editor: shrink to short points and preview them", async () => {
    // baseline
    await phaseInput(page, 0, "duration").fill("1");
    await phaseInput(page, 0, "rate").fill("200");
    // scalability
    await phaseInput(page, 1, "concurrency").fill("1, 2");
    await phaseInput(page, 1, "unit_rate").fill("200");
    await phaseInput(page, 1, "duration").fill("1");
    // saturation: a list of rates
    await page.locator('[data-testid="phase-2"]').getByLabel("list").check();
    await phaseInput(page, 2, "rate").fill("600, 900");
    await phaseInput(page, 2, "duration").fill("1");
    // stability
    await phaseInput(page, 3, "concurrency").fill("2");
    await phaseInput(page, 3, "rate").fill("500");
    await phaseInput(page, 3, "duration").fill("2");
    await page.getByLabel("Pause between points (s)").fill("0");
    await page.locator('[data-testid="point-count"]', { hasText: /^6$/ }).waitFor();
    await page.locator('[data-testid="plan-problems"]').waitFor({ state: "detached" });
    assert(await page.locator(".preview svg.recharts-surface").count() >= 1, "preview chart drawn");
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "plan-editor");
  });

  await step("launch: the progress bar moves and the campaign completes", async () => {
    await page.getByRole("button", { name: "Save & launch" }).click();
    await page.waitForURL(/\/campaigns\/\d+$/);
    const id = Number(page.url().match(/campaigns\/(\d+)/)[1]);
    campaigns.push(id);
    const c = await api(`/campaigns/${id}`);
    planId = c.plan_id;
    await page.getByRole("progressbar").waitFor();
    const seen = new Set();
    const deadline = Date.now() + RUN_TIMEOUT;
    let status = null;
    let shotTaken = false;
    while (Date.now() < deadline) {
      status = await page.locator(".campaign-page").getAttribute("data-status");
      const bar = page.getByRole("progressbar");
      if (await bar.count()) {
        const now = await bar.getAttribute("aria-valuenow").catch(() => null);
        if (now != null) seen.add(Number(now));
        if (!shotTaken && Number(now) >= 2) {
          await shot(page, "campaign-live");
          shotTaken = true;
        }
      }
      if (["completed", "failed", "crashed", "cancelled"].includes(status)) break;
      await page.waitForTimeout(300);
    }
    assert(status === "completed", `campaign ${id} ended ${status}`);
    assert(seen.size >= 2, `progress moved (saw ${[...seen].join(", ")})`);
    if (!shotTaken) await shot(page, "campaign-live");
    await page.locator('[data-testid="progress-count"]', { hasText: "6 of 6 points completed" }).waitFor();
  });

  await step("report: opens in a fresh browser context with its charts", async () => {
    const fresh = await newPage();
    await fresh.goto(`/campaigns/${campaigns[0]}`);
    await fresh.locator('.campaign-page[data-status="completed"]').waitFor();
    await fresh.locator("svg.recharts-surface").nth(1).waitFor();
    const charts = await fresh.locator("svg.recharts-surface").count();
    assert(charts >= 2, `report has ${charts} charts`);
    await fresh.locator('[data-testid="card-max-rate"]').waitFor();
    assert(!/—/.test(await fresh.locator('[data-testid="card-max-rate"] .stat-value').innerText()), "max rate known");
    await fresh.locator('[data-testid="points-table"] tbody tr').first().waitFor();
    await fresh.waitForTimeout(500);
    await shot(fresh, "report");
    await fresh.screenshot({ path: join(SHOTS, "report-full.png"), fullPage: true });
    await fresh.getByRole("button", { name: /Show evidence of point 1$/ }).click();
    const ev = fresh.locator('[data-testid="evidence"]');
    await ev.waitFor();
    assert(/dnsperf/.test(await ev.innerText()), "evidence shows the dnsperf command");
    // the SLA thresholds recompute the analysis
    await fresh.getByText("Analysis settings").click();
    await fresh.getByLabel("Green below (ms)").fill("0.01");
    await fresh.getByLabel("Yellow below (ms)").press("Enter");
    await fresh.getByText("Analysis updated.").waitFor();
    await fresh.context().close();
    currentPage = page;
  });

  await step("a second campaign of the same plan completes", async () => {
    await page.goto(`/plans/${planId}`);
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await page.waitForURL(/\/campaigns\/\d+$/);
    const id = Number(page.url().match(/campaigns\/(\d+)/)[1]);
    assert(id !== campaigns[0], "a new campaign");
    campaigns.push(id);
    const status = await waitStatus(page, ["completed", "failed", "crashed", "cancelled"]);
    assert(status === "completed", `campaign ${id} ended ${status}`);
  });

  await step("campaigns: pick two and compare", async () => {
    await page.goto("/");
    for (const id of campaigns) await page.getByLabel(`Select campaign ${id} to compare`).check();
    await shot(page, "campaigns");
    await page.getByRole("button", { name: /^Compare/ }).click();
    await page.waitForURL(/\/compare\?c=\d+&c=\d+/);
    const url = new URL(page.url());
    assert(url.searchParams.getAll("c").length === 2, "two campaigns in the URL");
  });

  await step("compare: headline, deltas and overlaid charts", async () => {
    await page.goto(`/compare?c=${campaigns[0]}&c=${campaigns[1]}`);
    await page.locator('[data-testid="headline"]').waitFor();
    await page.locator("svg.recharts-surface").first().waitFor();
    const text = await page.locator('[data-testid="headline"]').innerText();
    assert(/Max achieved rate/.test(text), "headline lists the max rate");
    await page.waitForTimeout(400);
    await shot(page, "compare");
  });

  await step("plans: the list shows the plan", async () => {
    await page.goto("/plans");
    await page.getByRole("link", { name: planName }).waitFor();
    await shot(page, "plans");
  });

  await step("a third, longer campaign is cancelled through the dialog", async () => {
    await page.goto(`/plans/${planId}`);
    await phaseInput(page, 3, "duration").fill("60");
    await page.getByRole("button", { name: "Save & launch" }).click();
    await page.waitForURL(/\/campaigns\/\d+$/);
    const id = Number(page.url().match(/campaigns\/(\d+)/)[1]);
    campaigns.push(id);
    await waitStatus(page, ["running"], 60_000);
    // let a few short points land first, so the cancelled report has partial results
    await page.locator('[role="progressbar"][aria-valuenow="5"]').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(5000);
    await shot(page, "campaign-live");
    await page.getByRole("button", { name: "Cancel campaign" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel campaign" }).click();
    const status = await waitStatus(page, ["cancelled", "completed", "failed", "crashed"], 60_000);
    assert(status === "cancelled", `campaign ${id} ended ${status}`);
    await page.locator(".badge", { hasText: "cancelled" }).first().waitFor();
    await shot(page, "campaign-cancelled");
  });

  await step("deep links work on reload", async () => {
    for (const path of [`/campaigns/${campaigns[0]}`, `/plans/${planId}`, "/targets", `/compare?c=${campaigns[0]}&c=${campaigns[1]}`]) {
      const res = await page.goto(path);
      assert(res.ok(), `${path} → HTTP ${res.status()}`);
      await page.locator(".topbar").waitFor();
      assert(!(await page.getByRole("heading", { name: "Page not found" }).count()), `${path} routed`);
    }
  });

  await step("no uncaught errors in the pages", async () => {
    assert(consoleErrors.length === 0, consoleErrors.join("\n"));
  });
} finally {
  await browser.close().catch(() => {});
  rmSync(userDataRoot, { recursive: true, force: true });
}

console.log(`\ncampaigns: ${campaigns.join(", ")}; screenshots in ${SHOTS}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
