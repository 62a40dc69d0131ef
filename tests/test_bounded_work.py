"""Guarantee 2 of issue 46, bounded work: every computation a client can start says its cost first, and the exact
analysis's cost estimate is within ten times of what the solver does (compared here in states, not seconds: speed
is printed by ``benchmarks/bench_estimate.py``, never asserted)."""

from __future__ import annotations

import pytest

from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis.exact.distribution import exact_distribution
from guyenne_explore.analysis.planning import estimate_exact_cost
from guyenne_explore.analysis import PolicySpec
from tests.conftest import position_files

UNIFORM = (PolicySpec.parse("uniform").policy(), PolicySpec.parse("uniform").policy())


def _solved_states(p: Position) -> int:
    """The states the exact analysis solves from ``p`` (its memos' entries, and a forward pass's pairs)."""
    return exact_distribution(p, UNIFORM)[1]


def _within_ten_times(estimate: float, states: int) -> bool:
    return states / 10 <= estimate <= states * 10


@pytest.mark.parametrize("path", position_files(), ids=lambda path: path.stem)
def test_the_estimated_states_of_each_check_position_are_within_ten_times_the_solvers(path) -> None:
    """The model alone (no pilot run) counted the forward pass's endgames in memoised round starts times castle
    tables, 200 times the pairs the pass solves; with the pilot run, a small analysis is measured exactly."""
    p = Position.from_json(path.read_text())
    states = _solved_states(p)
    modelled, _ = estimate_exact_cost(p, pilot=False)
    assert _within_ten_times(modelled, states), (modelled, states)
    assert estimate_exact_cost(p)[0] == states  # each takes the pilot run fewer states than it may solve


def test_a_small_variant_whose_games_are_long_is_estimated_in_states_not_paths() -> None:
    """Two castles, hands of two, a hero and three cards a side: a game lasts many reshuffles over few states.
    The estimate counted every path to them, 14 million, 570 times the 25,000 states the solver memoises (and
    refused a run of 1.5 s as "about 6 minutes"); the probes now count the states they meet again."""
    p = Position.start(Rules.preset("base", castles=2, hand_size=2, card_counts={"2": 1, "3": 1, "4": 1}))
    states = _solved_states(p)
    modelled, _ = estimate_exact_cost(p, pilot=False)
    assert states > 10_000 and _within_ten_times(modelled, states), (modelled, states)


# ---------------------------------------------------------------- every other computation: a stated bound, in words
@pytest.fixture
def a_short_limit(monkeypatch):
    """RUN_SECONDS at a value a handful of games passes and a few thousand do not (the figures are the stated
    costs, not measured times: nothing here depends on the machine's speed)."""
    from guyenne_explore.analysis import limits
    from guyenne_explore.analysis.planning import sampling_seconds

    limit = sampling_seconds(Position.start("base"), ("uniform", "uniform"), 100)
    monkeypatch.setattr(limits, "RUN_SECONDS", limit)
    return limit


def test_sampled_games_past_the_time_limit_are_refused_unless_confirmed(a_short_limit) -> None:
    """The games' cost was said before the run, but a million hours of games started all the same."""
    from guyenne_explore.analysis import TooLong
    from guyenne_explore.analysis.api import analyse

    p = Position.start("base")
    with pytest.raises(TooLong, match="2,000 games would take .* run it anyway") as refused:
        analyse(p, method="sample", games=2000)
    assert refused.value.forceable
    assert analyse(p, method="sample", games=80).games == 80  # within the limit
    assert analyse(p, method="sample", games=200, force=True).games == 200  # confirmed


def test_a_sweep_is_refused_for_its_games_over_all_values_together(a_short_limit) -> None:
    """Each value's 60 games are within the limit, but three values' are not: refused before any is played."""
    from guyenne_explore.analysis import TooLong
    from guyenne_explore.analysis.studies.variants import sweep

    start, base = Position.start("base"), Rules.preset("base")
    with pytest.raises(TooLong, match="180 games"):
        sweep(start, base, "hand_size", [5, 6, 7], "Mean rounds", method="sample", games=60)
    points = sweep(start, base, "hand_size", [5, 6, 7], "Mean rounds", method="sample", games=60, force=True)
    assert all(pt.metric is not None for pt in points)


