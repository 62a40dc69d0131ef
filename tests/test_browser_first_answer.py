"""A new user's first answer with nothing compiled yet (a fresh clone's numba cache, empty), in the Voilà app in
headless Chromium: the first question's Run is answered at once, and the answer says which path played its games
(the engine, while the fast simulator compiles: fewer games, and that the compiled games refine them).  The test
asserts what answered, never a time.  The background compiling is left off here
(``GUYENNE_COMPILE_IN_BACKGROUND=0``): minutes of CPU beside the rest of the suite, and the kernel would refine the
answer only once it ends; the panel's tests check the refining.  Skipped with the reason when Playwright, Voilà or
chromium are missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""

import pytest

from tests import browser_app as app


@pytest.fixture(scope="module")
def cold_app(tmp_path_factory):
    """The app whose kernels find an empty compile cache, as on a fresh clone before setup compiled anything."""
    cache = tmp_path_factory.mktemp("numba-cache")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("NUMBA_CACHE_DIR", str(cache))
        env.setenv("GUYENNE_COMPILE_IN_BACKGROUND", "0")
        with app.served(app.free_port(9050, 9059), tmp_path_factory.mktemp("voila") / "voila.log") as served:
            yield served, cache


def test_the_first_answer_with_a_cold_compile_cache_comes_from_the_engine_and_says_so(cold_app):
    (url, browser), cache = cold_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        page.click(".guyenne-question-fair")  # answered at once, by the engine first while nothing is compiled
        panel = page.locator(".guyenne-analysis")
        panel.locator(".guyenne-headline b").wait_for(state="visible", timeout=300_000)
        status = panel.get_by_text("The engine answered with").text_content()
        assert "advanced (" in status and "games, engine)" in status, status
        assert "while the fast simulator compiles in the background" in status, status
        assert not any(cache.rglob("*.nbi")), "nothing was compiled for the first answer"
        page.screenshot(path=str(app.artifact("first-answer-cold-1280x800.png")))
    except Exception:
        page.screenshot(path=str(app.artifact("first-answer-cold-failure.png")))
        raise
    finally:
        page.close()

