"""One round of an open-hand endgame as a compact game: plans, information and where each play leads.

In an endgame where no side can draw again and both hands are known, a round
is fought as RULES.md section 3 says: the first player F opens X with a face-down
multiset ``a``; the second player S answers at X with ``b`` knowing X and ``|a|``,
then opens Y with ``c``; F answers at Y with ``d`` knowing X, ``a``, ``|b|``, Y
and ``|c|``.  Then everything is revealed and the round is public again.

What decides where a round leads is small: the winner of each battle, the new
castles and each side's remaining hand.  Removals and a neutral loser's
``remove_choice`` only move cards that are out of the game for good (no
reshuffle can bring the discard or the removed cards back, and the score counts
hand and deck only), so every remove choice leads to the same next state.

Everything a round needs is asked from the engine: the legal multisets come
from the engine's legal moves at positions on a real path of the round, the
battle winners from :func:`~guyenne_explore.engine.flow.battle_winner`, the score from
:func:`~guyenne_explore.engine.scoring.table_result`.  What the engine does between
battles (the control a winner takes) is mirrored in :func:`next_castles`; the end
checks are the engine's ``sweeper`` and ``holds_too_few``, asked per table and per
hand size in :func:`ends_after_array`.  The copy is pinned against the engine in
``tests/test_rule_copies.py`` and leaf by leaf against ``Position.apply`` in
``tests/test_solve.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from ...engine import (ENGLISH, NEUTRAL, OPEN_FIRST, Cards, Move, Position, Rules, Side, battle_winner,
                           holds_too_few, sweeper)

#: A round start: (castles, first player, english hand, french hand).  Decks are empty.
StateKey = tuple[tuple[int, ...], int, Cards, Cards]
#: battle winner codes in arrays: english, french, tie
TIE = 2


def winner_code(control: int, english: Cards, french: Cards) -> int:
    w = battle_winner(control, english, french)
    return TIE if w is None else w


def next_castles(castles: tuple[int, ...], x: int, y: int, wx: int, wy: int) -> tuple[int, ...]:
    """The castles after the round: a winner takes the castle, a tie leaves it as it was."""
    new = list(castles)
    for c, w in ((x, wx), (y, wy)):
        if w != TIE:
            new[c] = w
    return tuple(new)


def reflect(key: StateKey) -> StateKey:
    castles, first, he, hf = key
    return (castles[::-1], first, he, hf)


def canonical(key: StateKey) -> tuple[StateKey, bool]:
    """The representative of a state and its mirror image (castle i <-> n-1-i: runs and the ring
    read the same backwards), and whether the representative is the mirror."""
    mirror = reflect(key)
    return (mirror, True) if mirror[0] < key[0] else (key, False)


def round_start(rules: Rules, key: StateKey, round_no: int = 1) -> Position:
    """An engine position at the round start of ``key`` (both sides spent: decks empty, last exhaustion)."""
    castles, first, he, hf = key
    limit = rules.exhaustion_limit
    sides = (Side(hands=(he,), exhaustions=limit), Side(hands=(hf,), exhaustions=limit))
    return Position(rules, castles, round_no, first, OPEN_FIRST, sides)


@lru_cache(maxsize=1 << 14)
def _cards_at(rules: Rules, path: tuple, hand_f: Cards, hand_s: Cards) -> tuple[Cards, ...]:
    """The distinct multisets the engine allows after a path of placements (F holds ``hand_f``).

    Castles are neutral and X is castle 0 on the path: which multisets are legal does not
    depend on the castles, so the moves at the first castle listed are all the multisets."""
    p = round_start(rules, ((NEUTRAL,) * rules.castles, ENGLISH, hand_f, hand_s))
    for move in path:
        p = p.apply(move)
    out: list[Cards] = []
    first_castle = None
    for m in p.legal_moves:
        if first_castle is None:
            first_castle = m.castle
        if m.castle != first_castle:
            break
        out.append(m.cards)
    return tuple(out)


def legal_sets(rules: Rules, hand_f: Cards, hand_s: Cards) -> tuple[tuple[Cards, ...], tuple[Cards, ...]]:
    """F's opening multisets and S's answers at X, from the engine's legal moves."""
    opens = _cards_at(rules, (), hand_f, hand_s)
    answers = _cards_at(rules, (Move(opens[0], castle=0),), hand_f, hand_s)
    return opens, answers


def second_sets(rules: Rules, hand_f: Cards, hand_s: Cards, a: Cards, b: Cards
                ) -> tuple[tuple[Cards, ...], tuple[Cards, ...]]:
    """S's multisets to open Y after answering ``b``, and F's answers at Y after opening ``a``."""
    path = (Move(a, castle=0), Move(b))
    s_opens = _cards_at(rules, path, hand_f, hand_s)
    f_answers = _cards_at(rules, path + (Move(s_opens[0], castle=1),), hand_f, hand_s)
    return s_opens, f_answers


