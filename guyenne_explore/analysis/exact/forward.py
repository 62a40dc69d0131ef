"""Endgame distributions in floating point: one forward pass over the rounds, the castles as a vector.

:class:`.endgame.Endgame` solves an endgame (no side can reshuffle again) in
exact fractions, one round start ``(castles, hands, decks)`` at a time; the
castles multiply its states by up to 3^6.  This pass uses two further facts of
uniform play in an endgame:

- what a round does to the castles depends only on the two battles' outcomes
  (english wins, french wins, tie at X and at Y) and on the uniformly random
  ordered pair (X, Y): one fixed linear map of the distribution over castle
  tables per pair of outcomes, the same for every hand;
- each side's cards evolve by themselves: a side places first at X keeping a
  card back, then at Y, whoever holds the first-player card, so the first-player
  card does not matter here.

So the mass of each pair of side states ``(hand, deck)`` is a vector over the
castle tables, and a round is three sparse matrix products (float64).  Renaming
the castles commutes with that map, so the tables the start table's symmetries
exchange keep equal masses: the vector holds one entry per orbit of tables
(:class:`Orbits`: 28 instead of 729 from six neutral castles), and a table that
ends the game takes its share of its orbit's mass.

1. the castle map of each outcome pair on the pairs of side states, spread to
   the pairs of *post states* ``(kept hand, deck)`` with the weights of the
   placements; many placements of a hand keep the same cards, so post states
   are shared, and the castle map (30 entries a row) runs on the fewer pairs;
2. and 3. each side's draw as its own sparse map, one side after the other
   (the draws are independent), instead of every pair of draws at once.

The answers are the exact distribution up to rounding (the tests compare them
with the fractions of :class:`.endgame.Endgame` to 1e-12); battles and draws
come from the engine (``battle_winner``, ``side_outcomes``), the final scores
from the engine's ``table_result``, how the game ended from the engine's
``ending_without_reshuffle``, and the end checks from its ``sweeper``,
``hand_size_after_draw`` and ``holds_too_few``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...engine import (NEUTRAL, Cards, Position, Rules, Side, battle_winner, ending_without_reshuffle,
                           hand_size_after_draw, holds_too_few, side_outcomes, sweeper, table_result)
from .endgame import HERO_CLASS, _placements
from ..limits import MEMORY_BUDGET, check_memory

#: (english score, french score, winner, ending, rounds after this one) -> probability
FloatDistribution = dict[tuple[int, int, str, str, int], float]
# battle outcomes, in english/french terms
E_WINS, F_WINS, TIE = 0, 1, 2
#: a castle's digit in a table's index: neutral, english, french
_DIGIT = {NEUTRAL: 0, 0: 1, 1: 2}
_CONTROL = (NEUTRAL, 0, 1)

if TYPE_CHECKING:
    from scipy import sparse


class _SideStep:
    """One side's round from ``(hand, deck)``: the probability of each (kept hand, class at X, class at Y)
    as flat arrays (``post`` gives the solver's id of the state ``(kept hand, deck)`` each entry leads to,
    before the draw), so a whole step pairs with the other side's in one operation."""

    def __init__(self, hand: Cards, deck: Cards, rules: Rules, classes: dict[int, int], post_id: Callable):
        pl = _placements(hand, rules)
        i, a, b = np.nonzero(pl.table)
        self.remainder = i
        self.at_x = np.array([classes[c] for c in pl.classes])[a]
        self.at_y = np.array([classes[c] for c in pl.classes])[b]
        self.weight = pl.table[i, a, b].astype(float) / pl.denominator
        #: the same weights as integers over ``denominator`` (the exact pass of :mod:`.forward_exact`)
        self.shares = pl.table[i, a, b]
        self.denominator = pl.denominator
        self.post = np.array([post_id(rem, deck) for rem in pl.remainders], np.int64)


