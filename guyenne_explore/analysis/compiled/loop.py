"""The one compiled game loop: a game over count vectors, each side deciding by its policy code.

The game flow (draws, battles, removals, the end of a round and of the game, a team's drawer
changing) is played here once for every policy, from the rules primitives of :mod:`.kernel`; only a
decision differs by the code of the side to decide (:mod:`.sides`): at the setup discard, a team's split
and order, a placement and a removal, :func:`play` branches on that code to the policy's decision
function (uniform: :func:`_place_uniform`, :func:`_remove_uniform`, one random legal move of the
engine's option lists; the heuristic: :mod:`.heuristic`; the learned policy: :mod:`.strong`, which
discards and splits a team's cards by its own weights where its model has them, and removes and decides a team's
order as the heuristic does), inlined.  A team
member places from its own hand (``kernel.placing_hand``).  Where the rules make the defender's
concede choice a decision (``concede_as_decision``), every policy decides it by the built-in rule
(:func:`apply_concede`), as the engine's policies all do.  A
new policy is a code, a decision function per decision point, and one branch at each; its numbers
reach it as its side's row of ``params`` (and the tables of :func:`.heuristic.tables`).

Every game has its own random streams derived from ``(seed, game index)``, one for the decisions and
one for chance (each side's draw pile is ordered from it, :func:`.kernel._draw_side`), so a batch
gives the same games on one thread, many threads or many machines, and the same seed deals the same
cards in the same order whatever the policies decide.  It is not a second source of truth:
``tests/test_fast.py`` and ``tests/test_fast_heuristic.py`` replay its games move by move through
the engine (which checks every move).

The loop is compiled without numba's reference counts (``_nrt=False``): it allocates nothing (its
scratch comes from :func:`scratch`, once per batch or block of games) and keeps no array; the
rules primitives it calls at every round are compiled again into it (inlined) for the same reason.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import kernel as kn
from .heuristic_kernel import (MAX_MOVES, MAX_OPTIONS, MEMO_BITS, T_MAX_SUM, choose_discard, choose_order, choose_placement,
                               choose_removal, choose_split, discard_weights_at, split_weights_at)
from .layout import (BATTLE, CASTLE_X, CASTLE_Y, DEAL, DECK, DISCARD, DRAW, DRAWER, END, ENDING, END_EXHAUSTED,
                     END_OUT_OF_CARDS, ERR_NO_MOVE, ERR_TOO_LONG, EXH, FIRST, HAND, HAND_OF_1, HERO_KIND, LIMIT,
                     MAX_AT, N_CASTLES, OPEN_FIRST, OPEN_SECOND, ORDER, OUT_DECIDED, OUT_DECISIONS, OUT_ENDING,
                     OUT_ENGLISH, OUT_ERROR, OUT_FRENCH, OUT_HERO_E, OUT_HERO_F, OUT_ROUNDS, OUT_WINNER, PHASE,
                     PRE_DISCARD, REMOVE, REMOVED, RESPOND_FIRST, RESPOND_SECOND, RING, ROUND, ROUND_HEAD, SCORING,
                     SETUP, TEAM, TEAM_ORDER, TEAM_SPLIT, TRACE_HEAD, CONCEDE)
from .counter_kernel import NO_IDEA, counter_placement
from .policy_codes import COUNTER, HEURISTIC, STRONG, UNIFORM
from .strong_kernel import (CLASS_SIZE, N_AT, N_FEATURES, NET_SIZE, RECORD_COLUMNS, R_DECISIONS, R_FORCE_AT, R_FORCE_MOVE,
                            R_GAME, R_OVERFLOW, R_ROWS, R_SEEN, SET_SIZE)
from .strong_kernel import choose_placement as choose_strong_placement

# numba's type stubs list only its public options: each decorator passing the private ``_nrt=False``
# ignores the call-overload error that gives (mypy)

#: the kernel's battles, end of a round, scores and draws, compiled again into :func:`play` (inlined,
#: so without reference counts: the kernel's own versions count them at every round)
_resolve = njit(error_model="numpy", _nrt=False, inline="always")(kn._resolve.py_func)  # type: ignore[call-overload]
_end_of_round = njit(error_model="numpy", _nrt=False, inline="always")(kn._end_of_round.py_func)  # type: ignore[call-overload]
_score = njit(error_model="numpy", _nrt=False, inline="always")(kn.score.py_func)  # type: ignore[call-overload]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _record(trace, tpos, point, side, castle, pick, total, cards):
    """A trace row (see :data:`~.layout.TRACE_HEAD`) when ``trace`` has rows."""
    i = tpos[0]
    if i < trace.shape[0]:
        trace[i, 0], trace[i, 1], trace[i, 2], trace[i, 3], trace[i, 4] = point, side, castle, pick, total
        for k in range(cards.shape[0]):
            trace[i, TRACE_HEAD + k] = cards[k]
    tpos[0] = i + 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _record_round(log, lpos, z, cs, sc):
    """A round row of the state (see :data:`~.layout.ROUND_HEAD`) when ``log`` has rows."""
    i = lpos[0]
    if i < log.shape[0]:
        log[i, 0] = sc[ROUND]
        log[i, 1] = sc[FIRST]
        log[i, 2] = sc[EXH]
        log[i, 3] = sc[EXH + 1]
        n = cs.shape[0]
        for c in range(n):
            log[i, ROUND_HEAD + c] = cs[c]
        j = ROUND_HEAD + n
        for side in range(2):
            for zone in range(4):
                for k in range(z.shape[2]):
                    log[i, j] = z[side, zone, k]
                    j += 1
    lpos[0] = i + 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _unspent(z, side):
    n = 0
    for zone in (HAND, DECK):
        for k in range(z.shape[2]):
            n += z[side, zone, k]
    return n


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _ending_after_draw(z, sc, rp):
    """RULES.md 5 step 4, after both sides drew: -1 while both hands hold two cards or more, else how
    the game ended (the engine's ``scoring.ending``): exhausted when every side left with at most one
    card has made its last exhaustion, else out of cards."""
    if kn._size(z[0, HAND]) > 1 and kn._size(z[1, HAND]) > 1:
        return -1
    ended = END_EXHAUSTED
    for side in range(2):
        if kn._size(z[side, HAND]) <= 1 and sc[EXH + side] < rp[LIMIT]:
            ended = END_OUT_OF_CARDS
    return ended


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _place_uniform(z, sc, rp, opt, side, phase, rng, ways, work):
    """The uniform policy's placement: one random legal card set of the placing hand (the engine's
    option lists, or by rejection from the hand where there are none) into ``work``'s first card set,
    then one random castle at an opening; returns the castle (-1 where the castle is set), or -2 when
    there is no legal move."""
    m = work[11]
    b = 0 if phase <= RESPOND_FIRST else 1
    hand, table = kn.placing_hand(z, sc, rp, side, b, work[12])
    if opt[1].shape[1] > 0:
        found = kn.pick_option(opt, table, hand, rng, m)
    else:  # no option tables (large custom card sets): sampled by rejection
        found = kn.pick_multiset(hand, 1, min(rp[MAX_AT], kn._size(hand) - (1 if table == 0 else 0)), rng, m, ways)
    if not found:
        return -2
    n = rp[N_CASTLES]
    if phase == OPEN_FIRST:
        return kn._below(rng, n)
    if phase == OPEN_SECOND:
        castle = kn._below(rng, n - 1)
        return castle + 1 if castle >= sc[CASTLE_X] else castle
    return -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def _remove_uniform(pl, rp, vals, opt, loser, b, rng, m):
    """The uniform policy's removal by side ``loser`` (a neutral battle's loser) at battle ``b``: one
    random legal removal into ``m``; False when there is none."""
    if opt[1].shape[1] > 0:
        return kn.pick_option(opt, 2, pl[loser, b], rng, m)
    kn.pick_removal(pl[loser, b], rng, m, vals, rp[HERO_KIND])
    return True


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def member_row(params, side, rng, chosen):
    """The numbers ``side`` decides by (``policy_codes.params``' layout): its one member's, else those of a member
    of its mixture drawn by the members' whole-number odds with one random number before the decision's own, so a
    mixture plays the odds-weighted mean of its members' distributions; a policy that is no mixture draws nothing,
    and its games are those it played before mixtures were.  A mixture drawn once a game (its odds negative) plays
    the member :func:`game_members` drew into ``chosen``."""
    members = params.shape[1]
    if members == 1 or params[side, 1, 0] == 0.0:
        return params[side, 0, 1:]
    if params[side, 0, 0] < 0.0:
        return params[side, chosen[side], 1:]
    total = 0
    for j in range(members):
        total += np.int64(params[side, j, 0])
    index = kn._below(rng, total)
    for j in range(members - 1):
        odds = np.int64(params[side, j, 0])
        if index < odds:
            return params[side, j, 1:]
        index -= odds
    return params[side, members - 1, 1:]


@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
def game_members(params, codes, rng, chosen):
    """Draw the member each side's mixture drawn once a game plays (its odds negative), side 0 first, with one
    random number of its odds' total each (``policies.strong.Strong.begin_game``, the Python twin); other sides
    draw nothing."""
    members = params.shape[1]
    for side in range(2):
        chosen[side] = 0
        if codes[side] != STRONG or members == 1 or params[side, 0, 0] >= 0.0:
            continue
        total = 0
        for j in range(members):
            total += -np.int64(params[side, j, 0])
        index = kn._below(rng, total)
        for j in range(members):
            odds = -np.int64(params[side, j, 0])
            if index < odds:
                chosen[side] = j
                break
            index -= odds


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def placer(phase, first):
    """The side that places at a placement point of a round ``first`` opens (RULES.md 3)."""
    return first if phase == OPEN_FIRST or phase == RESPOND_SECOND else 1 - first


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def apply_placement(z, pl, cs, sc, rp, vals, points, castle, m):
    """The placement of cards ``m`` by the side to place (at ``castle`` at an opening), then the
    next point: the next placement, or the battles after the fourth (RULES.md 3-4).  The loop's
    decisions and the search's root moves (:mod:`.search`) are applied here alike."""
    phase = sc[PHASE]
    side = placer(phase, sc[FIRST])
    b = 0 if phase <= RESPOND_FIRST else 1
    if phase == OPEN_FIRST:
        sc[CASTLE_X] = castle
    elif phase == OPEN_SECOND:
        sc[CASTLE_Y] = castle
    second = rp[TEAM + side] and kn.placing_member(sc, side, b) == 1  # a team's member 1 places from its own zone
    for k in range(m.shape[0]):
        z[side, HAND, k] -= m[k]
        if second:
            z[side, HAND_OF_1, k] -= m[k]
        pl[side, b, k] = m[k]
    if phase == RESPOND_SECOND:
        _resolve(z, pl, cs, sc, rp, vals, points, 0, -1)
    else:
        sc[PHASE] = phase + 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def apply_concede(z, pl, cs, sc, rp, vals, points):
    """The defender's concede choice at the battle resolving (``concede_as_decision``), by the built-in rule
    every policy of the engine plays (``policy.concede_move``): concede when the defence falls (the
    attacker strictly stronger, RULES.md 4), else reveal; then the battle and what follows it.  Returns
    the choice: 1 conceded, 0 revealed."""
    b = sc[BATTLE]
    defender = cs[sc[CASTLE_X + b]]
    falls = kn.battle_winner(pl[0, b], pl[1, b], vals, rp[HERO_KIND]) == 1 - defender
    conceded = 1 if falls else 0
    _resolve(z, pl, cs, sc, rp, vals, points, b, conceded)
    return conceded


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def apply_removal(z, pl, cs, sc, rp, vals, points, m):
    """The removal of cards ``m`` by the loser of a neutral castle's battle (RULES.md 4), then the
    next battle or the end of the round."""
    b = sc[BATTLE]
    loser = 1 - cs[sc[CASTLE_X + b]]
    for k in range(m.shape[0]):
        pl[loser, b, k] -= m[k]
        z[loser, REMOVED, k] += m[k]
    if b == 0:
        _resolve(z, pl, cs, sc, rp, vals, points, 1, -1)
    else:
        _end_of_round(z, pl, cs, sc, rp, points)


@njit(cache=True, error_model="numpy", _nrt=False)  # type: ignore[call-overload]
def play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out, leaders, ways, trace, tpos, log,
         lpos, work):
    """Play the position in place to its end, side s deciding by policy ``codes[s]`` with its numbers
    ``params[s]`` (its members', :func:`member_row`); the summary goes to ``out``.

    ``opt`` holds the option tables of :mod:`.options` (weights, offsets, cards; with empty tables
    uniform choices are sampled by rejection from the hand), ``points`` the engine's castle points
    table, ``tables`` the scoring policies' card tables (:func:`.heuristic.tables`).  ``work`` is
    :func:`scratch`'s.  ``trace`` (rows of :data:`~.layout.TRACE_HEAD` + kinds) receives every decision
    and draw when it has rows, and ``log`` (rows of ``layout.round_width``) the state at each end of a
    round."""
    nk = vals.shape[0]
    hero = rp[HERO_KIND]
    pool, m, m2, res, out_pick = work[7], work[11], work[12], work[13], work[14]
    pool[:, 0] = -1.0  # no pool worked out yet in this game
    piles = work[15]
    kn.new_piles(piles)
    kn.deal_piles(z, piles, rng)
    chosen = work[22]
    game_members(params, codes, rng, chosen)  # (after the deal: the same deals as any other policies')
    start_round = sc[ROUND]
    n_leaders = 0
    decisions = 0
    out[OUT_ERROR] = 0
    while sc[PHASE] != END:
        phase = sc[PHASE]
        first = sc[FIRST]
        out_pick[0], out_pick[1] = -1, -1
        if phase == SETUP:  # the expert setup discard (rules.pre_discard), the side's policy deciding
            side = first if kn._size(z[first, DISCARD]) < rp[PRE_DISCARD] else 1 - first
            for k in range(nk):
                m2[k] = z[side, DECK, k]
            if hero >= 0:
                m2[hero] = 0
            if codes[side] != UNIFORM:  # strong by its discard weights, where its row has
                # them (else as the heuristic does)
                hp = member_row(params, side, rng, chosen) if codes[side] == STRONG else params[side, 0, 1:]
                at = discard_weights_at(hp) if codes[side] == STRONG else -1
                found = choose_discard(m2, rp[PRE_DISCARD], tables[5], hp, at, rng, m, out_pick)
            else:
                found = kn.pick_multiset(m2, rp[PRE_DISCARD], rp[PRE_DISCARD], rng, m, ways)
            if not found:
                out[OUT_ERROR] = ERR_NO_MOVE
                return
            for k in range(nk):
                z[side, DECK, k] -= m[k]
                z[side, DISCARD, k] += m[k]
            kn.drop_from_pile(piles, side, m)
            _record(trace, tpos, phase, side, -1, out_pick[0], out_pick[1], m)
            decisions += 1
            if not (side == first and kn._size(z[1 - side, DISCARD]) < rp[PRE_DISCARD]):
                sc[PHASE] = DEAL
        elif phase == DEAL or phase == DRAW:
            if phase == DRAW:
                if n_leaders >= leaders.shape[0]:
                    out[OUT_ERROR] = ERR_TOO_LONG
                    return
                _score(cs, _unspent(z, 0), _unspent(z, 1), rp[SCORING], rp[RING], points, res)
                leaders[n_leaders] = res[2]
                n_leaders += 1
                _record_round(log, lpos, z, cs, sc)
            for side in range(2):
                if rp[TEAM + side] and phase == DRAW:  # a new round: the team's other member draws
                    sc[DRAWER + side] = 1 - sc[DRAWER + side]
                kn._draw_side(z, sc, rp, side, rng, m, piles)
                if rp[TEAM + side]:  # the drawer's cards, the members' order decided again
                    if sc[DRAWER + side] == 1:
                        for k in range(nk):
                            z[side, HAND_OF_1, k] += m[k]
                    sc[ORDER + side] = -1
                _record(trace, tpos, phase, side, -1, -1, -1, m)
            ended = _ending_after_draw(z, sc, rp)
            if ended >= 0:
                sc[PHASE] = END
                sc[ENDING] = ended
            else:
                if phase == DRAW:
                    sc[ROUND] += 1
                    sc[FIRST] = 1 - first
                sc[PHASE] = kn.round_start(z, sc, rp)
        elif phase == TEAM_SPLIT:  # the drawer gives cards of its choice to its partner (RULES.md 8)
            side = kn.team_deciding(sc, rp)
            drawer = sc[DRAWER + side]
            giver = drawer if kn.member_size(z, side, drawer) > 0 else 1 - drawer  # (an empty drawer is given one)
            src = kn.member_hand(z, side, giver, m2)
            most = kn._size(src) - 1 if giver == drawer else 1
            if codes[side] != UNIFORM:  # strong by its split weights, where its row has
                # them (else as the heuristic does)
                hp = member_row(params, side, rng, chosen) if codes[side] == STRONG else params[side, 0, 1:]
                at = split_weights_at(hp) if codes[side] == STRONG else -1
                found = choose_split(src, most, kn.member_size(z, side, 1 - giver), rp[HERO_KIND], opt, tables[1],
                                     hp, at, rng, work[0], work[1], m, out_pick)
            else:
                found = kn.pick_multiset(src, 1, most, rng, m, ways)
            if not found:
                out[OUT_ERROR] = ERR_NO_MOVE
                return
            sign = -1 if giver == 1 else 1
            for k in range(nk):
                z[side, HAND_OF_1, k] += sign * m[k]
            _record(trace, tpos, phase, side, -1, out_pick[0], out_pick[1], m)
            decisions += 1
            sc[PHASE] = TEAM_ORDER
        elif phase == TEAM_ORDER:  # which member places first this round (RULES.md 8)
            side = kn.team_deciding(sc, rp)
            if codes[side] != UNIFORM:
                member = choose_order(sc[DRAWER + side], params[side, 0, 1:], rng, work[0], work[1], out_pick)
            else:
                member = kn._below(rng, 2)
            sc[ORDER + side] = member
            m[:] = 0
            _record(trace, tpos, phase, side, member, out_pick[0], out_pick[1], m)
            decisions += 1
            sc[PHASE] = kn.round_start(z, sc, rp)
        elif phase == CONCEDE:  # the defender's choice, where the rules make it a decision (RULES.md 4)
            defender = cs[sc[CASTLE_X + sc[BATTLE]]]
            m[:] = 0
            conceded = apply_concede(z, pl, cs, sc, rp, vals, points)
            _record(trace, tpos, phase, defender, conceded, -1, -1, m)
            decisions += 1
        elif phase == REMOVE:
            b = sc[BATTLE]
            loser = 1 - cs[sc[CASTLE_X + b]]
            if codes[loser] != UNIFORM:  # the side's policy decides (strong removes
                # as the heuristic does), as at a placement
                choose_removal(pl, loser, b, opt, tables[1], params[loser, 0, 1:], rng, work[0], work[1], m, out_pick)
            elif not _remove_uniform(pl, rp, vals, opt, loser, b, rng, m):
                out[OUT_ERROR] = ERR_NO_MOVE
                return
            _record(trace, tpos, phase, loser, -1, out_pick[0], out_pick[1], m)
            decisions += 1
            apply_removal(z, pl, cs, sc, rp, vals, points, m)
        else:  # the four placements (RULES.md 3)
            side = placer(phase, first)
            b = 0 if phase <= RESPOND_FIRST else 1
            # the side's policy decides (a policy code is a branch here, its decision inlined: a call
            # nested one level deeper cost the heuristic a tenth of its speed)
            castle = NO_IDEA
            if codes[side] == COUNTER:  # its idea, where it has one; else the heuristic's move
                castle = counter_placement(z, pl, cs, sc, rp, vals, opt, points, params[side, 0, 1:], side, phase, work)
            if castle != NO_IDEA:
                pass
            elif codes[side] == HEURISTIC or codes[side] == COUNTER:
                castle = choose_placement(z, pl, cs, sc, rp, vals, opt, points, tables, params[side, 0, 1:], side, phase,
                                          rng, work)
            elif codes[side] == STRONG:
                castle = choose_strong_placement(z, pl, cs, sc, rp, vals, opt, points, tables,
                                                 member_row(params, side, rng, chosen), side, phase, rng, work)
            else:
                castle = _place_uniform(z, sc, rp, opt, side, phase, rng, ways, work)
            if castle == -2:
                out[OUT_ERROR] = ERR_NO_MOVE
                return
            _record(trace, tpos, phase, side, castle, out_pick[0], out_pick[1], m)
            decisions += 1
            apply_placement(z, pl, cs, sc, rp, vals, points, castle, m)
    _record_round(log, lpos, z, cs, sc)
    _score(cs, _unspent(z, 0), _unspent(z, 1), rp[SCORING], rp[RING], points, res)
    rounds = sc[ROUND] - start_round + 1
    decided = rounds
    while decided > 1 and (decided - 2 >= n_leaders or leaders[decided - 2] == res[2]):
        decided -= 1
    out[OUT_ENGLISH], out[OUT_FRENCH], out[OUT_WINNER] = res[0], res[1], res[2]
    out[OUT_ROUNDS] = rounds
    out[OUT_DECIDED] = decided
    out[OUT_HERO_E] = 1 if hero < 0 or z[0, REMOVED, hero] == 0 else 0
    out[OUT_HERO_F] = 1 if hero < 0 or z[1, REMOVED, hero] == 0 else 0
    out[OUT_DECISIONS] = decisions
    out[OUT_ENDING] = sc[ENDING]


