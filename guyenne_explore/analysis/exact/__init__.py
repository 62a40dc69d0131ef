"""Exact outcome distributions: every move and chance outcome weighed by its exact probability.

:mod:`.distribution` enumerates (memoised at round starts) and hands endgame round starts to the
endgame solvers (:mod:`.endgame` in closed form round by round, :mod:`.forward` and
:mod:`.forward_exact` forward over every table at once); :mod:`.reference` is the plain recursion
they are all tested against.
"""
