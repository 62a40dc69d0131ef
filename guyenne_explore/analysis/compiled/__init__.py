"""The compiled fast simulator: games at kernel speed over count vectors (numba).

:mod:`.loop` is the one game loop, each side deciding by its policy code (:mod:`.sides`: uniform, the
heuristic, with the numbers the Python policies give); it plays by the rules primitives of
:mod:`.kernel` (its arrays laid out in :mod:`.layout`, the engine's option lists in :mod:`.options`,
positions encoded by :mod:`.encode`), and a scoring side decides by :mod:`.heuristic`; :mod:`.rollout`
runs batches of games for any pair of sides.  Nothing here imports the policies: their numbers come
in as arrays.  Every game it plays is one the engine would play, proven by replaying it through the engine.
"""
