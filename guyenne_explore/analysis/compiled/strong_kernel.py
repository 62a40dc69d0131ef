"""The learned policy compiled: a softmax over a score of each legal placement's features, linear plus a small
network (:data:`.policy_codes.NETWORK_AT`; none in the linear policy's row).

The features (:data:`.sides.FEATURES`) are the heuristic's ingredients, read from what the side may
see and the engine's tables exactly as :mod:`.heuristic` reads them (the castle's stake from the
engine's castle points table, the guessed chance to win the battle against the opponent's cards not
lost for good, the worth of the cards spent, the worth a battle removes, the bluffing openings of
the hand; and at an answer the exact chance against every set of the opponent's hidden cards,
:func:`count_sets`), so that one model serves every rule set.  A move's score is ``w . phi``, summed in the
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
from .heuristic_kernel import (MAX_OPTIONS, T_POOL_BITS, I_CODE, I_SUM, R_SIZE, R_WORTH, _class, _held, _pick, _pool,
                               _softmax, castle_stake, table_code)
from .policy_codes import (F_ANSWER, F_BIG, F_CHANCE, F_COUNTED, F_EDGE, F_GAIN, F_GAP, F_HERO, F_HERO_SAFE, F_HERO_SET,
                           F_HIDDEN,
                           F_KEEP, F_KEEP_HERO, F_LATE, F_LONE, F_OWN, F_REMOVAL, F_RISK, F_SHARE, F_SIZE, F_SPENT,
                           F_STAKE, F_THEIRS, FEATURES, G_CARDS, G_CLASS, G_STAKE, HERO_SET, MAX_HIDDEN, N_HEURISTIC,
                           NETWORK_AT, P_HERO_USE, P_RESOLUTION, P_TEMPERATURE, P_WIN_WEIGHT)

N_FEATURES = len(FEATURES)
# The policy's scratch (``loop.scratch``'s last three arrays) is flat, in rows of ROW numbers, one number a card set,
# so that the network's loops over the sets, the innermost, read rows at constant distances and write another array
# than they read: LLVM vectorises them (a unit's sum over a group stays in its order, each set's in its own lane).
# A 2-D array's rows lie at distances known only at run time, and a loop over the hidden units (8) is too short to
# vectorise.  A row is a cache line longer than the most sets, so that rows do not share the L1 cache's sets.
ROW = MAX_OPTIONS + 8
#: the first array: a row a feature (a set's features are a view across the rows, where the linear score reads them
#: and the network's loops read a feature of every set), the row of each move's network output at a castle, then the
#: network's input weights unit by unit (``NET_WEIGHTS + j * N_FEATURES + k``, copied from the side's row once a
#: decision: the row stores them a feature at a time, at distances that depend on the number of units)
NET_OUT = N_FEATURES * ROW
NET_WEIGHTS = NET_OUT + ROW
NET_SIZE = NET_WEIGHTS + MAX_HIDDEN * N_FEATURES
#: the second: each unit's input from the set's group (unit j's row at ``j * ROW``)
SET_SIZE = MAX_HIDDEN * ROW
#: the third: for each castle class c1 present, each unit's inputs from the set's and the class's groups summed (unit
#: j's row at ``(c1 * MAX_HIDDEN + j) * ROW``), as every move at a castle of the class adds them
CLASS_SIZE = 3 * MAX_HIDDEN * ROW
#: the recorder's buffers (``loop.scratch``'s last three arrays; empty but where a self-play is recorded,
#: :mod:`.recording`): the features of every legal placement, a row a move, in float32; a row a decision, these columns
#: (the game's index in the call, the side, the placement point, its first feature row, its moves, the move chosen,
#: its whole-number weight and their total: the behaviour policy's probability); and where the two stand
RECORD_COLUMNS = ("game", "side", "point", "first", "moves", "chosen", "weight", "total")
D_GAME, D_SIDE, D_POINT, D_FIRST, D_MOVES, D_CHOSEN, D_WEIGHT, D_TOTAL = range(len(RECORD_COLUMNS))
#: the positions' array: feature rows and decisions written, the game under way (set by the caller), 1 once a
#: decision found no room (nothing more is written), the learned policy's placements so far in the game, and the
#: index of a placement at which the move of index ``R_FORCE_MOVE`` is played instead of the policy's (-1: none)
R_ROWS, R_DECISIONS, R_GAME, R_OVERFLOW, R_SEEN, R_FORCE_AT, R_FORCE_MOVE = range(7)
N_AT = 7
# network_terms sums a move's stake group in this order
assert G_STAKE == (F_GAIN, F_STAKE, F_RISK)


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
    # SHOWN; the Python policy's seen_facts)
    mean, spread, hero_avail = pool[o, 1], pool[o, 2], pool[o, 3] > 0 and kn.shown(sc, o, hero) == 0
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
    # at an answer, the sets of as many of the opponent's hidden cards as lie face down there, by total (F_COUNTED):
    # counted where the model reads them or a self-play is recorded (training learns its weights), else left at 0,
    # which a model whose weights of it are 0 scores alike (a tenth of a game's time saved)
    reads = w[F_COUNTED] != 0.0
    for j in range(units):
        reads = reads or hp[NETWORK_AT + 1 + F_COUNTED * units + j] != 0.0
    ways = work[23]
    hero_sets, all_sets = 0, 0
    if not opening and placed > 0 and (reads or work[20].shape[0] > 0):
        hero_sets, all_sets = count_sets(z, pl, sc, vals, hero, o, placed, work[3], ways)
    net, cards_in, hid = work[16], work[17], work[18]
    if units > 0:
        unit_weights(hp, units, net)
    # the score in the order of sides.SCORE_GROUPS: each set's own features (part[3, 0, r]) ...
    for r in range(n_opt):
        row = first_row + r
        with_hero = rowi[row, I_SUM] < 0
        size = rowt[row, R_SIZE]
        spent_total = 0
        for k in range(nk):
            if k != hero:
                spent_total += cards[row, k] * vals[k]
        f = net[r:NET_OUT:ROW]  # the set's features, a number a row
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
        set_inputs(net, units, n_opt, cards_in)
    # ... each set's features with a castle's class (its chance part[c1, 0, r], their sum part[c1, 1, r]) ...
    for c1 in range(3):
        if not present & (1 << c1):
            continue
        for r in range(n_opt):
            row = first_row + r
            p, removal, z_edge = class_terms(c1, rowi[row, I_SUM], loss[c1, rowi[row, I_CODE]], hero_here, count,
                                             mean, scale)
            f = net[r:NET_OUT:ROW]
            f[F_CHANCE] = p
            f[F_REMOVAL] = removal
            f[F_OWN] = 1.0 if c1 == 1 else 0.0
            f[F_THEIRS] = 1.0 if c1 == 2 else 0.0
            f[F_EDGE] = z_edge
            f[F_COUNTED] = counted_chance(ways, placed, hero_sets, all_sets, rowi[row, I_SUM], c1)
            s = 0.0
            for i in G_CLASS:
                s = s + w[i] * f[i]
            part[c1, 0, r] = p
            part[c1, 1, r] = s
        if units > 0:
            class_inputs(net, cards_in, units, n_opt, hid, c1)
    # ... and the castle's stake: a move's score is (cards + class) + stake
    code0 = table_code(cs, points)
    rec_phi, rec_decisions, rec_at = work[19], work[20], work[21]
    recording = rec_decisions.shape[0] > 0 and rec_at[R_OVERFLOW] == 0  # (no recorder: no room, no positions)
    if recording and (rec_at[R_DECISIONS] >= rec_decisions.shape[0]
                      or rec_at[R_ROWS] + n_c * n_opt > rec_phi.shape[0]):
        rec_at[R_OVERFLOW] = 1  # full: the caller plays this game again into new buffers
        recording = False
    n = 0
    for j in range(n_c):
        castle = mcastle[j]
        stake = castle_stake(cs, castle, side, code0, ue, uf, rp, points, res, hp[P_WIN_WEIGHT])
        c1 = _class(cs[castle], side)
        if recording:
            record_features(rec_phi, rec_at[R_ROWS] + n, net, c1, stake, part[c1, 0], n_opt, first_row, rowi,
                            loss[c1], hero_here, count, mean, scale, ways, placed, hero_sets, all_sets)
        for r in range(n_opt):
            gain, risk = gain_risk(stake, part[c1, 0, r])
            s = 0.0
            s = s + w[F_GAIN] * gain
            s = s + w[F_STAKE] * stake
            s = s + w[F_RISK] * risk
            scores[n + r] = (part[3, 0, r] + part[c1, 1, r]) + s
        if units > 0:  # the network's term: its inputs summed by group, the set's and class's worked out once
            network_terms(hp, units, net, hid, c1, part[c1, 0], stake, n_opt, scores[n:n + n_opt])
        n += n_opt
    _softmax(scores, n, hp[P_TEMPERATURE], hp[P_RESOLUTION], wts)
    move = _pick(wts, n, rng, out_pick)
    if rec_at.shape[0] > 0:  # a recorded self-play: this placement's index in the game, and a move forced there
        seen = rec_at[R_SEEN]
        rec_at[R_SEEN] = seen + 1
        if seen == rec_at[R_FORCE_AT] and rec_at[R_FORCE_MOVE] < n:
            move = rec_at[R_FORCE_MOVE]  # (after the pick: the game's random numbers go on as they would have)
    if recording:
        record_decision(rec_decisions, rec_at, side, phase, n, move, wts)
    j = move // n_opt
    row = first_row + move - j * n_opt
    for k in range(nk):
        chosen[k] = cards[row, k]
    return mcastle[j] if opening else -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def class_terms(c1, total, losses, hero_here, count, mean, scale):
    """A set's features with a castle of class ``c1`` (:data:`.policy_codes.G_CLASS`'s chance, removal and edge): from
    its valued ``total`` (negative: the hero is in it), its class's removal ``losses`` (lost if the battle is lost, and
    won), the chance the opponent answers with its hero and the pool of its cards (``count`` of them expected, their
    ``mean`` value and ``scale`` the spread of their sum).  Worked out in one place for the score and the recorder."""
    z_edge = 0.0
    if total < 0:  # the hero is in the set
        p = 1.0 - (0.0 if c1 == 1 else hero_here)
    else:
        adj = 0.5 if c1 == 1 else (-0.5 if c1 == 2 else 0.0)
        z_edge = (total - count * mean + adj) / scale
        p = (1.0 - hero_here) / (1.0 + np.exp(-z_edge))
    return p, p * losses[1] + (1 - p) * losses[0], z_edge


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def record_features(rec_phi, at, net, c1, stake, chance, n_opt, first_row, rowi, class_loss, hero_here, count, mean,
                    scale, ways, placed, hero_sets, all_sets):
    """Each move's features at one castle (of class ``c1``, its ``stake``) into ``rec_phi``'s rows ``at..``, a row a
    set in the decision's order: the set's own from ``net``'s rows, the class's and the stake's worked out again (the
    score keeps them by group, not by move; ``class_loss``, the class's removal losses by the set's code).  What a
    recorded self-play keeps (:mod:`.recording`)."""
    for r in range(n_opt):
        row = rec_phi[at + r]
        for k in G_CARDS:
            row[k] = net[k * ROW + r]
        rows = rowi[first_row + r]
        _p, removal, z_edge = class_terms(c1, rows[I_SUM], class_loss[rows[I_CODE]], hero_here, count, mean, scale)
        gain, risk = gain_risk(stake, chance[r])
        row[F_CHANCE], row[F_REMOVAL], row[F_EDGE] = chance[r], removal, z_edge
        row[F_COUNTED] = counted_chance(ways, placed, hero_sets, all_sets, rows[I_SUM], c1)
        row[F_OWN] = 1.0 if c1 == 1 else 0.0
        row[F_THEIRS] = 1.0 if c1 == 2 else 0.0
        row[F_GAIN], row[F_STAKE], row[F_RISK] = gain, stake, risk


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _binomial(n, k):
    """The number of ways to choose ``k`` of ``n`` cards of one kind."""
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def count_sets(z, pl, sc, vals, hero, o, m, hidden, ways):
    """The sets of ``m`` of side ``o``'s cards out of the other side's sight (its hands, deck, discard and placed cards,
    less those the record shows in its discard: ``SideView.opponent_hidden``, into ``hidden``): ``ways[c, t]`` the sets
    of ``c <= m`` valued cards of total ``t``, ``ways[m + 1, t]`` those of ``m`` with a total below ``t``; returns the
    sets of ``m`` that hold the hero and all of them (the Python twin's ``policies.strong.count_table``)."""
    nk = vals.shape[0]
    n_all = 0
    for k in range(nk):
        hidden[k] = (z[o, kn.HAND, k] + z[o, kn.DECK, k] + z[o, kn.DISCARD, k] + pl[o, 0, k] + pl[o, 1, k]
                     - kn.shown(sc, o, k))
        n_all += hidden[k]
    top = ways.shape[1]
    for c in range(m + 2):
        for t in range(top):
            ways[c, t] = 0
    ways[0, 0] = 1
    for k in range(nk):
        n = hidden[k]
        if k == hero or n <= 0:
            continue
        v = vals[k]  # the strongest kind so far (the kinds run from the weakest): c cards total at most c * v
        for c in range(m, 0, -1):  # each count from the most down, so that a kind is taken once
            for t in range(min(top - 1, c * v), -1, -1):
                add = 0
                ways_j = 1  # C(n, j), j = 1, 2, ...
                for j in range(1, min(n, c) + 1):
                    if t - j * v < 0:
                        break
                    ways_j = ways_j * (n - j + 1) // j
                    add += ways_j * ways[c - j, t - j * v]
                ways[c, t] += add
    below = 0
    for t in range(top):
        ways[m + 1, t] = below
        below += ways[m, t]
    hero_sets = 0
    if hero >= 0:
        for j in range(1, min(hidden[hero], m) + 1):
            valued = 0
            for t in range(top):
                valued += ways[m - j, t]
            hero_sets += _binomial(hidden[hero], j) * valued
    return hero_sets, _binomial(n_all, m)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def counted_chance(ways, m, hero_sets, all_sets, total, c1):
    """:data:`.policy_codes.F_COUNTED` of a set of valued ``total`` (negative: the hero is in it) at a castle of class
    ``c1``: the share of :func:`count_sets`' sets it beats (ties held where it defends, two heroes tie); 0 where there
    are none (an opening)."""
    if all_sets == 0:
        return 0.0
    if total < 0:
        wins = all_sets - hero_sets + (hero_sets if c1 == 1 else 0)
    else:
        wins = ways[m + 1, total] + (ways[m, total] if c1 == 1 else 0)
    return wins / all_sets


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def record_decision(rec_decisions, rec_at, side, phase, n, move, wts):
    """The decision's row (:data:`RECORD_COLUMNS`) after its ``n`` moves' features, and the buffers' positions moved
    on."""
    i = rec_at[R_DECISIONS]
    total = 0
    for k in range(n):
        total += wts[k]
    d = rec_decisions[i]
    d[D_GAME], d[D_SIDE], d[D_POINT], d[D_FIRST], d[D_MOVES] = rec_at[R_GAME], side, phase, rec_at[R_ROWS], n
    d[D_CHOSEN], d[D_WEIGHT], d[D_TOTAL] = move, wts[move], total
    rec_at[R_ROWS] += n
    rec_at[R_DECISIONS] = i + 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def gain_risk(stake, p):
    """A move's features :data:`.policy_codes.F_GAIN` and :data:`.policy_codes.F_RISK` from its castle's stake and its
    chance ``p`` to win the battle (worked out in one place for the linear score and the network)."""
    gain = stake * p
    return gain, gain * (1 - p)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def unit_weights(hp, units, net):
    """The network's input weights from the side's row (a feature at a time, :data:`.policy_codes.NETWORK_AT`) into
    ``net`` unit by unit at :data:`NET_WEIGHTS`, where a unit's weights lie at constant distances."""
    u0 = NETWORK_AT + 1
    for j in range(units):
        for k in range(N_FEATURES):
            net[NET_WEIGHTS + j * N_FEATURES + k] = hp[u0 + k * units + j]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def set_inputs(net, units, n_opt, cards_in):
    """Each unit's input from the card set's group (``sum U_jk f_k`` over :data:`.policy_codes.G_CARDS` in its order,
    from 0.0) for each of the ``n_opt`` sets, from their features in ``net``'s rows into ``cards_in``: worked out once
    a set, not once a move."""
    for j in range(units):
        wj = NET_WEIGHTS + j * N_FEATURES
        for r in range(n_opt):
            s = 0.0
            for k in G_CARDS:
                s = s + net[wj + k] * net[k * ROW + r]
            cards_in[j * ROW + r] = s


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def class_inputs(net, cards_in, units, n_opt, hid, c1):
    """Each unit's input from the set's group (``cards_in``) plus that of castle class ``c1``
    (:data:`.policy_codes.G_CLASS`, summed as :func:`set_inputs` sums its group), ``cards + control`` as every move at
    a castle of the class adds them, into ``hid``'s block ``c1``: worked out once a set and class, not once a move."""
    for j in range(units):
        wj = NET_WEIGHTS + j * N_FEATURES
        hj = (c1 * MAX_HIDDEN + j) * ROW
        for r in range(n_opt):
            s = 0.0
            for k in G_CLASS:
                s = s + net[wj + k] * net[k * ROW + r]
            hid[hj + r] = cards_in[j * ROW + r] + s


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def network_terms(hp, units, net, hid, c1, chance, stake, n_opt, scores):
    """The network's part of the score of each move at one castle (of class ``c1``, its ``stake``; each set's
    ``chance`` to win), ``sum_j v_j max(0, b_j + U_j . phi)``, added to ``scores[r]``: each unit's input is
    ``b_j + ((cards_j + control_j) + stake_j)``, the groups' sums as the linear score groups them (``cards + control``
    from :func:`class_inputs`; the stake group's ``((0.0 + U_gain gain) + U_stake stake) + U_risk risk``, with gain and
    risk from :func:`gain_risk`, the middle product the same for every set), the units'
    outputs added in order from 0.0: as the Python twin (:func:`..policies.network.network_term`) sums them.  The
    units run outside, the sets inside (each move's sum in its own lane)."""
    u0 = NETWORK_AT + 1
    b0 = u0 + units * N_FEATURES
    v0 = b0 + units
    for r in range(n_opt):
        net[NET_OUT + r] = 0.0
    for j in range(units):
        wj = NET_WEIGHTS + j * N_FEATURES
        u_gain, u_stake, u_risk = net[wj + F_GAIN], net[wj + F_STAKE] * stake, net[wj + F_RISK]
        bias, v = hp[b0 + j], hp[v0 + j]
        hj = (c1 * MAX_HIDDEN + j) * ROW
        for r in range(n_opt):
            gain, risk = gain_risk(stake, chance[r])
            s = 0.0 + u_gain * gain
            s = s + u_stake
            s = s + u_risk * risk
            a = bias + (hid[hj + r] + s)
            o = net[NET_OUT + r]
            net[NET_OUT + r] = o + v * a if a > 0.0 else o  # a rectified unit: no transcendental a move
    for r in range(n_opt):
        scores[r] = scores[r] + net[NET_OUT + r]
