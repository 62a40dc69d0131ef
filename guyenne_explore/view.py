"""What one side knows of a position: its own cards, the other side's counts, the table.

Policies decide from a :class:`SideView` only, so a policy cannot use the
opponent's hand, deck order or face-down cards; teaching panels show the same
view to a learner.  A team member sees its own hand and only the size of its
partner's.  The view is lazy: each fact is worked out when first asked for,
because exact analysis builds a view at every decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from .cards import EMPTY, Cards
from .moves import LegalMoves, choice_for
from .position import CONCEDE_CHOICE, END, REMOVE_CHOICE

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position
    from .rules import Rules


@dataclass(frozen=True)
class OpponentView:
    """The other side as seen across the table."""

    hand_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int
    removed: Cards
    exhaustions: int
    #: every card of the opponent not visible: hands, deck, discard and face-down placed cards
    unseen: Cards


def revealed(p: "Position", battle: int, viewer: int) -> bool:
    """Whether the opponent's cards at a battle are face up for ``viewer``.

    They are once the battle is resolved, and the attacker's are at the
    defender's concede choice.
    """
    if p.placed.castle(battle) is None:
        return False
    if p.to_play == END:
        return True
    if p.to_play == REMOVE_CHOICE:
        return battle <= (p.battle or 0)
    if p.to_play == CONCEDE_CHOICE:
        if battle == p.battle:
            return p.castles[p.placed.castle(battle)] == viewer  # type: ignore[index]
        return battle < (p.battle or 0)
    return False


class SideView:
    """One side's knowledge (and, for a team, one member's) of a position."""

    def __init__(self, position: "Position", side: int, member: int | None = None):
        self._p = position
        self.side = side
        acting = position.side_to_play == side
        s = position.sides[side]
        if member is None:
            member = position.member_to_play if acting else (s.drawer if s.is_team else 0)
        self.member = member
        self.to_act = acting

    # the table, public to both sides
    @property
    def rules(self) -> "Rules":
        return self._p.rules

    @property
    def castles(self) -> tuple[int, ...]:
        return self._p.castles

    @property
    def round(self) -> int:
        return self._p.round

    @property
    def first(self) -> int:
        return self._p.first

    @property
    def to_play(self) -> str:
        return self._p.to_play

    @property
    def x(self) -> int | None:
        return self._p.placed.x

    @property
    def y(self) -> int | None:
        return self._p.placed.y

    @property
    def battle(self) -> int | None:
        return self._p.battle

    def roles(self, side: int) -> tuple[int, int | None]:
        """A side's team drawer and decided order (public: both are said aloud at the table)."""
        s = self._p.sides[side]
        return (s.drawer, s.order)

    # own side
    @property
    def hand(self) -> Cards:
        return self._p.sides[self.side].hands[self.member]

    @property
    def partner_hand_size(self) -> int | None:
        s = self._p.sides[self.side]
        return s.hands[1 - self.member].size if s.is_team else None

    @property
    def own_unseen(self) -> Cards:
        """Own cards this member cannot see: the deck (as a multiset) and a team partner's hand."""
        s = self._p.sides[self.side]
        return s.deck + (s.hands[1 - self.member] if s.is_team else EMPTY)

    @property
    def deck_size(self) -> int:
        return self._p.sides[self.side].deck.size

    @property
    def discard(self) -> Cards:
        return self._p.sides[self.side].discard

    @property
    def removed(self) -> Cards:
        return self._p.sides[self.side].removed

    @property
    def exhaustions(self) -> int:
        return self._p.sides[self.side].exhaustions

    @property
    def own_placed(self) -> tuple[Cards, Cards]:
        pl = self._p.placed
        return (pl.at(self.side, 0), pl.at(self.side, 1))

    # the other side
    @property
    def opponent_placed(self) -> tuple[Cards | None, Cards | None]:
        """The opponent's cards at X and Y where face up, else None (backs only)."""
        pl, o = self._p.placed, 1 - self.side
        return tuple(pl.at(o, b) if revealed(self._p, b, self.side) else None for b in (0, 1))  # type: ignore[return-value]

    @property
    def opponent_placed_sizes(self) -> tuple[int, int]:
        pl, o = self._p.placed, 1 - self.side
        return (pl.at(o, 0).size, pl.at(o, 1).size)

    @cached_property
    def opponent(self) -> OpponentView:
        o = self._p.sides[1 - self.side]
        pl = self._p.placed
        face_down = sum((pl.at(1 - self.side, b) for b in (0, 1) if not revealed(self._p, b, self.side)), EMPTY)
        return OpponentView(hand_sizes=tuple(h.size for h in o.hands), deck_size=o.deck.size,
                            discard_size=o.discard.size, removed=o.removed, exhaustions=o.exhaustions,
                            unseen=o.hand + o.deck + o.discard + face_down)

    @cached_property
    def legal_moves(self) -> LegalMoves:
        """The moves this side may make now (none when it is not its turn)."""
        return LegalMoves(choice_for(self._p) if self.to_act else None)


def side_view(p: "Position", side: int, member: int | None = None) -> SideView:
    return SideView(p, side, member)
