"""While the fast simulator compiles in the background, every panel's first run is answered by the engine at once (fewer
games, saying so) and refined by the compiled games once the compiling is over; where the engine cannot answer in a
few seconds (a search, the balance search), the run waits for the compiling and says so.

The compiling is simulated (no process starts, nothing compiles): ``needs_compiling`` and ``compiling_in_background``
say True until the test ends it; a run that would wait for it fails the test."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from guyenne_explore.analysis.planning import Sampler, engine_first, engine_first_games
from guyenne_explore.engine import Position
from guyenne_explore.widgets import balance_panel, run_controls, skill_panel, style_view, variant_lab

FIRST = "The engine answered with"


@pytest.fixture
def compiling(monkeypatch):
    """The fast simulator compiling in the background until the test sets the event it gets (set again at its end, so
    that no refining thread waits past the test); a run that waits for the compiling or compiles fails."""
    compiled = threading.Event()
    started: list[bool] = []
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: not compiled.is_set())
    monkeypatch.setattr(balance_panel, "needs_compiling", lambda: not compiled.is_set())
    monkeypatch.setattr(run_controls, "compiling_in_background", lambda: not compiled.is_set())
    monkeypatch.setattr(run_controls, "compile_in_background", lambda: started.append(True))
    monkeypatch.setattr(run_controls, "prepare", lambda progress: pytest.fail("a first answer compiled"))
    monkeypatch.setattr(run_controls.RunControls, "_await_compiling",
                        lambda self: pytest.fail("a first answer waited for the compiling"))
    for panel in (skill_panel, variant_lab, balance_panel):  # the engine's games in this process: frugal tests
        monkeypatch.setattr(panel, "local_cores", lambda: 1)
    yield compiled, started
    compiled.set()


def refined(condition: Callable[[], bool], seconds: float = 120.0) -> bool:
    """Whether ``condition`` holds within ``seconds`` (the refining run, in a thread of its own, ends)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_the_decision_is_one_for_every_panel_and_shares_a_few_seconds_over_a_runs_parts():
    assert engine_first(("uniform", "strong"), compiling=True)
    assert not engine_first(("uniform", "strong"), compiling=False)
    assert not engine_first(("search:100", "uniform"), compiling=True)  # the search's kernels: it waits
    assert not engine_first(("uniform", "uniform"), compiling=True, method="exact")
    p = Position.start("base")
    one = engine_first_games(p, ("heuristic", "heuristic"), 10_000)
    assert one == 100  # the fewest of one answer: 100 games
    assert engine_first_games(p, ("heuristic", "heuristic"), 10_000, parts=4) == 25  # a quarter each
    assert engine_first_games(p, ("uniform", "uniform"), 10_000, parts=2) == 100  # 2 s of 0.02 s games
    assert engine_first_games(p, ("uniform", "uniform"), 30, parts=2) == 30  # never more than asked


def test_skill_levels_answer_from_the_engine_without_the_search_then_refine_with_every_level(compiling, monkeypatch):
    compiled, started = compiling
    monkeypatch.setattr(skill_panel, "engine_first_games", lambda p, policies, games, parts: 6)
    panel = skill_panel.SkillPanel(Position.start("base"))
    panel.games.value, panel.search_games.value, panel.search_budget.value = 40, 2, 4
    assert panel.cost.value.startswith("The fast simulator is not compiled yet") and (
        "Run skill levels answers at once from the engine with 18 games" in panel.cost.value), panel.cost.value
    assert "search (4 rollouts) waits for the fast simulator" in panel.cost.value
    panel.run(block=True)
    assert started and panel.table is not None and panel.table.levels == ["uniform", "heuristic", "strong"]
    assert max(c.metric.games or 0 for c in panel.table.cells) == 6
    status = panel.controls.status.value
    assert status.startswith("Done: a first answer.") and f"{FIRST} 18 of the 122 games asked" in status, status
    assert "search (4 rollouts) waits for the fast simulator: it joins the answer when the compiled games refine it." in status
    compiled.set()
    assert refined(lambda: panel.table is not None and len(panel.table.levels) == 4 and not panel.controls.running)
    assert refined(lambda: panel.controls.status.value == "Done"), panel.controls.status.value
    assert not panel.cost.value.startswith("The fast simulator is not compiled yet")


def test_the_variant_labs_comparison_and_sweep_answer_from_the_engine_then_refine(compiling, monkeypatch):
    compiled, _started = compiling
    monkeypatch.setattr(variant_lab, "engine_first_games", lambda p, policies, games, parts: 5)
    lab = variant_lab.VariantLab(Position.start("base"))
    lab.method.value, lab.games.value = "sample", 40
    lab.run_compare(block=True)
    assert [r.games for r in lab.results.values()] == [5, 5]
    assert {r.plan.sampler for r in lab.results.values()} == {Sampler.ENGINE}
    status = lab.controls.status.value
    assert status.startswith("Compared") and f"{FIRST} 10 of the 80 games asked" in status, status
    compiled.set()
    assert refined(lambda: [r.games for r in lab.results.values()] == [40, 40] and not lab.controls.running)
    assert {r.plan.sampler for r in lab.results.values()} == {Sampler.COMPILED}
    assert refined(lambda: FIRST not in lab.controls.status.value and lab.controls.status.value.startswith("Compared"))


