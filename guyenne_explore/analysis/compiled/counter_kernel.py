"""The gauntlet's counter-policies compiled: each one's idea at the placements, read from what its side may see.

:mod:`..policies.counters` writes each counter as one idea that leaves every other decision to the heuristic.  The
ideas of the five that read the table alone (the bet-size reader, the bluffer, the folder, the caller and bully, the
tell reader) are compiled here, so that a counter plays its games in the one game loop, a thousand times as fast as in
the engine's: training meets them in its league, and ``guyenne-explore exploit`` plays them in seconds.  The loop asks
:func:`counter_placement` first; where it returns :data:`NO_IDEA` the heuristic decides, with the same numbers as the
heuristic's own row.  An idea's move is sure: it is traced as the pick of index 0 of a total weight of 1, which is
what the Python counter's ``weights`` gives it, and ``tests/test_counters_compiled.py`` replays compiled games through the
engine holding every decision to the Python counter's.

A counter's moves are the hand's option rows (:mod:`.options`, the engine's legal card sets), castle after castle in
the castles' order; where two sets tie on a counter's measure, both twins take the one that keeps the stronger cards
(fewer of the strongest kind, then of the next), and where two castles tie the first.

Numba's cache of :mod:`.loop` is keyed by ``loop.py`` alone: after editing this module remove ``__pycache__/loop.*``
and ``__pycache__/search_kernel.*``, as after editing :mod:`.strong_kernel`.
"""

from __future__ import annotations

from numba import njit

from . import kernel as kn
from .heuristic_kernel import _held, castle_stake, table_code
from .policy_codes import I_BLUFFER, I_CALLER, I_FOLDER, I_READER, I_TELL_READER, P_IDEA, P_WIN_WEIGHT, TELL_SUSPECT