def test_a_balance_search_is_refused_for_its_trials_times_games(a_short_limit) -> None:
    from guyenne_explore.analysis import TooLong
    from guyenne_explore.analysis.studies.balance import Space, balance_search, parse_targets

    space = Space.parse(Rules.preset("base"), ["castles=5:6"])
    targets = parse_targets(["advantage=0.4:0.6"])
    with pytest.raises(TooLong, match="would take"):
        balance_search(space, targets, ("uniform", "uniform"), games=400, seed=2)


def test_a_skill_run_is_refused_for_its_games_at_every_level(a_short_limit) -> None:
    from guyenne_explore.analysis import TooLong
    from guyenne_explore.analysis.studies.skill import skill_levels

    with pytest.raises(TooLong, match="would take"):
        skill_levels(Position.start("base"), [Rules.preset("base")], levels=("uniform", "strong"), games=400)


def test_a_storyboard_past_its_page_limit_is_refused_before_drawing(monkeypatch) -> None:
    """A record of thousands of steps drew thousands of pictures (minutes, hundreds of MB): now a sentence."""
    from guyenne_explore.engine.record import play_game
    from guyenne_explore.render import storyboard as boards

    record = play_game(Position.start("base"), 0)
    pages = len(boards.frames_of(record))
    monkeypatch.setattr(boards, "STORYBOARD_PAGES", pages - 1)
    with pytest.raises(ValueError, match=f"would have {pages} pages, more than the limit of {pages - 1}"):
        boards.storyboard(record)
    monkeypatch.setattr(boards, "STORYBOARD_PAGES", pages)
    assert len(boards.storyboard(record)) == pages


def test_the_workers_of_the_local_pool_run_under_the_memory_budget() -> None:
    """No task a client starts can make a worker map more than the memory budget (RLIMIT_AS)."""
    import resource

    from guyenne_explore.analysis.limits import MEMORY_BUDGET
    from guyenne_explore.analysis.workers import LocalPool

    pool = LocalPool(1)
    try:
        soft, _hard = pool.submit(resource.getrlimit, resource.RLIMIT_AS).result(timeout=120)
    finally:
        pool.shutdown()
    assert soft == MEMORY_BUDGET


def test_the_analysis_panel_says_the_refusal_and_runs_when_run_anyway_is_ticked(a_short_limit) -> None:
    from guyenne_explore.widgets.analysis_panel import AnalysisPanel

    panel = AnalysisPanel(Position.start("base"))
    panel.method.value = "sample"
    assert panel.run_anyway.layout.display is None  # beside the games, where games are sampled
    panel.games.value = 2000
    panel.run()
    assert "Not run: 2,000 games would take" in panel.controls.status.value and not panel.results
    panel.games.value = 200
    panel.run_anyway.value = True
    panel.run()
    assert panel.results["base"].games == 200
    panel.method.value = "exact"
    assert panel.run_anyway.layout.display == "none"


@pytest.mark.parametrize("command", [
    ["analyse", "--rules", "base", "--policies", "search:400,search:400", "--samples", "100000", "--workers", "1"],
    ["skill", "--rules", "base", "--levels", "search:400,search:800", "--games", "20000", "--workers", "1"],
    ["depth", "--rules", "base", "--levels", "strong,search:800", "--games", "1000000"],
    ["style", "--rules", "base", "--levels", "uniform,search:800", "--games", "100000"]])
def test_the_command_line_refuses_hours_of_games_in_one_line_and_names_force(command: list[str], capsys) -> None:
    """The command line said "about 1 day on one core" and started them (analyse plans and runs by itself, not
    through analyse(), so it asks the same check); skill and balance refuse in words too, where a TooLong
    reached the command line as an internal error."""
    from guyenne_explore.cli import main

    assert main(command) == 1
    err = capsys.readouterr().err
    assert "games would take about" in err and "--force" in err and "internal error" not in err


