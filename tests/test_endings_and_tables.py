"""How games end, and the compiled path's scoring against the engine's over its whole domain.

- The engine reports how a game ended (RULES.md 5.1 a sweep, 5.4 a side that cannot play on);
  the Sweep metric counts those endings, not scores of 12 (which a side reaches without a sweep
  under classic2021, and with seven castles or more).
- The kernel's castle points, scores and sweep check equal the engine's on every table of 2 to 10
  castles, both scorings, both adjacencies; its battles and removal checks equal the engine's on
  every placement of up to five cards; its games' states at each end of a round equal the
  engine's replay of the same game, round by round.
"""

import random
from dataclasses import replace
from itertools import product

import numpy as np
import pytest
from numba import njit

from guyenne_explore import Cards, Position, Rules
from guyenne_explore.cards import HERO, KINDS, value_of
from guyenne_explore.flow import battle_winner
from guyenne_explore.moves import Choice
from guyenne_explore.analysis.fast import kernel as kn
from guyenne_explore.analysis.fast.encode import points_array
from guyenne_explore.analysis.fast.rollout import fast_games, traced_rounds
from guyenne_explore.analysis.metrics import designer_metrics
from guyenne_explore.position import DRAW, ENGLISH, FRENCH, NEUTRAL, REMOVE_CHOICE
from guyenne_explore.record import play_game
from guyenne_explore.analysis.api import analyse
from guyenne_explore.scoring import (ENDINGS, EXHAUSTED, OUT_OF_CARDS, SWEEP, Ending, points_rows, sweep_told_by_score,
                                     sweeper, table_result)

DOMAIN = list(product(range(2, kn.MAX_TABLED_CASTLES + 1), ("2022", "2021"), (False, True)))


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


# ---------------------------------------------------------------------- endings
@pytest.mark.parametrize("rules", ["base", "advanced", "expert", "classic2021", "team", "team3"])
def test_the_engine_says_how_each_game_ended(rules):
    for seed in range(12):
        final = play_game(Position.start(rules), seed).final
        ending = final.result().ending
        assert ending is not None and ending.reason in ENDINGS
        swept = len(set(final.castles)) == 1 and final.castles[0] != NEUTRAL
        assert (ending.reason == SWEEP) == swept
        if swept:
            assert ending == Ending(SWEEP, (final.castles[0],))
            assert sorted((final.result().english, final.result().french)) == [0, 12]
        else:
            assert ending.sides == tuple(s for s in (ENGLISH, FRENCH) if final.sides[s].hand.size <= 1)
            spent = all(final.sides[s].exhaustions >= final.rules.exhaustion_limit for s in ending.sides)
            assert ending.reason == (EXHAUSTED if spent else OUT_OF_CARDS)
    assert Position.start(rules).result().ending is None  # a game under way has not ended


def test_a_side_without_cards_ends_the_game_before_its_last_exhaustion():
    """RULES.md 5.4's degenerate case: deck and discard both empty before the L-th exhaustion."""
    p = Position.start("advanced")
    p = p.apply_outcome(p.sample_outcome(random.Random(0)))
    english = p.sides[ENGLISH]
    two = Cards.of("2")
    stripped = replace(english, hands=(two,), deck=Cards(), discard=Cards(),
                       removed=english.hand + english.deck - two, exhaustions=0)
    q = replace(p, sides=(stripped, p.sides[FRENCH]), to_play=DRAW)
    final = q.apply_outcome(q.chance_outcomes()[0][0])
    assert final.is_over and final.result().ending == Ending(OUT_OF_CARDS, (ENGLISH,))
    spent = replace(q, sides=(replace(stripped, exhaustions=2), p.sides[FRENCH]))
    assert spent.apply_outcome(spent.chance_outcomes()[0][0]).result().ending == Ending(EXHAUSTED, (ENGLISH,))


@pytest.mark.parametrize("rules", [Rules.preset("classic2021"), Rules.preset("base", castles=7)],
                         ids=["classic2021", "castles7"])
def test_the_sweep_metric_counts_sweeps_not_scores_of_twelve(rules):
    games = fast_games(Position.start(rules), 3000, seed=11)
    sweeps = sum(g.ending == SWEEP for g in games)
    twelve = sum(12 in (g.english, g.french) for g in games)
    metric = {m.name: m for m in designer_metrics(games)}["Sweep"]
    assert metric.value == sweeps / len(games)
    assert twelve > sweeps  # the old rule (a score of 12) counted games that were no sweep
    assert all(sorted((g.english, g.french)) == [0, 12] for g in games if g.ending == SWEEP)


# ---------------------------------------------------------------------- compiled games round by round
@pytest.mark.parametrize("rules", [Rules.preset("advanced"), Rules.preset("expert"), Rules.preset("classic2021"),
                                   Rules.preset("advanced", reshuffle="immediate", adjacency="ring", castles=5),
                                   Rules.preset("advanced", castles=11)],
                         ids=["advanced", "expert", "classic2021", "immediate-ring-5", "castles11"])
def test_compiled_games_replay_round_by_round(rules):
    for index in range(12):
        record, game, states = traced_rounds(Position.start(rules), seed=7, index=index)
        positions = record.positions()
        ends = [q for q in positions if q.to_play == DRAW] + [positions[-1]]
        assert len(ends) == len(states)
        for q, st in zip(ends, states):
            assert (q.round, q.first, q.castles) == (st.round, st.first, st.castles)
            assert tuple(s.exhaustions for s in q.sides) == st.exhaustions
            for side in (0, 1):
                s = q.sides[side]
                assert (s.hand, s.deck, s.discard, s.removed) == st.zones[side]
        assert positions[-1].result().ending.reason == game.ending


# ---------------------------------------------------------------------- exact results
def test_exact_sweeps_agree_with_the_games_endings(load):
    """Where the engine says a score tells a sweep (2022 scoring, six castles), an exact result
    reports the Sweep metric; the compiled games' own endings agree with it."""
    data = load("base-endgame-3v3.json").to_json()
    data["castles"] = ["english"] * 4 + ["neutral", "french"]
    p = Position.from_json(data)
    exact = {m.name: m for m in analyse(p, method="exact").metrics()}["Sweep"]
    assert exact.low == exact.high == exact.value > 0
    games = fast_games(p, 20_000, seed=3)
    rate = sum(g.ending == SWEEP for g in games) / len(games)
    sigma = (exact.value * (1 - exact.value) / len(games)) ** 0.5
    assert abs(rate - exact.value) < 4.5 * sigma


def test_exact_results_leave_out_sweeps_their_scores_cannot_tell(load):
    """Under classic2021 a side scores 12 without a sweep: an exact result (scores only) has no Sweep."""
    assert not sweep_told_by_score(Rules.preset("classic2021"))
    assert not sweep_told_by_score(Rules.preset("base", castles=7))
    assert sweep_told_by_score(Rules.preset("advanced", adjacency="ring"))
    names = [m.name for m in analyse(load("classic2021-endgame-4v4.json"), method="exact").metrics()]
    assert "Sweep" not in names and "Advantage (english)" in names


# ---------------------------------------------------------------------- battles and removals
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
