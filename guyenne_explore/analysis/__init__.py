"""Analysis on the engine's public API: exact and sampled outcome distributions, policies, metrics.

This module is the analysis' one door for the layers above it (render, widgets, the command line):
they import the names below from ``guyenne_explore.analysis`` and never reach into its sub-packages,
which an import-linter contract keeps.  The sub-packages are by job:

- :mod:`.exact`: exact distributions (enumeration and the endgame solvers);
- :mod:`.sampling`: seeded games on the local cores or Dask, stopped when cancelled;
- :mod:`.policies`: the heuristic, the search, the counter-policies, policies by name;
- :mod:`.optimal`: endgames under optimal play and exploitability;
- :mod:`.puzzles`: puzzles found in game records, verified by the solver or the search;
- :mod:`.compiled`: the numba game loop and its batches;
- :mod:`.playtest`: people's recorded games read against the bots, and a level fitted to them;

with the entry points (:mod:`.api`, :mod:`.variants`, :mod:`.skill`, the balance lab :mod:`.balance`, how
exploitable a level is :mod:`.studies.exploit`) and
the results and metrics they return at the top.  Names load on first use, so that ``import guyenne_explore.analysis`` stays as light
as the engine (numba and scipy come with the first analysis, not with the import).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: each public name -> the module (relative to this package) that defines it
_DOOR: dict[str, str] = {
    **dict.fromkeys(("analyse", "check_games", "execute", "ExactOutOfReach"), ".api"),
    **dict.fromkeys(("POLICIES", "PolicySpec"), ".policies.spec"),
    **dict.fromkeys(("Plan", "Sampler", "Solver", "Where", "engine_first", "engine_first_games", "engine_plays", "plan",
                     "sampling_seconds", "seconds_a_game",
                     "surely_sampled"), ".planning"),
    **dict.fromkeys(("Cancelled",), ".cancel"),
    **dict.fromkeys(("RUN_SECONDS", "TooLong"), ".limits"),
    **dict.fromkeys(("NotExact",), ".exact.distribution"),
    **dict.fromkeys(("Step", "compile_in_background", "compiling_in_background", "compiling_note", "compiling_seconds",
                    "needs_compiling", "prepare", "preparing_message", "warm", "warm_workers", "games_of", "EVERY_GAME"),
                    ".sampling.warm"),
    **dict.fromkeys(("AnalysisResult", "SavedError", "from_saved", "to_saved"), ".results"),
    **dict.fromkeys(("Metric",), ".metrics"),
    **dict.fromkeys(("mean_interval", "wilson"), ".intervals"),
    **dict.fromkeys(("Heuristic",), ".policies.heuristic"),
    **dict.fromkeys(("TRAIN_DEFAULTS", "Trained", "TrainingProgress", "check_training", "estimate_training",
                     "read_state", "start_model", "train", "weights_by_feature", "write_weights"), ".policies.train"),
    **dict.fromkeys(("IMPROVE_DEFAULTS", "ImproveProgress", "ImproveRun", "check_improve", "estimate_improve",
                     "improve", "write_improved"), ".policies.improvement"),
    **dict.fromkeys(("MAX_WEIGHTS_BYTES", "cache_file", "model_from_text", "read_model", "trained_preset"),
                    ".policies.weights"),
    **dict.fromkeys(("OptimalResult", "OptimalSolver", "describe", "exploitability", "solve_position",
                     "why_not_solvable"), ".optimal.solver"),
    **dict.fromkeys(("local_cores", "local_pool", "process_pool"), ".workers"),
    **dict.fromkeys(("Puzzle", "PuzzleError", "PuzzleFinder", "PuzzleVerdict", "SECTION_OF", "TAGS", "bot_games",
                     "find_puzzles", "judge", "puzzles_from_bot_games", "puzzles_from_json", "rule_section"), ".puzzles"),
    **dict.fromkeys(("SkillTable", "cost_line", "level_name", "skill_cost", "skill_levels"), ".studies.skill"),
    **dict.fromkeys(("EXPLOIT_GAMES", "CounterCheck", "ExploitError", "Exploitability", "ResponderScore",
                     "check_against_counter", "check_exploit", "check_verdicts", "check_verdicts_games",
                     "check_verdicts_seconds", "counter_check", "exploit", "exploit_cost_line", "exploit_seconds",
                     "pairs_below", "responder_names"), ".studies.exploit"),
    **dict.fromkeys(("LATE_ROUNDS", "LevelStyle", "PlayStyle", "STYLE_LEVELS", "play_style", "play_styles",
                     "style_cost"), ".studies.style"),
    **dict.fromkeys(("Candidate", "SearchResult", "SearchProgress", "balance_search", "estimate_search", "search"),
                    ".studies.balance.optimise"),
    **dict.fromkeys(("Space", "SpaceError"), ".studies.balance.space"),
    **dict.fromkeys(("TARGET_METRICS", "TARGET_WORDS", "Target", "TargetError", "Verdict", "parse_targets", "verdicts"),
                    ".studies.balance.targets"),
    **dict.fromkeys(("LEVELS", "PlaytestReport", "playtest_report"), ".playtest.report"),
    **dict.fromkeys(("PlaytestError", "budget_of", "cache_folder", "reading_cost"), ".playtest.reading"),
    **dict.fromkeys(("Persona", "fit_persona"), ".playtest.persona"),
    **dict.fromkeys(("BEATS", "Depth", "default_ladder", "ladder_cost", "level_games", "skill_depth"),
                    ".studies.depth"),
    **dict.fromkeys(("DiffEntry", "ExampleError", "Replay", "Rulebook", "RulebookSection", "SECTION_IDS",
                     "build_rulebook", "examples_of", "replay", "section_of", "section_text", "verdict_words"),
                    ".rulebook"),
    **dict.fromkeys(("SWEEP_METRICS", "SWEEPABLE", "Run", "SweepPoint", "swept_value",
                     "analyse_rule_sets", "changes", "choice_label", "parameter_label", "result_metrics", "sampling_cost",
                     "sweep", "sweep_label", "swept_change", "first_player_advantage", "metric_difference"), ".studies.variants"),
}

__all__ = [
    "EVERY_GAME", "games_of",
    "LEVELS", "PlaytestReport", "playtest_report", "PlaytestError", "budget_of", "cache_folder", "reading_cost",
    "Persona", "fit_persona",
    "Puzzle", "PuzzleError", "PuzzleFinder", "PuzzleVerdict", "SECTION_OF", "TAGS", "bot_games", "find_puzzles", "judge",
    "puzzles_from_bot_games", "puzzles_from_json", "rule_section",
    "LATE_ROUNDS", "LevelStyle", "PlayStyle", "STYLE_LEVELS", "play_style", "play_styles", "style_cost",
    "BEATS", "Candidate", "Depth", "SearchProgress", "SearchResult", "Space", "SpaceError", "TARGET_METRICS",
    "TARGET_WORDS", "Target", "TargetError", "Verdict", "balance_search", "default_ladder", "estimate_search",
    "ladder_cost", "level_games", "verdicts", "parse_targets", "search", "seconds_a_game", "skill_depth",
    "AnalysisResult", "SavedError", "from_saved", "to_saved", "Cancelled", "ExactOutOfReach", "Heuristic", "Metric",
    "RUN_SECONDS", "TooLong", "check_games",
    "NotExact", "OptimalResult",
    "OptimalSolver", "POLICIES", "Plan", "Run", "SWEEPABLE", "SWEEP_METRICS", "swept_value",
    "Sampler", "SkillTable", "Solver", "Step", "SweepPoint", "Where", "analyse", "analyse_rule_sets", "changes",
    "choice_label", "describe", "engine_plays", "execute", "exploitability", "level_name", "local_cores", "local_pool",
    "compiling_note", "compiling_seconds", "mean_interval", "needs_compiling", "parameter_label", "plan",
    "PolicySpec",
    "prepare",
    "preparing_message", "process_pool", "result_metrics", "sampling_cost", "sampling_seconds",
    "cost_line", "skill_cost", "skill_levels", "solve_position", "surely_sampled", "sweep",
    "sweep_label", "swept_change", "warm", "warm_workers", "why_not_solvable", "compile_in_background",
    "compiling_in_background", "engine_first", "engine_first_games", "wilson", "first_player_advantage", "metric_difference",
    "TRAIN_DEFAULTS", "Trained", "TrainingProgress", "cache_file", "check_training", "estimate_training",
    "read_model", "read_state", "start_model", "train", "trained_preset", "weights_by_feature", "write_weights",
    "MAX_WEIGHTS_BYTES", "model_from_text",
    "EXPLOIT_GAMES", "CounterCheck", "ExploitError", "Exploitability", "ResponderScore", "check_against_counter",
    "check_exploit", "check_verdicts", "check_verdicts_games", "check_verdicts_seconds", "counter_check", "exploit",
    "exploit_cost_line", "exploit_seconds", "pairs_below", "responder_names",
    "IMPROVE_DEFAULTS", "ImproveProgress", "ImproveRun", "check_improve", "estimate_improve", "improve", "write_improved",
    "DiffEntry", "ExampleError", "Replay", "Rulebook", "RulebookSection", "SECTION_IDS", "examples_of", "replay",
    "build_rulebook", "section_of", "section_text", "verdict_words",
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
    from .api import ExactOutOfReach, analyse, check_games, execute
    from .policies.spec import POLICIES, PolicySpec
    from .studies.depth import BEATS, Depth, default_ladder, ladder_cost, level_games, skill_depth
    from .studies.balance.optimise import Candidate, SearchProgress, SearchResult, balance_search, estimate_search, search
    from .studies.balance.space import Space, SpaceError
    from .playtest.persona import Persona, fit_persona
    from .playtest.reading import PlaytestError, budget_of, cache_folder, reading_cost
    from .playtest.report import LEVELS, PlaytestReport, playtest_report
    from .studies.balance.targets import TARGET_METRICS, TARGET_WORDS, Target, TargetError, Verdict, parse_targets, verdicts
    from .cancel import Cancelled
    from .limits import RUN_SECONDS, TooLong
    from .sampling.warm import (Step, compile_in_background, compiling_in_background, compiling_note,
                                compiling_seconds, EVERY_GAME, games_of, needs_compiling, prepare,
                                preparing_message, warm, warm_workers)
    from .exact.distribution import NotExact
    from .intervals import mean_interval, wilson
    from .metrics import Metric
    from .optimal.solver import (OptimalResult, OptimalSolver, describe, exploitability, solve_position,
                                 why_not_solvable)
    from .policies.heuristic import Heuristic
    from .puzzles import (SECTION_OF, TAGS, Puzzle, PuzzleError, PuzzleFinder, PuzzleVerdict, bot_games, find_puzzles,
                          judge, puzzles_from_bot_games, puzzles_from_json, rule_section)
    from .policies.improvement import (IMPROVE_DEFAULTS, ImproveProgress, ImproveRun, check_improve, estimate_improve,
                                       improve, write_improved)
    from .policies.train import (TRAIN_DEFAULTS, Trained, TrainingProgress, check_training, estimate_training,
                                 read_state, start_model, train, weights_by_feature, write_weights)
    from .policies.weights import MAX_WEIGHTS_BYTES, cache_file, model_from_text, read_model
    from .results import AnalysisResult, SavedError, from_saved, to_saved
    from .rulebook import (SECTION_IDS, DiffEntry, ExampleError, Replay, Rulebook, RulebookSection, build_rulebook,
                           examples_of, replay, section_of, section_text, verdict_words)
    from .planning import (Plan, Sampler, Solver, Where, engine_first, engine_first_games, engine_plays, plan,
                           sampling_seconds, seconds_a_game, surely_sampled)
    from .workers import local_cores, local_pool, process_pool
    from .studies.skill import SkillTable, cost_line, level_name, skill_cost, skill_levels
    from .studies.exploit import (EXPLOIT_GAMES, CounterCheck, ExploitError, Exploitability, ResponderScore,
                                  check_against_counter, check_exploit, check_verdicts, check_verdicts_games,
                                  check_verdicts_seconds, counter_check, exploit, exploit_cost_line, exploit_seconds,
                                  pairs_below, responder_names)
    from .studies.style import (LATE_ROUNDS, STYLE_LEVELS, LevelStyle, PlayStyle, play_style, play_styles, style_cost)
    from .studies.variants import (SWEEP_METRICS, SWEEPABLE, Run, SweepPoint, analyse_rule_sets, changes, choice_label,
                                   parameter_label, result_metrics, sampling_cost, sweep, sweep_label, swept_change,
                                   swept_value, first_player_advantage, metric_difference)
