"""Batches of compiled games, summarised as the engine's sampler summarises them, for any pair of policies.

:func:`fast_games` returns the same :class:`~guyenne_explore.analysis.outcomes.Game` summaries as
the engine's sampler, from its own seeded streams, playing the one game loop (:mod:`.loop`) with a
policy per side (:class:`.sides.SidePolicy`: uniform by default, the heuristic's from
``Heuristic.compiled``); :func:`traced_game` gives one of those games as an engine
:class:`~guyenne_explore.engine.record.GameRecord`, and :func:`traced` its decisions with the random
numbers drawn, which is how the tests prove the loop plays by the engine's rules.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ...engine import ENDINGS, KINDS, Cards, Draw, Event, GameRecord, Move, Position, PublicRecord
from ..cancel import Cancelled
from ..outcomes import Game
from . import heuristic_kernel as heuristic, loop
from . import layout as kn
from .encode import POINT_NAMES, Encoded, seed_u64, shown_cards, unsupported
from .policy_codes import UNIFORM_SIDES, SidePolicy, codes, params

#: games per kernel call between two progress reports
CHUNK = 20_000


def _check(out: np.ndarray) -> None:
    bad = out[:, kn.OUT_ERROR]
    if bad.any():
        code = int(bad[bad != 0][0])
        raise RuntimeError("the fast simulator met a decision without legal moves" if code == kn.ERR_NO_MOVE
                           else "the fast simulator met a game longer than the rules allow")


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


def _setup(p: Position, sides: tuple[SidePolicy, SidePolicy],
           checked: tuple[str | None, Encoded | None] | None = None) -> tuple[Encoded, np.ndarray, np.ndarray, tuple]:
    """The position's arrays, the sides' codes and numbers, and the scoring policies' tables (a
    ValueError where the loop does not play these games).  ``checked``: ``heuristic.checked``'s
    answer, when the caller has it."""
    scoring = [s for s in sides if s.scores]
    reason, e = checked or heuristic.checked(p, scores=bool(scoring))
    if reason or e is None:
        raise ValueError(reason)
    if any((s.card_worth, s.removal_loss) != (scoring[0].card_worth, scoring[0].removal_loss) for s in scoring):
        raise ValueError("both sides' scoring policies must value cards and removals alike")
    tables = heuristic.tables(p, e, scoring[0]) if scoring else heuristic.no_tables()
    return e, codes(sides), params(sides), tables


def batch_args(p: Position, games: int, seed: int, start_index: int = 0,
               sides: tuple[SidePolicy, SidePolicy] = UNIFORM_SIDES,
               checked: tuple[str | None, Encoded | None] | None = None) -> tuple:
    """The arguments of ``loop.play_batch`` (and ``loop.play_serial``) for games ``start_index..`` of
    batch ``seed`` (the last is the summary rows it fills).  Their numba types are the same under
    every rule set and pair of policies, so one compiled version serves all (``sampling.warm``
    compiles it ahead)."""
    e, pols, numbers, tables = _setup(p, sides, checked)
    out = np.zeros((games, kn.N_OUT), np.int64)
    return (e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points, pols, numbers,
            tables, seed_u64(seed), np.uint64(start_index), games, e.max_rounds, e.ways_width, out)


def play_summaries(p: Position, games: int, seed: int, start_index: int = 0,
                   sides: tuple[SidePolicy, SidePolicy] = UNIFORM_SIDES,
                   checked: tuple[str | None, Encoded | None] | None = None) -> np.ndarray:
    """The raw summary rows (columns ``layout.OUT_*``) of games ``start_index..`` of batch ``seed``.
    Uniform games are spread over numba's threads; games where a side scores its moves are played on
    this thread (processes spread them), with one memo of the policy's chances for the batch."""
    args = batch_args(p, games, seed, start_index, sides, checked)
    out: np.ndarray = args[-1]
    if games:
        (loop.play_serial if any(s.scores for s in sides) else loop.play_batch)(*args)
    _check(out)
    return out


def summaries_if_played(p: Position, games: int, seed: int, start_index: int,
                        sides: tuple[SidePolicy, SidePolicy], record: PublicRecord | None = None) -> np.ndarray | None:
    """:func:`play_summaries`, or None where the loop does not play these games: one check and one
    encoding of the position (a search asks this at every leaf); ``record``: the public record of ``p``'s
    history, where the games go on a game that has one (:func:`.encode.shown_cards`)."""
    reason, e = heuristic.checked(p, scores=any(s.scores for s in sides))
    if reason is not None or e is None:
        return None
    return play_summaries(p, games, seed, start_index, sides, (None, e if record is None else shown_cards(e, record)))


