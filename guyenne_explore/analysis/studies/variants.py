"""Rule variants compared from the same position: several rule sets, and one parameter swept.

The panels ask one question many times over ("what does this rule change do?"),
so the loop lives here rather than in the widgets: each rule set is analysed with
the same policies and seed, a position the engine refuses under some rules is
reported in words and skipped, and one progress callback covers the whole run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ...engine import (CHOICE, FLAG, NUMBER, PARAMETERS, PARAMETERS_BY_NAME, PRESETS, SIDES, Position, PositionError, Rules,
                       RulesError, When)
from ...i18n import N_, gettext, ngettext, plain_count, side_title
from ..api import ExactOutOfReach, analyse
from ..exact.distribution import Cancelled
from ..intervals import difference_interval
from ..metrics import Metric
from ..limits import check_duration
from ..planning import plan, surely_sampled
from ..results import AnalysisResult

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["SWEEP_METRICS", "SWEEPABLE", "Run", "SweepPoint", "analyse_rule_sets", "changes", "choice_label",
           "first_player_advantage", "metric_difference", "parameter_label", "result_metrics", "sampling_cost", "sweep",
           "sweep_label", "swept_change", "swept_value"]

Progress = Callable[[int, int], "bool | None"]


#: The parameter a sweep and a balance search offer first: the hand size, a designer's first question.
FIRST_SWEPT = "hand_size"


def _sweepable() -> dict[str, tuple[Any, ...] | None]:
    """Every parameter one value of which a sweep (and a balance search) can vary, read from the engine's
    :data:`PARAMETERS`: its choices (a flag's true and false), or None for a whole number, numbers first
    (:data:`FIRST_SWEPT` before the others).  A card count is varied one value at a time, ``count:V`` (the base
    game's values); the players, a count for each side at once, are not swept."""
    numbers = {FIRST_SWEPT: None, **{p.name: None for p in PARAMETERS if p.kind == NUMBER}}
    counts = {f"count:{value}": None for value in PRESETS["base"].card_counts}
    choices = {p.name: p.choices for p in PARAMETERS if p.kind == CHOICE}
    flags = {p.name: (True, False) for p in PARAMETERS if p.kind == FLAG}
    return {**numbers, **counts, **choices, **flags}


#: Parameters a sweep can vary: the choices of a categorical one, None for a whole number.
#: ``count:V`` is the number of valued cards of value V per side (RULES.md card_counts).
SWEEPABLE: dict[str, tuple[Any, ...] | None] = _sweepable()
#: The choices of the reshuffle and adjacency parameters in words (RULES.md section 9), by their JSON values.
CHOICE_NAMES: dict[str, str] = {
    # short: a menu's width; "reshuffle: on an empty deck" (a card to draw, none left), "at the last card" (drawn)
    "on_draw": N_("on an empty deck"), "immediate": N_("at the last card"),
    "line": N_("in a line"), "ring": N_("in a ring"),
    "none": N_("none"),  # removal: no card removed for good
}


def parameter_label(key: str, lang: str | None = None) -> str:
    """A rules parameter's name in ``lang``, as the editors show it (``hand_size`` -> "hand size"; ``count:3`` ->
    "3 cards")."""
    if key.startswith("count:"):
        return gettext("{value} cards", lang).format(value=key[6:])
    return gettext(PARAMETERS_BY_NAME[key].label, lang) if key in PARAMETERS_BY_NAME else key


def choice_label(value: Any, lang: str | None = None) -> str:
    """A parameter's value in words: a side's title, a reshuffle or adjacency rule's name, no removal; others as
    written (a preset's name, a year, a number)."""
    if value in SIDES:
        return side_title(value, lang)
    return gettext(CHOICE_NAMES[value], lang) if isinstance(value, str) and value in CHOICE_NAMES else str(value)


def sweep_label(parameter: str, value: Any, lang: str | None = None) -> str:
    """The label of one value of a sweep: ``hand size = 6``."""
    return f"{parameter_label(parameter, lang)} = {choice_label(value, lang)}"


#: Metrics a sweep can plot, by the name a designer reads, to the designer metric behind it.
SWEEP_METRICS: dict[str, str] = {
    "English advantage (a draw a half)": "Advantage (english)",
    "French advantage (a draw a half)": "Advantage (french)",
    "Draw rate": "Drawishness",
    "Mean rounds": "Duration (rounds)",
    "Score difference (English - French)": "Score difference",
    "Balance": "Balance",
    "Sweep rate (every castle)": "Sweep",
}


@dataclass
class Run:
    """One rule set analysed from the position, or the engine's reasons why it could not be."""

    label: str
    rules: Rules | None
    result: AnalysisResult | None = None
    problems: list[str] = field(default_factory=list)
    #: an exact request refused for its estimated size (``force=True`` would run it anyway)
    out_of_reach: bool = False
    #: the changes of rules that cannot apply to the position (their words are ``problems``)
    refused: list[Change] = field(default_factory=list)

    def reword(self) -> None:
        """The refused changes' words in the current language (after a language switch)."""
        if self.refused:
            self.problems = [c.words() for c in self.refused]

    @property
    def ok(self) -> bool:
        return self.result is not None


@dataclass
class SweepPoint:
    """One value of the swept parameter: its run and the chosen metric (value, 95% interval)."""

    value: Any
    run: Run
    metric: Metric | None = None


# ---------------------------------------------------------------- how a rule set applies to a position
#: When a changed parameter takes effect on a position not yet dealt: every parameter holds for the whole game
#: (on a dealt one, each :class:`Parameter`'s ``takes_effect`` says, :class:`When`).
WHOLE_GAME = "whole game"
WHEN_WORDS: dict[str, str] = {
    When.NOW: N_("takes effect now (the next placement or battle)"),
    When.NEXT_DRAW: N_("takes effect only at the next draw, at the end of the round: the cards now in hand stay as they "
                       "are"),
    When.AT_SCORING: N_("takes effect when the game is scored"),
    When.PAST: N_("no effect here: it acts at the setup, which this position is past"),
    When.REFUSED: N_("cannot apply to a game under way, set up with {own}: choose 'before the deal' under 'start from' "
                     "to play a whole game with {new}"),
    WHOLE_GAME: N_("holds for the whole game"),
}


@dataclass(frozen=True)
class Change:
    """One parameter of a rule set that differs from the position's own rules, and when it takes effect."""

    parameter: str
    own: Any
    new: Any  # None: every value of a sweep
    when: str

    def _values(self, lang: str | None) -> tuple[str, str]:
        new = gettext("the values swept", lang) if self.new is None else value_words(self.new, lang)
        return value_words(self.own, lang), new

    def when_words(self, lang: str | None = None) -> str:
        """``takes effect only at the next draw...``."""
        own, new = self._values(lang)
        return gettext(WHEN_WORDS[self.when], lang).format(own=own, new=new)

    def words(self, lang: str | None = None) -> str:
        """``hand size 6 → 7: takes effect only at the next draw...``."""
        own, new = self._values(lang)
        return gettext("{parameter} {own} → {new}: {when}", lang).format(
            parameter=parameter_label(self.parameter, lang), own=own, new=new, when=self.when_words(lang))


def value_words(value: Any, lang: str | None = None) -> str:
    """A parameter's value in words; card counts as ``2:12 3:4 4:3 5:2``, players as ``English 2, French 1``."""
    if isinstance(value, dict):
        return (", " if set(value) <= set(SIDES) else " ").join(
            f"{side_title(k, lang)} {n}" if k in SIDES else f"{k}:{n}" for k, n in value.items())
    if isinstance(value, bool):
        return gettext("yes", lang) if value else gettext("no", lang)
    return choice_label(value, lang)


def changes(p: Position, rules: Rules) -> list[Change]:
    """Each parameter of ``rules`` that differs from ``p``'s own rules, with when it takes effect from ``p``.

    The one place the panels read how a rule set applies to a position: the engine re-reads the position
    under the new rules (:meth:`Position.under`), and this says what that means for a game under way."""
    own, new = p.rules.describe(), rules.describe()
    before_deal = p == Position.start(p.rules)
    return [Change(k, own[k], new[k], WHOLE_GAME if before_deal else PARAMETERS_BY_NAME[k].takes_effect)
            for k in new if k != "preset" and own.get(k) != new[k]]


def refused_changes(p: Position, rules: Rules) -> list[Change]:
    """The changes of ``rules`` that cannot apply to ``p``, a game under way (:attr:`When.REFUSED`: what its table
    was set up with); the engine refuses the position under ``rules`` for them, and these say why in words."""
    return [c for c in changes(p, rules) if c.when == When.REFUSED]


def swept_change(p: Position, parameter: str) -> Change:
    """When a sweep of ``parameter`` (``count:V``: a card count) takes effect from ``p``, for every value swept."""
    key = "card_counts" if parameter.startswith("count:") else parameter
    before_deal = p == Position.start(p.rules)
    return Change(key, p.rules.describe()[key], None,
                  WHOLE_GAME if before_deal else PARAMETERS_BY_NAME[key].takes_effect)


def swept_value(rules: Rules, parameter: str) -> Any:
    """The value of a parameter a sweep varies (:data:`SWEEPABLE`) under ``rules``; ``count:V``: the count of
    value-V cards (0 when the rules have none)."""
    if parameter.startswith("count:"):
        return rules.card_counts.get(int(parameter[6:]), 0)
    return rules.describe()[parameter]


def vary(rules: Rules, parameter: str, value: Any) -> Rules:
    """``rules`` with one parameter set (``count:V`` sets the count of value-V cards); RulesError if invalid."""
    if parameter.startswith("count:"):
        counts = {str(v): n for v, n in rules.card_counts.items()}
        counts[parameter.split(":", 1)[1]] = value
        return rules.replace(card_counts=counts)
    return rules.replace(**{parameter: value})


def result_metrics(result: AnalysisResult) -> list[Metric]:
    """Designer metrics of a result (sampled or exact: one computation, :meth:`AnalysisResult.metrics`)."""
    return result.metrics()


def metric_named(result: AnalysisResult, name: str) -> Metric | None:
    """The designer metric ``name`` (a key or value of SWEEP_METRICS), None when the games lack it."""
    name = SWEEP_METRICS.get(name, name)
    return next((m for m in result_metrics(result) if m.name == name), None)


def first_player_advantage(result: AnalysisResult) -> Metric:
    """The answer to "is this rule set fair?": the score of the side that holds the first-player card in round 1
    (RULES.md: ``first_side``), a draw counting a half, so that 0.5 is an even game."""
    name = f"Advantage ({result.position.rules.first_side})"
    found = metric_named(result, name)
    if found is None:  # every result has both sides' advantage (metrics.weighted_metrics)
        raise ValueError(f"the result has no {name!r}")
    return found


def metric_difference(variant: Metric, preset: Metric) -> Metric:
    """``variant`` minus ``preset``, one measure of two independent runs (the same metric, or the first player's
    score where a variant gives the first-player card to the other side), with the 95% interval of the difference
    (:func:`.intervals.difference_interval`: Newcombe's for two Wilson intervals); no interval where either has
    none (a balance, a ratio of estimates).  Named after ``variant``."""
    value = variant.value - preset.value
    if variant.low is None or variant.high is None or preset.low is None or preset.high is None:
        return Metric(variant.name, value, None, None, variant.unit)
    low, high = difference_interval(variant.value, (variant.low, variant.high), preset.value, (preset.low, preset.high))
    return Metric(variant.name, value, low, high, variant.unit)


def analyse_rule_sets(p: Position, rule_sets: Sequence[Rules], *, labels: Sequence[str] | None = None,
                      policies: tuple[str, str] = ("uniform", "uniform"), method: str = "auto",
                      games: int = 500, seed: int = 0, progress: Progress | None = None,
                      executor: Executor | None = None, force: bool = False, cores: int = 1,
                      fast: bool = True) -> list[Run]:
    """Analyse ``p`` under each rule set with the same policies and seed (``fast=False``: the engine answers, as
    while the fast simulator compiles).

    ``progress(done, total)`` counts games over the whole run (an exact run counts
    as its share once done) and cancels it by returning False (exact.Cancelled is
    raised). A rule set the position cannot be read under, or an exact request out
    of reach, becomes a Run with its problems instead of an error; ``force`` runs an
    exact request whatever its estimated size (it can still be cancelled), and sampled games past
    :data:`.limits.RUN_SECONDS` all rule sets together (else refused with :class:`.limits.TooLong`, before any
    runs). ``cores``: the local cores games the engine plays may use (see :func:`.planning.plan`).
    """
    if executor is None and surely_sampled(p, policies, method):  # the cost of all rule sets together, said first
        check_duration(sampling_cost(p, rule_sets, policies, games, cores),
                       ngettext("{count} game", "{count} games", games * len(rule_sets)).format(
                           count=plain_count(games * len(rule_sets))), force)
    labels = list(labels) if labels is not None else _labels(rule_sets)
    total = games * len(rule_sets)
    runs = []
    for i, (label, rules) in enumerate(zip(labels, rule_sets)):
        offset = i * games
        step = None
        if progress is not None:
            def step(done: int, of: int, offset: int = offset) -> bool | None:
                return progress(offset + (done * games // of if of else 0), total)
        try:
            q = p.under(rules)
            runs.append(Run(label, rules, analyse(q, policies, method, games, seed, step, executor, force=force,
                                                  cores=cores, fast=fast)))
        except ValueError as exc:  # PositionError, ExactOutOfReach, exact asked of a sampling-only policy
            refused = refused_changes(p, rules) if isinstance(exc, PositionError) else []
            runs.append(Run(label, rules, problems=[c.words() for c in refused]
                            or [str(x) for x in getattr(exc, "problems", [exc])],
                            out_of_reach=isinstance(exc, ExactOutOfReach) and exc.forceable, refused=refused))
        if progress is not None and progress(offset + games, total) is False:
            raise Cancelled()
    return runs


def sampling_cost(p: Position, rule_sets: Sequence[Rules], policies: tuple[str, str], games: int,
                  cores: int = 1, fast: bool = True) -> float:
    """Rough seconds :func:`analyse_rule_sets` takes to sample ``games`` games a rule set here, the games the
    engine plays spread over ``cores``: each rule set's plan's cost (:attr:`.planning.Plan.cost`); a rule set ``p``
    cannot be read under plays nothing (its run names the problem); ``fast=False``: the engine plays them all."""
    seconds = 0.0
    for rules in rule_sets:
        try:
            q = p.under(rules)
        except PositionError:
            continue
        seconds += plan(q, policies, "sample", games=games, fast=fast, cores=cores).cost or 0.0
    return seconds


def sweep(p: Position, rules: Rules, parameter: str, values: Sequence[Any], metric: str, *,
          policies: tuple[str, str] = ("uniform", "uniform"), method: str = "auto", games: int = 500,
          seed: int = 0, progress: Progress | None = None, executor: Executor | None = None,
          cores: int = 1, force: bool = False, fast: bool = True) -> list[SweepPoint]:
    """``metric`` of ``p`` as one parameter of ``rules`` takes each of ``values`` (same seed for each).

    A value the rules refuse (RulesError) or the position cannot be read under
    gives a point with the engine's problems and no metric.  Its games, all values together, are refused past
    :data:`.limits.RUN_SECONDS` unless ``force`` (:func:`analyse_rule_sets`; ``fast=False``: the engine answers, as
    while the fast simulator compiles).
    """
    points: list[SweepPoint] = []
    valid: list[tuple[Any, Rules]] = []
    for v in values:
        try:
            valid.append((v, vary(rules, parameter, v)))
        except RulesError as exc:
            points.append(SweepPoint(v, Run(sweep_label(parameter, v), None, problems=[str(x) for x in exc.problems])))
    runs = analyse_rule_sets(p, [r for _, r in valid], labels=[sweep_label(parameter, v) for v, _ in valid],
                             policies=policies, method=method, games=games, seed=seed,
                             progress=progress, executor=executor, cores=cores, force=force, fast=fast)
    for (v, _), run in zip(valid, runs):
        points.append(SweepPoint(v, run, metric_named(run.result, metric) if run.result else None))
    order = {v: i for i, v in enumerate(values)}
    return sorted(points, key=lambda pt: order[pt.value])


def _labels(rule_sets: Sequence[Rules]) -> list[str]:
    """Readable, distinct labels: the preset name, or the preset with its overrides."""
    names = [str(r) for r in rule_sets]
    seen: dict[str, int] = defaultdict(int)
    out = []
    for n in names:
        seen[n] += 1
        out.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return out
