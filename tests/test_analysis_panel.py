"""The analysis panel headless: set its controls, run, and read what it shows."""
import pytest

from guyenne_explore import Position, Rules
from guyenne_explore.widgets.analysis_panel import AnalysisPanel


@pytest.fixture
def endgame(load):
    return load("base-endgame-3v3.json")


def small(panel: AnalysisPanel, games: int = 40) -> AnalysisPanel:
    panel.games.value = games
    return panel


def test_the_positions_own_rules_come_first_and_are_chosen():
    rules = Rules.preset("advanced", hand_size=7)
    panel = AnalysisPanel(Position.start(rules))
    labels = [lb for lb, _ in panel.rule_sets.options]
    assert labels[0] == "advanced(hand_size=7)" and "advanced" in labels[1:]
    assert panel.rule_sets.value == (rules,)
    assert panel.run_button.description == "Run analysis" and not panel.run_button.disabled


def test_a_run_shows_figures_side_by_side_and_the_metrics():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.rule_sets.value = (Rules.preset("base"), Rules.preset("classic2021"))
    panel.method.value = "sample"
    panel.run(block=True)
    assert list(panel.results) == ["base", "classic2021"]
    assert all(r.games == 40 and not r.exact for r in panel.results.values())
    assert [type(c).__name__ for c in panel.figure_box.children] == ["FigureWidget"] * 4
    outcomes = panel.figure_box.children[2]
    assert list(outcomes.data[0].x) == ["base", "classic2021"]
    assert "Advantage (english)" in panel.metrics.value and "classic2021" in panel.metrics.value
    assert panel.controls.progress.value == panel.controls.progress.max == 80
    assert not panel.run_button.disabled and panel.controls.cancel_button.disabled


def test_the_same_seed_gives_the_same_result_and_another_seed_may_not():
    panel = small(AnalysisPanel(Position.start("base")), 60)
    panel.method.value = "sample"
    panel.run()
    first = panel.results["base"].outcomes
    panel.run()
    assert panel.results["base"].outcomes == first
    panel.seed.value = 7
    panel.run()
    assert panel.results["base"].outcomes != first


def test_a_rule_set_the_position_does_not_fit_is_skipped_with_the_engines_words(endgame):
    panel = AnalysisPanel(endgame)
    panel.rule_sets.value = (endgame.rules, Rules.preset("team"))
    panel.run()
    assert list(panel.results) == ["base"] and panel.results["base"].exact
    assert "<b>team</b> was skipped" in panel.problems.value
    assert "team of two members" in panel.problems.value


def test_exact_asked_of_a_sampling_policy_is_explained(endgame):
    panel = AnalysisPanel(endgame)
    panel.method.value = "exact"
    panel.english_policy.value = "search"
    panel.run()
    assert not panel.results and "no exact move distribution" in panel.problems.value
    assert "No rule set could be analysed" in panel.controls.status.value


def test_an_invalid_position_disables_run_and_says_why():
    panel = AnalysisPanel(Position.start("base"))
    panel.set_position(None)
    assert panel.run_button.disabled and "not valid" in panel.controls.status.value
    panel.run()
    assert not panel.results
    panel.set_position(Position.start("expert"))
    assert not panel.run_button.disabled and panel.rule_sets.value == (Rules.preset("expert"),)


def test_cancel_stops_a_background_run_and_keeps_the_previous_figures():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.method.value = "sample"
    panel.run()
    before = panel.figure_box.children
    panel.games.value = 100_000
    panel.run(block=False)
    panel.controls.cancel()
    panel.controls.thread.join(timeout=60)
    assert not panel.controls.thread.is_alive()
    assert panel.controls.status.value.startswith("Cancelled")
    assert panel.figure_box.children == before and panel.results["base"].games == 40
    assert not panel.run_button.disabled


def test_export_buttons_write_results_and_figures(tmp_path):
    panel = small(AnalysisPanel(Position.start("base")))
    assert all(b.disabled for b in panel.exports.buttons.values())
    panel.run()
    panel.exports.folder.value = str(tmp_path)
    panel.exports.buttons["json"].click()
    panel.exports.buttons["csv"].click()
    panel.exports.buttons["html"].click()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["base.json", "base.csv", "scores.html", "difference.html", "outcomes.html", "rounds.html"])
    assert str(tmp_path / "rounds.html") in panel.exports.status.value


def test_an_export_that_cannot_be_written_is_said_in_the_bar(tmp_path):
    panel = small(AnalysisPanel(Position.start("base")))
    panel.run()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    panel.exports.folder.value = str(blocker / "inside")
    assert panel.exports.export("json") == []
    assert "Export failed" in panel.exports.status.value
    assert panel.results["base"].games == 40  # the panel keeps its results
