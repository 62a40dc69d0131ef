"""Positions: immutable snapshots of a game at a decision point, a chance point or the end.

The position holds only what changes during a game (castles, zones, round,
first player, what is placed); the :class:`~guyenne_explore.engine.rules.Rules` it
carries hold the parameters.  Every operation returns a new position, so a
position can be shared between an analysis, a diagram and a panel without
copies.

This module is the top of the engine: the data is :class:`.state.State` (at
the bottom), the rules live in small modules below this one (:mod:`.turn`,
:mod:`.moves`, :mod:`.flow`, :mod:`.drawing`, :mod:`.scoring`, :mod:`.view`,
the readers and writers), and :class:`Position` is the public door to them.
Nothing below imports this module, so the engine has no import cycle
(``lint-imports`` checks the order, see ``pyproject.toml``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable, cast

from . import drawing, flow, moves, positions_io, scoring, turn, validation
from . import notation as _notation
from . import view as _view
from .parameters import PARAMETERS, When
from .problems import Problem, problem
from .rules import Rules
from .state import (BATTLES, CONCEDE_CHOICE, CONTROL_NAMES, DEAL, DECISIONS, DRAW, END, ENGLISH, FRENCH, NEUTRAL,
                    NOTHING_PLACED, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, POINTS, REMOVE_CHOICE, RESPOND_FIRST,
                    RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT, Draw, Placed, Side, State, evolve,
                    register_position_class, replace_side, side_index)

__all__ = ["BATTLES", "CONCEDE_CHOICE", "CONTROL_NAMES", "DEAL", "DECISIONS", "DRAW", "END", "ENGLISH", "FRENCH",
           "NEUTRAL", "NOTHING_PLACED", "OPEN_FIRST", "OPEN_SECOND", "PLACEMENTS", "POINTS", "REMOVE_CHOICE",
           "RESPOND_FIRST", "RESPOND_SECOND", "SETUP_DISCARD", "TEAM_ORDER", "TEAM_SPLIT", "Draw", "Placed",
           "Position", "Side", "State", "evolve", "replace_side", "side_index", "set_svg_renderer"]

#: Draws a position as SVG for Jupyter's rich display; the render layer sets it when imported
#: (:func:`set_svg_renderer`), so the engine never imports the render layer.
_svg_renderer: Callable[["Position"], str] | None = None


def set_svg_renderer(render: Callable[["Position"], str]) -> None:
    """Let Jupyter display positions as diagrams (called by :mod:`guyenne_explore.render`)."""
    global _svg_renderer
    _svg_renderer = render


class Position(State):
    """A full game state (RULES.md section 10) with the engine's operations as methods."""

    __slots__ = ()

    # ------------------------------------------------------------------ start
    @classmethod
    def start(cls, rules: Rules | str = "base") -> "Position":
        """A new game before the deal (or before the expert setup discards)."""
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        # the rule modules type what they build as State; new_position builds this class
        return cast("Position", flow.start_position(rules))

    def under(self, rules: Rules) -> "Position":
        """This position under other rules; PositionError names every reason it cannot be.

        A game not yet dealt stays a game not yet dealt (so expert gets its setup discards and a
        team its two hands).  A game under way keeps its table, cards and decision, and each changed
        parameter takes effect as its :class:`~.parameters.Parameter` says: one the table was set up
        with (castles, cards, heroes, players: :attr:`~.parameters.When.REFUSED`) is refused first,
        and the rest are checked as any loaded position is (a hand larger than a smaller hand size...).
        """
        if rules == self.rules:
            return self
        if self == Position.start(self.rules):
            return Position.start(rules)
        own, new = self.rules.describe(), rules.describe()
        set_up = [problem("rules.set_up", f"rules.{p.name}", label=p.name, own=_said(own[p.name]),
                          new=_said(new[p.name]))
                  for p in PARAMETERS if p.takes_effect == When.REFUSED and own[p.name] != new[p.name]]
        if set_up:
            raise positions_io.PositionError(set_up)
        moved = cast("Position", evolve(self, rules=rules))
        problems = validation.position_problems(moved)
        if problems:
            raise positions_io.PositionError(problems, draft=moved)
        return moved

    # ------------------------------------------------------------------ who plays
    @property
    def side_to_play(self) -> int | None:
        """The side that decides now, or None at a chance point or the end."""
        return turn.acting_side(self)

    @property
    def member_to_play(self) -> int:
        """For a team side, the member (0 or 1) who decides now; 0 for a solo side."""
        return turn.acting_member(self)

    # ------------------------------------------------------------------ moves
    @property
    def legal_moves(self) -> moves.LegalMoves:
        """A lazy view of the legal moves: ``len()``, iteration, ``in``."""
        return moves.legal_moves(self)

    def why_illegal(self, move: moves.Move | str, first: int = 0) -> str | None:
        """None when the move is legal here, else the rule it breaks in plain words (a text's castles counted from
        ``first``, as :meth:`Move.text` writes them, and named so)."""
        return moves.why_illegal(self, move, first)

    def parse_move(self, text: str, first: int = 0) -> moves.Move:
        """Read a move written as in :meth:`Move.text` (its castles counted from ``first``) for this decision point."""
        return moves.parse_move(self, text, first)

    def apply(self, move: moves.Move | str) -> "Position":
        """The position after a legal move; an illegal one raises IllegalMove saying why."""
        return flow.apply_move(self, move)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Draw, Fraction]]:
        """Every draw that can happen here with its exact probability (they sum to 1)."""
        return drawing.chance_outcomes(self)

    def apply_outcome(self, outcome: Draw) -> "Position":
        """The position after a chance outcome (one of :meth:`chance_outcomes`); any other raises IllegalMove
        saying why."""
        return flow.apply_draw(self, outcome)

    def sample_outcome(self, rng: random.Random) -> Draw:
        """A chance outcome drawn with its probability, from a seeded generator; IllegalMove where no draw
        happens."""
        return flow.sample_draw(self, rng)

    # ------------------------------------------------------------------ results
    def result(self) -> scoring.Result:
        """Scores and winner (RULES.md section 6), and how the game ended once it is over."""
        return scoring.result(self)

    def view(self, side: int | str) -> _view.SideView:
        """What one side can see of this position."""
        return _view.side_view(self, side_index(side))

    # ------------------------------------------------------------------ I/O
    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> "Position":
        """Load RULES.md section 10 JSON (text or parsed); raises PositionError naming every problem."""
        return cast("Position", positions_io.position_from_json(data))

    def to_json(self) -> dict[str, Any]:
        return positions_io.position_to_json(self)

    @classmethod
    def load(cls, path: str) -> "Position":
        """Read a position file (JSON); a PositionError names every problem, an unreadable or oversized file
        included (:func:`.positions_io.load_position`)."""
        return cast("Position", positions_io.load_position(path))

    @classmethod
    def from_notation(cls, text: str) -> "Position":
        """Read the one-line notation written by :meth:`notation`."""
        return cast("Position", _notation.parse_notation(text))

    def notation(self) -> str:
        """A one-line text that round-trips (see :mod:`.notation`)."""
        return _notation.write_notation(self)

    def warnings(self) -> list[Problem]:
        """Why this playable position could not arise in real play, if it could not."""
        return validation.position_warnings(self)

    def __str__(self) -> str:
        return self.notation()

    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: the diagram, once the render layer is loaded (None: plain text)."""
        return _svg_renderer(self) if _svg_renderer is not None else None


def _said(value: Any) -> str:
    """A parameter's JSON value as a problem says it: ``2:12 3:4`` for counts, ``true`` for a flag."""
    if isinstance(value, dict):
        return " ".join(f"{key}:{count}" for key, count in value.items())
    return str(value).lower() if isinstance(value, bool) else str(value)


register_position_class(Position)