@njit(cache=True, error_model="numpy")
def scratch(n_kinds, max_sum, scoring, pile_cards, recorder):
    """The games' scratch: the scores (then the castles' stakes), listed weights and moves, castles and
    chosen bluffs of the heuristic's placement (:data:`~.heuristic.MAX_MOVES` entries), its per set and
    class table and candidate sets, the pools of both sides and their keys, the memo of chances by
    sum and its keys, two card sets, a table's scores and the pick, both sides' draw piles (of up
    to ``pile_cards`` cards, :func:`.kernel.new_piles`), then the learned policy's features of each set and
    its network's inputs by set and by castle class, in flat rows (:mod:`.strong_kernel`), and last the ``recorder``'s
    three buffers (:func:`no_recorder`'s where no self-play is recorded), the member each side's mixture drawn
    once a game plays (:func:`game_members`), and the count of the opponent's hidden sets by total
    (:func:`.strong_kernel.count_sets`).  Without a side that ``scoring``
    its moves, the policy's parts have no room (uniform games allocate next to nothing)."""
    moves = MAX_MOVES if scoring else 0
    options = MAX_OPTIONS if scoring else 0
    memo = 1 << MEMO_BITS if scoring else 0
    return (np.empty(moves, np.float64), np.empty(moves, np.int64), np.empty(moves, np.int64),
            np.empty(moves, np.int64), np.empty(moves, np.int64), np.empty((4, 4, options), np.float64),
            np.empty((5, options + 1), np.int64), np.empty((2, 4), np.float64), np.empty(2, np.int64),
            np.empty((memo, max_sum + 1), np.float64),
            np.full(memo, -1, np.int64), np.zeros(n_kinds, np.int64), np.zeros(n_kinds, np.int64),
            np.zeros(3, np.int64), np.zeros(2, np.int64), np.zeros((2, pile_cards + 2), np.int64),
            np.empty(NET_SIZE if scoring else 0, np.float64), np.empty(SET_SIZE if scoring else 0, np.float64),
            np.empty(CLASS_SIZE if scoring else 0, np.float64), recorder[0], recorder[1], recorder[2],
            np.zeros(2, np.int64), np.zeros((max_sum + 3, max_sum + 1) if scoring else (0, 0), np.int64))


