"""The analysis' sub-door for training the learned policy: its weights trained by self-play
(:mod:`.policies.train`), improved by the search (:mod:`.policies.improvement`) or by the natural gradient of its
own games (:mod:`.policies.natural`), and read and written as files
(:mod:`.policies.weights`).  The floors above import the names below from here, not from those modules, which
also serve the policies themselves.

A run's cost, said before it starts, is the sum of the plans of the games it plays (:func:`.planning.plan`, the one
cost of games), at the pace measured here where the plans' table of games' seconds does not know the games: a
network's, a self-play valued by the search.  It is reckoned here, above the planning, which the policies are under.
"""

from __future__ import annotations

from ..engine import Position, Rules
from .planning import Plan, plan
from .policies.improvement import (FIT_STEPS, IMPROVE_DEFAULTS, ImproveProgress, ImproveRun, Pace, check_improve, improve,
                                   iteration_games, self_play_seconds, write_improved)
from .policies.natural import NATURAL_DEFAULTS, NaturalRun, check_natural, natural, write_natural
from .policies.natural import iteration_seconds as natural_iteration_seconds
from .policies.train import (GAMES, MINUTES, POPSIZE, TRAIN_DEFAULTS, Cost, Trained, TrainingProgress, check_training,
                             generation_games, read_state, start_model, start_record, train, training_pace,
                             write_weights)
from .policies.weights import MAX_WEIGHTS_BYTES, cache_file, mix_files, model_from_text, read_model, trained_preset

__all__ = ["TRAIN_DEFAULTS", "Trained", "TrainingProgress", "check_training", "estimate_training", "read_state",
           "start_model", "start_record", "train", "write_weights",
           "IMPROVE_DEFAULTS", "ImproveProgress", "ImproveRun", "Pace", "check_improve", "estimate_improve", "improve",
           "self_play_seconds", "FIT_STEPS",
           "write_improved",
           "NATURAL_DEFAULTS", "NaturalRun", "check_natural", "natural", "natural_iteration_seconds",
           "write_natural",
           "MAX_WEIGHTS_BYTES", "cache_file", "mix_files", "model_from_text", "read_model", "trained_preset"]


def generation_plans(rules: Rules, games: int, popsize: int, hidden: int, seconds_a_game: float,
                     robust: int = 0) -> list[Plan]:
    """A training generation's games (:func:`.policies.train.generation_games`) as plans, each game
    ``seconds_a_game`` on one core (the run's measured pace)."""
    start = Position.start(rules)
    return [plan(start, pair, "sample", games=n, seconds_a_game=seconds_a_game)
            for pair, n in generation_games(games, popsize, hidden, robust)]


def estimate_training(rules: Rules, games: int = GAMES, popsize: int = POPSIZE, seconds: float | None = MINUTES * 60,
                      generations: int | None = None, workers: int = 1, sample: int = 400,
                      hidden: int | None = None, robust: int = 0) -> Cost:
    """The cost of a run before it starts: a generation's plans (:func:`generation_plans`) at the pace of ``sample``
    games of the model it trains timed here (:func:`.policies.train.training_pace`), their candidates spread over
    ``workers`` cores; a run by time takes its time, one by generations its generations at that pace; ``robust``:
    a robust run's K (``policies.train.ROBUST_EVERY``)."""
    check_training(rules, 0, seconds, generations, games, popsize)
    units, rate = training_pace(rules, hidden, sample)
    plans = generation_plans(rules, games, popsize, units, 1 / rate, robust)
    each = sum(p.games for p in plans)
    per_generation = sum(p.cost or 0.0 for p in plans) / max(1, workers)
    if generations is None:
        assert seconds is not None
        return Cost(each, rate, max(1, int(seconds / per_generation)), seconds)
    return Cost(each, rate, generations, generations * per_generation)


def iteration_plans(rules: Rules, games: int, workers: int, seconds_a_game: float) -> list[Plan]:
    """An improvement iteration's games (:func:`.policies.improvement.iteration_games`) as plans: the self-play,
    which the engine plays (the search values every placement), spread over ``workers`` cores at
    ``seconds_a_game`` a game; the validation's compiled games at the plans' own pace."""
    start = Position.start(rules)
    (own, n), *validation = iteration_games(games)
    return [plan(start, own, "sample", games=n, fast=False, cores=workers, seconds_a_game=seconds_a_game),
            *(plan(start, pair, "sample", games=m) for pair, m in validation)]


def estimate_improve(rules: Rules, iterations: int, games: int, workers: int = 1, pace: Pace | None = None) -> float:
    """Seconds a run of ``iterations`` will take: each iteration's plans (:func:`iteration_plans`), its self-play at
    the pace of one game of the model it improves timed here (``pace``: the caller's
    :func:`.policies.improvement.self_play_seconds`; None: timed here on what ``strong`` plays under ``rules``), then
    its fit, on one core, at that game's pace of fit a game."""
    pace = self_play_seconds(rules) if pace is None else pace
    plans = iteration_plans(rules, games, workers, pace.game)
    return iterations * (sum(p.cost or 0.0 for p in plans) + games * pace.fit)
