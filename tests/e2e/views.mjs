// Every view is a URL: list filters, order and selection, the report's variant tab and chart options, the comparison's
// selection and order live in the query string. A link opened in a fresh browser (through the login page) shows
// the same view, and Back walks the views. playwright-core with Debian's Chromium.
//
//   KB_BASE_URL=… KB_E2E_USER=… KB_E2E_PASSWORD=… KB_VIEWS_TAG=… KB_VIEWS_IDS=1,2,3 node tests/e2e/views.mjs
//
// tests/e2e/test_views.py imports the three campaigns (two variants each) and runs this. Exits non-zero on failure.
import { PASSWORD, USER, assert, launchBrowser, makeSteps, openPage } from "./harness.mjs";

const TAG = process.env.KB_VIEWS_TAG ?? "";
const IDS = (process.env.KB_VIEWS_IDS ?? "").split(",").filter(Boolean).map(Number);
if (!TAG || IDS.length < 3) throw new Error("KB_VIEWS_TAG and three KB_VIEWS_IDS are needed (tests/e2e/test_views.py sets them)");

// after a failure the remaining steps are skipped (each builds on the URL the one before it made)
const { step, finish } = makeSteps({ afterFailure: "skip" });
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const { browser, close } = await launchBrowser("kb-views-");

/** A page in a new browser context (1280×900), signed in by POST /auth/login unless `signIn` is false; with a guard. */
const newPage = ({ signIn = true } = {}) => openPage(browser, { signIn, viewport: { width: 1280, height: 900 } });

/** Open `url` in a fresh, signed-out browser: the login page, then back on `url`. */
async function openFresh(url) {
  const fresh = await newPage({ signIn: false });
  fresh.guard.expect({ status: 401, url: "/api/v1/auth/me" }); // asked before login: answered 401, hence the login page
  // A slow /auth/me, as on a cold start or a slow network. A page that asked the API for its data before knowing
  // who is signed in would get 401s of its own meanwhile, which the guard fails (the race a fresh machine once
  // showed). And the login page's own /auth/me, sent before the login, is answered only after the login: its
  // 401 must not send the signed-in user back to the login page (the race CI once showed on the compare link).
  let loggedIn, released;
  const answered = new Promise((resolve) => (loggedIn = resolve));
  const stale = new Promise((resolve) => (released = resolve));
  await fresh.page.route("**/api/v1/auth/me", async (route) => {
    const fromLogin = new URL(route.request().frame().url()).pathname === "/login";
    const response = await route.fetch(); // answered now; the answer arrives late
    await new Promise((resolve) => setTimeout(resolve, 800));
    if (fromLogin) await answered;
    await route.fulfill({ response }).catch(() => {}); // the page may have given the request up meanwhile
    if (fromLogin) released();
  });
  await fresh.page.goto(url);
  await fresh.page.waitForURL(/\/login\?next=/);
  await fresh.page.getByLabel("Username").fill(USER);
  await fresh.page.getByLabel("Password").fill(PASSWORD);
  await fresh.page.getByRole("button", { name: "Log in" }).click();
  await fresh.page.waitForURL((u) => u.href === url);
  loggedIn();
  await Promise.race([stale, new Promise((resolve) => setTimeout(resolve, 5000))]);
  await fresh.page.waitForTimeout(300);
  assert(fresh.page.url() === url, `the login page's /auth/me, answered 401 after the login, sent the page to ${fresh.page.url()}`);
  return fresh;
}

/** What the campaign list shows: filters, rows (ids in order) and ticked campaigns. */
async function listView(page) {
  await page.locator("tr[data-campaign-id]").first().waitFor();
  return {
    tag: await page.getByRole("search").locator('input[name="tag"]').inputValue(),
    status: await page.getByRole("search").locator('select[name="status"]').inputValue(),
    sort: await page.locator('select[name="sort"]').inputValue(),
    rows: await page.locator("tr[data-campaign-id]").evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.campaignId))),
    ticked: await page.locator("tr[data-campaign-id]").evaluateAll((trs) => trs.filter((tr) => tr.querySelector("input[type=checkbox]")?.checked).map((tr) => Number(tr.dataset.campaignId))),
  };
}

const scal = (page) => page.locator('figure[aria-label^="Scalability"]');
const knee = (page) => page.locator('figure[aria-label^="Knee"]');

/** What the report shows: the variant tab, the knee chart's options and y ticks, the scalability legend's hidden entries. */
async function reportView(page) {
  await knee(page).locator(".recharts-yAxis-tick-labels text").first().waitFor();
  return {
    tab: await page.locator('[data-testid="variant-tabs"] [role="tab"][aria-selected="true"]').innerText(),
    log: await knee(page).getByLabel("log scale").isChecked(),
    pct: await knee(page).getByLabel("Percentile shown").inputValue(),
    kneeTicks: await knee(page).locator(".recharts-yAxis-tick-labels text").allTextContents(),
    legendOff: await scal(page).locator(".legend-off").allInnerTexts(),
    scalLines: await scal(page).locator(".recharts-line").count(),
  };
}

