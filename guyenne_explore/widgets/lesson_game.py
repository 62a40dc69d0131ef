"""A lesson from a game record: the learner makes the recorded move at each step, and the step is explained.

Any game record (``play --record``, a bot's game, a person's) or a storyboard's history of
positions becomes a lesson: chance is played as recorded, and at each decision the learner
must find the move the game played.  An illegal move gets the engine's reason, a legal but
different one is refused with the point to look at again; the right one plays on, and what
happened is told in the storyboard's captions, each linked to its rulebook section
(:func:`~guyenne_explore.analysis.rule_section`).  Every try is counted per section in the
learner's :class:`~.trips.Trips`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ..analysis.puzzles import rule_section
from ..i18n import FIRST_CASTLE, current_language, point_name, side_noun
from ..i18n import gettext as _
from ..engine import Position
from ..engine import GameRecord
from ..engine import SIDES
from ..render.storyboard import frames_of, record_from_positions
from .guard import guarded
from .moves_panel import on_enter
from .table import Table
from .trips import Trips


def rule_link(section: str) -> str:
    """A link to a rulebook section, as the lesson shows it beside a step (its anchor: ``rulebook-SECTION``)."""
    label = _("rulebook: {section}").format(section=section)
    return (f'<a class="guyenne-rule" data-section="{html.escape(section)}" href="#rulebook-{html.escape(section)}">'
            f"{html.escape(label)}</a>")


class LessonGame(w.VBox):
    """Play a recorded game step by step; ``play(text)`` is the learner's try at the current step."""

    def __init__(self, record: GameRecord | Sequence[Position], trips: Trips | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("guyenne-lesson")
        self.record = record if isinstance(record, GameRecord) else record_from_positions(record)
        self.positions = self.record.positions()
        self.trips = trips if trips is not None else Trips()
        self.table = Table(show_hands=True)
        self.prompt = w.HTML()
        self.typed = w.Text(placeholder=_("the recorded move, e.g. 3:H52"), layout=w.Layout(width="220px"))
        self.play_button = w.Button(description=_("Play"), button_style="primary")
        self.explain = w.HTML()
        self.comments = w.HTML()
        shown = guarded(self.explain)
        self.play_button.on_click(shown(lambda _b: self.play(self.typed.value)))
        on_enter(self.typed, shown(lambda: self.play(self.typed.value)))
        self.children = [self.table, self.prompt, w.HBox([self.typed, self.play_button]), self.explain, self.comments]
        self.step = 0  # the index of the next event of the record
        self._told: list[str] = []
        self._frames_seen = 0
        self._advance()

    @property
    def done(self) -> bool:
        return self.step >= len(self.record.events)

    @property
    def section(self) -> str:
        """The rulebook section of the current step (its decision point)."""
        return rule_section(self.positions[self.step].to_play) if not self.done else rule_section("end")

    def play(self, text: str) -> bool:
        """The learner's try: True when it is the recorded move (then the lesson goes on)."""
        if self.done:
            return False
        p = self.positions[self.step]
        reason = p.why_illegal(text, FIRST_CASTLE) if text.strip() else _("type the move the game played, e.g. 3:H52")
        if reason is not None:
            self.trips.tried(False)
            self._say(_("{move} is not allowed: {reason}.").format(move=text, reason=reason))
            return False
        self.trips.tried(True)
        if p.parse_move(text, FIRST_CASTLE) != self.record.events[self.step].move:
            self._say(_("{move} is legal, but the game played another move at {point}: try again.").format(
                move=text, point=point_name(p.to_play)))
            return False
        self.explain.value = ""
        self.typed.value = ""
        self.step += 1
        self._advance()
        return True

    def _say(self, text: str) -> None:
        self.explain.value = f'<div class="guyenne-illegal" style="color:#9b1c1c">✗ {html.escape(text)}</div>'

    def _advance(self) -> None:
        """Play the recorded chance events up to the next decision, tell what happened, and show the step."""
        while not self.done and self.record.events[self.step].draw is not None:
            self.step += 1
        self._tell()
        if not self.done:
            self.trips.begin(self.section)
        self._show()

    def _tell(self) -> None:
        """The storyboard's captions of the events played so far that were not told yet, each with its section."""
        frames = frames_of(GameRecord(self.record.start, self.record.events[: self.step]), lang=current_language())
        for f in frames[self._frames_seen:]:
            self._told.append(f'<li data-section="{html.escape(rule_section(f.kind))}">{html.escape(f.caption)} '
                              f"{rule_link(rule_section(f.kind))}</li>")
        self._frames_seen = len(frames)

    def _show(self) -> None:
        p = self.positions[self.step]
        self.table.set_position(p)
        decisions = [i for i, e in enumerate(self.record.events) if e.move is not None]
        if self.done:
            self.prompt.value = _("<b>The lesson is over</b>: every recorded move played.")
        else:
            self.prompt.value = _("<b>Step {number} of {count}</b>: {side} at {point}, round {round}. "
                                  "Play the move the game played.").format(
                number=decisions.index(self.step) + 1, count=len(decisions),
                side=html.escape(side_noun(SIDES[p.side_to_play or 0], capital=True)),
                point=point_name(p.to_play), round=p.round) + " " + rule_link(self.section)
        self.comments.value = '<ol class="guyenne-lesson-steps">' + "".join(self._told[-8:]) + "</ol>"
