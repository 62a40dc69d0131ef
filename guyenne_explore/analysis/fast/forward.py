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
castle tables, and a round is a few sparse matrix products (float64).  The
answers are the exact distribution up to rounding (the tests compare them with
the fractions of :class:`.endgame.Endgame` to 1e-12); battles and draws come
from the engine (``battle_winner``, ``side_outcomes``) and the final scores from
the engine's ``result``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from itertools import product

import numpy as np
from scipy import sparse

from ...cards import Cards
from ...drawing import side_outcomes
from ...flow import battle_winner
from ...position import NEUTRAL, Position, Side, evolve
from ...rules import Rules
from ...scoring import table_result
from .endgame import HERO_CLASS, _placements

#: (english score, french score, winner, rounds after this one) -> probability
FloatDistribution = dict[tuple[int, int, str, int], float]
# battle outcomes, in english/french terms
E_WINS, F_WINS, TIE = 0, 1, 2
#: a castle's digit in a table's index: neutral, english, french
_DIGIT = {NEUTRAL: 0, 0: 1, 1: 2}
_CONTROL = (NEUTRAL, 0, 1)


class _SideStep:
    """One side's round from ``(hand, deck)``, per remainder (the hand it keeps): the probability of
    each pair of strength classes (at X, at Y) as flat arrays, its unspent cards, whether the game
    ends after the draw, and the draws.  ``remainder``, ``at_x``, ``at_y``, ``weight`` concatenate
    every remainder's class pairs, so a whole step pairs with the other side's in one operation."""

    def __init__(self, hand: Cards, deck: Cards, rules: Rules, classes: dict[int, int]):
        pl = _placements(hand, rules.max_at_castle)
        side = Side(hands=(hand,), deck=deck, exhaustions=rules.exhaustion_limit)
        i, a, b = np.nonzero(pl.table)
        self.remainder = i
        self.at_x = np.array([classes[c] for c in pl.classes])[a]
        self.at_y = np.array([classes[c] for c in pl.classes])[b]
        self.weight = pl.table[i, a, b].astype(float) / pl.denominator
        self.unspent = [rem.size + deck.size for rem in pl.remainders]
        self.over = [rem.size + min(max(0, rules.hand_size - rem.size), deck.size) <= 1 for rem in pl.remainders]
        self.draws = [[((rem + d, deck - d), float(q)) for d, q in side_outcomes(evolve(side, hands=(rem,)), rules)]
                      for rem in pl.remainders]


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
        digits = np.array(list(product(range(3), repeat=n)), dtype=np.int64)  # table index -> digits
        self.digits = digits
        powers = 3 ** np.arange(n - 1, -1, -1)
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
        # move[ox, oy]: the castle tables' linear map (rows: before, columns: after) for X/Y outcomes
        pairs = [(x, y) for x in range(n) for y in range(n) if x != y]
        self.moves = []  # indexed 3 * ox + oy
        rows = np.arange(len(digits))
        for ox, oy in product((E_WINS, F_WINS, TIE), repeat=2):
            cols, data = [], []
            for x, y in pairs:
                new = digits.copy()
                for c, o in ((x, ox), (y, oy)):
                    if o != TIE:
                        new[:, c] = 1 + o
                cols.append(new @ powers)
                data.append(np.full(len(digits), 1 / len(pairs)))
            self.moves.append(sparse.csr_matrix(
                (np.concatenate(data), (np.tile(rows, len(pairs)), np.concatenate(cols))),
                shape=(len(digits), len(digits))))
        self.all_six = (digits == digits[:, :1]).all(axis=1) & (digits[:, 0] != 0)
        self.powers = powers
        self._steps: dict[tuple[Cards, Cards], _SideStep] = {}
        self._ids: dict[tuple[int, int], np.ndarray] = {}
        self.outcomes: list[tuple[int, int, str]] = []
        self._index: dict[tuple[int, int, str], int] = {}

    def _step(self, hand: Cards, deck: Cards) -> _SideStep:
        key = (hand, deck)
        hit = self._steps.get(key)
        if hit is None:
            hit = self._steps[key] = _SideStep(hand, deck, self.rules, self.classes)
        return hit

    def _outcome_ids(self, unspent_e: int, unspent_f: int) -> np.ndarray:
        """ids[table]: the final outcome (index in ``outcomes``) of each castle table, by the engine."""
        key = (unspent_e, unspent_f)
        hit = self._ids.get(key)
        if hit is None:
            hit = np.empty(len(self.digits), np.int64)
            for t, row in enumerate(self.digits):
                r = table_result(tuple(_CONTROL[d] for d in row), unspent_e, unspent_f, self.rules)
                outcome = (r.english, r.french, r.winner)
                hit[t] = self._index.setdefault(outcome, len(self.outcomes))
                if hit[t] == len(self.outcomes):
                    self.outcomes.append(outcome)
            self._ids[key] = hit
        return hit

    def value(self, p: Position) -> FloatDistribution:
        """The distribution ``(english, french, winner, rounds after this one)`` from round start ``p``."""
        e, f = p.sides
        start = np.zeros(len(self.digits))
        start[sum(_DIGIT[c] * w for c, w in zip(p.castles, self.powers))] = 1.0
        level: dict[tuple, np.ndarray] = {((e.hand, e.deck), (f.hand, f.deck)): start}
        out: FloatDistribution = defaultdict(float)
        rounds = 0
        while level:
            self.states += len(level)
            ended, level = self._round(level)
            if self.progress:
                self.progress(self.states)
            for o, q in ended.items():
                out[(*self.outcomes[o], rounds)] += q
            rounds += 1
        return {k: v for k, v in out.items() if v > 0}

    def _round(self, level: dict[tuple, np.ndarray]) -> tuple[dict[int, float], dict[tuple, np.ndarray]]:
        """One round from every pair of side states at once; returns the mass ended per outcome
        and the next level (pairs of side states after the draws, each with its castle vector)."""
        states = list(level)
        mass = np.array([level[s] for s in states])  # (states, tables)
        # weights of (remainder pair, outcome pair) from each state: W[o] (keys x states)
        keys: dict[tuple, int] = {}
        info: list[tuple] = []
        rows, cols, outs, data = [], [], [], []
        for s, (se, sf) in enumerate(states):
            e, f = self._step(*se), self._step(*sf)
            ne, nf = len(e.unspent), len(f.unspent)
            # every english class pair against every french one: (remainder pair, outcome pair) sums
            group = (e.remainder[:, None] * nf + f.remainder[None, :]) * 9
            code = group + 3 * self.duel[e.at_x[:, None], f.at_x[None, :]] + self.duel[e.at_y[:, None], f.at_y[None, :]]
            sums = np.bincount(code.ravel(), weights=np.outer(e.weight, f.weight).ravel(), minlength=ne * nf * 9)
            for flat in np.nonzero(sums)[0].tolist():
                pair, o = divmod(flat, 9)
                i, j = divmod(pair, nf)
                k = keys.setdefault((se, i, sf, j), len(keys))
                if k == len(info):
                    info.append((e.unspent[i], f.unspent[j], e.over[i] or f.over[j], e.draws[i], f.draws[j]))
                rows.append(k)
                cols.append(s)
                outs.append(o)
                data.append(sums[flat])
        rows_a, cols_a, outs_a, data_a = np.array(rows), np.array(cols), np.array(outs), np.array(data)
        after = np.zeros((len(keys), mass.shape[1]))
        for o, move in enumerate(self.moves):
            sel = outs_a == o
            if sel.any():
                weights = sparse.csr_matrix((data_a[sel], (rows_a[sel], cols_a[sel])), shape=(len(keys), len(states)))
                after += (move.T @ (weights @ mass).T).T
        # the round's end: all six castles, a side left with at most one card, or the draws
        ended: dict[int, float] = defaultdict(float)
        six = after[:, self.all_six]
        nxt: dict[tuple, np.ndarray] = {}
        for k, (ue, uf, over, draws_e, draws_f) in enumerate(info):
            row = after[k]
            ids = self._outcome_ids(ue, uf)
            for t, q in zip(np.nonzero(self.all_six)[0], six[k]):
                if q:
                    ended[int(ids[t])] += float(q)
            live = np.where(self.all_six, 0.0, row)
            if over:
                for o, q in zip(*_grouped(ids, live)):
                    ended[o] += q
                continue
            for (pe, qe) in draws_e:
                for (pf, qf) in draws_f:
                    target = nxt.get((pe, pf))
                    if target is None:
                        nxt[(pe, pf)] = live * (qe * qf)
                    else:
                        target += live * (qe * qf)
        return ended, {s: v for s, v in nxt.items() if v.any()}


def _grouped(ids: np.ndarray, weights: np.ndarray) -> tuple[list[int], list[float]]:
    """Sums of ``weights`` per outcome id, for the ids with mass."""
    sums = np.bincount(ids, weights=weights)
    nz = np.nonzero(sums)[0]
    return nz.tolist(), sums[nz].tolist()


def _example(cls: int) -> Cards:
    """A placement of that strength class, for the engine's battle rule."""
    return Cards.parse("H") if cls == HERO_CLASS else Cards.from_values({1: cls})
