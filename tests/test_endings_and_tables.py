"""How games end, and the compiled path's scoring against the engine's over its whole domain.

- The engine reports how a game ended (RULES.md 5.1 a sweep, 5.4 a side that cannot play on);
  the Sweep metric counts those endings, not scores of 12 (which a side reaches without a sweep
  under classic2021, and with seven castles or more).  Every exact solver carries the engine's
  ending in its outcomes: each equals the engine's own enumeration of every game, ending included,
  where a score of 12 is no proof, and sampled games end as the exact result says.
- The compiled games' states at each end of a round equal the engine's replay of the same game,
  round by round.  The kernel's own copies of the rules (castle points, scores, the sweep check,
  battles, removal checks) are pinned over their whole domain in ``tests/test_rule_copies.py``.
"""

import random
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest
from scipy import stats

from guyenne_explore.engine import Cards, Position, Rules
from guyenne_explore.analysis.compiled.rollout import fast_games, traced_rounds
from guyenne_explore.analysis.metrics import designer_metrics
from guyenne_explore.engine.position import DRAW, ENGLISH, FRENCH
from guyenne_explore.engine.record import play_game
from guyenne_explore.analysis.api import analyse
from guyenne_explore.analysis.exact.distribution import exact_distribution
from guyenne_explore.analysis.exact.reference import Reference
from guyenne_explore.analysis.exact.endgame import Endgame, applies
from guyenne_explore.analysis.exact.forward import ForwardEndgame
from guyenne_explore.analysis.exact.forward_exact import ExactForwardEndgame
from guyenne_explore.analysis.policies import Uniform
from guyenne_explore.engine.policy import UNIFORM
from guyenne_explore.engine.scoring import ENDINGS, EXHAUSTED, OUT_OF_CARDS, SWEEP, Ending, sweeper


# ---------------------------------------------------------------------- endings
@pytest.mark.parametrize("rules", ["base", "advanced", "expert", "classic2021", "team", "team3"])
def test_the_engine_says_how_each_game_ended(rules):
    for seed in range(12):
        final = play_game(Position.start(rules), seed).final
        ending = final.result().ending
        assert ending is not None and ending.reason in ENDINGS
        swept = sweeper(final.castles) is not None
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
    """An exact result's Sweep metric (2022 scoring, six castles); the compiled games' own endings
    agree with it."""
    data = load("base-endgame-3v3.json").to_json()
    data["castles"] = ["english"] * 4 + ["neutral", "french"]
    p = Position.from_json(data)
    exact = {m.name: m for m in analyse(p, method="exact").metrics()}["Sweep"]
    assert exact.low == exact.high == exact.value > 0
    games = fast_games(p, 20_000, seed=3)
    rate = sum(g.ending == SWEEP for g in games) / len(games)
    sigma = (exact.value * (1 - exact.value) / len(games)) ** 0.5
    assert abs(rate - exact.value) < 4.5 * sigma


def _endgame(rules: Rules, castles: str, english: str, french: str) -> Position:
    """A round start after both sides' last exhaustion: ``castles`` as letters (E, F, N), the hands as
    card symbols, both decks spent, every other card of a side in its discard."""
    names = {"E": "english", "F": "french", "N": "neutral"}
    start = Position.start(rules).to_json()
    sides = {}
    for name, hand in (("english", english), ("french", french)):
        rest = [c for zone in ("hand", "deck", "discard", "removed") for c in start["sides"][name][zone]]
        for c in hand:
            rest.remove(c)
        sides[name] = {"hand": list(hand), "deck": [], "discard": rest, "removed": [],
                       "exhaustions": rules.exhaustion_limit}
    return Position.from_json({"rules": start["rules"], "castles": [names[c] for c in castles], "round": 10,
                               "first": "english", "to_play": "open_first", "sides": sides})


def _engine_outcomes(p: Position, memo: dict) -> dict:
    """``(english, french, winner, ending) -> probability`` from ``p`` under uniform play, by the engine
    alone: every move it allows (checked) and every draw it deals, each game's end as its ``Result`` says."""
    hit = memo.get(p)
    if hit is None:
        if p.is_over:
            r = p.result()
            hit = {(r.english, r.french, r.winner, r.ending.reason): Fraction(1)}
        else:
            hit = defaultdict(Fraction)
            steps = p.chance_outcomes() if p.is_chance else UNIFORM.distribution(p.view(p.side_to_play))
            for step, q in steps:
                child = p.apply_outcome(step) if p.is_chance else p.apply(step)
                for k, v in _engine_outcomes(child, memo).items():
                    hit[k] += q * v
        memo[p] = hit
    return hit


