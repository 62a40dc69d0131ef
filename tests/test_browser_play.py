"""Playing and building in a real browser (the Voilà app in headless Chromium).

Enter in the typed-move box plays the move, a move with anything more is refused beside the box,
Play out leaves the table on the final position, castles' tooltips count from 1, and a miscount in
the builder shows at the top of the side's grid, in the window at 1280x800.  Screenshots of the
builder and the moves panel in English and French at 1280x800 and 1920x1080 go to artifacts/.
Skipped with the reason when Playwright, Voilà or chromium are missing (GUYENNE_REQUIRE_BROWSER=1
turns that into a failure).
"""


from tests import browser_app as app

SIZES = ((1280, 800), (1920, 1080))


def _notation(page) -> str:
    return page.get_attribute(".guyenne-table-board", "data-notation")


def _typed(page):
    return page.locator(".guyenne-explorer input[placeholder^='a move, e.g.']")


def test_enter_plays_the_typed_move_junk_is_refused_and_play_out_ends_on_the_table(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        if page.locator('button:has-text("Sample chance"):not([disabled])').count():
            dealt = _notation(page)
            page.click('button:has-text("Sample chance")')  # the explorer opens before the deal
            page.wait_for_function("(b) => document.querySelector('.guyenne-table-board').dataset.notation !== b",
                                   arg=dealt)
        page.wait_for_selector(".guyenne-move", state="attached")
        move = page.get_attribute(".guyenne-move >> nth=0", "data-move")
        before = _notation(page)

        # a move with anything more is refused beside the box (it used to be played as the move alone)
        box = _typed(page)
        box.fill(move + "x")
        box.press("Enter")
        page.wait_for_selector(".guyenne-illegal:has-text('is not part of a move')")
        assert _notation(page) == before

        # Enter plays the move as typed
        box.fill(move)
        box.press("Enter")
        page.wait_for_function("(b) => document.querySelector('.guyenne-table-board').dataset.notation !== b", arg=before)
        played = page.locator(".guyenne-explorer", has_text=f"played {move}")
        played.first.wait_for()  # the board redraws before the line that says what was played
        assert played.count() == 1

        # castles' tooltips count from 1, as the rulebook does
        title = page.locator('.guyenne-left .guyenne-table g.castle[data-castle="0"] > title.guyenne-castle-title')
        assert title.text_content().startswith("castle 1: ")

        # Play out: the game-over line and the table agree on the final position
        page.click('button:has-text("Play out (heuristic)")')
        page.wait_for_selector('.guyenne-move-count:has-text("Game over")', state="attached")
        page.wait_for_function(
            "() => document.querySelector('.guyenne-table-board').dataset.notation.split(' ')[4] === 'end'")
        assert "game over" in page.inner_text(".guyenne-table-board")
    except Exception:
        page.screenshot(path=str(app.ARTIFACTS / "play-failure.png"), full_page=True)
        raise
    finally:
        page.close()


def _in_window(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def _switch(page, label: str, tab: str) -> None:
    page.click(f'.guyenne-language button:has-text("{label}")')
    page.wait_for_selector(f'.guyenne-explorer .lm-TabBar-tab:has-text("{tab}")')
    page.wait_for_timeout(500)


def _miscount(page, english: str, size: str) -> None:
    """A click on the English deck opens its counts in the builder; one 2 more there: the wrong total and the side's
    problem (named ``english`` in the page's language) show in the window."""
    page.click('.guyenne-table g.stack[data-side="english"][data-zone="deck"]')
    row = page.locator(".guyenne-builder .widget-hbox:has(.guyenne-focus)")
    row.wait_for()
    box = row.locator(".widget-text:not(.guyenne-typed-cards) input").last  # the last count, not the cards
    box.fill(str(int(box.input_value()) + 1))
    box.press("Enter")
    wrong = page.locator('.guyenne-builder .guyenne-total[data-ok="false"]').first
    wrong.wait_for()
    problem = page.locator(".guyenne-builder .guyenne-problem", has_text=english).last
    problem.wait_for()
    page.wait_for_timeout(300)
    assert _in_window(page, wrong) and _in_window(page, problem), size
    if english == "English":
        page.screenshot(path=str(app.ARTIFACTS / f"{size}-en-builder-miscount.png"))


def _counts_right_again(page) -> None:
    page.wait_for_selector('.guyenne-builder .guyenne-total[data-ok="false"]', state="detached")
    page.wait_for_function(  # both sides' totals drawn again, every value right (5 values a side)
        "() => document.querySelectorAll('.guyenne-builder .guyenne-total[data-ok=\"true\"]').length === 10")


def test_a_miscount_shows_beside_the_grid_in_the_window_undo_takes_it_back_and_screenshots(browser_app):
    url, browser = browser_app
    app.ARTIFACTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        page, _ = app.open_explorer(browser, url, width, height)
        size = f"{width}x{height}"
        try:
            # the moves panel on a dealt opening; the language is switched once a size (a switch takes seconds)
            page.click('button:has-text("Sample chance")')
            page.wait_for_selector(".guyenne-move", state="attached")
            page.screenshot(path=str(app.ARTIFACTS / f"{size}-en-moves.png"))
            _miscount(page, "English", size)
            page.click('.guyenne-builder button:has-text("Undo")')
            _counts_right_again(page)
            _switch(page, "Français", "Variantes")
            page.screenshot(path=str(app.ARTIFACTS / f"{size}-fr-moves.png"))
            assert page.evaluate(app.TRUNCATED) == [], f"French at {size}"
            _miscount(page, "anglais", size)
            page.screenshot(path=str(app.ARTIFACTS / f"{size}-fr-builder-miscount.png"))
            assert page.evaluate(app.TRUNCATED) == [], f"French at {size}"
            page.locator(".guyenne-builder").evaluate("(b) => b.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            page.screenshot(path=str(app.ARTIFACTS / f"{size}-fr-builder-top.png"))
            # Undo puts the count back as it was: every value matches the rules again
            page.click('.guyenne-builder button:has-text("Défaire")')  # Undo (Cancel is « Annuler »)
            _counts_right_again(page)
        except Exception:
            page.screenshot(path=str(app.ARTIFACTS / f"builder-{size}-failure.png"), full_page=True)
            raise
        finally:
            page.close()