@njit(cache=True, error_model="numpy")
def no_recorder():
    """The recorder's buffers where nothing is recorded: no room (:data:`.strong_kernel.RECORD_COLUMNS`)."""
    return (np.zeros((0, N_FEATURES), np.float32), np.zeros((0, len(RECORD_COLUMNS)), np.int64),
            np.zeros(0, np.int64))


@njit(cache=True, error_model="numpy")
def _scratch_of(z0, pl0, vals, codes, tables):
    return _scratch_recording(z0, pl0, vals, codes, tables, no_recorder())


@njit(cache=True, error_model="numpy")
def _scratch_recording(z0, pl0, vals, codes, tables, recorder):
    scoring = codes[0] != 0 or codes[1] != 0
    cards = 0  # the most cards a side owns (a pile holds at most these; a team's HAND_OF_1 is within its HAND)
    for side in range(2):
        cards = max(cards, z0[side, :HAND_OF_1].sum() + pl0[side].sum())
    return scratch(vals.shape[0], tables[4][T_MAX_SUM] if scoring else 0, scoring, cards, recorder)


@njit(cache=True, error_model="numpy")
def untraced_buffers(vals, max_rounds, ways_width):
    """A game's buffers where no trace is kept: its random streams, the rounds' leaders, the counting table of
    the uniform picks, and an empty trace and log with their positions (one set serves a run of games)."""
    return (np.zeros(kn.RNG_SIZE, np.uint64), np.zeros(max_rounds, np.int64),
            np.zeros((vals.shape[0] + 1, ways_width), np.int64), np.zeros((0, TRACE_HEAD + vals.shape[0]), np.int64),
            np.zeros(1, np.int64), np.zeros((0, 1), np.int64), np.zeros(1, np.int64))


