"""One entry point for the panels and the command line: exact where the tree allows, else sampled."""

from __future__ import annotations

import random
from concurrent.futures import Executor
from typing import Callable

from ..engine_api import Draw, Hooks, Move, Position, play
from .exact import exact_distribution, out_of_reach, require_exact
from .limits import ExactOutOfReach
from .fast.encode import unsupported
from .fast.endgame import frozen
from .registry import POLICIES, policy_named
from .results import AnalysisResult, exact_result, sampled_result
from .sample import play_games, sample_games_on

__all__ = ["POLICIES", "policy_named", "analyse", "estimate_tree_size", "in_endgame", "ExactOutOfReach"]
#: Estimated tree nodes above which "auto" samples instead (about a second of enumeration).
EXACT_BUDGET = 300_000
#: Tree nodes per second of the exact enumeration, measured on the check positions.
NODES_PER_SECOND = 300_000
#: Estimated tree nodes above which an explicit exact request is refused unless forced: about a
#: minute of enumeration (a request just under a limit of minutes ran for minutes unannounced).
EXACT_LIMIT = 60 * NODES_PER_SECOND


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
    within :data:`EXACT_BUDGET` and both policies are exact, else sampled).
    Sampling runs in this process, or on ``executor`` with identical results.
    Unless ``fast`` is False, sampling uses the compiled games and exact
    enumeration the endgame solver where they apply (uniform policies, 2-player
    sides; see :mod:`.fast`): the same answers, much sooner.  An explicit exact
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
            can = all(pol.exact for pol in pols) and estimate_tree_size(p) <= EXACT_BUDGET
        method = "exact" if can else "sample"
    if method == "exact":
        require_exact(pols)
    if method == "exact" and not force and not endgame:
        size = estimate_tree_size(p)
        if EXACT_LIMIT / 100 < size <= EXACT_LIMIT:  # Knuth's estimate is heavy-tailed: a few probes tend to
            size = max(size, estimate_tree_size(p, probes=300, seed=1))  # miss the big subtrees; look again
        if size > EXACT_LIMIT:
            raise ExactOutOfReach(out_of_reach(size, size / NODES_PER_SECOND))
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
