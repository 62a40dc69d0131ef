"""No wrong picture, in a real browser (the Voilà app in headless Chromium): a move played by a double click is
never previewed on the next position, a tab's figures hidden while the window was resized are full height
when the tab is shown again, and in French no menu of the Balance tab cuts a choice and the browser tab's title
is French.  Skipped with the reason when Playwright, Voilà or chromium are missing
(GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""


from tests import browser_app as app

#: JS: the heights of the analysis tab's drawn figures (each plotly's main svg)
FIGURE_HEIGHTS = """() => [...document.querySelectorAll('.guyenne-analysis .guyenne-plot .main-svg')]
  .filter((svg) => svg.closest('.guyenne-plot').offsetParent !== null)
  .map((svg) => Math.round(svg.getBoundingClientRect().height))"""


def _notation(page) -> str:
    return page.get_attribute(".guyenne-table-board", "data-notation")


#: JS: every choice of a shown menu of the Balance tab that its menu would cut ("limite d'épuisements L" was), as
#: "text (its width in the room)": each option's text measured in the menu's own font against the menu's room
CUT_CHOICES = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.guyenne-balance select')].filter((s) => s.offsetParent !== null)
    .flatMap((s) => {
      const css = getComputedStyle(s);
      ctx.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
      return [...s.options].map((o) => o.text).filter((t) => ctx.measureText(t).width > room)
        .map((t) => `${t} (${Math.round(ctx.measureText(t).width)} px in ${Math.round(room)})`);
    });
}"""


def test_a_move_played_by_a_double_click_is_not_previewed_on_the_next_position(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        if page.locator('button:has-text("Sample chance"):not([disabled])').count():
            dealt = _notation(page)
            page.click('button:has-text("Sample chance")')  # the explorer opens before the deal
            page.wait_for_function("(b) => document.querySelector('.guyenne-table-board').dataset.notation !== b",
                                   arg=dealt)
        chip = page.locator(".guyenne-move").first
        chip.wait_for()
        before = _notation(page)
        chip.hover()
        page.wait_for_selector(".guyenne-table g.preview, .guyenne-table rect[stroke-dasharray]", state="attached")
        chip.click()  # a click selects: Python marks the chip
        page.wait_for_selector(".guyenne-move-selected")
        chip.dblclick()
        page.wait_for_function("(b) => document.querySelector('.guyenne-table-board').dataset.notation !== b",
                               arg=before)
        page.mouse.move(5, 5)  # away from the list: nothing hovered
        page.wait_for_timeout(1500)  # any late message from the double click has reached the kernel and come back
        assert page.locator(".guyenne-move-selected").count() == 0
        assert page.locator(".guyenne-table g.preview").count() == 0
    except Exception:
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "pictures-preview-failure.png"))
        raise
    finally:
        page.close()


def test_in_french_the_balance_menus_show_every_choice_whole_and_the_tab_title_follows(browser_app):
    """At 1280x800 in French the Balance tab's "vary" menu cut "limite d'épuisements L", and the browser tab's
    title stayed "explorer" (the notebook's name) whatever the language."""
    from guyenne_explore.i18n import gettext

    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        assert page.title() == "Guyenne explorer" and page.get_attribute("html", "lang") == "en"
        page.click('.guyenne-language button:has-text("Français")')
        page.wait_for_selector('.guyenne-explorer .lm-TabBar-tab:has-text("Variantes")')
        page.wait_for_function("(t) => document.title === t", arg=gettext("Guyenne explorer", "fr"))
        assert page.get_attribute("html", "lang") == "fr"
        assert page.locator("h1").first.inner_text() == "Explorateur de Guyenne"  # the page's heading too
        app.show_tab(page, "Équilibre")
        assert page.evaluate(CUT_CHOICES) == []
        page.click('.guyenne-language button:has-text("English")')
        page.wait_for_function("() => document.title === 'Guyenne explorer'")
        assert page.locator("h1").first.inner_text() == "Guyenne explorer"
    except Exception:
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "pictures-balance-menus-failure.png"))
        raise
    finally:
        page.close()


def test_figures_of_a_tab_hidden_while_the_window_was_resized_are_full_height_when_shown(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        app.show_tab(page, "Analysis")
        page.evaluate(app.WATCH, [".guyenne-analysis", "Done"])
        app.run_analysis(page, ["advanced"], games=60)
        app.wait_for_marks(page)
        drawn = page.evaluate(FIGURE_HEIGHTS)
        assert drawn and min(drawn) > 100
        app.show_tab(page, "Builder")
        page.set_viewport_size({"width": 1100, "height": 760})  # the analysis tab hidden meanwhile
        page.wait_for_timeout(500)
        app.show_tab(page, "Analysis")
        page.wait_for_timeout(500)  # the figures are fitted as the tab shows
        heights = page.evaluate(FIGURE_HEIGHTS)
        assert len(heights) == len(drawn) and min(heights) > 100, heights
    except Exception:
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "pictures-resize-failure.png"))
        raise
    finally:
        page.close()