@dataclass
class RoundModel:
    """A round start, its players' plans and where every pair of plans leads.

    F's plans are pairs (a, d), S's plans pairs (b, c).  ``child[block][i, j]`` is the index of
    the place F's plan i and S's plan j lead to with castles (X, Y) = ``blocks[block]``.  Place
    ``u`` is the castles ``tables[place_table[u]]`` with F keeping ``f_rems[place_f[u]]`` and S
    keeping ``s_rems[place_s[u]]``; ``terminal[u]`` says whether the game ends there.
    :attr:`children` spells each place out: ``("end", castles, unspent english, unspent french)``
    or the next round start.
    """

    key: StateKey
    n: int
    opens: tuple[Cards, ...]        # F's multisets at X (A)
    answers: tuple[Cards, ...]      # S's multisets at X (B)
    f_a: np.ndarray                 # plan -> index in opens
    f_d: list[Cards]
    s_b: np.ndarray                 # plan -> index in answers
    s_c: list[Cards]
    blocks: list[tuple[int, int]]
    child: np.ndarray               # [blocks, F plans, S plans] -> place
    tables: list[tuple[int, ...]]
    f_rems: list[Cards]
    s_rems: list[Cards]
    place_table: np.ndarray
    place_f: np.ndarray
    place_s: np.ndarray
    terminal: np.ndarray

    @property
    def first(self) -> int:
        return self.key[1]

    @property
    def leaves(self) -> int:
        return self.child.size

    def target(self, u: int) -> tuple:
        """Place ``u`` spelled out: the final table or the next round start."""
        castles = self.tables[self.place_table[u]]
        rf, rs = self.f_rems[self.place_f[u]], self.s_rems[self.place_s[u]]
        rem_e, rem_f = (rf, rs) if self.first == ENGLISH else (rs, rf)
        if self.terminal[u]:
            return ("end", castles, rem_e.size, rem_f.size)
        return (castles, 1 - self.first, rem_e, rem_f)

    @property
    def children(self) -> list[tuple]:
        return [self.target(u) for u in range(len(self.terminal))]

    def next_states(self) -> list[tuple[int, StateKey]]:
        """The places where the game goes on, with their round starts."""
        return [(u, self.target(u)) for u in np.nonzero(~self.terminal)[0].tolist()]


@lru_cache(maxsize=1 << 12)
def _plans(rules: Rules, hand_f: Cards, hand_s: Cards) -> tuple:
    """Both sides' plans for a pair of hands, from the engine's legal moves (shared by castles)."""
    opens, answers = legal_sets(rules, hand_f, hand_s)
    f_a, f_d, s_b, s_c = [], [], [], []
    for i, a in enumerate(opens):
        for d in second_sets(rules, hand_f, hand_s, a, answers[0])[1]:
            f_a.append(i)
            f_d.append(d)
    for j, b in enumerate(answers):
        for c in second_sets(rules, hand_f, hand_s, opens[0], b)[0]:
            s_b.append(j)
            s_c.append(c)
    f_rem = [hand_f - opens[i] - d for i, d in zip(f_a, f_d)]
    s_rem = [hand_s - answers[j] - c for j, c in zip(s_b, s_c)]
    return (opens, answers, np.array(f_a), f_d, np.array(s_b), s_c, _index(f_rem), _index(s_rem),
            _index(f_d), _index(s_c))


@lru_cache(maxsize=1 << 12)
def _tables(castles: tuple[int, ...]) -> tuple[np.ndarray, list[tuple[int, ...]], np.ndarray]:
    """For each (X, Y) block and pair of battle winners, the castles after the round (an index in
    the distinct tables), and whether each table is a sweep."""
    n = len(castles)
    blocks = [(x, y) for x in range(n) for y in range(n) if x != y]
    index: dict[tuple[int, ...], int] = {}
    ids = np.empty((len(blocks), 9), dtype=np.int64)
    for k, (x, y) in enumerate(blocks):
        for ww in range(9):
            ids[k, ww] = index.setdefault(next_castles(castles, x, y, *divmod(ww, 3)), len(index))
    tables = list(index)
    return ids, tables, np.array([sweeper(t) is not None for t in tables])


