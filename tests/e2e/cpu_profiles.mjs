// CPU profiles where the numbers are (issue 38), in a browser: the report's point evidence draws a zoomable flame graph,
// the share page and the exported file (opened from disk, network blocked) draw it static, and the compare page draws
// the differential with the log handler grown, as the shared comparison does through its link (one comparison body).
// playwright-core with Debian's Chromium.
//
//   KB_BASE_URL=… KB_E2E_USER=… KB_E2E_PASSWORD=… KB_PROFILE_IDS=A,B KB_PROFILE_SHARE=token KB_PROFILE_COMPARE_SHARE=token KB_PROFILE_FILE=b.html node tests/e2e/cpu_profiles.mjs
//
// tests/e2e/test_cpu_profile_views.py makes the campaigns (A: CoreDNS minimal, B: with `log`), the link and the file.
import { pathToFileURL } from "node:url";
import { assert, frontendRequire, launchBrowser, makeSteps, openPage } from "./harness.mjs";

const { AxeBuilder } = frontendRequire("@axe-core/playwright");

const [A, B] = (process.env.KB_PROFILE_IDS ?? "").split(",").filter(Boolean).map(Number);
const SHARE = process.env.KB_PROFILE_SHARE ?? "";
const COMPARE_SHARE = process.env.KB_PROFILE_COMPARE_SHARE ?? "";
const FILE = process.env.KB_PROFILE_FILE ?? "";
const [LEAF, LEAF_FILE] = (process.env.KB_PROFILE_LEAF ?? "").split(",");
if (!A || !B || !SHARE || !COMPARE_SHARE || !FILE || !LEAF || !LEAF_FILE)
  throw new Error("KB_PROFILE_IDS (two), KB_PROFILE_SHARE, KB_PROFILE_COMPARE_SHARE, KB_PROFILE_FILE and KB_PROFILE_LEAF are needed (tests/e2e/test_cpu_profile_views.py sets them)");
const LOG = "github.com/coredns/coredns/plugin/log.(*Logger).ServeDNS";
const HOSTILE = "<script>alert(1)</script>";

let compareFrames = []; // the compare page's differential: [title, fill] per frame
const { step, finish } = makeSteps({ afterFailure: "continue" });
const { browser, close } = await launchBrowser("kb-profiles-");

/** The flame graphs' frames under `scope`: title, drawn width in px, fill, and whether it can be clicked. */
const frames = (scope) =>
  scope.locator("svg.flame-graph g.flame-frame").evaluateAll((gs) =>
    gs.map((g) => ({
      title: g.querySelector("title")?.textContent ?? "",
      path: g.getAttribute("data-path"),
      px: g.querySelector("rect").getBoundingClientRect().width,
      fill: g.querySelector("rect").getAttribute("fill"),
      clickable: g.getAttribute("role") === "button",
    })),
  );

/** axe-core's serious or critical violations inside `selector`. */
async function violations(page, selector) {
  const found = await new AxeBuilder({ page }).include(selector).analyze();
  return found.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

/** A drawn graph: many frames of visible width, the log handler's and the markup-named one as text. */
function assertDrawn(list, what) {
  assert(list.length > 50, `${what}: ${list.length} frames`);
  assert(list.filter((f) => f.px >= 1).length > 30, `${what}: frames are not drawn wide enough to see`);
  assert(list.some((f) => f.title.startsWith(LOG + ":") && f.px > 5), `${what}: no log handler frame`);
  assert(list.some((f) => f.title.startsWith(HOSTILE + ":")), `${what}: the markup-named frame is not kept as text`);
}

/** Open an exported file from disk with the network blocked; `check(profile)` reads its CPU profile region. */
async function offline(file, check) {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 900 }, offline: true });
  const url = pathToFileURL(file).href;
  const attempted = [];
  await ctx.route("**/*", (route) => (route.request().url() === url ? route.continue() : (attempted.push(route.request().url()), route.abort())));
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForLoadState("load");
  assert(attempted.length === 0, `the file asked for ${attempted}`);
  assert((await page.locator("script").count()) === 0, "a script in the file");
  await check(page.getByRole("region", { name: "CPU profile of point 4" }));
  await ctx.close();
}

