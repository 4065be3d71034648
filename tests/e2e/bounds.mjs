// Capacity said as what it is, on the report (signed in) and on its share page (a fresh browser, signed out): the card's
// figure and kind, and a search's capacity beside its trials. playwright-core with Debian's Chromium.
//
//   KB_BASE_URL=… KB_E2E_USER=… KB_E2E_PASSWORD=… KB_BOUNDS='[{"id":1,"share":"/s/…","kind":"at_least","value":"≥ 4,000 qps","search":false}]' \
//     node tests/e2e/bounds.mjs
//
// tests/e2e/test_bounds.py imports the campaigns, shares them and runs this. Exits non-zero on failure.
import { assert, launchBrowser, makeSteps, openPage } from "./harness.mjs";

const CASES = JSON.parse(process.env.KB_BOUNDS ?? "[]");
if (!CASES.length) throw new Error("KB_BOUNDS is needed (tests/e2e/test_bounds.py sets it)");

const { step, finish } = makeSteps();
const { browser, close } = await launchBrowser("kb-bounds-");

/** What the capacity card and the search panel say on the page at `url`. */
async function capacityShown(page, url) {
  await page.goto(url);
  const card = page.getByTestId("card-capacity");
  await card.locator('[data-testid="capacity-kind"]').waitFor();
  return {
    value: (await card.locator(".stat-value").innerText()).trim(),
    kind: await card.getByTestId("capacity-kind").getAttribute("data-kind"),
    how: await card.getByTestId("capacity-kind").innerText(),
    searched: await page.getByTestId("search-capacity").evaluateAll((els) => els.map((e) => ({ kind: e.dataset.kind, text: e.textContent }))),
  };
}

try {
  for (const c of CASES) {
    let signedIn;
    await step(`campaign ${c.id}: the report says ${c.value} (${c.kind})`, async () => {
      const { page, guard } = await openPage(browser);
      signedIn = await capacityShown(page, `/campaigns/${c.id}`);
      assert(signedIn.value.startsWith(c.value), `the card says ${JSON.stringify(signedIn.value)}, not ${c.value}`);
      assert(signedIn.kind === c.kind, `the card's kind is ${signedIn.kind}, not ${c.kind}`);
      if (c.kind === "at_least") assert(/held at every load tested/.test(signedIn.how), `a lower bound says why: ${signedIn.how}`);
      if (c.kind === "below") assert(/missed at the lowest load tested/.test(signedIn.how), `an upper bound says why: ${signedIn.how}`);
      if (c.search) {
        assert(/found by the search/.test(signedIn.how), `the card says the search found it: ${signedIn.how}`);
        assert(signedIn.searched.length === 1 && signedIn.searched[0].kind === "between", `the search panel: ${JSON.stringify(signedIn.searched)}`);
      }
      guard.assertClean();
      await page.context().close();
    });
    await step(`campaign ${c.id}: its share page, signed out, says the same`, async () => {
      const { page, guard } = await openPage(browser, { signIn: false });
      const shared = await capacityShown(page, c.share);
      assert(JSON.stringify(shared) === JSON.stringify(signedIn), `shared ${JSON.stringify(shared)} ≠ report ${JSON.stringify(signedIn)}`);
      guard.assertClean();
      await page.context().close();
    });
  }
} finally {
  await close();
}
finish();
