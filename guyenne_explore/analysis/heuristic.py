"""A heuristic policy that plays like a reasonable person, from its own view only.

Each legal move gets a score: the value of the castle at stake times a rough
chance of winning it, minus the cost of the cards spent.  So it does not throw
good cards at a lost cause (the cheapest card wins the score there), plays
the hero where a castle is worth it, and never concedes a holding defence (the
built-in concede rule).  Ties are broken uniformly, so its move distribution
is exact and it can be used in exact enumeration too.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from ..cards import HERO, Cards
from ..flow import battle_of
from ..moves import Move
from ..position import CONCEDE_CHOICE, NEUTRAL, REMOVE_CHOICE, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT
from ..view import SideView
from .policies import concede_move

#: mean value of an unseen card, for guessing the strength of face-down cards
_MEAN_CARD = 2.8
_HERO_STRENGTH = 12.0


def _strength(cards: Cards) -> float:
    return cards.total + (_HERO_STRENGTH if cards[HERO] else 0.0)


def castle_value(view: SideView, castle: int) -> float:
    """How much a castle is worth to this side: more when it extends a run of its own."""
    castles, me = view.castles, view.side
    n = len(castles)
    neighbours = [c for c in (castle - 1, castle + 1) if 0 <= c < n]
    mine = sum(1 for c in neighbours if castles[c] == me)
    base = {NEUTRAL: 2.0, me: 2.0}.get(castles[castle], 3.0)  # taking from the opponent swings twice
    return base + 1.5 * mine


def _win_chance(mine: float, theirs_guess: float) -> float:
    return 1.0 / (1.0 + math.exp(-(mine - theirs_guess) / 1.5))


def _opposition(view: SideView, castle: int, battle: int) -> float:
    """A guess of the other side's strength at a castle, from what is visible."""
    shown = view.opponent_placed[battle]
    if shown is not None:
        return _strength(shown)
    count = view.opponent_placed_sizes[battle]
    if count:
        return count * _MEAN_CARD
    return 2 * _MEAN_CARD  # not placed yet: a typical answer


def _cost(cards: Cards, view: SideView, attacking_controlled: bool) -> float:
    removal = view.rules.removal
    cost = 0.25 * cards.total + (2.5 if cards[HERO] else 0.0)
    if attacking_controlled and removal == "advanced":  # the strongest card is removed for good
        top = cards.strongest()
        cost += 2.0 if top == HERO else 0.3 * (top or 0)
    return cost


def score(view: SideView, move: Move) -> float:
    point = view.to_play
    if point == REMOVE_CHOICE:  # lose as little strength as the rule allows
        return -(_strength(move.cards) + 0.1 * move.cards.size)
    if point == SETUP_DISCARD:  # set the weakest cards aside
        return -_strength(move.cards)
    if point == TEAM_SPLIT:  # share evenly: both members must place
        return -abs((view.hand.size - move.cards.size) - move.cards.size) - 0.01 * _strength(move.cards)
    if point == TEAM_ORDER:  # the partner opens; the drawer, who knows its own hand, answers later
        return 0.0 if move.first_member == view.member else 0.1
    battle = battle_of(point)
    assert battle is not None
    castle = move.castle if move.castle is not None else (view.x, view.y)[battle]
    assert castle is not None
    mine = _strength(move.cards)
    theirs = _opposition(view, castle, battle)
    control = view.castles[castle]
    if control == view.side:  # defending: ties hold
        theirs -= 0.5
    p = _win_chance(mine, theirs)
    if move.cards[HERO]:  # only the other hero can stop it
        p = max(p, 0.95 if view.opponent.removed[HERO] else 0.85)
    attacking_controlled = control not in (NEUTRAL, view.side)
    return castle_value(view, castle) * p - _cost(move.cards, view, attacking_controlled)


class Heuristic:
    """Plays the best-scoring move; equal scores share the probability."""

    name = "heuristic"
    exact = True

    def _best(self, view: SideView) -> list[Move]:
        moves = list(view.legal_moves)
        scored = [(round(score(view, m), 9), m) for m in moves]
        top = max(s for s, _ in scored)
        return [m for s, m in scored if s == top]

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        if view.to_play == CONCEDE_CHOICE:
            return [(concede_move(view), Fraction(1))]
        best = self._best(view)
        return [(m, Fraction(1, len(best))) for m in best]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        best = self._best(view)
        return best[rng.randrange(len(best))]
