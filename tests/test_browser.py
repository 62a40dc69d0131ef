"""End to end in a real browser: the Voilà app of notebooks/explorer.ipynb driven in headless Chromium.

Changes a castle by clicking the diagram, sees the diagram and the legal-move
count change, runs a small sampled analysis, sees its plot, saves a screenshot
to artifacts/explorer.png.  Skipped (with the reason) only when Playwright,
Voilà or Debian's chromium are missing; CI installs them and sets
GUYENNE_REQUIRE_BROWSER=1, which turns the skip into a failure.
"""
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PORT = 8871
URL = f"http://127.0.0.1:{PORT}/"
ARTIFACTS = ROOT / "artifacts"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    try:
        import voila  # noqa: F401
    except ImportError:
        return "voila is not installed (pip install voila)"
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        return f"no chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("GUYENNE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the browser test must run here but {reason}")
    pytest.skip(reason)


def _wait_for_server(proc: subprocess.Popen, log: pathlib.Path, limit: float = 90.0) -> None:
    """Poll until Voilà answers (it fails the test if Voilà exits or never answers)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"voila exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(URL + "static/", timeout=2):
                return
        except urllib.error.HTTPError:  # any answer means the server is up
            return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"voila did not answer on {URL}:\n{log.read_text()[-3000:]}")


def _count(page) -> int:
    return int(page.get_attribute(".guyenne-move-count", "data-count"))


def test_explorer_app_in_chromium(tmp_path):
    reason = _missing()
    if reason:
        _skip_or_fail(reason)
    from playwright.sync_api import sync_playwright

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    log = tmp_path / "voila.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", "--no-browser", f"--port={PORT}", "--Voila.ip=127.0.0.1",
             "--Voila.open_browser=False", str(ROOT / "notebooks" / "explorer.ipynb")],
            cwd=ROOT / "notebooks", env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for_server(proc, log)
        executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            try:
                page.set_default_timeout(120_000)
                page.goto(URL)
                page.wait_for_selector('.guyenne-table svg g.castle[data-castle="5"]')
                opening = _count(page)
                assert opening > 0
                assert page.get_attribute('g.castle[data-castle="0"]', "data-control") == "neutral"

                # castles to the English, one click each: the diagram follows every click...
                for i in range(5):
                    page.click(f'.guyenne-table g.castle[data-castle="{i}"]')
                    page.wait_for_selector(f'.guyenne-table g.castle[data-castle="{i}"][data-control="english"]',
                                           state="attached")
                assert _count(page) == opening
                # ...until the sixth makes the game over: no legal move, the diagram dimmed with the reason
                page.click('.guyenne-table g.castle[data-castle="5"]')
                page.wait_for_selector('.guyenne-move-count[data-count="0"]', state="attached")
                page.wait_for_selector(".guyenne-table.guyenne-table-stale")
                assert "english controls every castle" in page.inner_text(".guyenne-table-note")

                # one castle on to the French: a game again, with the opening's moves
                page.click('.guyenne-table g.castle[data-castle="0"]')
                page.wait_for_selector('.guyenne-table g.castle[data-castle="0"][data-control="french"]',
                                       state="attached")
                page.wait_for_selector(f'.guyenne-move-count[data-count="{opening}"]', state="attached")
                assert "FEEEEE" in page.get_attribute(".guyenne-table-board", "data-notation")

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

                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer.png"), full_page=True)
            except Exception:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "explorer-failure.png"), full_page=True)
                raise
            finally:
                browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (ARTIFACTS / "explorer.png").stat().st_size > 10_000
