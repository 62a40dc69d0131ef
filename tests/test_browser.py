"""End to end in a real browser: the Voilà app of notebooks/explorer.ipynb driven in headless Chromium.

The server is started as ``scripts/app.sh`` starts it (config/voila.py, a random
token): a visitor without the token gets the login page and no kernel.
With it, the test changes a castle by clicking the diagram, sees the diagram and
the legal-move count change, clicks a pile and finds its builder row on screen,
saves the position as a browser download, runs a small sampled analysis, sees
its plot, and saves screenshots to artifacts/ (the whole page, and the window at
1280x800).  Leaving the page shuts its kernel down; a visit that never connects
is culled.  In JupyterLab too, a position comes in through the file picker and
the position goes out as a browser download.  Skipped (with the reason) only when Playwright, Voilà or Debian's
chromium are missing; CI installs them and sets GUYENNE_REQUIRE_BROWSER=1, which
turns the skip into a failure.
"""
import json
import os
import pathlib
import re
import shutil
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

from tests import browser_app as app
from tests.browser_app import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, missing

ROOT = pathlib.Path(__file__).resolve().parent.parent
PORT = 8871
URL = f"http://127.0.0.1:{PORT}/"
#: The builder's position upload, found by its button's words: "Open session" is another upload beside it.
POSITION_UPLOAD = '.guyenne-upload:has(.guyenne-upload-button:text-is("Upload position (JSON or notation)")) input[type=file]'


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("GUYENNE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the browser test must run here but {reason}")
    pytest.skip(reason)


@contextmanager
def voila_app(log: pathlib.Path, *extra: str, warm_up: bool = False):
    """The app as scripts/app.sh serves it (the shared starter; ``warm_up``: see there); yields its token.  A server
    that exits or never answers fails the test with the end of its log."""
    try:
        with app.voila_app(PORT, log, *extra, warm_up=warm_up) as url:
            yield url.rsplit("token=", 1)[1]
    except RuntimeError as exc:
        pytest.fail(str(exc))


def _status(url: str) -> tuple[int, str]:
    """HTTP status and body of a GET that does not follow redirects."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *_args, **_kwargs):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(url, timeout=120) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _kernel_id(page_html: str) -> str:
    found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page_html)
    assert found, "no kernel id in the page"
    return found.group(1)


def _wait_until_gone(kernel: str, token: str, limit: float = 60.0) -> bool:
    """Whether the server forgets the kernel (404) within ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if _status(f"{URL}api/kernels/{kernel}?token={token}")[0] == 404:
            return True
        time.sleep(1)
    return False


def _count(page) -> int:
    return int(page.get_attribute(".guyenne-move-count", "data-count"))


