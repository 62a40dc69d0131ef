"""Building a position in a real browser (the Voilà app in headless Chromium): the first ten minutes.

A castle clicked on the table before the deal deals an opening to edit, a zone typed as cards makes the
position invalid while the table keeps drawing it (not dimmed, its problems under it), and "Rest to deck"
fills the deck with the rest of the side's cards so the position is valid again.  Skipped with the reason
when Playwright, Voilà or chromium are missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""


from tests import browser_app as app


def _notation(page) -> str:
    return page.get_attribute(".guyenne-table-board", "data-notation")


def _changed(page, before: str) -> None:
    page.wait_for_function("(b) => document.querySelector('.guyenne-table-board').dataset.notation !== b", arg=before)


def test_rest_to_deck_fills_the_deck_typed_zones_and_the_table_follows(browser_app):
    url, browser = browser_app
    app.ARTIFACTS.mkdir(exist_ok=True)
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        # before the deal: a castle click deals an opening to edit, castle 1 English (it made the position invalid)
        before = _notation(page)
        assert before.split(" ")[4] == "deal"
        page.click('.guyenne-table g.castle[data-castle="0"]')
        page.wait_for_function("() => document.querySelector('.guyenne-table-board').dataset.notation"
                               ".split(' ')[1].startsWith('E')")  # the deal drawn first, then the castle
        dealt = _notation(page)
        assert dealt.split(" ")[4] == "open_first"
        page.wait_for_selector(".guyenne-builder .guyenne-start:has-text('dealt an opening (seed 1) to edit')")

        # the English discard typed as cards: four cards too many, the table draws them, undimmed
        discard = page.locator(".guyenne-builder .widget-hbox:has(b:text-is('discard'))").first
        box = discard.locator(".guyenne-typed-cards input")
        box.fill("5432")
        box.press("Enter")
        _changed(page, dealt)
        assert "/5432/" in _notation(page)
        page.wait_for_selector(".guyenne-table.guyenne-table-draft")
        assert "not a valid position" in page.inner_text(".guyenne-table-note")
        opacity = page.eval_on_selector(".guyenne-table-board", "(b) => getComputedStyle(b).opacity")
        assert opacity == "1"
        page.wait_for_selector('.guyenne-builder .guyenne-total[data-ok="false"]')

        # Rest to deck: the English deck is the rest of their cards, the position valid again
        drawn = _notation(page)
        page.locator(".guyenne-builder button:has-text('Rest to deck')").first.click()
        _changed(page, drawn)
        page.wait_for_selector('.guyenne-builder .guyenne-total[data-ok="false"]', state="detached")
        page.wait_for_selector(".guyenne-table.guyenne-table-draft", state="detached")
        assert page.inner_text(".guyenne-table-note").strip() == ""
        english = _notation(page).split(" ")[5].split("/")
        assert english[2] == "5432" and len(english[0]) + len(english[1]) + 4 == 22
        page.wait_for_selector(".guyenne-builder .guyenne-builder-summary:has-text('valid position')")
        page.screenshot(path=str(app.ARTIFACTS / "1280x800-builder-rest-to-deck.png"))
    except Exception:
        page.screenshot(path=str(app.ARTIFACTS / "builder-rest-to-deck-failure.png"), full_page=True)
        raise
    finally:
        page.close()
