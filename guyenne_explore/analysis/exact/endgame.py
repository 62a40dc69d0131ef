"""Exact distributions of endgames: round starts from which neither side can reshuffle again.

Once a side has had its last reshuffle (its exhaustions are at L, or at L-1
with cards left in the deck), its discard and removed cards never come back:
only castles, hands and decks matter for the rest of the game.  A round under
the uniform policy then factorises:

- each side's two placements (first at X with a card kept back, then at Y)
  are chosen from its own hand, independently of the other side and of the
  castles; only the remaining hand and each placement's strength class (its sum,
  or "hero") matter;
- X and Y are uniform over the ordered pairs of distinct castles;
- removals, including the loser's ``remove_choice``, touch only cards that are
  gone for good, so they do not change the distribution.

So a round is one small tensor contraction (exact, in integers) instead of an
enumeration of every path, and the draws come from the engine's own chance
outcomes.  Battles are decided by the engine's ``battle_winner``, the
final score by the engine's ``table_result``, how the game ended by its
``ending_without_reshuffle``, the placement limits by its ``placement_choice``
and the end checks by its ``sweeper``, ``hand_size_after_draw`` and
``holds_too_few``; the tests compare every distribution, endings included,
with the engine's enumeration.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import gcd, lcm
from typing import Callable

import numpy as np

from ...engine import (NEUTRAL, OPEN_FIRST, RESPOND_FIRST, RESPOND_SECOND, UNIFORM, Cards, Position, Rules, Side,
                           battle_winner, cannot_reshuffle_again, ending_without_reshuffle, hand_size_after_draw,
                           holds_too_few, placement_choice, side_outcomes, sweeper, table_result)
from ..compiled.encode import unsupported

#: (english score, french score, winner, ending, rounds after this one) -> probability, as in :mod:`..exact`
Distribution = dict[tuple[int, int, str, str, int], Fraction]
#: a placement's strength class: its sum, or HERO_CLASS when it holds a hero (the hero overrides sums)
HERO_CLASS = -1
# outcomes of a battle seen from the first player F: F wins, S wins, tie
F_WINS, S_WINS, TIE = 0, 1, 2


def in_reach(p: Position, policies: tuple[str, str]) -> bool:
    """Whether every round start from ``p`` on is one :class:`Endgame` solves: uniform play of two lone
    sides (it models one hand a side, no team) that can no longer reshuffle."""
    return (all(name == UNIFORM.name for name in policies) and unsupported(p) is None
            and not any(s.is_team for s in p.sides)
            and all(cannot_reshuffle_again(s, p.rules) for s in p.sides))


def applies(p: Position, policies: tuple[str, str]) -> bool:
    """Whether :class:`Endgame` solves ``p``: a round start of an endgame under uniform play."""
    return p.to_play == OPEN_FIRST and in_reach(p, policies)


def _class(cards: Cards) -> int:
    return HERO_CLASS if cards.has_hero else cards.total


class _Placements:
    """A hand's placement pairs, grouped by (remaining hand, class at X, class at Y).

    ``weights[g]`` is the number of pairs in group g, each weighted by
    ``denominator / (m1 * m2(a))`` scaled to integers: the probability of the
    group is ``weights[g] / denominator``.
    """

    def __init__(self, hand: Cards, rules: Rules):
        # the engine's placement limits: at X (opening or answering alike) a card is kept back for Y
        firsts = placement_choice(RESPOND_FIRST, 0, hand, rules).card_sets()
        seconds = [placement_choice(RESPOND_SECOND, 0, hand - a, rules).card_sets() for a in firsts]
        scale = lcm(*(len(s) for s in seconds))
        self.denominator = len(firsts) * scale
        groups: dict[tuple[Cards, int, int], int] = defaultdict(int)
        self.example: dict[int, Cards] = {}
        for a, ds in zip(firsts, seconds):
            ca = _class(a)
            self.example.setdefault(ca, a)
            share = scale // len(ds)
            rest = hand - a
            for d in ds:
                cd = _class(d)
                self.example.setdefault(cd, d)
                groups[(rest - d, ca, cd)] += share
        self.remainders = sorted({g[0] for g in groups})
        self.sizes = np.array([r.size for r in self.remainders])
        self.classes = sorted(self.example)
        ri = {r: i for i, r in enumerate(self.remainders)}
        ci = {c: i for i, c in enumerate(self.classes)}
        self.table = np.zeros((len(self.remainders), len(self.classes), len(self.classes)), dtype=object)
        for (r, ca, cd), w in groups.items():
            self.table[ri[r], ci[ca], ci[cd]] = w


@lru_cache(maxsize=4096)
def _placements(hand: Cards, rules: Rules) -> _Placements:
    return _Placements(hand, rules)


@lru_cache(maxsize=16384)
def _cannot_play_on_after_draw(kept: Cards, deck: Cards, rules: Rules) -> bool:
    """Whether a side that can never reshuffle again, keeping ``kept`` with ``deck`` left, holds too
    few cards after its draw to play on (the engine's one-card end check)."""
    side = Side(hands=(kept,), deck=deck, exhaustions=rules.exhaustion_limit)
    return holds_too_few(hand_size_after_draw(side, rules))


@lru_cache(maxsize=16384)
def _round_table(hand_f: Cards, hand_s: Cards, first: int, rules: Rules,
                 pairs: int) -> tuple[_Placements, _Placements, np.ndarray]:
    """F's and S's placements and ``table[i, j, ox, oy]``: the integer weight of F keeping remainder
    i and S keeping j with outcome ox at X and oy at Y, over ``fp.denominator * sp.denominator``.

    Integers are int64 when no sum can overflow (``pairs`` (X, Y) pairs are added later), else
    Python integers: exact either way."""
    fp, sp = _placements(hand_f, rules), _placements(hand_s, rules)
    duel = _duel(fp, sp, first)
    dtype = np.int64 if fp.denominator * sp.denominator * pairs < 2 ** 62 else object
    step = np.einsum("iad,abx->idbx", fp.table.astype(dtype), duel.astype(dtype))
    return fp, sp, np.einsum("idbx,jbc,dcy->ijxy", step, sp.table.astype(dtype), duel.astype(dtype))


def _duel(f: _Placements, s: _Placements, first: int) -> np.ndarray:
    """compare[a, b, o]: 1 when F's class a against S's class b ends with outcome o (by the engine)."""
    out = np.zeros((len(f.classes), len(s.classes), 3), dtype=object)
    for i, ca in enumerate(f.classes):
        for j, cb in enumerate(s.classes):
            fa, sb = f.example[ca], s.example[cb]
            e, fr = (fa, sb) if first == 0 else (sb, fa)
            w = battle_winner(NEUTRAL, e, fr)  # sums and heroes only: control does not decide a winner
            out[i, j, TIE if w is None else (F_WINS if w == first else S_WINS)] = 1
    return out


@lru_cache(maxsize=4096)
def _configs(castles: tuple[int, ...], first: int) -> tuple[list[tuple[int, ...]], np.ndarray, np.ndarray]:
    """The castles after the round: the distinct tables, how many (X, Y) pairs give each table for
    each pair of battle outcomes (``counts[table, 3 * ox + oy]``), and which tables are all six."""
    who = {F_WINS: first, S_WINS: 1 - first, TIE: None}
    n = len(castles)
    index: dict[tuple[int, ...], int] = {}
    entries = []
    for ox, oy in product((F_WINS, S_WINS, TIE), repeat=2):
        for x in range(n):
            for y in range(n):
                if x == y:
                    continue
                new = list(castles)
                for c, o in ((x, ox), (y, oy)):
                    if who[o] is not None:
                        new[c] = who[o]  # type: ignore[assignment]
                entries.append((index.setdefault(tuple(new), len(index)), 3 * ox + oy))
    counts = np.zeros((len(index), 9), np.int64)
    for t, o in entries:
        counts[t, o] += 1
    tables = list(index)
    all_six = np.array([sweeper(t) is not None for t in tables])
    return tables, counts, all_six


class Endgame:
    """Exact values of endgame round starts under uniform play, memoised on what still matters."""

    def __init__(self, rules: Rules, progress: Callable[[int], None] | None = None):
        self.rules = rules
        #: told the number of states solved every 200 states (it may raise to cancel)
        self.progress = progress
        self.memo: dict[tuple, tuple[int, dict[tuple[int, int, str, str, int], int]]] = {}
        self.drawn_memo: dict[tuple, tuple[int, dict[tuple[int, int, str, str, int], int]]] = {}
        #: final outcomes (english, french, winner, ending) seen so far, and their indexes
        self.outcomes: list[tuple[int, int, str, str]] = []
        self._index: dict[tuple[int, int, str, str], int] = {}
        self._ids: dict[tuple, np.ndarray] = {}
        # per-solver caches (bound methods: they go away with the solver)
        self._result = lru_cache(maxsize=None)(self._score)
        self._draws = lru_cache(maxsize=None)(self._draw)

    # ------------------------------------------------------------------ helpers
    def _score(self, castles: tuple[int, ...], unspent_e: int, unspent_f: int) -> tuple[int, int, str, str]:
        """The engine's score of a finished table (only castles and unspent card counts matter) and
        how the game ended there."""
        r = table_result(castles, unspent_e, unspent_f, self.rules)
        return r.english, r.french, r.winner, ending_without_reshuffle(castles)

    def _outcome_ids(self, castles: tuple[int, ...], first: int, classes: tuple[tuple[int, int], ...]) -> np.ndarray:
        """ids[t, c]: the final outcome (index in ``self.outcomes``) of castles ending as table t
        with unspent cards of class c (a pair english, french), by the engine's score."""
        key = (castles, first, classes)
        hit = self._ids.get(key)
        if hit is None:
            tables, _, _ = _configs(castles, first)
            hit = np.zeros((len(tables), len(classes)), np.int64)
            for t, table in enumerate(tables):
                for c, (unspent_e, unspent_f) in enumerate(classes):
                    outcome = self._result(table, unspent_e, unspent_f)
                    hit[t, c] = self._index.setdefault(outcome, len(self.outcomes))
                    if hit[t, c] == len(self.outcomes):
                        self.outcomes.append(outcome)
            self._ids[key] = hit
        return hit

    def _draw(self, hand: Cards, deck: Cards) -> tuple[tuple[Cards, Cards, Fraction], ...]:
        """(new hand, new deck, probability) of a frozen side's draw, from the engine's chance outcomes."""
        side = Side(hands=(hand,), deck=deck, exhaustions=self.rules.exhaustion_limit)
        return tuple((hand + drawn, deck - drawn, pr) for drawn, pr in side_outcomes(side, self.rules))

    @property
    def states(self) -> int:
        """Round starts solved so far."""
        return len(self.memo)

    # ------------------------------------------------------------------ solving
    def value(self, p: Position) -> Distribution:
        """The distribution ``(english, french, winner, ending, rounds after this one)`` from round start ``p``."""
        e, f = p.sides
        den, nums = self._solve(p.castles, p.first, e.hand, f.hand, e.deck, f.deck)
        return {o: Fraction(n, den) for o, n in nums.items()}

    def _round(self, castles: tuple[int, ...], first: int, hands: tuple[Cards, Cards],
               decks: tuple[Cards, Cards]) -> tuple[int, dict, dict]:
        """The round's ends as integer weights over one denominator.

        Returns ``(denominator, ended, going)``: ``ended[(english, french, winner, ending)]`` for
        games that end with this round, ``going[(castles, hand_e, hand_f)]`` (hands before
        the draw) for games that go on.
        """
        rules = self.rules
        n = len(castles)
        fp, sp, table = _round_table(hands[first], hands[1 - first], first, rules, n * (n - 1))
        dtype = table.dtype
        sizes = [fp.sizes, sp.sizes] if first == 0 else [sp.sizes, fp.sizes]
        grid = [sizes[0][:, None] if first == 0 else sizes[0][None, :],
                sizes[1][None, :] if first == 0 else sizes[1][:, None]]  # side e/f sizes on the (i, j) grid
        # the hand after the draw has a known size: the end does not depend on which cards come
        short_f = np.array([_cannot_play_on_after_draw(r, decks[first], rules) for r in fp.remainders])
        short_s = np.array([_cannot_play_on_after_draw(r, decks[1 - first], rules) for r in sp.remainders])
        ends = short_f[:, None] | short_s[None, :]
        unspent_e = np.broadcast_to(grid[0] + decks[0].size, table.shape[:2])
        unspent_f = np.broadcast_to(grid[1] + decks[1].size, table.shape[:2])
        unspent = list(zip(unspent_e.ravel().tolist(), unspent_f.ravel().tolist()))
        classes = sorted(set(unspent))
        unspent_class = np.array([classes.index(u) for u in unspent]).reshape(ends.shape)
        tables, counts, all_six = _configs(castles, first)
        # by_table[t, i, j]: weight of the castles ending as table t with remainders i, j
        by_table = np.tensordot(counts.astype(dtype), table.reshape(*ends.shape, 9), axes=([1], [2]))
        going: dict[tuple[tuple[int, ...], Cards, Cards], int] = defaultdict(int)
        # games ending with this round, summed per final outcome in one vector operation
        ids = self._outcome_ids(castles, first, tuple(classes))
        totals = np.zeros(len(self.outcomes), dtype=dtype)
        rest = np.nonzero(~all_six)[0]
        np.add.at(totals, ids[rest][:, unspent_class[ends]], by_table[rest][:, ends])
        for t in np.nonzero(all_six)[0]:  # all six: the game ends whatever the hands
            totals[ids[t, 0]] += by_table[t].sum()
        ended = {self.outcomes[o]: int(totals[o]) for o in np.nonzero(totals)[0]}
        live = np.where(ends[None, :, :], 0, by_table[rest])
        for r, i, j in zip(*np.nonzero(live)):
            rem_f_side, rem_s_side = fp.remainders[i], sp.remainders[j]
            rem_e, rem_f = (rem_f_side, rem_s_side) if first == 0 else (rem_s_side, rem_f_side)
            going[(tables[rest[r]], rem_e, rem_f)] += int(live[r, i, j])
        return fp.denominator * sp.denominator * n * (n - 1), ended, going

    def _drawn(self, castles: tuple[int, ...], first: int, rem_e: Cards, rem_f: Cards,
               deck_e: Cards, deck_f: Cards) -> tuple[int, dict[tuple[int, int, str, str, int], int]]:
        """The distribution from the end of a round, before the draws (memoised: rounds that
        end alike, from different starts, share it)."""
        key = (castles, first, rem_e, rem_f, deck_e, deck_f)
        hit = self.drawn_memo.get(key)
        if hit is not None:
            return hit
        terms = []
        for he, de, pe in self._draws(rem_e, deck_e):
            for hf, df, pf in self._draws(rem_f, deck_f):
                terms.append((pe * pf, self._solve(castles, first, he, hf, de, df)))
        common = lcm(*(q.denominator * child_den for q, (child_den, _) in terms))
        nums: dict[tuple[int, int, str, str, int], int] = defaultdict(int)
        for q, (child_den, child_nums) in terms:
            factor = q.numerator * (common // (q.denominator * child_den))
            for o, v in child_nums.items():
                nums[o] += factor * v
        g = gcd(common, *nums.values())
        result = (common // g, {o: v // g for o, v in nums.items() if v})
        self.drawn_memo[key] = result
        return result

    def _solve(self, castles: tuple[int, ...], first: int, hand_e: Cards, hand_f: Cards,
               deck_e: Cards, deck_f: Cards) -> tuple[int, dict[tuple[int, int, str, str, int], int]]:
        """``(denominator, numerators)`` of the distribution: integers, so merging needs no gcd per term."""
        key = (castles, first, hand_e, hand_f, deck_e, deck_f)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        decks = (deck_e, deck_f)
        denominator, ended, going = self._round(castles, first, (hand_e, hand_f), decks)
        nums: dict[tuple[int, int, str, str, int], int] = defaultdict(int)
        for outcome, w in ended.items():
            nums[outcome + (0,)] += w
        # the games going on: the next round's distribution, reached with probability w / denominator
        terms = [(w, self._drawn(config, 1 - first, rem_e, rem_f, deck_e, deck_f))
                 for (config, rem_e, rem_f), w in going.items()]
        common = lcm(denominator, *(denominator * child_den for _, (child_den, _) in terms))
        scale = common // denominator
        for o in nums:
            nums[o] *= scale
        for w, (child_den, child_nums) in terms:
            factor = w * (common // (denominator * child_den))
            for (e, f, winner, end, k), v in child_nums.items():
                nums[(e, f, winner, end, k + 1)] += factor * v
        g = gcd(common, *nums.values())
        result = (common // g, {o: v // g for o, v in nums.items() if v})
        self.memo[key] = result
        if self.progress and len(self.memo) % 200 == 0:
            self.progress(len(self.memo))
        return result
