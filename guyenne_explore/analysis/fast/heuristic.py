"""The heuristic policy compiled: games of heuristic against heuristic or uniform at kernel speed.

This is the Python :class:`~guyenne_explore.analysis.heuristic.Heuristic`, move for
move: the same scores (castle stakes from the engine's castle points table, what a
battle removes from a table that Python computes by asking the engine, the
opponent's unseen cards), the same softmax in whole-number weights, the same
bluffs, and the same rule to turn one random number into a move
(:func:`~guyenne_explore.analysis.heuristic.pick`).  ``tests/test_fast_heuristic.py``
replays compiled games through the engine and checks at every heuristic decision
that the Python policy, given the kernel's random number, makes the same move with
the same total weight.

The game flow is the uniform kernel's (:mod:`.kernel`: draws, battles, removals,
the end of a round); only the choice of a move differs.  Rules the kernel does not
play (team sides, conceding as a decision, stacked decks) and the expert setup
discard are left to the engine (:func:`unsupported`).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Callable

import numpy as np
from numba import njit

from ...engine_api import Cards, Position, Rules
from .. import heuristic as hz
from ..cancel import Cancelled
from ..outcomes import Game
from . import kernel as kn
from .encode import encode, seed_u64
from .encode import unsupported as uniform_unsupported
from .rollout import CHUNK
from .rollout import _games as summaries_to_games

UNIFORM, HEURISTIC = 0, 1
POLICY_CODES = {"uniform": UNIFORM, "heuristic": HEURISTIC}
#: most moves one decision can offer (castles times card sets), and most card sets
MAX_MOVES = 8192
MAX_OPTIONS = 1024
#: a trace row: point, side, castle, random index, total weight, then the counts of the cards moved
TRACE_HEAD = 5
#: the policy's constants, as the kernel reads them
(P_TEMPERATURE, P_RESOLUTION, P_SPEND, P_REMOVAL, P_WIN_WEIGHT, P_HERO_USE, P_BLUFF_NUM, P_BLUFF_DEN,
 P_MAX_SUM) = range(9)


def unsupported(p: Position, policies: tuple[str, str]) -> str | None:
    """Why the compiled heuristic cannot play these games (None: it can)."""
    if any(name not in POLICY_CODES for name in policies):
        return "the compiled path plays the uniform and heuristic policies only"
    reason = uniform_unsupported(p, ("uniform", "uniform"))
    if reason:
        return reason
    if p.rules.pre_discard and p.to_play == "setup_discard":
        return "the expert setup discard is chosen by the engine"
    e = encode(p)
    if e.options.offsets.shape[1] == 0:
        return "card sets too large for the option tables are played by the engine"
    most = int(np.diff(e.options.offsets, axis=1).max())
    if most > MAX_OPTIONS or most * p.rules.castles > MAX_MOVES or p.rules.max_at_castle * 9 >= MAX_OPTIONS:
        return "decisions with this many legal moves are played by the engine"
    return None


def params(h: hz.Heuristic, rules: Rules) -> np.ndarray:
    top = max(k + 1 for k in range(9) if rules.valued[k])
    return np.array([h.temperature, hz.RESOLUTION, hz.SPEND, hz.REMOVAL, hz.WIN_WEIGHT, hz.HERO_USE,
                     h.bluff_rate.numerator, h.bluff_rate.denominator, rules.max_at_castle * top], np.float64)


@lru_cache(maxsize=32)
def _tables(rules: Rules, kinds: tuple[int, ...], weights: tuple[int, ...], caps: tuple[int, ...]
            ) -> tuple[np.ndarray, np.ndarray]:
    """Each kind's worth, and ``loss[control + 1, code, won]``: the worth the engine removes from the
    multiset of that code placed at a castle of that control (the heuristic's ``removal_loss``)."""
    worth = np.array([hz.card_worth(rules, k) for k in kinds], np.float64)
    n_codes = int(np.prod([c + 1 for c in caps]))
    loss = np.zeros((3, n_codes, 2), np.float64)
    for counts in product(*(range(c + 1) for c in caps)):
        size = sum(counts)
        if not 0 < size <= rules.max_at_castle:
            continue
        full = [0] * 10
        for k, n in zip(kinds, counts):
            full[k] = n
        cards, code = Cards(full), sum(n * w for n, w in zip(counts, weights))
        for control in (-1, 0, 1):
            for won in (0, 1):
                loss[control + 1, code, won] = hz.removal_loss(rules, control, cards, bool(won))
    return worth, loss


#: a row of :func:`row_table`: the cards' total value (-1 when the hero is among them), their code,
#: their worth (summed as :func:`_worth` sums it), their number
R_TOTAL, R_CODE, R_WORTH, R_SIZE = range(4)
_rows: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


@njit(cache=True, error_model="numpy")
def _row_table(cards, vals, weights, worth, hero):
    out = np.empty((cards.shape[0], 4), np.float64)
    for row in range(cards.shape[0]):
        m = cards[row]
        total = 0
        size = 0
        for k in range(m.shape[0]):
            total += m[k] * vals[k]
            size += m[k]
        out[row, R_TOTAL] = total if not (hero >= 0 and m[hero] > 0) else -1.0
        out[row, R_CODE] = _code(m, weights)
        out[row, R_WORTH] = _worth(m, worth)
        out[row, R_SIZE] = size
    return out


def row_table(p: Position) -> np.ndarray:
    """What the policy reads of each card set of the option tables, worked out once per table rather
    than at every decision (the option tables are cached per rules and kinds, so keyed by identity)."""
    e = encode(p)
    worth, _ = tables(p)
    key = id(e.options.cards)
    if key not in _rows or _rows[key][0] is not e.options.cards or _rows[key][1] is not worth:
        _rows[key] = (e.options.cards, worth, _row_table(e.options.cards, e.values, e.options.weights, worth,
                                                         np.int64(e.rules[kn.HERO_KIND])))
    return _rows[key][2]


def tables(p: Position) -> tuple[np.ndarray, np.ndarray]:
    e = encode(p)
    caps = []
    for i in range(len(e.kinds)):  # the code's radix of each kind, as the option tables count it
        nxt = e.options.weights[i + 1] if i + 1 < len(e.kinds) else e.options.offsets.shape[1] - 1
        caps.append(int(nxt // e.options.weights[i]) - 1)
    return _tables(p.rules, tuple(e.kinds), tuple(int(w) for w in e.options.weights), tuple(caps))


# ---------------------------------------------------------------------- the policy
@njit(cache=True, error_model="numpy")
def _utility(cs, me, unspent_e, unspent_f, rp, points, res, win_weight):
    kn.score(cs, unspent_e, unspent_f, rp[kn.SCORING], rp[kn.RING], points, res)
    return _value(res, me, win_weight)


@njit(cache=True, error_model="numpy")
def _utility_coded(code, me, unspent_e, unspent_f, scoring, points, res, win_weight):
    """:func:`_utility` of the table whose row in the points table is ``code`` (as ``kn.score`` codes it)."""
    kn.score_row(points[code, 0], points[code, 1], points[code, 2], points[code, 3], points[code, 4],
                 unspent_e, unspent_f, scoring, res)
    return _value(res, me, win_weight)


@njit(cache=True, error_model="numpy")
def _value(res, me, win_weight):
    margin = (res[0] - res[1]) * (1 if me == 0 else -1)
    outcome = 0.5 if res[2] == kn.DRAW_WINNER else (1.0 if res[2] == me else 0.0)
    return margin + win_weight * outcome


@njit(cache=True, error_model="numpy")
def _worth(c, worth):
    s = 0.0
    for k in range(c.shape[0]):
        for _ in range(c[k]):
            s = s + worth[k]
    return s


@njit(cache=True, error_model="numpy")
def _code(c, weights):
    code = 0
    for k in range(c.shape[0]):
        code += c[k] * weights[k]
    return code


@njit(cache=True, error_model="numpy")
def _softmax(scores, n, temperature, resolution, wts):
    top = scores[0]
    for i in range(1, n):
        if scores[i] > top:
            top = scores[i]
    # a score more than 9 temperatures below the top weighs resolution * e^-9 < 0.5, which rounds to
    # 0 (for a resolution up to 4000): no division or exponential for it
    cutoff = top - 9.0 * temperature if resolution <= 4000 else -np.inf
    for i in range(n):
        if scores[i] < cutoff:
            wts[i] = 0
        else:
            wts[i] = np.int64(np.floor(resolution * np.exp((scores[i] - top) / temperature) + 0.5))


@njit(cache=True, error_model="numpy")
def _pick(wts, n, rng, out_pick):
    total = 0
    for i in range(n):
        total += wts[i]
    index = kn._below(rng, total)
    out_pick[0], out_pick[1] = index, total
    for i in range(n):
        if index < wts[i]:
            return i
        index -= wts[i]
    return n - 1


@njit(cache=True, error_model="numpy")
def choose_placement(z, pl, cs, sc, rp, vals, opt, points, loss, rowt, hp, side, phase, rng,
                     scores, wts, mcastle, mrow, bluff, part, res, chosen, out_pick):
    """The heuristic's placement: scores every legal (castle, cards), softmax, bluffs, one pick.
    Returns the castle (-1 when the castle is set) and writes the cards into ``chosen``."""
    weights, offsets, cards = opt
    nk = vals.shape[0]
    hero = rp[kn.HERO_KIND]
    b = 0 if phase <= kn.RESPOND_FIRST else 1
    hand = z[side, kn.HAND]
    code = _code(hand, weights)
    first_row = offsets[b, code]
    n_opt = offsets[b, code + 1] - first_row
    o = 1 - side
    # the opponent's unseen cards (nothing is shown before the battles): mean, spread, hero
    n_vals, sum_vals, hero_avail = 0, 0, False
    for k in range(nk):
        c = z[o, kn.HAND, k] + z[o, kn.DECK, k] + z[o, kn.DISCARD, k] + pl[o, 0, k] + pl[o, 1, k]
        if k == hero:
            hero_avail = c > 0
        else:
            n_vals += c
            sum_vals += c * vals[k]
    mean, spread = 0.0, 1.0
    if n_vals > 0:
        mean = sum_vals / n_vals
        var = 0.0
        for k in range(nk):
            if k != hero:
                c = z[o, kn.HAND, k] + z[o, kn.DECK, k] + z[o, kn.DISCARD, k] + pl[o, 0, k] + pl[o, 1, k]
                for _ in range(c):
                    var = var + (vals[k] - mean) ** 2
        var = var / n_vals
        spread = max(1.0, np.sqrt(var))
    count = kn._size(pl[o, b])
    hero_here = hp[P_HERO_USE] if hero_avail else 0.0
    if count:
        hero_here = min(1.0, hero_here * count) if hero_avail else 0.0
    else:
        count = 2
    ue, uf = kn._unspent(z, 0), kn._unspent(z, 1)
    scale = spread * np.sqrt(count)  # the same product as the Python policy's, once per decision
    n_castles = rp[kn.N_CASTLES]
    # the table coded once (as kn.score codes it); a castle's stake changes one digit of the code
    tabled = points.shape[0] > 0
    code0 = 0
    if tabled:
        for i in range(cs.shape[0]):
            code0 = 3 * code0 + cs[i] + 1
    # what a card set's score takes from the castle is its control (neutral, own, other's): the
    # chance to win and the removal loss are worked out once per set and control.  A set's sum, code,
    # worth and size come from the row table (``rowt``); per decision, whether it is a bluff
    # (part[3, 2, r]); per control: the chance to win by sum (part[c, 2, :], -1 until worked out),
    # then per set the chance and loss
    weakest = -1
    for k in range(nk):
        if k != hero and hand[k] > 0:
            weakest = k
            break
    for r in range(n_opt):
        row = first_row + r
        size = rowt[row, R_SIZE]
        # the bluff kind: 1 one weakest card, 2 the hero with one weakest card, 0 none
        part[3, 2, r] = 0.0 if weakest < 0 or cards[row, weakest] == 0 else 1.0 if size == 1 else \
            2.0 if rowt[row, R_TOTAL] < 0 and size == 2 else 0.0
    done = 0  # a bit per control worked out (no array allocated at each decision)
    n = 0
    for c in range(n_castles):
        if phase == kn.OPEN_FIRST:
            castle = c
        elif phase == kn.OPEN_SECOND:
            if c == sc[kn.CASTLE_X]:
                continue
            castle = c
        else:
            if c > 0:
                break
            castle = sc[kn.CASTLE_X + b]
        control = cs[castle]
        if tabled:
            digit = 1
            for _ in range(cs.shape[0] - 1 - castle):
                digit *= 3
            won = _utility_coded(code0 + (side - control) * digit, side, ue, uf, rp[kn.SCORING], points, res,
                                 hp[P_WIN_WEIGHT])
            lost = _utility_coded(code0 + (1 - side - control) * digit, side, ue, uf, rp[kn.SCORING], points, res,
                                  hp[P_WIN_WEIGHT])
        else:
            cs[castle] = side
            won = _utility(cs, side, ue, uf, rp, points, res, hp[P_WIN_WEIGHT])
            cs[castle] = 1 - side
            lost = _utility(cs, side, ue, uf, rp, points, res, hp[P_WIN_WEIGHT])
            cs[castle] = control
        stake = won - lost
        rel = -1 if control == kn.NEUTRAL else (0 if control == side else 1)
        adj = 0.5 if control == side else (-0.5 if control != kn.NEUTRAL else 0.0)
        if not done & (1 << (rel + 1)):
            done |= 1 << (rel + 1)
            by_sum = part[rel + 1, 2]
            by_sum[: np.int64(hp[P_MAX_SUM]) + 1] = -1.0
            for r in range(n_opt):
                total = rowt[first_row + r, R_TOTAL]
                if total < 0:  # the hero is in the set
                    p = 1.0 - (0.0 if control == side else hero_here)
                else:
                    t = np.int64(total)
                    if by_sum[t] < 0:
                        edge = t - count * mean + adj
                        by_sum[t] = (1.0 - hero_here) / (1.0 + np.exp(-edge / scale))
                    p = by_sum[t]
                mc = np.int64(rowt[first_row + r, R_CODE])
                part[rel + 1, 0, r] = p
                part[rel + 1, 1, r] = p * loss[rel + 1, mc, 1] + (1 - p) * loss[rel + 1, mc, 0]
        for r in range(n_opt):
            row = first_row + r
            p = part[rel + 1, 0, r]
            scores[n] = stake * p - hp[P_SPEND] * rowt[row, R_WORTH] - hp[P_REMOVAL] * part[rel + 1, 1, r]
            mcastle[n] = castle if (phase == kn.OPEN_FIRST or phase == kn.OPEN_SECOND) else -1
            mrow[n] = row
            n += 1
    _softmax(scores, n, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    num, den = np.int64(hp[P_BLUFF_NUM]), np.int64(hp[P_BLUFF_DEN])
    if (phase == kn.OPEN_FIRST or phase == kn.OPEN_SECOND) and num > 0:
        n_lone, n_hidden, n_b = 0, 0, 0
        for i in range(n):  # bluff[0:n_b] lists the bluffs' move indexes, in move order
            kind = np.int64(part[3, 2, mrow[i] - first_row])
            if kind > 0:
                bluff[n_b] = i
                n_b += 1
                n_lone += kind == 1
                n_hidden += kind == 2
        kinds = (n_lone > 0) + (n_hidden > 0)
        if kinds > 0:  # as Heuristic.weights: equal shares of the kinds, each to its best-scoring half
            k_lone = max(1, n_lone // 2) if n_lone else 1
            k_hidden = max(1, n_hidden // 2) if n_hidden else 1
            q = kinds * k_lone * k_hidden
            total = 0
            for i in range(n):
                total += wts[i]
            for i in range(n):
                wts[i] = wts[i] * (den - num) * q
            for kind in (1, 2):
                if (n_lone if kind == 1 else n_hidden) == 0:
                    continue
                keep = k_lone if kind == 1 else k_hidden
                share = total * num * (q // (kinds * keep))
                for _ in range(keep):  # the best scores first, the first on ties (a stable sort)
                    best, at = -1, -1
                    for j in range(n_b):
                        i = bluff[j]
                        if i >= 0 and np.int64(part[3, 2, mrow[i] - first_row]) == kind and \
                                (best < 0 or scores[i] > scores[best]):
                            best, at = i, j
                    bluff[at] = -1
                    wts[best] += share
    i = _pick(wts, n, rng, out_pick)
    for k in range(nk):
        chosen[k] = cards[mrow[i], k]
    return mcastle[i]


@njit(cache=True, error_model="numpy")
def choose_removal(pl, side, b, opt, rowt, hp, rng, scores, wts, chosen, out_pick):
    """The heuristic's removal after a lost neutral battle: the softmax of minus what is lost."""
    weights, offsets, cards = opt
    src = pl[side, b]
    code = _code(src, weights)
    first_row = offsets[2, code]
    n = offsets[2, code + 1] - first_row
    for r in range(n):
        scores[r] = -(rowt[first_row + r, R_WORTH] + 0.1 * rowt[first_row + r, R_SIZE])
    _softmax(scores, n, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    i = _pick(wts, n, rng, out_pick)
    for k in range(src.shape[0]):
        chosen[k] = cards[first_row + i, k]


# ---------------------------------------------------------------------- the game
@njit(cache=True, error_model="numpy")
def _record(trace, tpos, point, side, castle, pick, total, cards):
    i = tpos[0]
    if i < trace.shape[0]:
        trace[i, 0], trace[i, 1], trace[i, 2], trace[i, 3], trace[i, 4] = point, side, castle, pick, total
        for k in range(cards.shape[0]):
            trace[i, TRACE_HEAD + k] = cards[k]
    tpos[0] = i + 1


@njit(cache=True, error_model="numpy")
def play(z, pl, cs, sc, rp, vals, opt, points, loss, rowt, hp, pols, rng, out, leaders, ways, trace, tpos,
         scores, wts, mcastle, mrow, bluff, part):
    """Play the position in place to its end, side s choosing by policy ``pols[s]``; the last five
    arrays are scratch of :data:`MAX_MOVES` entries (allocated once per thread, not per game)."""
    nk = vals.shape[0]
    hero = rp[kn.HERO_KIND]
    m = np.zeros(nk, np.int64)
    res = np.zeros(3, np.int64)
    out_pick = np.zeros(2, np.int64)
    start_round = sc[kn.ROUND]
    n_leaders = 0
    decisions = 0
    out[kn.OUT_ERROR] = 0
    n = rp[kn.N_CASTLES]
    while sc[kn.PHASE] != kn.END:
        phase = sc[kn.PHASE]
        first = sc[kn.FIRST]
        out_pick[0], out_pick[1] = -1, -1
        if phase == kn.SETUP:  # uniform only (the heuristic's expert setup is left to the engine)
            side = first if kn._size(z[first, kn.DISCARD]) < rp[kn.PRE_DISCARD] else 1 - first
            m2 = z[side, kn.DECK].copy()
            if hero >= 0:
                m2[hero] = 0
            if not kn.pick_multiset(m2, rp[kn.PRE_DISCARD], rp[kn.PRE_DISCARD], rng, m, ways):
                out[kn.OUT_ERROR] = kn.ERR_NO_MOVE
                return
            for k in range(nk):
                z[side, kn.DECK, k] -= m[k]
                z[side, kn.DISCARD, k] += m[k]
            _record(trace, tpos, phase, side, -1, -1, -1, m)
            decisions += 1
            if not (side == first and kn._size(z[1 - side, kn.DISCARD]) < rp[kn.PRE_DISCARD]):
                sc[kn.PHASE] = kn.DEAL
        elif phase == kn.DEAL or phase == kn.DRAW:
            if phase == kn.DRAW:
                if n_leaders >= leaders.shape[0]:
                    out[kn.OUT_ERROR] = kn.ERR_TOO_LONG
                    return
                kn.score(cs, kn._unspent(z, 0), kn._unspent(z, 1), rp[kn.SCORING], rp[kn.RING], points, res)
                leaders[n_leaders] = res[2]
                n_leaders += 1
            for side in range(2):
                kn._draw_side(z, sc, rp, side, rng, m)
                _record(trace, tpos, phase, side, -1, -1, -1, m)
            if kn._size(z[0, kn.HAND]) <= 1 or kn._size(z[1, kn.HAND]) <= 1:
                sc[kn.PHASE] = kn.END
                sc[kn.ENDING] = kn.END_EXHAUSTED
                for side in range(2):
                    if kn._size(z[side, kn.HAND]) <= 1 and sc[kn.EXH + side] < rp[kn.LIMIT]:
                        sc[kn.ENDING] = kn.END_OUT_OF_CARDS
            else:
                if phase == kn.DRAW:
                    sc[kn.ROUND] += 1
                    sc[kn.FIRST] = 1 - first
                sc[kn.PHASE] = kn.OPEN_FIRST
        elif phase == kn.REMOVE:
            b = sc[kn.BATTLE]
            loser = 1 - cs[sc[kn.CASTLE_X + b]]
            if pols[loser] == HEURISTIC:
                choose_removal(pl, loser, b, opt, rowt, hp, rng, scores, wts, m, out_pick)
            elif not kn.pick_option(opt, 2, pl[loser, b], rng, m):
                out[kn.OUT_ERROR] = kn.ERR_NO_MOVE
                return
            for k in range(nk):
                pl[loser, b, k] -= m[k]
                z[loser, kn.REMOVED, k] += m[k]
            _record(trace, tpos, phase, loser, -1, out_pick[0], out_pick[1], m)
            decisions += 1
            if b == 0:
                kn._resolve(z, pl, cs, sc, rp, vals, points, 1)
            else:
                kn._end_of_round(z, pl, cs, sc, points)
        else:  # the four placements (RULES.md 3)
            side = first if phase == kn.OPEN_FIRST or phase == kn.RESPOND_SECOND else 1 - first
            b = 0 if phase <= kn.RESPOND_FIRST else 1
            hand = z[side, kn.HAND]
            castle = -1
            if pols[side] == HEURISTIC:
                castle = choose_placement(z, pl, cs, sc, rp, vals, opt, points, loss, rowt, hp, side, phase, rng,
                                          scores, wts, mcastle, mrow, bluff, part, res, m, out_pick)
            else:
                if not kn.pick_option(opt, b, hand, rng, m):
                    out[kn.OUT_ERROR] = kn.ERR_NO_MOVE
                    return
                if phase == kn.OPEN_FIRST:
                    castle = kn._below(rng, n)
                elif phase == kn.OPEN_SECOND:
                    castle = kn._below(rng, n - 1)
                    if castle >= sc[kn.CASTLE_X]:
                        castle += 1
            if phase == kn.OPEN_FIRST:
                sc[kn.CASTLE_X] = castle
            elif phase == kn.OPEN_SECOND:
                sc[kn.CASTLE_Y] = castle
            for k in range(nk):
                hand[k] -= m[k]
                pl[side, b, k] = m[k]
            _record(trace, tpos, phase, side, castle, out_pick[0], out_pick[1], m)
            decisions += 1
            if phase == kn.RESPOND_SECOND:
                kn._resolve(z, pl, cs, sc, rp, vals, points, 0)
            else:
                sc[kn.PHASE] = phase + 1
    kn.score(cs, kn._unspent(z, 0), kn._unspent(z, 1), rp[kn.SCORING], rp[kn.RING], points, res)
    rounds = sc[kn.ROUND] - start_round + 1
    decided = rounds
    while decided > 1 and (decided - 2 >= n_leaders or leaders[decided - 2] == res[2]):
        decided -= 1
    out[kn.OUT_ENGLISH], out[kn.OUT_FRENCH], out[kn.OUT_WINNER] = res[0], res[1], res[2]
    out[kn.OUT_ROUNDS] = rounds
    out[kn.OUT_DECIDED] = decided
    out[kn.OUT_HERO_E] = 1 if hero < 0 or z[0, kn.REMOVED, hero] == 0 else 0
    out[kn.OUT_HERO_F] = 1 if hero < 0 or z[1, kn.REMOVED, hero] == 0 else 0
    out[kn.OUT_DECISIONS] = decisions
    out[kn.OUT_ENDING] = sc[kn.ENDING]


@njit(cache=True, error_model="numpy")
def play_batch(z0, pl0, cs0, sc0, rp, vals, opt, points, loss, rowt, hp, pols, seed, start, count, max_rounds,
               ways_width, out):
    """Games ``start .. start+count-1`` of the batch ``seed``; game g's stream depends only on ``(seed, start + g)``.
    One thread: blocks of 256 games share their scratch.  Processes spread batches (an executor), so
    no thread pool is started here, and a process that forks afterwards stays safe."""
    block = 256
    for s in range((count + block - 1) // block):
        z, pl, cs, sc = z0.copy(), pl0.copy(), cs0.copy(), sc0.copy()
        rng = np.zeros(1, np.uint64)
        leaders = np.zeros(max_rounds, np.int64)
        ways = np.zeros((vals.shape[0] + 1, ways_width), np.int64)
        trace = np.zeros((0, TRACE_HEAD + vals.shape[0]), np.int64)
        tpos = np.zeros(1, np.int64)
        scores, wts = np.empty(MAX_MOVES, np.float64), np.empty(MAX_MOVES, np.int64)
        mcastle, mrow, bluff = np.empty(MAX_MOVES, np.int64), np.empty(MAX_MOVES, np.int64), np.empty(MAX_MOVES, np.int64)
        part = np.empty((4, 4, MAX_OPTIONS), np.float64)
        for g in range(s * block, min(count, (s + 1) * block)):
            z[:] = z0
            pl[:] = pl0
            cs[:] = cs0
            sc[:] = sc0
            kn.seed_stream(rng, seed, np.uint64(start + g))
            play(z, pl, cs, sc, rp, vals, opt, points, loss, rowt, hp, pols, rng, out[g], leaders, ways, trace, tpos,
                 scores, wts, mcastle, mrow, bluff, part)


@njit(cache=True, error_model="numpy")
def play_traced(z, pl, cs, sc, rp, vals, opt, points, loss, rowt, hp, pols, seed, index, max_rounds, ways_width,
                trace, tpos, out):
    rng = np.zeros(1, np.uint64)
    kn.seed_stream(rng, seed, index)
    leaders = np.zeros(max_rounds, np.int64)
    ways = np.zeros((vals.shape[0] + 1, ways_width), np.int64)
    scores, wts = np.empty(MAX_MOVES, np.float64), np.empty(MAX_MOVES, np.int64)
    mcastle, mrow, bluff = np.empty(MAX_MOVES, np.int64), np.empty(MAX_MOVES, np.int64), np.empty(MAX_MOVES, np.int64)
    part = np.empty((4, 4, MAX_OPTIONS), np.float64)
    play(z, pl, cs, sc, rp, vals, opt, points, loss, rowt, hp, pols, rng, out, leaders, ways, trace, tpos,
         scores, wts, mcastle, mrow, bluff, part)


# ---------------------------------------------------------------------- Python side
def _setup(p: Position, policies: tuple[str, str], heuristic: hz.Heuristic | None):
    reason = unsupported(p, policies)
    if reason:
        raise ValueError(reason)
    e = encode(p)
    _, loss = tables(p)
    hp = params(heuristic or hz.Heuristic(), p.rules)
    pols = np.array([POLICY_CODES[n] for n in policies], np.int64)
    return e, loss, row_table(p), hp, pols


def play_summaries(p: Position, policies: tuple[str, str], games: int, seed: int, start_index: int = 0,
                   heuristic: hz.Heuristic | None = None) -> np.ndarray:
    """Summary rows (columns ``kernel.OUT_*``) of games ``start_index..`` of batch ``seed``."""
    e, loss, rowt, hp, pols = _setup(p, policies, heuristic)
    out = np.zeros((games, kn.N_OUT), np.int64)
    if games:
        play_batch(e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points,
                   loss, rowt, hp, pols, seed_u64(seed), np.uint64(start_index), games, e.max_rounds,
                   e.ways_width, out)
    if out[:, kn.OUT_ERROR].any():
        raise RuntimeError("the compiled heuristic met a decision without legal moves or a game too long")
    return out


def traced(p: Position, policies: tuple[str, str], seed: int, index: int,
           heuristic: hz.Heuristic | None = None) -> tuple[list[list[int]], list[int], np.ndarray]:
    """Game ``index`` of batch ``seed``: its trace rows (see :data:`TRACE_HEAD`), the kinds, its summary."""
    e, loss, rowt, hp, pols = _setup(p, policies, heuristic)
    trace = np.zeros((4 * e.max_rounds * 4 + 64, TRACE_HEAD + len(e.kinds)), np.int64)
    tpos = np.zeros(1, np.int64)
    out = np.zeros(kn.N_OUT, np.int64)
    play_traced(e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points,
                loss, rowt, hp, pols, seed_u64(seed), np.uint64(index), e.max_rounds, e.ways_width, trace, tpos, out)
    if out[kn.OUT_ERROR]:
        raise RuntimeError("the compiled heuristic met a decision without legal moves or a game too long")
    return trace[: tpos[0]].tolist(), list(e.kinds), out




def fast_games(p: Position, policies: tuple[str, str], games: int, seed: int, start_index: int = 0,
               progress: Callable[[int, int], bool | None] | None = None) -> list[Game]:
    """Games ``start_index..`` of batch ``seed`` with the heuristic on either or both sides, compiled."""
    out: list[Game] = []
    for lo in range(0, games, CHUNK):
        rows = play_summaries(p, policies, min(CHUNK, games - lo), seed, start_index + lo)
        out.extend(summaries_to_games(rows))
        if progress and progress(len(out), games) is False:
            raise Cancelled()
    return out


__all__ = ["fast_games", "play_summaries", "traced", "unsupported", "tables", "params"]
