"""The one line that opens every result: its answer with its 95% interval, above the figures.

A designer comes with a question: is this rule set fair, what does this change do, how do skilled
players fare.  Each panel answers it here in one sentence before any chart (the four figures and the
metrics table follow): the first player's score for an analysis, the variant's difference from its
preset for a comparison, the largest change along a sweep, the strongest level's verdicts for the
skill levels.  The numbers and their intervals come from the analysis layer
(:func:`..analysis.first_player_advantage`, :func:`..analysis.metric_difference`); this module only
words them, in the current language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..analysis import AnalysisResult, Metric, level_name
from ..analysis.studies.skill import FEW_GAMES, SkillTable
from ..analysis.studies.variants import SWEEP_METRICS, SweepPoint, first_player_advantage, metric_difference, sweep_label
from ..i18n import capitalised, gettext, ngettext, plain_count, side_title
from ..engine import Rules
from .plots import _cell


def estimate(m: Metric) -> str:
    """A value with its interval ("0.546 [0.502, 0.589]"); the value alone when exact or without one."""
    return _cell(m.value, m.low, m.high)


def signed(m: Metric) -> str:
    """A difference with its sign and interval ("+0.026 [-0.036, 0.088]"): a rise reads as one."""
    return ("+" if m.value > 0 else "") + estimate(m)


def _side(m: Metric, target: float) -> int:
    """1 where ``m``'s 95% interval (its value, when exact) lies above ``target``, -1 below, 0 across it."""
    low, high = (m.value, m.value) if m.low is None or m.high is None else (m.low, m.high)
    return 1 if low > target else -1 if high < target else 0


def fairness_words(m: Metric) -> str:
    """The answer to "is it fair?" in words, read from the first player's score ``m`` and its interval: who is
    favoured, or that no advantage shows in the games played (0.5 inside the interval)."""
    side = _side(m, 0.5)
    if m.low is None or m.high is None:  # exact: no interval, the value is the answer
        return (gettext("the first player is favoured (exact)") if side > 0 else
                gettext("the second player is favoured (exact)") if side < 0 else gettext("an even game (exact)"))
    if side > 0:
        return gettext("the first player is favoured: the interval lies above 0.5")
    if side < 0:
        return gettext("the second player is favoured: the interval lies below 0.5")
    games = m.games or 0
    return ngettext("no advantage detectable in {count} game: 0.5 lies inside the interval",
                    "no advantage detectable in {count} games: 0.5 lies inside the interval", games).format(
        count=plain_count(games))


def change_words(difference: Metric, exact: bool) -> str:
    """Whether a difference is more than the noise: its interval across 0 shows no change, else a real one;
    ``exact``: both results are exact (the difference, without an interval, is the answer)."""
    side = _side(difference, 0.0)
    if difference.low is None or difference.high is None:
        if not exact:  # one exact result, one sampled: the analysis gives their difference no interval
            return gettext("no interval for the difference: compare the two intervals")
        return gettext("a real change (exact)") if side else gettext("no change (exact)")
    if side > 0:
        return gettext("a real change: the interval lies above 0")
    if side < 0:
        return gettext("a real change: the interval lies below 0")
    return gettext("no change detectable: 0 lies inside the interval")


def analysis_headline(results: Mapping[str, AnalysisResult]) -> str:
    """"advanced: the first player (English) scores 0.546 [0.502, 0.589]; the first player is favoured: the interval
    lies above 0.5", each rule set analysed, then what the score counts; "" without results."""
    if not results:
        return ""
    parts = [gettext("{rules}: the first player ({side}) scores {estimate}; {verdict}").format(
        rules=label, side=side_title(r.position.rules.first_side), estimate=estimate(m), verdict=fairness_words(m))
        for label, r in results.items() for m in (first_player_advantage(r),)]
    return gettext("{answers} (a win counts 1, a draw ½, a loss 0: 0.5 is an even game)").format(
        answers=" · ".join(parts))


def comparison_headline(preset: str, preset_result: AnalysisResult, variant: str, variant_result: AnalysisResult) -> str:
    """"Variant advanced, hand size 7 changes the first player's score by +0.026 [...] (no change detectable: 0 lies
    inside the interval): 0.546 [...], against 0.520 [...] under preset advanced": what the change does first and
    whether it is more than the noise, the difference's interval Newcombe's (:func:`..analysis.metric_difference`)."""
    mine, theirs = first_player_advantage(variant_result), first_player_advantage(preset_result)
    difference, exact = metric_difference(mine, theirs), mine.low is None and theirs.low is None
    return capitalised(gettext("{variant} changes the first player's score by {difference} ({verdict}): "
                               "{variant_value}, against {preset_value} under {preset} (a draw counts ½)").format(
        variant=variant, difference=signed(difference), verdict=change_words(difference, exact),
        variant_value=estimate(mine), preset_value=estimate(theirs), preset=preset))


def sweep_headline(points: Sequence[SweepPoint], parameter: str, metric: str, preset: Rules | None) -> str:
    """The sweep's metric at its reference value (the preset's own, when swept; else the first value played) and
    the value that changes it most, with the difference and its interval; "" when no value could be played."""
    played = [pt for pt in points if pt.metric is not None]
    if not played:
        return ""
    reference = next((pt for pt in played if pt.run.rules == preset), played[0])
    assert reference.metric is not None
    named = sweep_label(parameter, reference.value)
    if reference.run.rules == preset:
        named = gettext("{value} (the preset)").format(value=named)
    shown = Metric.label_of(SWEEP_METRICS.get(metric, metric))  # the results table's name for it
    others = [(pt, metric_difference(pt.metric, reference.metric)) for pt in played if pt is not reference
              and pt.metric is not None]
    if not others:
        return gettext("{metric}: {estimate} at {value}").format(metric=shown, estimate=estimate(reference.metric),
                                                                  value=named)
    farthest, difference = max(others, key=lambda pair: abs(pair[1].value))
    assert farthest.metric is not None
    return gettext("{metric}: {estimate} at {value}; the largest change is at {other}: {other_estimate}, a difference "
                   "of {difference}").format(
        metric=shown, estimate=estimate(reference.metric), value=named,
        other=sweep_label(parameter, farthest.value), other_estimate=estimate(farthest.metric),
        difference=signed(difference))


def skill_headline(table: SkillTable, metric: str) -> str:
    """The chosen metric of every rule set under the strongest level run with at least :data:`FEW_GAMES` games in
    each, with its verdict ("above ½"): what skilled players make of the rule sets (where that differs from weaker
    play is listed under the figure).  A stronger level run with fewer games is left to the figure: the answer in one
    line led with 0.750 [0.301, 0.954] from a search's 4 games."""
    by_level = {level: [c for c in table.cells if c.level == level and c.metric.name == metric] for level in table.levels}
    enough = [level for level, cells in by_level.items() if cells and not any(c.few_games for c in cells)]
    strongest = enough[-1] if enough else table.levels[-1]
    parts = [gettext("{rules} {estimate}, {verdict}").format(rules=c.label, estimate=estimate(c.metric),
                                                              verdict=table.verdict_words(c)) for c in by_level[strongest]]
    if not parts:
        return ""
    if strongest != table.levels[-1]:
        return gettext("{metric} under {level}, the strongest level run with at least {games} games: {answers}").format(
            metric=Metric.label_of(metric), level=level_name(strongest), games=FEW_GAMES, answers=" · ".join(parts))
    return gettext("{metric} under {level}, the strongest level run: {answers}").format(
        metric=Metric.label_of(metric), level=level_name(strongest), answers=" · ".join(parts))
