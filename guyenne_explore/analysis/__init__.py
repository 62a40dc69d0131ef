"""Analysis on the engine's public API: exact and sampled outcome distributions, policies, metrics.

This module is the analysis' door for the layers above it (render, widgets, the command line, the notebooks):
the core verbs and the results they return are its names below; each designer-facing job has a sub-door of its
own, a module whose ``__all__`` lists what the floors above take from it:

==============================  ==============================================================================
sub-door                        its job
==============================  ==============================================================================
:mod:`.planning`                which machinery answers and what a run costs before it runs; the engine's first
                                answer while the compiled path compiles
:mod:`.sampling.warm`           the compiled path compiled ahead: what is left to compile, its note, the warm-up
:mod:`.workers`                 the local process pools and their cores
:mod:`.studies.variants`        rule sets side by side, sweeps, parameters' labels
:mod:`.studies.skill`           skill levels, each against the others
:mod:`.studies.style`           how each level plays
:mod:`.studies.depth`           the skill ladder's depth and luck
:mod:`.studies.exploit`         how exploitable a level is, verdicts checked against a counter-strategy
:mod:`.studies.balance`         the balance lab: targets, the varied space, the search
:mod:`.playtest`                people's recorded games read against the bots, a level fitted to them
:mod:`.training`                the learned policy's training, its improvement by the search, its weights files
:mod:`.optimal`                 endgames under optimal play and exploitability
:mod:`.puzzles`                 puzzles found in game records, verified by the solver or the search
:mod:`.rulebook`                the living rulebook's examples
==============================  ==============================================================================

The floors above import the door and these sub-doors only, never the modules behind them (:mod:`.exact`,
:mod:`.policies`, :mod:`.compiled`, :mod:`.sampling.sample`, ...), which an import-linter contract keeps.
The door's names load on first use, so that ``import guyenne_explore.analysis`` stays as light as the engine
(numba and scipy come with the first analysis, not with the import).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: each name of the door -> the module (relative to this package) that defines it
_DOOR: dict[str, str] = {
    **dict.fromkeys(("analyse", "check_games", "execute", "ExactOutOfReach"), ".api"),
    **dict.fromkeys(("Plan", "plan"), ".planning"),
    **dict.fromkeys(("AnalysisResult", "SavedError", "from_saved", "to_saved"), ".results"),
    **dict.fromkeys(("Metric",), ".metrics"),
    **dict.fromkeys(("mean_interval", "wilson"), ".intervals"),
    **dict.fromkeys(("POLICIES", "PolicySpec"), ".policies.spec"),
    **dict.fromkeys(("Heuristic",), ".policies.heuristic"),
    **dict.fromkeys(("level_name",), ".studies.skill"),
    **dict.fromkeys(("Cancelled",), ".cancel"),
    **dict.fromkeys(("RUN_SECONDS", "TooLong", "check_duration"), ".limits"),
    **dict.fromkeys(("NotExact",), ".exact.distribution"),
}

__all__ = [
    "analyse", "check_games", "execute", "ExactOutOfReach", "Plan", "plan",
    "AnalysisResult", "SavedError", "from_saved", "to_saved", "Metric", "mean_interval", "wilson",
    "POLICIES", "PolicySpec", "Heuristic", "level_name",
    "Cancelled", "RUN_SECONDS", "TooLong", "check_duration", "NotExact",
]


def __getattr__(name: str) -> Any:
    """Load a name of the door from the module that defines it, on first use (PEP 562)."""
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
    from .cancel import Cancelled
    from .exact.distribution import NotExact
    from .intervals import mean_interval, wilson
    from .limits import RUN_SECONDS, TooLong, check_duration
    from .metrics import Metric
    from .planning import Plan, plan
    from .policies.heuristic import Heuristic
    from .policies.spec import POLICIES, PolicySpec
    from .results import AnalysisResult, SavedError, from_saved, to_saved
    from .studies.skill import level_name
