"""The explorer's Voilà app in headless Chromium, shared by the size tests and the UI benchmark.

Starts Voilà as ``scripts/app.sh`` does (its config folder, a random token) on a
loopback port of the caller's choosing, launches Debian's chromium through
Playwright, opens the explorer and waits for its widgets.  Everything started
here is stopped by its process id when the ``with`` block ends.
"""
from __future__ import annotations

import contextlib
import functools
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from guyenne_explore.widgets.starts import STARTS

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "artifacts"


def missing() -> str | None:
    """Why the app cannot be driven in a browser here, or None."""
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


@contextlib.contextmanager
def voila_app(port: int, log: pathlib.Path, *extra: str, limit: float = 90.0,
              notebook: str | pathlib.Path = "notebooks/explorer.ipynb", warm_up: bool = False) -> Iterator[str]:
    """Serve ``notebook`` (the explorer unless a test gives its own; ``extra``: more Voilà options); yields the URL
    with its token.  ``warm_up``: each page loads the compiled code and plotly.js ahead of a first run as a user's
    does (``plot_view.warm_up_wanted``); off for tests, whose pages open by the dozen and mostly run nothing."""
    token = secrets.token_urlsafe(16)
    env = dict(os.environ)
    env["GUYENNE_WARM_UP"] = "1" if warm_up else "0"
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["GUYENNE_APP_TOKEN"] = token  # as app.sh gives it: never on a command line (config/voila.py reads it)
    # a server started for a whole module, before a test set its own folders, would keep games and read weights in
    # the user's: folders beside its log unless the caller set them
    for name, folder in (("GUYENNE_GAMES", "games"), ("GUYENNE_CACHE", "cache")):
        env.setdefault(name, str(log.parent / folder))
    config = ["--Voila.config_file_paths=config"] if (ROOT / "config").is_dir() else []
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", "--no-browser", *config, f"--port={port}", "--Voila.ip=127.0.0.1",
             "--Voila.port_retries=0", *extra, str(notebook)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}/"
        _wait(proc, base, log, limit)
        yield f"{base}?token={token}"
    finally:
        _stop(proc)


@contextlib.contextmanager
def jupyter_lab(port: int, log: pathlib.Path, limit: float = 90.0, root: pathlib.Path = ROOT,
                notebook: str = "notebooks/explorer.ipynb") -> Iterator[str]:
    """JupyterLab on ``root`` (the repository) as scripts/explorer.sh starts it; yields ``notebook``'s URL.

    A test that runs the notebook serves a copy in a temporary ``root``, so that Lab's
    autosave never writes outputs into the repository's notebook.
    """
    token = secrets.token_hex(16)
    env = dict(os.environ)
    env["GUYENNE_WARM_UP"] = "0"  # as voila_app's tests
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", "--allow-root",
             "--ServerApp.jpserver_extensions={'voila.server_extension': False, 'jupyter_lsp': False, "
             "'jupyter_server_terminals': False}",
             "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
             f"--LabApp.app_settings_dir={ROOT / 'config' / 'jupyterlab'}", f"--config={ROOT / 'config' / 'jupyter_lab.py'}"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait(proc, f"http://127.0.0.1:{port}/", log, limit)
        yield f"http://127.0.0.1:{port}/lab/tree/{notebook}?token={token}"
    finally:
        _stop(proc)


def _wait(proc: subprocess.Popen, base: str, log: pathlib.Path, limit: float) -> None:
    deadline = time.monotonic() + limit
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(base + "static/", timeout=2):
                return
        except urllib.error.HTTPError:  # any answer means the server is up
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"no answer on {base}:\n{log.read_text()[-3000:]}") from None
            time.sleep(0.5)


def _stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def open_in_lab(page: Any, url: str) -> None:
    """Open the notebook in JupyterLab and wait for its kernel to be idle (Run All does nothing before)."""
    page.goto(url)
    page.wait_for_selector("#jp-main-statusbar >> text=Idle", timeout=180_000)


def run_all(page: Any) -> None:
    """Run every cell of the open notebook and wait for the explorer."""
    page.keyboard.press("Escape")  # a popup, if any
    page.click('.lm-MenuBar-itemLabel:text("Run")')
    page.click('.lm-Menu-itemLabel:text("Run All Cells")')
    page.wait_for_selector('.guyenne-table svg g.castle[data-castle="5"]', timeout=180_000)
    page.wait_for_selector(".guyenne-analysis .guyenne-plot", state="attached")


