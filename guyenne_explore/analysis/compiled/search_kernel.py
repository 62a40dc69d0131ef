"""The search's compiled parts: the model's move weights, how likely each deal made the opponent's
placements, and the rollouts of every (root move, deal) pair in one call.

The search (:mod:`..policies.search`) deals worlds in Python (the engine's ``determinise``), encodes
them once, and asks three things of this module, each one compiled call per decision or per round
of its halving:

- :func:`move_weights`: the learned policy's whole-number weights of every legal placement of the
  side to place (the compiled decision of ``STRONG``, :func:`.strong.choose_placement`, in its order:
  castles, then the option rows of the hand), from which the root's candidates come;
- :func:`likelihoods`: for each world, the product over the opponent's placements of this round of
  the model's probability of that placement from the opponent's hand before it (the placements are
  undone in reverse order to find that hand), times the inverse of the chance that the deal put
  those face-down cards there (the deal splits the hand and the placed cards uniformly);
- :func:`play_jobs`: for each job (a root move, a world, a rollout index) the world with the move
  applied (:func:`.loop.apply_placement`, :func:`.loop.apply_removal`: the loop's own application)
  played to its end by the one game loop, both sides by their policy codes.

Reading the model's weights reaches into the scratch the decision fills (its second array, the
weights of the moves in its order); ``tests/test_search_fast.py`` holds them equal to the Python
policy's :meth:`~guyenne_explore.analysis.policies.strong.Strong.weights` move for move, so a change
of that layout fails there, not silently here.

Numba's cache of this module is keyed by this file alone, as the loop's is by ``loop.py``: after
editing :mod:`.loop`, :mod:`.strong` or :mod:`.heuristic`, remove ``__pycache__/search.*`` too, or
the cached functions here keep the old game loop and decisions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel as kn
from .layout import (CASTLE_X, CASTLE_Y, FIRST, HAND, HAND_OF_1, N_CASTLES, N_OUT, OPEN_FIRST, OPEN_SECOND, OUT_ERROR,
                     OUT_WINNER, PHASE, REMOVE, RESPOND_FIRST, TEAM)
from .policy_codes import EXACT_MEMBERS, SHARE
from .loop import _scratch_of, apply_placement, apply_removal, placer, play, untraced_buffers
from .strong_kernel import choose_placement as strong_placement

#: the scratch's array of the moves' whole-number weights, in the decision's order
_SCORES, _WEIGHTS = 0, 1


@njit(cache=True, error_model="numpy")
def _castles(sc, rp, phase, b, out):
    """The castles a placement at ``phase`` may take, in the decision's order; their number."""
    if phase == OPEN_FIRST or phase == OPEN_SECOND:
        n = 0
        for c in range(rp[N_CASTLES]):
            if phase == OPEN_FIRST or c != sc[CASTLE_X]:
                out[n] = c
                n += 1
        return n
    out[0] = sc[CASTLE_X + b]
    return 1


@njit(cache=True, error_model="numpy")
def _weights_into(z, pl, cs, sc, rp, vals, opt, points, tables, hp, side, rng, work):
    """The model's decision at the placement ``sc[PHASE]`` of ``side``; its weights are left in the scratch."""
    work[7][:, 0] = -1.0  # no pool worked out yet for these cards
    strong_placement(z, pl, cs, sc, rp, vals, opt, points, tables, hp, side, sc[PHASE], rng, work)


