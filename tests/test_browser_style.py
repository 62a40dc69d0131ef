"""The skill levels tab's "How they play" section in a real browser (Voilà app, headless Chromium): a few games
a level, run from the page, show the sentences and the figures by level, inside the panel; screenshots at
1280x800 go to artifacts/.  Skipped with the reason when Playwright, Voilà or chromium are missing."""

from tests import browser_app as app
from tests.test_browser_sizes import OUTSIDE, shot


def test_how_they_play_shows_its_sentences_and_figures(tmp_path):
    port = app.free_port(8960, 8969)
    with app.served(port, tmp_path / "voila.log") as (url, browser):
        page, _ = app.open_explorer(browser, url, 1280, 800)
        try:
            app.show_tab(page, "Skill levels")
            section = page.locator(".guyenne-style")
            levels = section.get_by_role("textbox", name="Levels", exact=True)
            assert levels.is_disabled()  # it shows the levels ticked above until unticked
            section.get_by_text("the levels ticked above").click()
            page.wait_for_function("() => !document.querySelector('.guyenne-style .widget-text input').disabled")
            levels.fill("uniform,heuristic")  # the compiled levels only: strong would load its model too
            levels.press("Enter")
            games = section.locator(".widget-inline-hbox", has_text="Games a level").locator("input")
            games.fill("40")
            games.press("Enter")
            # the cost of each level's games is said before anything runs
            page.wait_for_function("() => document.querySelector('.guyenne-style').innerText"
                                   ".includes('heuristic: 40 games against itself')")
            section.locator("button", has_text="Compare how they play").click()
            page.wait_for_selector(".guyenne-style li >> text=40 games a level", timeout=900_000)  # may compile first
            page.wait_for_selector(".guyenne-style .guyenne-plot .main-svg", timeout=60_000)
            sentences = section.locator("li").all_inner_texts()
            assert sentences[0] == "advanced: 40 games a level, each level against itself.", sentences
            # then what sets the levels apart, or that their intervals overlap: each sentence names both
            assert len(sentences) >= 2 and all("uniform" in s and "heuristic" in s for s in sentences[1:]), sentences
            assert section.locator(".guyenne-plot .main-svg").count() >= 1
            # the downloads are enabled by another widget's message, which may arrive after the figure's (a race
            # seen once in CI): waited for, not read at once
            page.wait_for_selector(".guyenne-style button:has-text('CSV'):not([disabled])", timeout=30_000)
            page.wait_for_selector(".guyenne-style button:has-text('Compare how they play'):not([disabled])",
                                   timeout=30_000)  # ready for another run
            assert page.evaluate(OUTSIDE) == []
            shot(page, section, "1280x800-style")
        except Exception:
            page.screenshot(path=str(app.ARTIFACTS / "style-failure.png"))
            raise
        finally:
            page.close()