def build_round(rules: Rules, key: StateKey) -> RoundModel:
    castles, first, he, hf = key
    n = len(castles)
    hand_f, hand_s = (he, hf) if first == ENGLISH else (hf, he)
    (opens, answers, f_a_arr, f_d, s_b_arr, s_c, (rf_list, rf_idx), (rs_list, rs_idx), (d_list, d_idx),
     (c_list, c_idx)) = _plans(rules, hand_f, hand_s)
    blocks = [(x, y) for x in range(n) for y in range(n) if x != y]
    # winners of every pair of sets, per control of the castle (the engine's battle_winner)
    controls = sorted(set(castles))
    at_x = {c: _winners(c, first, opens, answers)[f_a_arr][:, s_b_arr] for c in controls}
    at_y = {c: _winners(c, first, tuple(d_list), tuple(c_list))[d_idx][:, c_idx] for c in controls}
    wx = np.stack([at_x[castles[x]] for x, _ in blocks])
    wy = np.stack([at_y[castles[y]] for _, y in blocks])
    table_ids, tables, swept = _tables(castles)
    tid = table_ids[np.arange(len(blocks))[:, None, None], wx * 3 + wy]
    nrf, nrs = len(rf_list), len(rs_list)
    code = (tid * nrf + rf_idx[None, :, None]) * nrs + rs_idx[None, None, :]
    uniq, inverse = _unique(code, len(tables) * nrf * nrs)
    rest, place_s = np.divmod(uniq, nrs)
    place_table, place_f = np.divmod(rest, nrf)
    rf_size = np.array([r.size for r in rf_list])
    rs_size = np.array([r.size for r in rs_list])
    terminal = ends_after_array(swept[place_table], rf_size[place_f], rs_size[place_s])
    return RoundModel(key, n, opens, answers, f_a_arr, f_d, s_b_arr, s_c, blocks, inverse,
                      tables, rf_list, rs_list, place_table, place_f, place_s, terminal)


def ends_after_array(swept: np.ndarray, size_f: np.ndarray, size_s: np.ndarray) -> np.ndarray:
    """Whether the game ends after a round of an endgame with empty decks, for arrays of places: a
    sweep (known per table), or a side left with at most one card (RULES.md 5 steps 1 and 4: the
    engine's ``holds_too_few``; with empty decks the hand after the draw is the hand kept)."""
    return swept | _holds_too_few(size_f) | _holds_too_few(size_s)


#: the engine's one-card end check on an array of hand sizes
_holds_too_few = np.vectorize(holds_too_few, otypes=[bool])


def _unique(code: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(code, return_inverse=True)`` for codes below ``bound``: by a lookup table in
    linear time when the bound is small (it is: castle tables times remainders), else by sorting."""
    if bound > 4 * code.size + 1024:
        uniq, inverse = np.unique(code, return_inverse=True)
        return uniq, inverse.reshape(code.shape)
    seen = np.zeros(bound, dtype=bool)
    seen[code.ravel()] = True
    uniq = np.flatnonzero(seen)
    lookup = np.empty(bound, dtype=np.int64)
    lookup[uniq] = np.arange(len(uniq))
    return uniq, lookup[code]


def _index(items: list[Cards]) -> tuple[list[Cards], np.ndarray]:
    pos: dict[Cards, int] = {}
    idx = np.array([pos.setdefault(c, len(pos)) for c in items], dtype=np.int64)
    return list(pos), idx


@lru_cache(maxsize=1 << 14)
def _winners(control: int, first: int, f_sets: tuple[Cards, ...], s_sets: tuple[Cards, ...]) -> np.ndarray:
    """w[i, j]: the engine's winner (english, french or TIE) of F's set i against S's set j."""
    out = np.empty((len(f_sets), len(s_sets)), dtype=np.int64)
    for i, fc in enumerate(f_sets):
        for j, sc in enumerate(s_sets):
            e, f = (fc, sc) if first == ENGLISH else (sc, fc)
            out[i, j] = winner_code(control, e, f)
    return out


def subgame(model: RoundModel, x: int, size: int) -> RoundModel:
    """The part of a round after F's public choice: castle X and the number of cards placed there.

    S sees both before it answers, so what follows is a subgame of its own and the round's value
    for F is the best of its subgames' values."""
    keep_a = [i for i, a in enumerate(model.opens) if a.size == size]
    renumber = {a: j for j, a in enumerate(keep_a)}
    fps = [fp for fp, a in enumerate(model.f_a.tolist()) if a in renumber]
    blocks = [k for k, (bx, _) in enumerate(model.blocks) if bx == x]
    return replace(model, opens=tuple(model.opens[i] for i in keep_a),
                   f_a=np.array([renumber[model.f_a[fp]] for fp in fps], dtype=np.int64),
                   f_d=[model.f_d[fp] for fp in fps], blocks=[model.blocks[k] for k in blocks],
                   child=model.child[blocks][:, fps, :])
