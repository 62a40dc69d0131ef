"""Sampled outcome distributions: N seeded games from a position.

Game i uses its own generator seeded from ``(seed, i)``, so results do not
depend on how games are split between workers, and a run can report progress
and be cancelled between games.
"""

from __future__ import annotations

import random
from concurrent.futures import Executor
from typing import Callable

from ..engine_api import DRAW, Draw, Hooks, Position, play
from .cancel import Cancelled
from .outcomes import Game
from .policies import Policy
from .registry import policy_named

__all__ = ["Game", "fast_reason", "game_rng", "play_games", "play_out", "sample_games", "sample_games_on", "summarise"]


class _Summary(Hooks):
    """Notes the table's leader at each end of a round (RULES.md 6 scored as if the game ended there)."""

    def __init__(self) -> None:
        self.leaders: list[str] = []

    def chance(self, p: Position, draw: Draw) -> None:
        if p.to_play == DRAW:
            self.leaders.append(p.result().winner)


def play_out(p: Position, policies: tuple[Policy, Policy], rng: random.Random) -> Game:
    """One game to the end through the engine's game loop, with what the designer metrics need."""
    summary = _Summary()
    final = play(p, rng, policies, (summary,), check_moves=False)
    return summarise(p, final, summary.leaders)


def summarise(start: Position, final: Position, leaders: list[str]) -> Game:
    """A finished game's summary from its start, its end and the table's leader at each end of a round."""
    r = final.result()
    assert r.ending is not None, "only a finished game has a summary"
    rounds = final.round - start.round + 1
    leaders = leaders + [r.winner] * (rounds - len(leaders))
    decided = rounds
    while decided > 1 and leaders[decided - 2] == r.winner:
        decided -= 1
    kept = (not final.sides[0].removed.has_hero, not final.sides[1].removed.has_hero)
    return Game(r.english, r.french, r.winner, rounds, decided, kept, r.ending.reason)


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"{seed}:{index}")


def sample_games(p: Position, policies: tuple[Policy, Policy], games: int, seed: int,
                 progress: Callable[[int, int], bool | None] | None = None,
                 start_index: int = 0) -> list[Game]:
    """Play ``games`` seeded games; ``progress(done, total)`` returning False cancels.

    Progress is reported after every game: the engine plays slow policies here (a search
    takes seconds a game), and the panels throttle their own redraws."""
    out = []
    for i in range(start_index, start_index + games):
        out.append(play_out(p, policies, game_rng(seed, i)))
        if progress:
            if progress(len(out), games) is False:
                raise Cancelled()
    return out


def fast_reason(p: Position, policy_names: tuple[str, str]) -> str | None:
    """Why the compiled fast path cannot sample these games (None: it can, and will)."""
    from .fast.encode import unsupported

    return unsupported(p, policy_names)


def play_games(p: Position, policy_names: tuple[str, str], games: int, seed: int, start_index: int = 0,
               progress: Callable[[int, int], bool | None] | None = None, fast: bool = True) -> list[Game]:
    """Games ``start_index..`` of the batch ``seed``, on the compiled fast path where it applies.

    The fast path and the engine play the same game distribution from their own
    seeded streams, so a seed gives reproducible games on each path, not the same
    games on both.  ``fast=False`` always uses the engine.
    """
    if fast and fast_reason(p, policy_names) is None:
        from .fast.rollout import fast_games

        return fast_games(p, games, seed, start_index, progress)
    if fast and "heuristic" in policy_names:  # the compiled heuristic (against itself or uniform)
        from .fast import heuristic as compiled

        if compiled.unsupported(p, policy_names) is None:
            return compiled.fast_games(p, policy_names, games, seed, start_index, progress)
    pols = (policy_named(policy_names[0]), policy_named(policy_names[1]))
    return sample_games(p, pols, games, seed, progress, start_index)


def _chunk(p: Position, policy_names: tuple[str, str], games: int, seed: int, start: int, fast: bool) -> list[Game]:
    """One worker's share (module level so that process and cluster executors can pickle it)."""
    return play_games(p, policy_names, games, seed, start, fast=fast)


def sample_games_on(executor: Executor, p: Position, policy_names: tuple[str, str], games: int, seed: int,
                    chunk: int | None = None, progress: Callable[[int, int], bool | None] | None = None,
                    fast: bool = True) -> list[Game]:
    """The same games as :func:`play_games`, spread over an executor in chunks of game indexes.

    Any ``concurrent.futures.Executor`` works (a process pool for the local cores, a Dask
    client's ``get_executor()`` for a cluster); the result is identical to one process for
    the same seed, whatever the chunk size or the number of workers.
    """
    if chunk is None:
        # engine-played games are slow (a search takes seconds a game): chunks small enough to share out
        chunk = 10_000 if fast and fast_reason(p, policy_names) is None else max(1, min(200, -(-games // 32)))
    futures = [executor.submit(_chunk, p, policy_names, min(chunk, games - start), seed, start, fast)
               for start in range(0, games, chunk)]
    out: list[Game] = []
    for f in futures:
        out.extend(f.result())
        if progress and progress(len(out), games) is False:
            for rest in futures:
                rest.cancel()
            raise Cancelled()
    return out
