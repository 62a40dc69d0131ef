"""Endgames under optimal play: open-hand endgames solved to their equilibrium, and how far a policy is
from it.

:mod:`.solver` solves an endgame round by round, each round (:mod:`.round`) a sequence-form linear
program (:mod:`.lp`); :mod:`.tree` is the explicit game tree the round solver is checked against.

This package is the analysis' sub-door for optimal play: the floors above import the names below from it.
"""

from __future__ import annotations

from .solver import OptimalResult, OptimalSolver, describe, exploitability, solve_position, why_not_solvable

__all__ = ["OptimalResult", "OptimalSolver", "describe", "exploitability", "solve_position", "why_not_solvable"]
