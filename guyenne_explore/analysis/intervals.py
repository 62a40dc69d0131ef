"""95% intervals of sampled figures: Wilson for proportions, Student t for means.

``scipy.stats`` takes half a second to import, so it is imported on the first
interval asked for, not with the analysis (``import guyenne_explore.analysis``
stays light for the command line and the engine's users).
"""

from __future__ import annotations

from typing import Sequence


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (scipy's ``binomtest(...).proportion_ci``)."""
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(trials)).proportion_ci(confidence, method="wilson")
    return float(ci.low), float(ci.high)


def mean_interval(xs: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of ``xs`` and its Student t interval (a point for fewer than two values)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, mean, mean
    from scipy.stats import t

    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = float(t.ppf(0.5 + confidence / 2, n - 1)) * (var / n) ** 0.5
    return mean, mean - half, mean + half