@njit(cache=True, error_model="numpy")
def move_weights(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, side, castles, rows, wts, scores):
    """The learned policy's weight of each legal placement of ``side`` now: ``castles[i]`` (-1 at an
    answer), ``rows[i]`` (the option table's row of its cards), ``wts[i]`` and the score it came from
    ``scores[i]`` (which still ranks the moves a near-certain choice gives no weight); returns their number.
    For a mixture (:func:`.loop.member_row`), the exact whole-number weights of its members' odds-weighted mean
    distribution and the odds-weighted mean of their scores (``policies.mixture.mixed``, the Python twin's)."""
    phase = sc[PHASE]
    b = 0 if phase <= RESPOND_FIRST else 1
    hand, table = kn.placing_hand(z, sc, rp, side, b, np.zeros(vals.shape[0], np.int64))  # (a team member's own)
    _code, first_row, n_opt = kn.option_rows(opt, table, hand)
    where = np.zeros(rp[N_CASTLES], np.int64)
    n_c = _castles(sc, rp, phase, b, where)
    work = _scratch_of(z, pl, vals, codes, tables)
    rng = np.zeros(kn.RNG_SIZE, np.uint64)
    n = n_c * n_opt
    for i in range(n):
        wts[i], scores[i] = 0, 0.0
    members, odds_total = params.shape[1], 0
    each = np.zeros((members, n), np.int64)
    totals = np.zeros(members, np.int64)
    for m in range(members):
        odds = abs(np.int64(params[side, m, 0]))  # (negative: drawn once a game; the search reads its mean)
        if odds == 0:
            continue
        odds_total += odds
        _weights_into(z.copy(), pl.copy(), cs.copy(), sc.copy(), rp, vals, opt, points, tables, params[side, m, 1:],
                      side, rng, work)
        for i in range(n):
            each[m, i] = work[_WEIGHTS][i]
            totals[m] += work[_WEIGHTS][i]
            scores[i] = scores[i] + odds * work[_SCORES][i]
    # a mixture's weight of a move: sum over members of odds_m w_m prod_{m' != m} T_m' (T a member's total), its
    # whole-number share of the odds-weighted mean of the members' distributions, for at most EXACT_MEMBERS; for
    # more, sum over members of odds_m round(w_m SHARE / T_m); its score the odds-weighted mean
    playing = 0
    for m in range(members):
        if params[side, m, 0] != 0:
            playing += 1
    for i in range(n):
        for m in range(members):
            odds = abs(np.int64(params[side, m, 0]))
            if odds == 0:
                continue
            if playing > EXACT_MEMBERS:
                wts[i] += odds * _shared(each[m, i], totals[m])
                continue
            term = odds * each[m, i]
            for m2 in range(members):
                if m2 != m and params[side, m2, 0] != 0:
                    term *= totals[m2]
            wts[i] += term
        scores[i] = scores[i] / odds_total
    opening = phase == OPEN_FIRST or phase == OPEN_SECOND
    for j in range(n_c):
        for r in range(n_opt):
            i = j * n_opt + r
            castles[i] = where[j] if opening else -1
            rows[i] = first_row + r
    return n


@njit(cache=True, error_model="numpy")
def _shared(weight, total):
    """``weight``'s share of ``total`` in ``SHARE`` whole parts, halves rounded up (``policies.mixture.shared``)."""
    return (2 * weight * SHARE + total) // (2 * total)


@njit(cache=True, error_model="numpy")
def _split_chance(hand, placed):
    """The chance that a uniform deal of ``hand``'s cards put exactly ``placed`` among its
    ``size(placed)`` face-down places: the product of C(hand_k, placed_k) over C(|hand|, |placed|)."""
    ways = 1.0
    n_hand, n_placed = 0, 0
    for k in range(hand.shape[0]):
        for i in range(placed[k]):
            ways *= (hand[k] - i) / (i + 1.0)
        n_hand += hand[k]
        n_placed += placed[k]
    total = 1.0
    for i in range(n_placed):
        total *= (n_hand - i) / (i + 1.0)
    return ways / total


@njit(cache=True, error_model="numpy")
def _placement_chance(z, pl, cs, sc, rp, vals, opt, points, tables, params, side, castle, m, rng, work, where, mine):
    """The model's probability that ``side`` places ``m`` (at ``castle``) at the point ``sc[PHASE]``: the
    odds-weighted mean of its members' (:func:`.loop.member_row`); 0 when its placing hand (a team member's own,
    worked out in ``mine``) cannot."""
    cards = opt[2]
    phase = sc[PHASE]
    b = 0 if phase <= RESPOND_FIRST else 1
    hand, table = kn.placing_hand(z, sc, rp, side, b, mine)
    if not _holds(hand, m):
        return 0.0
    _code, first_row, n_opt = kn.option_rows(opt, table, hand)
    n_c = _castles(sc, rp, phase, b, where)
    row = -1
    for r in range(n_opt):
        same = True
        for k in range(vals.shape[0]):
            if cards[first_row + r, k] != m[k]:
                same = False
                break
        if same:
            row = r
            break
    j = -1
    for i in range(n_c):
        if where[i] == castle:
            j = i
    if row < 0 or j < 0:
        return 0.0
    chance, odds_total = 0.0, 0.0
    for member in range(params.shape[1]):
        odds = abs(params[side, member, 0])
        if odds == 0.0:
            continue
        odds_total += odds
        _weights_into(z, pl, cs, sc, rp, vals, opt, points, tables, params[side, member, 1:], side, rng, work)
        total = 0
        for i in range(n_c * n_opt):
            total += work[_WEIGHTS][i]
        chance += odds * (work[_WEIGHTS][j * n_opt + row] / total if total > 0 else 0.0)
    return chance / odds_total


