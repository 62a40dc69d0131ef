"""The compiled game's rules over count vectors: random streams, card picks, draws, battles, removals, scores.

These are the primitives of the one game loop (:mod:`.loop`), written for speed: a position is a
handful of small integer arrays (:mod:`.encode` builds them from an engine position), a uniform
choice is one random index into the engine's option lists, each draw takes one card at a time.
They are not a second source of truth: what they restate of the rules is pinned equal to the
engine over its whole domain (``tests/test_endings_and_tables.py``), and the loop's games are
replayed move by move through the engine (``tests/test_fast.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .layout import (  # noqa: F401 (the kernel's interface includes its layout)
    BATTLE, CASTLE_X, CASTLE_Y, DEAL, DECK, DISCARD, DRAW, DRAW_WINNER, END, ENDING, END_EXHAUSTED,
    END_OUT_OF_CARDS, END_SWEEP, ERR_NO_MOVE, ERR_TOO_LONG, EXH, FIRST, HAND, HAND_SIZE, HERO_KIND, IMMEDIATE,
    LIMIT, MAX_AT, MAX_TABLED_CASTLES, NEUTRAL, N_CASTLES, N_OUT, N_RULES, N_SCALARS, OPEN_FIRST,
    OPEN_SECOND, OUT_DECISIONS, OUT_ENDING, OUT_ERROR, PHASE, PRE_DISCARD, REMOVAL, REMOVAL_ADVANCED,
    REMOVAL_CLASSIC, REMOVAL_NONE, REMOVE, REMOVED, RESPOND_FIRST, RESPOND_SECOND, RING, ROUND, ROUND_HEAD,
    SCORING, SETUP, TRACE_HEAD, round_width, HAND_OF_1, N_ZONES, DRAWER, ORDER, TEAM, TEAM_SPLIT, TEAM_ORDER,
    OUT_ENGLISH, OUT_FRENCH, OUT_WINNER, OUT_ROUNDS, OUT_DECIDED, OUT_HERO_E, OUT_HERO_F, CONCEDE,
    CONCEDE_AS_DECISION, KINDS, SHOWN,
)


@njit(cache=True, error_model="numpy")
def _mix(z):
    """SplitMix64's output function: a well-mixed 64-bit number of the state ``z``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, error_model="numpy")