@njit(cache=True, parallel=True, error_model="numpy")
def play_batch(z0, pl0, cs0, sc0, rp, vals, opt, points, codes, params, tables, seed, start, count, max_rounds,
               ways_width, out):
    """Games ``start .. start+count-1`` of the batch ``seed`` from one position, on all threads.

    The games are cut into one slice per block of 256 so that each slice allocates its scratch once;
    game g's stream depends only on ``(seed, start + g)``.
    """
    block = 256
    for s in prange((count + block - 1) // block):
        z, pl, cs, sc = z0.copy(), pl0.copy(), cs0.copy(), sc0.copy()
        rng, leaders, ways, trace, tpos, log, lpos = untraced_buffers(vals, max_rounds, ways_width)
        work = _scratch_of(z0, pl0, vals, codes, tables)
        for g in range(s * block, min(count, (s + 1) * block)):
            z[:] = z0
            pl[:] = pl0
            cs[:] = cs0
            sc[:] = sc0
            kn.seed_stream(rng, seed, np.uint64(start + g))
            play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out[g], leaders, ways, trace, tpos,
                 log, lpos, work)


@njit(cache=True, error_model="numpy")
def play_serial(z0, pl0, cs0, sc0, rp, vals, opt, points, codes, params, tables, seed, start, count, max_rounds,
                ways_width, out):
    """:func:`play_batch` on this thread, with one scratch for the batch (the heuristic's memo of
    chances carries over from game to game).  Processes spread such batches (an executor), so no
    thread pool is started here, and a process that forks afterwards stays safe."""
    z, pl, cs, sc = z0.copy(), pl0.copy(), cs0.copy(), sc0.copy()
    rng, leaders, ways, trace, tpos, log, lpos = untraced_buffers(vals, max_rounds, ways_width)
    work = _scratch_of(z0, pl0, vals, codes, tables)
    for g in range(count):
        z[:] = z0
        pl[:] = pl0
        cs[:] = cs0
        sc[:] = sc0
        kn.seed_stream(rng, seed, np.uint64(start + g))
        play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out[g], leaders, ways, trace, tpos,
             log, lpos, work)


