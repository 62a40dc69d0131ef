"""A round of an open-hand endgame as a sequence-form linear program, solved by HiGHS.

The sequence form (Koller, Megiddo and von Stengel) writes a two-player
zero-sum game with imperfect information as one LP whose size is linear in the
game tree, not exponential as the normal form is: F's realisation plan ``x``
(one variable per sequence of F's moves) and one free variable per information
set of S.  With ``E x = e`` (F's plan is a strategy) and ``F y = f`` for S,

    max  q_root   subject to   F^T q - A^T x <= 0,   E x = e,   x >= 0,

where ``A`` holds the payoff of each pair of final sequences.  The optimum is
the round's value for F, ``x`` an equilibrium plan of F and the duals of the
inequalities an equilibrium plan ``y`` of S.

Sequences of a round (X, Y castles; a, d F's sets at X and Y; b, c S's):
F: (X, a) then (X, a, |b|, Y, |c|, d); S: (X, |a|, b) then (X, |a|, b, Y, c).
Every pair of F's plan (a, d) and S's plan (b, c) at castles (X, Y) is one
leaf, so ``A`` has ``blocks * F plans * S plans`` non-zeros.

Many small rounds are stacked into one block-diagonal LP: they are independent,
so maximising the sum of their values maximises each, and one HiGHS call
replaces thousands of small ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from .round import RoundModel


#: a sequence's index: one (reading a solution) or a whole grid of them at once (building the LP)
Index = TypeVar("Index", int, np.ndarray)

#: the LP structure of each round signature seen (its rows, columns and constant entries)
_STRUCTURES: dict[tuple, tuple] = {}


class SolverFailure(RuntimeError):
    """HiGHS did not report an optimum (it should not happen: every round LP is feasible and bounded)."""


@dataclass
class Layout:
    """Index arithmetic of one round's sequences, information sets and LP rows."""

    model: RoundModel
    #: rounds with equal signatures have the same LP but for the payoffs (see :meth:`assemble`)
    signature: tuple | None = None

    def __post_init__(self) -> None:
        m = self.model
        self.nA = len(m.opens)
        self.nB = len(m.answers)
        self.nFP = len(m.f_a)
        self.nSP = len(m.s_b)
        self.nblocks = len(m.blocks)
        size_a = np.array([a.size for a in m.opens])
        self.k_sizes = sorted(set(size_a.tolist()))
        self.K = len(self.k_sizes)
        self.k_of_a = np.searchsorted(self.k_sizes, size_a)
        self.kk_of_fp = self.k_of_a[m.f_a]
        lm = [(m.answers[b].size, c.size) for b, c in zip(m.s_b.tolist(), m.s_c)]
        self.lm_pairs = sorted(set(lm))
        self.nLM = len(self.lm_pairs)
        self.lm_of_sp = np.array([self.lm_pairs.index(p) for p in lm], dtype=np.int64)
        # the castles F opens at in this game (all of them, or one for a subgame after a public choice)
        self.xs = sorted({x for x, _ in m.blocks})
        self.x_index = {x: i for i, x in enumerate(self.xs)}
        self.block_x = np.array([self.x_index[x] for x, _ in m.blocks], dtype=np.int64)
        n = len(self.xs)
        # F sequences: root, (X, a), terminal (block, fp, lm); X counts among ``xs``
        self.f_open = 1
        self.f_term = 1 + n * self.nA
        self.nX = self.f_term + self.nblocks * self.nFP * self.nLM
        # S sequences (= inequality rows): root, (X, kk, b), terminal (block, kk, sp)
        self.s_answer = 1
        self.s_term = 1 + n * self.K * self.nB
        self.nS = self.s_term + self.nblocks * self.K * self.nSP
        # S information sets (q variables): root, (X, kk), (X, kk, b)
        self.q_x = 1
        self.q_b = 1 + n * self.K
        self.nQ = self.q_b + n * self.K * self.nB
        # F information set rows of E: root, open, (block, a, lm)
        self.e_term = 2
        self.nE = 2 + self.nblocks * self.nA * self.nLM

    @property
    def variables(self) -> int:
        return self.nX + self.nQ

    @property
    def nonzeros(self) -> int:
        return self.nblocks * self.nFP * self.nSP

    def f_open_seq(self, x: Index, a: Index) -> Index:
        """F's sequence opening at castle index ``x`` (in ``xs``) with set ``a``."""
        return self.f_open + x * self.nA + a

    def f_term_seq(self, block: Index, fp: Index, lm: Index) -> Index:
        return self.f_term + (block * self.nFP + fp) * self.nLM + lm

    def s_answer_seq(self, x: Index, kk: Index, b: Index) -> Index:
        return self.s_answer + (x * self.K + kk) * self.nB + b

    def s_term_seq(self, block: Index, kk: Index, sp: Index) -> Index:
        return self.s_term + (block * self.K + kk) * self.nSP + sp

    def assemble(self, payoff: np.ndarray) -> tuple[tuple, tuple, np.ndarray]:
        """COO triplets of the inequality and equality matrices and the right-hand side of E.

        ``payoff[block, fp, sp]`` is F's payoff of the leaf.  Variables are ``[x, q]``.  Only the
        payoffs differ between rounds of the same ``signature`` (same plans, same number of
        castles): the rest is built once and kept.
        """
        structure = _STRUCTURES.get(self.signature) if self.signature is not None else None
        if structure is None:
            structure = self._structure()
            if self.signature is not None:
                if len(_STRUCTURES) > 20_000:
                    _STRUCTURES.clear()
                _STRUCTURES[self.signature] = structure
        rows, cols, static, eq, b_eq = structure
        return (rows, cols, np.concatenate([static, -payoff.ravel()])), eq, b_eq

    def _structure(self) -> tuple:
        m, n = self.model, len(self.xs)
        rows, cols, vals = [], [], []
        X = self.nX

        def put(r, c, v):
            r, c = np.broadcast_arrays(np.asarray(r), np.asarray(c))
            rows.append(r.ravel())
            cols.append(c.ravel())
            vals.append(np.broadcast_to(np.asarray(v, dtype=float), r.shape).ravel())

        # root row: q0 - sum q_(X, kk) <= 0
        put(0, X + 0, 1.0)
        put(0, X + self.q_x + np.arange(n * self.K), -1.0)
        # (X, kk, b) rows: q_(X,kk) - q_(X,kk,b) <= 0
        xs, kks, bs = np.meshgrid(np.arange(n), np.arange(self.K), np.arange(self.nB), indexing="ij")
        r = self.s_answer_seq(xs, kks, bs)
        put(r, X + self.q_x + xs * self.K + kks, 1.0)
        put(r, X + self.q_b + (xs * self.K + kks) * self.nB + bs, -1.0)
        # terminal rows: q_(X,kk,b(sp)) - sum_fp A x <= 0
        blocks = np.arange(self.nblocks)
        xb = self.block_x
        bk, kk, sp = np.meshgrid(blocks, np.arange(self.K), np.arange(self.nSP), indexing="ij")
        r = self.s_term_seq(bk, kk, sp)
        put(r, X + self.q_b + (xb[bk] * self.K + kk) * self.nB + m.s_b[sp], 1.0)
        bk, fp, sp = np.meshgrid(blocks, np.arange(self.nFP), np.arange(self.nSP), indexing="ij")
        static = np.concatenate(vals)  # the payoff entries come last, in payoff.ravel() order
        put(self.s_term_seq(bk, self.kk_of_fp[fp], sp), self.f_term_seq(bk, fp, self.lm_of_sp[sp]), 0.0)
        ub_rows, ub_cols = np.concatenate(rows), np.concatenate(cols)

        rows, cols, vals = [], [], []
        put(0, 0, 1.0)
        put(1, 0, -1.0)
        put(1, self.f_open + np.arange(n * self.nA), 1.0)
        bk, a, lm = np.meshgrid(blocks, np.arange(self.nA), np.arange(self.nLM), indexing="ij")
        put(self.e_term + (bk * self.nA + a) * self.nLM + lm, self.f_open_seq(xb[bk], a), -1.0)
        bk, fp, lm = np.meshgrid(blocks, np.arange(self.nFP), np.arange(self.nLM), indexing="ij")
        put(self.e_term + (bk * self.nA + m.f_a[fp]) * self.nLM + lm, self.f_term_seq(bk, fp, lm), 1.0)
        eq = (np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
        b_eq = np.zeros(self.nE)
        b_eq[0] = 1.0
        return ub_rows, ub_cols, static, eq, b_eq


@dataclass
class RoundSolution:
    """A solved round: F's value and both realisation plans."""

    layout: Layout
    value: float
    x: np.ndarray
    y: np.ndarray


def solve_batch(items: list[tuple[Layout, np.ndarray]]) -> list[RoundSolution]:
    """Solve several rounds (layout, F's leaf payoffs) in one block-diagonal LP."""
    from scipy import sparse
    from scipy.optimize import linprog  # scipy.optimize: a second to import, paid by a solve, not by the explorer's start
    ub_parts, eq_parts, beq, offsets = [], [], [], []
    v0 = r0 = e0 = 0
    for layout, payoff in items:
        (ur, uc, uv), (er, ec, ev), b_eq = layout.assemble(payoff)
        # variables of this round (its x then its q) come after the previous rounds'
        ub_parts.append((ur + r0, uc + v0, uv))
        eq_parts.append((er + e0, ec + v0, ev))
        beq.append(b_eq)
        offsets.append((v0, r0))
        v0 += layout.variables
        r0 += layout.nS
        e0 += layout.nE
    a_ub = sparse.csr_matrix((np.concatenate([p[2] for p in ub_parts]),
                              (np.concatenate([p[0] for p in ub_parts]), np.concatenate([p[1] for p in ub_parts]))),
                             shape=(r0, v0))
    a_eq = sparse.csr_matrix((np.concatenate([p[2] for p in eq_parts]),
                              (np.concatenate([p[0] for p in eq_parts]), np.concatenate([p[1] for p in eq_parts]))),
                             shape=(e0, v0))
    c = np.zeros(v0)
    lower = np.zeros(v0)
    for (layout, _), (v, _) in zip(items, offsets):
        c[v + layout.nX] = -1.0
        lower[v + layout.nX: v + layout.variables] = -np.inf
    bounds = np.column_stack([lower, np.full(v0, np.inf)])
    # scipy-stubs types A_ub and A_eq as dense arrays and bounds as pairs; HiGHS takes sparse matrices as
    # they are and an (n, 2) array of bounds
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(r0), A_eq=a_eq, b_eq=np.concatenate(beq), bounds=bounds,  # type: ignore[call-overload]
                  method="highs")
    if res.status != 0:
        raise SolverFailure(f"HiGHS: {res.message}")
    duals = -res.ineqlin.marginals
    out = []
    for (layout, _), (v, r) in zip(items, offsets):
        z = res.x[v: v + layout.variables]
        out.append(RoundSolution(layout, float(z[layout.nX]), np.clip(z[: layout.nX], 0, None),
                                 np.clip(duals[r: r + layout.nS], 0, None)))
    return out
