"""Endgame distributions in exact fractions by the float pass's own forward pass, in modular integers.

:class:`.forward.ForwardEndgame` sums an endgame round by round with the castle
tables as a vector, in float64.  Every probability of that pass is a fraction,
and all the mass that reaches one point of the pass has one common denominator:
the product, over the rounds so far, of

- the least common multiple of the two sides' placement denominators over the
  pairs of side states of the round (each side's placements are integer shares
  over its own denominator, :class:`.endgame._Placements`),
- the number of ordered castle pairs (X, Y),
- each side's least common multiple of its draw probabilities' denominators.

So the same pass runs on integer numerators over that known denominator ``D``.
Those numerators outgrow int64 within two rounds; they are carried instead as
residues modulo several primes below 2**26 (int64 arrays, one more axis), where
every product of two residues fits with room for thousands of terms in a sum.
A numerator lies between 0 and ``D``, so once the product of the primes
exceeds ``D`` the Chinese remainder theorem gives it back exactly: no rational
reconstruction, no guess.  When ``D`` outgrows the primes the pass starts again
with more of them.

Battles, draws and scores come from the engine exactly as in the float pass
(they share its side steps, post states and outcome tables); the tests compare
every distribution with :class:`.endgame.Endgame` for equality.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm, prod

import numpy as np
from numba import njit
from scipy import sparse

from ...engine_api import Position, Rules
from .forward import ForwardEndgame, _Post
from ..limits import check_memory

#: (english score, french score, winner, rounds after this one) -> probability
Distribution = dict[tuple[int, int, str, int], Fraction]
#: residues are below 2**PRIME_BITS: a product of two fits in int64 with 2**(63 - 2 * PRIME_BITS) terms to spare
PRIME_BITS = 26
_LIMB = 13


@lru_cache(maxsize=1)
def _primes(count: int = 64) -> tuple[int, ...]:
    """The largest ``count`` primes below ``2**PRIME_BITS`` (trial division by a small sieve)."""
    top = 2 ** PRIME_BITS
    small = [q for q in range(2, int(top ** 0.5) + 1) if all(q % d for d in range(2, int(q ** 0.5) + 1))]
    out: list[int] = []
    c = top - 1
    while len(out) < count:
        if all(c % q for q in small):
            out.append(c)
        c -= 2
    return tuple(out)


class _MorePrimes(Exception):
    """The common denominator outgrew the product of the primes: start again with more."""

    def __init__(self, bits: int):
        super().__init__(bits)
        self.bits = bits


def crt(residues: np.ndarray, primes: tuple[int, ...]) -> list[int]:
    """The integers in ``[0, prod(primes))`` with these residues (``residues[k, i]`` modulo ``primes[k]``)."""
    modulus = prod(primes)
    coefficients = []
    for q in primes:
        rest = modulus // q
        coefficients.append(rest * pow(rest, -1, q))
    cols = residues.T.tolist()
    return [sum(c * r for c, r in zip(coefficients, col)) % modulus for col in cols]


def _mod_matmul(m: sparse.csr_matrix, data: np.ndarray, dense: np.ndarray, q: int) -> np.ndarray:
    """``(m with data) @ dense`` modulo q, exactly: entries of ``data`` and ``dense`` below q.

    A row of up to 2**(63 - 2 * PRIME_BITS) entries sums in int64 directly; a longer one splits
    the data into two halves of _LIMB bits first."""
    width = int(np.diff(m.indptr).max(initial=0))
    if width < 2 ** (62 - 2 * PRIME_BITS):
        return (sparse.csr_matrix((data, m.indices, m.indptr), shape=m.shape) @ dense) % q
    high, low = np.divmod(data, 2 ** _LIMB)
    hi = (sparse.csr_matrix((high, m.indices, m.indptr), shape=m.shape) @ dense) % q
    lo = (sparse.csr_matrix((low, m.indices, m.indptr), shape=m.shape) @ dense) % q
    return (hi * 2 ** _LIMB + lo) % q


class ExactForwardEndgame(ForwardEndgame):
    """Endgame distributions under uniform play in exact fractions, by the forward pass (see the module)."""

    def __init__(self, rules: Rules, progress: Callable[[int], None] | None = None):
        super().__init__(rules, progress)
        n = rules.castles
        self.pairs_xy = n * (n - 1)
        # the castle maps by marginals: a table's index without one castle's digit, without two
        powers = 3 ** np.arange(n - 1, -1, -1)
        digits = self.digits
        self.drop1 = np.stack([np.delete(digits, x, axis=1) @ powers[1:] for x in range(n)])
        pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
        self.pair_of = np.full((n, n), -1, np.int64)
        for i, (x, y) in enumerate(pairs):
            self.pair_of[x, y] = self.pair_of[y, x] = i
        self.drop2 = np.stack([np.delete(digits, [x, y], axis=1) @ powers[2:] for x, y in pairs]) \
            if n >= 2 else np.zeros((0, len(digits)), np.int64)
        #: primes used by the last call (more are taken when a denominator outgrows them)
        self.prime_count = 0

    def value(self, p: Position) -> Distribution:  # type: ignore[override]
        """The distribution ``(english, french, winner, rounds after this one)`` from round start ``p``."""
        count = self._primes_needed(p)
        while True:
            try:
                self.prime_count = count
                return self._value(p, _primes()[:count])
            except _MorePrimes as more:
                count = max(count + 1, more.bits * count // (more.bits - 1) // PRIME_BITS + 2)

    def _primes_needed(self, p: Position) -> int:
        """A guess of the primes the common denominator will need: the first round's factor once for
        each round the game can still last (every round spends at least two cards of each side and the
        game ends when a side holds one card or none); a wrong guess costs a second pass."""
        e, f = p.sides
        first = self._step(self._state_id(e.hand, e.deck)).denominator * \
            self._step(self._state_id(f.hand, f.deck)).denominator * self.pairs_xy
        draws = max(comb(s.deck.size, min(s.deck.size, self.rules.hand_size)) for s in p.sides)
        rounds = max(1, min(s.hand.size + s.deck.size for s in p.sides) // 2)
        bits = (first * draws * draws).bit_length()
        return (bits + (rounds - 1) * bits * 3 // 4) // PRIME_BITS + 1

    def _value(self, p: Position, primes: tuple[int, ...]) -> Distribution:
        e, f = p.sides
        mod = np.array(primes, np.int64)
        capacity = prod(primes)
        mass = np.zeros((len(primes), 1, len(self.digits)), np.int64)
        mass[:, 0, sum(self._digit(c) * w for c, w in zip(p.castles, self.powers))] = 1
        pairs = np.array([[self._state_id(e.hand, e.deck), self._state_id(f.hand, f.deck)]], np.int64)
        denominator = 1
        out: Distribution = {}
        rounds = 0
        while len(pairs):
            self.states += len(pairs)
            ended, ended_den, pairs, mass, denominator = self._exact_round(pairs, mass, denominator, primes, mod)
            if max(ended_den, denominator) >= capacity:
                raise _MorePrimes(max(ended_den, denominator).bit_length())
            if self.progress:
                self.progress(self.states)
            ids = list(ended)
            if ids:
                for o, num in zip(ids, crt(np.stack([ended[o] for o in ids], axis=1), primes)):
                    if num:
                        out[(*self.outcomes[o], rounds)] = Fraction(num, ended_den)
            rounds += 1
        return out

    @staticmethod
    def _digit(control: int) -> int:
        from .forward import _DIGIT

        return _DIGIT[control]

    def _exact_round(self, pairs: np.ndarray, mass: np.ndarray, denominator: int, primes: tuple[int, ...],
                     mod: np.ndarray) -> tuple[dict[int, np.ndarray], int, np.ndarray, np.ndarray, int]:
        """One round as in :meth:`.ForwardEndgame._round`, on residues (``mass[k]`` modulo ``primes[k]``).

        Returns the ended mass per outcome id (residues) and its denominator, the next pairs, their
        mass and its denominator."""
        k_count, n_pairs, n_tables = mass.shape
        steps = [(self._step(se), self._step(sf)) for se, sf in pairs.tolist()]
        placing = lcm(*(e.denominator * f.denominator for e, f in steps))
        cols, us, vs, outs, data = [], [], [], [], []
        entries = 0
        for s, (e, f) in enumerate(steps):
            ne, nf = len(e.post), len(f.post)
            entries += ne * nf * 9
            check_memory((entries, 5))  # the five weight arrays below, before they outgrow the machine
            group = (e.remainder[:, None] * nf + f.remainder[None, :]) * 9
            code = group + 3 * self.duel[e.at_x[:, None], f.at_x[None, :]] + self.duel[e.at_y[:, None], f.at_y[None, :]]
            # the shares' products sum to the two denominators' product: int64 when that fits
            dtype = np.int64 if e.denominator * f.denominator < 2 ** 63 else object
            shares = np.outer(e.shares.astype(dtype), f.shares.astype(dtype))
            sums = np.zeros(ne * nf * 9, dtype=dtype)
            np.add.at(sums, code.ravel(), shares.ravel())
            flat = np.nonzero(sums)[0]
            pair, o = np.divmod(flat, 9)
            i, j = np.divmod(pair, nf)
            cols.append(np.full(len(flat), s))
            us.append(e.post[i])
            vs.append(f.post[j])
            outs.append(o)
            data.append(sums[flat].astype(object) * (placing // (e.denominator * f.denominator)))
        col, u, v, out_pair = (np.concatenate(x) for x in (cols, us, vs, outs))
        weight = np.concatenate(data)  # exact Python integers over ``placing``
        keys, key_of = np.unique(u * len(self._posts) + v, return_inverse=True)
        key_u, key_v = np.divmod(keys, len(self._posts))
        spread = _indexed(key_of, col * 9 + out_pair, (len(keys), 9 * n_pairs))
        weight = weight[spread.data]
        check_memory((k_count, n_pairs, 9, n_tables))
        moved = np.empty((k_count, n_pairs, 9, n_tables), np.int64)
        _castle_map(mass, self.digits, self.drop1, self.drop2, self.pair_of, mod, moved)
        check_memory((k_count, len(keys), n_tables))
        after = np.empty((k_count, len(keys), n_tables), np.int64)
        for k, q in enumerate(primes):
            after[k] = _mod_matmul(spread, (weight % q).astype(np.int64), moved[k].reshape(9 * n_pairs, n_tables), q)
        ended_den = denominator * placing * self.pairs_xy
        ended: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(k_count, np.int64))
        sweep_ids = self._outcome_ids(0, 0)
        six = np.nonzero(self.all_six)[0]
        if len(six):
            swept = after[:, :, six].sum(axis=1) % mod[:, None]
            for t, col_t in zip(six.tolist(), swept.T):
                o = int(sweep_ids[t])
                ended[o] = (ended[o] + col_t) % mod
            after[:, :, six] = 0
        posts = self._posts
        done, codes, width, gather = self._game_over(key_u, key_v, np.int64)
        if done.any():
            for k in range(k_count):
                sums = (gather @ after[k][done]) % mod[k]
                for c, row in zip(codes.tolist(), sums):
                    ids = self._outcome_ids(*divmod(c, width))
                    totals = np.zeros(len(self.outcomes), np.int64)
                    np.add.at(totals, ids, row)
                    for o in np.nonzero(totals)[0].tolist():
                        ended[o][k] = (ended[o][k] + totals[o]) % mod[k]
        live = ~done
        key_u, key_v, after = key_u[live], key_v[live], after[:, live]
        if not after.shape[1]:
            return dict(ended), ended_den, np.zeros((0, 2), np.int64), np.zeros((k_count, 0, n_tables), np.int64), 1
        step1, scale1, mid = _exact_draw_map(key_u, key_v, posts)
        step2, scale2, nxt = _exact_draw_map(mid[:, 0], mid[:, 1], posts)
        check_memory((k_count, len(nxt), n_tables))
        new = np.empty((k_count, len(nxt), n_tables), np.int64)
        for k, q in enumerate(primes):
            half = _mod_matmul(step1, (step1.data % q).astype(np.int64), after[k], q)
            new[k] = _mod_matmul(step2, (step2.data % q).astype(np.int64), half, q)
        keep = new.any(axis=(0, 2))
        return dict(ended), ended_den, nxt[keep], new[:, keep], ended_den * scale1 * scale2


def _exact_draw_map(own: np.ndarray, other: np.ndarray,
                    posts: list[_Post]) -> tuple[sparse.csr_matrix, int, np.ndarray]:
    """The draw of one side as in :func:`.forward._draw_map`, with integer entries over a common
    denominator (returned): the map, the denominator and the new rows' ``[other, own state]``."""
    counts = np.array([len(posts[x].targets) for x in own.tolist()], np.int64)
    targets = np.concatenate([posts[x].targets for x in own.tolist()])
    fractions = [q for x in own.tolist() for q in posts[x].fractions]
    scale = lcm(*(q.denominator for q in fractions))
    source = np.repeat(np.arange(len(own)), counts)
    other_rep = np.repeat(other, counts)
    width = int(targets.max(initial=0)) + 1
    rows, row_of = np.unique(other_rep * width + targets, return_inverse=True)
    numerators = np.array([q.numerator * (scale // q.denominator) for q in fractions], dtype=object)
    m = _indexed(row_of, source, (len(rows), len(own)))
    m.data = numerators[m.data]
    new_other, new_own = np.divmod(rows, width)
    return m, scale, np.stack([new_other, new_own], axis=1)


def _indexed(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]) -> sparse.csr_matrix:
    """A CSR structure of distinct ``(rows[i], cols[i])`` whose data holds each entry's index i, so
    that exact (object) values can follow the entries into scipy's order."""
    m = sparse.csr_matrix((np.arange(1, len(rows) + 1, dtype=np.int64), (rows, cols)), shape=shape)
    m.sort_indices()
    assert m.nnz == len(rows), "entries of a map are distinct"
    m.data = m.data - 1
    return m


@njit(cache=True)
def _castle_map(mass, digits, drop1, drop2, pair_of, mod, out):  # pragma: no cover - compiled
    """``out[k, s, 3 * ox + oy]``: the castle tables of ``mass[k, s]`` after the two battles with outcomes
    ox at X and oy at Y, summed over the ordered pairs (X, Y) of distinct castles, modulo ``mod[k]``.

    This is :attr:`.ForwardEndgame.moves` (times the number of pairs) by marginals: a decisive outcome
    at a castle sends the mass summed over that castle's digit to the winner's digit; a tie leaves it.
    """
    k_count, n_pairs, n_tables = mass.shape
    n = digits.shape[1]
    m1 = np.zeros((n, n_tables // 3), np.int64)
    m2 = np.zeros((drop2.shape[0], max(1, n_tables // 9)), np.int64)
    for k in range(k_count):
        q = mod[k]
        inverse = 1.0 / q
        for s in range(n_pairs):
            m = mass[k, s]
            m1[:] = 0
            m2[:] = 0
            for t in range(n_tables):
                v = m[t]
                if v == 0:
                    continue
                for x in range(n):
                    m1[x, drop1[x, t]] += v
                for i in range(drop2.shape[0]):
                    m2[i, drop2[i, t]] += v
            o = out[k, s]
            o[:] = 0
            for t in range(n_tables):
                o[8, t] = m[t] * (n * (n - 1))
                for x in range(n):
                    dx = digits[t, x]
                    if dx == 0:
                        continue
                    single = (n - 1) * m1[x, drop1[x, t]]
                    o[3 * (dx - 1) + 2, t] += single
                    o[6 + dx - 1, t] += single
                    for y in range(x + 1, n):
                        dy = digits[t, y]
                        if dy == 0:
                            continue
                        i = pair_of[x, y]
                        both = m2[i, drop2[i, t]]  # (X, Y) = (x, y) and (y, x)
                        o[3 * (dx - 1) + dy - 1, t] += both
                        o[3 * (dy - 1) + dx - 1, t] += both
            for r in range(9):
                for t in range(n_tables):
                    v = o[r, t]
                    v -= np.int64(v * inverse) * q  # the float quotient is off by at most one
                    if v < 0:
                        v += q
                    elif v >= q:
                        v -= q
                    o[r, t] = v