def test_explorer_app_in_chromium(tmp_path):
    reason = missing()
    if reason:
        _skip_or_fail(reason)

    with voila_app(tmp_path / "voila.log", warm_up=True) as token:  # the page's warm-up as a user's
        # no token: the login page, no kernel started, no widgets; and no server file is served
        code, body = _status(URL)
        assert code == 302 or (code in (401, 403)), code
        code, body = _status(URL + "login")
        assert code == 200 and "password" in body.lower() and "kernelId" not in body
        assert _status(URL + "voila/files/artifacts/explorer.png")[0] == 403
        assert _status(f"{URL}?token=wrong{token}")[0] in (302, 401, 403)

        executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        with app.playwright() as pw:
            browser = pw.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
            stranger = browser.new_page()
            stranger.goto(URL)
            assert "/login" in stranger.url and stranger.locator(".guyenne-table").count() == 0
            stranger.close()

            context = browser.new_context(viewport={"width": 1500, "height": 1100}, accept_downloads=True)
            page = context.new_page()
            try:
                page.set_default_timeout(120_000)
                page.goto(f"{URL}?token={token}")
                page.wait_for_selector('.guyenne-table svg g.castle[data-castle="5"]')
                app.start_from(page, "a dealt opening")  # it opens before the deal: no moves yet
                # the moves come in their own message, after the table's
                page.wait_for_function("() => Number(document.querySelector('.guyenne-move-count')?.dataset.count) > 0")
                kernel = _kernel_id(page.content())
                opening = _count(page)
                assert opening > 0
                assert page.get_attribute('g.castle[data-castle="0"]', "data-control") == "neutral"

                # castles to the English, one click each: the diagram follows every click...
                for i in range(5):
                    page.click(f'.guyenne-table g.castle[data-castle="{i}"]')
                    page.wait_for_selector(f'.guyenne-table g.castle[data-castle="{i}"][data-control="english"]',
                                           state="attached")
                assert _count(page) == opening
                # ...until the sixth makes the game over: no legal move, the position as built drawn (not dimmed)
                # with the reason under it
                page.click('.guyenne-table g.castle[data-castle="5"]')
                page.wait_for_selector('.guyenne-move-count[data-count="0"]', state="attached")
                page.wait_for_selector(".guyenne-table.guyenne-table-draft")
                assert page.get_attribute('.guyenne-table g.castle[data-castle="5"]', "data-control") == "english"
                assert "the English control every castle" in page.inner_text(".guyenne-table-note")

                # one castle on to the French: a game again, with the opening's moves
                page.click('.guyenne-table g.castle[data-castle="0"]')
                page.wait_for_selector('.guyenne-table g.castle[data-castle="0"][data-control="french"]',
                                       state="attached")
                page.wait_for_selector(f'.guyenne-move-count[data-count="{opening}"]', state="attached")
                assert "FEEEEE" in page.get_attribute(".guyenne-table-board", "data-notation")

                # a click on the French deck opens the builder at its row, scrolled into the window
                page.click('.lm-TabBar-tab:has-text("Analysis")')
                page.click('.guyenne-table g.stack[data-side="french"][data-zone="deck"]')
                row = page.locator(".guyenne-focus")
                row.wait_for()
                page.wait_for_function("""() => { const r = document.querySelector('.guyenne-focus')
                                          .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }""")

                # saving is a browser download of the position's JSON
                with page.expect_download() as info:
                    page.click('button:has-text("Download JSON")')
                download = info.value
                assert download.suggested_filename == "position.json"
                saved = json.loads(pathlib.Path(download.path()).read_text())
                assert saved["castles"] == ["french", "english", "english", "english", "english", "english"]

                # a position comes in by upload from the visitor's machine; a file over the limit never leaves it
                saved["castles"][5] = "neutral"
                picker = page.locator(POSITION_UPLOAD)
                picker.set_input_files(files=[{"name": "p.json", "mimeType": "application/json",
                                               "buffer": json.dumps(saved).encode()}])
                page.wait_for_selector('.guyenne-table g.castle[data-castle="5"][data-control="neutral"]',
                                       state="attached")
                page.wait_for_selector('.guyenne-upload-message:has-text("loaded p.json")')
                picker.set_input_files(files=[{"name": "big.json", "mimeType": "application/json",
                                               "buffer": b" " * 1_000_001}])
                page.wait_for_selector('.guyenne-upload-message:has-text("at most 1,000,000 bytes (1 MB) are accepted")')

                # a bad JSON load is refused beside its box; the header says so and the form keeps its position
                box = page.locator("textarea[placeholder^='position JSON']")
                box.fill('{"rules": {"preset": []}}')
                page.click('button:has-text("Load JSON")')
                page.wait_for_selector('.guyenne-problem:has-text("the JSON was not loaded")')
                # (the header is another widget: its new text may reach the page a moment after the problem's)
                page.wait_for_selector('.guyenne-builder-summary:has-text("refused")')
                assert box.input_value() == '{"rules": {"preset": []}}'
                assert "FEEEE." in page.get_attribute(".guyenne-table-board", "data-notation")
                page.set_viewport_size({"width": 1280, "height": 800})
                box.scroll_into_view_if_needed()
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer-refused-load-1280x800.png"))
                page.set_viewport_size({"width": 1500, "height": 1100})

                # a small sampled analysis of that position
                page.click('.lm-TabBar-tab:has-text("Analysis")')
                panel = page.locator(".guyenne-analysis")
                games = panel.get_by_label(re.compile("games", re.I)).first
                games.fill("20")
                games.press("Enter")
                method = panel.locator(".widget-dropdown select", has=page.locator("option", has_text="sample"))
                if method.count():
                    method.first.select_option(label=method.first.locator("option", has_text="sample")
                                               .first.inner_text())
                else:
                    panel.locator(".widget-toggle-buttons button, .widget-radio-box label",
                                  has_text="sample").first.click()
                panel.locator("button", has_text="Run analysis").click()
                panel.locator(".js-plotly-plot").first.wait_for()
                with page.expect_download() as info:  # results exported as a browser download
                    panel.get_by_role("button", name="JSON", exact=True).click()
                result = json.loads(pathlib.Path(info.value.path()).read_text())
                assert info.value.suggested_filename.endswith(".json") and result["games"] == 20

                # an exact request out of reach is refused with its estimate, beside a "force exact" option
                method = panel.locator(".widget-dropdown select", has=page.locator("option", has_text="exact")).first
                method.select_option(label="exact")
                force = panel.get_by_label("force exact (no size limit)")
                force.wait_for()
                panel.locator("button", has_text="Run analysis").click()
                panel.locator("text=Tick").wait_for()
                assert "out of reach" in panel.inner_text() and not force.is_checked()
                page.set_viewport_size({"width": 1280, "height": 800})
                force.scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / "analysis-force-exact-1280x800.png"))
                page.set_viewport_size({"width": 1500, "height": 1100})

                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer.png"), full_page=True)
                page.set_viewport_size({"width": 1280, "height": 800})
                page.click('.lm-TabBar-tab:has-text("Builder")')
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(ARTIFACTS / "explorer-1280x800.png"))
            except Exception:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer-failure.png"), full_page=True)
                raise
            # leaving the page shuts its kernel down (Voilà's beforeunload beacon); a closed tab is not tested:
            # Chromium drops that beacon as a tab closes, and its kernel waits for the culling (README)
            assert _status(f"{URL}api/kernels/{kernel}?token={token}")[0] == 200
            page.goto("about:blank")
            assert _wait_until_gone(kernel, token), "the kernel of a page left is still running"
            browser.close()
    assert (ARTIFACTS / "explorer.png").stat().st_size > 10_000


