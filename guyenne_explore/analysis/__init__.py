"""Analysis on the engine's public API: exact and sampled outcome distributions, policies, metrics.

This module is the analysis' one door for the layers above it (render, widgets, the command line):
they import the names below from ``guyenne_explore.analysis`` and never reach into its sub-packages,
which an import-linter contract keeps.  The sub-packages are by job:

- :mod:`.exact`: exact distributions (enumeration and the endgame solvers);
- :mod:`.sampling`: seeded games on the local cores or Dask, stopped when cancelled;
- :mod:`.policies`: the heuristic, the search, the counter-policies, policies by name;
- :mod:`.optimal`: endgames under optimal play and exploitability;
- :mod:`.compiled`: the numba game loop and its batches;

with the entry points (:mod:`.api`, :mod:`.variants`, :mod:`.skill`, the balance lab :mod:`.balance`) and
the results and metrics they return at the top.  Names load on first use, so that ``import guyenne_explore.analysis`` stays as light
as the engine (numba and scipy come with the first analysis, not with the import).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: each public name -> the module (relative to this package) that defines it
_DOOR: dict[str, str] = {
    **dict.fromkeys(("analyse", "execute", "policy_named", "POLICIES", "ExactOutOfReach"), ".api"),
    **dict.fromkeys(("Plan", "Sampler", "Solver", "Where", "engine_plays", "plan", "sampling_seconds", "seconds_a_game",
                     "surely_sampled"), ".planning"),
    **dict.fromkeys(("Cancelled",), ".cancel"),
    **dict.fromkeys(("NotExact",), ".exact.distribution"),
    **dict.fromkeys(("Step", "compiling_note", "needs_compiling", "prepare", "preparing_message", "warm"),
                    ".sampling.warm"),
    **dict.fromkeys(("AnalysisResult",), ".results"),
    **dict.fromkeys(("Metric",), ".metrics"),
    **dict.fromkeys(("mean_interval", "wilson"), ".intervals"),
    **dict.fromkeys(("Heuristic",), ".policies.heuristic"),
    **dict.fromkeys(("TRAIN_DEFAULTS", "Trained", "TrainingProgress", "check_training", "estimate_training",
                     "read_state", "train", "weights_by_feature", "write_weights"), ".policies.train"),
    **dict.fromkeys(("IMPROVE_DEFAULTS", "ImproveProgress", "ImproveRun", "check_improve", "estimate_improve",
                     "improve", "write_improved"), ".improvement"),
    **dict.fromkeys(("cache_file", "read_model", "trained_preset"), ".policies.weights"),
    **dict.fromkeys(("OptimalResult", "OptimalSolver", "describe", "exploitability", "solve_position",
                     "why_not_solvable"), ".optimal.solver"),
    **dict.fromkeys(("local_cores", "local_pool", "process_pool"), ".sampling.workers"),
    **dict.fromkeys(("SkillTable", "cost_line", "level_name", "skill_cost", "skill_levels"), ".skill"),
    **dict.fromkeys(("LATE_ROUNDS", "LevelStyle", "PlayStyle", "STYLE_LEVELS", "play_style", "play_styles",
                     "style_cost"), ".style"),
    **dict.fromkeys(("Candidate", "SearchResult", "SearchProgress", "balance_search", "estimate_search", "search"),
                    ".balance.search"),
    **dict.fromkeys(("Space", "SpaceError"), ".balance.space"),
    **dict.fromkeys(("TARGET_METRICS", "TARGET_WORDS", "Target", "TargetError", "parse_targets"), ".balance.targets"),
    **dict.fromkeys(("BEATS", "Depth", "default_ladder", "ladder_cost", "level_games", "skill_depth"),
                    ".balance.depth"),
    **dict.fromkeys(("PARAMETER_LABELS", "REFUSED", "SWEEP_METRICS", "SWEEPABLE", "Run", "SweepPoint",
                     "analyse_rule_sets", "changes", "choice_label", "parameter_label", "result_metrics", "sampling_cost",
                     "sweep", "sweep_label", "swept_change"), ".variants"),
}

__all__ = [
    "LATE_ROUNDS", "LevelStyle", "PlayStyle", "STYLE_LEVELS", "play_style", "play_styles", "style_cost",
    "BEATS", "Candidate", "Depth", "SearchProgress", "SearchResult", "Space", "SpaceError", "TARGET_METRICS",
    "TARGET_WORDS", "Target", "TargetError", "balance_search", "default_ladder", "estimate_search", "ladder_cost",
    "level_games", "parse_targets", "search", "seconds_a_game", "skill_depth",
    "AnalysisResult", "Cancelled", "ExactOutOfReach", "Heuristic", "Metric", "NotExact", "OptimalResult",
    "OptimalSolver", "PARAMETER_LABELS", "POLICIES", "Plan", "REFUSED", "Run", "SWEEPABLE", "SWEEP_METRICS",
    "Sampler", "SkillTable", "Solver", "Step", "SweepPoint", "Where", "analyse", "analyse_rule_sets", "changes",
    "choice_label", "describe", "engine_plays", "execute", "exploitability", "level_name", "local_cores", "local_pool",
    "compiling_note", "mean_interval", "needs_compiling", "parameter_label", "plan", "policy_named", "prepare",
    "preparing_message", "process_pool", "result_metrics", "sampling_cost", "sampling_seconds",
    "cost_line", "skill_cost", "skill_levels", "solve_position", "surely_sampled", "sweep",
    "sweep_label", "swept_change", "warm", "why_not_solvable", "wilson",
    "TRAIN_DEFAULTS", "Trained", "TrainingProgress", "cache_file", "check_training", "estimate_training",
    "read_model", "read_state", "train", "trained_preset", "weights_by_feature", "write_weights",
    "IMPROVE_DEFAULTS", "ImproveProgress", "ImproveRun", "check_improve", "estimate_improve", "improve", "write_improved",
]


def __getattr__(name: str) -> Any:
    """Load a public name from the module that defines it, on first use (PEP 562)."""
    module = _DOOR.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_DOOR))


if TYPE_CHECKING:  # the same names for type checkers, which do not run __getattr__
    from .api import POLICIES, ExactOutOfReach, analyse, execute, policy_named
    from .balance.depth import BEATS, Depth, default_ladder, ladder_cost, level_games, skill_depth
    from .balance.search import Candidate, SearchProgress, SearchResult, balance_search, estimate_search, search
    from .balance.space import Space, SpaceError
    from .balance.targets import TARGET_METRICS, TARGET_WORDS, Target, TargetError, parse_targets
    from .cancel import Cancelled
    from .sampling.warm import Step, compiling_note, needs_compiling, prepare, preparing_message, warm
    from .exact.distribution import NotExact
    from .intervals import mean_interval, wilson
    from .metrics import Metric
    from .optimal.solver import (OptimalResult, OptimalSolver, describe, exploitability, solve_position,
                                 why_not_solvable)
    from .policies.heuristic import Heuristic
    from .improvement import (IMPROVE_DEFAULTS, ImproveProgress, ImproveRun, check_improve, estimate_improve, improve,
                              write_improved)
    from .policies.train import (TRAIN_DEFAULTS, Trained, TrainingProgress, check_training, estimate_training,
                                 read_state, train, weights_by_feature, write_weights)
    from .policies.weights import cache_file, read_model
    from .results import AnalysisResult
    from .planning import Plan, Sampler, Solver, Where, engine_plays, plan, sampling_seconds, seconds_a_game, surely_sampled
    from .sampling.workers import local_cores, local_pool, process_pool
    from .skill import SkillTable, cost_line, level_name, skill_cost, skill_levels
    from .style import LATE_ROUNDS, STYLE_LEVELS, LevelStyle, PlayStyle, play_style, play_styles, style_cost
    from .variants import (PARAMETER_LABELS, REFUSED, SWEEP_METRICS, SWEEPABLE, Run, SweepPoint, analyse_rule_sets,
                           changes, choice_label, parameter_label, result_metrics, sampling_cost, sweep, sweep_label,
                           swept_change)
