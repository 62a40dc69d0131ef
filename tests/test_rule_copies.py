"""Every copy of a rule, run against the engine over its whole domain: one parametrised test per copy.

The engine holds each rule once (``guyenne_explore/engine/__init__.py`` lists the predicates); a fast simulator
that must restate one for speed is pinned here, so this file lists every copy.  To add a copy: one
test below, parametrised over its domain, comparing it with the engine's own function or play.

Each copy, where it lives, the engine's rule it restates, and its domain here:

- ``castle_points`` (points, longest runs and the sweep column), ``analysis/compiled/kernel.py``:
  ``scoring.points_rows`` (RULES.md 5 step 1 and 6); every table of 2-10 castles, both scorings and adjacencies.
- ``_sweeper`` (the sweep check walked past the tables), ``analysis/compiled/kernel.py``: ``scoring.sweeper``
  (5 step 1); every table of 2-10 castles.
- ``score`` / ``score_row`` (scores and winner), ``analysis/compiled/kernel.py``: ``scoring.table_result`` (6);
  every table of 2-7 castles, 0-2 unspent cards a side.
- ``battle_winner``, ``analysis/compiled/kernel.py``: ``flow.battle_winner`` (4); every pair of placements of up
  to five cards.
- ``removal_ok``, ``analysis/compiled/kernel.py``: ``moves.Choice`` at ``remove_choice`` (4); every placement of
  up to five cards and each of its sub-multisets.
- ``next_castles`` (the control a winner takes), ``analysis/optimal/round.py``: the engine resolving a round's
  two battles (4); every table of 2-4 castles, every (X, Y) and pair of results, sampled tables of 5-10.
- ``_configs`` (the castles after a round per pair of results), ``analysis/exact/endgame.py``: the same;
  every table of 2-4 castles, either first player.
- ``Orbits.moves`` (a round's map of orbits of tables), ``analysis/exact/forward.py``: the same; every start
  table of 2-4 castles.
- ``ends_after_array`` (the end after an endgame round: the hand kept is the hand after the draw, decks being
  empty), ``analysis/optimal/round.py``: ``scoring.sweeper``, ``drawing.hand_size_after_draw`` and
  ``scoring.cannot_play_on`` (5); both sweep flags, every pair of kept hands of 0-12 cards.

- ``_draw_side`` (a side's draw, one card at a time, reshuffles and exhaustions), ``analysis/compiled/kernel.py``:
  ``drawing.side_outcomes`` and ``drawing.draw_side`` (5 step 3); every side of a hand of 0-3 cards, a deck and a
  discard of 0-3 cards of two kinds, each count of exhaustions, limits 1 and 2, both reshuffles.
- ``_ending_after_draw`` (the one-card end check and how the game ended), ``analysis/compiled/loop.py``:
  ``scoring.cannot_play_on`` and ``scoring.ending`` (5 step 4); every pair of hands of 0-3 cards and of
  exhaustions 0..L, limits 1-3.

Copies pinned elsewhere, by replay rather than by domain: the compiled loop's battles and their removals
(``analysis/compiled/kernel.py``, ``_resolve``) and its decisions (``analysis/compiled/loop.py``) replay move
by move and round by round through the engine (``tests/test_fast.py``, ``tests/test_fast_heuristic.py``,
``tests/test_endings_and_tables.py``); the unspent-card sums of
the closed-form endgame solvers (``analysis/exact/endgame.py``, ``forward.py``) equal the engine's
enumeration outcome for outcome (``tests/test_exact_fast.py``, ``tests/test_endings_and_tables.py``).
"""

import random
from collections import Counter
from functools import lru_cache
from itertools import product

import numpy as np
import pytest
from numba import njit

from guyenne_explore.engine import Cards, Move, Position, Rules
from guyenne_explore.analysis.compiled import kernel as kn
from guyenne_explore.analysis.compiled.encode import points_array
from guyenne_explore.analysis.exact import endgame
from guyenne_explore.analysis.exact.forward import Orbits
from guyenne_explore.analysis.optimal import round as optimal_round
from guyenne_explore.engine.cards import HERO, KINDS, value_of
from guyenne_explore.engine import (ENGLISH, FRENCH, NEUTRAL, OPEN_FIRST, REMOVE_CHOICE, Choice, Side,
                                        battle_winner, cannot_play_on, hand_size_after_draw, points_rows, sweeper,
                                        table_result)

DOMAIN = list(product(range(2, kn.MAX_TABLED_CASTLES + 1), ("2022", "2021"), (False, True)))


def _tables(n):
    return product((NEUTRAL, ENGLISH, FRENCH), repeat=n)


# ---------------------------------------------------------------------- castle points and the sweep (compiled)

