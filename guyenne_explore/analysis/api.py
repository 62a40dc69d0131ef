"""One entry point for the panels and the command line: exact where the tree allows, else sampled."""

from __future__ import annotations

import random
from math import comb
from concurrent.futures import Executor
from typing import Callable

from ..engine_api import Cards, Draw, Hooks, Move, Position, play
from .exact.distribution import exact_distribution, out_of_reach, require_exact
from .limits import ExactOutOfReach
from .compiled.encode import unsupported
from .exact.endgame import applies, frozen
from .exact.forward import ForwardEndgame
from .policies.registry import POLICIES, policy_named
from .results import AnalysisResult, exact_result, sampled_result
from .sampling.sample import play_games, sample_games_on

__all__ = ["POLICIES", "policy_named", "analyse", "estimate_tree_size", "estimate_exact_cost", "in_endgame",
           "ExactOutOfReach"]
#: Estimated seconds of exact analysis (:func:`estimate_exact_cost`) above which "auto" samples instead.
AUTO_SECONDS = 1.0


#: Cards still in decks (both sides together) up to which "auto" solves an endgame by full
#: enumeration in float64: 2 cards a deck take 0.3 s at worst, 3 a deck 2 s
#: (``benchmarks/bench_speed.py`` prints the times by deck size).
ENDGAME_DECKS_AUTO = 4
ARITHMETICS = ("fraction", "float")




def estimate_tree_size(p: Position, probes: int = 30, seed: int = 0) -> float:
    """Knuth's estimator of the number of nodes of the game tree below ``p`` (random probes)."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        probe = _Probe()
        play(p, rng, hooks=(probe,), check_moves=False)
        total += probe.nodes
    return total / probes


class _Probe(Hooks):
    """One probe of Knuth's estimator: the product of the branching factors met along a uniform
    game, summed over its depths, is an unbiased estimate of the tree's size."""

    def __init__(self) -> None:
        self.weight, self.nodes = 1.0, 1.0

    def _step(self, branching: int) -> None:
        self.weight *= branching
        self.nodes += self.weight

    def decision(self, p: Position, side: int, move: Move) -> None:
        self._step(max(1, len(p.legal_moves)))

    def chance(self, p: Position, draw: Draw) -> None:
        self._step(len(p.chance_outcomes()))


#: Seconds of exact analysis per node of the game tree above the endgame round starts (tree nodes:
#: the merging recursion solves fewer states, but what each costs varies more than their count)
SECONDS_PER_NODE = 2.5e-5
#: Seconds per round start of an endgame below them (castle table, both hands and decks), which
#: :class:`.exact.endgame.Endgame` solves in closed form round by round
SECONDS_PER_ENDGAME_STATE = 5e-5
#: Estimated seconds above which an explicit exact request is refused unless forced: about a minute
#: (a request just under a limit of minutes ran for minutes unannounced)
EXACT_SECONDS = 60.0


def estimate_exact_cost(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), probes: int = 30,
                        seed: int = 0) -> tuple[float, float]:
    """What an exact analysis of ``p`` will do: ``(positions, seconds)``.

    Knuth's estimator as in :func:`estimate_tree_size`, but each probe stops at the first endgame
    round start that the exact analysis hands to an endgame solver (:func:`.exact.endgame.applies`,
    uniform play without reshuffles): the tree below it is never enumerated.  Such a start costs
    the round starts its endgame can reach (:func:`_endgame_states`), far fewer than its subtree's
    nodes.  Both counts turn into seconds by constants that ``benchmarks/bench_exact.py`` calibrates
    (it prints the seconds per unit it measures)."""
    nodes, endgame = exact_cost_parts(p, policies, probes, seed)
    return nodes + endgame, nodes * SECONDS_PER_NODE + endgame * SECONDS_PER_ENDGAME_STATE


def exact_cost_parts(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), probes: int = 30,
                     seed: int = 0) -> tuple[float, float]:
    """The two counts of :func:`estimate_exact_cost`: tree nodes above the first endgame round starts,
    and the round starts of the endgames there."""
    rng = random.Random(seed)
    nodes = endgame = 0.0
    sizes: dict[tuple, float] = {}
    sides: dict[tuple, list[int]] = {}
    forward: ForwardEndgame | None = None
    for _ in range(probes):
        probe = _EndgameProbe(tuple(policies))  # type: ignore[arg-type]
        try:
            play(p, rng, hooks=(probe,), check_moves=False)
        except _Stop:
            stop = probe.stop
            assert stop is not None
            key = tuple((s.hand, s.deck) for s in stop.sides)
            if key not in sizes:
                forward = forward or ForwardEndgame(p.rules)
                sizes[key] = _endgame_states(stop, forward, sides)
            endgame += probe.weight * sizes[key]
        nodes += probe.nodes
    return nodes / probes, endgame / probes


#: Side states of one round past which :func:`_endgame_states` stops following an endgame's rounds:
#: 60 a side make 3,600 pairs over up to 729 castle tables, already minutes of endgame, and following
#: decks of many cards further would take the estimate itself seconds
ENDGAME_SIDE_STATES = 60


