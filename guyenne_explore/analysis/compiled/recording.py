"""Self-play recorded by the compiled loop: every placement of the learned policy, its legal moves' features, the
move it drew and the probability it drew it with, for training on the games' outcomes.

The engine-played recorder of :mod:`..policies.improvement` plays about a game a second; this one plays the compiled
games (thousands a second) and keeps what a policy-gradient step reads: the rows are the features
:func:`..policies.strong.features` computes from the side's own view, in the compiled move order (``tests/test_recording.py``
holds them equal on replayed games), and recording draws no random number, so the games are those
:func:`.rollout.play_summaries` plays for the same seed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...engine import Position
from . import layout as kn
from .policy_codes import FEATURES, SidePolicy
from .rollout import _check, batch_args
from .strong_kernel import N_AT, RECORD_COLUMNS, R_DECISIONS, R_FORCE_AT, R_ROWS

#: feature rows and decisions a buffer holds at first (grown as a batch needs: a classic2021 game of ``strong``
#: against itself makes about 60 placements of 25 moves each)
FIRST_ROWS = 1 << 20


class Recorded(NamedTuple):
    """A batch of recorded games: ``phi`` the features of every legal placement (float32, a row a move, a decision's
    moves together), ``decisions`` a row a placement (columns :data:`.strong_kernel.RECORD_COLUMNS`: the game's index
    in the batch, side, point, first row, moves, move chosen, its whole-number weight and their total) and ``out`` the
    games' summary rows (columns ``layout.OUT_*``)."""

    phi: np.ndarray
    decisions: np.ndarray
    out: np.ndarray

    def column(self, name: str) -> np.ndarray:
        """One column of :attr:`decisions` by its name in :data:`.strong_kernel.RECORD_COLUMNS`."""
        return self.decisions[:, RECORD_COLUMNS.index(name)]

    def scores(self) -> np.ndarray:
        """Each decision's game score for the side that made it: a win 1, a draw a half, a loss 0."""
        winners = self.out[self.column("game"), kn.OUT_WINNER]
        sides = self.column("side")
        return np.where(sides == 0, kn.side_scores(winners, 0), kn.side_scores(winners, 1))


def recorded_games(p: Position, games: int, seed: int, sides: tuple[SidePolicy, SidePolicy],
                   start_index: int = 0) -> Recorded:
    """Games ``start_index..`` of batch ``seed`` from ``p`` (the same games :func:`.rollout.play_summaries` plays),
    with every placement of a side that plays the learned policy recorded."""
    from . import loop

    args = batch_args(p, games, seed, start_index, sides)
    out: np.ndarray = args[-1]
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    rows = FIRST_ROWS
    done = 0
    while done < games:
        phi = np.empty((rows, len(FEATURES)), np.float32)
        decisions = np.empty((max(rows // 8, 64), len(RECORD_COLUMNS)), np.int64)
        at = np.zeros(N_AT, np.int64)
        at[R_FORCE_AT] = -1
        call = (*args[:12], np.uint64(start_index + done), games - done, *args[14:16], out[done:], phi, decisions, at)
        played = loop.play_recorded(*call)
        if played == 0:
            rows *= 4  # not one game fits: a larger buffer
            continue
        made = decisions[:at[R_DECISIONS]].copy()
        made[:, RECORD_COLUMNS.index("game")] += done
        made[:, RECORD_COLUMNS.index("first")] += sum(len(f) for f, _ in parts)
        parts.append((phi[:at[R_ROWS]].copy(), made))
        done += played
    _check(out)
    return Recorded(np.concatenate([f for f, _ in parts]) if parts else np.empty((0, len(FEATURES)), np.float32),
                    np.concatenate([d for _, d in parts]) if parts else np.empty((0, len(RECORD_COLUMNS)), np.int64),
                    out)


def forced_games(p: Position, seed: int, sides: tuple[SidePolicy, SidePolicy], games: np.ndarray, force_at: np.ndarray,
                 force_move: np.ndarray) -> np.ndarray:
    """The summary rows of games ``games[i]`` of batch ``seed`` from ``p``, each with the move of index
    ``force_move[i]`` (a row of its decision in :func:`recorded_games`' order) played at the learned policy's
    placement ``force_at[i]`` of the game (its index among the game's recorded decisions) instead of the policy's own:
    up to that placement each game is the recorded one, and after it its random numbers go on as they would have, so
    that its score less the recorded game's is what that one move changed (common random numbers)."""
    from . import loop

    args = batch_args(p, len(games), seed, 0, sides)
    out: np.ndarray = args[-1]
    if len(games):
        # contiguous whatever the caller passes (a column of a record is a strided view): another layout is another
        # signature, which numba would compile again for half a minute
        call = (*args[:12], np.ascontiguousarray(games, np.int64), np.ascontiguousarray(force_at, np.int64),
                np.ascontiguousarray(force_move, np.int64), *args[14:16], out)
        loop.play_forced(*call)
    _check(out)
    return out
