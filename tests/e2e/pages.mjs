// The page sweep: every page at 1280 px and 390 px, in the light and the dark theme, checked with axe-core
// (no serious or critical violation), for sideways overflow, and by the guard (no console error, no failed request).
//
//   KB_BASE_URL=http://127.0.0.1:8765 KB_DNS_HOST=127.0.0.1 KB_DNS_PORT=5354 KB_TOKEN=… KB_E2E_USER=… KB_E2E_PASSWORD=… \
//     node tests/e2e/pages.mjs
//
// Needs the real stack (API serving frontend/dist, a Celery worker, a DNS server); tests/e2e/test_pages.py runs it.
// Creates a target, a plan and two short dnsperf campaigns through the API first. Saves the report at 390 px
// (report-phone.png) and in the dark theme (report-dark.png) to docs/screenshots/. Closes with "N passed, M failed".
import { DNS_HOST, DNS_PORT, PASSWORD, USER, api, assert, frontendRequire, launchBrowser, makeSteps, openPage, runCampaign, shotPath, stamp } from "./harness.mjs";

const { AxeBuilder } = frontendRequire("@axe-core/playwright");

const WIDTHS = [1280, 390];
const THEMES = ["light", "dark"];

/** Named checks; a failure is printed and counted, and the sweep goes on with the next page. */
const { step, finish } = makeSteps({ afterFailure: "continue", stackLines: 40 });

/** The axe-core violations of impact serious or critical, one line each with the elements concerned. */
async function seriousViolations(page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n      ${v.nodes.slice(0, 6).map((n) => `${n.target.join(" ")} — ${(n.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 220)}`).join("\n      ")}`);
}

/** Whether the page is wider than the window, and if so which elements stick out on the right. */
async function overflow(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    if (doc.scrollWidth <= doc.clientWidth + 1) return null;
    // elements that stick out, leaving out what is inside a box that scrolls or clips on its own
    const inScroller = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") return true;
      return false;
    };
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1 && el.getClientRects().length && !inScroller(el))
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= doc.clientWidth + 1)
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} (right ${Math.round(el.getBoundingClientRect().right)})`);
    return `scrollWidth ${doc.scrollWidth} > clientWidth ${doc.clientWidth}: ${wide.join(", ")}`;
  });
}

/** Wait until the page shows its heading and no loading state. */
async function settled(page) {
  await page.locator("main h1").first().waitFor();
  await page.locator(".state.loading").first().waitFor({ state: "detached", timeout: 20_000 }).catch(() => {});
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});
  await page.waitForTimeout(300); // charts size themselves after their box is laid out
}

const { browser, close } = await launchBrowser("kb-pages-");

