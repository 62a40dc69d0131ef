"""Rule variants from the same position (analysis/variants.py) and the variant lab headless."""
import html
import re

import pytest

from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis.api import analyse
from guyenne_explore.analysis.exact.distribution import Cancelled
from guyenne_explore.analysis.intervals import wilson
from guyenne_explore.analysis.metrics import Metric
from guyenne_explore.analysis.studies.variants import (
    analyse_rule_sets,
    first_player_advantage,
    metric_difference,
    metric_named,
    result_metrics,
    sweep,
    vary,
)
from guyenne_explore.i18n import plain_estimate
from guyenne_explore.render.headline import change_words
from guyenne_explore.engine.rules import RulesError
from guyenne_explore.widgets.variant_lab import VariantLab


def said(box) -> str:
    """An HTML line's text as read."""
    return html.unescape(re.sub("<[^>]+>", "", box.value))


def shown(m: Metric) -> str:
    return plain_estimate(m.value, m.low, m.high)


def signed(m: Metric) -> str:
    return ("+" if m.value > 0 else "") + shown(m)


# ---------------------------------------------------------------- analysis
def test_a_game_not_yet_dealt_starts_afresh_under_other_rules():
    start = Position.start("base")
    assert start.under(Rules.preset("expert")) == Position.start("expert")
    assert start.under(Rules.preset("team")).rules.is_team


def test_a_position_in_play_keeps_its_cards_or_the_engine_says_why(load):
    endgame = load("base-endgame-3v3.json")
    advanced = endgame.under(Rules.preset("advanced"))
    assert advanced.rules == Rules.preset("advanced") and advanced.sides == endgame.sides
    runs = analyse_rule_sets(endgame, [endgame.rules, Rules.preset("team")])
    assert [r.label for r in runs] == ["base", "team"]
    assert runs[0].ok and runs[0].result.exact
    # the players were set at the setup: a team cannot take over a game under way (engine/parameters.PARAMETERS)
    assert not runs[1].ok and runs[1].problems == [
        "players English 1, French 1 → English 2, French 2: cannot apply to a game under way, set up with English 1, "
        "French 1: choose 'before the deal' under 'start from' to play a whole game with English 2, French 2"]