#: the one Playwright of this process: a second one started beside it (a module's own browser beside the worker's
#: shared app, :func:`tests.conftest.browser_app`) is refused by Playwright's sync API
_PLAYWRIGHT: list[Any] = []


@contextlib.contextmanager
def playwright() -> Iterator[Any]:
    """This process's Playwright, started on first use and stopped when the process ends."""
    if not _PLAYWRIGHT:
        import atexit

        from playwright.sync_api import sync_playwright

        _PLAYWRIGHT.append(sync_playwright().start())
        atexit.register(_PLAYWRIGHT[0].stop)
    yield _PLAYWRIGHT[0]


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian chromium driven by Playwright."""
    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    with playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


LOADING_STATE = """() => [document.body ? document.body.innerText : '',
                           !!document.querySelector('.guyenne-table svg g.castle')]"""


def _leave_and_close(page: Any, close: Any, **kwargs: Any) -> None:
    try:
        page.goto("about:blank", timeout=10_000)
    except Exception:  # noqa: BLE001  a page already gone or stuck: closed all the same
        pass
    close(**kwargs)


def open_explorer(browser: Any, url: str, width: int, height: int) -> tuple[Any, float]:
    """A page of the app at ``width`` x ``height`` once its widgets are there; and the seconds that took."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(120_000)
    # closed as a person leaves the page for another address: its unload asks the server to shut the page's kernel
    # down (a closed tab's request is dropped by Chromium), and a worker's browser tests share one app, whose kernels
    # would otherwise stay until culled: 300 MB each
    page.close = functools.partial(_leave_and_close, page, page.close)
    start = time.monotonic()
    page.goto(url, wait_until="commit")
    # until the table shows, every text the page shows carries a sign of loading (Voilà's
    # "Running"/"Executing", or the notebook's "Loading the explorer...")
    page.texts_without_loading_sign = []
    while time.monotonic() - start < 180:
        try:
            text, ready = page.evaluate(LOADING_STATE)
        except Exception:  # noqa: BLE001  the document is being replaced
            text, ready = "", False
        if ready:
            break
        if text.strip() and not any(sign in text for sign in ("Running", "Executing", "Loading the explorer")):
            page.texts_without_loading_sign.append(text[:120])
        time.sleep(0.1)
    page.wait_for_selector('.guyenne-table svg g.castle[data-castle="5"]')
    page.wait_for_selector(".guyenne-analysis .guyenne-plot", state="attached")
    return page, time.monotonic() - start


#: JS: the text of every shown label, description or button of the explorer whose words are cut ("...")
TRUNCATED = """() => [...document.querySelectorAll(
    '.guyenne-explorer .widget-label, .guyenne-explorer .widget-label-basic, .guyenne-explorer button')]
  .filter((e) => e.getClientRects().length && e.getBoundingClientRect().width > 0
                 && e.scrollWidth > e.clientWidth + 1)
  .map((e) => `${e.textContent.trim().slice(0, 50)} (${e.scrollWidth} px of text in ${e.clientWidth} px)`)"""


#: JS: every shown field without a label that grew past the width its panel gave it (the builder's
#: 52 px card-count boxes, whose rows would break) -- what lets labelled fields grow must spare them
GROWN = """() => [...document.querySelectorAll('.guyenne-explorer .widget-inline-hbox')]
  .filter((e) => e.style.width.endsWith('px') && e.getBoundingClientRect().width > 0
                 && e.querySelector(':scope > .widget-label')?.style.display === 'none'
                 && e.getBoundingClientRect().width > parseFloat(e.style.width) + 1)
  .map((e) => `a field set to ${e.style.width} is ${Math.round(e.getBoundingClientRect().width)} px wide`)"""


def show_tab(page: Any, title: str) -> None:
    page.click(f'.guyenne-explorer .lm-TabBar-tab:has-text("{title}")')
    # a tab first shown builds its panel (the explorer's DEFERRED): "Opening this tab..." until it comes
    page.wait_for_function("() => ![...document.querySelectorAll('.guyenne-tab-pending')].some("
                           "(e) => e.getClientRects().length)")
    page.wait_for_timeout(300)  # the tab's layout settles


