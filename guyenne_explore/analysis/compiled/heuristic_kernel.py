"""The heuristic policy compiled: its decisions and the card tables they read, for the one game loop.

These are the Python :class:`~guyenne_explore.analysis.policies.heuristic.Heuristic`'s decisions,
move for move: the same scores (castle stakes from the engine's castle points table, what a battle
removes from a table that the policy computes by asking the engine, the opponent's unseen cards),
the same softmax in whole-number weights, the same bluffs, and the same rule to turn one random
number into a move (:func:`~guyenne_explore.analysis.policies.heuristic.pick`).  Its numbers
(temperature, spending and removal shares, ...) and its worth of a card and of a removal come from
the Python policy (:class:`.sides.SidePolicy`, built by ``Heuristic.compiled``): one source for both.
``tests/test_fast_heuristic.py`` replays compiled games through the engine and checks at every
heuristic decision that the Python policy, given the loop's random number, makes the same move with
the same total weight.

The game itself is the one loop of :mod:`.loop`; rules the loop does not play (stacked decks,
card sets too large for its tables) are left to the engine (:func:`unsupported`); it plays the expert setup
discard too (:func:`choose_discard`: the learned policy's own where its row holds discard weights), and a team's
split and order (:func:`choose_split`: the learned policy's own where its row holds split weights;
:func:`choose_order`), its members placing from their own hands
(``kernel.placing_hand``).  The
decisions are compiled without numba's reference counts (``_nrt=False``): they allocate nothing
(their scratch comes from ``loop.scratch``) and keep no array.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Callable

import numpy as np
from numba import njit

from ...i18n import N_
from ...engine import Cards, Position, Rules
from . import kernel as kn
from .encode import Encoded, encode
from .encode import unsupported as uniform_unsupported
from .policy_codes import (D_KINDS, D_WEAKEST, D_WORTH, NETWORK_AT, P_BLUFF_DEN, P_BLUFF_NUM, P_HERO_USE, P_REMOVAL,
                           P_RESOLUTION, P_SPEND, P_TEMPERATURE, P_WIN_WEIGHT, S_ALONE, S_HERO, S_TEAM, S_WORTH,
                           SidePolicy, network_size)

#: the chances to win by sum are kept across decisions and games in 2 ** MEMO_BITS slots
MEMO_BITS = 10
#: most moves one decision can offer (castles times card sets), and most card sets
MAX_MOVES = 8192
MAX_OPTIONS = 1024
#: the sizes a batch's scratch and the pools' keys take from the position (``sizes`` of the tables):
#: the largest sum of cards at a castle, the bits of a count of one kind among a side's cards
T_MAX_SUM, T_POOL_BITS = range(2)


def unsupported(p: Position) -> str | None:
    """Why the compiled loop cannot play a scoring policy's games from ``p`` (None: it can); which policies
    it plays is :attr:`~..policies.spec.PolicySpec.compiles`'s answer, asked first."""
    return checked(p, scores=True)[0]


def checked(p: Position, scores: bool) -> tuple[str | None, Encoded | None]:
    """Why the compiled loop cannot play from ``p`` (None: it can), with the position's arrays when it
    got that far (encoded once per batch); ``scores``: some side scores its moves (the heuristic's
    tables must fit)."""
    reason = uniform_unsupported(p)
    if reason:
        return reason, None
    if not scores:
        return None, encode(p)
    e = encode(p)
    if e.options.offsets.shape[1] == 0:
        return N_("card sets too large for the option tables are played by the engine"), e
    most = int(np.diff(e.options.offsets, axis=1).max())
    if most > MAX_OPTIONS or most * p.rules.castles > MAX_MOVES or p.rules.max_at_castle * 9 >= MAX_OPTIONS:
        return N_("decisions with this many legal moves are played by the engine"), e
    if len(e.kinds) * _pool_bits(e) + (3 * (p.rules.max_at_castle + 1)).bit_length() > 62:
        return N_("card sets too large for the policy's memo are played by the engine"), e
    if any(s.is_team for s in p.sides) and p.rules.max_at_castle < max(p.rules.hand_size, *(s.hand.size for s in p.sides)) - 1:
        # a team's split is listed from the placements' option rows, which stop at a castle's limit
        return N_("team splits of more cards than a castle takes are played by the engine"), e
    return None, e