def test_every_rule_set_uses_the_same_seed_and_progress_covers_the_whole_run():
    seen = []
    runs = analyse_rule_sets(Position.start("base"), [Rules.preset("base"), Rules.preset("base", hand_size=7)],
                             method="sample", games=30, seed=3, progress=lambda d, t: seen.append((d, t)))
    alone = analyse(Position.start("base"), method="sample", games=30, seed=3)
    assert runs[0].result.outcomes == alone.outcomes
    assert [r.label for r in runs] == ["base", "base(hand_size=7)"]
    assert seen[-1] == (60, 60) and all(t == 60 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_variants_difference_from_its_preset_has_newcombes_interval():
    """Newcombe (1998), table II, example (a): 56/70 against 48/80 differ by 0.2000 [0.0524, 0.3339]."""
    variant = Metric("Advantage (english)", 56 / 70, *wilson(56, 70), games=70)
    preset = Metric("Advantage (english)", 48 / 80, *wilson(48, 80), games=80)
    d = metric_difference(variant, preset)
    assert d.name == "Advantage (english)" and (d.value, d.low, d.high) == pytest.approx((0.2, 0.0524, 0.3339), abs=5e-5)
    exact = Metric("Advantage (english)", 0.5, 0.5, 0.5)  # an exact result is a point: it adds no width
    assert metric_difference(variant, exact).low == pytest.approx(wilson(56, 70)[0] - 0.5)
    balance = Metric("Balance", 0.9, None, None, "ratio")  # no interval of its own: none for the difference
    d = metric_difference(balance, Metric("Balance", 0.8, None, None, "ratio"))
    assert (d.value, d.low, d.high) == (pytest.approx(0.1), None, None)


def test_the_first_players_advantage_follows_the_first_side():
    games = dict(method="sample", games=40, seed=1)
    english = analyse(Position.start("base"), **games)
    french = analyse(Position.start(Rules.preset("base", first_side="french")), **games)
    assert first_player_advantage(english) == metric_named(english, "Advantage (english)")
    assert first_player_advantage(french) == metric_named(french, "Advantage (french)")


def test_progress_returning_false_cancels():
    with pytest.raises(Cancelled):
        analyse_rule_sets(Position.start("base"), [Rules.preset("base")] * 2, method="sample", games=100,
                          progress=lambda d, t: False)


def test_vary_sets_card_counts_and_plain_parameters():
    base = Rules.preset("base")
    assert vary(base, "count:2", 10).card_counts == {2: 10, 3: 4, 4: 3, 5: 2}
    assert vary(base, "max_at_castle", 3).max_at_castle == 3
    with pytest.raises(RulesError):
        vary(base, "hand_size", 1)


def test_a_sweep_gives_the_metric_per_value_and_names_refused_values():
    points = sweep(Position.start("base"), Rules.preset("base"), "hand_size", [1, 5, 7], "Mean rounds",
                   method="sample", games=30, seed=0)
    assert [pt.value for pt in points] == [1, 5, 7]
    assert points[0].metric is None and "hand size must be at least 2" in points[0].run.problems[0]
    for pt in points[1:]:
        assert pt.metric.name == "Duration (rounds)"
        assert pt.metric.low <= pt.metric.value <= pt.metric.high
        rounds = [g.rounds for g in pt.run.result.samples]
        assert pt.metric.value == pytest.approx(sum(rounds) / len(rounds))


def test_exact_results_have_the_designer_metrics_of_their_distribution(load):
    result = analyse(load("base-endgame-3v3.json"), method="exact")
    names = [m.name for m in result_metrics(result)]
    assert {"Advantage (english)", "Drawishness", "Duration (rounds)", "Score difference"} <= set(names)
    m = metric_named(result, "English advantage (a draw a half)")  # a score: the same function as sampled games'
    assert m.value == pytest.approx(float(result.win["english"] + result.win["draw"] / 2)) and m.low == m.high == m.value


# ---------------------------------------------------------------- the lab
def test_the_editor_round_trips_every_preset():
    lab = VariantLab(Position.start("base"))
    for name in ("base", "advanced", "expert", "team", "team3", "classic2021"):
        lab.load_rules(Rules.preset(name))
        assert lab.variant == Rules.preset(name)


def test_the_lab_opens_on_the_positions_rules_and_builds_variants():
    lab = VariantLab(Position.start(Rules.preset("advanced", max_at_castle=4)))
    assert lab.preset.value == "advanced" and lab.editors["max_at_castle"].value == "4"
    assert lab.variant == Rules.preset("advanced", max_at_castle=4)
    lab.editors["card_counts"].value = "2:12 3:4 4:3 5:3"
    assert lab.variant.card_counts[5] == 3
    # in words, each change beside the preset's value, as the report says it; not the rules' repr with its dict
    assert html.unescape(lab.variant_label.value) == (
        "Variant: advanced, card counts 2:12 3:4 4:3 5:3 (preset: 2:12 3:4 4:3 5:2); "
        "max at a castle 4 (preset: 5)")
    lab.preset.value = "expert"
    assert lab.variant == Rules.preset("expert") and lab.editors["pre_discard"].value == "5"


def test_an_invalid_variant_shows_the_engines_problems_and_blocks_the_runs():
    lab = VariantLab(Position.start("base"))
    lab.editors["hand_size"].value = "1"
    lab.editors["max_at_castle"].value = "0"
    assert lab.variant is None  # each problem beside its field, the count of them on the summary line
    assert "hand size must be at least 2" in lab.rules_editor.messages["hand_size"].value
    assert "max_at_castle must be at least 1" in lab.rules_editor.messages["max_at_castle"].value
    assert "2 problems, shown beside their fields" in lab.rules_problems.value
    assert lab.compare_button.disabled and lab.sweep_button.disabled
    lab.run_compare()
    assert not lab.figures
    lab.editors["hand_size"].value = "seven"  # letters stay in the box and are named, never reverted
    assert lab.editors["hand_size"].value == "seven"
    assert "hand size must be a whole number" in lab.rules_editor.messages["hand_size"].value


def test_compare_shows_preset_and_variant_side_by_side_from_the_same_seed():
    lab = VariantLab(Position.start("base"))
    lab.games.value, lab.method.value = 40, "sample"
    lab.editors["hand_size"].value = "7"
    lab.run_compare(block=True)
    assert list(lab.results) == ["preset base", "variant base, hand size 7"]  # in words, not the key base(hand_size=7)
    assert list(lab.figures["outcomes"].data[0].x) == list(lab.results)
    assert len(lab.figure_box.children) == 4
    same = analyse(Position.start("base"), method="sample", games=40, seed=0)
    assert lab.results["preset base"].outcomes == same.outcomes
    assert not lab.compare_button.disabled
    # the answer first, in one line above the figures: the difference from the preset with its interval
    preset, variant = (first_player_advantage(lab.results[label]) for label in lab.results)
    d = metric_difference(variant, preset)
    assert said(lab.headline) == (
        f"Variant base, hand size 7 changes the first player's score by {signed(d)} ({change_words(d, False)}): "
        f"{shown(variant)}, against {shown(preset)} under preset base (a draw counts ½)")
    assert lab.children.index(lab.headline) + 1 == lab.children.index(lab.figure_box)


def test_sweep_plots_the_metric_against_the_parameter_in_a_background_run():
    lab = VariantLab(Position.start("base"))
    lab.games.value, lab.method.value = 30, "sample"
    lab.sweep_parameter.value = "max_at_castle"
    lab.sweep_from.value, lab.sweep_to.value = 3, 5
    lab.sweep_metric.value = "Draw rate"
    lab.run_sweep(block=False)
    lab.controls.thread.join(timeout=60)
    fig = lab.figures["sweep-max_at_castle"]
    assert list(fig.data[0].x) == ["3", "4", "5"]
    assert list(fig.data[0].y) == [pt.metric.value for pt in lab.points]
    assert fig.data[0].error_y.array is not None
    assert not lab.sweep_button.disabled and lab.controls.status.value.startswith("Swept")


def test_the_default_sweep_plays_every_value_and_names_the_parameter_as_the_forms_do():
    lab = VariantLab(Position.start("base"))  # hands of 6 dealt: no value below 6 is offered
    lab.games.value, lab.method.value = 20, "sample"
    assert lab.sweep_parameter.value == "hand_size" and lab.sweep_values() == [6, 7, 8]
    lab.run_sweep(block=True)
    assert all(pt.metric is not None for pt in lab.points), [pt.run.problems for pt in lab.points]
    fig = lab.figures["sweep-hand_size"]
    assert fig.layout.xaxis.title.text == "hand size" and "not playable" not in fig.layout.title.text
    assert list(lab.results) == ["hand size = 6", "hand size = 7", "hand size = 8"]
    assert lab.controls.status.value == "Swept hand size over 6, 7, 8"
    # the headline: the preset's value (base deals 6), and the value that changes the metric most, by how much
    preset, *others = lab.points
    far = max(others, key=lambda pt: abs(pt.metric.value - preset.metric.value))
    assert said(lab.headline) == (
        f"Advantage (English): {shown(preset.metric)} at hand size = 6 (the preset); the largest change "
        f"is at hand size = {far.value}: {shown(far.metric)}, a difference of {signed(metric_difference(far.metric, preset.metric))}")
    # each metric by the results table's name for it (the menu said "Draw rate" where the table says "Drawishness")
    metrics = dict(zip(lab.sweep_metric._options_values, lab.sweep_metric._options_labels))
    assert metrics["Draw rate"] == "Drawishness" and metrics["English advantage (a draw a half)"] == "Advantage (English)"
    assert set(metrics.values()) <= {m.label() for m in lab.results["hand size = 6"].metrics()}
    labels = dict(zip(lab.sweep_parameter._options_values, lab.sweep_parameter._options_labels))
    assert labels["max_at_castle"] == "max at a castle" and labels["count:3"] == "3 cards"
    assert not any("_" in label or ":" in label for label in labels.values())
    # the builder and the lab name each parameter alike
    assert lab.editors["exhaustion_limit"].description == "exhaustion limit L"
    assert lab.editors["pre_discard"].description == "setup discard"
    sides = dict(zip(lab.editors["first_side"]._options_values, lab.editors["first_side"]._options_labels))
    assert sides == {"english": "English", "french": "French"}


def test_a_choice_parameter_sweeps_every_option():
    lab = VariantLab(Position.start("base"))
    lab.sweep_parameter.value = "scoring"
    assert lab.sweep_from.disabled and lab.sweep_values() == ["2022", "2021"]


def test_an_invalid_position_blocks_the_lab_until_a_valid_one_comes():
    lab = VariantLab(None)
    assert lab.compare_button.disabled and "not valid" in lab.controls.status.value
    lab.set_position(Position.start("base"))
    assert not lab.compare_button.disabled and not lab.controls.status.value


# ---------------------------------------------------------------- how a variant applies to a game under way
def test_a_variant_on_a_round_5_position_says_when_each_parameter_takes_effect():
    from guyenne_explore.analysis.studies.variants import WHOLE_GAME, changes
    from guyenne_explore.engine import When
    from guyenne_explore.widgets.starts import midgame

    p = midgame("advanced", 1)
    assert p.round == 5
    variant = p.rules.replace(hand_size=7, removal="none", first_side="french", castles=7)
    when = {c.parameter: c.when for c in changes(p, variant)}
    assert when == {"hand_size": When.NEXT_DRAW, "removal": When.NOW, "first_side": When.PAST, "castles": When.REFUSED}
    words = {c.parameter: c.words() for c in changes(p, variant)}
    assert words["hand_size"] == ("hand size 6 → 7: takes effect only at the next draw, at the end of the round: "
                                  "the cards now in hand stay as they are")
    # before the deal every parameter holds for the whole game
    assert {c.when for c in changes(Position.start("advanced"), variant)} == {WHOLE_GAME}


def test_a_castle_count_other_than_the_tables_is_refused_with_the_reason():
    from guyenne_explore.analysis.studies.variants import refused_changes
    from guyenne_explore.engine import PositionError
    from guyenne_explore.widgets.starts import midgame

    p = midgame("advanced", 1)
    with pytest.raises(PositionError) as refused:
        p.under(p.rules.replace(castles=7))
    assert [(x.field, str(x)) for x in refused.value.problems] == [
        ("rules.castles", "castles cannot change in a game under way, set up with 6: a new game can have 7")]
    assert [c.words() for c in refused_changes(p, p.rules.replace(castles=7))] == [
        "castles 6 → 7: cannot apply to a game under way, set up with 6: choose 'before the deal' under 'start from' "
        "to play a whole game with 7"]
    assert Position.start("advanced").under(p.rules.replace(castles=7)).rules.castles == 7
    # hand size 7 applies (at the next draw): the hands stay as they are now
    assert p.under(p.rules.replace(hand_size=7)).sides == p.sides


def test_the_lab_says_how_its_variant_applies_to_the_position_and_why_one_is_refused():
    import html
    import re

    from guyenne_explore.widgets.starts import midgame

    lab = VariantLab(midgame("advanced", 1))

    def said():
        return html.unescape(re.sub("<[^>]+>", "", lab.application.value))

    lab.editors["hand_size"].value = "7"
    assert "How the rule sets apply to this position (dealt under advanced)" in said()
    assert "<li><b>variant advanced, hand size 7 (preset: 6)</b>:<ul><li>hand size 6 → 7: takes effect only at the next draw" in (
        html.unescape(lab.application.value))
    assert "sweep of hand size: takes effect only at the next draw" in said()
    lab.editors["castles"].value = "7"
    assert "castles 6 → 7: cannot apply to a game under way, set up with 6" in said()
    assert "color:#b22222" in lab.application.value  # a refusal in the problems' red
    lab.method.value, lab.games.value = "sample", 10
    lab.run_compare(block=True)
    assert "variant advanced, hand size 7; castles 7</b> was skipped: castles 6 → 7: cannot apply" in lab.problems.value
    from guyenne_explore.i18n import set_language

    previous = set_language("fr")  # the reasons are said again in French, like every text of the lab
    try:
        lab.refresh()
        assert "châteaux 6 → 7\u00a0: ne peut pas s'appliquer à une partie en cours" in html.unescape(lab.problems.value)
    finally:
        set_language(previous)
    lab.refresh()
    lab.set_position(Position.start("advanced"))
    assert "How the rule sets apply to the game before the deal" in said() and "holds for the whole game" in said()


def test_the_labs_figures_and_columns_follow_a_language_switch():
    import json

    from guyenne_explore.i18n import set_language

    lab = VariantLab(Position.start("base"))
    lab.editors["hand_size"].value = "7"
    lab.method.value, lab.games.value = "sample", 10
    lab.run_compare(block=True)
    previous = set_language("fr")
    try:
        lab.refresh()
        texts = [json.dumps(v.figure, ensure_ascii=False) for v in lab.figure_box.shown]
        assert len(texts) == 4 and not any("preset " in t or "variant " in t or "games" in t for t in texts)
        assert all("variante base, taille de la main 7" in t for t in texts)
        assert "variante base, taille de la main 7" in lab.metrics.value and "preset " not in lab.metrics.value
        assert "variante base, taille de la main 7" in lab.headline.value.lower()
    finally:
        set_language(previous)
    lab.refresh()
    assert "variant base, hand size 7" in lab.metrics.value and "Variant base, hand size 7 changes" in lab.headline.value
