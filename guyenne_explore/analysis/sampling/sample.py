"""Sampled outcome distributions: N seeded games from a position.

Game i uses its own generator seeded from ``(seed, i)``, so results do not
depend on how games are split between workers, and a run can report progress
and be cancelled between games.
"""

from __future__ import annotations

import random
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import TYPE_CHECKING, Callable

from ...engine import DRAW, Draw, Hooks, Position, play
from ..cancel import Cancelled, StopSignal, Stoppable, Throttled
from ..outcomes import Game
from ..planning import Sampler, sampler_for
from ..policies import Policy
from ..policies.spec import PolicySpec

if TYPE_CHECKING:
    from ..workers import TaskSignal

#: seconds between two looks at a run spread over workers (its progress, and whether to stop)
POLL = 0.2

__all__ = ["Game",
           "game_rng", "play_games", "play_out", "sample_games", "sample_games_on", "summarise"]


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
                 start_index: int = 0, stop: StopSignal | None = None) -> list[Game]:
    """Play ``games`` seeded games; ``progress(done, total)`` returning False cancels.

    Progress is reported after every game: the engine plays slow policies here (a search
    takes seconds a game), and the panels throttle their own redraws.  A game in progress
    stops at its next decision once ``stop`` is set or, without one, once ``progress``
    (asked four times a second meanwhile) returns False."""
    out: list[Game] = []
    if stop is None and progress is not None:
        stop = Throttled(lambda: progress(len(out), games) is False)
    if stop is not None:
        policies = (Stoppable(policies[0], stop), Stoppable(policies[1], stop))
    for i in range(start_index, start_index + games):
        out.append(play_out(p, policies, game_rng(seed, i)))
        if progress:
            if progress(len(out), games) is False:
                raise Cancelled()
    return out


def play_games(p: Position, policy_names: tuple[str, str], games: int, seed: int, start_index: int = 0,
               progress: Callable[[int, int], bool | None] | None = None, sampler: Sampler | None = None,
               stop: StopSignal | None = None) -> list[Game]:
    """Games ``start_index..`` of the batch ``seed``, played by ``sampler``: a plan's (which
    :func:`.api.execute` carries out without deciding again), or, when None, the compiled game loop
    where it plays these games (:func:`.planning.sampler_for`).

    The fast simulator and the engine play the same game distribution from their own
    seeded streams, so a seed gives reproducible games on each path, not the same
    games on both.
    """
    if (sampler or sampler_for(p, policy_names)[0]) is Sampler.COMPILED:
        from ..compiled.rollout import fast_games
        from ..policies.sides import compiled_sides

        return fast_games(p, games, seed, start_index, progress, compiled_sides(policy_names, p.rules))
    pols = (PolicySpec.parse(policy_names[0]).policy(), PolicySpec.parse(policy_names[1]).policy())
    return sample_games(p, pols, games, seed, progress, start_index, stop)


def _chunk(p: Position, policy_names: tuple[str, str], games: int, seed: int, start: int, sampler: Sampler,
           signal: TaskSignal | None = None) -> list[Game]:
    """One worker's share (module level so that process and cluster executors can pickle it): its
    games counted as they end, stopped at the next decision once its run's ``signal`` is set."""
    if signal is None:
        return play_games(p, policy_names, games, seed, start, sampler=sampler)
    counted = 0

    def report(done: int, total: int) -> bool | None:
        nonlocal counted
        signal.add_played(done - counted)
        counted = done
        return False if signal.is_set() else None

    return play_games(p, policy_names, games, seed, start, report, sampler, stop=signal)


def sample_games_on(executor: Executor, p: Position, policy_names: tuple[str, str], games: int, seed: int,
                    chunk: int | None = None, progress: Callable[[int, int], bool | None] | None = None,
                    sampler: Sampler | None = None) -> list[Game]:
    """The same games as :func:`play_games`, spread over an executor in chunks of game indexes.

    Any ``concurrent.futures.Executor`` works (a process pool for the local cores, a Dask
    client's ``get_executor()`` for a cluster); the result is identical to one process for
    the same seed, whatever the chunk size or the number of workers.

    ``progress(done, total)`` is asked every :data:`POLL` seconds; when it returns False,
    or anything interrupts the wait (Ctrl-C), the run's workers stop at their next decision
    (:func:`.workers.open_run`: on a local pool or a Dask cluster; a local worker that does
    not is killed) and :class:`.cancel.Cancelled` (or the interruption) is raised.
    """
    from ..workers import open_run

    sampler = sampler or sampler_for(p, policy_names)[0]
    if chunk is None:
        # engine-played games are slow (a search takes seconds a game): chunks small enough to share out
        chunk = 10_000 if sampler is Sampler.COMPILED else max(1, min(200, -(-games // 32)))
    run = open_run(executor)
    futures: dict[Future[list[Game]], int] = {}
    shares: dict[int, list[Game]] = {}
    try:
        for start in range(0, games, chunk):
            futures[executor.submit(_chunk, p, policy_names, min(chunk, games - start), seed, start, sampler,
                                    run.signal)] = start
        running = set(futures)
        while running:
            finished, running = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
            for f in finished:
                shares[futures[f]] = f.result()
            counted = run.played()
            done = sum(map(len, shares.values())) if counted is None else counted
            if progress and progress(min(done, games), games) is False:
                raise Cancelled()
    except BaseException:
        run.stop(futures)
        raise
    finally:
        run.close()
    return [g for start in sorted(shares) for g in shares[start]]
