"""The balance lab: search the rules parameters for settings that meet a designer's targets, and measure
a rule set's skill depth and luck.

- :mod:`.targets`: targets as values (``advantage=0.48:0.52``), their distances, the trade-off front;
- :mod:`.space`: the varied parameters, each candidate's rule set and its changes from the preset;
- :mod:`.racing`: games in rungs, common random numbers, dropping a candidate that misses a target;
- :mod:`.measure`: a candidate's games and metrics, rung by rung;
- :mod:`.optimise`: optuna's sampler over the space (TPE for one target, NSGA-II for several), the stored
  study, the ranked result and the trade-off front;

with the skill ladder's depth and luck in :mod:`..depth`.  This package is the analysis' sub-door for the balance
lab: the floors above import the names below from it.
"""

from __future__ import annotations

from .optimise import Candidate, SearchProgress, SearchResult, balance_search, estimate_search, search
from .space import Space, SpaceError
from .targets import TARGET_METRICS, TARGET_WORDS, Target, TargetError, Verdict, parse_targets, verdicts

__all__ = ["Candidate", "SearchProgress", "SearchResult", "balance_search", "estimate_search", "search",
           "Space", "SpaceError", "TARGET_METRICS", "TARGET_WORDS", "Target", "TargetError", "Verdict",
           "parse_targets", "verdicts"]
