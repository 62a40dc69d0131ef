"""Racing: a candidate's games are played in rungs, and one that already misses a target is dropped.

Successive halving's schedule (a quarter, a half, then all of the games) without its fixed cut: a
candidate is dropped after a rung only when the 95% interval of some target's metric lies wholly
outside the target's range (:meth:`.targets.Target.missed`).  A candidate that truly meets the
targets is then dropped only when an interval misses its true value, about one time in twenty a
target a rung at worst, and most poor candidates stop after a quarter of their games.  Every
candidate plays the same games in each rung (common random numbers): the rung's seed is the
search's seed and the rung's number (:func:`rung_seed`), whatever the candidate.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ...metrics import Metric
from .targets import Target

#: how much of a candidate's games each rung has played by its end
RUNG_SHARES = (0.25, 0.5, 1.0)


def rungs(games: int, shares: Sequence[float] = RUNG_SHARES) -> list[int]:
    """The games played by the end of each rung (rising, the last is ``games``); fewer rungs for few games."""
    ends = sorted({max(1, round(games * s)) for s in shares} | {games})
    return [n for n in ends if n <= games]


def rung_seed(seed: int, rung: int) -> int:
    """The seed of a rung's new games: the same for every candidate (common random numbers), another for
    each rung (its games are new games, not the first rung's again)."""
    return (seed * 1_000_003 + rung) % 2**62


def missed(targets: Sequence[Target], metrics: Mapping[str, Metric]) -> list[Target]:
    """The targets a candidate's intervals already miss (racing drops it when any)."""
    return [t for t in targets if t.metric in metrics and t.missed(metrics[t.metric])]
