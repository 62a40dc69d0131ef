"""The Rulebook tab in the Voilà app (headless Chromium): a preset's rulebook builds with its figures and an empty
diff, a download is offered by name, and the page names no folder of the server.  Skipped with the reason when
Playwright, Voilà or chromium are missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure)."""


from tests import browser_app as app


def test_the_rulebook_tab_builds_a_presets_rulebook_with_its_figures(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        app.show_tab(page, "Rulebook")
        panel = page.locator(".guyenne-rulebook")
        panel.locator("select").first.select_option(label="classic2021")
        page.wait_for_timeout(300)  # the choice reaches the kernel before the click does
        panel.locator("button", has_text="Build the rulebook").click()
        page.wait_for_selector(".guyenne-rulebook-page figure svg", timeout=60_000)
        assert "Every example holds as under classic2021" in panel.locator(".guyenne-rulebook-diff").inner_text()
        assert page.locator(".guyenne-rulebook-page section[data-section]").count() == 9
        assert page.locator(".guyenne-rulebook-page figure svg").count() >= 10
        # its prose in lines of a book's length (the tab is 1,200 px wide here), its figures within them
        book = page.locator(".guyenne-rulebook-page").bounding_box()
        figure = page.locator(".guyenne-rulebook-page figure svg").first.bounding_box()
        assert 600 < book["width"] < 900 and figure["x"] + figure["width"] <= book["x"] + book["width"] + 1
        text = panel.inner_text()
        assert "/tmp" not in text and "/work" not in text
        panel.locator("button", has_text="HTML").click()
        page.wait_for_function("() => document.querySelector('.guyenne-rulebook').innerText.includes('guyenne-rulebook.html')")
    finally:
        page.close()