try {
  await step("the report's point evidence draws the point's flame graph, and a click zooms into a frame", async () => {
    const { page, guard } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`/campaigns/${B}`);
    await page.getByRole("button", { name: "Show evidence of point 4" }).click();
    const profile = page.getByRole("region", { name: "CPU profile" });
    await profile.locator("svg.flame-graph g.flame-frame").first().waitFor();
    assert((await profile.getByTestId("cpu-profile-facts").textContent()).startsWith("full stacks"), "the stack depth label");
    await profile.locator("table.top-functions tbody tr").nth(14).waitFor(); // drawn after the graph's first frame
    assert((await profile.locator("table.top-functions tbody tr").count()) === 15, "the top functions table");
    const before = await frames(profile);
    assertDrawn(before, "report");
    assert(before.every((f) => f.clickable), "the app's graph is interactive");
    const path = before.find((f) => f.title.startsWith(LOG + ":")).path.replace(/["\\]/g, "\\$&");
    const log = profile.locator(`svg.flame-graph g.flame-frame[data-path="${path}"]`);
    const widthBefore = (await log.locator("rect").boundingBox()).width;
    await log.click();
    const widthAfter = (await log.locator("rect").boundingBox()).width;
    assert(widthAfter > widthBefore * 1.5, `zoom: ${widthBefore} → ${widthAfter} px`);
    await profile.getByRole("button", { name: "Reset zoom" }).click();
    assert(Math.abs((await log.locator("rect").boundingBox()).width - widthBefore) < 1, "reset zoom");
    const serious = await violations(page, 'section[aria-label="CPU profile"]');
    assert(serious.length === 0, `axe: ${serious.join("; ")}`);
    guard.assertClean("report");
  });

  await step("the share page draws the detailed point's flame graph, static", async () => {
    const { page, guard } = await openPage(browser, { signIn: false, viewport: { width: 1280, height: 900 } });
    await page.goto(`/s/${SHARE}`);
    const profile = page.getByRole("region", { name: "CPU profile of point 4" });
    await profile.locator("svg.flame-graph g.flame-frame").first().waitFor();
    const list = await frames(profile);
    assertDrawn(list, "share page");
    assert(list.every((f) => !f.clickable), "the share page's graph is static");
    guard.assertClean("share page");
  });

  await step("the exported file opened from disk, network blocked, draws the frames", async () => {
    await offline(FILE, async (profile) => {
      const list = await frames(profile);
      assertDrawn(list, "file");
      assert(list.every((f) => !f.clickable), "the file's graph is static");
      assert((await profile.locator("table.top-functions tbody tr").count()) === 15, "the file's top functions");
    });
  });

  await step("an nginx profile (no frame pointers) is labelled leaf functions only, in the report and its file", async () => {
    const { page, guard } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`/campaigns/${LEAF}`);
    await page.getByRole("button", { name: "Show evidence of point 4" }).click();
    const profile = page.getByRole("region", { name: "CPU profile" });
    await profile.locator("svg.flame-graph g.flame-frame").first().waitFor();
    assert((await profile.getByTestId("cpu-profile-facts").textContent()).startsWith("leaf functions only"), "the report's label");
    assert((await frames(profile)).filter((f) => f.px >= 1).length > 10, "the report's nginx frames");
    guard.assertClean("nginx report");
    await offline(LEAF_FILE, async (inFile) => {
      assert((await inFile.textContent()).includes("leaf functions only"), "the file's label");
      const list = await frames(inFile);
      assert(list.filter((f) => f.px >= 1).length > 10 && list.some((f) => f.title.startsWith("tcp_sendmsg")), "the file's nginx frames");
    });
  });

  await step("the compare page draws the differential: the log handler grew most in total", async () => {
    const { page, guard } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`/compare?c=${A}&c=${B}`);
    const section = page.getByTestId("cpu-profile-diff");
    await section.locator("svg.flame-graph g.flame-frame").first().waitFor();
    const list = await frames(section);
    const log = list.find((f) => f.title.startsWith(LOG + ":"));
    assert(log && /^rgb\(255,(\d+),\1\)$/.test(log.fill) && log.fill !== "rgb(255,255,255)", `the log handler is not red: ${log?.fill}`);
    assert(list.some((f) => /^rgb\((\d+),\1,255\)$/.test(f.fill) && f.fill !== "rgb(255,255,255)"), "no frame shrank");
    const serious = await violations(page, '[data-testid="cpu-profile-compare"]');
    assert(serious.length === 0, `axe: ${serious.join("; ")}`);
    // ranked by self change by default (what grew in itself), the sign stated; the log handler leads the total view
    assert((await section.locator("table.changed-functions").getAttribute("data-ranked-by")) === "self", "ranked by self change by default");
    assert((await section.getByTestId("diff-sign").textContent()).includes("B − A per 1,000 requests, A the reference"), "the sign stated");
    await section.getByLabel("Rank the changed functions by").selectOption("total");
    const first = await section.locator("table.changed-functions tbody tr").first().textContent();
    assert(first.includes("plugin/log."), `first changed function by total change: ${first}`);
    compareFrames = list.map((f) => [f.title, f.fill]);
    guard.assertClean("compare");
  });

  await step("the shared comparison draws the same differential through its link, signed out", async () => {
    const { page, guard } = await openPage(browser, { signIn: false, viewport: { width: 1280, height: 900 } });
    await page.goto(`/s/${COMPARE_SHARE}`);
    const section = page.getByTestId("cpu-profile-diff");
    await section.locator("svg.flame-graph g.flame-frame").first().waitFor();
    const list = (await frames(section)).map((f) => [f.title, f.fill]);
    assert(compareFrames.length > 50 && JSON.stringify(list) === JSON.stringify(compareFrames), `the shared differential differs: ${list.length} frames, ${compareFrames.length} on the compare page`);
    guard.assertClean("shared comparison");
  });
} finally {
  await close();
}
finish();
