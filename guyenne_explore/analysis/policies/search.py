"""A stronger policy: a search over the cards it cannot see, on top of the learned policy ``strong``.

Two searches share this class (:class:`ISMCTS`); which one answers depends on whether the one
compiled game loop plays the game from here:

*The compiled search* (placements and removals under the loop's rules, team sides included: most of
every game).  One decision:

1. **Worlds.**  :data:`WORLDS` full positions drawn from the side's view and its public record
   (:func:`~guyenne_explore.engine.determinisation.determinise`: the opponent's hero only where the record
   allows it, shown cards where they went; a team member's partner's hand and face-down cards dealt
   again with the team's deck), from one seeded stream.
2. **Weighed by the opponent's moves.**  Each world is weighed by how likely it made the
   opponent's placements of this round under ``strong``, the model of the opponent
   (:func:`..compiled.search_kernel.likelihoods`: the model's probability of each placement from the
   opponent's hand before it, mixed with :data:`MIX` of a uniform choice so that an opponent
   playing otherwise leaves no world at zero, over the deal's own chance of those face-down cards:
   importance weights), and the worlds are resampled by those weights (systematic resampling).  A
   world where a placement was impossible weighs 0.  Placements of earlier rounds are not weighed.
3. **Candidates.**  The root's moves are ``strong``'s likeliest :data:`CANDIDATES` (its compiled
   weights, :func:`..compiled.search_kernel.move_weights`; at a removal, every removal in its order).
4. **Rollouts, batched.**  Sequential halving (Karnin, Koren and Somekh 2013) over the candidates:
   in each of ``log2(candidates)`` rounds every candidate left plays an equal share of the round's
   budget of games, all in *one* compiled call (:func:`..compiled.search_kernel.play_jobs`: the move
   applied to the resampled world, then ``strong`` against ``strong`` in the game loop), and the
   better half goes on.  Game ``g`` of every candidate meets the same world and the same draws
   (common random numbers), so candidates are compared on the same deals.  The move played is the
   last one left (the best mean, its win probability with a draw counting half).

Measured by ``benchmarks/bench_strong.py`` (both seats, 400 games, a 2-core machine):
``search:400`` against the ``strong`` it is built on scores 0.949 in ``advanced``, 0.955 in ``expert``,
0.993 in ``classic2021``, 0.597 in ``team`` and 0.705 in ``team3`` (the weights before ``improve``; on
classic2021's improved weights 0.995 over 200 games), at about 10 to 45 ms a decision;
``benchmarks/bench_search.py`` plays it against another policy on the same deals.

*The tree search* (rule sets whose decisions the loop does not play: stacked decks, card sets too large for its tables):
information-set MCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's ``ISMCTSBot``)
as before, ``strong`` (the Python policy) now its order of moves, its model of the opponent and,
where the compiled loop plays from a leaf, its rollouts; elsewhere the rollouts are uniform
(compiled where the fast simulator plays them, else the engine's loop: the Python policy plays a few
dozen games a second, too slow for a rollout).  A world is a determinisation, a node an information
set of the searcher (keyed by its :class:`~guyenne_explore.engine.SideView`, the engine's frozen value of what it
knows: a team member's node holds its own hand,
never its partner's, nor the cards its partner placed face down this round: the engine's view
hides them and a determinisation deals them again with the partner's hand), the opponent's moves are
drawn from ``strong``'s distribution on its own view in that world, progressive widening below the
root, leaves valued by a few games (compiled ``strong`` where the loop plays from the leaf, else
uniform), and its worlds are not weighed.

Every other decision point (the expert setup discard, a concede decision, a team's split and order)
is ``strong``'s own decision: the search does not branch there.

The budget is a number of rollout games (``search:400``: the same decisions for the same seed on any
machine, with any number of workers) or a time in milliseconds (``search:250ms``: as many games as
the machine plays in that time, so a seed no longer fixes the games).  It reads nothing but its
view: two positions that look the same to it (a team member: the same own hand and public record,
whatever its partner holds) give the same decision for the same seed.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from fractions import Fraction
from typing import Protocol, Sequence

import numpy as np

from ...engine import (CONCEDE_CHOICE, KINDS, PLACEMENTS, REMOVE_CHOICE, Cards, Move, Position, Rules,
                          SideView, apply_legal, concede_move, determinise, play, side_score)
from ..cancel import Cancelled, StopSignal
from ..compiled.encode import shown_cards, side_zones
from ..compiled.layout import N_ZONES
from ..compiled.policy_codes import SidePolicy
from .heuristic import pick
from .strong import Strong

__all__ = ["ISMCTS", "determinise"]

#: UCB1's exploration constant for win probabilities in [0, 1]
UCT_C = 0.7
#: progressive widening below the root: a node visited n times considers its first
#: ``WIDEN_BASE + WIDEN_C * n ** WIDEN_ALPHA`` moves legal in the world
WIDEN_BASE, WIDEN_C, WIDEN_ALPHA = 2.0, 1.0, 0.5
#: a move's position becomes a node (and the iteration goes on below it) once the move has been
#: played this often from its node; before that the iteration rolls out right after the move
EXPAND_AFTER = 2
#: the compiled search: worlds dealt a decision, root moves searched, and the share of a uniform
#: choice mixed into the model's probability of each opponent placement when worlds are weighed
WORLDS, CANDIDATES, MIX = 48, 8, 0.05
#: games a candidate plays at a time, with a budget in milliseconds
CHUNK = 4


class Model(Protocol):
    """What the search asks of the policy it builds on: its move weights and order from a side's view, its
    own move where the search does not branch, and its compiled side under a rule set (``strong``, or the
    heuristic for the search as it was before ``strong``: ``benchmarks/bench_strong.py``'s baseline)."""

    def weights(self, view: SideView) -> list[tuple[Move, int]]: ...

    def ranked(self, view: SideView) -> list[Move]: ...

    def choose(self, view: SideView, rng: random.Random) -> Move: ...

    def compiled(self, rules: Rules | None = None) -> SidePolicy: ...


def _rollouts(q: Position, side: int, count: int, seed: int, start: int, rollout: SidePolicy) -> float:
    """Total value for ``side`` (win 1, draw 1/2) of ``count`` games from ``q``, both sides playing
    ``rollout`` (a compiled side: ``strong``, the heuristic), compiled
    (:mod:`..compiled.rollout`).
    Where the compiled loop does not play them (stacked decks, card sets too large for its
    tables) the games are uniform, compiled where the fast simulator plays them, else in the engine's loop:
    the Python policies play a few dozen games a second, too slow for a rollout."""
    if q.is_over:
        return count * side_score(q.result().winner, side)
    import numba

    from ..compiled import layout as kn
    from ..compiled.encode import unsupported
    from ..compiled.rollout import play_summaries, summaries_if_played

    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # a few games a call: starting threads would cost more than they bring
    try:
        out = summaries_if_played(q, count, seed, start, (rollout, rollout))
        if out is None and unsupported(q) is None:
            out = play_summaries(q, count, seed, start)
    finally:
        numba.set_num_threads(threads)
    if out is not None:
        winners = out[:, kn.OUT_WINNER]
        return float(kn.side_scores(winners, side).sum())
    total = 0.0
    for i in range(count):
        total += side_score(play(q, random.Random(f"{seed}:{start + i}"), check_moves=False).result().winner, side)
    return total


class _Node:
    """One information set's statistics: its visits, and per move ``[visits, value, availability]``
    (value summed from the acting side's point of view); ``rank`` orders the moves for widening."""

    __slots__ = ("visits", "edges", "rank")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[Move, list[float]] = {}
        self.rank: dict[Move, float] | None = None


class ISMCTS:
    """The search with a budget of ``simulations`` rollout games (or ``milliseconds``).

    ``candidates``: ``strong``'s moves searched at the root; ``worlds``: the determinisations dealt
    a decision (the tree search reuses them beyond); ``compiled``: False searches with the tree even
    where the compiled loop plays (to compare the two).  The tree search's own: ``rollouts_per_leaf``,
    games played from each leaf; ``expand_after``, visits of a move before its position becomes a
    node (a very large value makes it flat: root moves and rollouts only); ``rollout``, the policy both
    sides play in its rollouts (default: its model); ``model``: the policy it builds on, its order of moves and its
model of the opponent (default ``strong`` with the package's weights).  :attr:`nodes` keeps the tree search's last tree.
    """

    exact = False

    def __init__(self, simulations: int = 400, milliseconds: float | None = None, candidates: int = CANDIDATES,
                 rollouts_per_leaf: int = 4, uct_c: float = UCT_C, worlds: int = WORLDS,
                 expand_after: int = EXPAND_AFTER, rollout: Model | None = None, compiled: bool = True,
                 model: Model | None = None):
        if simulations < 1:
            raise ValueError(f"the search budget must be at least 1 simulation, not {simulations}")
        self.simulations = simulations
        self.milliseconds = milliseconds
        self.candidates = candidates
        self.per_leaf = rollouts_per_leaf
        self.uct_c = uct_c
        self.worlds = worlds
        self.expand_after = expand_after
        self.compiled = compiled
        self.name = "search" if milliseconds is None else f"search:{milliseconds:g}ms"
        self._prior: Model = model if model is not None else Strong()
        self.rollout: Model = rollout if rollout is not None else self._prior
        self._sides: dict[Rules, tuple[SidePolicy, SidePolicy]] = {}
        self._rollout_sides: dict[Rules, SidePolicy] = {}
        #: the last search's table of nodes (for tests and inspection)
        self.nodes: dict[SideView, _Node] = {}
        #: the compiled search's last weights of its worlds (for tests and inspection)
        self.likelihoods: np.ndarray | None = None
        #: asked between two simulations: a cancelled run stops inside a decision (:class:`.cancel.Thinking`)
        self.stop: StopSignal | None = None

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        raise NotImplementedError("the search policy samples; it has no exact move distribution")

    def sides_for(self, rules: Rules) -> tuple[SidePolicy, SidePolicy]:
        """The model (``strong`` by default) as the compiled loop plays it under ``rules`` (the weights it plays
        there), on both sides: the model of the opponent and, by default, the rollouts' policy."""
        if rules not in self._sides:
            self._sides[rules] = (self._prior.compiled(rules),) * 2
        return self._sides[rules]

    def rollout_side(self, rules: Rules) -> SidePolicy:
        """The rollouts' policy as the compiled loop plays it under ``rules``, made once a rule set: every leaf of
        the tree search plays rollouts (the model's own sides where the rollouts are the model's)."""
        if self.rollout is self._prior:
            return self.sides_for(rules)[0]
        if rules not in self._rollout_sides:
            self._rollout_sides[rules] = self.rollout.compiled(rules)
        return self._rollout_sides[rules]

    def candidate_values(self, view: SideView, seed: int, games: int,
                         also: Sequence[Move] = ()) -> list[tuple[Move, float]] | None:
        """The compiled search's candidates here (``strong``'s likeliest placements, or every removal), then
        the placements of ``also`` that are not among them, each with its mean value over the same ``games``
        rollouts from the weighed worlds (what :mod:`..improvement` learns from); None where the compiled
        loop does not play from here."""
        return _CompiledSearch(self, view, seed).values(games, also)

    def candidates_for(self, view: SideView) -> list[Move]:
        """The moves the tree searches at the root: ``strong``'s best scored, ties in its move order."""
        return self._prior.ranked(view)[: self.candidates]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        if view.to_play not in PLACEMENTS and view.to_play != REMOVE_CHOICE:
            return self._prior.choose(view, rng)  # the search does not branch here: the model decides
        seed = rng.getrandbits(62)
        if self.compiled:
            move = _CompiledSearch(self, view, seed).best()
            if move is not None:
                return move
        return self._tree(view, seed)

    # ------------------------------------------------------------------ one node's choice
    def _rank(self, node: _Node, view: SideView) -> dict[Move, float]:
        """The node's order of moves for widening: strong's weights from the side's view
        (the same in every world that reaches the node), worked out on the first pass through it."""
        if node.rank is None:
            node.rank = {m: -float(w) for m, w in self._prior.weights(view)}
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

    # ------------------------------------------------------------------ the tree search
    def _tree(self, view: SideView, seed: int) -> Move:
        """The tree search's move (where the compiled loop does not play, or when asked)."""
        root_moves = self.candidates_for(view)
        if len(root_moves) == 1:
            return root_moves[0]
        me = view.side
        world_rng = random.Random(seed)
        worlds: list[Position] = []
        root = _Node()
        nodes: dict[SideView, _Node] = {}
        self.nodes = nodes
        pulls = {m: 0 for m in root_moves}
        model: dict[SideView, list[tuple[Move, int]]] = {}
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
                seen = p.view(side)  # what the side to play knows in this world: the key of its node or model
                if side != me:  # strong's move, from the opponent's view in this world
                    weighted = model.get(seen)
                    if weighted is None:
                        weighted = model[seen] = self._prior.weights(seen)
                    p = apply_legal(p, pick(weighted, chance.randrange(sum(w for _, w in weighted))))
                    continue
                node = nodes.get(seen)
                if node is None:
                    nodes[seen] = _Node()
                    break
                rank = self._rank(node, seen)
                width = int(WIDEN_BASE + WIDEN_C * node.visits ** WIDEN_ALPHA)
                # strong's likeliest first, in move order on ties; moves it never plays last
                allowed = heapq.nsmallest(width, legal, key=lambda m: rank.get(m, 0.0))
                m = self._select(node, allowed)
                path.append((node, m))
                p = apply_legal(p, m)
                deep = node.edges[m][0] >= self.expand_after
            value = _rollouts(p, me, self.per_leaf, seed, j * self.per_leaf, self.rollout_side(p.rules)) / self.per_leaf
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


class _CompiledSearch:
    """One decision of the compiled search (see the module's text): its worlds as the loop's arrays,
    weighed and resampled, the candidates, and the sequential halving over them."""

    def __init__(self, search: ISMCTS, view: SideView, seed: int):
        self.search, self.view, self.seed = search, view, seed
        #: when a budget in milliseconds runs out
        self.deadline = time.perf_counter() + (search.milliseconds or 0) / 1000
        self.rng = random.Random(seed)
        #: the first world, then (once the root has more than one candidate) the rest
        self.worlds = [determinise(view, self.rng)]

    def best(self) -> Move | None:
        """The move to play, or None where the compiled loop does not play from these worlds."""
        moves = self._candidates()
        if moves is None:
            return None
        if len(moves) == 1:
            return self._move(*moves[0])
        self._weigh_worlds()
        return self._move(*moves[self._halving(moves)])

    def values(self, games: int, also: Sequence[Move] = ()) -> list[tuple[Move, float]] | None:
        """Every candidate, then each placement of ``also`` not among them, with its mean value (a win 1, a
        draw 1/2) over the same ``games`` rollouts from the weighed worlds, without halving (what
        :mod:`..improvement` learns from); None where the compiled loop does not play from these worlds."""
        moves = self._candidates()
        if moves is None:
            return None
        known = {self._move(*m) for m in moves}
        for m in also:
            if m not in known:
                known.add(m)
                moves.append((-1 if m.castle is None else m.castle, np.array([m.cards[k] for k in self.kinds], np.int64)))
        if len(moves) > 1:
            self._weigh_worlds()
            means = self._play(moves, list(range(len(moves))), range(games)).mean(axis=1)
        else:
            means = np.full(1, math.nan)  # nothing to compare: no rollout is played
        return [(self._move(*m), float(v)) for m, v in zip(moves, means)]

    def _candidates(self) -> list[tuple[int, np.ndarray]] | None:
        """The root's candidates as the loop's (castle, counts), ``strong``'s likeliest first, with the
        loop's arguments kept for the rollouts; None where the compiled loop does not play from here."""
        from ..compiled import heuristic_kernel as heuristic, policy_codes as sides
        from ..compiled.heuristic_kernel import MAX_MOVES
        from ..compiled.search_kernel import move_weights

        reason, e = heuristic.checked(self.worlds[0], scores=True)
        if reason is not None or e is None:
            return None
        search, view = self.search, self.view
        shown_cards(e, view.record)  # (every world is dealt within the record: its cards shown are every world's)
        sp = search.sides_for(view.rules)
        self.kinds = e.kinds
        self.args = (e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points, sides.codes(sp),
                     sides.params(sp), heuristic.tables(self.worlds[0], e, sp[0]))
        self.max_rounds, self.ways_width = e.max_rounds, e.ways_width
        if view.to_play == REMOVE_CHOICE:
            moves = self._removals()
        else:
            castles, rows, wts = (np.zeros(MAX_MOVES, np.int64) for _ in range(3))
            scores = np.zeros(MAX_MOVES, np.float64)
            n = move_weights(e.zones, e.placed, *self.args, int(view.side), castles, rows, wts, scores)
            order = sorted(range(n), key=lambda i: -scores[i])[: search.candidates]
            cards = e.options.cards
            moves = [(int(castles[i]), cards[rows[i]].copy()) for i in order]
        return moves

    def _weigh_worlds(self) -> None:
        """Deal the rest of the worlds, weigh each by the opponent's placements of this round under the
        model, and resample them (the rollouts' worlds)."""
        from ..compiled.search_kernel import likelihoods

        search, view = self.search, self.view
        self.worlds += [determinise(view, self.rng) for _ in range(search.worlds - 1)]
        # the worlds' zones and placed cards, flattened first (numpy reads a flat list of numbers far
        # sooner than nested tuples)
        zones = [c for w in self.worlds for s in w.sides for z in side_zones(s) for c in z]
        placed = [c for w in self.worlds for side in w.placed.cards for b in side for c in b]
        self.zs = np.array(zones, np.int64).reshape(len(self.worlds), 2, N_ZONES, KINDS)[:, :, :, self.kinds].copy()
        self.pls = np.array(placed, np.int64).reshape(len(self.worlds), 2, 2, KINDS)[:, :, :, self.kinds].copy()
        hidden = np.array([view.opponent_placed[b] is None for b in (0, 1)])
        weights = np.ones(len(self.worlds))
        likelihoods(self.zs, self.pls, *self.args, 1 - int(view.side), hidden, MIX, weights)
        search.likelihoods = weights
        self.resampled = _resample(weights, self.rng)

    def _move(self, castle: int, counts: np.ndarray) -> Move:
        full = [0] * KINDS
        for k, c in zip(self.kinds, counts.tolist()):
            full[k] = c
        return Move(cards=Cards(full), castle=castle if castle >= 0 else None)

    def _removals(self) -> list[tuple[int, np.ndarray]]:
        """Every removal, ``strong``'s likeliest first (a removal offers a handful)."""
        weighted = self.search._prior.weights(self.view)
        ranked = sorted(weighted, key=lambda mw: -mw[1])
        return [(-1, np.array([m.cards[k] for k in self.kinds], np.int64)) for m, _ in ranked]

    def _play(self, moves: list[tuple[int, np.ndarray]], which: list[int], games: range) -> np.ndarray:
        """Each candidate of ``which`` played over ``games`` (one compiled call): its values (win 1,
        draw 1/2) as rows of ``len(games)``."""
        from ..compiled import layout
        from ..compiled.search_kernel import play_jobs

        castles = np.array([c for c, _ in moves], np.int64)
        cards = np.stack([m for _, m in moves])
        n = len(games)
        job_move = np.repeat(np.array(which, np.int64), n)
        job_game = np.tile(np.array(games, np.int64), len(which))
        job_world = self.resampled[job_game % len(self.resampled)]
        winners = np.zeros(len(job_move), np.int64)
        play_jobs(self.zs, self.pls, *self.args, _seed(self.seed), castles, cards, job_move,
                  job_world, job_game, self.max_rounds, self.ways_width, winners)
        if (winners < 0).any():
            raise RuntimeError("the compiled search met a game the loop could not play")
        return layout.side_scores(winners, self.view.side).reshape(len(which), n)

    def _halving(self, moves: list[tuple[int, np.ndarray]]) -> int:
        """Sequential halving over the candidates: the index of the one left.  With a budget in
        milliseconds, each round takes an equal share of the time left, played in chunks of
        :data:`CHUNK` games a candidate until its share is spent."""
        search = self.search
        alive = list(range(len(moves)))
        rounds = max(1, math.ceil(math.log2(len(alive))))
        totals = np.zeros(len(moves))
        played = 0
        for r in range(rounds):
            if search.milliseconds is None:
                played = self._add(moves, alive, played, max(1, search.simulations // rounds // len(alive)), totals)
            else:
                now = time.perf_counter()
                end = now + (self.deadline - now) / (rounds - r)
                while True:
                    played = self._add(moves, alive, played, CHUNK, totals)
                    if time.perf_counter() >= end:
                        break
            alive = sorted(alive, key=lambda c: (-totals[c], c))[: max(1, math.ceil(len(alive) / 2))]
        return alive[0]

    def _add(self, moves: list[tuple[int, np.ndarray]], alive: list[int], played: int, share: int,
             totals: np.ndarray) -> int:
        """Games ``played .. played + share`` of each candidate left, added to its total; the games played after."""
        values = self._play(moves, alive, range(played, played + share))
        for i, c in enumerate(alive):
            totals[c] += values[i].sum()
        if self.search.stop is not None and self.search.stop.is_set():
            raise Cancelled()
        return played + share


def _resample(weights: np.ndarray, rng: random.Random) -> np.ndarray:
    """Systematic resampling: as many world indices as worlds, each world about its share of the
    total weight of times (all alike when no world has any weight)."""
    n = len(weights)
    total = float(weights.sum())
    if not total > 0:
        return np.arange(n, dtype=np.int64)
    edges = np.cumsum(weights / total)
    points = (rng.random() + np.arange(n)) / n
    return np.minimum(np.searchsorted(edges, points, side="right"), n - 1).astype(np.int64)


def _seed(seed: int) -> np.uint64:
    from ..compiled.encode import seed_u64

    return seed_u64(seed)
