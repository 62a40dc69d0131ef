"""Designer metrics of a set of weighted game outcomes, named as Ludii names them where one exists.

One computation serves sampled and exact results: each outcome comes with a
weight, a count of sampled games or an exact probability.  Counted outcomes get
95% intervals (Wilson for proportions, Student t for means, :mod:`.intervals`);
exact ones are points.  A metric that needs a field the outcomes lack (the
round a game was decided, whether a hero was kept: exact results keep neither)
is left out rather than guessed; how a game ended, the engine's ending, every
outcome carries.  A side's advantage is its score, a draw counting a half
(:func:`score`), so that an even game sits at one half however often it is drawn.

Values are data (:class:`Metric`: name, value, interval, unit); what a metric
means is prose in :data:`MEANINGS`, the same for every run, with no numbers in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable, Sequence, Union

from ..engine import SWEEP, side_score
from ..i18n import N_, current_language, gettext, side_title
from .intervals import mean_interval, wilson
from .outcomes import Outcome

Weight = Union[int, float, Fraction]

#: units of metric values
PROBABILITY, ROUNDS, POINTS, RATIO = "probability", "rounds", "points", "ratio"

#: what each metric means, by name (``{side}`` is filled in for the per-side ones)
MEANINGS: dict[str, str] = {
    N_("Advantage (english)"): N_("the English score: a win counts 1, a draw a half, a loss 0 (0.5: an even game, "
                                  "draws or none)"),
    N_("Advantage (french)"): N_("the French score: a win counts 1, a draw a half, a loss 0 (0.5: an even game, "
                                 "draws or none)"),
    N_("Balance"): N_("1 when both sides win equally often, 0 when one always wins (decided games)"),
    N_("Drawishness"): N_("probability that the game ends in a draw"),
    N_("Duration (rounds)"): N_("rounds played per game"),
    N_("Score difference"): N_("English score minus French score"),
    N_("Sweep"): N_("probability that the game ends with one side controlling every castle"),
    N_("Decisiveness"): N_("share of the game played when the eventual winner took the lead on the table for good "
                    "(lower: decided earlier)"),
    N_("Hero value ({side})"): N_("{side} win rate with its hero still in play at the end minus with it removed"),
    N_("Win rate, hero kept ({side})"): N_("{side} win rate in the games where its hero was still in play at the end"),
    N_("Win rate, hero removed ({side})"): N_("{side} win rate in the games where its hero was removed"),
}


@dataclass(frozen=True)
class Metric:
    """A metric's value with its 95% interval (``low``/``high`` None when it has none) and unit."""

    name: str
    value: float
    low: float | None
    high: float | None
    unit: str = PROBABILITY
    #: outcomes (games, or exact: None) the value is computed from
    games: int | None = None

    @property
    def meaning(self) -> str:
        """The prose of :data:`MEANINGS` for this metric (English: the data's words)."""
        return self.meaning_in("en")

    def _key(self) -> tuple[str, str | None]:
        """The entry of :data:`MEANINGS` and the side a per-side metric is about."""
        for side in ("english", "french"):
            if self.name.endswith(f"({side})") and self.name.replace(side, "{side}") in MEANINGS:
                return self.name.replace(side, "{side}"), side
        return self.name, None

    def label(self, lang: str | None = None) -> str:
        """The metric's name as shown in ``lang`` (default: the current language); ``name`` stays the key."""
        key, side = self._key()
        lang = lang or current_language()
        if lang == "en":  # the key's side in the game's spelling: "Advantage (english)" shows "Advantage (English)"
            for name in ("english", "french"):
                if self.name.endswith(f"({name})"):
                    return f"{self.name[:-len(name) - 2]}({side_title(name, lang)})"
            return self.name
        if key not in MEANINGS:
            return self.name
        text = gettext(key, lang)
        return text.format(side=side_title(side, lang)) if side else text

    @staticmethod
    def label_of(name: str, lang: str | None = None) -> str:
        """The name ``name`` as shown in ``lang`` (``Advantage (english)`` -> "Advantage (English)"), for a metric
        named before any value is known (a menu of metrics, a figure's title)."""
        return Metric(name, 0.0, None, None).label(lang)

    def meaning_in(self, lang: str | None = None) -> str:
        """The prose of :data:`MEANINGS` for this metric in ``lang`` (default: the current language)."""
        key, side = self._key()
        lang = lang or current_language()
        if key not in MEANINGS:
            return ""
        text = MEANINGS[key] if lang == "en" else gettext(MEANINGS[key], lang)
        return text.format(side=side_title(side, lang)) if side else text  # "English", as the game names it

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "value": self.value, "ci95": [self.low, self.high], "unit": self.unit,
                "games": self.games, "meaning": self.meaning}