@njit(cache=True, error_model="numpy")
def play_recorded(z0, pl0, cs0, sc0, rp, vals, opt, points, codes, params, tables, seed, start, count, max_rounds,
                  ways_width, out, phi, decisions, at):
    """:func:`play_serial`, with the learned policy's placements recorded (:mod:`.recording`): every legal move's
    features into ``phi``, each decision's row into ``decisions``, ``at`` where they stand
    (:data:`.strong_kernel.R_ROWS`...).  Returns the games played whole; where a game's decision finds no room, the
    buffers are left as they were before that game and it stops there (the caller plays on into new buffers).  The
    games are the same as unrecorded: recording draws no random number."""
    z, pl, cs, sc = z0.copy(), pl0.copy(), cs0.copy(), sc0.copy()
    rng, leaders, ways, trace, tpos, log, lpos = untraced_buffers(vals, max_rounds, ways_width)
    work = _scratch_recording(z0, pl0, vals, codes, tables, (phi, decisions, at))
    for g in range(count):
        rows, made = at[R_ROWS], at[R_DECISIONS]
        at[R_GAME], at[R_SEEN] = g, 0
        z[:] = z0
        pl[:] = pl0
        cs[:] = cs0
        sc[:] = sc0
        kn.seed_stream(rng, seed, np.uint64(start + g))
        play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out[g], leaders, ways, trace, tpos,
             log, lpos, work)
        if at[R_OVERFLOW]:
            at[R_ROWS], at[R_DECISIONS], at[R_OVERFLOW] = rows, made, 0
            return g
    return count


