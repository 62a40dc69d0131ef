"""Rule variants from the same position (analysis/variants.py) and the variant lab headless."""
import pytest

from guyenne_explore import Position, Rules
from guyenne_explore.analysis.api import analyse
from guyenne_explore.analysis.exact import Cancelled
from guyenne_explore.analysis.variants import (
    analyse_rule_sets,
    metric_named,
    position_under,
    result_metrics,
    sweep,
    vary,
)
from guyenne_explore.rules import RulesError
from guyenne_explore.widgets.variant_lab import (
    VariantLab,
    rules_from_values,
    rules_values,
)


# ---------------------------------------------------------------- analysis
def test_a_game_not_yet_dealt_starts_afresh_under_other_rules():
    start = Position.start("base")
    assert position_under(start, Rules.preset("expert")) == Position.start("expert")
    assert position_under(start, Rules.preset("team")).rules.is_team


def test_a_position_in_play_keeps_its_cards_or_the_engine_says_why(load):
    endgame = load("base-endgame-3v3.json")
    advanced = position_under(endgame, Rules.preset("advanced"))
    assert advanced.rules == Rules.preset("advanced") and advanced.sides == endgame.sides
    runs = analyse_rule_sets(endgame, [endgame.rules, Rules.preset("team")])
    assert [r.label for r in runs] == ["base", "team"]
    assert runs[0].ok and runs[0].result.exact
    assert not runs[1].ok and any("team of two members" in p for p in runs[1].problems)


def test_every_rule_set_uses_the_same_seed_and_progress_covers_the_whole_run():
    seen = []
    runs = analyse_rule_sets(Position.start("base"), [Rules.preset("base"), Rules.preset("base", hand_size=7)],
                             method="sample", games=30, seed=3, progress=lambda d, t: seen.append((d, t)))
    alone = analyse(Position.start("base"), method="sample", games=30, seed=3)
    assert runs[0].result.outcomes == alone.outcomes
    assert [r.label for r in runs] == ["base", "base(hand_size=7)"]
    assert seen[-1] == (60, 60) and all(t == 60 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


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
    m = metric_named(result, "English win rate")
    assert m.value == pytest.approx(float(result.win["english"])) and m.low == m.high == m.value


# ---------------------------------------------------------------- the lab
def test_the_editors_round_trip_every_preset():
    for name in ("base", "advanced", "expert", "team", "team3", "classic2021"):
        rules = Rules.preset(name)
        assert rules_from_values(name, rules_values(rules)) == rules


def test_the_lab_opens_on_the_positions_rules_and_builds_variants():
    lab = VariantLab(Position.start(Rules.preset("advanced", max_at_castle=4)))
    assert lab.preset.value == "advanced" and lab.editors["max_at_castle"].value == "4"
    assert lab.variant == Rules.preset("advanced", max_at_castle=4)
    lab.editors["count:5"].value = "3"
    assert lab.variant.card_counts[5] == 3 and "card_counts" in lab.variant_label.value
    lab.preset.value = "expert"
    assert lab.variant == Rules.preset("expert") and lab.editors["pre_discard"].value == "5"


def test_an_invalid_variant_shows_the_engines_problems_and_blocks_the_runs():
    lab = VariantLab(Position.start("base"))
    lab.editors["hand_size"].value = "1"
    lab.editors["max_at_castle"].value = "0"
    assert lab.variant is None
    assert "hand size must be at least 2" in lab.rules_problems.value
    assert "max_at_castle must be at least 1" in lab.rules_problems.value
    assert lab.compare_button.disabled and lab.sweep_button.disabled
    lab.run_compare()
    assert not lab.figures
    lab.editors["hand_size"].value = "seven"  # letters stay in the box and are named, never reverted
    assert lab.editors["hand_size"].value == "seven" and "hand size must be a whole number" in lab.rules_problems.value


def test_compare_shows_preset_and_variant_side_by_side_from_the_same_seed():
    lab = VariantLab(Position.start("base"))
    lab.games.value, lab.method.value = 40, "sample"
    lab.editors["hand_size"].value = "7"
    lab.run_compare(block=True)
    assert list(lab.results) == ["preset base", "variant base(hand_size=7)"]
    assert list(lab.figures["outcomes"].data[0].x) == list(lab.results)
    assert len(lab.figure_box.children) == 4
    same = analyse(Position.start("base"), method="sample", games=40, seed=0)
    assert lab.results["preset base"].outcomes == same.outcomes
    assert not lab.compare_button.disabled


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