Weighted = Sequence[tuple[Outcome, Weight]]


class _Set:
    """Weighted outcomes with the two statistics every metric is made of."""

    def __init__(self, rows: Weighted, counted: bool):
        self.rows = rows
        self.counted = counted
        self.total = sum(w for _, w in rows)

    def where(self, keep: Callable[[Outcome], bool]) -> "_Set":
        return _Set([(o, w) for o, w in self.rows if keep(o)], self.counted)

    def proportion(self, name: str, hit: Callable[[Outcome], float]) -> Metric:
        """The weighted share of ``hit`` (1 a hit, 0 a miss; a half for a draw's score), Wilson's interval when
        counted (:func:`.intervals.wilson` takes half points as chess ratings do)."""
        k = sum(w * hit(o) for o, w in self.rows)
        value = float(k / self.total)
        if not self.counted:
            return Metric(name, value, value, value)
        low, high = wilson(float(k), int(self.total))
        return Metric(name, value, low, high, games=int(self.total))

    def mean(self, name: str, x: Callable[[Outcome], float], unit: str) -> Metric:
        if self.counted:  # each distinct outcome once, with its count of games
            counts = [int(w) for _, w in self.rows]
            value, low, high = mean_interval([float(x(o)) for o, _ in self.rows], counts=counts)
            return Metric(name, value, low, high, unit, sum(counts))
        value = float(sum(w * x(o) for o, w in self.rows) / self.total)
        return Metric(name, value, value, value, unit)

    def known(self, field: str) -> bool:
        return all(getattr(o, field) is not None for o, _ in self.rows)


def designer_metrics(games: Sequence[Outcome]) -> list[Metric]:
    """The metrics of a batch of sampled games (each counted once)."""
    return weighted_metrics([(g, 1) for g in games], counted=True)


def weighted_metrics(outcomes: Iterable[tuple[Outcome, Weight]], counted: bool) -> list[Metric]:
    """Advantage, balance, drawishness, duration, score difference, sweeps, decisiveness and the
    hero's value of weighted outcomes: ``counted`` weights are numbers of games (intervals follow),
    else exact probabilities (points)."""
    s = _Set(list(outcomes), counted)
    if not s.total:
        raise ValueError("designer metrics need at least one game")
    eng = s.proportion("Advantage (english)", lambda o: side_score(o.winner, "english"))
    fr = s.proportion("Advantage (french)", lambda o: side_score(o.winner, "french"))
    draws = s.proportion("Drawishness", lambda o: o.winner == "draw")
    decided = 1 - draws.value  # the scores' difference is the win rates': a draw gives each side a half
    out = [
        eng, fr,
        Metric("Balance", 1 - abs(eng.value - fr.value) / decided if decided else 1.0, None, None, RATIO),
        draws,
        s.mean("Duration (rounds)", lambda o: o.rounds, ROUNDS),
        s.mean("Score difference", lambda o: o.english - o.french, POINTS),
        s.proportion("Sweep", lambda o: o.ending == SWEEP),
    ]
    if s.known("decided"):
        won = s.where(lambda o: o.winner != "draw")
        if won.total:
            out.append(won.mean("Decisiveness", lambda o: o.decided / o.rounds, RATIO))  # type: ignore[operator]
    if s.known("hero_kept"):
        out += _hero_value(s)
    return out


def _hero_value(s: _Set) -> list[Metric]:
    """Win rate of a side with its hero still in play at the end against with it removed."""
    out = []
    for i, side in enumerate(("english", "french")):
        kept = s.where(lambda o, i=i: o.hero_kept[i])  # type: ignore[misc]
        gone = s.where(lambda o, i=i: not o.hero_kept[i])  # type: ignore[misc]
        if kept.total and gone.total:
            a = kept.proportion(f"Win rate, hero kept ({side})", lambda o, side=side: o.winner == side)  # type: ignore[misc]
            b = gone.proportion(f"Win rate, hero removed ({side})", lambda o, side=side: o.winner == side)  # type: ignore[misc]
            out += [Metric(f"Hero value ({side})", a.value - b.value, None, None, PROBABILITY), a, b]
    return out
