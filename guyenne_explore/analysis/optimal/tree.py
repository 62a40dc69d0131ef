"""The whole endgame as the engine plays it: an explicit game tree, for checking the round solver.

Here nothing is compact: every move comes from ``Position.legal_moves``, every
step from ``Position.apply``, every end from ``Position.result``, and what a
side knows at a decision is everything it has seen: its own moves, the castle
and the number of cards of each face-down placement of the other side, and
every card once a battle is revealed (perfect recall).  On tiny endgames this
tree is solved three independent ways (tests and benchmark): as one
sequence-form LP of the whole game, as a brute-force normal form (every pure
strategy of each side), and by OpenSpiel's CFR+ on the same tree written as a
Gambit EFG file.  :class:`~.optimal.OptimalSolver` must agree with all three.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Iterator

import numpy as np

from ...engine import ENGLISH, OPEN_FIRST, OPEN_SECOND, RESPOND_FIRST, RESPOND_SECOND, Move, Position
from .solver import english_payoff

SEEN_AS_COUNT = (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND)


@dataclass
class Node:
    """A decision of ``player`` at information set ``info`` or, with no player, a leaf worth ``value``."""

    player: int | None = None
    info: tuple = ()
    moves: list[Move] = field(default_factory=list)
    children: list["Node"] = field(default_factory=list)
    value: float = 0.0


def build_tree(p: Position, objective: str = "win") -> Node:
    """The game tree below ``p``, a position of an endgame where no side can draw."""
    return _build(p, objective, ((), ()))


def _build(p: Position, objective: str, seen: tuple[tuple, tuple]) -> Node:
    while p.is_chance:
        outcomes = p.chance_outcomes()
        if len(outcomes) != 1:
            raise ValueError("a side can still draw: the tree covers endgames without draws only")
        p = p.apply_outcome(outcomes[0][0])
    if p.is_over:
        return Node(value=english_payoff(p.result(), objective))
    side = p.side_to_play
    assert side is not None
    moves = list(p.legal_moves)
    node = Node(side, (p.to_play, seen[side]), moves)
    for m in moves:
        mine = seen[side] + ((p.to_play, m.text()),)
        theirs = seen[1 - side] + ((p.to_play, m.castle, m.cards.size) if p.to_play in SEEN_AS_COUNT
                                   else (p.to_play, m.text()),)
        if p.to_play == RESPOND_SECOND:  # the four placements are revealed
            placed = p.placed.put(side, 1, m.cards)
            shown = ("shown",) + tuple(str(placed.at(s, b)) for s in (0, 1) for b in (0, 1))
            mine, theirs = mine + (shown,), theirs + (shown,)
        pair = (mine, theirs) if side == ENGLISH else (theirs, mine)
        node.children.append(_build(p.apply(m), objective, pair))
    return node


def leaves(node: Node) -> Iterator[Node]:
    if node.player is None:
        yield node
    for c in node.children:
        yield from leaves(c)


# ---------------------------------------------------------------------- sequence form of the whole tree
def solve_tree(root: Node) -> float:
    """English's equilibrium value of the tree, by one sequence-form LP (HiGHS)."""
    from scipy import sparse
    from scipy.optimize import linprog  # scipy.optimize: a second to import, paid by a solve, not by the explorer's start
    seqs: list[dict] = [{(): 0}, {(): 0}]
    infos: list[dict] = [{}, {}]
    payoff: dict[tuple[int, int], float] = {}

    def walk(node: Node, last: list[tuple]) -> None:
        if node.player is None:
            key = (seqs[0][last[0]], seqs[1][last[1]])
            payoff[key] = payoff.get(key, 0.0) + node.value
            return
        pl = node.player
        infos[pl].setdefault(node.info, (last[pl], [m.text() for m in node.moves]))
        for m, child in zip(node.moves, node.children):
            s = (node.info, m.text())
            seqs[pl].setdefault(s, len(seqs[pl]))
            nxt = list(last)
            nxt[pl] = s
            walk(child, nxt)

    walk(root, [(), ()])
    nx, ny = len(seqs[0]), len(seqs[1])
    ni_f = len(infos[1])
    # variables: x (english sequences), q (french information sets + root)
    fi = {info: i + 1 for i, info in enumerate(infos[1])}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []

    def put(r: int, c: int, v: float) -> None:
        rows.append(r)
        cols.append(c)
        vals.append(v)

    # french sequence constraints: q_(info of seq) - sum q_(infos after seq) - (A^T x)_seq >= ... (min player)
    # english maximises v = q_root with q_root - sum ... <= A^T x for each french sequence
    for info, (parent, moves) in infos[1].items():
        for mv in moves:
            r = seqs[1][(info, mv)]
            put(r, nx + fi[info], 1.0)
        put(seqs[1][parent], nx + fi[info], -1.0)
    put(0, nx, 1.0)
    for (sx, sy), v in payoff.items():
        put(sy, sx, -v)
    a_ub = sparse.csr_matrix((vals, (rows, cols)), shape=(ny, nx + ni_f + 1))
    er, ec, ev = [0], [0], [1.0]

    def put_eq(r: int, c: int, v: float) -> None:
        er.append(r)
        ec.append(c)
        ev.append(v)

    for i, (info, (parent, moves)) in enumerate(infos[0].items()):
        put_eq(i + 1, seqs[0][parent], -1.0)
        for mv in moves:
            put_eq(i + 1, seqs[0][(info, mv)], 1.0)
    a_eq = sparse.csr_matrix((ev, (er, ec)), shape=(len(infos[0]) + 1, nx + ni_f + 1))
    b_eq = np.zeros(len(infos[0]) + 1)
    b_eq[0] = 1.0
    c = np.zeros(nx + ni_f + 1)
    c[nx] = -1.0
    bounds = [(0, None)] * nx + [(None, None)] * (ni_f + 1)
    # scipy-stubs types A_ub and A_eq as dense arrays; HiGHS takes sparse matrices as they are
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(ny), A_eq=a_eq, b_eq=b_eq, bounds=bounds,  # type: ignore[call-overload]
                  method="highs")
    assert res.status == 0 and res.fun is not None, res.message
    return float(-res.fun)


