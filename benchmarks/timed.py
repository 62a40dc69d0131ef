"""A policy timed as it plays: what the benchmarks report as each side's time per decision.

Apart from the OpenSpiel wrapper, so that a benchmark that plays no OpenSpiel bot runs where OpenSpiel is
not installed.
"""

from __future__ import annotations

import random
import time
from typing import Any

from guyenne_explore.engine import Move, Rules, SideView, begin_game


class Timed:
    """A policy that counts its decisions and the time they take (the same moves as ``policy``)."""

    def __init__(self, policy: Any):
        self.policy, self.name, self.exact = policy, policy.name, False
        #: what plays the game under way: the policy, or what it drew for the game (:meth:`begin_game`)
        self.playing: Any = policy
        self.decisions, self.seconds = 0, 0.0
        self.times: list[float] = []
        #: the process's CPU time a decision: what the wall time would be on an idle core
        self.cpu: list[float] = []
        #: the CPU time of the decisions with more than one legal move
        self.choices: list[float] = []

    def distribution(self, view: SideView) -> Any:
        return self.playing.distribution(view)

    def begin_game(self, rules: Rules, rng: random.Random) -> Timed:
        """The same timer, playing what the policy draws for this game (a mixture drawn once a game: its member), so
        the decisions of every game are counted together."""
        self.playing = begin_game(self.policy, rules, rng)
        return self

    def choose(self, view: SideView, rng: random.Random) -> Move:
        t, c = time.perf_counter(), time.process_time()
        move = self.playing.choose(view, rng)
        self.cpu.append(time.process_time() - c)
        if len(view.legal_moves) > 1:
            self.choices.append(self.cpu[-1])
        self.times.append(time.perf_counter() - t)
        self.seconds += self.times[-1]
        self.decisions += 1
        return move
