"""A stronger policy: information-set Monte Carlo tree search over the cards it cannot see.

Modelled on OpenSpiel's ``ISMCTSBot``: every simulation deals a *world*, a full
position drawn from the side's view and its public record
(:func:`~guyenne_explore.determinise.determinise`: the opponent's hero only
where the record allows it, shown cards where they went), and plays it out.
The search tree is kept at the information set of the decision, where the
simulations are many; below it each world is played out by compiled
uniform-random rollouts (:mod:`.fast`; the engine's loop where the fast path
does not apply, e.g. team sides), several per world.  Moves are picked by UCB1
on the probability of winning, a draw counting half, which is what a player
wants rather than a wide score margin.

The candidate moves are the heuristic's most likely ones (openings from six
castles and every card set are too many to sample each), and every candidate
meets the *same* worlds and the same rollout streams in the same order (common
random numbers), so two moves are compared on the same deals.  The budget is a
number of rollouts (``search:400``: the same decisions for the same seed on any
machine, with any number of workers) or a time in milliseconds (``search:250ms``:
as many rollouts as the machine plays in that time, so a seed no longer fixes
the games).  It reads nothing but its view:
two positions that look the same to it give the same decision for the same seed.
"""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction

from ..engine_api import CONCEDE_CHOICE, Move, Position, SideView, apply_legal, concede_move, determinise, play
from .heuristic import Heuristic

__all__ = ["ISMCTS", "determinise"]

#: UCB1's exploration constant for win probabilities in [0, 1]
UCT_C = 0.7


def _rollouts(q: Position, side: int, count: int, seed: int, start: int) -> float:
    """Total value for ``side`` (win 1, draw 1/2) of ``count`` uniform games from ``q``."""
    if q.is_over:
        r = q.result()
        return count * (0.5 if r.winner == "draw" else float(r.winner == ("english", "french")[side]))
    from .fast.encode import unsupported

    if unsupported(q, ("uniform", "uniform")) is None:
        import numba

        from .fast import kernel as kn
        from .fast.rollout import play_summaries

        threads = numba.get_num_threads()
        numba.set_num_threads(1)  # a few games a call: starting threads would cost more than they bring
        try:
            winners = play_summaries(q, count, seed, start)[:, kn.OUT_WINNER]
        finally:
            numba.set_num_threads(threads)
        return float((winners == side).sum()) + 0.5 * float((winners == kn.DRAW_WINNER).sum())
    total = 0.0
    for i in range(count):
        w = play(q, random.Random(f"{seed}:{start + i}"), check_moves=False).result().winner
        total += 0.5 if w == "draw" else float(w == ("english", "french")[side])
    return total


class ISMCTS:
    """Information-set MCTS with a budget of ``simulations`` rollouts (or ``milliseconds``)."""

    exact = False

    def __init__(self, simulations: int = 400, milliseconds: float | None = None, candidates: int = 8,
                 rollouts_per_world: int = 8, uct_c: float = UCT_C):
        if simulations < 1:
            raise ValueError(f"the search budget must be at least 1 simulation, not {simulations}")
        self.simulations = simulations
        self.milliseconds = milliseconds
        self.candidates = candidates
        self.per_world = rollouts_per_world
        self.uct_c = uct_c
        self.name = "search" if milliseconds is None else f"search:{milliseconds:g}ms"
        self._prior = Heuristic()

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        raise NotImplementedError("the search policy samples; it has no exact move distribution")

    def candidates_for(self, view: SideView) -> list[Move]:
        """The moves searched: the heuristic's likeliest, ties in its move order."""
        weighted = self._prior.weights(view)
        ranked = sorted(range(len(weighted)), key=lambda i: -weighted[i][1])
        return [weighted[i][0] for i in ranked[: self.candidates]]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        moves = self.candidates_for(view)
        if len(moves) == 1:
            return moves[0]
        side = view.side
        seed = rng.getrandbits(62)
        world_rng = random.Random(seed)
        worlds: list[Position] = []
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        pulls = [0] * len(moves)
        value = [0.0] * len(moves)
        spent = 0
        while True:
            untried = [i for i, n in enumerate(pulls) if n == 0]
            if untried:
                a = untried[0]
            else:
                log_n = math.log(sum(pulls))
                a = max(range(len(moves)), key=lambda i: value[i] / (pulls[i] * self.per_world)
                        + self.uct_c * math.sqrt(log_n / pulls[i]))
            j = pulls[a]  # the j-th world, the same for every move
            while len(worlds) <= j:
                worlds.append(determinise(view, world_rng))
            q = apply_legal(worlds[j], moves[a])
            value[a] += _rollouts(q, side, self.per_world, seed, j * self.per_world)
            pulls[a] += 1
            spent += self.per_world
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif spent >= self.simulations:
                break
        best = max(range(len(moves)), key=lambda i: (pulls[i], value[i]))
        return moves[best]

