"""Puzzles for a learner: find the best move; a wrong one gets the reason in words, the solution a storyboard.

The position is shown as the mover sees it (an exact puzzle, an open-hand endgame, face up);
a try is judged by :func:`~guyenne_explore.analysis.judge`: an illegal move gets the engine's
reason, a legal but worse one by how much and what the best move achieves.  *Show the solution*
draws its line of play as a short storyboard.  Tries count in the learner's :class:`~.trips.Trips`
under the puzzle's rulebook section.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ..analysis.puzzles import Puzzle, PuzzleFinder, judge, rule_section
from ..i18n import current_language, point_name, side_noun
from ..i18n import gettext as _
from ..render.storyboard import storyboard
from ..engine import SIDES
from .guard import guarded
from .lesson_game import rule_link
from .moves_panel import on_enter
from .table import Table
from .trips import Trips


class PuzzleView(w.VBox):
    """One puzzle at a time of ``puzzles``; ``play(text)`` is the learner's try."""

    def __init__(self, puzzles: Sequence[Puzzle], trips: Trips | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not puzzles:
            raise ValueError(_("no puzzles to show"))
        self.puzzles = list(puzzles)
        self.trips = trips if trips is not None else Trips()
        self.finder = PuzzleFinder()
        self.table = Table(show_hands=False)
        self.prompt = w.HTML()
        self.typed = w.Text(placeholder=_("your move, e.g. 3:H52"), layout=w.Layout(width="220px"))
        self.try_button = w.Button(description=_("Try"), button_style="primary")
        self.solution_button = w.Button(description=_("Show the solution"))
        self.next_button = w.Button(description=_("Next puzzle"))
        self.explain = w.HTML()
        self.solution = w.HTML()
        shown = guarded(self.explain)
        self.try_button.on_click(shown(lambda _b: self.play(self.typed.value)))
        on_enter(self.typed, shown(lambda: self.play(self.typed.value)))
        self.solution_button.on_click(shown(lambda _b: self.show_solution()))
        self.next_button.on_click(shown(lambda _b: self.show((self.index + 1) % len(self.puzzles))))
        self.children = [self.table, self.prompt, w.HBox([self.typed, self.try_button, self.solution_button,
                                                          self.next_button]), self.explain, self.solution]
        self.show(0)

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    @property
    def section(self) -> str:
        """The rulebook section the puzzle's first tag belongs to (its decision's, without a tag)."""
        pz = self.puzzle
        return pz.sections[0] if pz.sections else rule_section(pz.position.to_play)

    def show(self, index: int) -> None:
        """Show puzzle ``index``: the table as its mover sees it, and the question."""
        self.index = index
        pz = self.puzzle
        self.table.viewer = None if pz.method == "exact" else pz.side
        self.table.show_hands = pz.method == "exact"
        self.table.set_position(pz.position)
        self.explain.value = self.solution.value = ""
        self.solved = False
        self.prompt.value = _("<b>Puzzle {number} of {count}</b>: find the best move for {side} ({point}, round "
                              "{round}). It teaches: {tags}.").format(
            number=index + 1, count=len(self.puzzles), side=html.escape(side_noun(SIDES[pz.side])),
            point=html.escape(point_name(pz.position.to_play)), round=pz.position.round,
            tags=html.escape(", ".join(pz.tags))) + " " + rule_link(self.section)
        self.trips.begin(self.section)

    def play(self, text: str) -> bool:
        """Judge the learner's try: True for the best move; the reason in words either way."""
        verdict = judge(self.puzzle, text, self.finder, current_language())
        self.trips.tried(verdict.legal)
        colour = "#1b5e20" if verdict.correct else "#9b1c1c"
        mark = "✓" if verdict.correct else "✗"
        kind = "guyenne-right" if verdict.correct else ("guyenne-worse" if verdict.legal else "guyenne-illegal")
        self.explain.value = f'<div class="{kind}" style="color:{colour}">{mark} {html.escape(verdict.reason)}</div>'
        self.solved = self.solved or verdict.correct
        return verdict.correct

    def show_solution(self) -> None:
        """The solution's line of play as a short storyboard, in the language shown."""
        diagrams = storyboard(self.puzzle.record(), width=520, lang=current_language())
        self.solution.value = "".join(f'<div class="guyenne-solution-step">{d}</div>' for d in diagrams)
