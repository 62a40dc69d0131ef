"""Designer metrics from a batch of games, named as Ludii names them where one exists.

Each metric is a proportion or a mean with a 95% interval: Wilson intervals for
proportions (statsmodels), Student t for means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from .sample import Game


@dataclass(frozen=True)
class Metric:
    name: str
    value: float
    low: float | None
    high: float | None
    meaning: str

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "value": self.value, "ci95": [self.low, self.high], "meaning": self.meaning}


def _proportion(name: str, k: int, n: int, meaning: str) -> Metric:
    lo, hi = proportion_confint(k, n, 0.05, "wilson")
    return Metric(name, k / n, float(lo), float(hi), meaning)


def _mean(name: str, xs: Sequence[float], meaning: str) -> Metric:
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return Metric(name, mean, mean, mean, meaning)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = float(stats.t.ppf(0.975, n - 1)) * (var / n) ** 0.5
    return Metric(name, mean, mean - half, mean + half, meaning)


def designer_metrics(games: Sequence[Game]) -> list[Metric]:
    """Advantage, balance, drawishness and duration of a batch of games (english, french, winner, rounds)."""
    n = len(games)
    if n == 0:
        raise ValueError("designer metrics need at least one game")
    eng = sum(1 for g in games if g[2] == "english")
    fr = sum(1 for g in games if g[2] == "french")
    draws = n - eng - fr
    decided = eng + fr
    balance = 1 - abs(eng - fr) / decided if decided else 1.0
    return [
        _proportion("Advantage (english)", eng, n, "share of games the english (first player in round 1) win"),
        _proportion("Advantage (french)", fr, n, "share of games the french win"),
        Metric("Balance", balance, None, None,
               "1 when both sides win equally often, 0 when one always wins (decided games)"),
        _proportion("Drawishness", draws, n, "share of games that end in a draw"),
        _mean("Duration (rounds)", [g[3] for g in games], "rounds played per game"),
        _mean("Score difference", [g[0] - g[1] for g in games], "english score minus french score"),
        _proportion("Sweep", sum(1 for g in games if 12 in (g[0], g[1])), n,
                    "share of games won by controlling all six castles"),
        *_decisiveness(games),
        *_hero_value(games),
    ]


def _decisiveness(games: Sequence[Game]) -> list[Metric]:
    decided = [g.decided / g.rounds for g in games if g.winner != "draw"]
    if not decided:
        return []
    return [_mean("Decisiveness", decided, "share of the game played when the eventual winner took the "
                  "lead on the table for good (lower: decided earlier)")]


def _hero_value(games: Sequence[Game]) -> list[Metric]:
    """Win rate of a side with its hero still in play at the end against with it removed."""
    out = []
    for i, side in enumerate(("english", "french")):
        kept = [g for g in games if g.hero_kept[i]]
        gone = [g for g in games if not g.hero_kept[i]]
        if kept and gone:
            a = _proportion("", sum(g.winner == side for g in kept), len(kept), "")
            b = _proportion("", sum(g.winner == side for g in gone), len(gone), "")
            out.append(Metric(f"Hero value ({side})", a.value - b.value, None, None,
                              f"{side} win rate with its hero kept ({a.value:.3f} [{a.low:.3f}, {a.high:.3f}], "
                              f"{len(kept)} games) minus with it removed ({b.value:.3f} [{b.low:.3f}, "
                              f"{b.high:.3f}], {len(gone)} games)"))
    return out