#: what :func:`counter_placement` returns where its counter has no idea (the heuristic decides)
NO_IDEA = -3
#: the orders of :func:`_best_row`: (hero, total, size), the cheapest; (total, size) of the sets without the hero
#: whose total beats a need (strictly, or at least it); (size, total), the smallest
CHEAPEST, BEATING, AT_LEAST, SMALLEST = range(4)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _keeps_stronger(cards, r1, r2, nk):
    """Whether card set ``r1`` keeps stronger cards than ``r2``: fewer of the strongest kind where they differ."""
    for k in range(nk - 1, -1, -1):
        if cards[r1, k] != cards[r2, k]:
            return cards[r1, k] < cards[r2, k]
    return False


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _best_row(cards, vals, hero, first, n, nk, order, need):
    """The row among ``first .. first + n`` that comes first in ``order`` (ties: :func:`_keeps_stronger`); -1 where
    none qualifies (:data:`BEATING`, :data:`AT_LEAST`: no set without the hero beats ``need``)."""
    best, b1, b2, b3 = -1, 0.0, 0.0, 0.0
    for row in range(first, first + n):
        total, size = 0, 0
        for k in range(nk):
            total += cards[row, k] * vals[k]
            size += cards[row, k]
        with_hero = 1 if hero >= 0 and cards[row, hero] > 0 else 0
        if order == CHEAPEST:
            k1, k2, k3 = float(with_hero), float(total), float(size)
        elif order == SMALLEST:
            k1, k2, k3 = float(size), float(total), 0.0
        else:
            if with_hero or not (total > need if order == BEATING else total >= need):
                continue
            k1, k2, k3 = float(total), float(size), 0.0
        if best >= 0:
            if k1 != b1:
                better = k1 < b1
            elif k2 != b2:
                better = k2 < b2
            elif k3 != b3:
                better = k3 < b3
            else:
                better = _keeps_stronger(cards, row, best, nk)
            if not better:
                continue
        best, b1, b2, b3 = row, k1, k2, k3
    return best


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _row_of(cards, first, n, nk, target):
    """The row among ``first .. first + n`` whose card set is ``target``; -1 where it is not legal."""
    for row in range(first, first + n):
        same = True
        for k in range(nk):
            if cards[row, k] != target[k]:
                same = False
                break
        if same:
            return row
    return -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _weakest(cards, hero, nk):
    """The weakest valued kind of ``cards`` (the kinds run from the weakest, the hero last); -1 where none."""
    for k in range(nk):
        if k != hero and cards[k] > 0:
            return k
    return -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _top_castle(cs, rp, points, res, hp, who, ue, uf, skip):
    """The castle worth most to ``who`` (the engine's scoring, as ``castle_stake``), the first of equals, ``skip``
    left out (-1: none)."""
    code0 = table_code(cs, points)
    best, top = -1, 0.0
    for c in range(rp[kn.N_CASTLES]):
        if c == skip:
            continue
        stake = castle_stake(cs, c, who, code0, ue, uf, rp, points, res, hp[P_WIN_WEIGHT])
        if best < 0 or stake > top:
            best, top = c, stake
    return best


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def counter_placement(z, pl, cs, sc, rp, vals, opt, points, hp, side, phase, work):
    """The counter's placement where its idea (``hp[P_IDEA]``) has one: the castle (-1 at an answer, where it is set)
    with the cards written into ``work``'s first card set, and the trace's pick (index 0 of a total of 1); else
    :data:`NO_IDEA`.  The arguments are :func:`.heuristic_kernel.choose_placement`'s."""
    cards = opt[2]
    chosen, member, res, out_pick, target = work[11], work[12], work[13], work[14], work[3]
    idea = int(hp[P_IDEA])
    nk = vals.shape[0]
    hero = rp[kn.HERO_KIND]
    b = 0 if phase <= kn.RESPOND_FIRST else 1
    opening = phase == kn.OPEN_FIRST or phase == kn.OPEN_SECOND
    hand, table = kn.placing_hand(z, sc, rp, side, b, member)  # (a team member's own hand)
    _code, first, n = kn.option_rows(opt, table, hand)
    o = 1 - side
    ue = _held(z, 0, kn.HAND) + _held(z, 0, kn.DECK)
    uf = _held(z, 1, kn.HAND) + _held(z, 1, kn.DECK)
    row = -1
    castle = -1
    if opening:
        if idea == I_TELL_READER:
            return NO_IDEA
        castle = _top_castle(cs, rp, points, res, hp, side, ue, uf, sc[kn.CASTLE_X] if phase == kn.OPEN_SECOND
                             else -1)
        for k in range(nk):
            target[k] = 0
        if idea == I_CALLER:  # its strongest valued cards, four where it keeps a card for the second castle still
            valued = 0
            for k in range(nk):
                if k != hero:
                    valued += hand[k]
            reserve = 1 if phase == kn.OPEN_FIRST else 0
            want = 4 if valued >= 4 and kn._size(hand) - 4 >= reserve else 3
            if valued < want:
                return NO_IDEA
            for k in range(nk - 1, -1, -1):
                if k != hero and want > 0:
                    target[k] = min(hand[k], want)
                    want -= target[k]
        else:  # a number of its weakest card: three (reader), one (bluffer, folder)
            weakest = _weakest(hand, hero, nk)
            if weakest < 0:
                return NO_IDEA if idea != I_FOLDER else _smallest(cards, vals, hero, first, n, nk, castle, chosen,
                                                                  out_pick)
            target[weakest] = 3 if idea == I_READER else 1
        row = _row_of(cards, first, n, nk, target)
        if row < 0:
            return NO_IDEA if idea != I_FOLDER else _smallest(cards, vals, hero, first, n, nk, castle, chosen, out_pick)
        return _played(cards, row, nk, castle, chosen, out_pick)
    count = 0
    for k in range(nk):
        count += pl[o, b, k]
    if idea == I_BLUFFER:
        return NO_IDEA
    if idea == I_FOLDER:
        weakest = _weakest(hand, hero, nk)
        if weakest >= 0:
            for k in range(nk):
                target[k] = 0
            target[weakest] = 1
            row = _row_of(cards, first, n, nk, target)
        if row < 0:
            return _smallest(cards, vals, hero, first, n, nk, -1, chosen, out_pick)
        return _played(cards, row, nk, -1, chosen, out_pick)
    if idea == I_READER:  # a lone card is a hero, three or more are weak cards
        weakest = -1  # the game's weakest valued kind
        for k in range(nk):
            if k != hero:
                weakest = k
                break
        if count == 1:
            row = _best_row(cards, vals, hero, first, n, nk, CHEAPEST, 0.0)
        elif count >= 3 and weakest >= 0:
            row = _best_row(cards, vals, hero, first, n, nk, BEATING, float(vals[weakest] * count))
            if row < 0:
                row = _best_row(cards, vals, hero, first, n, nk, CHEAPEST, 0.0)
        else:
            return NO_IDEA
        return _played(cards, row, nk, -1, chosen, out_pick)
    # the opponent's cards out of sight: all it holds but what it lost for good and, for the tell reader, what it
    # showed into its discard (nothing placed this round is face up before the battles)
    strongest, hidden_hero, n_valued, sum_valued = -1, 0, 0, 0
    for k in range(nk):
        unseen = z[o, kn.HAND, k] + z[o, kn.DECK, k] + z[o, kn.DISCARD, k] + pl[o, 0, k] + pl[o, 1, k]
        if idea == I_TELL_READER:
            unseen -= kn.shown(sc, o, k)
        if unseen <= 0:
            continue
        if k == hero:
            hidden_hero = unseen
        else:
            strongest = k
            n_valued += unseen
            sum_valued += unseen * vals[k]
    if idea == I_CALLER:  # calls one or two cards with what beats that many of the strongest unseen
        if not 0 < count <= 2 or strongest < 0:
            return NO_IDEA
        row = _best_row(cards, vals, hero, first, n, nk, BEATING, float(vals[strongest] * count))
        return NO_IDEA if row < 0 else _played(cards, row, nk, -1, chosen, out_pick)
    # the tell reader: a small bet while the hero may be there is the hero (one card more at the castle worth most
    # to the opponent); else valued cards at their mean
    if count == 0:
        return NO_IDEA
    at = sc[kn.CASTLE_X + b]
    cheapest = _best_row(cards, vals, hero, first, n, nk, CHEAPEST, 0.0)
    their_best = _top_castle(cs, rp, points, res, hp, o, ue, uf, -1)
    if hidden_hero > 0 and count <= TELL_SUSPECT + (1 if at == their_best else 0):
        return _played(cards, cheapest, nk, -1, chosen, out_pick)
    mean = sum_valued / n_valued if n_valued else 0.0
    need = count * mean
    row = _best_row(cards, vals, hero, first, n, nk, AT_LEAST if cs[at] == side else BEATING, need)
    if row < 0 and hidden_hero == 0 and hero >= 0:  # its hero alone, a sure win
        for k in range(nk):
            target[k] = 1 if k == hero else 0
        row = _row_of(cards, first, n, nk, target)
    return _played(cards, cheapest if row < 0 else row, nk, -1, chosen, out_pick)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _smallest(cards, vals, hero, first, n, nk, castle, chosen, out_pick):
    """The folder's move where no lone weakest card is legal: the smallest set, then the cheapest."""
    return _played(cards, _best_row(cards, vals, hero, first, n, nk, SMALLEST, 0.0), nk, castle, chosen, out_pick)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _played(cards, row, nk, castle, chosen, out_pick):
    """Row ``row``'s cards into ``chosen``, traced as a sure pick; the castle."""
    for k in range(nk):
        chosen[k] = cards[row, k]
    out_pick[0], out_pick[1] = 0, 1
    return castle
