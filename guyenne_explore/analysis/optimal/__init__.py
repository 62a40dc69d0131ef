"""Endgames under optimal play: open-hand endgames solved to their equilibrium, and how far a policy is
from it.

:mod:`.solver` solves an endgame round by round, each round (:mod:`.round`) a sequence-form linear
program (:mod:`.lp`); :mod:`.tree` is the explicit game tree the round solver is checked against.
"""
