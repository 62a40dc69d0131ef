"""The engine's data: frozen values of a game state, its decision points and nothing else.

This module is the bottom of the engine (above :mod:`.cards` and :mod:`.rules`):
every rule module (:mod:`.scoring`, :mod:`.turn`, :mod:`.drawing`, :mod:`.moves`,
:mod:`.flow`, :mod:`.view`, ...) reads and builds these values, and
:mod:`.position` on top gives :class:`~guyenne_explore.engine.position.Position` its
methods by importing those modules.  So the rules import no position class and
nothing imports upwards: the rule modules build a new position with
:func:`evolve` (which keeps the class of the position it copies) or, from
nothing, with :func:`new_position` (the class :mod:`.position` registers).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any, TypeVar

from .cards import EMPTY, Cards
from .rules import SIDES, Rules

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover
    class StrEnum(str, Enum):
        """Python 3.11's ``enum.StrEnum``: each member is its own string."""

        def __str__(self) -> str:
            return str.__str__(self)


class SideIndex(IntEnum):
    """A side as the engine indexes it (``sides[i]``), in the order of the rules' ``SIDES`` names.

    An ``IntEnum``, so a side is still the int JSON, arrays and ``1 - side`` arithmetic use."""

    ENGLISH = 0
    FRENCH = 1


class Control(IntEnum):
    """Who controls a castle: a side's index (:class:`SideIndex`), or -1 for none."""

    NEUTRAL = -1
    ENGLISH = 0
    FRENCH = 1


class Point(StrEnum):
    """The decision points in the order they can occur (RULES.md sections 2-4, 8), the chance
    points (the deal at the start of a game, the draws at the end of a round) and the end.

    A ``StrEnum``: each point equals (and hashes as) the string JSON and notation write."""

    SETUP_DISCARD = "setup_discard"
    TEAM_SPLIT = "team_split"
    TEAM_ORDER = "team_order"
    OPEN_FIRST = "open_first"
    RESPOND_FIRST = "respond_first"
    OPEN_SECOND = "open_second"
    RESPOND_SECOND = "respond_second"
    CONCEDE_CHOICE = "concede_choice"
    REMOVE_CHOICE = "remove_choice"
    DEAL = "deal"
    DRAW = "draw"
    END = "end"


# The members under their old names, typed as the int and str they are, so that tables keyed by them
# (``{ENGLISH: ..., FRENCH: ...}``) still take any side index, ``1 - side`` included.
ENGLISH: int = SideIndex.ENGLISH
FRENCH: int = SideIndex.FRENCH
NEUTRAL: int = Control.NEUTRAL
CONTROL_NAMES: dict[int, str] = {c: c.name.lower() for c in Control}

SETUP_DISCARD: str = Point.SETUP_DISCARD
TEAM_SPLIT: str = Point.TEAM_SPLIT
TEAM_ORDER: str = Point.TEAM_ORDER
OPEN_FIRST: str = Point.OPEN_FIRST
RESPOND_FIRST: str = Point.RESPOND_FIRST
OPEN_SECOND: str = Point.OPEN_SECOND
RESPOND_SECOND: str = Point.RESPOND_SECOND
CONCEDE_CHOICE: str = Point.CONCEDE_CHOICE
REMOVE_CHOICE: str = Point.REMOVE_CHOICE
DEAL: str = Point.DEAL
DRAW: str = Point.DRAW
END: str = Point.END
DECISIONS = (SETUP_DISCARD, TEAM_SPLIT, TEAM_ORDER, OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND,
             RESPOND_SECOND, CONCEDE_CHOICE, REMOVE_CHOICE)
PLACEMENTS = (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND)
POINTS: tuple[str, ...] = tuple(Point)
BATTLES = ("X", "Y")


#: A position of whatever class it is (:class:`State`, or the :class:`~guyenne_explore.engine.position.Position`
#: built on it): the rule modules type a move as ``PositionT -> PositionT`` because :func:`evolve`
#: keeps the class, so they need not name the class above them.
PositionT = TypeVar("PositionT", bound="State")


def side_index(name: str | int) -> SideIndex:
    """:attr:`SideIndex.ENGLISH` (0) or :attr:`SideIndex.FRENCH` (1), from a name or an index."""
    if name in (ENGLISH, FRENCH):
        return SideIndex(name)
    try:
        return SideIndex(SIDES.index(str(name)))
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
class State:
    """A full game state (RULES.md section 10), as data; :class:`~guyenne_explore.engine.position.Position`
    adds the methods.

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

    @property
    def is_chance(self) -> bool:
        """True at the deal and at the draws between rounds."""
        return self.to_play in (DEAL, DRAW)

    @property
    def is_over(self) -> bool:
        return self.to_play == END

    def control(self, castle: int) -> str:
        return CONTROL_NAMES[self.castles[castle]]

    def cards_of(self, side: int) -> Cards:
        """Every card of a side, in any zone: always the rules' card set."""
        s = self.sides[side]
        return s.hand + s.deck + s.discard + s.removed + self.placed.side_total(side)


#: The class :func:`new_position` builds: :class:`~guyenne_explore.engine.position.Position` once
#: :mod:`.position` is imported (``import guyenne_explore`` does it first).
_POSITION_CLASS: type[State] = State


def register_position_class(cls: type[State]) -> None:
    """Make :func:`new_position` build ``cls`` (called once by :mod:`.position`)."""
    global _POSITION_CLASS
    _POSITION_CLASS = cls


def new_position(rules: Rules, castles: tuple[int, ...], round: int, first: int, to_play: str,
                 sides: tuple[Side, Side], placed: Placed = NOTHING_PLACED, battle: int | None = None) -> Any:
    """A position built from nothing (a new game, a file, a notation), of the registered class:
    every position of a program is a :class:`~guyenne_explore.engine.position.Position`."""
    return _POSITION_CLASS(rules, castles, round, first, to_play, sides, placed, battle)


def replace_side(position: State, side: int, new: Side) -> tuple[Side, Side]:
    """The pair of sides with one replaced."""
    return (new, position.sides[1]) if side == ENGLISH else (position.sides[0], new)