def start_from(page: Any, name: str, tab: str = "Builder") -> None:
    """Load a start of the builder's "start from" choice by its value (``a dealt opening``...): the explorer opens
    on the game before the deal, a chance point where nobody has moves yet.  ``tab``: the builder's title."""
    show_tab(page, tab)
    row = page.locator(".guyenne-builder .guyenne-start")
    row.locator("select").select_option(index=STARTS.index(name))
    page.wait_for_timeout(300)  # the choice reaches the kernel before the click does
    before = page.get_attribute(".guyenne-table-board", "data-notation")
    row.locator("button").first.click()
    if name != STARTS[0]:
        page.wait_for_function("(n) => document.querySelector('.guyenne-table-board')?.dataset.notation !== n", arg=before)


def run_analysis(page: Any, rule_sets: list[str], games: int, method: str = "sample") -> None:
    """Choose rule sets, method and games in the analysis panel (its tab shown), then press Run."""
    panel = page.locator(".guyenne-analysis")
    panel.get_by_label("Rule sets", exact=True).select_option(rule_sets)  # not the optimal section's "Exploit"
    box = panel.locator(".widget-inline-hbox", has_text="Games").locator("input")
    box.fill(str(games))  # before the method: exact hides the games box
    box.press("Enter")
    panel.locator(".widget-dropdown", has_text="Method").locator("select").select_option(method)
    page.wait_for_timeout(300)  # the values reach the kernel before the click does
    panel.locator("button", has_text="Run analysis").click()


#: Records, in the page, when a run's figures are all drawn, when its bar fills and when its status
#: says Done (milliseconds after the call; the bar and the status count only once they have left
#: the previous run's state); read back with ``wait_for_marks``.
WATCH = """([panelSelector, statusPrefix]) => {
  const panel = document.querySelector(panelSelector);
  const plots = () => [...panel.querySelectorAll('.guyenne-plot')].filter(p => p.offsetParent !== null);
  const before = new Map(plots().map(p => [p, p.dataset.revision || '0']));
  const t0 = performance.now();
  const marks = window.__e1 = {};
  let barReset = false, statusReset = false;
  const tick = () => {
    const now = performance.now() - t0;
    const bar = panel.querySelector('.progress-bar');
    const full = bar && bar.getBoundingClientRect().width >= bar.parentElement.getBoundingClientRect().width - 1;
    if (bar && !full) barReset = true;
    if (marks.bar === undefined && barReset && full) marks.bar = now;
    const shown = plots();
    if (marks.figures === undefined && shown.length && shown.every(p => p.dataset.revision
        && p.dataset.revision !== before.get(p) && p.querySelector('.main-svg'))) marks.figures = now;
    const said = [...panel.querySelectorAll('.widget-html-content')].some(e => e.textContent.startsWith(statusPrefix));
    if (!said) statusReset = true;
    if (marks.done === undefined && statusReset && said) marks.done = now;
    if (marks.figures === undefined || marks.done === undefined) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def wait_for_marks(page: Any, limit_ms: float = 300_000) -> dict[str, float]:
    page.wait_for_function("window.__e1 && window.__e1.figures !== undefined && window.__e1.done !== undefined",
                           timeout=limit_ms)
    return page.evaluate("window.__e1")


def require() -> None:
    """Skip with the reason when Playwright, Voilà or chromium is missing; fail instead where the browser tests
    must run (CI sets GUYENNE_REQUIRE_BROWSER=1)."""
    reason = missing()
    if reason:
        if os.environ.get("GUYENNE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"the browser test must run here but {reason}")
        pytest.skip(reason)


def artifact(name: str) -> pathlib.Path:
    """Where a test saves a screenshot of what it checked (``artifacts/``, made when missing)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


def free_port(low: int, high: int) -> int:
    """A loopback port of ``low..high`` that no other test server holds."""
    for port in range(low, high + 1):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                return port
    pytest.skip(f"no free loopback port in {low}-{high}")


@contextlib.contextmanager
def served(port: int, log: pathlib.Path) -> Iterator[tuple[str, Any]]:
    """The app on ``port`` and a browser, for a module's tests (:func:`require` first): ``(url, browser)``."""
    require()
    with voila_app(port, log) as url, chromium() as browser:
        yield url, browser


def command_line(proc: Any) -> list[str]:
    """A process's command line (a ``psutil.Process``); none for one that has ended (a kernel killed by an earlier
    test and not yet reaped is a zombie, whose command line cannot be read)."""
    import psutil

    try:
        return proc.cmdline()
    except (psutil.ZombieProcess, psutil.NoSuchProcess):
        return []
