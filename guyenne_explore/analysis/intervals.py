"""95% intervals of sampled figures: Wilson for proportions, Student t for means.

``scipy.special`` (the quantiles) is imported on the first interval asked for, not
with the analysis (``import guyenne_explore.analysis``
stays light for the command line and the engine's users).
"""

from __future__ import annotations

import math
from typing import Sequence


def wilson(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion: scipy's ``binomtest(...).proportion_ci(method="wilson")``,
    its formula (Newcombe 1998) and its normal quantile, without importing ``scipy.stats`` (over a
    second of CPU at the end of every command-line run, against a few tenths for ``scipy.special``).

    ``successes`` may be a score with half points (a draw counting 1/2): the interval is then that of
    the observed share, as chess ratings take it, rather than of a count rounded to a whole number."""
    from scipy.special import ndtri

    k, n = float(successes), int(trials)
    if not 0 <= k <= n:
        raise ValueError(f"wilson: {successes!r} successes out of {trials!r} trials")
    p = k / n
    z = float(ndtri(0.5 + 0.5 * confidence))
    denom = 2 * (n + z ** 2)
    center = (2 * n * p + z ** 2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z ** 2)
    return (0.0 if k == 0 else center - delta), (1.0 if k == n else center + delta)


def mean_interval(xs: Sequence[float], confidence: float = 0.95,
                  counts: Sequence[int] | None = None) -> tuple[float, float, float]:
    """The mean of ``xs`` and its Student t interval (a point for fewer than two values).  ``counts``:
    how many times each value occurs (a million sampled games have a few hundred distinct values)."""
    weights = counts if counts is not None else [1] * len(xs)
    n = sum(weights)
    mean = sum(w * x for x, w in zip(xs, weights)) / n
    if n < 2:
        return mean, mean, mean
    from scipy.special import stdtrit  # scipy.stats.t.ppf's own function

    var = sum(w * (x - mean) ** 2 for x, w in zip(xs, weights)) / (n - 1)
    half = float(stdtrit(n - 1, 0.5 + confidence / 2)) * (var / n) ** 0.5
    return mean, mean - half, mean + half


def difference_interval(first: float, first_interval: tuple[float, float],
                        second: float, second_interval: tuple[float, float]) -> tuple[float, float]:
    """The 95% interval of ``first - second``, two independent estimates, from each one's own interval: Newcombe's
    hybrid score interval (his method 10, 1998) when both are Wilson intervals of proportions, and the same
    recovery of variances (Zou and Donner's MOVER) for means with Student t intervals.

    Wilson's intervals are asymmetric near 0 and 1, so the difference keeps each side's own distance: its
    low end takes the first estimate's distance below and the second's above, and its high end the reverse.
    Two estimates made from the same seed are positively correlated where the rule sets play alike, which
    makes this interval err wide, never narrow.  An exact estimate (a point) adds no width."""
    (low1, high1), (low2, high2) = first_interval, second_interval
    for value, low, high in ((first, low1, high1), (second, low2, high2)):
        if not low <= value <= high:
            raise ValueError(f"difference_interval: {value!r} lies outside its interval [{low!r}, {high!r}]")
    d = first - second
    return (d - math.hypot(first - low1, high2 - second), d + math.hypot(high1 - first, second - low2))
