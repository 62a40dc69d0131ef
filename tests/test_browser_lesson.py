"""A lesson from a storyboard played through in the browser (headless Chromium on a small notebook served by Voilà):
an illegal move gets the engine's reason, a legal but different one is refused, the recorded ones play on to the
end, and each step told links its rulebook section.  Skipped with the reason when Playwright, Voilà or chromium are
missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure)."""

from __future__ import annotations

import nbformat
import pytest

from guyenne_explore.engine.position import Position
from guyenne_explore.engine.record import play_game
from guyenne_explore.render.storyboard import record_from_positions
from tests import browser_app as app

#: the lesson's storyboard: the first 12 positions of a seeded base game (a few decisions, a battle)
LESSON_CELL = """from guyenne_explore.engine.position import Position
from guyenne_explore.engine.record import play_game
from guyenne_explore.widgets.lesson_game import LessonGame

LessonGame(play_game(Position.start("base"), 1).positions()[:12])"""


def storyboard_positions() -> list[Position]:
    """The same positions in the test's own process (play_game is seeded: the kernel plays the same game)."""
    return play_game(Position.start("base"), 1).positions()[:12]


@pytest.fixture(scope="module")
def lesson_app(tmp_path_factory):
    app.require()
    folder = tmp_path_factory.mktemp("lesson")
    notebook = folder / "lesson.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(LESSON_CELL)]), notebook)
    with app.voila_app(app.free_port(8980, 8989), folder / "voila.log", notebook=notebook) as url, \
            app.chromium() as browser:
        yield url, browser


def _try(page, lesson, move: str) -> None:
    box = lesson.get_by_placeholder("the recorded move, e.g. 3:H52")
    box.fill(move)
    page.wait_for_timeout(200)  # the text reaches the kernel before the click does
    lesson.locator("button", has_text="Play").click()


def test_a_storyboard_is_played_through_as_a_lesson(lesson_app):
    url, browser = lesson_app
    record = record_from_positions(storyboard_positions())
    decisions = [i for i, e in enumerate(record.events) if e.move is not None]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(120_000)
    try:
        page.goto(url)
        lesson = page.locator(".guyenne-lesson")
        page.wait_for_selector(f'.guyenne-lesson :text("Step 1 of {len(decisions)}")', timeout=180_000)
        first = record.positions()[decisions[0]]
        _try(page, lesson, "1:HH")  # castles typed as the table numbers them
        illegal = lesson.locator(".guyenne-illegal")
        illegal.wait_for()
        assert "is not allowed" in illegal.inner_text() and first.why_illegal("0:HH") in illegal.inner_text()
        other = next(m for m in first.legal_moves if m != record.events[decisions[0]].move)
        _try(page, lesson, other.text(1))
        page.wait_for_function("() => document.querySelector('.guyenne-lesson .guyenne-illegal')"
                               "?.innerText.includes('try again')")
        for number, index in enumerate(decisions, start=1):
            _try(page, lesson, record.events[index].move.text(1))
            following = f"Step {number + 1} of {len(decisions)}" if number < len(decisions) else "The lesson is over"
            lesson.locator(f':text("{following}")').wait_for()
        steps = lesson.locator(".guyenne-lesson-steps li")
        assert steps.count() >= 1
        for k in range(steps.count()):
            link = steps.nth(k).locator("a.guyenne-rule")
            assert link.get_attribute("href") == f"#rulebook-{steps.nth(k).get_attribute('data-section')}"
        sections = {steps.nth(k).get_attribute("data-section") for k in range(steps.count())}
        assert {"placements", "battles", "drawing"} <= sections
        assert lesson.locator(".guyenne-illegal").count() == 0  # the right move cleared the refusal
    finally:
        page.close()
