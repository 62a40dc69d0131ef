"""The Balance tab in a real browser (Voilà app, headless Chromium): a tiny search run from the page shows its
table and figure, nothing outside the panel or cut; screenshots at 1280x800 and 1920x1080 go to artifacts/.
Skipped with the reason when Playwright, Voilà or chromium are missing."""

import pytest

from tests import browser_app as app
from tests.test_browser_sizes import OUTSIDE, shot

PORT = 8911

#: JS: the most lines a heading of the results table takes, and whether the table is wider than its box (it scrolls)
HEADINGS = """() => {
  const ths = [...document.querySelectorAll('.guyenne-balance-table th')];
  const box = document.querySelector('.guyenne-balance-table table').parentElement;
  return [Math.max(...ths.map((th) => Math.round((th.getBoundingClientRect().height - 4)
                                                  / parseFloat(getComputedStyle(th).lineHeight)))),
          box.scrollWidth > box.clientWidth];
}"""


def test_a_tiny_search_from_the_balance_tab_shows_its_table(tmp_path):
    reason = app.missing()
    if reason:
        pytest.skip(reason)
    with app.voila_app(PORT, tmp_path / "voila.log") as url, app.chromium() as browser:
        page, _ = app.open_explorer(browser, url, 1280, 800)
        try:
            app.show_tab(page, "Balance")
            panel = page.locator(".guyenne-balance")
            for label, value in (("Games a candidate", "24"), ("Trials", "3")):
                box = panel.locator(".widget-inline-hbox", has_text=label).locator("input")
                box.fill(value)
                box.press("Enter")
            page.wait_for_function(
                "() => document.querySelector('.guyenne-balance-cost')?.textContent.includes('at most 3 candidates')")
            panel.locator("button", has_text="Run search").click()
            page.wait_for_selector(".guyenne-balance-table table", timeout=900_000)  # a first run may compile the fast simulator
            page.wait_for_selector(".guyenne-balance .guyenne-plot .main-svg", timeout=60_000)
            assert panel.locator(".guyenne-balance-table tr").count() >= 2  # the head and at least one setting
            # the status follows the table and figure in the kernel's messages: waited for, not read at once
            from playwright.sync_api import expect

            expect(panel).to_contain_text("3 candidates tried", timeout=60_000)
            assert page.evaluate(OUTSIDE) == []
            assert page.evaluate(app.TRUNCATED) == []
            # short headings (the full ones as tooltips): at most three lines where the full ones took five
            assert page.evaluate(HEADINGS)[0] <= 3
            shot(page, panel, "1280x800-balance")
            page.set_viewport_size({"width": 1920, "height": 1080})
            page.wait_for_timeout(500)
            assert page.evaluate(OUTSIDE) == []
            assert page.evaluate(HEADINGS) == [2, False]  # a target's range under its metric; the whole table shown
            shot(page, panel, "1920x1080-balance")
        except Exception:
            page.screenshot(path=str(app.ARTIFACTS / "balance-failure.png"))
            raise
        finally:
            page.close()
