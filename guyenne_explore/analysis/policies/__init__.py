"""Policies: how a side chooses a move, from its own view of the position only.

The protocol, the built-in concede rule and the one uniform policy are the
engine's (:mod:`guyenne_explore.engine.policy`: its game loop plays them); the
analysis' own policies (:mod:`.heuristic`, :mod:`.search`) follow the same
protocol, and :mod:`.spec` reads a level's name and builds its policy.
"""

from __future__ import annotations

from ...engine import UNIFORM, Policy, Uniform, concede_move

__all__ = ["Policy", "UNIFORM", "Uniform", "concede_move"]
