"""A candidate's figures, rung by rung: its seeded games played under its rules, and the metrics the targets read.

Every candidate plays the same deals in each rung (common random numbers, :func:`.racing.rung_seed`), so
two candidates differ by their rules, not by their luck; a rung adds new games to the candidate's earlier
ones and the metrics are read over all of them.  The skill depth is measured only when a target asks for
it (its ladder plays head-to-head matches: :mod:`.depth`).
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import replace
from typing import Callable, Sequence

from ....engine import Position
from ...api import execute
from ...metrics import Metric, weighted_metrics
from ...outcomes import Game
from ...planning import plan
from ..depth import Depth, Match, match_games, play_seats
from .racing import rung_seed
from .space import Assignment, Space
from .targets import DEPTH, FIRST

#: counts a rung's games as they end (the whole rung's so far); returning False stops the search
Tick = Callable[[int], "bool | None"]


def named(games: Sequence[Game], first_side: str) -> dict[str, Metric]:
    """The designer metrics of ``games`` by name, with the first side's advantage under :data:`.targets.FIRST`."""
    rows = [(g, 1) for g in games]  # a Game has every field an Outcome has
    out = {m.name: m for m in weighted_metrics(rows, counted=True)}  # type: ignore[arg-type]
    out[FIRST] = replace(out[f"Advantage ({first_side})"], name=FIRST)
    return out


class PlayedMeasure:
    """Plays a candidate's games rung by rung and reads its metrics (the search asks one candidate at a time,
    so only the current candidate's games are kept)."""

    def __init__(self, space: Space, policies: tuple[str, str], seed: int = 0, executor: Executor | None = None,
                 ladder: Sequence[str] | None = None) -> None:
        self.space, self.policies, self.seed, self.executor = space, policies, seed, executor
        self.ladder = tuple(ladder) if ladder else ()
        self._current: dict[str, object] | None = None
        self._games: list[Game] = []
        self._pairs: list[tuple[list[Game], list[Game]]] = []

    def cost(self, games: int) -> int:
        """Games a candidate plays through ``games``: its own and, with a ladder, its matches' (both seats)."""
        return games + sum(2 * match_games(w, s, games) for w, s in zip(self.ladder, self.ladder[1:]))

    def __call__(self, assignment: Assignment, rung: int, games: int, tick: Tick | None = None) -> dict[str, Metric]:
        if dict(assignment) != self._current or rung == 0:  # a candidate's first rung starts its games again
            self._current, self._games = dict(assignment), []
            self._pairs = [([], []) for _ in self.ladder[1:]]
        rules = self.space.rules(assignment)  # RulesError: values that do not fit together
        start = Position.start(rules)
        seed = rung_seed(self.seed, rung)
        new = games - len(self._games)
        chosen = plan(start, self.policies, "sample", games=new, executor=self.executor)
        step = None if tick is None else (lambda done, of: tick(done))
        self._games += execute(start, chosen, seed, step).samples
        out = named(self._games, rules.first_side)
        if self.ladder:
            played = new
            for i, (weaker, stronger) in enumerate(zip(self.ladder, self.ladder[1:])):
                n = match_games(weaker, stronger, games) - len(self._pairs[i][0])
                if n <= 0:
                    continue
                more = None if tick is None else (lambda done, played=played: tick(played + done))
                first, second = play_seats(rules, weaker, stronger, n, seed, self.executor, more)
                self._pairs[i][0].extend(first)
                self._pairs[i][1].extend(second)
                played += 2 * n
            matches = [Match.from_games(w, s, a, b) for (w, s), (a, b) in zip(zip(self.ladder, self.ladder[1:]),
                                                                               self._pairs)]
            out[DEPTH] = Depth.from_matches(str(rules), self.ladder, matches, self._pairs).metric()
        return out
