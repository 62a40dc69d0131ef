"""The explorer's state: one observable value every panel watches, instead of panels calling one another.

``ExplorerState`` holds the position the panels show (None while the builder's form is
invalid), the problems of that form, the game stepped through (``history``), the move
hovered or selected in the move list (``highlight``), the start the builder last loaded
(to name a dealt opening by its seed) and what the analysis is asked (``analysis``, one
immutable :class:`AnalysisSettings`: the analysis panel shows and writes it, a session saves
and opens it).  Two kinds of change write the position:

- an edit of the builder that makes a valid position, or an invalid one (:meth:`ExplorerState.build`):
  a new game starts there, or no position at all;
- a move, a chance outcome or a step of the game (:meth:`play`, :meth:`step`, :meth:`follow`):
  the position is exactly the engine's ``position.apply(move)`` (a stacked deck keeps its order)
  and the game played so far stays, so Back and Forward go through it.

The builder shows a position it did not build without reading it back from its form, so a move
never goes position -> JSON -> form -> JSON -> position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import traitlets

from ..engine import Position
from ..engine import Problem
from ..engine import Rules
from .starts import Start


@dataclass(frozen=True)
class History:
    """The positions of the game stepped through, first to last, and the step shown (``index``)."""

    positions: tuple[Position, ...] = ()
    index: int = 0

    @property
    def current(self) -> Position | None:
        """The position at the step shown; None for a history with no position."""
        return self.positions[self.index] if self.positions else None

    def played(self, position: Position) -> History:
        """``position`` played after the step shown: the steps after it (a line stepped back from) are dropped."""
        return History((*self.positions[:self.index + 1], position), self.index + 1) if self.positions \
            else History((position,), 0)

    def stepped(self, delta: int) -> History:
        """``delta`` steps along (back is negative), kept within the game."""
        return History(self.positions, max(0, min(len(self.positions) - 1, self.index + delta)))


@dataclass(frozen=True)
class AnalysisSettings:
    """What the analysis is asked: the rule sets, each side's policy, the search's rollouts a decision (for the
    side that searches), the method (``auto``, ``exact``, ``sample`` or ``optimal play``), the games and their seed,
    and whether an exact run goes past its size limit.  A new value replaces the old one, so that whoever observes
    :attr:`ExplorerState.analysis` sees every change, and a session saves what was asked, not what widgets hold."""

    rule_sets: tuple[Rules, ...] = ()
    english_policy: str = "uniform"
    french_policy: str = "uniform"
    search_budget: int = 400
    method: str = "auto"
    games: int = 500
    seed: int = 0
    force_exact: bool = False

    #: each whole-number setting's bounds: the panel's boxes take these, a session file is checked against them
    BOUNDS: ClassVar[dict[str, tuple[int, int]]] = {"search_budget": (1, 100_000), "games": (1, 10_000_000),
                                                   "seed": (0, 999_999_999)}

    def to_json(self) -> dict[str, Any]:
        """The settings as a session file keeps them (its ``analysis``)."""
        return {"rule_sets": [r.to_json() for r in self.rule_sets], "english_policy": self.english_policy,
                "french_policy": self.french_policy, "search_budget": self.search_budget, "method": self.method,
                "games": self.games, "seed": self.seed, "force_exact": self.force_exact}


class ExplorerState(traitlets.HasTraits):
    """What the explorer shows, as observable traits (see the module's words): observe ``position``,
    ``problems``, ``draft``, ``history``, ``highlight``, ``start`` or ``analysis``.  ``position`` is always
    ``history.current``."""

    position = traitlets.Instance(Position, allow_none=True)
    problems = traitlets.List(traitlets.Instance(Problem))
    #: while the builder's form is invalid, its position as read, problems and all (the table draws it, nothing
    #: plays or analyses it); None otherwise
    draft = traitlets.Instance(Position, allow_none=True)
    history = traitlets.Instance(History)
    highlight = traitlets.Unicode("")
    start = traitlets.Instance(Start, allow_none=True)
    analysis = traitlets.Instance(AnalysisSettings)

    def __init__(self, position: Position | None = None) -> None:
        super().__init__(position=position, history=History((position,), 0) if position is not None else History(),
                         analysis=AnalysisSettings((position.rules,) if position is not None else ()))

    def build(self, position: Position | None, problems: Iterable[Problem] = (), start: Start | None = None,
              draft: Position | None = None) -> None:
        """The builder's edit: a valid ``position`` starts a new game there (unless it is the one shown, whose
        game stays); None, with the form's ``problems``, leaves the panels no position and the table the form's
        ``draft`` to draw.  ``start``: the start the builder last loaded."""
        with self.hold_trait_notifications():
            self.start = start
            self.problems = list(problems)
            self.draft = draft if position is None else None
            if position is None or position != self.position:
                self._go(History((position,), 0) if position is not None else History())

    def play(self, position: Position) -> None:
        """A move or chance outcome applied at the step shown: ``position`` is the engine's result."""
        self._go(self.history.played(position))

    def step(self, delta: int) -> None:
        """Back (negative) or Forward along the game played."""
        self._go(self.history.stepped(delta))

    def follow(self, positions: Sequence[Position], index: int) -> None:
        """A whole game to step through, shown at ``index`` (a game played out, a session opened)."""
        if not 0 <= index < len(positions):
            raise ValueError(f"step {index} is outside a game of {len(positions)} positions")
        with self.hold_trait_notifications():
            self.problems = []
            self._go(History(tuple(positions), index))

    def resume(self, history: History) -> None:
        """Go back to a game as it was (the builder's Undo of a move): its positions and step shown."""
        with self.hold_trait_notifications():
            self.problems = []
            self._go(history)

    def _go(self, history: History) -> None:
        with self.hold_trait_notifications():
            self.history = history
            self.position = history.current