# ---------------------------------------------------------------------- normal form, brute force
def information_sets(root: Node) -> list[dict[tuple, list[str]]]:
    out: list[dict[tuple, list[str]]] = [{}, {}]

    def walk(node: Node) -> None:
        if node.player is not None:
            out[node.player].setdefault(node.info, [m.text() for m in node.moves])
        for c in node.children:
            walk(c)

    walk(root)
    return out


def normal_form(root: Node, limit: int = 20_000) -> np.ndarray:
    """English's payoff for every pair of pure strategies (a choice at each information set)."""
    infos = information_sets(root)
    pures = []
    for pl in (0, 1):
        keys = list(infos[pl])
        count = int(np.prod([len(infos[pl][k]) for k in keys])) if keys else 1
        if count > limit:
            raise ValueError(f"{count} pure strategies for one side: too many for a brute-force normal form")
        pures.append([dict(zip(keys, choice)) for choice in product(*(infos[pl][k] for k in keys))])

    def play(node: Node, strategies: tuple[dict, dict]) -> float:
        while node.player is not None:
            mv = strategies[node.player][node.info]
            node = node.children[[m.text() for m in node.moves].index(mv)]
        return node.value

    return np.array([[play(root, (se, sf)) for sf in pures[1]] for se in pures[0]])


def solve_matrix(a: np.ndarray) -> float:
    """The value of a matrix game for the row player (maximiser), by LP."""
    from scipy.optimize import linprog  # scipy.optimize: a second to import, paid by a solve, not by the explorer's start
    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    assert res.status == 0 and res.fun is not None, res.message
    return float(-res.fun)


# ---------------------------------------------------------------------- Gambit EFG, for OpenSpiel
def to_efg(root: Node, centre: float = 0.5) -> str:
    """The tree as a Gambit extensive-form file; payoffs (v - centre, centre - v) make it zero-sum."""
    lines = ['EFG 2 R "guyenne endgame" { "english" "french" }', '""']
    numbers: list[dict[tuple, int]] = [{}, {}]
    outcome = [0]

    def walk(node: Node) -> None:
        if node.player is None:
            outcome[0] += 1
            v = node.value - centre
            lines.append(f't "" {outcome[0]} "" {{ {v!r} {-v!r} }}')
            return
        num = numbers[node.player].setdefault(node.info, len(numbers[node.player]) + 1)
        acts = " ".join(f'"{m.text()}"' for m in node.moves)
        lines.append(f'p "" {node.player + 1} {num} "" {{ {acts} }} 0')
        for c in node.children:
            walk(c)

    walk(root)
    return "\n".join(lines) + "\n"
