"""What a designer asks of a rule set: targets as values, read from ``name=low:high``.

A target names a designer metric (:mod:`..metrics`, by a short name or its own) or the skill depth
(:mod:`.depth`) and the range it should lie in; either end may be open (``draws=:0.05``,
``depth=2:``).  The search reads a candidate against its targets two ways: how far its value lies
from the range (what the optimiser minimises), and its :class:`Verdict`, read from the 95% interval,
never from the value alone: *met* when the whole interval lies inside the range, *missed* when it
lies wholly outside (racing drops it), else *not yet decided*, with about how many games would
decide it (an interval's width falls as one over the square root of the games).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from .... import numbers
from ....i18n import N_, gettext, plain_count
from ...metrics import Metric
from ..depth import DEPTH

#: the depth of a rule set as a metric (:meth:`.depth.Depth.metric`): steps in its skill chain
#: the first player's advantage: the score of the side that plays first in round 1 (``first_side``), a win 1 and
#: a draw a half (:func:`..metrics.score`), so that an even game sits at one half whatever its draws
FIRST = "Advantage (first side)"
#: short target names -> the metric behind them
TARGET_METRICS: dict[str, str] = {
    "advantage": FIRST, "english": "Advantage (english)", "french": "Advantage (french)",
    "draws": "Drawishness", "rounds": "Duration (rounds)", "sweeps": "Sweep", "balance": "Balance",
    "score": "Score difference", "decisiveness": "Decisiveness", "depth": DEPTH,
}
#: what each target means, for the command's help and the reports
TARGET_WORDS: dict[str, str] = {
    "advantage": N_("the first side's score: a win 1, a draw a half, 0.5 when even"),
    "english": N_("the English score: a win 1, a draw a half, 0.5 when even"),
    "french": N_("the French score: a win 1, a draw a half, 0.5 when even"), "draws": N_("the draw rate"),
    "rounds": N_("rounds a game"),
    "sweeps": N_("the rate of games ended by a sweep"), "balance": N_("1 when both sides win equally often"),
    "score": N_("English score minus French score"), "decisiveness": N_("how early the winner led for good"),
    "depth": N_("steps in the skill chain, each a level beating the one below"),
}


class TargetError(ValueError):
    """A target that cannot be read; the message names the text given and what is wrong with it."""


@dataclass(frozen=True)
class Target:
    """A metric's wanted range: ``low <= value <= high`` (an open end is None)."""

    name: str
    metric: str
    low: float | None
    high: float | None

    def __str__(self) -> str:
        return f"{self.name}={_end(self.low)}:{_end(self.high)}"

    @property
    def scale(self) -> float:
        """What one unit of distance is worth: the range's width, or an open range's bound (1 at 0), so that
        targets on probabilities and on rounds weigh alike in the search's one objective."""
        if self.low is not None and self.high is not None and self.high > self.low:
            return self.high - self.low
        bound = self.low if self.low is not None else self.high
        return abs(bound) if bound else 1.0

    def distance(self, value: float) -> float:
        """How far ``value`` lies outside the range, in :attr:`scale` units (0 inside)."""
        below = self.low - value if self.low is not None else 0.0
        above = value - self.high if self.high is not None else 0.0
        return max(0.0, below, above) / self.scale

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the range (a point: a verdict reads a whole interval, :meth:`verdict`)."""
        return self.distance(value) == 0.0

    def missed(self, metric: Metric) -> bool:
        """Whether the metric's 95% interval lies wholly outside the range: no more games would bring it
        in, short of a 1-in-20 interval (racing drops such a candidate)."""
        low, high = _bounds(metric)
        return (self.low is not None and high < self.low) or (self.high is not None and low > self.high)

    def verdict(self, metric: Metric) -> "Verdict":
        """Met only when the metric's whole 95% interval lies inside the range, missed only when it lies wholly
        outside, else not yet decided (an interval across an end), with the games that would decide it."""
        low, high = _bounds(metric)
        if self.contains(low) and self.contains(high):
            return Verdict(MET)
        if self.missed(metric):
            return Verdict(MISSED)
        return Verdict(UNDECIDED, self._games_to_decide(metric))

    def _games_to_decide(self, metric: Metric) -> int | None:
        """About how many games in all would narrow the interval to the gap between the value and the range's
        nearest end (its width falls as one over the square root of the games); None where no count of games
        would tell (a value on an end, an exact value, the depth's chain counted in whole levels)."""
        ends = [end for end in (self.low, self.high) if end is not None]
        if metric.games is None or self.metric == DEPTH or not ends:
            return None
        low, high = _bounds(metric)
        end = min(ends, key=lambda e: abs(e - metric.value))
        gap = abs(end - metric.value)
        side = high - metric.value if end > metric.value else metric.value - low
        return math.ceil(metric.games * (side / gap) ** 2) if gap > 0 and side > 0 else None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "metric": self.metric, "low": self.low, "high": self.high}