@pytest.fixture
def no_time_at_all(monkeypatch):
    """A limit of no time: every run a panel starts is past it, so each panel's refusal and its "run anyway" are
    checked on a few games, whatever the machine's cores (the refusal reads stated costs, never a clock)."""
    from guyenne_explore.analysis import limits

    monkeypatch.setattr(limits, "RUN_SECONDS", 0.0)


def _refused_naming_the_box(status: str) -> bool:
    """The status says the run was refused for its time and names the box that runs it anyway."""
    return "Not run: " in status and "would take" in status and "tick &#x27;run anyway (past the time limit)&#x27; above" in status


def test_the_skill_panel_says_the_refusal_and_runs_when_run_anyway_is_ticked(no_time_at_all) -> None:
    """The Skill levels tab showed the refusal but had no way to confirm it."""
    from guyenne_explore.widgets.skill_panel import SkillPanel

    panel = SkillPanel(Position.start("base"))
    panel.heuristic.value = panel.strong.value = panel.search.value = False
    panel.games.value = 20
    panel.run()
    assert _refused_naming_the_box(panel.controls.status.value) and panel.table is None
    panel.run_anyway.value = True
    panel.run()
    assert panel.table is not None and panel.table.levels == ["uniform"]


def test_the_balance_panel_says_the_refusal_and_runs_when_run_anyway_is_ticked(no_time_at_all, tmp_path) -> None:
    from guyenne_explore.widgets.balance_panel import BalancePanel
    from guyenne_explore.widgets.starts import before_deal

    panel = BalancePanel(before_deal("advanced"))
    panel.rows[0].values.value, panel.rows[1].values.value = "5:6", "5:6"
    panel.games.value, panel.trials.value = 20, 1
    panel.store = str(tmp_path / "s.journal")
    panel.run()
    assert _refused_naming_the_box(panel.controls.status.value) and panel.result is None
    panel.run_anyway.value = True
    panel.run()
    assert panel.result is not None and panel.result.played > 0


@pytest.mark.parametrize("run", ["run_compare", "run_sweep"])
def test_the_variant_lab_says_the_refusal_and_runs_when_run_anyway_is_ticked(no_time_at_all, run: str) -> None:
    from guyenne_explore.widgets.variant_lab import VariantLab

    lab = VariantLab(Position.start("base"))
    lab.games.value, lab.method.value = 20, "sample"
    getattr(lab, run)()
    assert _refused_naming_the_box(lab.controls.status.value) and not lab.results
    lab.run_anyway.value = True
    getattr(lab, run)()
    assert lab.results and all(r.games == 20 for r in lab.results.values())
    lab.method.value = "exact"  # an exact request is forced in the Analysis tab, not by this box
    assert lab.run_anyway.layout.display == "none"


def test_how_they_play_says_the_refusal_and_runs_when_the_tabs_box_is_ticked(no_time_at_all) -> None:
    """How they play had no time check at all: its games are refused like the tab's own, and the tab's one
    "run anyway" box confirms both."""
    from guyenne_explore.widgets.skill_panel import SkillPanel

    panel = SkillPanel(Position.start("base"))
    section = panel.how_they_play
    section.levels_text.value, section.games.value = "uniform", 5
    section.run()
    assert _refused_naming_the_box(section.controls.status.value) and section.styles is None
    panel.run_anyway.value = True
    section.run()
    assert section.styles is not None and [lv.level for lv in section.styles[0].levels] == ["uniform"]


def test_the_skill_depth_says_the_refusal_and_runs_when_the_panels_box_is_ticked(no_time_at_all) -> None:
    """The Balance tab's skill depth had no time check: its ladder's games are refused like the search's, and the
    panel's "run anyway" box confirms it."""
    from guyenne_explore.widgets.balance_panel import BalancePanel
    from guyenne_explore.widgets.starts import before_deal

    panel = BalancePanel(before_deal("base"))
    panel.ladder.value, panel.depth_games.value = "uniform,heuristic", 5
    panel.run_depth()
    assert _refused_naming_the_box(panel.depth_controls.status.value)
    panel.run_anyway.value = True
    panel.run_depth()
    assert panel.depth_controls.status.value.startswith("Done"), panel.depth_controls.status.value
