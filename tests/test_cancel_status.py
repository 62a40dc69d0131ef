"""After Cancel the status line says the run was cancelled, in the page's language, however fast the run stops.

A run that stops at once (its games check Cancel between two games, in thousandths of a second) wrote its
"Cancelled: ..." from its own thread before Cancel's handler wrote "Cancelling...", which then stayed: the
depth, How they play and skill level sections stopped within half a second and never said so.  Here the run
is made to stop entirely while Cancel's request is being made (the worst timing the page can meet).
"""

import threading
import time

import pytest

from guyenne_explore.i18n import set_language
from guyenne_explore.widgets.run_controls import RunControls
from guyenne_explore.widgets.balance_panel import BalancePanel
from guyenne_explore.widgets.skill_panel import SkillPanel
from guyenne_explore.widgets.starts import before_deal

CANCELLED = {"en": "Cancelled: ", "fr": "Annulé"}


class StopsAtOnce(RunControls):
    """Run controls whose run ends, status written, as soon as it is asked to stop (before the request returns)."""

    @property
    def cancelled(self) -> bool:
        return self._asked

    @cancelled.setter
    def cancelled(self, value: bool) -> None:
        self._asked = value
        if value and self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(60)


def stopping_at_once(controls: RunControls) -> RunControls:
    asked = vars(controls).pop("cancelled")
    controls.__class__ = StopsAtOnce
    controls._asked = asked
    return controls


def cancel_under_way(controls: RunControls, start) -> str:
    """Start a run, press Cancel once its games are counted, and give the status line once the run has ended."""
    stopping_at_once(controls)
    start()
    deadline = time.monotonic() + 120
    while controls.progress.value == 0 and controls.running and time.monotonic() < deadline:
        time.sleep(0.02)
    assert controls.running, "the run ended before Cancel could be pressed: give it more games"
    controls.cancel_button.click()
    controls.thread.join(60)
    return controls.status.value


@pytest.fixture(params=["en", "fr"])
def lang(request):
    set_language(request.param)
    yield request.param
    set_language(None)


def test_how_they_play_says_it_was_cancelled(lang):
    section = SkillPanel(before_deal("advanced")).how_they_play
    section.levels_text.value, section.games.value = "uniform,heuristic", 1_000_000
    section.run_anyway.value = True  # past the time limit: confirmed, or it is refused before it starts
    assert CANCELLED[lang] in cancel_under_way(section.controls, lambda: section.run(block=False))


def test_skill_levels_say_they_were_cancelled(lang):
    panel = SkillPanel(before_deal("advanced"))
    panel.search.value, panel.games.value = False, 10_000_000
    panel.run_anyway.value = True  # past the time limit: confirmed, or it is refused before it starts
    assert CANCELLED[lang] in cancel_under_way(panel.controls, lambda: panel.run(block=False))


def test_the_depth_section_says_it_was_cancelled(lang):
    panel = BalancePanel(before_deal("advanced"))
    panel.ladder.value, panel.depth_games.value = "uniform,heuristic", 1_000_000
    assert CANCELLED[lang] in cancel_under_way(panel.depth_controls, lambda: panel.run_depth(block=False))