def fast_games(p: Position, games: int, seed: int, start_index: int = 0,
               progress: Callable[[int, int], bool | None] | None = None,
               sides: tuple[SidePolicy, SidePolicy] = UNIFORM_SIDES) -> list[Game]:
    """``games`` games from ``p`` (uniform on both sides unless ``sides`` says otherwise): game i is
    the same wherever and however it is run."""
    reason = unsupported(p)
    if reason:
        raise ValueError(reason)
    out: list[Game] = []
    for lo in range(0, games, CHUNK):
        n = min(CHUNK, games - lo)
        out.extend(_games(play_summaries(p, n, seed, start_index + lo, sides)))
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


def traced_game(p: Position, seed: int, index: int,
                sides: tuple[SidePolicy, SidePolicy] = UNIFORM_SIDES) -> tuple[GameRecord, Game]:
    """Game ``index`` of batch ``seed`` as an engine record (replay it to check it) and its summary."""
    record, game, _ = traced_rounds(p, seed, index, sides)
    return record, game


def _traced(p: Position, seed: int, index: int, sides: tuple[SidePolicy, SidePolicy]
            ) -> tuple[Encoded, np.ndarray, np.ndarray, np.ndarray]:
    """Game ``index`` of batch ``seed`` played alone: the position's arrays, the game's trace rows, its
    round rows and its summary."""
    e, pols, numbers, tables = _setup(p, sides)
    trace = np.zeros((4 * e.max_rounds * 4 + 64, kn.TRACE_HEAD + len(e.kinds)), np.int64)
    tpos = np.zeros(1, np.int64)
    log = np.zeros((e.max_rounds + 1, kn.round_width(len(p.castles), len(e.kinds))), np.int64)
    lpos = np.zeros(1, np.int64)
    out = np.zeros(kn.N_OUT, np.int64)
    loop.play_traced(e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points, pols,
                     numbers, tables, seed_u64(seed), np.uint64(index), e.max_rounds, e.ways_width, trace, tpos, log,
                     lpos, out)
    _check(out[None, :])
    if tpos[0] > trace.shape[0]:
        raise RuntimeError("trace buffer too small")
    return e, trace[: tpos[0]], log[: lpos[0]], out


def traced(p: Position, seed: int, index: int, sides: tuple[SidePolicy, SidePolicy]
           ) -> tuple[list[list[int]], list[int], np.ndarray]:
    """Game ``index`` of batch ``seed``: its trace rows (see ``layout.TRACE_HEAD``: a scoring policy's
    random index and total weight beside each of its moves), the kinds, its summary."""
    e, trace, _, out = _traced(p, seed, index, sides)
    return trace.tolist(), list(e.kinds), out


def traced_rounds(p: Position, seed: int, index: int, sides: tuple[SidePolicy, SidePolicy] = UNIFORM_SIDES
                  ) -> tuple[GameRecord, Game, list[RoundState]]:
    """:func:`traced_game` with the compiled game's state at each end of a round and at its end,
    so a test can replay it step by step, not only check its final summary."""
    e, trace, log, out = _traced(p, seed, index, sides)
    n = len(p.castles)
    events: list[Event] = []
    rows = trace.tolist()

    def cards(counts: list[int]) -> Cards:
        full = [0] * KINDS
        for k, c in zip(e.kinds, counts):
            full[k] = c
        return Cards(full)

    i = 0
    while i < len(rows):
        point, side, castle, _, _, *counts = rows[i]
        name = POINT_NAMES[point]
        if point in (kn.DEAL, kn.DRAW):
            events.append(Event(name, None, draw=Draw(cards(counts), cards(rows[i + 1][kn.TRACE_HEAD:]))))
            i += 2
            continue
        move = Move(first_member=castle) if point == kn.TEAM_ORDER else Move(concede=bool(castle)) \
            if point == kn.CONCEDE else Move(cards=cards(counts), castle=castle if castle >= 0 else None)
        events.append(Event(name, side, move=move))
        i += 1
    states = []
    nk = len(e.kinds)
    for row in log.tolist():
        zones = row[kn.ROUND_HEAD + n:]
        per = [[cards(zones[(side * 4 + zone) * nk:(side * 4 + zone + 1) * nk]) for zone in range(4)] for side in (0, 1)]
        states.append(RoundState(row[0], row[1], (row[2], row[3]), tuple(row[kn.ROUND_HEAD:kn.ROUND_HEAD + n]),
                                 (tuple(per[0]), tuple(per[1]))))  # type: ignore[arg-type]
    return GameRecord(p, events), _games(out[None, :])[0], states

