"""Playtests read against the bots (issue 44): people's games, decision by decision, beside the skill levels.

- :mod:`.reading`: each decision's value, the best move's and the loss (the search's rollouts at a stated budget),
  each draw's luck (weighed by the engine's exact probabilities), a game's luck-adjusted result; cached by the
  record's fingerprint;
- :mod:`.people`: each player and the group: accuracy, style beside the levels', which level and temperature
  their moves are likeliest under ("plays like"), the first side's advantage, sentences;
- :mod:`.persona`: ``strong``'s weights fitted to the recorded decisions (a level ``persona@FILE``).

This package is the analysis' sub-door for playtests: the floors above import the names below from it.
"""

from __future__ import annotations

from .people import display_name
from .persona import Persona, fit_persona
from .reading import BANDS, PlaytestError, band, budget_of, cache_folder, reading_cost
from .report import LEVELS, Costly, PlaytestReport, playtest_report

__all__ = ["LEVELS", "Costly", "PlaytestReport", "playtest_report", "PlaytestError", "BANDS", "band", "budget_of",
           "cache_folder", "reading_cost", "Persona", "fit_persona", "display_name"]