def test_a_visit_that_never_connects_is_culled(tmp_path):
    """The culling of config/voila.py, with its timeout shortened: a kernel nobody connects to goes away."""
    reason = missing()
    if reason:
        _skip_or_fail(reason)
    short = ["--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1"]
    with voila_app(tmp_path / "voila.log", *short) as token:
        code, body = _status(f"{URL}?token={token}")  # the page is rendered, its kernel started
        assert code == 200
        kernel = _kernel_id(body)
        assert _wait_until_gone(kernel, token, limit=90), "an idle kernel without a connection was not culled"
    assert "Culling kernels with idle durations > 3 seconds" in (tmp_path / "voila.log").read_text()


def _port_free(port: int) -> bool:
    import socket
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_the_app_switches_to_french(tmp_path, monkeypatch):
    """The English / Français switch at the top of the explorer relabels the panels, the move list and the table."""
    reason = missing()
    if reason:
        _skip_or_fail(reason)

    # its own server beside the other tests': 8873, or the next free port when another server took it
    port = next((p for p in (8873, 8875, 8876, 8877, 8878, 8879) if _port_free(p)), 8873)
    monkeypatch.setattr(sys.modules[__name__], "PORT", port)
    monkeypatch.setattr(sys.modules[__name__], "URL", f"http://127.0.0.1:{port}/")
    with voila_app(tmp_path / "voila.log") as token:
        executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        with app.playwright() as pw:
            browser = pw.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            try:
                page.set_default_timeout(120_000)
                page.goto(f"{URL}?token={token}")
                page.wait_for_selector('.guyenne-table svg g.castle[data-castle="5"]')
                app.start_from(page, "a dealt opening")  # it opens before the deal: no moves yet
                assert page.locator('.lm-TabBar-tab:has-text("Variant lab")').count() == 1
                page.click('.guyenne-language button:has-text("Français")')
                page.wait_for_selector('.lm-TabBar-tab:has-text("Variantes")')
                page.wait_for_selector('.guyenne-move-count:has-text("coups légaux pour les Anglais")')
                page.wait_for_selector('.guyenne-table svg text:has-text("pioche")', state="attached")
                assert page.locator('button:has-text("Télécharger le schéma")').count() == 1
                assert page.locator('h4:has-text("Coups légaux")').count() == 1
                assert page.locator('.guyenne-table svg text:has-text("deck")').count() == 0
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer-fr.png"))
                page.click('.guyenne-language button:has-text("English")')
                page.wait_for_selector('.lm-TabBar-tab:has-text("Variant lab")')
                page.wait_for_selector('.guyenne-move-count:has-text("legal moves for the English")')
            except Exception:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer-fr-failure.png"), full_page=True)
                raise
            browser.close()



