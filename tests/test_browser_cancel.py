"""Cancel in the page: a variant-lab run with search play stops at once, its workers with it, and the
next skill levels run goes through (the jam reported: "Cancelled" ten minutes late, workers still busy,
the next run stuck at 2000/2040).

Its own module and port (the other browser modules hold theirs until they end).  Skipped with the reason
when Playwright, Voilà or chromium are missing (a failure under GUYENNE_REQUIRE_BROWSER=1).
"""

import time

import psutil

from tests import browser_app as app

PORT = 8876


def busy_seconds(seconds: float = 1.0) -> float:
    """CPU seconds that every process started by this test (server, kernel, workers) spends over ``seconds``."""
    def total() -> float:
        out = 0.0
        for proc in psutil.Process().children(recursive=True):
            try:
                t = proc.cpu_times()
                out += t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return out
    before = total()
    time.sleep(seconds)
    return total() - before


def test_cancel_in_the_variant_lab_stops_search_play_and_frees_the_next_run(tmp_path):
    app.require()
    app.ARTIFACTS.mkdir(exist_ok=True)
    with app.voila_app(PORT, tmp_path / "voila.log") as url, app.chromium() as browser:
        page, _ = app.open_explorer(browser, url, 1280, 800)
        try:
            app.show_tab(page, "Variant lab")
            lab = page.locator(".guyenne-variant-lab")
            lab.get_by_label("English", exact=True).select_option("search")
            games = lab.get_by_label("Games", exact=True)  # not the counter-strategy check's "Games a seat"
            games.fill("300")
            games.press("Enter")
            page.wait_for_timeout(300)  # the values reach the kernel before the click does
            lab.locator("button", has_text="Compare with preset").click()
            # the bar counts search games one by one, with the time left
            page.wait_for_function("""() => [...document.querySelectorAll('.guyenne-variant-lab .widget-label')]
                .some((d) => /^[1-9][0-9]*\\/600 games$/.test(d.textContent.trim()))""", timeout=300_000)
            page.wait_for_selector(".guyenne-variant-lab .widget-label:has-text('left')", timeout=60_000)
            lab.locator("button:not([disabled])", has_text="Cancel").click()  # the run's, not the idle counter check's
            page.wait_for_selector(".guyenne-variant-lab :text('Cancelled')", timeout=30_000)
            page.screenshot(path=str(app.ARTIFACTS / "cancelled-variant-lab-1280x800.png"))
            assert busy_seconds() < 0.5  # nothing computes for the cancelled run any more

            app.show_tab(page, "Skill levels")
            skill = page.locator(".guyenne-skill-levels")
            for label, value in (("Games", "50"), ("Search games", "2"), ("Search rollouts", "10")):
                box = skill.locator(".widget-inline-hbox", has_text=label).locator("input").first
                box.fill(value)
                box.press("Enter")
            page.wait_for_timeout(300)
            skill.locator("button", has_text="Run skill levels").click()
            page.wait_for_selector(".guyenne-skill-levels .progress-bar-success", state="attached", timeout=300_000)
        except Exception:
            page.screenshot(path=str(app.ARTIFACTS / "cancel-failure.png"))
            raise
        finally:
            page.close()
