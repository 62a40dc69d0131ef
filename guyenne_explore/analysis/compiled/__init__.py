"""The compiled fast path: games at kernel speed over count vectors (numba).

:mod:`.kernel` plays a game (its arrays laid out in :mod:`.layout`, the engine's option lists in
:mod:`.options`, positions encoded by :mod:`.encode`); :mod:`.rollout` runs batches of uniform games and
:mod:`.heuristic` the heuristic policy compiled; :mod:`.warm` compiles it all ahead of the first
analysis.  Every game it plays is one the engine would play, proven by replaying it through the engine.
"""