def _pool_bits(e: Encoded) -> int:
    """The bits of a count of one kind among a side's cards (a pool's key in :func:`choose_placement`'s memo)."""
    return max(1, int((e.zones[:, :kn.HAND_OF_1].sum(axis=1) + e.placed.sum(axis=1)).max()).bit_length())


# ---------------------------------------------------------------------- the tables
#: a row of the row table: the cards' total value (-1 when the hero is among them), their code,
#: their worth (summed as :func:`_worth` sums it), their number
R_TOTAL, R_CODE, R_WORTH, R_SIZE = range(4)
#: the total and the code again, as the integers :func:`choose_placement` indexes with
I_SUM, I_CODE = range(2)
_rows: dict[int, tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def tables(p: Position, e: Encoded, side: SidePolicy) -> tuple:
    """The tables a scoring policy's decisions read, for the loop (one type under every rule set):
    ``loss[control + 1, code, won]`` (the worth the engine removes from the card set of that code
    placed at a castle of that control), the row tables of the option tables' card sets
    (:func:`_row_table`, integers apart), each hand's bluffing rows (:func:`_bluff_rows`), the
    position's ``sizes`` (:data:`T_MAX_SUM`, ...) and each kind's worth (the setup discard's,
    :func:`choose_discard`).  The worths are ``side``'s own."""
    assert side.card_worth is not None and side.removal_loss is not None
    caps = []
    for i in range(len(e.kinds)):  # the code's radix of each kind, as the option tables count it
        nxt = e.options.weights[i + 1] if i + 1 < len(e.kinds) else e.options.offsets.shape[1] - 1
        caps.append(int(nxt // e.options.weights[i]) - 1)
    worth, loss = _worth_tables(p.rules, tuple(e.kinds), tuple(int(w) for w in e.options.weights), tuple(caps),
                                side.card_worth, side.removal_loss)
    rowt, rowi, bluffs = _row_table_of(e, worth)
    top = max(k + 1 for k in range(9) if p.rules.valued[k])
    sizes = np.array([p.rules.max_at_castle * top, _pool_bits(e)], np.int64)
    return loss, rowt, rowi, bluffs, sizes, worth


def no_tables() -> tuple:
    """:func:`tables`' types without rows: the tables of games where no side scores its moves."""
    return (np.zeros((3, 0, 2), np.float64), np.zeros((0, 4), np.float64), np.zeros((0, 2), np.int64),
            np.zeros((2, 0, 2), np.int64), np.zeros(2, np.int64), np.zeros(0, np.float64))


@lru_cache(maxsize=32)
def _worth_tables(rules: Rules, kinds: tuple[int, ...], weights: tuple[int, ...], caps: tuple[int, ...],
                  card_worth: Callable[[Rules, int], float], removal_loss: Callable[[Rules, int, Cards, bool], float]
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Each kind's worth, and ``loss[control + 1, code, won]`` (see :func:`tables`), from the policy's own
    worth of a card and of a removal."""
    worth = np.array([card_worth(rules, k) for k in kinds], np.float64)
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
                loss[control + 1, code, won] = removal_loss(rules, control, cards, bool(won))
    return worth, loss


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
        out[row, R_CODE] = kn.multiset_code(m, weights)
        out[row, R_WORTH] = _worth(m, worth)
        out[row, R_SIZE] = size
    return out


@njit(cache=True, error_model="numpy")
def _bluff_rows(opt, hero):
    """``bluffs[table, hand code]``: the option rows of the two bluffing openings of that hand (as
    :func:`~guyenne_explore.analysis.policies.heuristic._bluffs` finds them: one weakest valued card, and
    the hero with one weakest card), -1 where the hand has none."""
    weights, offsets, cards = opt
    nk = weights.shape[0]
    n_codes = offsets.shape[1] - 1
    out = np.full((2, n_codes, 2), -1, np.int64)
    for code in range(n_codes):
        weakest = -1
        for k in range(nk):  # the hand's weakest valued kind, from its code's digits
            radix = (weights[k + 1] if k + 1 < nk else n_codes) // weights[k]
            if k != hero and (code // weights[k]) % radix > 0:
                weakest = k
                break
        if weakest < 0:
            continue
        for t in range(2):
            for row in range(offsets[t, code], offsets[t, code + 1]):
                m = cards[row]
                size = 0
                for k in range(nk):
                    size += m[k]
                if m[weakest] == 1 and size == 1:
                    out[t, code, 0] = row
                elif m[weakest] == 1 and size == 2 and hero >= 0 and m[hero] == 1:
                    out[t, code, 1] = row
    return out



def _row_table_of(e: Encoded, worth: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the policy reads of each card set of the option tables, and each hand's bluffing rows,
    worked out once per table rather than at every decision (the option tables are cached per rules
    and kinds, so keyed by identity)."""
    key = id(e.options.cards)
    if key not in _rows or _rows[key][0] is not e.options.cards or _rows[key][1] is not worth:
        hero = np.int64(e.rules[kn.HERO_KIND])
        rowt = _row_table(e.options.cards, e.values, e.options.weights, worth, hero)
        rowi = np.ascontiguousarray(rowt[:, [R_TOTAL, R_CODE]].astype(np.int64))  # C order for any number of rows: one type
        _rows[key] = (e.options.cards, worth, (rowt, rowi, _bluff_rows(tuple(e.options), hero)))
    return _rows[key][2]


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


# numba's type stubs list only its public options: each decorator passing the private ``_nrt=False``
# ignores the call-overload error that gives (mypy)
@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
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


@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
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


@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
def _held(z, side, zone):
    """How many cards ``side`` holds in ``zone``."""
    n = 0
    for k in range(z.shape[2]):
        n += z[side, zone, k]
    return n


@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
def _pool(z, pl, vals, pool_bits, hero, o, pool, pool_key):
    """The mean and spread of the valued cards ``o`` has not lost for good, and whether its hero is
    among them (the Python policy's ``_pool_stats``: nothing is shown before the battles) into
    ``pool[o]``, and those cards' counts (``pool_bits`` bits each: the key of the chances in
    :func:`choose_placement`'s memo) into ``pool_key[o]``; worked out again only when ``o`` has lost cards, which is what
    changes them."""
    key = 0
    for k in range(vals.shape[0]):
        key += z[o, kn.REMOVED, k]
    if pool[o, 0] == key:
        return
    nk = vals.shape[0]
    n_vals, sum_vals, hero_avail, bits = 0, 0, False, 0
    for k in range(nk):
        c = z[o, kn.HAND, k] + z[o, kn.DECK, k] + z[o, kn.DISCARD, k] + pl[o, 0, k] + pl[o, 1, k]
        bits |= c << (pool_bits * k)
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
                for _ in range(c):  # card by card, as Python sums them
                    var = var + (vals[k] - mean) ** 2
        var = var / n_vals
        spread = max(1.0, np.sqrt(var))
    pool[o, 0], pool[o, 1], pool[o, 2], pool[o, 3] = key, mean, spread, 1.0 if hero_avail else 0.0
    pool_key[o] = bits


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def table_code(cs, points):
    """The table's row in the engine's castle points table (as ``kn.score`` codes it; 0 without the
    table): a castle's stake then changes one digit of it, so each placement policy codes it once a decision."""
    code0 = 0
    if points.shape[0] > 0:
        for i in range(cs.shape[0]):
            code0 = 3 * code0 + cs[i] + 1
    return code0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def castle_stake(cs, castle, side, code0, ue, uf, rp, points, res, win_weight):
    """What winning ``castle`` is worth to ``side`` against losing it, by the engine's scoring of both
    tables (the Python policies' :func:`~guyenne_explore.analysis.policies.heuristic.castle_stake`):
    read from the points table at the row ``code0`` (:func:`table_code`) with the castle's digit
    changed, or scored on ``cs`` (changed and put back) where there is no table.  Inlined into every
    policy that scores castles, so that they weigh a castle by one rule."""
    control = cs[castle]
    if points.shape[0] > 0:
        digit = 1
        for _ in range(cs.shape[0] - 1 - castle):
            digit *= 3
        won = _utility_coded(code0 + (side - control) * digit, side, ue, uf, rp[kn.SCORING], points, res, win_weight)
        lost = _utility_coded(code0 + (1 - side - control) * digit, side, ue, uf, rp[kn.SCORING], points, res,
                              win_weight)
    else:
        cs[castle] = side
        won = _utility(cs, side, ue, uf, rp, points, res, win_weight)
        cs[castle] = 1 - side
        lost = _utility(cs, side, ue, uf, rp, points, res, win_weight)
        cs[castle] = control
    return won - lost


@njit(cache=True, error_model="numpy")
def _class(control, side):
    """A castle's class for ``side``: 0 neutral, 1 its own, 2 the other side's."""
    return 0 if control == kn.NEUTRAL else (1 if control == side else 2)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def choose_placement(z, pl, cs, sc, rp, vals, opt, points, tables, hp, side, phase, rng, work):
    """The heuristic's placement: scores every legal (castle, cards), softmax, bluffs, one pick.
    Returns the castle (-1 when the castle is set) and writes the cards into ``work``'s first card
    set.  ``tables`` are :func:`tables`' (or :func:`no_tables`'), ``hp`` the side's numbers (the
    layout of :mod:`.sides`), ``work`` is ``loop.scratch``'s.  It is inlined into the loop's ``play``
    (a call passed some 250 words of array descriptors at every decision).

    The moves are castle after castle, each with the hand's ``n_opt`` card sets in option order, so
    move ``i`` is the set ``i % n_opt`` at the ``i // n_opt``-th castle (``mcastle``); only the
    moves of nonzero weight are listed (``mrow``: their indexes, ``wts``: their softmax weights)."""
    cards = opt[2]
    loss, rowt, rowi, bluffs, sizes, _ = tables
    scores, wts, mcastle, mrow, bluff, part, cand, pool, pool_key, memo, tags, chosen, member, res, out_pick = work[:15]
    nk = vals.shape[0]
    hero = rp[kn.HERO_KIND]
    b = 0 if phase <= kn.RESPOND_FIRST else 1
    opening = phase == kn.OPEN_FIRST or phase == kn.OPEN_SECOND
    hand, table = kn.placing_hand(z, sc, rp, side, b, member)  # (a team member's own hand)
    code, first_row, n_opt = kn.option_rows(opt, table, hand)
    o = 1 - side
    _pool(z, pl, vals, sizes[T_POOL_BITS], hero, o, pool, pool_key)
    mean, spread, hero_avail = pool[o, 1], pool[o, 2], pool[o, 3] > 0
    count = 0
    for k in range(nk):
        count += pl[o, b, k]
    hero_here = hp[P_HERO_USE] if hero_avail else 0.0
    placed = count
    if count:
        hero_here = min(1.0, hero_here * count) if hero_avail else 0.0
    else:
        count = 2
    ue = _held(z, 0, kn.HAND) + _held(z, 0, kn.DECK)
    uf = _held(z, 1, kn.HAND) + _held(z, 1, kn.DECK)
    scale = spread * np.sqrt(count)  # the same product as the Python policy's, once per decision
    n_c = 0  # the castles, in move order
    if opening:
        for c in range(rp[kn.N_CASTLES]):
            if phase == kn.OPEN_FIRST or c != sc[kn.CASTLE_X]:
                mcastle[n_c] = c
                n_c += 1
    else:
        mcastle[0] = sc[kn.CASTLE_X + b]
        n_c = 1
    code0 = table_code(cs, points)
    # each castle's stake (scores[j]); what a card set's score takes from its castle is then only the
    # castle's control, neutral, own or the other's (its class c), and the stake
    present = 0  # a bit per class among the castles
    for j in range(n_c):
        castle = mcastle[j]
        scores[j] = castle_stake(cs, castle, side, code0, ue, uf, rp, points, res, hp[P_WIN_WEIGHT])
        c1 = _class(cs[castle], side)
        if not present & (1 << c1) or scores[j] > part[3, 1, c1]:
            part[3, 1, c1] = scores[j]  # the class's largest stake
        present |= 1 << c1
    # per set and class: the chance to win (part[c, 0, r]) and the removal's cost (part[c, 1, r]).  A
    # score, stake * chance - spending - removal, grows with the stake (in floats too: a chance is
    # never negative and each step rounds monotonically), so a set's best score in a class is at the class's largest stake: the
    # top score is among those, and a set scoring below the cutoff there scores below it at every
    # castle of the class.  The sets that may reach the cutoff are listed per class (cand[c, 1:1 +
    # cand[c, 0]]) against the cutoff so far, which only rises: the final ones are among them.
    temperature, resolution = hp[P_TEMPERATURE], hp[P_RESOLUTION]
    # a score more than 9 temperatures below the top weighs resolution * e^-9 < 0.5, which rounds to
    # 0 (for a resolution up to 4000): no division or exponential for it
    cut = 9.0 * temperature if resolution <= 4000 else np.inf
    spend, removal = hp[P_SPEND], hp[P_REMOVAL]
    top = -np.inf
    for c1 in range(3):
        if not present & (1 << c1):
            continue
        adj = 0.5 if c1 == 1 else (-0.5 if c1 == 2 else 0.0)
        hero_p = 1.0 - (0.0 if c1 == 1 else hero_here)
        # the chance by sum depends on the opponent's cards not lost, what it placed here and the class:
        # kept in ``memo`` across decisions and games (a slot per key, by hash; -1 until worked out)
        tag = (pool_key[o] * (rp[kn.MAX_AT] + 1) + placed) * 3 + c1
        slot = np.int64((np.uint64(tag) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - MEMO_BITS))
        if tags[slot] != tag:
            tags[slot] = tag
            for t in range(memo.shape[1]):
                memo[slot, t] = -1.0
        most = part[3, 1, c1]
        k = 0
        for r in range(n_opt):
            row = first_row + r
            t = rowi[row, I_SUM]
            if t < 0:  # the hero is in the set
                p = hero_p
            else:
                if memo[slot, t] < 0:
                    edge = t - count * mean + adj
                    memo[slot, t] = (1.0 - hero_here) / (1.0 + np.exp(-edge / scale))
                p = memo[slot, t]
            mc = rowi[row, I_CODE]
            rl = removal * (p * loss[c1, mc, 1] + (1 - p) * loss[c1, mc, 0])
            sw = spend * rowt[row, R_WORTH]
            part[c1, 0, r] = p
            part[c1, 1, r] = rl
            part[3, 0, r] = sw
            best = most * p - sw - rl
            top = max(top, best)
            cand[c1, 1 + k] = r
            k += best >= top - cut
        cand[c1, 0] = k
    cutoff = top - cut
    # the softmax: only the moves of nonzero weight are listed, in move order (a castle's from
    # cand[3, j] to cand[4, j]); a castle of the same class and stake as an earlier one has the same
    # scores, so it takes that castle's weights
    listed, total = 0, 0
    for j in range(n_c):
        c1 = _class(cs[mcastle[j]], side)
        stake = scores[j]
        cand[3, j] = listed
        same = -1
        for e in range(j):
            if scores[e] == stake and _class(cs[mcastle[e]], side) == c1:
                same = e
                break
        if same >= 0:
            for a in range(cand[3, same], cand[4, same]):
                mrow[listed] = mrow[a] + (j - same) * n_opt
                wts[listed] = wts[a]
                total += wts[a]
                listed += 1
        else:
            for a in range(cand[c1, 0]):
                r = cand[c1, 1 + a]
                sc_ = stake * part[c1, 0, r] - part[3, 0, r] - part[c1, 1, r]
                if sc_ >= cutoff:
                    w = np.int64(np.floor(resolution * np.exp((sc_ - top) / temperature) + 0.5))
                    if w > 0:
                        mrow[listed] = j * n_opt + r
                        wts[listed] = w
                        listed += 1
                        total += w
        cand[4, j] = listed
    n = n_c * n_opt
    # the bluffs (as Heuristic.weights): their mass is shared equally by the kinds (one weakest card;
    # the hero with one weakest card), and within a kind by its best-scoring half of the castles (the
    # first on ties); every weight is scaled by q = kinds x picks of each kind.  bluff[2 * c] is a
    # chosen bluff's move index, bluff[2 * c + 1] its share per unit of the softmax total
    num, den = np.int64(hp[P_BLUFF_NUM]), np.int64(hp[P_BLUFF_DEN])
    mult, n_ch = 1, 0
    if opening and num > 0:
        lone, hidden = bluffs[table, code, 0], bluffs[table, code, 1]
        kinds = (lone >= 0) + (hidden >= 0)
        if kinds > 0:
            keep_lone = max(1, n_c // 2) if lone >= 0 else 1
            keep_hidden = max(1, n_c // 2) if hidden >= 0 else 1
            q = kinds * keep_lone * keep_hidden
            mult = (den - num) * q
            for row in (lone, hidden):
                if row < 0:
                    continue
                keep = keep_lone if row == lone else keep_hidden
                share = num * (q // (kinds * keep))
                r = row - first_row
                taken = 0  # a bit per castle already chosen
                for j in range(n_c):  # its score at each castle
                    c1 = _class(cs[mcastle[j]], side)
                    part[3, 2, j] = scores[j] * part[c1, 0, r] - part[3, 0, r] - part[c1, 1, r]
                for _ in range(keep):  # the best scores first, the first on ties (a stable sort)
                    best = -1
                    for j in range(n_c):
                        if not taken & (1 << j) and (best < 0 or part[3, 2, j] > part[3, 2, best]):
                            best = j
                    taken |= 1 << best
                    bluff[2 * n_ch], bluff[2 * n_ch + 1] = best * n_opt + r, share
                    n_ch += 1
            for a in range(1, n_ch):  # in move order (a handful: insertion)
                i, s = bluff[2 * a], bluff[2 * a + 1]
                c = a
                while c > 0 and bluff[2 * (c - 1)] > i:
                    bluff[2 * c], bluff[2 * c + 1] = bluff[2 * (c - 1)], bluff[2 * (c - 1) + 1]
                    c -= 1
                bluff[2 * c], bluff[2 * c + 1] = i, s
    # one pick over the listed moves and the chosen bluffs, merged in move order
    grand = total * mult
    for c in range(n_ch):
        grand += total * bluff[2 * c + 1]
    index = kn._below(rng, grand)
    out_pick[0], out_pick[1] = index, grand
    a, c = 0, 0
    move = n - 1
    while a < listed or c < n_ch:
        i = mrow[a] if a < listed else n
        if c < n_ch and bluff[2 * c] <= i:
            w = total * bluff[2 * c + 1]
            if bluff[2 * c] == i:
                w += wts[a] * mult
                a += 1
            i = bluff[2 * c]
            c += 1
        else:
            w = wts[a] * mult
            a += 1
        if index < w:
            move = i
            break
        index -= w
    j = 0  # the move's castle and set (counted: a division costs more)
    while move >= (j + 1) * n_opt:
        j += 1
    row = first_row + move - j * n_opt
    for k in range(nk):
        chosen[k] = cards[row, k]
    return mcastle[j] if opening else -1


@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
def choose_removal(pl, side, b, opt, rowt, hp, rng, scores, wts, chosen, out_pick):
    """The heuristic's removal after a lost neutral battle: the softmax of minus what is lost."""
    cards = opt[2]
    _code, first_row, n = kn.option_rows(opt, 2, pl[side, b])
    for r in range(n):
        scores[r] = -(rowt[first_row + r, R_WORTH] + 0.1 * rowt[first_row + r, R_SIZE])
    _softmax(scores, n, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    i = _pick(wts, n, rng, out_pick)
    for k in range(cards.shape[1]):
        chosen[k] = cards[first_row + i, k]



@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _split_score(held, given, partner, worth, hero, hp, at):
    """A split's score: minus how unevenly the giver's ``held`` cards would be shared, less a hundredth of the worth
    given (the heuristic's; ``at`` -1), else the learned weights at ``at`` times its features
    (``policies.team_split.features``), summed in their order from 0.0."""
    if at < 0:
        return -abs((held - given) - given) - 0.01 * worth
    s = 0.0
    s = s + hp[at + S_ALONE] * float(abs((held - given) - given))
    s = s + hp[at + S_TEAM] * float(abs((held - given) - (partner + given)))
    s = s + hp[at + S_WORTH] * worth
    s = s + hp[at + S_HERO] * hero
    return s


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def choose_split(src, most, partner, hero, opt, rowt, hp, at, rng, scores, wts, chosen, out_pick):
    """The team split: the softmax of the scores of giving 1 to ``most`` cards of the giver's ``src`` to a partner
    holding ``partner`` (:func:`_split_score`: the heuristic's, or the learned policy's from its weights at ``at``,
    :func:`split_weights_at`; ``hero``: the hero's kind, -1 for none), over the engine's moves (the option rows of
    ``src`` that keep nothing back, in their order, which is the engine's); the cards into ``chosen``.  False when
    there is none."""
    cards = opt[2]
    _code, first_row, n_rows = kn.option_rows(opt, 1, src)
    held = kn._size(src)
    n = 0
    for r in range(n_rows):
        given = rowt[first_row + r, R_SIZE]
        if given <= most:
            given_hero = 1.0 if hero >= 0 and cards[first_row + r, hero] > 0 else 0.0
            scores[n] = _split_score(held, given, partner, rowt[first_row + r, R_WORTH], given_hero, hp, at)
            n += 1
    if n == 0:
        return False
    _softmax(scores, n, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    i = _pick(wts, n, rng, out_pick)
    for r in range(n_rows):
        if rowt[first_row + r, R_SIZE] <= most:
            if i == 0:
                for k in range(cards.shape[1]):
                    chosen[k] = cards[first_row + r, k]
                return True
            i -= 1
    return False


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def choose_order(drawer, hp, rng, scores, wts, out_pick):
    """The heuristic's team order (the learned policy's too), as ``Heuristic``'s score: the partner
    opens (0.1) rather than the drawer (0); the softmax over members 0 and 1, one pick."""
    for member in range(2):
        scores[member] = 0.0 if member == drawer else 0.1
    _softmax(scores, 2, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    return _pick(wts, 2, rng, out_pick)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _next_discard(m, src, size):
    """The card set after ``m`` (of ``size`` cards from ``src``) in the engine's order of the setup
    discard's moves (``Cards.sub_multisets``: the counts in lexicographic order, the strongest kind
    counting fastest); False after the last.  From ``m`` all zeros, the first one."""
    nk = m.shape[0]
    rest = 0
    start = nk - 1
    if kn._size(m) == size:  # raise the last kind that can take one more card from a later kind
        start = -1
        for i in range(nk - 2, -1, -1):
            rest += m[i + 1]
            if m[i] < src[i] and rest > 0:
                m[i] += 1
                rest -= 1
                start = i
                break
        if start < 0:
            return False
    else:
        rest = size
        start = -1
    for k in range(nk - 1, start, -1):  # the rest as late as it goes: the least set after the raised kind
        m[k] = min(src[k], rest)
        rest -= m[k]
    return rest == 0


#: a hidden unit's numbers in the learned policy's row (``policy_codes.network_size``: its inputs, bias and output)
_UNIT_NUMBERS = network_size(1) - 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def discard_weights_at(hp):
    """Where the learned policy's row ``hp`` holds its discard's weights (after its count D,
    ``policy_codes.DISCARD_FEATURES``), or -1 where it holds none (the row ends before D, or D is 0:
    the heuristic's discard)."""
    at = _discard_count_at(hp)
    return at + 1 if hp.shape[0] > at and hp[at] > 0 else -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def split_weights_at(hp):
    """Where the learned policy's row ``hp`` holds its team split's weights (after its count S,
    ``policy_codes.SPLIT_FEATURES``), or -1 where it holds none (the row ends before S, or S is 0: the heuristic's
    split)."""
    at = _discard_count_at(hp)
    if hp.shape[0] <= at:
        return -1
    at += 1 + int(hp[at])  # policy_codes.split_start, in the row
    return at + 1 if hp.shape[0] > at and hp[at] > 0 else -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _discard_count_at(hp):
    """Where the row ``hp`` holds its discard's count D, after the network (``policy_codes.discard_start``, in the
    row): the start of the decisions' weights that follow the placements'."""
    units = int(hp[NETWORK_AT]) if hp.shape[0] > NETWORK_AT else 0
    return NETWORK_AT + 1 + units * _UNIT_NUMBERS


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _discard_score(m, src, worth, hp, at):
    """A discard's score: minus its worth (the heuristic's; ``at`` -1), else the learned weights at ``at``
    times its features (``policies.discard.features``), summed in their order from 0.0."""
    if at < 0:
        return -_worth(m, worth)
    weakest = -1
    kinds = 0
    for k in range(src.shape[0]):
        if src[k] > 0 and (weakest < 0 or worth[k] < worth[weakest]):
            weakest = k
        if src[k] > m[k]:
            kinds += 1
    s = 0.0
    s = s + hp[at + D_WORTH] * _worth(m, worth)
    s = s + hp[at + D_WEAKEST] * float(m[weakest])
    s = s + hp[at + D_KINDS] * float(kinds)
    return s


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def choose_discard(src, size, worth, hp, at, rng, m, out_pick):
    """The setup discard: the softmax of the scores of ``size`` cards from ``src`` (the deck's valued
    cards; :func:`_discard_score`: the heuristic's, or the learned policy's from its weights at ``at``,
    :func:`discard_weights_at`), over the engine's order of the moves, into ``m``; one random number as
    :func:`_pick` draws it.  The moves are walked three times (the top score, the total weight, the
    pick) rather than listed: a large deck has more of them than the scratch holds.  False when there
    is none."""
    temperature, resolution = hp[P_TEMPERATURE], hp[P_RESOLUTION]
    m[:] = 0
    top = -np.inf
    while _next_discard(m, src, size):
        top = max(top, _discard_score(m, src, worth, hp, at))
    if top == -np.inf:
        return False
    total = 0
    m[:] = 0
    while _next_discard(m, src, size):
        total += np.int64(np.floor(resolution * np.exp((_discard_score(m, src, worth, hp, at) - top) / temperature) + 0.5))
    index = kn._below(rng, total)
    out_pick[0], out_pick[1] = index, total
    m[:] = 0
    while _next_discard(m, src, size):
        w = np.int64(np.floor(resolution * np.exp((_discard_score(m, src, worth, hp, at) - top) / temperature) + 0.5))
        if index < w:
            break
        index -= w
    return True
