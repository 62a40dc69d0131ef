"""Sessions and the export row's fields in a real browser (the Voilà app in headless Chromium).

Save session downloads one JSON file that Open session (an upload) brings back to the same table in a
fresh page, with the analysis' figures drawn again from the saved results; a bad file is refused beside
the button.  A 6,000-character caption or a PNG scale of 1e308 or nan is refused beside its box at once,
and the row then draws as usual (the kernel was never kept busy).  Screenshots of the session controls and
the export row in English and French at 1280x800 go to artifacts/.  Skipped with the reason when Playwright,
Voilà or chromium are missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""
import json
import pathlib


from tests import browser_app as app


def _page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url)
    page.wait_for_selector('.guyenne-table svg g.castle[data-castle="5"]')
    page.wait_for_selector(".guyenne-session .guyenne-upload-button")
    return page


def _notation(page) -> str:
    return page.get_attribute(".guyenne-table-board", "data-notation")


def _switch(page, label: str, tab: str) -> None:
    """Switch the language and wait until the tabs and the table's diagram show it."""
    page.click(f'.guyenne-language button:has-text("{label}")')
    page.wait_for_selector(f'.guyenne-explorer .lm-TabBar-tab:has-text("{tab}")')
    side = "Français" if label == "Français" else "French"
    page.wait_for_selector(f'.guyenne-table svg g.side[data-side="french"] text:text-is("{side}")', state="attached")
    page.wait_for_timeout(500)


def _shot(page, locator, name: str) -> None:
    """The window at 1280x800 with ``locator`` in view, and the locator alone."""
    locator.scroll_into_view_if_needed()
    page.screenshot(path=str(app.ARTIFACTS / f"1280x800-{name}.png"))
    locator.screenshot(path=str(app.ARTIFACTS / f"1280x800-{name}-alone.png"))


def test_a_session_saved_in_the_page_reopens_in_a_fresh_page(browser_app, tmp_path):
    url, browser = browser_app
    app.ARTIFACTS.mkdir(exist_ok=True)
    page = _page(browser, url)
    try:
        page.click('button:has-text("Sample chance")')  # the deal, then the first listed move
        page.wait_for_selector(".guyenne-move", state="attached")
        move = page.get_attribute(".guyenne-move >> nth=0", "data-move")
        box = page.locator(".guyenne-explorer input[placeholder^='a move, e.g.']")
        box.fill(move)
        box.press("Enter")
        page.wait_for_selector(".guyenne-explorer :text('played')")
        played = _notation(page)
        page.click('.lm-TabBar-tab:has-text("Analysis")')  # a small analysis: its figures come back with the session
        panel = page.locator(".guyenne-analysis")
        games = panel.get_by_label("Games").first
        games.fill("20")
        games.press("Enter")
        panel.locator(".widget-dropdown select", has=page.locator("option", has_text="sample")).first \
            .select_option(label="sample")
        panel.locator("button", has_text="Run analysis").click()
        panel.locator(".js-plotly-plot").first.wait_for()
        with page.expect_download() as info:
            page.click('.guyenne-session button:has-text("Save session")')
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
        data = json.loads(saved.read_text(encoding="utf-8"))
        assert data["kind"] == "guyenne-explore session" and len(data["history"]["moves"]) == 2
        assert data["tabs"]["analysis"]["results"]["runs"][0]["result"]["games"] == 20
        _shot(page, page.locator(".guyenne-session"), "en-session")
        _switch(page, "Français", "Variantes")
        _shot(page, page.locator(".guyenne-session"), "fr-session")
    finally:
        page.context.close()

    page = _page(browser, url)
    try:
        assert _notation(page) != played
        bad = tmp_path / "bad.json"
        bad.write_text("{not json", encoding="utf-8")
        chooser = page.locator(".guyenne-session input[type=file]")
        chooser.set_input_files(str(bad))
        message = page.locator(".guyenne-session .guyenne-upload-message")
        page.locator(".guyenne-session .guyenne-upload-message:has-text('bad.json was not opened')").wait_for()
        assert "not JSON" in message.inner_text() and _notation(page) != played
        chooser.set_input_files(str(saved))
        page.locator(f".guyenne-session .guyenne-upload-message:has-text('opened {saved.name}')").wait_for()
        page.wait_for_function(f"() => document.querySelector('.guyenne-table-board').dataset.notation === {played!r}")
        assert page.locator(".guyenne-explorer :text('step 3 / 3')").count() == 1
        page.click('.lm-TabBar-tab:has-text("Analysis")')  # its figures drawn again from the saved results
        page.locator(".guyenne-analysis .js-plotly-plot").first.wait_for()
        assert "run again" not in page.locator(".guyenne-session").inner_text()
        _shot(page, page.locator(".guyenne-session"), "en-session-opened")
    finally:
        page.context.close()


