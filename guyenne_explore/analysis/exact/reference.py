"""Exact distributions under uniform play by a plain memoised recursion over engine positions.

This is the reference the exact analysis is measured and tested against: one
recursive function, every node memoised, integer weights over a common
denominator, and nothing but the engine's own answers (legal moves, apply,
chance outcomes with their exact probabilities, the result).  Its speed comes
from merging positions that share a future, by a key that drops what cannot
matter any more (:func:`merge_key`); every dropped piece is justified there and
the tests compare merged and unmerged answers on small positions.

A value is ``(denominator, {outcome: numerator})`` with outcomes
``(english, french, winner, ending, rounds after this one)`` as in :mod:`.exact`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from math import gcd, lcm

from ...engine import (CONCEDE_CHOICE, OPEN_SECOND, PLACEMENTS, REMOVE_CHOICE, RESPOND_SECOND, UNIFORM,
                          Position, Side, apply_legal, battle_winner, cannot_reshuffle_again)
from ..cancel import Cancelled

Outcome = tuple[int, int, str, str, int]
Value = tuple[int, dict[Outcome, int]]


def _side_key(s: Side, settled: bool, to_play: str) -> tuple:
    """What of a side can still change the game.

    - A side that can never reshuffle again (the engine's ``cannot_reshuffle_again``) never sees its discard
      or its removed cards again, and neither counts in a score (unspent cards are hand and deck):
      both are dropped (``settled``).
    - The two members of a team are labels: the engine chooses who acts from the drawer and the
      order only, so swapping the hands together with the drawer and the order swaps the members
      of every future position, and the uniform policy treats both alike.  The key takes the
      smaller of the two labellings.  A position in a round whose order is not decided yet at a
      placement (only a hand-made one) keeps its labels: there member 0 would act by default.
    """
    discard, removed = (None, None) if settled else (s.discard, s.removed)
    own = (s.hands, s.drawer, s.order)
    if s.is_team and not (s.order is None and (to_play in PLACEMENTS or to_play in (CONCEDE_CHOICE, REMOVE_CHOICE))):
        swapped = ((s.hands[1], s.hands[0]), 1 - s.drawer, None if s.order is None else 1 - s.order)
        own = min(own, swapped, key=lambda t: (t[0], t[1], -1 if t[2] is None else t[2]))
    return own, s.deck, discard, removed, s.exhaustions, s.deck_order


def merge_key(p: Position) -> tuple:
    """A key equal for positions with the same distribution of outcomes (rounds counted from now).

    Besides :func:`_side_key`:

    - the round number is dropped: nothing in a round depends on its number, and outcomes count
      rounds from the position;
    - once both sides are settled (neither can reshuffle) and both have placed at X, X's cards
      matter only through who wins X (the engine's ``battle_winner`` at X's control): the cards
      themselves go to discards or removed piles that no longer count;
    - a mirror image of the castle line (castle c as castle n-1-c, X and Y too) has the mirrored
      future: the uniform policy picks every castle alike and a table's score reads runs of
      adjacent castles, the same from either end (a line or a ring).  The key takes the smaller.
    """
    rules = p.rules
    settled = all(cannot_reshuffle_again(s, rules) for s in p.sides)
    sides = tuple(_side_key(s, cannot_reshuffle_again(s, rules), p.to_play) for s in p.sides)
    placed = p.placed
    #: the cards placed; once settled, the first battle's winner in place of its two placements
    cards: tuple = placed.cards
    if settled and p.to_play in (OPEN_SECOND, RESPOND_SECOND):
        x = placed.x
        assert x is not None
        cards = (battle_winner(p.castles[x], cards[0][0], cards[1][0]), cards[0][1], cards[1][1])
    n = len(p.castles)
    view = (p.castles, placed.x, placed.y)
    mirror = (p.castles[::-1], None if placed.x is None else n - 1 - placed.x,
              None if placed.y is None else n - 1 - placed.y)
    table = min(view, mirror, key=lambda t: (t[0], -1 if t[1] is None else t[1], -1 if t[2] is None else t[2]))
    return table, p.first, p.to_play, p.battle, sides, cards


def _identity(p: Position) -> Position:
    return p


class Reference:
    """Memoised recursion under the uniform policy; ``merge=False`` memoises on whole positions."""

    def __init__(self, merge: bool = True, progress: Callable[[int], bool | None] | None = None):
        self.key: Callable[[Position], object] = merge_key if merge else _identity
        self.memo: dict[object, Value] = {}
        self.progress = progress

    @property
    def states(self) -> int:
        return len(self.memo)

    def distribution(self, p: Position) -> dict[Outcome, Fraction]:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            den, nums = self.value(p)
        finally:
            sys.setrecursionlimit(limit)
        return {o: Fraction(v, den) for o, v in nums.items()}

    def shortcut(self, p: Position) -> Value | None:
        """A value found another way (a subclass's faster solver), or None to recurse."""
        return None

    def value(self, p: Position) -> Value:
        key = self.key(p)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        out: Value | None
        out = self.shortcut(p)
        if out is not None:
            pass
        elif p.is_over:
            r = p.result()
            assert r.ending is not None
            out = (1, {(r.english, r.french, r.winner, r.ending.reason, 0): 1})
        elif p.is_chance:
            terms = []
            for draw, q in p.chance_outcomes():
                child = p.apply_outcome(draw)
                terms.append((q, child.round - p.round, self.value(child)))
            out = _mix(terms)
        else:
            if p.to_play == CONCEDE_CHOICE:
                side = p.side_to_play
                assert side is not None
                moves = [m for m, _ in UNIFORM.distribution(p.view(side))]
            else:
                moves = list(p.legal_moves)
            share = Fraction(1, len(moves))
            out = _mix([(share, 0, self.value(apply_legal(p, m))) for m in moves])
        self.memo[key] = out
        if self.progress and len(self.memo) % 1000 == 0 and self.progress(len(self.memo)) is False:
            raise Cancelled()
        return out


def _mix(terms: list[tuple[Fraction, int, Value]]) -> Value:
    """The sum of ``q * value`` (outcomes shifted by the rounds that passed), as one integer vector."""
    common = lcm(*(q.denominator * den for q, _, (den, _) in terms))
    nums: dict[Outcome, int] = {}
    for q, shift, (den, child) in terms:
        factor = q.numerator * (common // (q.denominator * den))
        for (e, f, w, end, k), v in child.items():
            o = (e, f, w, end, k + shift)
            nums[o] = nums.get(o, 0) + factor * v
    g = gcd(common, *nums.values())
    return common // g, {o: v // g for o, v in nums.items()}
