"""Counter-policies: simple exploiters that test whether a skilled policy can be read or bullied.

Each plays one idea and leaves every other decision to the heuristic, so what
it measures is that idea alone.  The benchmarks' gauntlet plays every real
policy against them: a policy that gives its hand away by its bet sizes loses
to :class:`BetReader`; one that folds to a lone face-down card loses to
:class:`Bluffer`; one that spends too much to win castles loses to :class:`Folder`
on the unspent-cards tie-break.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ...engine_api import (HERO, OPEN_FIRST, OPEN_SECOND, RESPOND_FIRST, RESPOND_SECOND, Cards, Move, SideView,
                          battle_of, value_of)
from .heuristic import Heuristic, castle_stake


def _weakest(hand: Cards) -> int | None:
    return next((k for k in range(HERO) if hand[k]), None)


def _unspent(view: SideView) -> tuple[int, int]:
    mine = view.hand.size + view.deck_size
    theirs = sum(view.opponent.hand_sizes) + view.opponent.deck_size
    return (mine, theirs) if view.side == 0 else (theirs, mine)


def _best_castle(view: SideView, moves: list[Move]) -> int:
    castles = sorted({m.castle for m in moves if m.castle is not None})
    unspent = _unspent(view)
    return max(castles, key=lambda c: castle_stake(view.castles, c, view.side, view.rules, unspent))


def _weakest_cards(view: SideView, moves: list[Move], n: int, castle: int | None) -> Move | None:
    """The legal move placing ``n`` copies of the weakest card (at ``castle`` when opening), if any."""
    weakest = _weakest(view.hand)
    if weakest is None:
        return None
    target = Cards().add_kind(weakest, n)
    return next((m for m in moves if m.cards == target and m.castle == castle), None)


class _Counter:
    """Plays :meth:`_idea` where it has one, else the heuristic's move."""

    name = "counter"
    exact = False

    def __init__(self) -> None:
        self._fallback = Heuristic()

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        raise NotImplementedError(f"the {self.name} counter-policy samples; it has no exact move distribution")

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play in (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND):
            move = self._idea(view, list(view.legal_moves))
            if move is not None:
                return move
        return self._fallback.choose(view, rng)


class BetReader(_Counter):
    """Reads bet sizes: a lone face-down card is a hero (answer with the weakest card), three or
    more are weak cards (answer with the cheapest set that beats that many weakest cards); it
    opens with three weakest cards (``2 2 2``) at the castle worth most to it."""

    name = "reader"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        point = view.to_play
        if point in (OPEN_FIRST, OPEN_SECOND):
            return _weakest_cards(view, moves, 3, _best_castle(view, moves))
        battle = battle_of(point)
        assert battle is not None
        count = view.opponent_placed_sizes[battle]
        weakest = _weakest(view.rules.valued)
        if count == 1:
            return min(moves, key=lambda m: (m.cards[HERO], m.cards.total, m.cards.size))
        if count >= 3 and weakest is not None:
            need = value_of(weakest) * count  # the total of that many weakest cards, to beat
            beating = [m for m in moves if not m.cards[HERO] and m.cards.total > need]
            if beating:
                return min(beating, key=lambda m: (m.cards.total, m.cards.size))
            return min(moves, key=lambda m: (m.cards[HERO], m.cards.total, m.cards.size))
        return None


class Bluffer(_Counter):
    """Opens with one weakest card, the size of a lone hero, at the castle worth most to it."""

    name = "bluffer"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        if view.to_play in (OPEN_FIRST, OPEN_SECOND):
            return _weakest_cards(view, moves, 1, _best_castle(view, moves))
        return None


class Folder(_Counter):
    """Never fights: every placement is one weakest card (it keeps its cards for the tie-break)."""

    name = "folder"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        castle = _best_castle(view, moves) if view.to_play in (OPEN_FIRST, OPEN_SECOND) else None
        return _weakest_cards(view, moves, 1, castle) or min(moves, key=lambda m: (m.cards.size, m.cards.total))


COUNTERS = {"reader": BetReader, "bluffer": Bluffer, "folder": Folder}