@njit(cache=True)
def _kernel_rows(n, scoring, ring):
    """The kernel's own castle points (used past ten castles) of every table, in the engine's row order."""
    out = np.zeros((3 ** n, 6), np.int64)
    cs = np.zeros(n, np.int64)
    walked = np.zeros((0, 5), np.int64)
    for code in range(3 ** n):
        r = code
        for i in range(n - 1, -1, -1):
            cs[i] = r % 3 - 1
            r //= 3
        out[code, 0], out[code, 1], out[code, 2], out[code, 3], out[code, 4] = kn.castle_points(cs, scoring, ring)
        out[code, 5] = kn._sweeper(cs, walked)  # the kernel's own end check past ten castles
    return out


@pytest.mark.parametrize("n,scoring,ring", DOMAIN)
def test_kernel_castle_points_equal_the_engine_table(n, scoring, ring):
    engine = np.array(points_rows(n, scoring, ring), np.int64)
    assert engine.shape == (3 ** n, 5)
    kernel = _kernel_rows(n, 0 if scoring == "2022" else 1, ring)
    assert (kernel[:, :5] == engine).all()
    assert (kernel[:, 5] == engine[:, 0]).all()
    assert [sweeper(t) for t in _tables(n)] == [None if s < 0 else s for s in engine[:, 0]]


def _tables(n):
    return product((NEUTRAL, ENGLISH, FRENCH), repeat=n)


@pytest.mark.parametrize("n,scoring,ring", [d for d in DOMAIN if d[0] <= 6] + [(7, "2021", False), (7, "2022", True)])
def test_kernel_scores_equal_the_engine_on_every_table(n, scoring, ring):
    rules = Rules.preset("classic2021" if scoring == "2021" else "base", castles=n,
                         adjacency="ring" if ring else "line")
    code = 0 if scoring == "2022" else 1
    with_table, walked = points_array(n, scoring, ring), np.zeros((0, 5), np.int64)
    out = np.zeros(3, np.int64)
    winners = ("english", "french", "draw")
    for table in _tables(n):
        cs = np.array(table, np.int64)
        for ue, uf in product(range(3), range(3)):
            want = table_result(table, ue, uf, rules)
            for points in (with_table, walked):
                kn.score(cs, ue, uf, code, ring, points, out)
                assert (int(out[0]), int(out[1]), winners[out[2]]) == (want.english, want.french, want.winner), table


# ---------------------------------------------------------------------- the castles after a round (closed forms)
#: a battle's placements for each result, english card first: english wins, french wins, a tie
_PLACED = {ENGLISH: ("5", "2"), FRENCH: ("2", "5"), None: ("3", "3")}
#: the closed forms' codes of a battle's result: english, french, tie
_WINNERS = (ENGLISH, FRENCH, None)


@lru_cache(maxsize=None)
def _engine_after_round(castles: tuple[int, ...], x: int, y: int, wx: int | None, wy: int | None) -> tuple[int, ...]:
    """The castles after a round the engine plays: english opens X, french answers and opens Y, english
    answers, with cards that make each battle end as asked (battles decided by the engine)."""
    rules = Rules.preset("base", castles=len(castles), removal="none", concede_as_decision=False)
    (ex, fx), (ey, fy) = _PLACED[wx], _PLACED[wy]
    hands = (Cards.parse(ex + ey + "1"), Cards.parse(fx + fy + "1"))
    limit = rules.exhaustion_limit
    p = Position(rules, castles, 1, ENGLISH, OPEN_FIRST, tuple(Side(hands=(h,), exhaustions=limit) for h in hands))
    for move in (Move(Cards.parse(ex), castle=x), Move(Cards.parse(fx)), Move(Cards.parse(fy), castle=y),
                 Move(Cards.parse(ey))):
        p = p.apply(move)
    return p.castles


def _rounds(n: int):
    """Every (X, Y) and pair of battle results of a round on ``n`` castles."""
    return [(x, y, ox, oy) for x in range(n) for y in range(n) if x != y for ox in range(3) for oy in range(3)]


def _some_tables(n: int, count: int = 8):
    rng = random.Random(n)
    return [tuple(rng.choice((NEUTRAL, ENGLISH, FRENCH)) for _ in range(n)) for _ in range(count)]


@pytest.mark.parametrize("n", range(2, 11))
def test_optimal_next_castles_equal_the_engine(n):
    """``round.next_castles``: a winner takes the castle, a tie leaves it (RULES.md 4)."""
    tables = list(_tables(n)) if n <= 4 else _some_tables(n)
    for castles in tables:
        for x, y, ox, oy in _rounds(n):
            want = _engine_after_round(castles, x, y, _WINNERS[ox], _WINNERS[oy])
            assert optimal_round.next_castles(castles, x, y, ox, oy) == want, (castles, x, y, ox, oy)