@njit(cache=True, error_model="numpy")
def likelihoods(zs, pls, cs, sc, rp, vals, opt, points, codes, params, tables, opponent, hidden, mix, out):
    """``out[w]``: how likely world ``w`` (``zs[w]``, ``pls[w]``) made the opponent's placements of this
    round, under the model of the opponent (``params[opponent]``): the product over them of
    ``(1 - mix) * p + mix / n`` (``p`` the model's probability, ``n`` the legal placements: a floor for
    an opponent that is not the model), each divided by the deal's chance of the face-down cards
    (``hidden[b]``: the searcher does not see the opponent's cards at battle ``b``).  1 for every
    world where the opponent has not placed yet this round, or at a removal (the battles shown).  A
    team's placement is its member's, from that member's own hand."""
    cur = sc[PHASE]
    first = sc[FIRST]
    work = _scratch_of(zs[0], pls[0], vals, codes, tables)  # every world owns the same cards
    rng = np.zeros(kn.RNG_SIZE, np.uint64)
    where = np.zeros(rp[N_CASTLES], np.int64)
    nk = vals.shape[0]
    mine, member = np.zeros(nk, np.int64), np.zeros(nk, np.int64)
    for w in range(zs.shape[0]):
        out[w] = 1.0
        if cur < OPEN_FIRST or cur >= REMOVE:
            continue
        for p in range(OPEN_FIRST, cur):
            if placer(p, first) != opponent:
                continue
            z, pl, s = zs[w].copy(), pls[w].copy(), sc.copy()
            for q in range(p, cur):  # undo the placements from p on: the position the opponent decided in
                side_q, b_q = placer(q, first), 0 if q <= RESPOND_FIRST else 1
                second = rp[TEAM + side_q] and kn.placing_member(sc, side_q, b_q) == 1
                for k in range(nk):
                    z[side_q, HAND, k] += pl[side_q, b_q, k]
                    if second:
                        z[side_q, HAND_OF_1, k] += pl[side_q, b_q, k]
                    pl[side_q, b_q, k] = 0
            s[PHASE] = p
            if p == OPEN_FIRST:
                s[CASTLE_X] = -1
            if p <= OPEN_SECOND:
                s[CASTLE_Y] = -1
            b = 0 if p <= RESPOND_FIRST else 1
            m = pls[w][opponent, b]
            chance = _placement_chance(z, pl, cs, s, rp, vals, opt, points, tables, params, opponent,
                                       sc[CASTLE_X + b], m, rng, work, where, mine)
            hand, table = kn.placing_hand(z, s, rp, opponent, b, member)
            legal = kn.option_rows(opt, table, hand)[2] * _castles(s, rp, p, b, where)
            like = (1.0 - mix) * chance + mix / legal if legal > 0 and _holds(hand, m) else 0.0
            if hidden[b]:
                like /= _split_chance(hand, m)
            out[w] *= like


@njit(cache=True, error_model="numpy")
def _holds(hand, m):
    for k in range(hand.shape[0]):
        if m[k] > hand[k]:
            return False
    return True


@njit(cache=True, error_model="numpy")
def play_jobs(zs, pls, cs0, sc0, rp, vals, opt, points, codes, params, tables, seed, castles, moves, job_move,
              job_world, job_game, max_rounds, ways_width, winners):
    """Job ``j``: world ``job_world[j]`` after root move ``job_move[j]`` (a placement at ``castles[i]`` of
    cards ``moves[i]``, or a removal of ``moves[i]``), played to its end on the stream of game
    ``job_game[j]`` of batch ``seed``; ``winners[j]`` gets the winner (``layout.OUT_WINNER``'s code).
    Jobs of one game index share the stream: two root moves meet the same draws."""
    z, pl, cs, sc = zs[0].copy(), pls[0].copy(), cs0.copy(), sc0.copy()
    rng, leaders, ways, trace, tpos, log, lpos = untraced_buffers(vals, max_rounds, ways_width)
    out = np.zeros(N_OUT, np.int64)
    work = _scratch_of(zs[0], pls[0], vals, codes, tables)
    for j in range(job_move.shape[0]):
        w, i = job_world[j], job_move[j]
        z[:] = zs[w]
        pl[:] = pls[w]
        cs[:] = cs0
        sc[:] = sc0
        if sc[PHASE] == REMOVE:
            apply_removal(z, pl, cs, sc, rp, vals, points, moves[i])
        else:
            apply_placement(z, pl, cs, sc, rp, vals, points, castles[i], moves[i])
        kn.seed_stream(rng, seed, np.uint64(job_game[j]))
        play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out, leaders, ways, trace, tpos, log,
             lpos, work)
        winners[j] = out[OUT_WINNER] if out[OUT_ERROR] == 0 else -1