LAB_PORT = 8874


def test_upload_and_download_in_jupyterlab(tmp_path):
    """The explorer notebook run in JupyterLab at 1280x800 with its side bar open, where the notebook is narrower than
    the window: a note says it loads until the cells run, no control lies outside its panel, a position comes in by
    the file picker and JSON goes out as a download.

    Lab serves a copy of the notebook in a temporary folder (its autosave never touches the repository's).
    """
    from tests.test_browser_sizes import OUTSIDE

    reason = missing()
    if reason:
        _skip_or_fail(reason)
    pytest.importorskip("jupyterlab")
    from tests import browser_app as app

    (tmp_path / "explorer.ipynb").write_bytes((ROOT / "notebooks" / "explorer.ipynb").read_bytes())
    data = json.loads((ROOT / "tests" / "positions" / "advanced-remove-choice.json").read_text())
    with app.jupyter_lab(LAB_PORT, tmp_path / "lab.log", root=tmp_path, notebook="explorer.ipynb") as url, \
            app.chromium() as browser:
        page = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True).new_page()
        try:
            page.set_default_timeout(90_000)
            app.open_in_lab(page, url)
            assert page.locator(".guyenne-loading").first.is_visible()  # before the cells run: the note says so
            app.run_all(page)  # once the status bar says the kernel is idle
            assert page.locator(".guyenne-loading").first.is_hidden()
            ARTIFACTS.mkdir(exist_ok=True)
            for title, key in (("Builder", "builder"), ("Analysis", "analysis"), ("Variant lab", "variant-lab")):
                app.show_tab(page, title)
                assert page.evaluate(OUTSIDE) == [], f"{title} in JupyterLab"
                page.screenshot(path=str(ARTIFACTS / f"jupyterlab-1280x800-{key}.png"))
            app.show_tab(page, "Builder")
            opening = page.get_attribute(".guyenne-table-board", "data-notation")
            upload = page.locator(POSITION_UPLOAD)
            upload.set_input_files(files=[{"name": "mine.json", "mimeType": "application/json",
                                           "buffer": json.dumps(data).encode()}])
            page.wait_for_selector('.guyenne-upload-message:has-text("loaded mine.json")')
            assert page.get_attribute(".guyenne-table-board", "data-notation") != opening
            with page.expect_download() as info:
                page.click('button:has-text("Download JSON")')
            assert info.value.suggested_filename == "position.json"
            saved = json.loads(pathlib.Path(info.value.path()).read_text())
            from guyenne_explore.engine import Position

            assert Position.from_json(saved) == Position.from_json(data)
        except Exception:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "jupyterlab-failure.png"), full_page=True)
            raise