@njit(cache=True, error_model="numpy")
def play_forced(z0, pl0, cs0, sc0, rp, vals, opt, points, codes, params, tables, seed, games, force_at, force_move,
                max_rounds, ways_width, out):
    """Game ``games[i]`` of the batch ``seed`` for each i, with the move of index ``force_move[i]`` (in the recorded
    order, :mod:`.recording`) played at the learned policy's placement ``force_at[i]`` of the game instead of the
    policy's: the game is the same up to there, and its random numbers go on after it as they would have (the
    policy draws its pick, then plays the forced move), so two such games differ by that move alone."""
    z, pl, cs, sc = z0.copy(), pl0.copy(), cs0.copy(), sc0.copy()
    rng, leaders, ways, trace, tpos, log, lpos = untraced_buffers(vals, max_rounds, ways_width)
    at = np.zeros(N_AT, np.int64)
    work = _scratch_recording(z0, pl0, vals, codes, tables,
                              (np.zeros((0, N_FEATURES), np.float32), np.zeros((0, len(RECORD_COLUMNS)), np.int64), at))
    for i in range(games.shape[0]):
        at[R_SEEN], at[R_FORCE_AT], at[R_FORCE_MOVE] = 0, force_at[i], force_move[i]
        z[:] = z0
        pl[:] = pl0
        cs[:] = cs0
        sc[:] = sc0
        kn.seed_stream(rng, seed, np.uint64(games[i]))
        play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out[i], leaders, ways, trace, tpos,
             log, lpos, work)


@njit(cache=True, error_model="numpy")
def play_traced(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, seed, index, max_rounds, ways_width,
                trace, tpos, log, lpos, out):
    """One game of a batch, with its trace and round rows (the same game :func:`play_batch` plays for
    that index)."""
    rng = np.zeros(kn.RNG_SIZE, np.uint64)
    kn.seed_stream(rng, seed, index)
    leaders = np.zeros(max_rounds, np.int64)
    ways = np.zeros((vals.shape[0] + 1, ways_width), np.int64)
    work = _scratch_of(z, pl, vals, codes, tables)
    play(z, pl, cs, sc, rp, vals, opt, points, codes, params, tables, rng, out, leaders, ways, trace, tpos, log,
         lpos, work)