#: a target's three verdicts (:meth:`Target.verdict`)
MET, MISSED, UNDECIDED = "met", "missed", "undecided"


@dataclass(frozen=True)
class Verdict:
    """What a metric's 95% interval says of a target: :data:`MET`, :data:`MISSED` or :data:`UNDECIDED`, with
    (undecided) about how many games in all would decide it, None when no count would tell."""

    outcome: str
    games: int | None = None

    def words(self, lang: str | None = None) -> str:
        """"met", "missed", "not yet decided (about 1,700 games would tell)", in ``lang``."""
        if self.outcome == MET:
            return gettext("met", lang)
        if self.outcome == MISSED:
            return gettext("missed", lang)
        if self.games is None:
            return gettext("not yet decided", lang)
        return gettext("not yet decided (about {games} games would tell)", lang).format(
            games=plain_count(self.games, lang))

    def to_json(self) -> dict[str, object]:
        return {"verdict": self.outcome, "games_to_decide": self.games}


def verdicts(targets: Sequence[Target], metrics: Mapping[str, Metric]) -> dict[str, Verdict]:
    """Each target's verdict by its name (a target whose metric was not read has none)."""
    return {t.name: t.verdict(metrics[t.metric]) for t in targets if t.metric in metrics}


def _bounds(metric: Metric) -> tuple[float, float]:
    """The metric's 95% interval; its value at both ends where it has none (an exact value)."""
    return (metric.value if metric.low is None else metric.low, metric.value if metric.high is None else metric.high)


def _end(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


def metric_key(name: str) -> str | None:
    """The metric a target name stands for: a short name (``draws``) or a metric's own (``Drawishness``),
    any case; None when unknown."""
    key = name.strip().lower()
    if key in TARGET_METRICS:
        return TARGET_METRICS[key]
    return next((m for m in (*TARGET_METRICS.values(),) if m.lower() == key), None)


def parse_target(text: str) -> Target:
    """A target from ``name=low:high``; a :class:`TargetError` names the text and the fault."""
    name, eq, bounds = text.partition("=")
    if not eq or not name.strip():
        raise TargetError(gettext("--target {text}: write name=low:high (draws=:0.05, rounds=6:10)").format(
            text=repr(text)))
    metric = metric_key(name)
    if metric is None:
        raise TargetError(gettext("--target {text}: unknown target {name}: choose one of {choices}").format(
            text=repr(text), name=repr(name.strip()), choices=", ".join(TARGET_METRICS)))
    low_text, colon, high_text = bounds.partition(":")
    if not colon:
        raise TargetError(gettext("--target {text}: the range needs a colon, low:high (an end may be left "
                                  "open: :0.05 or 2:)").format(text=repr(text)))
    low, high = _number(low_text, text, gettext("the low end")), _number(high_text, text, gettext("the high end"))
    if low is None and high is None:
        raise TargetError(gettext("--target {text}: give at least one end of the range").format(text=repr(text)))
    if low is not None and high is not None and low > high:
        raise TargetError(gettext("--target {text}: the low end {low} is above the high end {high}").format(
            text=repr(text), low=f"{low:g}", high=f"{high:g}"))
    return Target(name.strip().lower(), metric, low, high)


#: the widest end a target may name: beyond every designer metric (rates, rounds, scores, steps of depth)
TARGET_BOUND = 1_000_000


def _number(text: str, whole: str, end: str) -> float | None:
    """One end of a target's range (None when left open), read as every typed number is
    (:func:`guyenne_explore.numbers.decimal`: ``0.05`` or ``0,05``); ``end`` names it in the refusal."""
    if not text.strip():
        return None
    try:
        return numbers.decimal(text, end, -TARGET_BOUND, TARGET_BOUND)
    except numbers.NumberError as exc:
        raise TargetError(gettext("--target {text}: {problem}").format(text=repr(whole), problem=exc)) from None


def parse_targets(texts: Sequence[str]) -> list[Target]:
    """Every ``--target``; at least one, each metric once."""
    targets = [parse_target(t) for t in texts]
    if not targets:
        raise TargetError(gettext("give at least one --target name=low:high (advantage=0.48:0.52)"))
    seen: set[str] = set()
    for t in targets:
        if t.metric in seen:
            raise TargetError(gettext("--target {name} is given twice: one range a metric").format(name=t.name))
        seen.add(t.metric)
    return targets


def distances(targets: Sequence[Target], metrics: Mapping[str, Metric]) -> list[float]:
    """Each target's distance, in order: what a search of several targets minimises, one objective a target."""
    return [t.distance(metrics[t.metric].value) for t in targets]


def objective(targets: Sequence[Target], metrics: Mapping[str, Metric]) -> float:
    """The one number that says how close a candidate is: the sum of the targets' distances (0: every target
    met); the search of one target minimises it, and the closest candidate is the one with the least."""
    return sum(distances(targets, metrics))


def dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether distances ``a`` are nowhere worse than ``b`` and better somewhere (``b`` is no trade-off then)."""
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))
