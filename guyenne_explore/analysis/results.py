"""Analysis results as data: RULES.md section 10 JSON and a tidy table.

Exact results keep fractions (``p_exact``); sampled ones carry 95% confidence
intervals (Wilson for the win/draw/loss probabilities, Student t for mean scores).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..engine_api import Position, Problem
from .exact.distribution import Distribution
from .intervals import mean_interval, wilson
from .metrics import Metric, Outcome, Weight, weighted_metrics
from .outcomes import Game

if TYPE_CHECKING:
    from .planning import Plan

WINNERS = ("english", "french", "draw")


@dataclass
class AnalysisResult:
    """Outcome probabilities of a position under a rule set and a pair of policies."""

    position: Position
    policies: tuple[str, str]
    exact: bool
    #: (english score, french score, winner) -> probability (Fraction when exact)
    outcomes: dict[tuple[int, int, str], Any]
    #: rounds played from the position, the current round counted as 1 -> probability
    rounds: dict[int, Any]
    games: int = 0
    states: int = 0
    #: per sampled game
    samples: list[Game] = field(default_factory=list)
    #: why the position could not arise in real play (the engine's warnings; JSON as `check --json` writes them)
    warnings: list[Problem] = field(default_factory=list)
    #: how an exact result was summed: "fraction" (exact, with ``p_exact``) or "float" (float64, to rounding)
    arithmetic: str = "fraction"
    #: exact: (english score, french score, winner, how the game ended, rounds played) -> probability: the
    #: joint of the two above with the engine's ending (one of ``scoring.ENDINGS``)
    joint: dict[tuple[int, int, str, str, int], Any] = field(default_factory=dict)
    #: what answered and why (:func:`.planning.plan`); None for a result built by hand
    plan: Plan | None = None

    def weighted(self) -> list[tuple[Outcome, Weight]]:
        """The outcomes with their weights: each sampled game counted once, or each exact outcome
        with its probability (what :func:`.metrics.weighted_metrics` reads)."""
        if not self.exact:
            return list(self.sample_counts.items())  # type: ignore[arg-type]
        return [(Outcome(e, f, w, n, end), q) for (e, f, w, end, n), q in sorted(self.joint.items())]

    @cached_property
    def sample_counts(self) -> Counter[Game]:
        """Each distinct sampled game with how many games it stands for: what the metrics and intervals
        read (a few thousand rows for a million games, counted once per result)."""
        return Counter(self.samples)

    def metrics(self) -> list[Metric]:
        """The designer metrics of this result, by the same computation for exact and sampled results."""
        return weighted_metrics(self.weighted(), counted=not self.exact)

    def endings(self) -> dict[str, Any]:
        """How the games end (one of ``scoring.ENDINGS``) -> probability (Fraction when exact)."""
        out: dict[str, Any] = defaultdict(Fraction if self.exact else float)
        for outcome, weight in self.weighted():
            out[outcome.ending] += weight
        total = 1 if self.exact else max(1, self.games)
        return {end: q / total for end, q in out.items()}

    @property
    def win(self) -> dict[str, Any]:
        """Each winner's probability: exact, or summed without rounding error (six games of one winner
        give 1.0, where adding their 1/6 shares one by one gave 0.9999999999999999)."""
        shares: dict[str, list[Any]] = {w: [] for w in WINNERS}
        for (_, _, w), p in self.outcomes.items():
            shares[w].append(p)
        return {w: sum(ps, Fraction(0)) if self.exact else math.fsum(ps) for w, ps in shares.items()}

    def win_interval(self, alpha: float = 0.05) -> dict[str, tuple[float, float]]:
        """Wilson intervals on win/draw probabilities (degenerate for exact results)."""
        if self.exact:
            return {w: (float(p), float(p)) for w, p in self.win.items()}
        counts: Counter[str] = Counter()
        for g, n in self.sample_counts.items():
            counts[g[2]] += n
        return {w: wilson(counts[w], self.games, 1 - alpha) for w in WINNERS}

    def mean_scores(self) -> dict[str, float]:
        e = sum(float(p) * k[0] for k, p in self.outcomes.items())
        f = sum(float(p) * k[1] for k, p in self.outcomes.items())
        return {"english": e, "french": f}

    def mean_score_interval(self, alpha: float = 0.05) -> dict[str, tuple[float, float]]:
        out = {}
        counts = self.sample_counts
        scores = {"english": [g.english for g in counts], "french": [g.french for g in counts]}
        for name, xs in scores.items():
            if self.exact or self.games < 2:
                m = self.mean_scores()[name]
                out[name] = (m, m)
                continue
            _, low, high = mean_interval(xs, 1 - alpha, counts=list(counts.values()))
            out[name] = (low, high)
        return out

    def to_json(self) -> dict[str, Any]:
        r = self.position.rules
        out: dict[str, Any] = {
            "rules": r.describe(),
            "policies": {"english": self.policies[0], "french": self.policies[1]},
            "exact": self.exact,
            "to_play": self.position.to_play,
            "round": self.position.round,
        }
        if not self.exact:
            out["games"] = self.games
        outcomes = []
        for (e, f, w), p in sorted(self.outcomes.items()):
            item: dict[str, Any] = {"english": e, "french": f, "winner": w, "p": float(p)}
            if self.exact and self.arithmetic == "fraction":
                item["p_exact"] = str(p)
            outcomes.append(item)
        out["outcomes"] = outcomes
        win = self.win
        out["win"] = {w: float(p) for w, p in win.items()}
        if self.exact:
            out["arithmetic"] = self.arithmetic
            if self.arithmetic == "fraction":
                out["win_exact"] = {w: str(p) for w, p in win.items()}
        else:
            out["win_ci95"] = {w: list(ci) for w, ci in self.win_interval().items()}
            out["mean_scores"] = self.mean_scores()
            out["mean_scores_ci95"] = {k: list(v) for k, v in self.mean_score_interval().items()}
        out["endings"] = {end: float(q) for end, q in sorted(self.endings().items())}
        out["metrics"] = [m.to_json() for m in self.metrics()]
        out["rounds"] = {str(k): float(v) for k, v in sorted(self.rounds.items())}
        if self.exact:
            if self.arithmetic == "fraction":
                out["rounds_exact"] = {str(k): str(v) for k, v in sorted(self.rounds.items())}
            out["states"] = self.states
        out["warnings"] = [w.to_json() for w in self.warnings]
        return out

    def table(self) -> list[dict[str, Any]]:
        """Tidy rows: one per outcome (exact) or one per game (sampled)."""
        if self.exact:
            return [{"english": e, "french": f, "winner": w, "difference": e - f, "p": float(p)}
                    for (e, f, w), p in sorted(self.outcomes.items())]
        return [{"game": i, "english": g.english, "french": g.french, "winner": g.winner,
                 "difference": g.english - g.french, "rounds": g.rounds, "decided": g.decided,
                 "english_hero_kept": g.hero_kept[0], "french_hero_kept": g.hero_kept[1]}
                for i, g in enumerate(self.samples)]


def exact_result(p: Position, policies: tuple[str, str], dist: Distribution, states: int,
                 arithmetic: str = "fraction", plan: Plan | None = None) -> AnalysisResult:
    outcomes: dict[tuple[int, int, str], Fraction] = defaultdict(Fraction)
    rounds: dict[int, Fraction] = defaultdict(Fraction)
    joint: dict[tuple[int, int, str, str, int], Fraction] = defaultdict(Fraction)
    for (e, f, w, end, n), q in dist.items():
        outcomes[(e, f, w)] += q
        rounds[n + 1] += q
        joint[(e, f, w, end, n + 1)] += q
    return AnalysisResult(p, policies, True, dict(outcomes), dict(rounds), states=states, warnings=p.warnings(),
                          arithmetic=arithmetic, joint=dict(joint), plan=plan)


def sampled_result(p: Position, policies: tuple[str, str], samples: list[Game], plan: Plan | None = None) -> AnalysisResult:
    n = len(samples)
    outcomes: Counter[tuple[int, int, str]] = Counter()
    rounds: Counter[int] = Counter()
    result = AnalysisResult(p, policies, False, {}, {}, games=n, samples=samples, warnings=p.warnings(), plan=plan)
    for g, count in result.sample_counts.items():  # the distinct games, not every game
        outcomes[(g.english, g.french, g.winner)] += count
        rounds[g.rounds] += count
    result.outcomes = {k: v / n for k, v in outcomes.items()}
    result.rounds = {k: v / n for k, v in rounds.items()}
    return result