@pytest.mark.parametrize("n", range(2, 5))
@pytest.mark.parametrize("first", [ENGLISH, FRENCH])
def test_endgame_castles_after_a_round_equal_the_engine(n, first):
    """``endgame._configs``: for each pair of results seen from the first player, how many (X, Y) give
    each table, and which tables are a sweep."""
    who = {endgame.F_WINS: first, endgame.S_WINS: 1 - first, endgame.TIE: None}
    for castles in _tables(n):
        tables, counts, all_six = endgame._configs(castles, first)
        want = Counter((_engine_after_round(castles, x, y, who[ox], who[oy]), 3 * ox + oy) for x, y, ox, oy in _rounds(n))
        got = Counter({(tables[t], o): int(counts[t, o]) for t in range(len(tables)) for o in range(9) if counts[t, o]})
        assert got == want, castles
        assert list(all_six) == [sweeper(t) is not None for t in tables]


@pytest.mark.parametrize("n", range(2, 5))
def test_forward_orbit_map_equals_the_engine(n):
    """``forward.Orbits.moves[3 * ox + oy, a, b]``: the (X, Y) sending orbit a's tables to orbit b
    when the battles end ox and oy (english wins, french wins, tie)."""
    digits = np.array(list(product(range(3), repeat=n)), dtype=np.int64)
    powers = 3 ** np.arange(n - 1, -1, -1)
    control = (NEUTRAL, ENGLISH, FRENCH)
    index = {tuple(control[d] for d in row): i for i, row in enumerate(digits.tolist())}
    for start in range(len(digits)):
        orbits = Orbits(digits, powers, start)
        want = np.zeros_like(orbits.moves)
        for a, rep in enumerate(orbits.rep.tolist()):
            table = tuple(control[d] for d in digits[rep].tolist())
            for x, y, ox, oy in _rounds(n):
                after = _engine_after_round(table, x, y, _WINNERS[ox], _WINNERS[oy])
                want[3 * ox + oy, a, orbits.of[index[after]]] += 1
        assert (orbits.moves == want).all(), start


@pytest.mark.parametrize("swept", [False, True])
def test_optimal_end_after_a_round_equals_the_engine(swept):
    """``round.ends_after_array`` with empty decks: a sweep, or a side whose hand after the draw (the
    engine's, from the hand kept, no deck, its last exhaustion made) cannot play on."""
    rules = Rules.preset("base")
    sizes = np.arange(13)
    got = optimal_round.ends_after_array(np.full((13, 13), swept), sizes[:, None], sizes[None, :])
    after = [hand_size_after_draw(Side(hands=(Cards.from_values({1: k}),), exhaustions=rules.exhaustion_limit), rules)
             for k in range(13)]
    want = np.array([[swept or bool(cannot_play_on((after[f], after[s]))) for s in range(13)] for f in range(13)])
    assert (got == want).all()


# ---------------------------------------------------------------------- battles and removals (compiled)
KINDS_PRESENT = [1, 2, 3, 4, 8, HERO]  # values 2, 3, 4, 5, 9 and the hero: weakest first, as the kernel orders them


def _placements(most):
    """Every multiset of 1..``most`` cards of the kinds above (at most 2 heroes: one per side, two for a team)."""
    out = []
    for counts in product(range(most + 1), repeat=len(KINDS_PRESENT)):
        if 1 <= sum(counts) <= most and counts[-1] <= 1:
            out.append(counts)
    return out


def _cards(counts):
    full = [0] * KINDS
    for k, c in zip(KINDS_PRESENT, counts):
        full[k] = c
    return Cards(full)


def test_kernel_battles_equal_the_engine_on_every_pair_of_placements():
    """RULES.md 4: sums, the hero's override, ties; every pair of placements of up to 5 cards (max_at_castle)."""
    vals = np.array([0 if k == HERO else value_of(k) for k in KINDS_PRESENT], np.int64)
    hero = KINDS_PRESENT.index(HERO)
    places = _placements(5)
    arrays = [np.array(c, np.int64) for c in places]
    cards = [_cards(c) for c in places]
    for a, ca in zip(arrays, cards):
        for b, cb in zip(arrays, cards):
            want = battle_winner(NEUTRAL, ca, cb)
            assert kn.battle_winner(a, b, vals, hero) == (-1 if want is None else want), (ca, cb)


def test_kernel_removals_equal_the_engine_legal_moves():
    """RULES.md 4: a neutral battle's loser removes the strongest card alone or cards adding up to
    its value; the kernel's check (used past the option tables) against the engine's legal moves."""
    vals = np.array([0 if k == HERO else value_of(k) for k in KINDS_PRESENT], np.int64)
    hero = KINDS_PRESENT.index(HERO)
    for placed in _placements(5):
        src = _cards(placed)
        legal = {m.cards for m in Choice(REMOVE_CHOICE, 0, source=src, battle=0).moves()}
        for sub in product(*(range(c + 1) for c in placed)):
            ok = kn.removal_ok(np.array(placed, np.int64), np.array(sub, np.int64), vals, hero)
            assert ok == (_cards(sub) in legal), (src, _cards(sub))