try {
  // --- what the pages show: a target, a plan, two short completed campaigns ---
  let target, plan;
  const campaigns = [];
  await step("setup: a dns target, a plan and two completed dnsperf campaigns (API)", async () => {
    target = await api("/targets", { method: "POST", body: JSON.stringify({ name: `pages-dns-${stamp}`, kind: "dns", host: DNS_HOST, port: DNS_PORT }) });
    plan = await api("/plans", {
      method: "POST",
      body: JSON.stringify({
        name: `pages plan ${stamp}`,
        tool: "dnsperf",
        target_id: target.id,
        params: { names: ["www.example.lab"], qtype: "A", timeout_s: 5 },
        phases: [
          { kind: "baseline", concurrency: 1, rate: 200, duration_s: 1 },
          { kind: "scalability", concurrency: [1, 2], unit_rate: 200, duration_s: 1 },
        ],
        pause_s: 0,
        repeat: 1,
      }),
    });
    for (const n of [1, 2]) campaigns.push(await runCampaign(plan.id, `pages ${stamp} #${n}`));
  });
  if (!campaigns.length) throw new Error("no campaigns: the sweep cannot run");

  // --- a real login in the browser; the other contexts reuse its session cookie ---
  let storageState;
  await step("login through the login page", async () => {
    const { page, guard, ctx } = await openPage(browser, { signIn: false });
    guard.expect({ status: 401 }); // before login the page's API calls answer 401, hence the login page
    await page.goto("/");
    await page.waitForURL(/\/login/);
    await page.getByLabel("Username").fill(USER);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("heading", { name: "Campaigns" }).waitFor();
    storageState = await ctx.storageState();
    guard.assertClean();
    await ctx.close();
  });
  if (!storageState) throw new Error("no session: the sweep cannot run");

  const [a, b] = campaigns;
  const pages = [
    { name: "campaigns", path: "/campaigns", title: "Campaigns" },
    { name: "report", path: `/campaigns/${a}`, title: `Campaign #${a}`, heading: `#${a}`, ready: (p) => p.locator('.campaign-page[data-status="completed"] [data-testid="points-table"] tbody tr').first().waitFor() },
    { name: "comparison", path: `/compare?c=${a}&c=${b}`, title: "Compare", ready: (p) => p.locator('[data-testid="headline"]').waitFor() },
    { name: "plans", path: "/plans", title: "Plans" },
    { name: "trend", path: `/trends?plan=${plan.id}`, title: `Trend of plan #${plan.id}`, ready: (p) => p.locator('[data-testid="trend-chart"]').waitFor() },
    { name: "plan editor (new)", path: "/plans/new", title: "New plan" },
    { name: "plan editor (existing)", path: `/plans/${plan.id}`, title: `Plan #${plan.id}`, ready: (p) => p.locator('[data-testid="point-count"]').waitFor() },
    { name: "targets", path: "/targets", title: "Targets" },
    { name: "profiles", path: "/profiles", title: "Device profiles" },
    { name: "schedules", path: "/schedules", title: "Schedules" },
    { name: "policy", path: "/policy", title: "Target policy" },
    { name: "audit", path: "/audit", title: "Audit log" },
    { name: "unknown campaign", path: "/campaigns/999999", title: "Campaign 999999 not found", expect: [{ status: 404, url: "/api/v1/campaigns/999999" }] },
    { name: "unknown plan", path: "/plans/999999", title: "Plan 999999 not found", expect: [{ status: 404, url: "/api/v1/plans/999999" }] },
  ];

  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      const { page, guard, ctx } = await openPage(browser, { signIn: false, storageState, viewport: { width, height: width < 600 ? 844 : 800 }, colorScheme: theme });
      for (const p of pages) {
        await step(`${p.name} at ${width} px, ${theme}`, async () => {
          for (const rule of p.expect ?? []) guard.expect(rule);
          await page.goto(p.path);
          await settled(page);
          if (p.ready) await p.ready(page);
          const problems = [];
          const h1 = await page.locator("main h1").first().innerText();
          const heading = p.heading ?? p.title.replace(/ #\d+$/, "");
          if (!h1.includes(heading)) problems.push(`heading “${h1}”, expected “${heading}” in it`);
          const title = await page.title();
          if (title !== `${p.title} — Kneeboard`) problems.push(`document.title “${title}”, expected “${p.title} — Kneeboard”`);
          const applied = await page.evaluate(() => document.documentElement.dataset.theme);
          if (applied !== theme) problems.push(`data-theme ${applied}, the system asked for ${theme}`);
          problems.push(...(await seriousViolations(page)).map((v) => `axe ${v}`));
          if (width < 600) {
            const wide = await overflow(page);
            if (wide) problems.push(`overflows sideways: ${wide}`);
          }
          if (p.name === "report" && width < 600 && theme === "light") await page.screenshot({ path: shotPath("report-phone") });
          if (p.name === "report" && width > 600 && theme === "dark") await page.screenshot({ path: shotPath("report-dark") });
          try {
            guard.assertClean();
          } catch (e) {
            problems.push(e.message);
          }
          assert(!problems.length, problems.join("\n"));
        });
      }
      if (width < 600) {
        await step(`the menu at ${width} px, ${theme}: keyboard opens it, Escape closes it, focus is visible`, async () => {
          await page.goto("/plans");
          await settled(page);
          const toggle = page.getByRole("button", { name: "Menu" });
          const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Targets" });
          assert(!(await link.isVisible()), "the navigation is folded away at this width");
          await page.keyboard.press("Tab"); // the brand
          await page.keyboard.press("Tab");
          assert(await toggle.evaluate((el) => el === document.activeElement), "Tab reaches the menu button second");
          const outline = await toggle.evaluate((el) => getComputedStyle(el).outlineStyle);
          assert(outline !== "none", `the focused menu button shows an outline (${outline})`);
          await page.keyboard.press("Enter");
          assert((await toggle.getAttribute("aria-expanded")) === "true", "aria-expanded after Enter");
          await link.waitFor();
          await page.keyboard.press("Escape");
          assert((await toggle.getAttribute("aria-expanded")) === "false", "Escape closes the menu");
          await toggle.click();
          await link.click();
          await page.waitForURL(/\/targets$/);
          await page.locator('button[aria-expanded="false"]', { hasText: "Menu" }).waitFor({ timeout: 5_000 }).catch(() => {});
          assert((await toggle.getAttribute("aria-expanded")) === "false", "a new page closes the menu");
          guard.assertClean();
        });
      }
      await ctx.close();
    }
  }

  await step("the theme switch overrides the system's setting and is remembered", async () => {
    const { page, guard, ctx } = await openPage(browser, { signIn: false, storageState, colorScheme: "light" });
    await page.goto("/targets");
    await settled(page);
    await page.getByLabel("Theme").selectOption("dark");
    assert((await page.evaluate(() => document.documentElement.dataset.theme)) === "dark", "dark once chosen");
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.reload();
    await settled(page);
    assert((await page.evaluate(() => document.documentElement.dataset.theme)) === "dark", "still dark after a reload");
    assert(bg === "rgb(15, 23, 42)", `the page background follows (${bg})`);
    await page.getByLabel("Theme").selectOption("system");
    assert((await page.evaluate(() => document.documentElement.dataset.theme)) === "light", "back to the system's (light)");
    guard.assertClean();
    await ctx.close();
  });
} finally {
  await close();
}

finish();
