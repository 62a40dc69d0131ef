"""The one game loop: play a position to its end, chance sampled, decisions asked of policies.

As in OpenSpiel's ``evaluate_bots``: at a chance point the loop samples the
engine's chance outcome, at a decision point it asks the
acting side's policy, which sees only that side's view (with the public record
both sides remember, :class:`~guyenne_explore.engine.view.PublicRecord`).  Whatever a
caller needs besides the final position (a game record, the table's leader at
each end of a round, a tree-size estimate, a search's rollout statistics) is a
:class:`Hooks` object watching the events; the loop itself decides nothing.

Every sampled game of the package goes through :func:`play`: records
(:func:`.record.play_game`), sampled analysis (``analysis.sample.play_out``),
rollouts and the tree-size estimate.  The compiled kernel of
``analysis.compiled`` is its twin for uniform play, proven equal by the tests that
replay its games here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Sequence

from .drawing import Piles
from .flow import apply_move
from .moves import Move
from .policy import UNIFORM, Policy
from .position import Position
from .rules import Rules
from .state import Draw
from .view import PublicRecord, side_view


class Hooks:
    """Watches a game as :func:`play` runs it; every method does nothing unless overridden."""

    def decision(self, p: Position, side: int, move: Move) -> None:
        """``side`` chose ``move`` at ``p`` (called before the move is applied)."""

    def chance(self, p: Position, draw: Draw) -> None:
        """The chance outcome ``draw`` happened at ``p`` (called before it is applied)."""

    def end(self, p: Position) -> None:
        """The game is over at ``p``."""


def begin_game(policy: Policy, rules: Rules, rng: random.Random) -> Policy:
    """What plays a game under ``rules`` for ``policy``: what its ``begin_game(rules, rng)`` method returns where it
    has one (a policy that draws something once a game, such as a mixture that draws its member for the whole
    game), else the policy itself."""
    begin = getattr(policy, "begin_game", None)
    return begin(rules, rng) if begin is not None else policy


def game_members(policy: Policy, rules: Rules) -> list[tuple[Fraction, Policy]]:
    """What :func:`begin_game` may return for ``policy`` under ``rules``, each with its probability: its
    ``game_members(rules)`` where it has them (an exact enumeration sums over them), else the policy itself."""
    members = getattr(policy, "game_members", None)
    return members(rules) if members is not None else [(Fraction(1), policy)]


class GameTooLong(RuntimeError):
    """A game that did not end within the events allowed (a policy or position out of the rules' bounds)."""


def play(start: Position, rng: random.Random, policies: tuple[Policy, Policy] = (UNIFORM, UNIFORM),
         hooks: Sequence[Hooks] = (), max_events: int = 100_000, check_moves: bool = True,
         chance: random.Random | None = None) -> Position:
    """Play ``start`` to its end and return the final position.

    Chance and decisions have streams of their own: the draws come from each side's pile in an
    order drawn from ``chance`` (:class:`~.drawing.Piles`; by default ``chance`` is ``rng``'s first
    number, taken before the game begins), the policies' choices from ``rng``.  So a seed gives one
    game, and the same seed deals the same cards in the same order whatever the policies decide
    (the skill ladder's games in swapped seats share their deals).  ``check_moves=False`` trusts the
    policies' moves (they choose among their view's legal moves): the analysis' hot path.  A policy that
    decides something once a game (:func:`begin_game`) does so before the first event, side 0 first.
    """
    piles = Piles.seeded(rng if chance is None else chance).dealt(start)
    policies = begin_game(policies[0], start.rules, rng), begin_game(policies[1], start.rules, rng)  # side 0 first
    p = start
    record = PublicRecord.assumed(p)
    events = 0
    while not p.is_over:
        events += 1
        if events > max_events:
            raise GameTooLong(f"game did not end within {max_events} events")
        if p.is_chance:
            draw, piles = piles.draw(p)
            for h in hooks:
                h.chance(p, draw)
            q, move = p.apply_outcome(draw), None
        else:
            side = p.side_to_play
            assert side is not None
            move = policies[side].choose(side_view(p, side, record=record), rng)
            for h in hooks:
                h.decision(p, side, move)
            q = apply_move(p, move, checked=check_moves)
        record, p = record.after(p, q, move), q
    for h in hooks:
        h.end(p)
    return p