class _Post(NamedTuple):
    """A side after placing and before drawing: its unspent cards, whether the game ends for it after
    the draw, and the states its draw leads to (ids) with their probabilities."""

    unspent: int
    over: bool
    targets: np.ndarray
    probs: np.ndarray
    #: the same probabilities as exact fractions
    fractions: tuple[Fraction, ...]


class _Entries:
    """The nonzero weights of one round's pairs of side steps, gathered pair by pair: for each entry
    the pair's index, both sides' post states and the outcome pair of the two battles (``3 * at X +
    at Y``).  The float pass (:meth:`ForwardEndgame._round`) and the exact one
    (:mod:`.forward_exact`) sum the weights their own way and share the rest."""

    def __init__(self) -> None:
        self._cols: list[np.ndarray] = []
        self._us: list[np.ndarray] = []
        self._vs: list[np.ndarray] = []
        self._outs: list[np.ndarray] = []
        self._data: list[np.ndarray] = []
        self._size = 0

    def codes(self, e: _SideStep, f: _SideStep, duel: np.ndarray) -> tuple[np.ndarray, int]:
        """Each (english entry, french entry)'s code ``(english remainder * french remainders + french
        remainder) * 9 + outcome pair``, the bin its weight is summed into, and the number of bins;
        refuses a round that would outgrow the machine's memory before its arrays are made."""
        nf = len(f.post)
        bins = len(e.post) * nf * 9
        self._size += bins
        check_memory((self._size, 5))  # the five weight arrays, before they outgrow the machine
        group = (e.remainder[:, None] * nf + f.remainder[None, :]) * 9
        return group + 3 * duel[e.at_x[:, None], f.at_x[None, :]] + duel[e.at_y[:, None], f.at_y[None, :]], bins

    def add(self, s: int, e: _SideStep, f: _SideStep, sums: np.ndarray) -> None:
        """Keep the nonzero bins of pair ``s`` (``sums``, indexed by :meth:`codes`)."""
        flat = np.nonzero(sums)[0]
        pair, duels = np.divmod(flat, 9)
        i, j = np.divmod(pair, len(f.post))
        self._cols.append(np.full(len(flat), s))
        self._us.append(e.post[i])
        self._vs.append(f.post[j])
        self._outs.append(duels)
        self._data.append(sums[flat])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The pair indices, english and french post states, outcome pairs and weights of all entries."""
        return (np.concatenate(self._cols), np.concatenate(self._us), np.concatenate(self._vs),
                np.concatenate(self._outs), np.concatenate(self._data))


#: Bytes a castle table takes at the peak of a pass's setup, besides :data:`TABLE_BYTES_A_CASTLE` a castle: its
#: orbit key sorted, the Python list of its digits read for the sweeps, the tuple and outcome of its final score
#: (measured: 840 bytes a table at 9 and 10 castles, 690 at 11; ``benchmarks/bench_estimate.py`` prints it)
TABLE_BYTES = 600
#: Bytes a castle table takes in a pass for each castle: its digits, and its tuple's entries
TABLE_BYTES_A_CASTLE = 24


#: Pairs of side states of a round between two reports inside it (:meth:`ForwardEndgame.tick`): a round of
#: thousands of pairs takes seconds, and Cancel or the budget must not wait for its end
PAIRS_A_REPORT = 64


def tables_bytes(castles: int) -> int:
    """Bytes the castle tables of a pass take: every one of the 3^castles tables is held."""
    return 3 ** castles * (TABLE_BYTES + TABLE_BYTES_A_CASTLE * castles)


class ForwardEndgame:
    """Endgame distributions under uniform play, in float64, by a forward pass (see the module)."""

    def __init__(self, rules: Rules, progress: Callable[[int], None] | None = None):
        self.rules = rules
        #: told the number of states solved after each round (it may raise to cancel)
        self.progress = progress
        #: pairs of side states solved so far, each with its vector over the castle tables
        self.states = 0
        n = rules.castles
        self.n = n
        powers = 3 ** np.arange(n - 1, -1, -1, dtype=np.int64)
        # class index: the hero, then every sum a placement can reach
        top = max(rules.card_counts) * rules.max_at_castle if rules.card_counts else 0
        self.class_values = [HERO_CLASS, *range(1, top + 1)]
        self.classes = {c: i for i, c in enumerate(self.class_values)}
        # duel[a, b]: the outcome of english class a against french class b (by the engine)
        nc = len(self.class_values)
        self.duel = np.zeros((nc, nc), np.int64)
        for a, ca in enumerate(self.class_values):
            for b, cb in enumerate(self.class_values):
                w = battle_winner(NEUTRAL, _example(ca), _example(cb))
                self.duel[a, b] = TIE if w is None else (E_WINS if w == 0 else F_WINS)
        #: ordered pairs (X, Y) of distinct castles, each as likely
        self.pairs_xy = n * (n - 1)
        self._orbits: dict[int, Orbits] = {}
        self.powers = powers
        self._steps: dict[int, _SideStep] = {}
        # side states (hand, deck) at a round start and after placing, by id
        self._state_ids: dict[tuple[Cards, Cards], int] = {}
        self._state_list: list[tuple[Cards, Cards]] = []
        self._post_ids: dict[tuple[Cards, Cards], int] = {}
        self._posts: list[_Post] = []
        self._ids: dict[tuple[int, int], np.ndarray] = {}
        #: each castle table (by index) with how a game that ends on it ended, made once when first asked
        self._tables: list[tuple[tuple[int, ...], str]] = []
        #: final outcomes (english, french, winner, ending) seen so far, by index
        self.outcomes: list[tuple[int, int, str, str]] = []
        self._index: dict[tuple[int, int, str, str], int] = {}

    @staticmethod
    def fits(rules: Rules) -> bool:
        """Whether a pass's castle tables (:data:`TABLE_BYTES` each, 3^castles of them) fit the memory budget."""
        return tables_bytes(rules.castles) <= MEMORY_BUDGET

    @cached_property
    def digits(self) -> np.ndarray:
        """``digits[table]``: each castle's digit in every one of the 3^castles tables, made when a pass first
        needs them and refused before they are made where they would outgrow the memory budget (the cost
        estimate asks only :meth:`next_states`, which needs no table: at 16 castles the tables take 17 GB)."""
        check_memory((3 ** self.n,), TABLE_BYTES + TABLE_BYTES_A_CASTLE * self.n)
        return np.arange(3 ** self.n, dtype=np.int64)[:, None] // self.powers % 3

    @cached_property
    def all_six(self) -> np.ndarray:
        """``all_six[table]``: whether a side holds every castle of that table (the game ends there)."""
        return np.array([sweeper(tuple(_CONTROL[d] for d in row)) is not None for row in self.digits.tolist()])

    def tick(self, pair: int) -> None:
        """Inside a round, at every :data:`PAIRS_A_REPORT`-th pair: tell ``progress`` again (it may raise to stop
        the pass: a cancel, or a run past its budget)."""
        if self.progress and pair and pair % PAIRS_A_REPORT == 0:
            self.progress(self.states)

    def _state_id(self, hand: Cards, deck: Cards) -> int:
        key = (hand, deck)
        hit = self._state_ids.get(key)
        if hit is None:
            hit = self._state_ids[key] = len(self._state_list)
            self._state_list.append(key)
        return hit

    def _post_id(self, kept: Cards, deck: Cards) -> int:
        key = (kept, deck)
        hit = self._post_ids.get(key)
        if hit is None:
            rules = self.rules
            side = Side(hands=(kept,), deck=deck, exhaustions=rules.exhaustion_limit)
            draws = side_outcomes(side, rules)
            self._posts.append(_Post(
                side.unspent, holds_too_few(hand_size_after_draw(side, rules)),
                np.array([self._state_id(kept + d, deck - d) for d, _ in draws], np.int64),
                np.array([float(q) for _, q in draws]), tuple(q for _, q in draws)))
            hit = self._post_ids[key] = len(self._posts) - 1
        return hit

    def _step(self, state: int) -> _SideStep:
        hit = self._steps.get(state)
        if hit is None:
            hand, deck = self._state_list[state]
            hit = self._steps[state] = _SideStep(hand, deck, self.rules, self.classes, self._post_id)
        return hit

    def next_states(self, hand: Cards, deck: Cards) -> set[tuple[Cards, Cards]]:
        """The ``(hand, deck)`` a side can hold at the next round start, the game going on (the
        benchmarks count with it how large an endgame's state space is)."""
        out: set[tuple[Cards, Cards]] = set()
        for u in set(self._step(self._state_id(hand, deck)).post.tolist()):
            post = self._posts[u]
            if not post.over:
                out.update(self._state_list[t] for t in post.targets.tolist())
        return out

    def orbits(self, start: int) -> Orbits:
        """The castle tables merged for the start table ``start`` (see :class:`Orbits`), cached."""
        hit = self._orbits.get(start)
        if hit is None:
            hit = self._orbits[start] = Orbits(self.digits, self.powers, start)
        return hit

    def _outcome_ids(self, unspent_e: int, unspent_f: int) -> np.ndarray:
        """ids[table]: the final outcome (index in ``outcomes``) of each castle table, by the engine,
        with how the game ended there."""
        key = (unspent_e, unspent_f)
        hit = self._ids.get(key)
        if hit is None:
            if not self._tables:
                tables = (tuple(_CONTROL[d] for d in row) for row in self.digits.tolist())
                self._tables = [(t, ending_without_reshuffle(t)) for t in tables]
            hit = np.empty(len(self._tables), np.int64)
            for t, (table, end) in enumerate(self._tables):
                r = table_result(table, unspent_e, unspent_f, self.rules)
                outcome = (r.english, r.french, r.winner, end)
                hit[t] = self._index.setdefault(outcome, len(self.outcomes))
                if hit[t] == len(self.outcomes):
                    self.outcomes.append(outcome)
            self._ids[key] = hit
        return hit

    def value(self, p: Position) -> FloatDistribution:
        """The distribution ``(english, french, winner, ending, rounds after this one)`` from round start ``p``."""
        e, f = p.sides
        orbits = self.orbits(sum(_DIGIT[c] * w for c, w in zip(p.castles, self.powers)))
        mass = np.zeros((1, len(orbits.size)))
        mass[0, orbits.start] = 1.0
        pairs = np.array([[self._state_id(e.hand, e.deck), self._state_id(f.hand, f.deck)]], np.int64)
        out: FloatDistribution = defaultdict(float)
        rounds = 0
        while len(pairs):
            self.states += len(pairs)
            ended, pairs, mass = self._round(pairs, mass, orbits)
            if self.progress:
                self.progress(self.states)
            for o, q in ended.items():
                out[self.outcomes[o] + (rounds,)] += q
            rounds += 1
        return {k: v for k, v in out.items() if v > 0}

    def _game_over(self, key_u: np.ndarray, key_v: np.ndarray,
                   dtype: type) -> tuple[np.ndarray, np.ndarray, int, sparse.csr_matrix]:
        """Which pairs of post states end the game (a side left with at most one card after the draw),
        grouped by their pair of unspent counts, which is all the score needs: the mask, the group
        codes (``english unspent * width + french unspent``), ``width``, and the matrix that sums the
        ended pairs' rows per group."""
        from scipy import sparse  # loaded by an exact pass only, not by every run's start
        unspent = np.array([p.unspent for p in self._posts], np.int64)
        over = np.array([p.over for p in self._posts], bool)
        done = over[key_u] | over[key_v]
        width = int(unspent.max()) + 1
        codes, group = np.unique(unspent[key_u[done]] * width + unspent[key_v[done]], return_inverse=True)
        gather: sparse.csr_matrix = sparse.csr_matrix((np.ones(len(group), dtype), (group, np.arange(len(group)))),
                                                      shape=(len(codes), len(group)))
        return done, codes, width, gather

    def _round(self, pairs: np.ndarray, mass: np.ndarray,
               orbits: Orbits) -> tuple[dict[int, float], np.ndarray, np.ndarray]:
        """One round from every pair of side states at once (``pairs[s]``: english and french state ids,
        ``mass[s]``: its vector over the orbits of castle tables); returns the mass ended per outcome
        and the next round's pairs and masses."""
        from scipy import sparse  # loaded by an exact pass only, not by every run's start
        # the weight of each (pair, english post state, french post state, outcome pair)
        entries = _Entries()
        for s, (se, sf) in enumerate(pairs.tolist()):
            self.tick(s)
            e, f = self._step(se), self._step(sf)
            code, bins = entries.codes(e, f, self.duel)
            entries.add(s, e, f, np.bincount(code.ravel(), weights=np.outer(e.weight, f.weight).ravel(),
                                             minlength=bins))
        col, u, v, out_pair, weight = entries.arrays()
        # the pairs of post states (keys) and the castles after the battles
        keys, key_of = np.unique(u * len(self._posts) + v, return_inverse=True)
        key_u, key_v = np.divmod(keys, len(self._posts))
        # the castle map of each outcome pair on the (fewer) state pairs first: moved[o * pairs + s];
        # then one sparse product spreads them to the post state pairs
        check_memory((9 * len(pairs), mass.shape[1]))
        check_memory((len(keys), mass.shape[1]))
        moved = np.asarray(mass @ orbits.map).reshape(len(pairs), 9, -1).transpose(1, 0, 2)
        moved = moved.reshape(9 * len(pairs), -1) / self.pairs_xy
        w = sparse.csr_matrix((weight, (key_of, out_pair * len(pairs) + col)), shape=(len(keys), len(moved)))
        after = w @ moved
        ended: dict[int, float] = defaultdict(float)
        # all six castles end the game whatever the cards
        sweep_ids = self._outcome_ids(0, 0)
        six = self.all_six[orbits.rep]  # one table each
        for t in np.nonzero(six)[0]:
            ended[int(sweep_ids[orbits.rep[t]])] += float(after[:, t].sum())
        after[:, six] = 0.0
        posts = self._posts
        done, codes, width, gather = self._game_over(key_u, key_v, np.float64)
        if done.any():
            sums = gather @ after[done]
            sums = sums[:, orbits.of] / orbits.size[orbits.of]  # each table's share of its orbit's mass
            for c, row in zip(codes.tolist(), sums):
                for o, q in zip(*_grouped(self._outcome_ids(*divmod(c, width)), row)):
                    ended[o] += q
        live = ~done
        key_u, key_v, after = key_u[live], key_v[live], after[live]
        if not len(after):
            return ended, np.zeros((0, 2), np.int64), np.zeros((0, mass.shape[1]))
        # the draws, one side at a time: (u, v) -> (english state, v) -> (english state, french state)
        step1, mid = _draw_map(key_u, key_v, posts)
        half = step1 @ after
        step2, nxt = _draw_map(mid[:, 0], mid[:, 1], posts)  # rows (v, english state) -> (english, french state)
        new = step2 @ half
        keep = new.any(axis=1)
        return ended, nxt[keep], new[keep]


