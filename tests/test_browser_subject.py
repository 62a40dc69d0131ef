"""What the panels analyse, in a real browser (the Voilà app in headless Chromium).

The explorer opens on the game before the deal and its analysis, variant lab and
skill levels say so; a dealt opening is named with its seed; figures of a previous
position are dimmed under a note; every column of the metrics table shows at
1280x800; after a language switch every figure of the variant lab is in French.
Skipped with the reason when Playwright, Voilà or chromium are missing
(GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""


from tests import browser_app as app


#: JS: the header cells of a panel's metrics table that lie (even partly) outside what its box shows
HIDDEN_COLUMNS = """(sel) => {
  const table = document.querySelector(sel + ' table.guyenne-metrics');
  const box = table.parentElement.getBoundingClientRect();
  return [...table.querySelectorAll('th')].filter((th) => {
    const r = th.getBoundingClientRect();
    return r.left < box.left - 1 || r.right > box.right + 1;
  }).map((th) => th.textContent);
}"""

#: JS: the texts of every figure shown in a panel, one string a figure
FIGURE_TEXTS = """(sel) => [...document.querySelectorAll(sel + ' .guyenne-plot')].filter((p) => p.offsetParent)
  .map((p) => [...p.querySelectorAll('.main-svg text')].map((t) => t.textContent).join(' | '))"""


def said(page, panel):
    return page.locator(f"{panel} .guyenne-subject").inner_text()


def test_the_panels_name_their_position_and_dim_a_previous_positions_figures(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        app.show_tab(page, "Analysis")
        assert "Position analysed: the game before the deal" in said(page, ".guyenne-analysis")
        page.evaluate(app.WATCH, [".guyenne-analysis", "Done"])
        app.run_analysis(page, ["advanced", "base", "team"], games=60)
        app.wait_for_marks(page)
        # every rule set's column in view at 1280 px, team included
        assert page.evaluate(HIDDEN_COLUMNS, ".guyenne-analysis") == []
        figures = page.locator(".guyenne-analysis .guyenne-figures")
        assert figures.evaluate("(e) => getComputedStyle(e).opacity") == "1"

        app.start_from(page, "a dealt opening")
        app.show_tab(page, "Analysis")
        assert "a dealt opening (seed 1): this one deal only" in said(page, ".guyenne-analysis")
        note = page.locator(".guyenne-analysis .guyenne-stale-note")
        assert note.is_visible() and "for the previous position (the game before the deal" in note.inner_text()
        assert float(figures.evaluate("(e) => getComputedStyle(e).opacity")) < 1
        for title, panel in (("Variant lab", ".guyenne-variant-lab"), ("Skill levels", ".guyenne-skill-levels")):
            app.show_tab(page, title)
            assert "a dealt opening (seed 1)" in said(page, panel), title
    except Exception:
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "subject-failure.png"))
        raise
    finally:
        page.close()


def test_every_figure_of_the_variant_lab_follows_a_language_switch(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        app.show_tab(page, "Variant lab")
        lab = page.locator(".guyenne-variant-lab")
        page.evaluate(app.WATCH, [".guyenne-variant-lab", "Compared"])
        lab.locator(".widget-dropdown", has_text="Method").locator("select").select_option("sample")
        page.wait_for_timeout(300)
        lab.locator("button", has_text="Compare with preset").click()
        app.wait_for_marks(page)
        english = page.evaluate(FIGURE_TEXTS, ".guyenne-variant-lab")
        assert len(english) == 4 and all("preset advanced" in t for t in english)
        page.click('.guyenne-language button:has-text("Français")')
        page.wait_for_function("""() => [...document.querySelectorAll('.guyenne-variant-lab .guyenne-plot')]
            .filter((p) => p.offsetParent).every((p) => p.dataset.revision === '2')""")
        french = page.evaluate(FIGURE_TEXTS, ".guyenne-variant-lab")
        assert len(french) == 4 and all("jeu de règles advanced" in t for t in french)
        assert not [t for t in french if "preset" in t or "games" in t or "English" in t]
        assert "Position analysée\u00a0: la partie avant la distribution" in said(page, ".guyenne-variant-lab")
    except Exception:
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "subject-french-failure.png"))
        raise
    finally:
        page.close()