def test_a_sweep_answers_from_the_engine_then_refines(compiling, monkeypatch):
    compiled, _started = compiling
    monkeypatch.setattr(variant_lab, "engine_first_games", lambda p, policies, games, parts: 4)
    lab = variant_lab.VariantLab(Position.start("base"))
    lab.method.value, lab.games.value = "sample", 30
    lab.sweep_parameter.value = "max_at_castle"
    values = lab.sweep_values()
    lab.run_sweep(block=True)
    assert {pt.run.result.games for pt in lab.points if pt.run.result} == {4}
    status = lab.controls.status.value
    assert status.startswith("Swept") and f"{FIRST} {4 * len(values)} of the {30 * len(values)} games" in status
    compiled.set()
    assert refined(lambda: {pt.run.result.games for pt in lab.points if pt.run.result} == {30}
                   and not lab.controls.running)


def test_how_they_play_answers_from_the_engine_then_refines(compiling, monkeypatch):
    compiled, _started = compiling
    monkeypatch.setattr(style_view, "engine_first_games", lambda p, policies, games, parts: 3)
    section = skill_panel.SkillPanel(Position.start("base")).how_they_play
    section.levels_text.value, section.games.value = "uniform,heuristic", 20
    assert "Compare how they play answers at once from the engine with 6 games" in section.cost.value
    section.run(block=True)
    assert section.styles is not None
    assert [(lv.games, lv.played_by) for lv in section.styles[0].levels] == [(3, "engine"), (3, "engine")]
    assert f"{FIRST} 6 of the 40 games asked" in section.controls.status.value
    compiled.set()
    assert refined(lambda: section.styles is not None and section.styles[0].levels[0].games == 20
                   and not section.controls.running)
    assert [lv.played_by for lv in section.styles[0].levels] == ["compiled", "compiled"]


def test_the_depth_ladder_answers_from_the_engine_then_refines(compiling, monkeypatch):
    compiled, _started = compiling
    monkeypatch.setattr(balance_panel, "engine_first_games", lambda p, policies, games, parts: 3)
    panel = balance_panel.BalancePanel(Position.start("base"))
    panel.ladder.value, panel.depth_games.value = "uniform,heuristic", 12
    assert "Measure depth answers at once from the engine with 6 games" in panel.depth_cost.value
    panel.run_depth(block=True)
    assert panel.depth is not None and panel.depth.matches[0].weaker_wins.games == 6
    assert f"{FIRST} 6 of the 24 games asked" in panel.depth_controls.status.value
    compiled.set()
    assert refined(lambda: panel.depth is not None and panel.depth.matches[0].weaker_wins.games == 24
                   and not panel.depth_controls.running)


def test_the_balance_search_measures_the_preset_first_then_searches_once_compiled(compiling):
    """A search's candidates are not decided by a few seconds of the engine's games, so the search itself waits for
    the fast simulator and says so; meanwhile Run search measures the preset against the targets, from the engine, and
    the search runs once the compiled games are ready."""
    compiled, _started = compiling
    panel = balance_panel.BalancePanel(Position.start("base"))
    panel.games.value, panel.trials.value = 4, 1
    cost = panel.cost.value.replace("&#x27;", "'")
    assert "The search waits for the fast simulator: a few seconds of the engine's games would decide no candidate." in cost
    assert "Meanwhile Run search measures the preset against the targets, from the engine." in cost
    panel.run(block=True)
    status = panel.controls.status.value
    assert status.startswith("A first answer: the preset, ") and "games by the engine: " in status, status
    assert "The search runs once the fast simulator is ready." in status and panel.result is None
    compiled.set()
    assert refined(lambda: panel.result is not None and not panel.controls.running)
    assert panel.controls.progress.bar_style == "success"


def test_a_first_answer_plays_in_this_process_and_starts_no_pool(compiling, monkeypatch):
    """While the fast simulator compiles, one core compiles: a first answer spread over the pool would wait for its
    workers to start and load the package (seconds each) beside the compiling, so the engine plays it here."""
    from guyenne_explore.analysis import workers

    def no_pool():
        raise AssertionError("a first answer started the pool of worker processes")

    for module in (workers, skill_panel, balance_panel):
        monkeypatch.setattr(module, "local_pool", no_pool)
    for panel in (skill_panel, variant_lab, balance_panel):
        monkeypatch.setattr(panel, "local_cores", lambda: 2)
    monkeypatch.setattr(variant_lab, "engine_first_games", lambda p, policies, games, parts: 4)
    lab = variant_lab.VariantLab(Position.start("base"))
    lab.method.value, lab.games.value = "sample", 40
    lab.run_compare(block=True)
    assert [r.games for r in lab.results.values()] == [4, 4]
    assert {r.plan.where.value for r in lab.results.values()} == {"this process"}
    monkeypatch.setattr(skill_panel, "engine_first_games", lambda p, policies, games, parts: 4)
    panel = skill_panel.SkillPanel(Position.start("base"))
    panel.strong.value = panel.search.value = False
    panel.games.value = 40
    panel.run(block=True)
    assert panel.table is not None and max(c.metric.games or 0 for c in panel.table.cells) == 4


def test_the_cost_lines_written_while_the_fast_path_compiles_are_written_again_once_it_is_compiled(compiling):
    """Written at the explorer's start during the launch's background step, they said "not compiled yet" until a
    field changed, long after the compiling had ended."""
    from guyenne_explore.widgets.explorer import Explorer

    compiled, _started = compiling
    explorer = Explorer()
    # the levels the engine answers first (How they play follows the ticked ones: a search waits for the fast simulator)
    explorer.skill.search.value = False
    lines = (explorer.analysis.cost, explorer.skill.cost, explorer.skill.how_they_play.cost)
    assert all("not compiled yet" in line.value for line in lines)
    assert explorer.compiled_watch is not None
    compiled.set()
    explorer.compiled_watch.join(10)
    assert not explorer.compiled_watch.is_alive()
    assert not any("not compiled yet" in line.value for line in lines)
    assert Explorer().compiled_watch is None  # nothing compiles: no watch