class Orbits:
    """The castle tables of a pass merged by the symmetries of its start table.

    A round sends a table through a uniformly random ordered pair (X, Y) of distinct castles, so
    renaming the castles commutes with a round; the renamings that fix the start table (any
    permutation of its neutral castles, of its english ones, of its french ones) therefore fix the
    whole distribution over tables at every round.  The mass is the same on every table of one
    orbit of those renamings, and the pass only needs each orbit's total: 28 orbits instead of 729
    tables from six neutral castles.  An orbit is known by how many of each digit it holds among
    the start's neutral, english and french castles.  Scoring (runs of adjacent castles) is not
    symmetric, so a table's share of its orbit's ended mass is ``1 / size``: ended mass is
    counted in units of ``1 / lcm(sizes)`` (:attr:`scale`)."""

    def __init__(self, digits: np.ndarray, powers: np.ndarray, start: int):
        from scipy import sparse  # loaded by an exact pass only, not by every run's start
        n_tables, n = digits.shape
        first = digits[start]
        key = np.zeros((n_tables, 9), np.int64)
        for c in range(3):
            for d in range(3):
                key[:, 3 * c + d] = ((digits == d) & (first == c)[None, :]).sum(axis=1)
        _, rep, self.of, self.size = np.unique(key, axis=0, return_index=True, return_inverse=True,
                                                return_counts=True)
        self.of = self.of.ravel()
        self.start = int(self.of[start])
        #: tables are counted in units of 1 / scale (a table's share of its orbit's mass is 1 / size)
        self.scale = lcm(*self.size.tolist())
        count = len(rep)
        #: moves[3 * ox + oy, a, b]: the ordered pairs (X, Y) that send a table of orbit a to orbit b
        #: when the battles at X and at Y end ox and oy (english wins, french wins, tie)
        self.moves = np.zeros((9, count, count), np.int64)
        reps = digits[rep]
        rows = np.arange(count)
        for x in range(n):
            for y in range(n):
                if x == y:
                    continue
                for ox in range(3):
                    for oy in range(3):
                        new = reps.copy()
                        for c, o in ((x, ox), (y, oy)):
                            if o != 2:  # TIE leaves the castle as it was
                                new[:, c] = 1 + o
                        np.add.at(self.moves[3 * ox + oy], (rows, self.of[new @ powers]), 1)
        #: the same as one sparse map from an orbit to (outcome pair, orbit)
        self.map = sparse.csr_matrix(self.moves.transpose(1, 0, 2).reshape(count, 9 * count))
        #: the orbits' representatives' table indices
        self.rep = rep

    def weights(self, table_ids: np.ndarray, outcomes: int) -> np.ndarray:
        """``[orbit, outcome]``: the orbit's tables with that outcome (``table_ids``), in units of 1 / scale
        of the orbit's mass."""
        out = np.zeros((len(self.size), outcomes), np.int64)
        np.add.at(out, (self.of, table_ids), self.scale // self.size[self.of])
        return out


def _draw_map(own: np.ndarray, other: np.ndarray, posts: list[_Post]) -> tuple[sparse.csr_matrix, np.ndarray]:
    """The draw of one side as a sparse map from rows ``(own post state, other)`` to rows
    ``(own next state, other)``; returns the map and the new rows' ``[other, own state]`` pairs."""
    from scipy import sparse  # loaded by an exact pass only, not by every run's start
    counts = np.array([len(posts[x].targets) for x in own.tolist()], np.int64)
    targets = np.concatenate([posts[x].targets for x in own.tolist()])
    probs = np.concatenate([posts[x].probs for x in own.tolist()])
    source = np.repeat(np.arange(len(own)), counts)
    other_rep = np.repeat(other, counts)
    width = int(targets.max(initial=0)) + 1
    rows, row_of = np.unique(other_rep * width + targets, return_inverse=True)
    m = sparse.csr_matrix((probs, (row_of, source)), shape=(len(rows), len(own)))
    new_other, new_own = np.divmod(rows, width)
    return m, np.stack([new_other, new_own], axis=1)


def _grouped(ids: np.ndarray, weights: np.ndarray) -> tuple[list[int], list[float]]:
    """Sums of ``weights`` per outcome id, for the ids with mass."""
    sums = np.bincount(ids, weights=weights)
    nz = np.nonzero(sums)[0]
    return nz.tolist(), sums[nz].tolist()


def _example(cls: int) -> Cards:
    """A placement of that strength class, for the engine's battle rule."""
    return Cards.parse("H") if cls == HERO_CLASS else Cards.from_values({1: cls})
