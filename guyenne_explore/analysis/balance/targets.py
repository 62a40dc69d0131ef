"""What a designer asks of a rule set: targets as values, read from ``name=low:high``.

A target names a designer metric (:mod:`..metrics`, by a short name or its own) or the skill depth
(:mod:`.depth`) and the range it should lie in; either end may be open (``draws=:0.05``,
``depth=2:``).  The search reads a candidate against its targets three ways: how far its value lies
from the range (what the optimiser minimises), whether its value lies inside (it *meets* the
target), and whether its 95% interval already lies wholly outside (racing drops it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from ...i18n import N_, gettext
from ..metrics import Metric

#: the depth of a rule set as a metric (:meth:`.depth.Depth.metric`): steps in its skill chain
DEPTH = "Skill depth"
#: the first player's advantage: the win rate of the side that plays first in round 1 (``first_side``)
FIRST = "Advantage (first side)"
#: short target names -> the metric behind them
TARGET_METRICS: dict[str, str] = {
    "advantage": FIRST, "english": "Advantage (english)", "french": "Advantage (french)",
    "draws": "Drawishness", "rounds": "Duration (rounds)", "sweeps": "Sweep", "balance": "Balance",
    "score": "Score difference", "decisiveness": "Decisiveness", "depth": DEPTH,
}
#: what each target means, for the command's help and the reports
TARGET_WORDS: dict[str, str] = {
    "advantage": N_("the first side's win rate"), "english": N_("the English win rate"),
    "french": N_("the French win rate"), "draws": N_("the draw rate"), "rounds": N_("rounds a game"),
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

    def met(self, value: float) -> bool:
        return self.distance(value) == 0.0

    def missed(self, metric: Metric) -> bool:
        """Whether the metric's 95% interval lies wholly outside the range: no more games would bring it
        in, short of a 1-in-20 interval (racing drops such a candidate)."""
        low = metric.value if metric.low is None else metric.low
        high = metric.value if metric.high is None else metric.high
        return (self.low is not None and high < self.low) or (self.high is not None and low > self.high)

    def surely(self, metric: Metric) -> bool:
        """Whether the whole 95% interval lies inside the range."""
        low = metric.value if metric.low is None else metric.low
        high = metric.value if metric.high is None else metric.high
        return self.met(low) and self.met(high)

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "metric": self.metric, "low": self.low, "high": self.high}


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
    low, high = _number(low_text, text), _number(high_text, text)
    if low is None and high is None:
        raise TargetError(gettext("--target {text}: give at least one end of the range").format(text=repr(text)))
    if low is not None and high is not None and low > high:
        raise TargetError(gettext("--target {text}: the low end {low} is above the high end {high}").format(
            text=repr(text), low=f"{low:g}", high=f"{high:g}"))
    return Target(name.strip().lower(), metric, low, high)


def _number(text: str, whole: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text) if len(text) <= 30 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise TargetError(gettext("--target {text}: {value} is not a number").format(
            text=repr(whole), value=repr(text[:30])))
    return value


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
