"""A stronger policy: information-set Monte Carlo tree search (IS-MCTS) over the cards it cannot see.

Modelled on OpenSpiel's ``ISMCTSBot`` and on Cowling, Powley and Whitehouse's
IS-MCTS (2012).  One *iteration* of the search:

1. **A world.**  A full position drawn from the side's view and its public
   record (:func:`~guyenne_explore.determinise.determinise`: the opponent's hero
   only where the record allows it, shown cards where they went).  Worlds are
   dealt from one seeded stream and reused: the k-th visit of every root move
   meets world k, with the same stream for the draws at the ends of rounds and
   the same rollout seeds (common random numbers: two moves are compared on the
   same deals).
2. **Down the tree.**  From the root, moves legal *in that world* are applied
   as the engine applies them (:func:`~guyenne_explore.engine_api.apply_legal`;
   chance points sampled from the world's stream as
   :func:`~guyenne_explore.engine_api.play` samples them).  A node is an
   information set of the searching side, not a position: a table maps what the
   side sees (:func:`info_key`, read from its
   :class:`~guyenne_explore.engine_api.SideView`: the table, its own cards, the
   opponent's counts and face-up cards) to the node, so the worlds it cannot
   tell apart share one node, and its later decisions (its answer at Y after its
   opening at X, its opening at Y right after its answer at X, the next rounds)
   are nodes of the tree.  A node chooses by UCB1 on the side's probability of
   winning (a draw counts half) among the moves legal in the world, with
   availability counts as in Cowling et al.
3. **Expansion.**  The first of the side's information sets met that is not in
   the table becomes a node and the iteration stops there.  A move leads into
   the tree only once it has been played :data:`EXPAND_AFTER` times from its
   node; until then the iteration stops right after it, so the first visits of
   a move are evaluated as well as the heuristic plays, not by the few, noisy
   visits of a new subtree.
4. **Leaf value.**  A few compiled games (:mod:`..compiled.loop`), both sides
   playing the heuristic, from the leaf; their mean win probability is backed up
   along the path.  Where the compiled heuristic does not play (team sides,
   conceding as a decision, the expert setup discard) the games are uniform
   (compiled, or the engine's loop).

*Branching.*  An opening offers a castle and a card set, often more than a
hundred moves.  The root searches the heuristic's likeliest moves
(:meth:`ISMCTS.candidates_for`).  Below it, *progressive widening* lets a node
visited n times consider its first ``WIDEN_BASE + WIDEN_C * n ** WIDEN_ALPHA``
moves legal in the world, in the heuristic's order of its view (worked out once
per node, when it is first passed through: one heuristic scoring per node that
matters, not per leaf).

*The opponent* has no nodes: its moves in the tree are drawn from the heuristic
policy's distribution on *its own* view in that world (its hand, the table,
the searcher's counts; computed once per information set of the opponent), as
in the rollouts.  Nodes keyed by the opponent's own information set (OpenSpiel)
are met once or twice in a few hundred iterations, since its hand differs in
every world, so they never learn more than a uniform choice.  Nodes keyed by
what the searcher sees (Cowling et al.'s single observer) gather every world's
visits but let the opponent answer the searcher's face-down cards, which it
cannot see (a bluffing game punishes that), or, keyed by the public table
alone, make it answer without its own hand.  Measured in ``advanced`` from the
opening, head to head against this search with no tree below the root
(``expand_after`` very large; 60 games, both seats on the same deals), the tree
with the heuristic as the opponent's model scored 0.52, with opponent nodes on
the public table 0.39; at equal time (the flat search given 960 rollouts, as
the tree costs about 2.4 times as much a rollout) it scored 0.60 over 120
games (``benchmarks/bench_search.py``).  Against the heuristic this search scores 0.955 over 100
games, 0.90 over 60 through the command line; with uniform rollouts the tree
scored 0.66 to 0.72 there and the flat search of before 0.72 to 0.81: the
model of play in the rollouts matters more than the tree.

The budget is a number of rollout games (``search:400``, spent as
``400 / rollouts_per_leaf`` iterations: the same decisions for the same seed on
any machine, with any number of workers) or a time in milliseconds
(``search:250ms``: as many iterations as the machine plays in that time, so a
seed no longer fixes the games).  The move played is the root's most visited.
It reads nothing but its view: two positions that look the same to it give the
same decision for the same seed.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from fractions import Fraction
from typing import Hashable

from ...engine_api import (CONCEDE_CHOICE, Move, Position, SideView, apply_legal, concede_move, determinise,
                          play)
from ..cancel import Cancelled, StopSignal
from .heuristic import Heuristic, pick

__all__ = ["ISMCTS", "determinise"]

#: UCB1's exploration constant for win probabilities in [0, 1]
UCT_C = 0.7
#: progressive widening below the root: a node visited n times considers its first
#: ``WIDEN_BASE + WIDEN_C * n ** WIDEN_ALPHA`` moves legal in the world
WIDEN_BASE, WIDEN_C, WIDEN_ALPHA = 2.0, 1.0, 0.5
#: a move's position becomes a node (and the iteration goes on below it) once the move has been
#: played this often from its node; before that the iteration rolls out right after the move
EXPAND_AFTER = 2


def _rollouts(q: Position, side: int, count: int, seed: int, start: int, policy: str = "heuristic") -> float:
    """Total value for ``side`` (win 1, draw 1/2) of ``count`` games from ``q``, both sides playing
    ``policy``, compiled (:mod:`..compiled.rollout`): the heuristic (:meth:`.Heuristic.compiled`) or uniform play.
    Where the compiled heuristic does not play (team sides, conceding as a decision, the expert setup
    discard) the games are uniform, compiled where the fast path plays them, else in the engine's loop:
    the Python heuristic plays a few dozen games a second, too slow for a rollout."""
    if q.is_over:
        r = q.result()
        return count * (0.5 if r.winner == "draw" else float(r.winner == ("english", "french")[side]))
    import numba

    from ..compiled import layout as kn
    from ..compiled.encode import unsupported
    from ..compiled.rollout import play_summaries, summaries_if_played
    from .sides import compiled_sides

    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # a few games a call: starting threads would cost more than they bring
    try:
        out = summaries_if_played(q, count, seed, start, compiled_sides((policy, policy))) if policy == "heuristic" \
            else None
        if out is None and unsupported(q, ("uniform", "uniform")) is None:
            out = play_summaries(q, count, seed, start)
    finally:
        numba.set_num_threads(threads)
    if out is not None:
        winners = out[:, kn.OUT_WINNER]
        return float((winners == side).sum()) + 0.5 * float((winners == kn.DRAW_WINNER).sum())
    total = 0.0
    for i in range(count):
        w = play(q, random.Random(f"{seed}:{start + i}"), check_moves=False).result().winner
        total += 0.5 if w == "draw" else float(w == ("english", "french")[side])
    return total


def info_key(p: Position, side: int) -> Hashable:
    """What ``side`` sees of ``p``, as a dictionary key: its view's table, own cards, the
    opponent's counts and face-up cards; never the opponent's hidden cards or its own deck order."""
    v = p.view(side)
    o = v.opponent
    return (side, v.member, v.to_play, v.round, v.first, v.castles, v.x, v.y, v.battle, v.roles(0), v.roles(1),
            v.hand, v.own_unseen, v.discard, v.removed, v.exhaustions, v.own_placed, v.opponent_placed,
            v.opponent_placed_sizes, o.hand_sizes, o.deck_size, o.discard_size, o.removed, o.exhaustions)


class _Node:
    """One information set's statistics: its visits, and per move ``[visits, value, availability]``
    (value summed from the acting side's point of view); ``rank`` orders the moves for widening."""

    __slots__ = ("visits", "edges", "rank")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[Move, list[float]] = {}
        self.rank: dict[Move, float] | None = None


class ISMCTS:
    """Information-set MCTS with a budget of ``simulations`` rollouts (or ``milliseconds``).

    ``candidates``: the heuristic's moves searched at the root; ``rollouts_per_leaf``: games
    played from each leaf; ``worlds``: the most determinisations dealt (reused beyond);
    ``expand_after``: visits of a move before its position becomes a node (a very large value
    makes the search flat: root moves and rollouts only); ``rollout_policy``: ``heuristic`` or
    ``uniform``.  :attr:`nodes` keeps the last search's tree.
    """

    exact = False

    def __init__(self, simulations: int = 400, milliseconds: float | None = None, candidates: int = 8,
                 rollouts_per_leaf: int = 4, uct_c: float = UCT_C, worlds: int = 64, expand_after: int = EXPAND_AFTER,
                 rollout_policy: str = "heuristic"):
        if simulations < 1:
            raise ValueError(f"the search budget must be at least 1 simulation, not {simulations}")
        self.simulations = simulations
        self.milliseconds = milliseconds
        self.candidates = candidates
        self.per_leaf = rollouts_per_leaf
        self.uct_c = uct_c
        self.worlds = worlds
        self.expand_after = expand_after
        self.rollout_policy = rollout_policy
        self.name = "search" if milliseconds is None else f"search:{milliseconds:g}ms"
        self._prior = Heuristic()
        #: the last search's table of nodes (for tests and inspection)
        self.nodes: dict[Hashable, _Node] = {}
        #: asked between two simulations: a cancelled run stops inside a decision (:class:`.cancel.Thinking`)
        self.stop: StopSignal | None = None

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        raise NotImplementedError("the search policy samples; it has no exact move distribution")

    def candidates_for(self, view: SideView) -> list[Move]:
        """The moves searched at the root: the heuristic's likeliest, ties in its move order."""
        weighted = self._prior.weights(view)
        ranked = sorted(range(len(weighted)), key=lambda i: -weighted[i][1])
        return [weighted[i][0] for i in ranked[: self.candidates]]

    # ------------------------------------------------------------------ one node's choice
    def _rank(self, node: _Node, p: Position, side: int) -> dict[Move, float]:
        """The node's order of moves for widening: the heuristic's weights from the side's view
        (the same in every world that reaches the node), worked out on the first pass through it."""
        if node.rank is None:
            node.rank = {m: -float(w) for m, w in self._prior.weights(p.view(side))}
        return node.rank

    def _select(self, node: _Node, moves: list[Move]) -> Move:
        """UCB1 with availability among ``moves`` (untried ones first, in their order)."""
        best, best_u = moves[0], -1.0
        for m in moves:
            e = node.edges.get(m)
            if e is None:
                e = node.edges[m] = [0.0, 0.0, 0.0]
            e[2] += 1
        for m in moves:
            n, w, avail = node.edges[m]
            if n == 0:
                return m
            u = w / n + self.uct_c * math.sqrt(math.log(avail) / n)
            if u > best_u:
                best, best_u = m, u
        return best

    # ------------------------------------------------------------------ the search
    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        root_moves = self.candidates_for(view)
        if len(root_moves) == 1:
            return root_moves[0]
        me = view.side
        seed = rng.getrandbits(62)
        world_rng = random.Random(seed)
        worlds: list[Position] = []
        root = _Node()
        nodes: dict[Hashable, _Node] = {}
        self.nodes = nodes
        pulls = {m: 0 for m in root_moves}
        model: dict[Hashable, list[tuple[Move, int]]] = {}
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        iterations = max(1, -(-self.simulations // self.per_leaf))
        done = 0
        while True:
            move = self._select(root, root_moves)
            j = pulls[move]  # the j-th visit of every root move meets world j
            pulls[move] += 1
            while len(worlds) <= min(j, self.worlds - 1):
                worlds.append(determinise(view, world_rng))
            chance = random.Random(seed + ((j + 2) << 62))
            path: list[tuple[_Node, Move]] = [(root, move)]
            p = apply_legal(worlds[j % self.worlds], move)
            deep = j >= self.expand_after
            while deep and not p.is_over:
                if p.is_chance:
                    p = p.apply_outcome(p.sample_outcome(chance))
                    continue
                side = p.side_to_play
                assert side is not None
                if p.to_play == CONCEDE_CHOICE:  # as every built-in policy does
                    p = apply_legal(p, concede_move(p.view(side)))
                    continue
                legal = list(p.legal_moves)
                if len(legal) == 1:  # nothing to choose: no node
                    p = apply_legal(p, legal[0])
                    continue
                if side != me:  # the heuristic's move, from the opponent's view in this world
                    okey = info_key(p, side)
                    weighted = model.get(okey)
                    if weighted is None:
                        weighted = model[okey] = self._prior.weights(p.view(side))
                    p = apply_legal(p, pick(weighted, chance.randrange(sum(w for _, w in weighted))))
                    continue
                key = info_key(p, me)
                node = nodes.get(key)
                if node is None:
                    nodes[key] = _Node()
                    break
                rank = self._rank(node, p, side)
                width = int(WIDEN_BASE + WIDEN_C * node.visits ** WIDEN_ALPHA)
                # the heuristic's likeliest first, in move order on ties; moves it never plays last
                allowed = heapq.nsmallest(width, legal, key=lambda m: rank.get(m, 0.0))
                m = self._select(node, allowed)
                path.append((node, m))
                p = apply_legal(p, m)
                deep = node.edges[m][0] >= self.expand_after
            value = _rollouts(p, me, self.per_leaf, seed, j * self.per_leaf, self.rollout_policy) / self.per_leaf
            for node, m in path:
                node.visits += 1
                e = node.edges[m]
                e[0] += 1
                e[1] += value
            done += 1
            if self.stop is not None and self.stop.is_set():
                raise Cancelled()
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= iterations:
                break
        return max(root_moves, key=lambda m: (root.edges[m][0], root.edges[m][1]))