def _next(rng):
    """SplitMix64 on ``rng[0]``: small state, good statistics, one multiply chain per number."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    return _mix(rng[0])


@njit(cache=True, error_model="numpy")
def _below(rng, n):
    """A uniform integer in [0, n) (53-bit resolution: the bias is below 1e-12 for our n)."""
    return int(np.float64(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


#: the length of a game's ``rng``: its decision stream's state, then its chance key
RNG_SIZE = 2


@njit(cache=True, error_model="numpy")
def seed_stream(rng, seed, index):
    """The streams of game ``index`` of a batch seeded with ``seed`` (both as uint64): ``rng[0]`` the
    decisions' stream, ``rng[1]`` the key of its draw piles' orders (:func:`_form_pile`), so the draws
    do not depend on the decisions."""
    rng[0] = seed * np.uint64(0xD1B54A32D192ED03) + index
    _next(rng)
    rng[0] ^= _next(rng)
    rng[1] = _mix(rng[0] ^ np.uint64(0x6A09E667F3BCC909))


@njit(cache=True, error_model="numpy")
def new_piles(piles):
    """No pile formed yet (a game's start): ``piles[side] = (cards in the pile, piles formed so far,
    the pile's kinds with its top card last...)``."""
    for side in range(piles.shape[0]):
        piles[side, 0] = -1
        piles[side, 1] = 0


@njit(cache=True, error_model="numpy")
def _form_pile(deck, piles, side, key):
    """Side ``side``'s pile: its deck's cards, each copy of a kind labelled (``copy * kinds + kind``), in an
    order shuffled (Fisher-Yates) by the stream of its n-th forming, ``(key, side, n)``, which no decision
    touches; drawn from the top (the last).  The engine's ``drawing.Piles`` the same way."""
    nk = deck.shape[0]
    n = 0
    for k in range(nk):
        for copy in range(deck[k]):
            piles[side, 2 + n] = copy * nk + k
            n += 1
    state = _mix(key ^ (np.uint64(side + 1) * np.uint64(0x9E3779B97F4A7C15))
                 ^ (np.uint64(piles[side, 1] + 1) * np.uint64(0xC2B2AE3D27D4EB4F)))
    for i in range(n - 1, 0, -1):
        state += np.uint64(0x9E3779B97F4A7C15)
        j = int(np.float64(_mix(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * (i + 1))
        piles[side, 2 + i], piles[side, 2 + j] = piles[side, 2 + j], piles[side, 2 + i]
    piles[side, 0] = n
    piles[side, 1] += 1


@njit(cache=True, error_model="numpy")
def _size(c):
    s = 0
    for k in range(c.shape[0]):
        s += c[k]
    return s


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def member_size(z, side, member):
    """How many cards a team's member holds (member 0: the side's hand less member 1's)."""
    n = _size(z[side, HAND_OF_1])
    return n if member == 1 else _size(z[side, HAND]) - n


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def member_hand(z, side, member, out):
    """A team member's own hand: member 1's zone, or member 0's worked out into ``out``."""
    if member == 1:
        return z[side, HAND_OF_1]
    for k in range(out.shape[0]):
        out[k] = z[side, HAND, k] - z[side, HAND_OF_1, k]
    return out


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def placing_member(sc, side, b):
    """The team member who places at battle ``b`` (the engine's ``turn.member_battle``): the member the
    team put first takes X, the other Y (RULES.md 8)."""
    return sc[ORDER + side] if b == 0 else 1 - sc[ORDER + side]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def placing_hand(z, sc, rp, side, b, out):
    """The hand that places at battle ``b`` and the option table its card sets are listed in: a lone
    side's hand, with table ``b`` (at X it keeps one card back for Y); a team member's own hand, with
    the table that keeps nothing back (1), since each member places once a round (RULES.md 8).
    Member 0's hand is worked out into ``out``."""
    if rp[TEAM + side] == 0:
        return z[side, HAND], b
    return member_hand(z, side, placing_member(sc, side, b), out), 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def team_deciding(sc, rp):
    """The side whose team decides its split and order now: the first player's team first (RULES.md 8)."""
    first = sc[FIRST]
    return first if rp[TEAM + first] and sc[ORDER + first] < 0 else 1 - first


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def round_start(z, sc, rp):
    """The first decision of a round (the engine's ``flow._start_of_round_point``): a team that has
    not ordered its members yet shares its cards first (its order alone when its drawer holds one
    card), the first player's team first; then ``open_first``."""
    first = sc[FIRST]
    for i in range(2):
        side = first if i == 0 else 1 - first
        if rp[TEAM + side] and sc[ORDER + side] < 0:
            return TEAM_ORDER if member_size(z, side, sc[DRAWER + side]) == 1 else TEAM_SPLIT
    return OPEN_FIRST


@njit(cache=True, error_model="numpy")
def _total(c, vals):
    """Sum of the valued cards; the hero adds nothing (it overrides)."""
    s = 0
    for k in range(c.shape[0]):
        s += vals[k] * c[k]
    return s


@njit(cache=True, error_model="numpy")
def _strongest(c):
    for k in range(c.shape[0] - 1, -1, -1):
        if c[k] > 0:
            return k
    return -1


@njit(cache=True, error_model="numpy")
def battle_winner(e, f, vals, hero):
    """0 or 1 for the winning side, -1 for a tie (RULES.md section 4)."""
    he = hero >= 0 and e[hero] > 0
    hf = hero >= 0 and f[hero] > 0
    if he and hf:
        return -1
    if he:
        return 0
    if hf:
        return 1
    se, sf = _total(e, vals), _total(f, vals)
    if se == sf:
        return -1
    return 0 if se > sf else 1


@njit(cache=True, error_model="numpy")
def _count_sizes(src, lo, hi, ways):
    """ways[k, s]: sub-multisets of size s of the kinds k.. of ``src``; returns how many have size lo..hi."""
    nk = src.shape[0]
    for s in range(hi + 1):
        ways[nk, s] = 0
    ways[nk, 0] = 1
    for k in range(nk - 1, -1, -1):
        for s in range(hi + 1):
            t = 0
            for c in range(min(src[k], s) + 1):
                t += ways[k + 1, s - c]
            ways[k, s] = t
    n = 0
    for s in range(lo, hi + 1):
        n += ways[0, s]
    return n


@njit(cache=True, error_model="numpy")
def pick_multiset(src, lo, hi, rng, out, ways):
    """A uniformly random distinct sub-multiset of ``src`` with lo..hi cards into ``out``.

    Returns False when there is none.  Small sources use rejection over the
    product of the per-kind counts (each distinct multiset once, so accepted
    draws are uniform); larger ones sample from the size counts.
    """
    n = _size(src)
    nk = src.shape[0]
    if hi > n:
        hi = n
    if lo > hi:
        return False
    space = 1
    for k in range(nk):
        space *= src[k] + 1
    if space <= 64:
        while True:
            r = _below(rng, space)
            s = 0
            for k in range(nk):
                b = src[k] + 1
                out[k] = r % b
                r //= b
                s += out[k]
            if lo <= s <= hi:
                return True
    total = _count_sizes(src, lo, hi, ways)
    if total == 0:
        return False
    r = _below(rng, total)
    size = lo
    for s in range(lo, hi + 1):
        if r < ways[0, s]:
            size = s
            break
        r -= ways[0, s]
    for k in range(nk):
        out[k] = 0
        for c in range(min(src[k], size) + 1):
            w = ways[k + 1, size - c]
            if r < w:
                out[k] = c
                size -= c
                break
            r -= w
    return True


@njit(cache=True, error_model="numpy")
def multiset_code(c, weights):
    """The option tables' code of multiset ``c`` (mixed radix, ``weights`` from :mod:`.options`)."""
    code = 0
    for k in range(c.shape[0]):
        code += c[k] * weights[k]
    return code


@njit(cache=True, error_model="numpy")
def option_rows(opt, table, src):
    """The rows of option table ``table`` that list the legal card sets of the multiset ``src`` (a hand, or
    the cards at a battle): its code, the first row and their number (:mod:`.options`: the engine's legal
    moves, listed per multiset code)."""
    weights, offsets, _cards = opt
    code = multiset_code(src, weights)
    first = offsets[table, code]
    return code, first, offsets[table, code + 1] - first


@njit(cache=True, error_model="numpy")
def pick_option(opt, table, src, rng, out):
    """A uniformly random row of option table ``table`` for the multiset ``src`` into ``out``
    (:mod:`.options`: the engine's legal moves, listed per multiset code).  False when there is none."""
    cards = opt[2]
    _code, first, n = option_rows(opt, table, src)
    if n <= 0:
        return False
    row = first + _below(rng, n)
    for k in range(src.shape[0]):
        out[k] = cards[row, k]
    return True


@njit(cache=True, error_model="numpy")
def removal_ok(src, m, vals, hero):
    """RULES.md 4: the strongest placed card alone, or two or more adding up to at least its value."""
    n = _size(m)
    strongest = _strongest(src)
    if n == 0:
        return False
    if n == 1:
        return m[strongest] == 1
    need = 100 if strongest == hero else vals[strongest]
    return _total(m, vals) >= need


@njit(cache=True, error_model="numpy")
def pick_removal(src, rng, out, vals, hero):
    """A uniformly random legal removal from the cards ``src`` a neutral battle's loser placed."""
    space = 1
    for k in range(src.shape[0]):
        space *= src[k] + 1
    while True:  # the strongest card alone is always legal: acceptance >= 1/space
        r = _below(rng, space)
        for k in range(src.shape[0]):
            b = src[k] + 1
            out[k] = r % b
            r //= b
        if removal_ok(src, out, vals, hero):
            return




@njit(cache=True, error_model="numpy")
def _run_points(r, scoring):
    """Points of one run of ``r`` castles (2022: 1 alone, 2 per castle in a run; 2021: 1 per castle)."""
    if scoring == 0:
        return 1 if r == 1 else 2 * r
    return r


@njit(cache=True, error_model="numpy")
def castle_points(cs, scoring, ring):
    """What the castles alone give (RULES.md 6): (the side holding all of them or -1, points of each
    side before unspent cards, each side's longest run, 0 under 2022 where it decides nothing)."""
    n = cs.shape[0]
    same = cs[0] != NEUTRAL
    for i in range(1, n):
        if cs[i] != cs[0]:
            same = False
            break
    if same:
        return cs[0], 0, 0, 0, 0
    pts0, pts1, long0, long1 = 0, 0, 0, 0
    first_len = 0
    i = 0
    while i < n:
        c = cs[i]
        j = i + 1
        while j < n and cs[j] == c:
            j += 1
        r = j - i
        if i == 0:
            first_len = r
        if ring and j == n and i > 0 and c != NEUTRAL and cs[0] == c:
            # the last run goes round to the first one: score them as one run
            p_first = _run_points(first_len, scoring)
            r += first_len
            if c == 0:
                pts0 -= p_first
            else:
                pts1 -= p_first
        if c == 0:
            pts0 += _run_points(r, scoring)
            long0 = max(long0, r)
        elif c == 1:
            pts1 += _run_points(r, scoring)
            long1 = max(long1, r)
        i = j
    if scoring == 1:
        if long0 >= 2:
            pts0 += long0
        if long1 >= 2:
            pts1 += long1
        return -1, pts0, pts1, long0, long1
    return -1, pts0, pts1, 0, 0


@njit(cache=True, error_model="numpy")
def score(cs, unspent_e, unspent_f, scoring, ring, table, out):
    """Scores and winner of the table into out[0:3] (RULES.md 6); ``table`` is the engine's
    :func:`~guyenne_explore.engine.scoring.points_rows` (or empty: the runs are walked)."""
    if table.shape[0] > 0:
        code = 0
        for i in range(cs.shape[0]):
            code = 3 * code + cs[i] + 1
        sweep, pts0, pts1, long0, long1 = table[code, 0], table[code, 1], table[code, 2], table[code, 3], table[code, 4]
    else:
        sweep, pts0, pts1, long0, long1 = castle_points(cs, scoring, ring)
    score_row(sweep, pts0, pts1, long0, long1, unspent_e, unspent_f, scoring, out)


@njit(cache=True, error_model="numpy")
def score_row(sweep, pts0, pts1, long0, long1, unspent_e, unspent_f, scoring, out):
    """:func:`score` from the table's castle points (a row of the points table): callers that code
    tables themselves (the heuristic's stakes, one castle changed at a time) start here."""
    if sweep >= 0:
        out[0] = 12 if sweep == 0 else 0
        out[1] = 12 if sweep == 1 else 0
        out[2] = sweep
        return
    if scoring == 1:
        pts0 += unspent_e
        pts1 += unspent_f
    out[0], out[1] = pts0, pts1
    if pts0 != pts1:
        out[2] = 0 if pts0 > pts1 else 1
    elif long0 != long1:
        out[2] = 0 if long0 > long1 else 1
    elif unspent_e != unspent_f:
        out[2] = 0 if unspent_e > unspent_f else 1
    else:
        out[2] = DRAW_WINNER


@njit(cache=True, error_model="numpy")
def deal_piles(z, piles, rng):
    """Each side's pile formed from its deck as a game starts (:func:`new_piles` first)."""
    for side in range(2):
        if _size(z[side, DECK]) > 0:
            _form_pile(z[side, DECK], piles, side, rng[1])


@njit(cache=True, error_model="numpy")
def drop_from_pile(piles, side, gone):
    """The cards ``gone`` a decision took from the side's deck (the expert setup's discards) out of its
    pile: of each kind the copies with the highest labels, a choice its order does not know, so the cards
    left keep their order and it stays uniformly random (the engine's ``drawing._without``)."""
    nk = gone.shape[0]
    for k in range(nk):
        for _ in range(gone[k]):
            at, label = -1, -1
            for i in range(piles[side, 0]):
                card = piles[side, 2 + i]
                if card % nk == k and card > label:
                    at, label = i, card
            if at >= 0:  # (a pile that does not hold them is formed again at the draw)
                for i in range(at, piles[side, 0] - 1):
                    piles[side, 2 + i] = piles[side, 3 + i]
                piles[side, 0] -= 1


@njit(cache=True, error_model="numpy")
def _draw_side(z, sc, rp, side, rng, drawn, piles):
    """RULES.md 5.3 one card at a time: reshuffles on an empty deck (or at once), exhaustions counted; a
    reshuffle loses sight of the discard's shown cards (:func:`forget_shown`).

    Each card is the top of the side's pile (``piles``: :func:`new_piles`, :func:`deal_piles`), formed
    again at each reshuffle or where it no longer holds the deck's cards (:func:`_form_pile`, from the
    chance key ``rng[1]``)."""
    nk = drawn.shape[0]
    for k in range(nk):
        drawn[k] = 0
    hand, deck, discard = z[side, HAND], z[side, DECK], z[side, DISCARD]
    need = rp[HAND_SIZE] - _size(hand)
    deck_n, disc_n = _size(deck), _size(discard)
    limit = rp[LIMIT]
    if need > 0 and deck_n > 0 and piles[side, 0] != deck_n:  # the deck as first drawn (the pile follows it from then on)
        _form_pile(deck, piles, side, rng[1])
    while need > 0:
        if deck_n == 0:
            if sc[EXH + side] < limit and disc_n > 0:
                for k in range(nk):
                    deck[k] += discard[k]
                    discard[k] = 0
                forget_shown(sc, side)
                deck_n, disc_n = disc_n, 0
                _form_pile(deck, piles, side, rng[1])
            else:
                break
        piles[side, 0] -= 1
        k = piles[side, 2 + piles[side, 0]] % nk
        deck[k] -= 1
        hand[k] += 1
        drawn[k] += 1
        deck_n -= 1
        need -= 1
        if deck_n == 0:
            if sc[EXH + side] < limit:
                sc[EXH + side] += 1
            if rp[IMMEDIATE] and sc[EXH + side] < limit and disc_n > 0:
                for k2 in range(nk):
                    deck[k2] += discard[k2]
                    discard[k2] = 0
                forget_shown(sc, side)
                deck_n, disc_n = disc_n, 0
                _form_pile(deck, piles, side, rng[1])


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def forget_shown(sc, side):
    """A reshuffle puts ``side``'s discard into its deck: no card of it is in sight any more."""
    for k in range(KINDS):
        sc[SHOWN + side * KINDS + k] = 0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")  # type: ignore[call-overload]
def shown(sc, side, k):
    """How many cards of kind ``k`` that ``side`` showed in a battle lie in its discard (:data:`.layout.SHOWN`)."""
    return sc[SHOWN + side * KINDS + k]


@njit(cache=True, error_model="numpy")
def _resolve(z, pl, cs, sc, rp, vals, points, battle, conceded):
    """Resolve battle X (0) then Y (1) from ``battle`` on; stop at a defender's concede choice (where the
    rules make it a decision and ``battle``'s defender has not chosen: ``conceded`` -1; else 1 when it
    conceded, 0 when it revealed), at a removal choice or at the round's end.  A conceding defender
    loses the battle and discards its cards face down at once (RULES.md 4, the engine's
    ``flow._finish_battle``)."""
    b = battle
    while True:
        castle = sc[CASTLE_X + b]
        control = cs[castle]
        if control != NEUTRAL and rp[CONCEDE_AS_DECISION] and conceded < 0:
            sc[PHASE] = CONCEDE
            sc[BATTLE] = b
            return
        w = battle_winner(pl[0, b], pl[1, b], vals, rp[HERO_KIND])
        if conceded == 1:
            w = 1 - control
            for k in range(pl.shape[2]):
                z[control, DISCARD, k] += pl[control, b, k]
                pl[control, b, k] = 0
        conceded = -1  # (the next battle's defender has not chosen)
        new = control if w == -1 else w
        if control != NEUTRAL:
            attacker = 1 - control
            if rp[REMOVAL] == REMOVAL_ADVANCED or (rp[REMOVAL] == REMOVAL_CLASSIC and new == attacker):
                k = _strongest(pl[attacker, b])
                if k >= 0:
                    pl[attacker, b, k] -= 1
                    z[attacker, REMOVED, k] += 1
        cs[castle] = new
        if control == NEUTRAL and w != -1 and rp[REMOVAL] == REMOVAL_ADVANCED:
            sc[PHASE] = REMOVE
            sc[BATTLE] = b
            return
        if b == 1:
            break
        b = 1
    _end_of_round(z, pl, cs, sc, rp, points)


@njit(cache=True, error_model="numpy")
def _sweeper(cs, points):
    """The side controlling every castle or -1 (RULES.md 5.1): the engine's table says it when
    there is one (``points[code, 0]``), else the castles are compared."""
    if points.shape[0] > 0:
        code = 0
        for i in range(cs.shape[0]):
            code = 3 * code + cs[i] + 1
        return points[code, 0]
    for i in range(cs.shape[0]):
        if cs[i] != cs[0]:
            return -1
    return cs[0]


@njit(cache=True, error_model="numpy")
def _end_of_round(z, pl, cs, sc, rp, points):
    """RULES.md 5.1-5.2: the end when one side controls every castle, else every placed card to its
    side's discard, face up (a conceding defender's went face down already): each of them is shown there
    (:data:`.layout.SHOWN`, as the public record folds it)."""
    same = _sweeper(cs, points) >= 0
    sc[BATTLE] = -1
    if same:
        sc[PHASE] = END
        sc[ENDING] = END_SWEEP
        return
    for side in range(2):
        for b in range(2):
            for k in range(pl.shape[2]):
                z[side, DISCARD, k] += pl[side, b, k]
                sc[SHOWN + side * KINDS + k] += pl[side, b, k]
                pl[side, b, k] = 0
    sc[CASTLE_X] = -1
    sc[CASTLE_Y] = -1
    sc[PHASE] = DRAW
