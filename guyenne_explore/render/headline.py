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

from ..analysis import AnalysisResult, Metric, SkillTable, SweepPoint, first_player_advantage, level_name, metric_difference
from ..analysis import sweep_label
from ..i18n import capitalised, gettext, side_title
from ..engine import Rules
from .plots import _cell


def estimate(m: Metric) -> str:
    """A value with its interval ("0.546 [0.502, 0.589]"); the value alone when exact or without one."""
    return _cell(m.value, m.low, m.high)


def signed(m: Metric) -> str:
    """A difference with its sign and interval ("+0.026 [-0.036, 0.088]"): a rise reads as one."""
    return ("+" if m.value > 0 else "") + estimate(m)


def analysis_headline(results: Mapping[str, AnalysisResult]) -> str:
    """"advanced: the first player (English) scores 0.546 [0.502, 0.589]", each rule set analysed, then what the
    score counts; "" without results."""
    if not results:
        return ""
    parts = [gettext("{rules}: the first player ({side}) scores {estimate}").format(
        rules=label, side=side_title(r.position.rules.first_side), estimate=estimate(first_player_advantage(r)))
        for label, r in results.items()]
    return gettext("{answers} (a win counts 1, a draw ½, a loss 0: 0.5 is an even game)").format(
        answers=" · ".join(parts))


def comparison_headline(preset: str, preset_result: AnalysisResult, variant: str, variant_result: AnalysisResult) -> str:
    """"Variant advanced, hand size 7 changes the first player's score by +0.026 [...]: 0.546 [...], against 0.520
    [...] under preset advanced": what the change does first, the difference's interval Newcombe's
    (:func:`..analysis.metric_difference`)."""
    mine, theirs = first_player_advantage(variant_result), first_player_advantage(preset_result)
    return capitalised(gettext("{variant} changes the first player's score by {difference}: {variant_value}, against "
                               "{preset_value} under {preset} (a draw counts ½)").format(
        variant=variant, difference=signed(metric_difference(mine, theirs)), variant_value=estimate(mine),
        preset_value=estimate(theirs), preset=preset))


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
    shown = gettext(metric)
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
    """The chosen metric of every rule set under the strongest level run, with its verdict ("above ½"): what skilled
    players make of the rule sets (where that differs from weaker play is listed under the figure)."""
    strongest = table.levels[-1]
    parts = []
    for label in table.labels:
        cell = next((c for c in table.cells if (c.label, c.level, c.metric.name) == (label, strongest, metric)), None)
        if cell is not None:
            parts.append(gettext("{rules} {estimate}, {verdict}").format(
                rules=label, estimate=estimate(cell.metric), verdict=table.verdict_words(cell)))
    if not parts:
        return ""
    return gettext("{metric} under {level}, the strongest level run: {answers}").format(
        metric=Metric.label_of(metric), level=level_name(strongest), answers=" · ".join(parts))
