"""The plan as the one decision: it names where its games go (the executor that takes them), execution carries it
out without being told again, and every cost said before a run is the sum of the plans of the games it plays."""

from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor

import pytest

from guyenne_explore.analysis import execute, plan
from guyenne_explore.analysis import training
from guyenne_explore.analysis.planning import Sampler, Where
from guyenne_explore.analysis.policies import improvement, train
from guyenne_explore.analysis.studies.depth import play_seats
from guyenne_explore.analysis.studies.skill import skill_levels
from guyenne_explore.engine import Position, Rules

SEARCH = ("search:4", "uniform")


class Counting(ThreadPoolExecutor):
    """An executor offered to a plan that records the policies of every share of games it is sent."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.sent: list[tuple[str, str]] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        self.sent.append(args[1])  # sample_games_on's shares: (position, policies, games, ...)
        return super().submit(fn, *args, **kwargs)


def test_execute_takes_no_executor_the_plan_names_where_its_games_go():
    assert "executor" not in inspect.signature(execute).parameters
    p = Position.start("advanced")
    with Counting() as offered:
        engine = plan(p, SEARCH, "sample", games=3, executor=offered)
        compiled = plan(p, ("uniform", "uniform"), "sample", games=300, executor=offered)
        assert (engine.where, engine.executor) == (Where.LOCAL_CORES, offered)
        assert "on the worker processes given" in engine.reason
        assert (compiled.where, compiled.executor) == (Where.THIS_PROCESS, None)  # sooner here than a worker starts
        assert engine.games_go_to() is offered and compiled.games_go_to() is None
        assert engine == plan(p, SEARCH, "sample", games=3, executor=Counting()) and "executor" not in repr(engine)
        spread = execute(p, engine, seed=3)
        here = execute(p, compiled, seed=3)
    assert offered.sent and set(offered.sent) == {SEARCH}  # the compiled games never reached it
    assert spread.samples == execute(p, plan(p, SEARCH, "sample", games=3), seed=3).samples
    assert here.samples == execute(p, plan(p, ("uniform", "uniform"), "sample", games=300), seed=3).samples


def test_a_study_s_engine_games_go_where_its_plans_send_them_and_compiled_ones_stay_here():
    start = Position.start("advanced")
    with Counting() as offered:
        table = skill_levels(start, [Rules.preset("advanced")], levels=("uniform", "search:4"),
                             games={"uniform": 200, "search:4": 2}, seed=1, executor=offered)
        assert {cell.level for cell in table.cells} == {"uniform", "search:4"}
        assert offered.sent and set(offered.sent) == {("search:4", "search:4")}
        offered.sent.clear()
        play_seats(Rules.preset("advanced"), "uniform", "heuristic", 50, 2, offered)
        assert offered.sent == []  # compiled: played here
        first, second = play_seats(Rules.preset("advanced"), "uniform", "heuristic", 3, 2, offered, fast=False)
    assert set(offered.sent) == {("heuristic", "uniform"), ("uniform", "heuristic")}  # the engine's: sent
    assert (first, second) == play_seats(Rules.preset("advanced"), "uniform", "heuristic", 3, 2, fast=False)


@pytest.mark.parametrize("hidden, robust, played", [
    (0, 0, 4 * 3 * 2 * 10 + 8 * 10), (8, 0, 4 * 7 * 2 * 10 + 8 * 10 + 128),
    # robust: the heuristic, strong-linear, the start, the best, 8 exploiters and the 5 compiled counters; the
    # validation against all but the best; a twentieth of an exploiter's 300 generations of 8 and of the best's
    # validation again
    (8, 3, 4 * 17 * 2 * 10 + 16 * 2 * 2 * 10 + (300 * 8 * 2 * 10 + 16 * 2 * 2 * 10) // 20)])
def test_a_training_cost_is_the_sum_of_its_generation_s_plans(monkeypatch, hidden, robust, played):
    rules = Rules.preset("advanced")
    monkeypatch.setattr(training, "training_pace", lambda rules, hidden, sample: (hidden, 1000.0))
    plans = training.generation_plans(rules, 10, 4, hidden, 1 / 1000, robust)
    assert sum(p.games for p in plans) == played == train.games_a_generation(10, 4, hidden, robust)
    cost = training.estimate_training(rules, games=10, popsize=4, seconds=None, generations=3, workers=2,
                                      hidden=hidden, robust=robust)
    assert cost.games_a_generation == played and cost.generations == 3
    assert cost.seconds == pytest.approx(3 * sum(p.cost or 0.0 for p in plans) / 2)
    by_time = training.estimate_training(rules, games=10, popsize=4, seconds=60.0, workers=2, hidden=hidden,
                                         robust=robust)
    assert by_time.generations == int(60.0 / (sum(p.cost or 0.0 for p in plans) / 2))


def test_an_improvement_cost_is_the_sum_of_its_iterations_plans(monkeypatch):
    rules = Rules.preset("advanced")
    monkeypatch.setattr(training, "self_play_seconds", lambda rules, model=None: improvement.Pace(0.5, 0.25))
    plans = training.iteration_plans(rules, 10, 2, 0.5)
    own, *validation = plans
    assert (own.policies, own.games, own.sampler, own.where) == (("strong", "strong"), 10, Sampler.ENGINE,
                                                                 Where.LOCAL_CORES)
    assert own.cost == pytest.approx(10 * 0.5 / 2)  # the self-play at the measured pace, over the workers
    assert [p.games for p in validation] == [improvement.VALIDATION_GAMES] * 4
    assert all(p.sampler is Sampler.COMPILED for p in validation)
    # each iteration's games, then its fit on one core at the fit's pace a game
    assert training.estimate_improve(rules, 3, 10, workers=2) == pytest.approx(
        3 * (sum(p.cost or 0.0 for p in plans) + 10 * 0.25))
