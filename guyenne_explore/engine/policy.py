"""Policies as the engine knows them: how a side chooses, from its own view only.

A policy gives a probability distribution over the legal moves of a
:class:`~guyenne_explore.engine.view.SideView`.  Exact analysis needs that distribution
with exact fractions; sampling only needs :meth:`Policy.choose`.  The reference
policy, :class:`Uniform`, lives here (not in the analysis layer) because the
engine's own game loop (:mod:`.game_loop`) plays it by default; the analysis
layer re-exports it from :mod:`guyenne_explore.analysis.policies`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Protocol, runtime_checkable

from .flow import defence_holds
from .moves import Move
from .state import CONCEDE_CHOICE
from .view import SideView


@runtime_checkable
class Policy(Protocol):
    """A side's way of playing, asked with that side's view only.

    A policy whose decisions read the public record of the game (what its side has seen before, not only the
    position) says so with a class attribute ``remembers = True``: an exact enumeration then carries the record
    along each path, as the game loop does, so that its exact answer is the one its sampled games estimate.

    A policy that draws something once a game (a mixture of models whose member plays a whole game) has a method
    ``begin_game(rules, rng)`` that returns the policy playing that game, which the game loop asks before the first
    event (:func:`.game_loop.begin_game`), and ``game_members(rules)``, what it may return with its probabilities,
    over which an exact enumeration sums."""

    name: str
    #: True when :meth:`distribution` is exact and cheap enough for exact enumeration
    exact: bool

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]: ...

    def choose(self, view: SideView, rng: random.Random) -> Move: ...


def concede_move(view: SideView) -> Move:
    """The built-in defender's rule (RULES.md 4): reveal when the defence holds, concede when it falls."""
    b = view.battle or 0
    mine, theirs = view.own_placed[b], view.opponent_placed[b]
    assert theirs is not None, "the attacker has revealed at concede_choice"
    cards = (mine, theirs) if view.side == 0 else (theirs, mine)
    return Move(concede=not defence_holds(view.side, *cards))


class Uniform:
    """The reference policy (RULES.md 10): every legal move equally likely, the built-in concede rule."""

    name = "uniform"
    exact = True

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        if view.to_play == CONCEDE_CHOICE:
            return [(concede_move(view), Fraction(1))]
        moves = list(iter(view.legal_moves))  # iter(): no count of the moves before listing them
        p = Fraction(1, len(moves))
        return [(m, p) for m in moves]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        moves = list(iter(view.legal_moves))
        return moves[rng.randrange(len(moves))]


#: the one uniform policy (it holds no state)
UNIFORM = Uniform()