# ---------------------------------------------------------------------- draws and the end after them (compiled loop)
DRAW_KINDS = [1, 4]  # values 2 and 5: two kinds, so which cards come is the draw's chance


def _zone(counts):
    full = [0] * KINDS
    for k, c in zip(DRAW_KINDS, counts):
        full[k] = c
    return Cards(full)


def _piles(most):
    return [c for c in product(range(most + 1), repeat=2) if sum(c) <= most]


@pytest.mark.parametrize("reshuffle", ["on_draw", "immediate"])
@pytest.mark.parametrize("limit", [1, 2])
def test_kernel_draws_equal_the_engine_draws(reshuffle, limit):
    """``kernel._draw_side`` (RULES.md 5 step 3: one card at a time, reshuffles and exhaustions): from
    every side of a hand of 0-3 cards, a deck and a discard of 0-3 cards of two kinds and each count of
    exhaustions, each draw it makes (a few seeds) is one the engine can make from that side, and
    leaves the side the engine leaves after drawing exactly those cards."""
    from guyenne_explore.engine.drawing import draw_side
    from guyenne_explore.engine import side_outcomes

    rules = Rules.preset("base", hand_size=4, exhaustion_limit=limit, reshuffle=reshuffle)
    rp = np.zeros(kn.N_RULES, np.int64)
    rp[kn.HAND_SIZE], rp[kn.LIMIT], rp[kn.IMMEDIATE] = rules.hand_size, limit, reshuffle == "immediate"
    rng, drawn, piles = np.zeros(kn.RNG_SIZE, np.uint64), np.zeros(2, np.int64), np.zeros((2, 14), np.int64)
    for hand, deck, discard in product(range(4), _piles(3), _piles(3)):
        for exhaustions in range(limit + 1):
            side = Side(hands=(_zone((hand, 0)),), deck=_zone(deck), discard=_zone(discard), exhaustions=exhaustions)
            support = {cards for cards, _ in side_outcomes(side, rules)}
            for seed in range(3):
                z = np.zeros((2, 4, 2), np.int64)
                z[0, kn.HAND], z[0, kn.DECK], z[0, kn.DISCARD] = (hand, 0), deck, discard
                sc = np.zeros(kn.N_SCALARS, np.int64)
                sc[kn.EXH] = exhaustions
                kn.seed_stream(rng, np.uint64(seed), np.uint64(0))
                kn.new_piles(piles)
                kn._draw_side(z, sc, rp, 0, rng, drawn, piles)
                got, after = _zone(drawn), draw_side(side, _zone(drawn), rules)
                assert got in support, (side, got)
                assert (_zone(z[0, kn.HAND]), _zone(z[0, kn.DECK]), _zone(z[0, kn.DISCARD]), int(sc[kn.EXH])) == (
                    after.hand, after.deck, after.discard, after.exhaustions), (side, got)


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_loop_end_after_the_draw_equals_the_engine(limit):
    """``loop._ending_after_draw`` (RULES.md 5 step 4): every pair of hands of 0-3 cards after the draw
    and of exhaustions 0..L, against the engine's ``ending`` of the finished game on a table no side
    sweeps (play goes on, -1, exactly where the engine's ``cannot_play_on`` names no side)."""
    from guyenne_explore.analysis.compiled.loop import _ending_after_draw
    from guyenne_explore.engine import ENDINGS, ending

    rules = Rules.preset("base", exhaustion_limit=limit)
    rp = np.zeros(kn.N_RULES, np.int64)
    rp[kn.LIMIT] = limit
    for sizes in product(range(4), repeat=2):
        for spent in product(range(limit + 1), repeat=2):
            z = np.zeros((2, 4, 1), np.int64)
            z[0, kn.HAND, 0], z[1, kn.HAND, 0] = sizes
            sc = np.zeros(kn.N_SCALARS, np.int64)
            sc[kn.EXH], sc[kn.EXH + 1] = spent
            got = _ending_after_draw(z, sc, rp)
            if not cannot_play_on(sizes):
                assert got == -1, (sizes, spent)
                continue
            sides = tuple(Side(hands=(Cards.from_values({2: n}),), exhaustions=e) for n, e in zip(sizes, spent))
            p = Position(rules, (NEUTRAL,) * rules.castles, 3, ENGLISH, "end", sides)
            assert got == ENDINGS.index(ending(p).reason), (sizes, spent)
