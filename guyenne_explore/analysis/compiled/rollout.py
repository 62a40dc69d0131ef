"""Compiled uniform-random games, summarised as the engine's sampler summarises them.

:func:`fast_games` returns the same :class:`~guyenne_explore.analysis.sampling.sample.Game`
summaries as the engine's sampler, from its own seeded streams; :func:`traced_game`
gives one of those games as an engine :class:`~guyenne_explore.record.GameRecord`,
which is how the tests prove the fast path plays by the engine's rules.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ...engine_api import ENDINGS, KINDS, Cards, Draw, Event, GameRecord, Move, Position
from ..cancel import Cancelled
from ..outcomes import Game
from . import kernel as kn
from .encode import POINT_NAMES, encode, seed_u64, unsupported

#: games per kernel call between two progress reports
CHUNK = 20_000


def _check(out: np.ndarray) -> None:
    bad = out[:, kn.OUT_ERROR]
    if bad.any():
        code = int(bad[bad != 0][0])
        raise RuntimeError("the fast path met a decision without legal moves" if code == kn.ERR_NO_MOVE
                           else "the fast path met a game longer than the rules allow")


#: the summary columns a :class:`Game` is made of (the others, decisions and errors, are the kernel's)
GAME_COLUMNS = [kn.OUT_ENGLISH, kn.OUT_FRENCH, kn.OUT_WINNER, kn.OUT_ROUNDS, kn.OUT_DECIDED, kn.OUT_HERO_E,
                kn.OUT_HERO_F, kn.OUT_ENDING]


def _game(r: list[int]) -> Game:
    """The summary of one row of :data:`GAME_COLUMNS`."""
    english, french, winner, rounds, decided, hero_e, hero_f, ended = r
    return Game(english, french, ("english", "french", "draw")[winner], rounds, decided, (bool(hero_e), bool(hero_f)),
                ENDINGS[ended])


def _games(out: np.ndarray) -> list[Game]:
    """The games of summary rows, in order.  Games share a few hundred distinct summaries, so each
    distinct one is built once and the list repeats it: a million Python tuples built from numpy
    rows took longer than playing the games."""
    if not len(out):
        return []
    cols = out[:, GAME_COLUMNS]
    radix = [int(cols[:, c].max()) + 1 for c in range(cols.shape[1])]
    if int(np.prod(radix, dtype=object)) < 2 ** 62:  # each row as one number (mixed radix), sorted far sooner
        key = np.zeros(len(out), np.int64)
        for c, r in enumerate(radix):
            key = key * r + cols[:, c]
        _, first, index = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, index = np.unique(cols, axis=0, return_index=True, return_inverse=True)
    built = [_game(r) for r in cols[first].tolist()]
    return [built[i] for i in index.reshape(-1).tolist()]


def batch_args(p: Position, games: int, seed: int, start_index: int = 0) -> tuple:
    """The arguments of ``kernel.play_batch`` for games ``start_index..`` of batch ``seed`` (the last is
    the summary rows it fills).  Their numba types are the same under every rule set, so one compiled
    version serves all (:mod:`.warm` compiles it ahead)."""
    e = encode(p)
    out = np.zeros((games, kn.N_OUT), np.int64)
    return (e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points, seed_u64(seed),
            np.uint64(start_index), games, e.max_rounds, e.ways_width, out)


def play_summaries(p: Position, games: int, seed: int, start_index: int = 0) -> np.ndarray:
    """The raw summary rows (columns ``kernel.OUT_*``) of games ``start_index..`` of batch ``seed``."""
    args = batch_args(p, games, seed, start_index)
    out: np.ndarray = args[-1]
    if games:
        kn.play_batch(*args)
    _check(out)
    return out


def fast_games(p: Position, games: int, seed: int, start_index: int = 0,
               progress: Callable[[int, int], bool | None] | None = None) -> list[Game]:
    """``games`` uniform-random games from ``p``: game i is the same wherever and however it is run."""
    reason = unsupported(p, ("uniform", "uniform"))
    if reason:
        raise ValueError(reason)
    out: list[Game] = []
    for lo in range(0, games, CHUNK):
        n = min(CHUNK, games - lo)
        out.extend(_games(play_summaries(p, n, seed, start_index + lo)))
        if progress and progress(len(out), games) is False:
            raise Cancelled()
    return out


class RoundState(NamedTuple):
    """The compiled game's state at an end of a round (after the battles, before the draws) or at
    its end: what a replay through the engine must show at the same point."""

    round: int
    first: int
    exhaustions: tuple[int, int]
    castles: tuple[int, ...]
    #: zones[side] = (hand, deck, discard, removed)
    zones: tuple[tuple[Cards, Cards, Cards, Cards], tuple[Cards, Cards, Cards, Cards]]


def traced_game(p: Position, seed: int, index: int) -> tuple[GameRecord, Game]:
    """Game ``index`` of batch ``seed`` as an engine record (replay it to check it) and its summary."""
    record, game, _ = traced_rounds(p, seed, index)
    return record, game


def traced_rounds(p: Position, seed: int, index: int) -> tuple[GameRecord, Game, list[RoundState]]:
    """:func:`traced_game` with the compiled game's state at each end of a round and at its end,
    so a test can replay it step by step, not only check its final summary."""
    reason = unsupported(p, ("uniform", "uniform"))
    if reason:
        raise ValueError(reason)
    e = encode(p)
    trace = np.zeros((4 * e.max_rounds * 4 + 64, kn.TRACE_HEAD + len(e.kinds)), np.int64)
    tpos = np.zeros(1, np.int64)
    n = len(p.castles)
    log = np.zeros((e.max_rounds + 1, kn.round_width(n, len(e.kinds))), np.int64)
    lpos = np.zeros(1, np.int64)
    out = np.zeros(kn.N_OUT, np.int64)
    kn.play_traced(e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points,
                   seed_u64(seed), np.uint64(index), e.max_rounds, e.ways_width, trace, tpos, log, lpos, out)
    _check(out[None, :])
    if tpos[0] > trace.shape[0]:
        raise RuntimeError("trace buffer too small")
    events: list[Event] = []
    rows = trace[: tpos[0]].tolist()

    def cards(counts: list[int]) -> Cards:
        full = [0] * KINDS
        for k, c in zip(e.kinds, counts):
            full[k] = c
        return Cards(full)

    i = 0
    while i < len(rows):
        point, side, castle, *counts = rows[i]
        name = POINT_NAMES[point]
        if point in (kn.DEAL, kn.DRAW):
            events.append(Event(name, None, draw=Draw(cards(counts), cards(rows[i + 1][kn.TRACE_HEAD:]))))
            i += 2
            continue
        move = Move(cards=cards(counts), castle=castle if castle >= 0 else None)
        events.append(Event(name, side, move=move))
        i += 1
    states = []
    nk = len(e.kinds)
    for row in log[: lpos[0]].tolist():
        zones = row[kn.ROUND_HEAD + n:]
        per = [[cards(zones[(side * 4 + zone) * nk:(side * 4 + zone + 1) * nk]) for zone in range(4)] for side in (0, 1)]
        states.append(RoundState(row[0], row[1], (row[2], row[3]), tuple(row[kn.ROUND_HEAD:kn.ROUND_HEAD + n]),
                                 (tuple(per[0]), tuple(per[1]))))  # type: ignore[arg-type]
    return GameRecord(p, events), _games(out[None, :])[0], states

