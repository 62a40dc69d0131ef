"""The learned policy compiled: a softmax over a score of each legal placement's features, linear plus a small
network (:data:`.policy_codes.NETWORK_AT`; none in the linear policy's row).

The features (:data:`.sides.FEATURES`) are the heuristic's ingredients, read from what the side may
see and the engine's tables exactly as :mod:`.heuristic` reads them (the castle's stake from the
engine's castle points table, the guessed chance to win the battle against the opponent's cards not
lost for good, the worth of the cards spent, the worth a battle removes, the bluffing openings of
the hand), so that one model serves every rule set.  A move's score is ``w . phi``, summed in the
groups of :data:`.sides.SCORE_GROUPS` (the card set's own features once a set, those of a castle's
class once a set and class, the stake's once a move; the Python twin sums in the same order), its
weight the heuristic's whole-number softmax, and one random number picks it, in the Python twin's
order (:class:`~guyenne_explore.analysis.policies.strong.Strong`); removals are the heuristic's.
``tests/test_strong.py`` replays compiled games and checks every decision of this policy against the
Python one.

Its decision is compiled into the loop (inlined), and numba's cache of :mod:`.loop` is keyed by
``loop.py`` alone: after editing this module, remove ``__pycache__/loop.*`` (touching ``loop.py`` was not
enough here), or the cached loop keeps the old decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel as kn
from .heuristic_kernel import (T_POOL_BITS, I_CODE, I_SUM, R_SIZE, R_WORTH, _class, _held, _pick, _pool, _softmax,
                               castle_stake, table_code)
from .policy_codes import (F_ANSWER, F_BIG, F_CHANCE, F_EDGE, F_GAIN, F_GAP, F_HERO, F_HERO_SAFE, F_HERO_SET, F_HIDDEN,
                           F_KEEP, F_KEEP_HERO, F_LATE, F_LONE, F_OWN, F_REMOVAL, F_RISK, F_SHARE, F_SIZE, F_SPENT,
                           F_STAKE, F_THEIRS, FEATURES, G_CARDS, G_CLASS, G_STAKE, HERO_SET, N_HEURISTIC, NETWORK_AT, P_HERO_USE,
                           P_RESOLUTION, P_TEMPERATURE, P_WIN_WEIGHT)

N_FEATURES = len(FEATURES)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def choose_placement(z, pl, cs, sc, rp, vals, opt, points, tables, hp, side, phase, rng, work):
    """The learned policy's placement: every legal (castle, cards) scored ``w . phi``, the softmax in
    whole-number weights, one pick.  Returns the castle (-1 when the castle is set) and writes the
    cards into ``work``'s first card set; the arguments are :func:`.heuristic.choose_placement`'s,
    ``hp`` the side's row (:data:`.sides.N_HEURISTIC` numbers, then the weights)."""
    cards = opt[2]
    loss, rowt, rowi, bluffs, sizes, _ = tables
    scores, wts, mcastle, part = work[0], work[1], work[2], work[5]
    pool, pool_key, chosen, res, out_pick = work[7], work[8], work[11], work[13], work[14]
    nk = vals.shape[0]
    hero = rp[kn.HERO_KIND]
    b = 0 if phase <= kn.RESPOND_FIRST else 1
    opening = phase == kn.OPEN_FIRST or phase == kn.OPEN_SECOND
    hand, table = kn.placing_hand(z, sc, rp, side, b, work[12])  # (a team member's own hand)
    code, first_row, n_opt = kn.option_rows(opt, table, hand)
    o = 1 - side
    _pool(z, pl, vals, sizes[T_POOL_BITS], hero, o, pool, pool_key)
    # the opponent's hero is out of sight unless the public record shows it in its discard (the loop's
    # SHOWN_HERO; the Python policy's seen_facts)
    mean, spread, hero_avail = pool[o, 1], pool[o, 2], pool[o, 3] > 0 and sc[kn.SHOWN_HERO + o] == 0
    count = 0
    for k in range(nk):
        count += pl[o, b, k]
    placed = count
    hero_here = hp[P_HERO_USE] if hero_avail else 0.0
    if count:
        hero_here = min(1.0, hero_here * count) if hero_avail else 0.0
    else:
        count = 2
    ue = _held(z, 0, kn.HAND) + _held(z, 0, kn.DECK)
    uf = _held(z, 1, kn.HAND) + _held(z, 1, kn.DECK)
    in_hand = kn._size(hand)
    mine = ue if side == 0 else uf
    theirs = uf if side == 0 else ue
    # what a first battle's move keeps for the second (the hand's valued total and hero)
    hand_total = 0
    for k in range(nk):
        if k != hero:
            hand_total += hand[k] * vals[k]
    hero_in_hand = hero >= 0 and hand[hero] > 0
    scale = spread * np.sqrt(count)
    n_c = 0
    if opening:
        for c in range(rp[kn.N_CASTLES]):
            if phase == kn.OPEN_FIRST or c != sc[kn.CASTLE_X]:
                mcastle[n_c] = c
                n_c += 1
    else:
        mcastle[0] = sc[kn.CASTLE_X + b]
        n_c = 1
    present = 0  # a bit per class among the castles
    for j in range(n_c):
        present |= 1 << _class(cs[mcastle[j]], side)
    lone = bluffs[table, code, 0] if opening else -1
    hidden = bluffs[table, code, 1] if opening else -1
    w = hp[N_HEURISTIC:]
    units = int(hp[NETWORK_AT]) if hp.shape[0] > NETWORK_AT else 0
    x, hid, unit = work[16], work[17], work[18]
    # the score in the order of sides.SCORE_GROUPS: each set's own features (part[3, 0, r]) ...
    for r in range(n_opt):
        row = first_row + r
        with_hero = rowi[row, I_SUM] < 0
        size = rowt[row, R_SIZE]
        spent_total = 0
        for k in range(nk):
            if k != hero:
                spent_total += cards[row, k] * vals[k]
        f = x
        f[F_SPENT] = rowt[row, R_WORTH]
        f[F_SIZE] = size
        f[F_HERO] = 1.0 if with_hero else 0.0
        f[F_SHARE] = size / in_hand
        f[F_LONE] = 1.0 if row == lone else 0.0
        f[F_HIDDEN] = 1.0 if row == hidden else 0.0
        f[F_ANSWER] = 0.0 if opening else size - placed
        f[F_HERO_SAFE] = 1.0 if with_hero and not hero_avail else 0.0
        f[F_LATE] = size / mine
        f[F_KEEP] = (hand_total - spent_total) / 10.0 if b == 0 else 0.0
        f[F_KEEP_HERO] = 1.0 if b == 0 and hero_in_hand and not with_hero else 0.0
        f[F_BIG] = size if not opening and placed >= 3 else 0.0
        f[F_GAP] = size * (mine - theirs) / 10.0
        f[F_HERO_SET] = 1.0 if with_hero and size >= HERO_SET else 0.0
        s = 0.0
        for i in G_CARDS:
            s = s + w[i] * f[i]
        part[3, 0, r] = s
        if units > 0:
            group_inputs(hp, units, G_CARDS, f, hid, 3, r)
    # ... each set's features with a castle's class (its chance part[c1, 0, r], their sum part[c1, 1, r]) ...
    for c1 in range(3):
        if not present & (1 << c1):
            continue
        adj = 0.5 if c1 == 1 else (-0.5 if c1 == 2 else 0.0)
        for r in range(n_opt):
            row = first_row + r
            t = rowi[row, I_SUM]
            z_edge = 0.0
            if t < 0:  # the hero is in the set
                p = 1.0 - (0.0 if c1 == 1 else hero_here)
            else:
                edge = t - count * mean + adj
                z_edge = edge / scale
                p = (1.0 - hero_here) / (1.0 + np.exp(-z_edge))
            mc = rowi[row, I_CODE]
            f = x
            f[F_CHANCE] = p
            f[F_REMOVAL] = p * loss[c1, mc, 1] + (1 - p) * loss[c1, mc, 0]
            f[F_OWN] = 1.0 if c1 == 1 else 0.0
            f[F_THEIRS] = 1.0 if c1 == 2 else 0.0
            f[F_EDGE] = z_edge
            s = 0.0
            for i in G_CLASS:
                s = s + w[i] * f[i]
            if units > 0:
                group_inputs(hp, units, G_CLASS, f, hid, c1, r)
            part[c1, 0, r] = p
            part[c1, 1, r] = s
    # ... and the castle's stake: a move's score is (cards + class) + stake
    code0 = table_code(cs, points)
    n = 0
    for j in range(n_c):
        castle = mcastle[j]
        stake = castle_stake(cs, castle, side, code0, ue, uf, rp, points, res, hp[P_WIN_WEIGHT])
        c1 = _class(cs[castle], side)
        for r in range(n_opt):
            p = part[c1, 0, r]
            gain = stake * p
            risk = gain * (1 - p)
            s = 0.0
            s = s + w[F_GAIN] * gain
            s = s + w[F_STAKE] * stake
            s = s + w[F_RISK] * risk
            scores[n] = (part[3, 0, r] + part[c1, 1, r]) + s
            if units > 0:  # the network's term: its inputs summed by group, the set's and class's worked out once
                x[F_GAIN], x[F_STAKE], x[F_RISK] = gain, stake, risk
                scores[n] = scores[n] + network_term(hp, units, hid, c1, r, x, unit)
            n += 1
    _softmax(scores, n, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    move = _pick(wts, n, rng, out_pick)
    j = move // n_opt
    row = first_row + move - j * n_opt
    for k in range(nk):
        chosen[k] = cards[row, k]
    return mcastle[j] if opening else -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def group_inputs(hp, units, group, f, out, c, r):
    """Each hidden unit's input from one group of :data:`.policy_codes.SCORE_GROUPS` (``sum U_jk f_k`` over the group
    in its order, from 0.0) into ``out[c, r, j]`` (a set's, ``c`` = 3, or its castle class's): worked out once a set
    or class, not once a move.  The input weights are stored a feature at a time (:data:`.policy_codes.NETWORK_AT`),
    so the inner loop runs over the units, contiguous: each unit's sum is still added in the group's order."""
    u0 = NETWORK_AT + 1
    for j in range(units):
        out[c, r, j] = 0.0
    for k in group:
        fk = f[k]
        base = u0 + k * units
        for j in range(units):
            out[c, r, j] = out[c, r, j] + hp[base + j] * fk


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def network_term(hp, units, hid, c1, r, x, stake):
    """The network's part of a move's score, ``sum_j v_j max(0, b_j + U_j . phi)``, read from the side's row at
    :data:`.policy_codes.NETWORK_AT`: each unit's input is ``b_j + ((cards_j + control_j) + stake_j)``, the groups'
    sums as the linear score groups them (the set's ``hid[3, r]`` and its class's ``hid[c1, r]`` from
    :func:`group_inputs`, the stake's from ``x`` into ``stake``); summed as the Python twin
    (:func:`..policies.network.network_term`) sums it."""
    u0 = NETWORK_AT + 1
    b0 = u0 + units * N_FEATURES
    v0 = b0 + units
    for j in range(units):
        stake[j] = 0.0
    for k in G_STAKE:
        xk = x[k]
        base = u0 + k * units
        for j in range(units):
            stake[j] = stake[j] + hp[base + j] * xk
    out = 0.0
    for j in range(units):
        a = hp[b0 + j] + ((hid[3, r, j] + hid[c1, r, j]) + stake[j])
        if a > 0.0:  # a rectified unit: no transcendental a move, the compiled loop's pace kept
            out = out + hp[v0 + j] * a
    return out