/** A campaign link's id ("/campaigns/12" → "12"). */
const idOf = (href) => href.split("?")[0].split("/").pop();

/** The comparison's campaigns, in the order the table lists them (the first is the reference). */
async function compareView(page) {
  await page.locator('section[aria-label="Campaigns compared"] tbody tr').first().waitFor();
  return page.locator('section[aria-label="Campaigns compared"] tbody tr a').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
}

const saturation = (page) => page.locator('figure[aria-label^="Saturation"]');

/** The saturation overlay's options: latency shown, log axis, campaigns hidden from the legend, lines drawn. */
async function overlayView(page) {
  await saturation(page).locator(".recharts-yAxis-tick-labels text").first().waitFor();
  return {
    latency: await saturation(page).getByLabel("Latency shown").inputValue(),
    log: await saturation(page).getByLabel("log scale").isChecked(),
    hidden: await saturation(page).locator(".legend-off").allInnerTexts(),
    lines: await saturation(page).locator(".recharts-line").count(),
    ticks: await saturation(page).locator(".recharts-yAxis-tick-labels text").allTextContents(),
  };
}

const [a, b] = IDS;
let listUrl, reportUrl, compareUrl;
const main = await newPage();

try {
  await step("list: filters and the compare selection go into the URL", async () => {
    const { page, guard } = main;
    await page.goto("/");
    await page.getByRole("search").locator('input[name="tag"]').fill(TAG);
    await page.getByRole("search").locator('input[name="tag"]').press("Enter");
    await page.waitForURL(/[?&]tag=/);
    await page.getByRole("search").locator('select[name="status"]').selectOption("completed");
    await page.waitForURL(/[?&]status=completed/);
    await page.locator(`tr[data-campaign-id="${IDS[2]}"]`).waitFor();
    // the list may still be drawing the tag's answer when the status's URL lands (a starved lane): wait up to 10 s for
    // the order, then compare (a wrong order still fails, with the rows it had)
    await page.waitForFunction((ids) => [...document.querySelectorAll("tr[data-campaign-id]")].map((tr) => Number(tr.dataset.campaignId)).join() === ids, [...IDS].reverse().join(), { timeout: 10_000 }).catch(() => {});
    const newest = (await listView(page)).rows;
    assert(same(newest, [...IDS].reverse()), `newest first: rows ${newest}, expected ${[...IDS].reverse()}`);
    await page.locator('select[name="sort"]').selectOption("name");
    await page.waitForURL(/[?&]sort=name/);
    await page.waitForFunction((ids) => [...document.querySelectorAll("tr[data-campaign-id]")].map((tr) => Number(tr.dataset.campaignId)).join() === ids, IDS.join());
    for (const id of [a, b]) await page.getByLabel(`Select campaign ${id} to compare`).check();
    await page.waitForURL((u) => u.searchParams.getAll("c").length === 2);
    const view = await listView(page);
    assert(same(view.rows, IDS), `rows ${view.rows}, expected the three imported by name ${IDS}`);
    assert(view.sort === "name", `sort ${view.sort}`);
    assert(same(view.ticked.sort(), [a, b].sort()), `ticked ${view.ticked}`);
    listUrl = page.url();
    guard.assertClean("list");
  });

  await step("list: Back walks the order and filters, Forward returns", async () => {
    const { page, guard } = main;
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("sort") && u.searchParams.get("status") === "completed");
    await page.waitForFunction((ids) => [...document.querySelectorAll("tr[data-campaign-id]")].map((tr) => Number(tr.dataset.campaignId)).join() === ids, [...IDS].reverse().join());
    assert((await listView(page)).sort === "newest", "Back returns to newest first");
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("status") && u.searchParams.get("tag") === TAG);
    assert((await listView(page)).status === "", "Back drops the status filter");
    await page.goForward();
    await page.goForward();
    await page.waitForURL((u) => u.href === listUrl);
    const view = await listView(page);
    assert(view.status === "completed" && view.sort === "name", "Forward restores them");
    guard.assertClean("list history");
  });

  await step("list: the link opens the same list in a fresh browser, through the login page", async () => {
    const before = await listView(main.page);
    const fresh = await openFresh(listUrl);
    const after = await listView(fresh.page);
    assert(same(after, before), `fresh view ${JSON.stringify(after)} != ${JSON.stringify(before)}`);
    assert(/2 selected/.test(await fresh.page.locator(".compare-bar").innerText()), "the compare bar counts the selection");
    fresh.guard.assertClean("fresh list");
    await fresh.ctx.close();
  });

  await step("report: the variant tab and chart options go into the URL", async () => {
    const { page, guard } = main;
    await page.goto(`/campaigns/${a}`);
    await page.locator('[data-testid="variant-tabs"]').waitFor();
    await page.getByRole("tab", { name: /4 queues/ }).click();
    await page.waitForURL(/variant=4(\+|%20)queues/);
    const linear = await reportView(page);
    assert(linear.kneeTicks[0] === "0", `a linear latency axis starts at 0: ${linear.kneeTicks}`);
    assert((await scal(page).locator(".recharts-errorBar").count()) > 0, "repeated loads draw error bars");
    await knee(page).getByLabel("log scale").check();
    await page.waitForURL(/knee\.log=1/);
    await knee(page).getByLabel("Percentile shown").selectOption("p50");
    await page.waitForURL(/knee\.pct=p50/);
    await scal(page).locator(".recharts-legend-item", { hasText: "efficiency" }).click();
    await page.waitForURL(/scal\.hide=efficiency/);
    const view = await reportView(page);
    assert(same(view.legendOff, ["efficiency"]), `hidden series ${view.legendOff}`);
    assert(view.scalLines === linear.scalLines - 1, `one line fewer: ${view.scalLines} vs ${linear.scalLines}`);
    assert(!same(view.kneeTicks, linear.kneeTicks) && view.kneeTicks.every((t) => /^(0\.)?[0-9.]+k?$/.test(t)), `log ticks ${view.kneeTicks}`);
    assert(new Set(view.kneeTicks).size === view.kneeTicks.length, `distinct ticks ${view.kneeTicks}`);
    reportUrl = page.url();
    guard.assertClean("report");
  });

  await step("report: Back undoes one option at a time", async () => {
    const { page, guard } = main;
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("scal.hide") && u.searchParams.get("knee.pct") === "p50");
    assert(same((await reportView(page)).legendOff, []), "the efficiency line is back");
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("knee.pct") && u.searchParams.get("knee.log") === "1");
    assert((await reportView(page)).pct === "p99", "the default percentile is back");
    await page.goForward();
    await page.goForward();
    await page.waitForURL((u) => u.href === reportUrl);
    guard.assertClean("report history");
  });

  await step("report: the link opens the same report in a fresh browser, through the login page", async () => {
    const before = await reportView(main.page);
    const fresh = await openFresh(reportUrl);
    const after = await reportView(fresh.page);
    assert(same(after, before), `fresh view ${JSON.stringify(after)} != ${JSON.stringify(before)}`);
    assert(after.tab.startsWith("4 queues") && after.log && after.pct === "p50", JSON.stringify(after));
    fresh.guard.assertClean("fresh report");
    await fresh.ctx.close();
  });

  await step("compare: the selection, its order and the overlay's options go into the URL; Back walks them", async () => {
    const { page, guard } = main;
    await page.goto(listUrl);
    await page.getByRole("button", { name: /^Compare/ }).click();
    await page.waitForURL(/\/compare\?/);
    const first = await compareView(page);
    assert(first.length === 2, `two campaigns compared: ${first}`);
    await page.getByRole("button", { name: "Make reference" }).click();
    await page.waitForURL((u) => u.searchParams.getAll("c")[0] === idOf(first[1]));
    const swapped = await compareView(page);
    assert(same(swapped, [first[1], first[0]]), `reference swapped: ${swapped}`);
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.getAll("c")[0] === idOf(first[0]));
    assert(same(await compareView(page), first), "Back restores the first order");
    await page.goForward();
    await page.waitForURL((u) => u.searchParams.getAll("c")[0] === idOf(first[1]));
    await saturation(page).getByLabel("Latency shown").selectOption("p99");
    await page.waitForURL(/overlay\.pct=p99/);
    await saturation(page).getByLabel("log scale").check();
    await page.waitForURL(/overlay\.log=1/);
    await saturation(page).locator(".recharts-legend-item").nth(1).click();
    await page.waitForURL(/overlay\.hide=/);
    const overlay = await overlayView(page);
    assert(overlay.hidden.length === 1 && overlay.lines === 1, `one campaign hidden: ${JSON.stringify(overlay)}`);
    compareUrl = page.url();
    guard.assertClean("compare");
  });

  await step("compare: three campaigns side by side (seed 002's three load balancers), each judged against the first", async () => {
    const { page, guard } = main;
    await page.goto(`/compare?${IDS.map((id) => `c=${id}`).join("&")}`);
    assert(same((await compareView(page)).map(idOf), IDS.map(String)), "the three campaigns in the URL's order");
    const verdicts = page.locator('section[aria-label="Headline metrics"] [data-testid="verdict"]');
    await verdicts.first().waitFor();
    const lines = await page.locator('section[aria-label="Headline metrics"] tbody tr').first().locator(".verdict-line").count();
    assert(lines === 2, `a verdict line for each of the two campaigns against the reference: ${lines}`);
    guard.assertClean("compare three");
    await page.goto(compareUrl);  // back to the two-campaign view the next step opens afresh
    await saturation(page).locator(".recharts-line").first().waitFor();
  });

  await step("compare: the link opens the same comparison in a fresh browser, through the login page", async () => {
    const before = { campaigns: await compareView(main.page), overlay: await overlayView(main.page) };
    const fresh = await openFresh(compareUrl);
    const after = { campaigns: await compareView(fresh.page), overlay: await overlayView(fresh.page) };
    assert(same(after, before), `fresh view ${JSON.stringify(after)} != ${JSON.stringify(before)}`);
    fresh.guard.assertClean("fresh compare");
    await fresh.ctx.close();
  });
} finally {
  await close();
}
finish();
