"""Safe under any input, in the Voilà app in headless Chromium: no server path from a page, Cancel that says so.

Typed into the skill levels tab's level box, ``strong@/etc/hostname`` is refused beside the field in words
that name the session's weights, and nothing of the server's file (its path, its first bytes parsed) comes
back.  Cancel on a skill levels run says, in the status line, that it was cancelled.  The app's token is on no
process's command line (``ps`` shows those to every user), and the kernels do not inherit it.  Skipped with the reason
when Playwright, Voilà or chromium are missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""

import urllib.parse

import psutil

from tests import browser_app as app


def _skill_tab(browser, url):
    page, _ = app.open_explorer(browser, url, 1280, 800)
    app.show_tab(page, "Skill levels")
    return page, page.locator(".guyenne-skill-levels")


def test_a_level_box_refuses_a_server_path_beside_the_field(browser_app):
    url, browser = browser_app
    page, skill = _skill_tab(browser, url)
    try:
        skill.locator(".guyenne-style").get_by_text("the levels ticked above").click()  # typed, not followed
        levels = skill.locator(".guyenne-style .widget-text", has_text="Levels").locator("input")
        levels.fill("uniform,strong@/etc/hostname")
        levels.press("Enter")
        message = skill.locator(".guyenne-style .guyenne-field-message", has_text="takes the name of weights trained "
                                                                                 "or uploaded in this session")
        message.wait_for(timeout=30_000)
        said = message.inner_text()
        assert "strong@NAME" in said and "Upload weights" in said
        shown = skill.inner_text()
        assert "/etc/hostname" not in said and "Expecting value" not in shown and "unexpected error" not in shown
        # the button is disabled by its own widget's message, which may arrive after the field's (a race seen
        # once in CI): waited for, not read at once
        from playwright.sync_api import expect

        expect(skill.locator("button", has_text="Compare how they play")).to_be_disabled(timeout=30_000)
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "level-box-refuses-a-path-1280x800.png"))
    finally:
        page.close()


def test_cancel_says_the_skill_levels_run_was_cancelled(browser_app):
    url, browser = browser_app
    page, skill = _skill_tab(browser, url)
    try:
        skill.get_by_text("search (built on strong)").click()  # compiled levels only: they stop between two games
        games = skill.locator(".widget-inline-hbox", has_text="Games").locator("input").first
        games.fill("10000000")
        games.press("Enter")
        skill.get_by_text("run anyway (past the time limit)").click()  # ten million games: past the time limit
        page.wait_for_timeout(300)  # the values reach the kernel before the click does
        skill.locator("button", has_text="Run skill levels").click()
        page.wait_for_function("""() => [...document.querySelectorAll('.guyenne-skill-levels .widget-label')]
            .some((d) => /^[1-9][0-9,]*\\/[0-9,]+ games$/.test(d.textContent.trim()))""", timeout=120_000)
        skill.locator("button", has_text="Cancel").first.click()
        skill.locator("text=Cancelled: no run has finished yet").wait_for(timeout=30_000)
    finally:
        page.close()


def test_the_token_is_in_no_command_line_and_not_passed_on_to_kernels(browser_app):
    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, 1280, 800)  # a page: its kernel runs
    try:
        token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["token"][0]
        processes = psutil.Process().children(recursive=True)
        kernels = [p for p in processes if "ipykernel" in " ".join(app.command_line(p))]
        assert kernels, "no kernel found among the server's processes"
        for proc in processes:
            assert token not in " ".join(app.command_line(proc)), f"the token shows in the command line of {proc.name()}"
        for kernel in kernels:  # (Voilà gives a kernel its page's address, QUERY_STRING: the visitor's own)
            assert "GUYENNE_APP_TOKEN" not in kernel.environ()
    finally:
        page.close()
