"""The page sweep (tests/e2e/pages.mjs): every page at 1280 px and 390 px, light and dark, through axe-core,
checked for sideways overflow and for console errors and failed requests; playwright-core drives Debian's Chromium."""

from __future__ import annotations

from tests.support.browser import run_node_script


def test_pages_accessible_at_both_widths_and_themes(stack):
    run_node_script(stack, "pages.mjs", user_prefix="pages", node_packages=("@axe-core/playwright",), timeout=900)
