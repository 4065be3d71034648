// Exported files read offline: a report and a comparison written by the CLI are opened from disk with every network
// request blocked; none is attempted, every chart has its series drawn, and the figures equal the live pages'.
// playwright-core with Debian's Chromium.
//
//   KB_BASE_URL=… KB_E2E_USER=… KB_E2E_PASSWORD=… KB_EXPORT_IDS=1,2 KB_EXPORT_REPORT=a.html KB_EXPORT_COMPARISON=c.html node tests/e2e/exports.mjs
//
// tests/e2e/test_offline_exports.py makes the campaigns and the files and runs this. Exits non-zero on failure.
import { pathToFileURL } from "node:url";
import { assert, launchBrowser, makeSteps, openPage } from "./harness.mjs";

const IDS = (process.env.KB_EXPORT_IDS ?? "").split(",").filter(Boolean).map(Number);
const REPORT = process.env.KB_EXPORT_REPORT ?? "";
const COMPARISON = process.env.KB_EXPORT_COMPARISON ?? "";
if (IDS.length !== 2 || !REPORT || !COMPARISON) throw new Error("KB_EXPORT_IDS (two), KB_EXPORT_REPORT and KB_EXPORT_COMPARISON are needed (tests/e2e/test_offline_exports.py sets them)");

const { step, finish } = makeSteps({ afterFailure: "continue" });
const { browser, close } = await launchBrowser("kb-exports-");
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A file opened in a fresh context that blocks every request but the file itself; returns the page and what it tried. */
async function openOffline(file) {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 900 }, offline: true });
  const url = pathToFileURL(file).href;
  const attempted = [];
  await ctx.route("**/*", (route) => (route.request().url() === url ? route.continue() : (attempted.push(route.request().url()), route.abort())));
  const page = await ctx.newPage();
  page.on("request", (r) => r.url() !== url && !attempted.includes(r.url()) && attempted.push(r.url()));
  await page.goto(url);
  await page.waitForLoadState("load");
  return { page, attempted, ctx };
}

/** Per chart: its title, the series its legend names, and the series drawn (a line with a path, or bars). */
const charts = (page) =>
  page.locator("figure.chart").evaluateAll((figs) =>
    figs.map((f) => ({
      title: f.getAttribute("aria-label"),
      legend: [...f.querySelectorAll(".recharts-legend-item")].length,
      lines: [...f.querySelectorAll(".recharts-line-curve")].filter((p) => (p.getAttribute("d") ?? "").split("L").length >= 2).length,
      bars: [...f.querySelectorAll(".recharts-bar-rectangle path")].length,
      empty: !!f.querySelector(".chart-empty"),
    })),
  );

/** A table as { header → cell texts } (sort arrows and buttons left out), for the columns both views have. */
const columns = (table) =>
  table.evaluate((t) => {
    const text = (el) => {
      const copy = el.cloneNode(true);
      copy.querySelectorAll("button:not(.sort), [aria-hidden='true']").forEach((x) => x.remove());
      return copy.textContent.replace(/[▲▼]/g, "").replace(/\s+/g, " ").trim();
    };
    const heads = [...t.querySelectorAll("thead th")].map(text);
    const out = {};
    heads.forEach((h, i) => (out[h] = [...t.querySelectorAll("tbody tr")].map((tr) => (tr.cells[i] ? text(tr.cells[i]) : ""))));
    return out;
  });

/** The summary cards: label → value. */
const cards = (page) =>
  page.locator(".stat-card").evaluateAll((cs) => Object.fromEntries(cs.map((c) => [c.querySelector(".stat-label").textContent, c.querySelector(".stat-value").textContent])));

/** Every chart with data (the app's "no points" placeholder aside, as on the live page) draws each series it names. */
function assertDrawn(list, what, atLeast) {
  const drawn = list.filter((c) => !c.empty);
  assert(drawn.length >= atLeast, `${what}: only ${drawn.length} charts drawn: ${list.map((c) => c.title)}`);
  for (const c of drawn) {
    assert(c.lines + c.bars > 0, `${what}: "${c.title}" draws no series`);
    if (c.legend) assert(c.lines >= c.legend || c.bars > 0, `${what}: "${c.title}" names ${c.legend} series, draws ${c.lines}`);
  }
}

try {
  const report = await openOffline(REPORT);
  const comparison = await openOffline(COMPARISON);

  await step("the report and the comparison open with the network blocked, and attempt no request", async () => {
    assert(same(report.attempted, []), `the report asked for ${report.attempted}`);
    assert(same(comparison.attempted, []), `the comparison asked for ${comparison.attempted}`);
    for (const { page } of [report, comparison]) assert((await page.locator("script").count()) === 0, "a script in the file");
  });

  await step("every chart of the report has its series drawn", async () => {
    const list = await charts(report.page);
    assertDrawn(list, "report", 6);
    for (const t of ["Knee", "Latency percentiles", "Stability", "CPU (mpstat)", "Round trip (ping)", "Campaign timeline"])
      assert(list.some((c) => c.title.startsWith(t) && !c.empty), `no "${t}" chart drawn in ${list.map((c) => c.title)}`);
  });

  await step("every chart of the comparison has its series drawn", async () => {
    assertDrawn(await charts(comparison.page), "comparison", 2);
  });

  await step("the report's figures equal the live report's", async () => {
    const { page, guard } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`/campaigns/${IDS[0]}`);
    await page.locator('[data-testid="points-table"] tbody tr').first().waitFor();
    const live = await cards(page);
    const file = await cards(report.page);
    assert(Object.keys(file).length >= 4 && same(file, live), `cards differ:\n file ${JSON.stringify(file)}\n live ${JSON.stringify(live)}`);
    const liveRows = await columns(page.locator('[data-testid="points-table"]'));
    const fileRows = await columns(report.page.locator('[data-testid="points-table"]'));
    const shared = Object.keys(fileRows).filter((h) => h !== "Status" && h in liveRows);
    assert(shared.includes("Latency p99") && shared.includes("Achieved"), `columns ${Object.keys(fileRows)}`);
    for (const h of shared) assert(same(fileRows[h], liveRows[h]), `column ${h} differs:\n file ${fileRows[h]}\n live ${liveRows[h]}`);
    assert((await report.page.getByTestId("link-back").first().getAttribute("href")).endsWith(`/campaigns/${IDS[0]}`), "the link back");
    guard.assertClean("live report");
  });

  await step("the comparison's figures equal the live comparison's", async () => {
    const { page, guard } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`/compare?c=${IDS[0]}&c=${IDS[1]}`);
    const headline = (p) => columns(p.locator('section[aria-label="Headline metrics"] table'));
    await page.locator('section[aria-label="Headline metrics"] tbody tr').first().waitFor();
    const live = await headline(page);
    const file = await headline(comparison.page);
    assert(Object.keys(file).length >= 3 && same(file, live), `headline differs:\n file ${JSON.stringify(file)}\n live ${JSON.stringify(live)}`);
    guard.assertClean("live comparison");
  });
} finally {
  await close();
}
finish();
