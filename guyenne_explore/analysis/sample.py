"""Sampled outcome distributions: N seeded games from a position.

Game i uses its own generator seeded from ``(seed, i)``, so results do not
depend on how games are split between workers, and a run can report progress
and be cancelled between games.
"""

from __future__ import annotations

import random
from typing import Callable

from ..flow import apply_move
from ..position import Position
from .exact import Cancelled
from .policies import Policy


def play_out(p: Position, policies: tuple[Policy, Policy], rng: random.Random) -> tuple[int, int, str, int]:
    """One game to the end: (english score, french score, winner, rounds played counting this one)."""
    start = p.round
    while not p.is_over:
        if p.is_chance:
            p = p.apply_outcome(p.sample_outcome(rng))
        else:
            side = p.side_to_play
            move = policies[side].choose(p.view(side), rng)  # type: ignore[index]
            p = apply_move(p, move, checked=False)
    r = p.result()
    return (r.english, r.french, r.winner, p.round - start + 1)


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"{seed}:{index}")


def sample_games(p: Position, policies: tuple[Policy, Policy], games: int, seed: int,
                 progress: Callable[[int, int], bool | None] | None = None,
                 start_index: int = 0) -> list[tuple[int, int, str, int]]:
    """Play ``games`` seeded games; ``progress(done, total)`` returning False cancels."""
    out = []
    for i in range(start_index, start_index + games):
        out.append(play_out(p, policies, game_rng(seed, i)))
        if progress and (len(out) % 50 == 0 or len(out) == games):
            if progress(len(out), games) is False:
                raise Cancelled()
    return out
