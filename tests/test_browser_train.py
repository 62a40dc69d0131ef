"""Strong, trained for this variant, in the page: the variant lab shows the training's cost before it starts,
then the bar with the time left, and Cancel stops the training.

Its own module and port (the other browser modules hold theirs until they end).  Skipped with the reason
when Playwright, Voilà or chromium are missing (a failure under GUYENNE_REQUIRE_BROWSER=1).
"""

import time

from tests import browser_app as app

PORT = 8921


def test_the_variant_lab_shows_the_training_cost_then_trains_until_cancelled(tmp_path, monkeypatch):
    app.require()
    app.ARTIFACTS.mkdir(exist_ok=True)
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path / "cache"))  # the server's kernel keeps its weights there
    with app.voila_app(PORT, tmp_path / "voila.log") as url, app.chromium() as browser:
        page, _ = app.open_explorer(browser, url, 1280, 800)
        try:
            app.show_tab(page, "Variant lab")
            lab = page.locator(".guyenne-variant-lab")
            assert lab.locator("button", has_text="Train strong").count() == 0  # not before the option is chosen
            lab.get_by_label("English", exact=True).select_option("strong, trained for this variant")
            training = lab.locator(".guyenne-training")
            training.locator(":text('Training strong for this variant takes')").wait_for()
            assert "at the pace measured here" in training.inner_text()
            assert not (tmp_path / "cache").exists()  # the cost is shown before anything is trained
            training.locator("button", has_text="Train strong for this variant").click()
            page.wait_for_selector(".guyenne-training .widget-label:has-text('left')", timeout=120_000)
            page.screenshot(path=str(app.ARTIFACTS / "training-variant-lab-1280x800.png"))
            clicked = time.monotonic()
            training.locator("button", has_text="Cancel").click()
            page.wait_for_selector(".guyenne-training :text('Training cancelled')", timeout=30_000)
            print(f"training stopped {time.monotonic() - clicked:.1f} s after Cancel")
            assert not list((tmp_path / "cache").glob("*/*.json"))  # no weights from a cancelled training
        except Exception:
            page.screenshot(path=str(app.ARTIFACTS / "training-failure.png"))
            raise
        finally:
            page.close()