def test_hostile_caption_and_scale_are_refused_beside_their_boxes(browser_app, tmp_path):
    url, browser = browser_app
    page = _page(browser, url)
    try:
        page.click("text=Export the diagram (SVG, PNG, PDF)")
        row = page.locator(".guyenne-diagram-export")
        caption = row.locator('input[placeholder^="caption written"]')
        caption.fill("x" * 6000)
        caption.press("Tab")
        row.locator(":text('at most 240 fit above the table')").wait_for()
        scale = row.locator(".guyenne-field-message").last
        box = row.locator("input[type=text]").last
        for typed in ("1e308", "nan"):
            box.fill(typed)
            box.press("Enter")
            row.locator(f":text(\"not '{typed}'\")").wait_for()
        _shot(page, row, "en-export-row-refusals")
        _switch(page, "Français", "Variantes")
        _shot(page, row, "fr-export-row-refusals")
        _switch(page, "English", "Variant lab")
        caption.fill("A caption from the page")
        caption.press("Tab")
        page.wait_for_selector(".guyenne-diagram-export :text('at most 240')", state="detached")
        box.fill("1")
        box.press("Enter")
        page.wait_for_function("(el) => !el.innerText.trim()", arg=scale.element_handle())
        with page.expect_download() as info:  # the kernel answers at once: the row draws as usual
            page.click('button:has-text("Download diagram")')
        png = pathlib.Path(info.value.path()).read_bytes()
        assert png[:4] == b"\x89PNG"
        _shot(page, row, "en-export-row")
        _switch(page, "Français", "Variantes")
        _shot(page, row, "fr-export-row")
    finally:
        page.context.close()


def test_the_analysis_export_row_downloads_the_one_file_report(browser_app):
    url, browser = browser_app
    page = _page(browser, url)
    try:
        page.click('.lm-TabBar-tab:has-text("Analysis")')
        panel = page.locator(".guyenne-analysis")
        games = panel.get_by_label("Games").first
        games.fill("20")
        games.press("Enter")
        seed = panel.get_by_label("Seed").first
        seed.fill("4")
        seed.press("Enter")
        panel.locator(".widget-dropdown select", has=page.locator("option", has_text="sample")).first \
            .select_option(label="sample")
        panel.locator("button", has_text="Run analysis").click()
        panel.locator(".js-plotly-plot").first.wait_for()
        report = panel.get_by_role("button", name="Report (HTML)")
        page.wait_for_function("(b) => !b.disabled", arg=report.element_handle())
        with page.expect_download() as info:
            report.click()
        assert info.value.suggested_filename == "guyenne-analysis-report.html"
        html = pathlib.Path(info.value.path()).read_text(encoding="utf-8")
        assert "20 sampled games, seed 4" in html and html.count("Plotly.newPlot") == 4 and "<svg" in html
        row = panel.locator(".widget-hbox:has(button:has-text('Report'))").last
        _shot(page, row, "en-analysis-export-row")
        _switch(page, "Français", "Variantes")
        _shot(page, panel.locator(".widget-hbox:has(button:has-text('Rapport'))").last, "fr-analysis-export-row")
    except Exception:
        page.screenshot(path=str(app.artifact("session-report-failure.png")), full_page=True)
        raise
    finally:
        page.context.close()