def _endgame_states(p: Position, forward: ForwardEndgame, sides: dict[tuple, list[int]]) -> float:
    """Round starts an endgame from ``p`` can reach: each side's cards evolve by themselves in an
    endgame (:func:`_side_states`), so the pairs of side states of a round are at most the product
    of each side's; times the castle tables that differ from ``p``'s in at most the castles the
    rounds so far could take (two a round).  Past :data:`ENDGAME_SIDE_STATES` states of a side in a
    round (decks of many cards: an endgame far beyond an exact analysis) that round's count stands
    for every round the cards can still last."""
    levels = [_side_states(s.hand, s.deck, forward, sides) for s in p.sides]
    n = len(p.castles)
    rounds = max(1, min(s.hand.size + s.deck.size for s in p.sides) // 2)  # each spends two cards or more
    total = 0.0
    for r, (a, b) in enumerate(zip(*levels)):  # the game ends when either side is out of rounds
        pairs = a * b * sum(comb(n, k) * 2 ** k for k in range(min(n, 2 * r) + 1))
        if max(a, b) > ENDGAME_SIDE_STATES:
            return total + pairs * max(1, rounds - r)
        total += pairs
    return total


def _side_states(hand: Cards, deck: Cards, forward: ForwardEndgame, cache: dict[tuple, list[int]]) -> list[int]:
    """How many ``(hand, deck)`` one side can hold at each coming round start of an endgame, the game
    going on (:meth:`.exact.forward.ForwardEndgame.next_states`), up to the first round past
    :data:`ENDGAME_SIDE_STATES` (cached: probes meet the same sides again and again)."""
    key = (hand, deck)
    hit = cache.get(key)
    if hit is None:
        level, hit = {key}, []
        while level:
            hit.append(len(level))
            if len(level) > ENDGAME_SIDE_STATES:
                break
            level = set().union(*(forward.next_states(*state) for state in level))
        cache[key] = hit
    return hit


class _Stop(Exception):
    """A probe reached an endgame round start."""


class _EndgameProbe(Hooks):
    """A probe of :func:`estimate_exact_cost`: Knuth's sum of branching products down to the first
    endgame round start (``stop``, with the probe's ``weight`` there)."""

    def __init__(self, policies: tuple[str, str]) -> None:
        self.policies = policies
        self.weight, self.nodes = 1.0, 1.0
        self.stop: Position | None = None

    def decision(self, p: Position, side: int, move: Move) -> None:
        if applies(p, self.policies):
            self.stop = p
            raise _Stop()
        self.weight *= max(1, len(p.legal_moves))
        self.nodes += self.weight

    def chance(self, p: Position, draw: Draw) -> None:
        self.weight *= len(p.chance_outcomes())
        self.nodes += self.weight


def in_endgame(p: Position, policies: tuple[str, str]) -> bool:
    """Whether every round start from ``p`` on is solved by the endgame solver (no side can reshuffle)."""
    return unsupported(p, policies) is None and all(frozen(s, p.rules) for s in p.sides)


def analyse(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), method: str = "auto",
            games: int = 2000, seed: int = 0,
            progress: Callable[[int, int], bool | None] | None = None,
            executor: Executor | None = None, force: bool = False, fast: bool = True,
            arithmetic: str | None = None) -> AnalysisResult:
    """Outcome distribution from ``p``.

    ``method`` is "exact", "sample" or "auto" (exact when the estimated tree is
    within :data:`AUTO_SECONDS` and both policies are exact, else sampled).
    Sampling runs in this process, or on ``executor`` with identical results.
    Unless ``fast`` is False, sampling uses the compiled games and exact
    enumeration the endgame solver where they apply (uniform policies, 2-player
    sides; see :mod:`.compiled`): the same answers, much sooner.  An explicit exact
    request on an endgame is never refused: it reports progress and can be cancelled.

    ``arithmetic`` says how an exact distribution is summed: "fraction" (exact fractions,
    ``p_exact``) or "float" (float64: the same to rounding, endgames many times sooner).
    By default an explicit "exact" uses fractions and "auto" floats.
    """
    pols = (policy_named(policies[0]), policy_named(policies[1]))
    if method not in ("auto", "exact", "sample"):
        raise ValueError(f"method must be auto, exact or sample, not {method!r}")
    if arithmetic is None:
        arithmetic = "float" if method == "auto" else "fraction"
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be fraction or float, not {arithmetic!r}")
    endgame = fast and in_endgame(p, policies)
    if method == "auto":
        if endgame:
            can = sum(s.deck.size for s in p.sides) <= ENDGAME_DECKS_AUTO
        else:
            can = all(pol.exact for pol in pols) and estimate_exact_cost(p, policies)[1] <= AUTO_SECONDS
        method = "exact" if can else "sample"
    if method == "exact":
        require_exact(pols)
    if method == "exact" and not force and not endgame:
        size, seconds = estimate_exact_cost(p, policies)
        if EXACT_SECONDS / 100 < seconds <= EXACT_SECONDS:  # Knuth's estimate is heavy-tailed: a few probes
            again = estimate_exact_cost(p, policies, probes=300, seed=1)  # tend to miss the big subtrees; look again
            size, seconds = max((size, seconds), again, key=lambda cost: cost[1])
        if seconds > EXACT_SECONDS:
            raise ExactOutOfReach(out_of_reach(size, seconds))
    if method == "exact":
        dist, states = exact_distribution(p, pols, (lambda n: progress(n, 0)) if progress else None, fast,
                                          floats=arithmetic == "float")
        # only endgames are summed in floats: a tree that never reaches one stays in fractions
        summed = "float" if any(isinstance(q, float) for q in dist.values()) else "fraction"
        return exact_result(p, policies, dist, states, summed)
    if executor is not None:
        samples = sample_games_on(executor, p, policies, games, seed, progress=progress, fast=fast)
    else:
        samples = play_games(p, policies, games, seed, progress=progress, fast=fast)
    return sampled_result(p, policies, samples)
