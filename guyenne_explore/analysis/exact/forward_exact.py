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
reconstruction, no guess.  When ``D`` outgrows the primes, a second pass runs
modulo the primes missing only (the first pass's residues stay right).

The castle tables are merged by the symmetries of the start table as in the
float pass (:class:`.forward.Orbits`); each ended table takes its share of its
orbit's mass, a multiple of ``1 / lcm(orbit sizes)`` (one more factor of ``D``).

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
from typing import TYPE_CHECKING

import numpy as np
from ...engine import Position, Rules
from .forward import ForwardEndgame, Orbits, _Entries, _Post
from ..limits import check_memory

#: (english score, french score, winner, ending, rounds after this one) -> probability
Distribution = dict[tuple[int, int, str, str, int], Fraction]
#: residues are below 2**PRIME_BITS: a product of two fits in int64 with 2**(63 - 2 * PRIME_BITS) terms to spare
PRIME_BITS = 26
_LIMB = 13

if TYPE_CHECKING:
    from scipy import sparse


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
    from scipy import sparse  # loaded by an exact pass only, not by every run's start
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
        #: primes used by the last call (more are taken when a denominator outgrows them)
        self.prime_count = 0

    def value(self, p: Position) -> Distribution:  # type: ignore[override]
        """The distribution ``(english, french, winner, ending, rounds after this one)`` from round start ``p``.

        Residues stay right modulo each prime whatever the denominators grow to; only the Chinese
        remainders need the primes' product above them.  So a first guess that falls short costs a
        second pass over just the primes missing, never a new start."""
        primes = _primes()[:self._primes_needed(p)]
        rounds, largest = self._residues(p, primes, True)
        if prod(primes) <= largest:
            count = len(primes)
            while prod(_primes()[:count]) <= largest:
                count += 1
            extra = _primes()[len(primes):count]
            more, _ = self._residues(p, extra, False)
            assert len(more) == len(rounds), "the passes share their rounds (the denominators say nothing of primes)"
            zeros = np.zeros(len(primes), np.int64), np.zeros(len(extra), np.int64)
            rounds = [({o: np.concatenate([a.get(o, zeros[0]), b.get(o, zeros[1])]) for o in {*a, *b}}, den)
                      for (a, den), (b, _) in zip(rounds, more)]
            primes += extra
        self.prime_count = len(primes)
        out: Distribution = {}
        for r, (ended, ended_den) in enumerate(rounds):
            ids = list(ended)
            if ids:
                for o, num in zip(ids, crt(np.stack([ended[o] for o in ids], axis=1), primes)):
                    if num:
                        out[self.outcomes[o] + (r,)] = Fraction(num, ended_den)
        return out

    def _primes_needed(self, p: Position) -> int:
        """A guess of the primes the common denominator will need: the first round's factor once for
        each round the game can still last (every round spends at least two cards of each side and the
        game ends when a side holds one card or none); a short guess costs a pass over the primes missing."""
        e, f = p.sides
        first = self._step(self._state_id(e.hand, e.deck)).denominator * \
            self._step(self._state_id(f.hand, f.deck)).denominator * self.pairs_xy
        draws = max(comb(s.deck.size, min(s.deck.size, self.rules.hand_size)) for s in p.sides)
        rounds = max(1, min(s.hand.size + s.deck.size for s in p.sides) // 2)
        bits = (first * draws * draws).bit_length()
        return (bits + (rounds - 1) * bits * 3 // 4) // PRIME_BITS + 1

    def _residues(self, p: Position, primes: tuple[int, ...],
                  first: bool) -> tuple[list[tuple[dict[int, np.ndarray], int]], int]:
        """The pass modulo ``primes``: each round's ended mass per outcome id (residues) with its
        denominator, and the largest denominator met (the Chinese remainders need the primes'
        product above it).  ``first``: whether this pass counts the states."""
        e, f = p.sides
        mod = np.array(primes, np.int64)
        orbits = self.orbits(sum(self._digit(c) * w for c, w in zip(p.castles, self.powers)))
        mass = np.zeros((len(primes), 1, len(orbits.size)), np.int64)
        mass[:, 0, orbits.start] = 1
        pairs = np.array([[self._state_id(e.hand, e.deck), self._state_id(f.hand, f.deck)]], np.int64)
        denominator = largest = 1
        rounds = []
        while len(pairs):
            if first:
                self.states += len(pairs)
            ended, ended_den, pairs, mass, denominator = self._exact_round(pairs, mass, denominator, primes, mod,
                                                                             orbits)
            largest = max(largest, ended_den, denominator)
            if self.progress:
                self.progress(self.states)
            rounds.append((ended, ended_den))
        return rounds, largest

    @staticmethod
    def _digit(control: int) -> int:
        from .forward import _DIGIT

        return _DIGIT[control]

    def _exact_round(self, pairs: np.ndarray, mass: np.ndarray, denominator: int, primes: tuple[int, ...],
                     mod: np.ndarray, orbits: Orbits) -> tuple[dict[int, np.ndarray], int, np.ndarray, np.ndarray, int]:
        """One round as in :meth:`.ForwardEndgame._round`, on residues (``mass[k]`` modulo ``primes[k]``),
        over the orbits of castle tables (``orbits``) rather than the tables.

        Returns the ended mass per outcome id (residues) and its denominator, the next pairs, their
        mass and its denominator."""
        k_count, n_pairs, n_orbits = mass.shape
        steps = [(self._step(se), self._step(sf)) for se, sf in pairs.tolist()]
        placing = lcm(*(e.denominator * f.denominator for e, f in steps))
        entries = _Entries()
        for s, (e, f) in enumerate(steps):
            self.tick(s)
            code, bins = entries.codes(e, f, self.duel)
            # the shares' products sum to the two denominators' product: summed exactly in float64
            # while that stays below 2**53, else as Python integers
            if e.denominator * f.denominator < 2 ** 53:
                sums = np.rint(np.bincount(code.ravel(), weights=np.outer(e.shares, f.shares).ravel().astype(float),
                                           minlength=bins)).astype(np.int64)
            else:
                sums = np.zeros(bins, dtype=object)
                np.add.at(sums, code.ravel(), np.outer(e.shares.astype(object), f.shares.astype(object)).ravel())
            entries.add(s, e, f, sums)
        # exact weights over ``placing``: a pair's sums times its factor ``placing // (its denominators)``
        col, u, v, out_pair, weight = entries.arrays()
        factors = [placing // (e.denominator * f.denominator) for e, f in steps]
        keys, key_of = np.unique(u * len(self._posts) + v, return_inverse=True)
        key_u, key_v = np.divmod(keys, len(self._posts))
        spread = _indexed(key_of, col * 9 + out_pair, (len(keys), 9 * n_pairs))
        weight, factor_of = weight[spread.data], col[spread.data]
        check_memory((k_count, n_pairs, 9, n_orbits))
        # the castle map of each outcome pair on the orbits: entries below 2**PRIME_BITS * n (n - 1) * n_orbits
        moved = (mass.reshape(k_count * n_pairs, n_orbits) @ orbits.map).reshape(k_count, n_pairs * 9, n_orbits)
        moved %= mod[:, None, None]
        check_memory((k_count, len(keys), n_orbits))
        after = np.empty((k_count, len(keys), n_orbits), np.int64)
        for k, q in enumerate(primes):
            scaled = (weight % q).astype(np.int64) * np.array([x % q for x in factors], np.int64)[factor_of] % q
            after[k] = _mod_matmul(spread, scaled, moved[k], q)
        carried = denominator * placing * self.pairs_xy
        ended_den = carried * orbits.scale  # a table's share of its orbit's mass is a multiple of 1 / scale
        ended: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(k_count, np.int64))
        sweep_ids = self._outcome_ids(0, 0)
        six = np.nonzero(self.all_six[orbits.rep])[0]  # one table each
        if len(six):
            swept = after[:, :, six].sum(axis=1) % mod[:, None] * (orbits.scale % mod[:, None]) % mod[:, None]
            for t, col_t in zip(six.tolist(), swept.T):
                o = int(sweep_ids[orbits.rep[t]])
                ended[o] = (ended[o] + col_t) % mod
            after[:, :, six] = 0
        posts = self._posts
        done, codes, width, gather = self._game_over(key_u, key_v, np.int64)
        if done.any():
            sums = np.stack([(gather @ after[k][done]) % mod[k] for k in range(k_count)], axis=1).astype(object)
            for c, rows in zip(codes.tolist(), sums):
                ids = self._outcome_ids(*divmod(c, width))
                totals = (rows @ orbits.weights(ids, len(self.outcomes)).astype(object)) % mod[:, None]
                for o in np.nonzero(totals.any(axis=0))[0].tolist():
                    ended[o] = (ended[o] + totals[:, o].astype(np.int64)) % mod
        live = ~done
        key_u, key_v, after = key_u[live], key_v[live], after[:, live]
        if not after.shape[1]:
            return dict(ended), ended_den, np.zeros((0, 2), np.int64), np.zeros((k_count, 0, n_orbits), np.int64), 1
        step1, scale1, mid = _exact_draw_map(key_u, key_v, posts)
        step2, scale2, nxt = _exact_draw_map(mid[:, 0], mid[:, 1], posts)
        check_memory((k_count, len(nxt), n_orbits))
        new = np.empty((k_count, len(nxt), n_orbits), np.int64)
        for k, q in enumerate(primes):
            half = _mod_matmul(step1, (step1.data % q).astype(np.int64), after[k], q)
            new[k] = _mod_matmul(step2, (step2.data % q).astype(np.int64), half, q)
        keep = new.any(axis=(0, 2))
        return dict(ended), ended_den, nxt[keep], new[:, keep], carried * scale1 * scale2


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
    from scipy import sparse  # loaded by an exact pass only, not by every run's start
    m = sparse.csr_matrix((np.arange(1, len(rows) + 1, dtype=np.int64), (rows, cols)), shape=shape)
    m.sort_indices()
    assert m.nnz == len(rows), "entries of a map are distinct"
    m.data = m.data - 1
    return m
