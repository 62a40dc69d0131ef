"""The explorer in JupyterLab (headless Chromium), where the notebook is narrower than the window.

Its own module: the Voilà tests of test_browser_sizes.py hold the same port and
browser until their module ends.  Skipped with the reason when Playwright,
JupyterLab or chromium are missing.
"""
import pytest

from tests import browser_app as app
from tests.test_browser_sizes import OUTSIDE, PORT


def test_the_explorer_fits_jupyterlabs_notebook_width(tmp_path):
    """JupyterLab at 1280x800 with its side bar open: the notebook is narrower than the window."""
    reason = app.missing()
    if reason:
        pytest.skip(reason)
    app.ARTIFACTS.mkdir(exist_ok=True)
    with app.jupyter_lab(PORT, tmp_path / "lab.log") as url, app.chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(120_000)
        try:
            app.open_in_lab(page, url)
            assert page.locator(".guyenne-loading").first.is_visible()  # before the cells run: the note says so
            app.run_all(page)
            assert page.locator(".guyenne-loading").first.is_hidden()
            for title, key in (("Builder", "builder"), ("Analysis", "analysis"), ("Variant lab", "variant-lab")):
                app.show_tab(page, title)
                assert page.evaluate(OUTSIDE) == [], f"{title} in JupyterLab"
                page.screenshot(path=str(app.ARTIFACTS / f"jupyterlab-1280x800-{key}.png"))
        except Exception:
            page.screenshot(path=str(app.ARTIFACTS / "jupyterlab-failure.png"))
            raise
        finally:
            page.close()
