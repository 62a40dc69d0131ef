"""Replaying a traced compiled game through the engine, checking every decision a scoring policy made.

Shared by the heuristic's and the learned policy's tests: the engine checks each move's legality,
each concede choice must be the built-in rule's, and each decision of a side with a Python twin must
be that twin's pick from its whole-number weights (the same total, the same random index), asked of the
side's view with the public record folded from ``start`` as the game loop folds it.
"""

from typing import Callable

from guyenne_explore.engine import Position, PublicRecord, side_view
from guyenne_explore.analysis.compiled import layout as kn
from guyenne_explore.analysis.policies.heuristic import pick
from guyenne_explore.engine.cards import KINDS, Cards
from guyenne_explore.engine.moves import Move
from guyenne_explore.engine.policy import concede_move
from guyenne_explore.engine.position import Draw

NAMES = dict(enumerate(kn.POINTS))  # the engine's point of each code of the loop


def replay_trace(start: Position, rows: list[list[int]], kinds: list[int], out, twin: Callable[[int], object | None]
                 ) -> list[int]:
    """Replay trace ``rows`` from ``start``; ``twin(side)`` is the Python policy whose weights the side's
    decisions must follow (None: not checked).  Returns the side of every decision checked."""

    def cards(counts):
        full = [0] * KINDS
        for k, c in zip(kinds, counts):
            full[k] = c
        return Cards(full)

    p, i, checked, record = start, 0, [], PublicRecord.assumed(start)

    def go(move: Move | None, q: Position) -> Position:
        nonlocal record
        record = record.after(p, q, move)
        return q

    while i < len(rows):
        point, side, castle, index_, total, *counts = rows[i]
        assert p.to_play == NAMES[point], (i, p.to_play, NAMES[point])
        if point in (kn.DEAL, kn.DRAW):
            p = go(None, p.apply_outcome(Draw(cards(counts), cards(rows[i + 1][kn.TRACE_HEAD:]))))
            i += 2
            continue
        if point == kn.CONCEDE:  # every policy's is the built-in rule
            move = Move(concede=bool(castle))
            assert move == concede_move(p.view(side)), (i, p.to_play)
        else:
            move = (Move(first_member=castle) if point == kn.TEAM_ORDER
                    else Move(cards=cards(counts), castle=castle if castle >= 0 else None))
            policy = twin(side)
            if policy is not None:
                view = side_view(p, side, record=record)
                # a mixture's twin gives each member's weights: the member drawn is not traced, one must match
                options = (policy.each_weights(view) if hasattr(policy, "each_weights")  # type: ignore[attr-defined]
                           else [policy.weights(view)])  # type: ignore[attr-defined]
                matched = [j for j, weighted in enumerate(options)
                           if sum(w for _, w in weighted) == total and pick(weighted, index_) == move]
                assert matched, (i, p.to_play, total, index_)
                if hasattr(policy, "matched"):
                    policy.matched.append(matched)
                checked.append(side)
        p = go(move, p.apply(move))  # the engine checks the move's legality
        i += 1
    assert p.is_over
    r = p.result()
    assert (r.english, r.french) == (out[kn.OUT_ENGLISH], out[kn.OUT_FRENCH])
    return checked
