"""The explorer's first screen in the Voilà app (headless Chromium) at 1280x800: the questions a designer brings
are all in view without scrolling, and after one of them is chosen a single click (Run) gets its answer's
headline, above the figures.  Skipped with the reason when Playwright, Voilà or chromium are missing
(GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""


from tests import browser_app as app

#: JS: each question's button, with whether it lies wholly inside the window (no scrolling to see it)
QUESTIONS_IN_VIEW = """() => [...document.querySelectorAll('.guyenne-first-task button')].map((b) => {
  const r = b.getBoundingClientRect();
  return [b.textContent.trim(), r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
          && r.right <= innerWidth];
})"""


def test_the_questions_are_in_view_and_the_first_answers_in_a_click_above_the_figures(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        assert page.evaluate(QUESTIONS_IN_VIEW) == [[q, True] for q in (
            "Is a rule set fair?", "What does a change do?", "Which settings meet my targets?",
            "How do skilled players fare?", "Teach me the rules", "Draw a rule example")]
        assert page.evaluate("() => scrollY") == 0
        page.click(".guyenne-question-fair")  # the click answers: no Run to find first
        panel = page.locator(".guyenne-analysis")
        headline = panel.locator(".guyenne-headline b")
        headline.wait_for(state="visible", timeout=180_000)
        assert headline.text_content().startswith("advanced: the first player (English) scores 0.")
        page.wait_for_selector(".guyenne-analysis .guyenne-plot .main-svg", timeout=180_000)
        first_figure = panel.locator(".guyenne-plot").first.bounding_box()
        line = headline.bounding_box()
        assert line is not None and first_figure is not None and line["y"] + line["height"] <= first_figure["y"]
        page.screenshot(path=str(app.artifact("start-1280x800-fair.png")))
    except Exception:
        page.screenshot(path=str(app.artifact("start-failure.png")))
        raise
    finally:
        page.close()



def test_teach_me_the_rules_opens_a_game_played_in_the_page(browser_app):
    """The lesson is in the app, not in a notebook a page cannot open: "Teach me the rules" shows the Learn tab's
    game, its first rules explained beside its table, and a double-clicked move plays: what happened tells it (the
    learner opens: the list's first move is an opening)."""
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        page.click(".guyenne-question-teach")
        learn = page.locator(".guyenne-learn")
        learn.locator(".guyenne-move").first.wait_for(state="visible", timeout=60_000)
        assert page.locator(".guyenne-left .guyenne-table").is_hidden()  # the built position steps aside
        assert "Setup" in learn.inner_text() and "You play the English" in learn.inner_text()
        before = learn.inner_text()
        learn.locator(".guyenne-move").first.dblclick()
        assert "You opened castle" not in before
        page.wait_for_function("() => document.querySelector('.guyenne-learn').innerText.includes('You opened castle')",
                               timeout=60_000)
        assert "is not allowed" not in learn.inner_text()
        page.screenshot(path=str(app.artifact("start-1280x800-teach.png")))
    except Exception:
        page.screenshot(path=str(app.artifact("start-teach-failure.png")))
        raise
    finally:
        page.close()