def _without_rounds(dist: dict) -> dict:
    out: dict = defaultdict(Fraction)
    for (e, f, w, end, _), q in dist.items():
        out[(e, f, w, end)] += q
    return dict(out)


# a side scores 12 without a sweep: classic2021, a run of five with its bonus and two unspent cards;
# seven castles, a run of six (12 to 0 with a neutral castle left, the score of a sweep)
SCORE_IS_NO_PROOF = [(Rules.preset("classic2021"), "EEEENF"), (Rules.preset("base", castles=7), "EEEEENN")]


@pytest.mark.parametrize("rules,castles", SCORE_IS_NO_PROOF, ids=["classic2021", "castles7"])
def test_every_exact_solver_reports_the_engines_endings(rules, castles):
    """The five exact solvers give the engine's enumeration outcome for outcome, ending included,
    and an exact result's Sweep metric is the engine's probability of a sweep, in fractions and floats."""
    p = _endgame(rules, castles, "5322", "H42")
    assert applies(p, ("uniform", "uniform"))
    engine = _engine_outcomes(p, {})
    sweep = sum(q for k, q in engine.items() if k[3] == SWEEP)
    assert sweep > 0 and sum(engine.values()) == 1
    assert any(k[3] != SWEEP and 12 in k[:2] for k in engine)  # a score of 12 that is no sweep
    if rules.castles == 7:
        assert {(12, 0, "english", SWEEP), (12, 0, "english", EXHAUSTED)} <= set(engine)
    assert _without_rounds(Endgame(p.rules).value(p)) == engine
    assert _without_rounds(ExactForwardEndgame(p.rules).value(p)) == engine
    assert _without_rounds(Reference().distribution(p)) == engine
    assert _without_rounds(exact_distribution(p, (Uniform(), Uniform()), fast=False)[0]) == engine
    floats = _without_rounds(ForwardEndgame(p.rules).value(p))
    assert set(floats) == set(engine) and all(abs(floats[k] - float(q)) < 1e-12 for k, q in engine.items())
    for arithmetic in ("fraction", "float"):
        result = analyse(p, method="exact", arithmetic=arithmetic)
        metric = {m.name: m for m in result.metrics()}["Sweep"]
        assert metric.low == metric.high == metric.value == pytest.approx(float(sweep), abs=1e-12)
    assert sum(q for k, q in result.joint.items() if k[3] == SWEEP) == pytest.approx(float(sweep), abs=1e-12)
    exported = analyse(p, method="exact").to_json()  # what a designer downloads: endings and metrics
    assert exported["endings"][SWEEP] == float(sweep) and sum(exported["endings"].values()) == pytest.approx(1)
    assert {m["name"]: m["value"] for m in exported["metrics"]}["Sweep"] == pytest.approx(float(sweep), abs=1e-12)


@pytest.mark.parametrize("rules,castles", SCORE_IS_NO_PROOF, ids=["classic2021", "castles7"])
def test_sampled_games_end_as_the_exact_result_says(rules, castles):
    """20,000 compiled games against the exact result: the joint of scores, winner, ending and rounds
    (chi-square, rare outcomes pooled), and the Sweep metric within its interval's reach."""
    p = _endgame(rules, castles, "5322", "H42")
    exact = analyse(p, method="exact")
    n = 20_000
    sampled = analyse(p, method="sample", games=n, seed=3)
    seen = Counter((g.english, g.french, g.winner, g.ending, g.rounds) for g in sampled.samples)
    assert set(seen) <= set(exact.joint)
    obs, exp, acc_o, acc_e = [], [], 0, 0.0
    for k in sorted(exact.joint, key=lambda k: exact.joint[k]):  # pool the rarest until each cell expects 5 games
        acc_o += seen[k]
        acc_e += float(exact.joint[k]) * n
        if acc_e >= 5:
            obs.append(acc_o)
            exp.append(acc_e)
            acc_o, acc_e = 0, 0.0
    obs[-1] += acc_o
    exp[-1] += acc_e
    assert len(obs) > 2 and stats.chisquare(obs, exp).pvalue > 1e-4
    want = {m.name: m for m in exact.metrics()}["Sweep"].value
    got = {m.name: m for m in sampled.metrics()}["Sweep"].value
    assert abs(got - want) < 4.5 * (want * (1 - want) / n) ** 0.5
