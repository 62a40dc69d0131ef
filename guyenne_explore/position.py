"""Positions: immutable snapshots of a game at a decision point, a chance point or the end.

The position holds only what changes during a game (castles, zones, round,
first player, what is placed); the :class:`~guyenne_explore.rules.Rules` it
carries hold the parameters.  Every operation returns a new position, so a
position can be shared between an analysis, a diagram and a panel without
copies.  The logic lives in small modules (:mod:`.moves`, :mod:`.flow`,
:mod:`.drawing`, :mod:`.scoring`); the methods here are the public door to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .cards import EMPTY, Cards
from .rules import SIDES, Rules

if TYPE_CHECKING:  # pragma: no cover
    import random

    from .moves import LegalMoves, Move
    from .scoring import Result
    from .view import SideView

ENGLISH, FRENCH = 0, 1
NEUTRAL = -1
CONTROL_NAMES = {NEUTRAL: "neutral", ENGLISH: "english", FRENCH: "french"}

#: Decision points in the order they can occur (RULES.md sections 2-4, 8).
SETUP_DISCARD = "setup_discard"
TEAM_SPLIT = "team_split"
TEAM_ORDER = "team_order"
OPEN_FIRST = "open_first"
RESPOND_FIRST = "respond_first"
OPEN_SECOND = "open_second"
RESPOND_SECOND = "respond_second"
CONCEDE_CHOICE = "concede_choice"
REMOVE_CHOICE = "remove_choice"
DECISIONS = (SETUP_DISCARD, TEAM_SPLIT, TEAM_ORDER, OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND,
             RESPOND_SECOND, CONCEDE_CHOICE, REMOVE_CHOICE)
PLACEMENTS = (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND)
#: Chance points: the deal at the start of a game, the draws at the end of a round.
DEAL = "deal"
DRAW = "draw"
END = "end"
POINTS = DECISIONS + (DEAL, DRAW, END)
BATTLES = ("X", "Y")


def side_index(name: str | int) -> int:
    """0 for english, 1 for french, from a name or an index."""
    if name in (ENGLISH, FRENCH):
        return int(name)
    try:
        return SIDES.index(str(name))
    except ValueError:
        raise ValueError(f"unknown side {name!r}: english or french") from None


def evolve(obj: Any, **changes: Any) -> Any:
    """A copy of a frozen engine value with some fields changed.

    ``dataclasses.replace`` re-runs ``__init__``; the engine's values need no
    checks when changed by the engine, and this is its hottest operation.
    """
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.pop("_hash", None)
    d.update(changes)
    return new


@dataclass(frozen=True)
class Side:
    """One side's zones: a hand per member, shared deck, discard and removed cards.

    ``deck_order`` is None for a shuffled deck, or the deck's kinds top card
    first for a stacked one (then draws are known until the next reshuffle).
    ``drawer`` and ``order`` matter only for a team: the member who draws this
    round, and the member who places first this round (None until decided).
    """

    hands: tuple[Cards, ...]
    deck: Cards = EMPTY
    discard: Cards = EMPTY
    removed: Cards = EMPTY
    exhaustions: int = 0
    deck_order: tuple[int, ...] | None = None
    drawer: int = 0
    order: int | None = None

    @property
    def hand(self) -> Cards:
        """All cards in the side's hands (both members' for a team)."""
        if len(self.hands) == 1:
            return self.hands[0]
        return self.hands[0] + self.hands[1]

    @property
    def is_team(self) -> bool:
        return len(self.hands) == 2

    @property
    def unspent(self) -> int:
        """Cards in hand and deck: the tie-break of RULES.md section 6."""
        return self.hand.size + self.deck.size

    def with_hand(self, member: int, cards: Cards) -> "Side":
        hands = list(self.hands)
        hands[member] = cards
        return evolve(self, hands=tuple(hands))


@dataclass(frozen=True)
class Placed:
    """What has been placed this round: castles X and Y and each side's cards there.

    ``cards[side][battle]`` with battle 0 for X and 1 for Y.
    """

    x: int | None = None
    y: int | None = None
    cards: tuple[tuple[Cards, Cards], tuple[Cards, Cards]] = ((EMPTY, EMPTY), (EMPTY, EMPTY))

    def castle(self, battle: int) -> int | None:
        return self.x if battle == 0 else self.y

    def at(self, side: int, battle: int) -> Cards:
        return self.cards[side][battle]

    def side_total(self, side: int) -> Cards:
        return self.cards[side][0] + self.cards[side][1]

    def put(self, side: int, battle: int, cards: Cards) -> "Placed":
        rows = [list(self.cards[0]), list(self.cards[1])]
        rows[side][battle] = cards
        return evolve(self, cards=(tuple(rows[0]), tuple(rows[1])))

    @property
    def empty(self) -> bool:
        return self.x is None and self.y is None and all(c.size == 0 for row in self.cards for c in row)


NOTHING_PLACED = Placed()


@dataclass(frozen=True)
class Draw:
    """A chance outcome: the multiset of cards each side draws (RULES.md section 5)."""

    english: Cards
    french: Cards

    def __getitem__(self, side: int) -> Cards:
        return self.english if side == ENGLISH else self.french

    def __str__(self) -> str:
        return f"draw E:{self.english} F:{self.french}"


@dataclass(frozen=True)
class Position:
    """A full game state (RULES.md section 10).

    ``castles[i]`` is the controller of castle i (ENGLISH, FRENCH or NEUTRAL):
    during the four placements, the control at the start of the round.
    ``battle`` is set at ``concede_choice`` and ``remove_choice``: the battle
    (0 for X, 1 for Y) waiting for that decision.
    """

    rules: Rules
    castles: tuple[int, ...]
    round: int
    first: int
    to_play: str
    sides: tuple[Side, Side]
    placed: Placed = field(default=NOTHING_PLACED)
    battle: int | None = None

    def __hash__(self) -> int:  # cached: positions are dictionary keys in every analysis
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.rules, self.castles, self.round, self.first, self.to_play, self.sides,
                      self.placed, self.battle))
            self.__dict__["_hash"] = h
        return h

    # ------------------------------------------------------------------ start
    @classmethod
    def start(cls, rules: Rules | str = "base") -> "Position":
        """A new game before the deal (or before the expert setup discards)."""
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        from .flow import start_position

        return start_position(rules)

    # ------------------------------------------------------------------ who plays
    @property
    def is_chance(self) -> bool:
        """True at the deal and at the draws between rounds."""
        return self.to_play in (DEAL, DRAW)

    @property
    def is_over(self) -> bool:
        return self.to_play == END

    @property
    def side_to_play(self) -> int | None:
        """The side that decides now, or None at a chance point or the end."""
        from .flow import acting_side

        return acting_side(self)

    @property
    def member_to_play(self) -> int:
        """For a team side, the member (0 or 1) who decides now; 0 for a solo side."""
        from .flow import acting_member

        return acting_member(self)

    # ------------------------------------------------------------------ moves
    @property
    def legal_moves(self) -> "LegalMoves":
        """A lazy view of the legal moves: ``len()``, iteration, ``in``."""
        from .moves import legal_moves

        return legal_moves(self)

    def why_illegal(self, move: "Move | str") -> str | None:
        """None when the move is legal here, else the rule it breaks in plain words."""
        from .moves import why_illegal

        return why_illegal(self, move)

    def parse_move(self, text: str) -> "Move":
        """Read a move written as in :meth:`Move.text` for this decision point."""
        from .moves import parse_move

        return parse_move(self, text)

    def apply(self, move: "Move | str") -> "Position":
        """The position after a legal move; an illegal one raises IllegalMove saying why."""
        from .flow import apply_move

        return apply_move(self, move)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Draw, Fraction]]:
        """Every draw that can happen here with its exact probability (they sum to 1)."""
        from .drawing import chance_outcomes

        return chance_outcomes(self)

    def apply_outcome(self, outcome: Draw) -> "Position":
        """The position after a chance outcome (one of :meth:`chance_outcomes`)."""
        from .flow import apply_draw

        return apply_draw(self, outcome)

    def sample_outcome(self, rng: "random.Random") -> Draw:
        """A chance outcome drawn with its probability, from a seeded generator."""
        from .drawing import sample_outcome

        return sample_outcome(self, rng)

    # ------------------------------------------------------------------ results
    def result(self) -> "Result":
        """Scores and winner of a finished game (RULES.md section 6)."""
        from .scoring import result

        return result(self)

    def view(self, side: int | str) -> "SideView":
        """What one side can see of this position."""
        from .view import side_view

        return side_view(self, side_index(side))

    # ------------------------------------------------------------------ I/O
    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> "Position":
        """Load RULES.md section 10 JSON (text or parsed); raises PositionError naming every problem."""
        from .positions_io import position_from_json

        return position_from_json(data)

    def to_json(self) -> dict[str, Any]:
        from .positions_io import position_to_json

        return position_to_json(self)

    @classmethod
    def from_notation(cls, text: str) -> "Position":
        """Read the one-line notation written by :meth:`notation`."""
        from .notation import parse_notation

        return parse_notation(text)

    def notation(self) -> str:
        """A one-line text that round-trips (see :mod:`.notation`)."""
        from .notation import write_notation

        return write_notation(self)

    def warnings(self) -> list[str]:
        """Why this playable position could not arise in real play, if it could not."""
        from .validation import position_warnings

        return position_warnings(self)

    def control(self, castle: int) -> str:
        return CONTROL_NAMES[self.castles[castle]]

    def cards_of(self, side: int) -> Cards:
        """Every card of a side, in any zone: always the rules' card set."""
        s = self.sides[side]
        return s.hand + s.deck + s.discard + s.removed + self.placed.side_total(side)

    def __str__(self) -> str:
        return self.notation()

    def _repr_svg_(self) -> str:  # displayed by Jupyter; drawing lives in the render layer
        from .render.svg import position_svg

        return position_svg(self)


def replace_side(position: Position, side: int, new: Side) -> tuple[Side, Side]:
    """The pair of sides with one replaced."""
    return (new, position.sides[1]) if side == ENGLISH else (position.sides[0], new)
