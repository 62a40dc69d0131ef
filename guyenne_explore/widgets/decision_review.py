"""The Play tab's decisions to look at again: a player's costliest decisions of the games read, each on the table.

An accuracy says how much a player loses against the bots; a designer reading a playtest wants to know where: which
decisions lost the most win chance, what the player saw then, and what the bots would have played instead.  After a
reading (:class:`.playtest_view.PlaytestView`) this lists the chosen player's decisions in a band of loss, the
costliest first (:meth:`..analysis.playtest.PlaytestReport.costliest`); choosing one draws the position before it as
that player saw it (their own cards only, a team member's own hand), the move played outlined, or the bots' move.
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from ..analysis.playtest import Costly, PlaytestReport, display_name
from ..engine import GameRecord, Position
from ..i18n import N_, FIRST_CASTLE, capitalised, gettext
from ..render.playtest_report import costly_parts, game_label, nothing_to_look_at
from .table import Table

#: the section's fixed texts, for extraction (the language switch looks each up in the catalogue)
LABELS = (N_("<h4>Decisions to look at</h4>"), N_("Decisions of"), N_("Decision"), N_("the move played"),
          N_("the bots' move"),
          N_("The costliest first, each move with its value (its chance to win, a draw a half, as the bots play on): "
             "choose one to see the table as the player saw it."))
#: the decisions listed for a player, the costliest first (the rest lose less than the last one shown)
SHOWN = 30


class DecisionReview(w.VBox):
    """A player's costliest decisions of a reading, each drawn on a table as that player saw it."""

    def __init__(self, **kwargs: Any) -> None:
        self.player = w.Dropdown(description="Decisions of", style={"description_width": "initial"},
                                 layout=w.Layout(width="360px"))
        self.listed = w.Select(description="Decision", rows=6, layout=w.Layout(width="100%", max_width="900px"))
        self.outlined = w.ToggleButtons(options=[("the move played", "played"), ("the bots' move", "best")],
                                        value="played")
        self.words = w.HTML()
        self.words.add_class("guyenne-review-words")
        self.table = Table(show_hands=False)
        self.report: PlaytestReport | None = None
        self.records: dict[str, GameRecord] = {}
        self.costly: list[Costly] = []
        self._positions: dict[str, list[Position]] = {}
        self.player.observe(lambda _c: self._list(), names="value")
        self.listed.observe(lambda _c: self._draw(), names="value")
        self.outlined.observe(lambda _c: self._outline(), names="value")
        super().__init__([w.HTML("<h4>Decisions to look at</h4>"),
                          w.HTML("The costliest first, each move with its value (its chance to win, a draw a half, as "
                                 "the bots play on): choose one to see the table as the player saw it."),
                          self.player, self.listed, self.words, self.outlined, self.table], **kwargs)
        self.add_class("guyenne-review")
        self.layout.display = "none"  # until a reading

    def show(self, report: PlaytestReport, records: dict[str, GameRecord]) -> None:
        """A new reading: its players (people first; bots only where no person played), the first one's list."""
        self.report, self.records = report, records
        self._positions = {}
        people = [i for i, p in enumerate(report.players) if p.person]
        chosen = people or list(range(len(report.players)))
        self.layout.display = "" if chosen else "none"
        self.player.options = [(display_name(report.players[i]), i) for i in chosen]
        before, self.player.value = self.player.value, chosen[0] if chosen else None
        if self.player.value == before:  # the same player as before the reading: listed anew here
            self._list()

    def _list(self) -> None:
        """The chosen player's decisions in a band of loss, the costliest first; the first one drawn."""
        report = self.report
        if report is None or self.player.value is None:
            return
        self.costly = report.costliest(report.players[self.player.value])[:SHOWN]
        self.listed.options = [(self._line(i), i) for i in range(len(self.costly))]
        self.listed.layout.display = self.outlined.layout.display = self.table.layout.display = \
            "" if self.costly else "none"
        if self.costly:
            self.listed.value = 0
            self._draw()
        else:
            self.words.value = escape(nothing_to_look_at())

    def _position(self, costly: Costly) -> Position:
        """The position before the decision (each game's positions worked out once a reading)."""
        name = costly.game.name
        if name not in self._positions:
            self._positions[name] = self.records[name].positions()
        return self._positions[name][costly.decision.index]

    def _parts(self, i: int) -> dict[str, str]:
        c = self.costly[i]
        assert self.report is not None
        return costly_parts(c, self._position(c), self.report.budget)

    def _line(self, i: int) -> str:
        """A decision as the list shows it: when, the move played, the loss and its band."""
        parts = self._parts(i)
        return capitalised(gettext("{when}: {played}, {lost} lost ({band})").format(**parts))

    def _draw(self) -> None:
        """The chosen decision's position as its player saw it, the outlined move, and the decision in words."""
        if self.listed.value is None or not self.costly:
            return
        c = self.costly[self.listed.value]
        parts = self._parts(self.listed.value)
        record = self.records[c.game.name]
        self.table.viewer, self.table.viewer_member = c.decision.side, c.decision.member
        self.table.set_position(self._position(c))
        self._outline()
        self.words.value = escape(capitalised(gettext(
            "{game}, {when}: {played} was played; the bots prefer {best}. Win chance lost: {loss} ({band}).").format(
                game=game_label(record), **parts)))

    def _outline(self) -> None:
        """Outline on the table the move played or the bots' move."""
        if self.listed.value is None or not self.costly:
            return
        c = self.costly[self.listed.value]
        d = c.decision
        move = d.move if self.outlined.value == "played" else d.best_move  # the notation's, as the record keeps it
        self.table.highlight = self._position(c).parse_move(move).text(FIRST_CASTLE) if move else ""

    def refresh(self) -> None:
        """After a language switch: the list and the chosen decision's words in the new language."""
        if self.report is None:
            return
        chosen = self.listed.value
        self.listed.options = [(self._line(i), i) for i in range(len(self.costly))]
        self.listed.value = chosen
        self._draw()
