"""The fast simulator answers what the engine answers.

- Compiled games: every game is replayed move by move through the engine,
  which checks each move and draw; the final table, scores, rounds and the
  designer-metric fields must be the engine's.  Their outcome frequencies
  agree with the engine's exact distributions and with engine sampling.
- Endgame solver: its exact distributions equal the plain enumeration's on
  random endgames of every 2-player rule set.
"""

import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis.exact.distribution import exact_distribution
from guyenne_explore.analysis.compiled import encode as encode_module
from guyenne_explore.analysis.compiled.encode import unsupported
from guyenne_explore.analysis.compiled.options import no_tables
from guyenne_explore.analysis.exact.endgame import applies
from guyenne_explore.analysis.compiled.rollout import fast_games, traced_game
from guyenne_explore.analysis.policies import Uniform
from guyenne_explore.analysis.planning import Sampler
from guyenne_explore.analysis.sampling.sample import play_games
from guyenne_explore.engine.flow import apply_move
from guyenne_explore.engine import CONCEDE_CHOICE, concede_move
from guyenne_explore.engine.position import DRAW, OPEN_FIRST
from guyenne_explore.engine.record import uniform_choice

#: every 2-player preset, and variants touching each parameter the compiled games read
RULES = [
    Rules.preset("base"), Rules.preset("advanced"), Rules.preset("expert"), Rules.preset("classic2021"),
    Rules.preset("advanced", reshuffle="immediate", adjacency="ring"),
    Rules.preset("advanced", hand_size=7, max_at_castle=3, castles=5),
    Rules.preset("expert", hero=False, scoring="2021", first_side="french"),
    Rules.preset("base", exhaustion_limit=1, valued=Rules.preset("base").valued.add_kind(6, 2)),
    Rules.preset("advanced", concede_as_decision=True), Rules.preset("classic2021", concede_as_decision=True),
]
IDS = ["base", "advanced", "expert", "classic2021", "immediate-ring", "hand7-max3-castles5",
       "expert-nohero-2021-french", "L1-with-sevens", "advanced-concede", "classic2021-concede"]
#: the team presets, and team variants touching the team rules' neighbours (removals, reshuffles, the limit)
TEAM_RULES = [Rules.preset("team"), Rules.preset("team3"),
              Rules.preset("team", removal="advanced", castles=7, first_side="french"),
              Rules.preset("team3", reshuffle="immediate", exhaustion_limit=1, removal="classic2021",
                           concede_as_decision=True)]
TEAM_IDS = ["team", "team3", "team-advanced-removals", "team3-immediate-L1-concede"]


def _replay_summary(record):
    """What the engine says of a record: the game summary the samplers report.  A defender's concede
    choice must be the built-in rule's, which every policy plays."""
    positions = record.positions()  # raises if any move or draw is illegal
    for q, event in zip(positions, record.events):
        if q.to_play == CONCEDE_CHOICE:
            assert event.move == concede_move(q.view(event.side))
    final = positions[-1]
    assert final.is_over
    r = final.result()
    start = record.start
    rounds = final.round - start.round + 1
    leaders = [q.result().winner for q in positions if q.to_play == DRAW]
    leaders += [r.winner] * (rounds - len(leaders))
    decided = rounds
    while decided > 1 and leaders[decided - 2] == r.winner:
        decided -= 1
    kept = tuple(not s.removed.has_hero for s in final.sides)
    return (r.english, r.french, r.winner, rounds, decided, kept, r.ending.reason)


def _midgame(rules, seed, steps):
    """A position reached by ``steps`` uniform decisions and draws from the start."""
    rng = random.Random(seed)
    p = Position.start(rules)
    for _ in range(steps):
        if p.is_over:
            break
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_move(p, uniform_choice(p, rng), False)
    return p


@pytest.mark.parametrize("rules", RULES + TEAM_RULES, ids=IDS + TEAM_IDS)
def test_compiled_games_replay_in_the_engine(rules):
    for start in [Position.start(rules)] + [_midgame(rules, s, 7 + 5 * s) for s in range(6)]:
        if start.is_over:
            continue
        for i in range(25):
            record, game = traced_game(start, seed=3, index=i)
            assert tuple(game) == _replay_summary(record)


@pytest.mark.parametrize("rules", [Rules.preset("advanced", concede_as_decision=True),
                                   Rules.preset("team", concede_as_decision=True)], ids=["advanced", "team"])
def test_compiled_games_replay_from_a_defenders_concede_choice(rules):
    """A position waiting for the defender's concede choice (at either battle, a held or a fallen defence,
    before a removal choice or the round's end) is played on by the loop, and its games replay in the engine."""
    rng, found = random.Random(5), []
    while len(found) < 8:
        p = Position.start(rules)
        while not p.is_over and len(found) < 8:
            if p.to_play == CONCEDE_CHOICE:
                found.append(p)
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_move(p, uniform_choice(p, rng), False)
    assert {q.battle for q in found} == {0, 1}
    for start in found:
        assert unsupported(start) is None
        for i in range(10):
            record, game = traced_game(start, seed=6, index=i)
            assert record.events[0].to_play == CONCEDE_CHOICE
            assert tuple(game) == _replay_summary(record)


@pytest.mark.parametrize("rules", RULES[1:4] + RULES[5:6] + [Rules.preset("advanced", castles=11, adjacency="ring")]
                         + TEAM_RULES[:2], ids=IDS[1:4] + IDS[5:6] + ["castles11-ring"] + TEAM_IDS[:2])
def test_compiled_games_replay_without_lookup_tables(rules, monkeypatch):
    """Card sets too large for the option tables: the kernel samples the choices by rejection (and
    past ten castles it walks the runs instead of looking the points up)."""
    monkeypatch.setattr(encode_module, "option_tables", lambda kinds, *rest: no_tables(len(kinds)))
    for start in [Position.start(rules), _midgame(rules, 2, 17)]:
        assert encode_module.encode(start).options.offsets.size == 0
        for i in range(25):
            record, game = traced_game(start, seed=4, index=i)
            assert tuple(game) == _replay_summary(record)


def test_option_tables_hold_the_engine_moves():
    """Every hand of the opening deals gets the engine's legal placements, in one table row each."""
    p = Position.start("advanced")
    tables = encode_module.encode(p).options
    assert tables.offsets.size > 0
    rng = random.Random(0)
    for _ in range(200):
        q = p.apply_outcome(p.sample_outcome(rng))
        hand = q.sides[0].hand
        code = sum(hand[k] * w for k, w in zip(encode_module.encode(q).kinds, tables.weights))
        rows = tables.cards[tables.offsets[0, code]:tables.offsets[0, code + 1]]
        assert len(rows) == q.legal_moves.count() // 6  # open_first: each multiset at each of 6 castles


def test_traced_game_is_the_batch_game():
    p = Position.start("advanced")
    batch = fast_games(p, 40, seed=5)
    assert [traced_game(p, 5, i)[1] for i in range(40)] == batch


def test_games_do_not_depend_on_the_split():
    p = Position.start("expert")
    whole = fast_games(p, 3000, seed=8)
    assert fast_games(p, 1200, seed=8) + fast_games(p, 1800, seed=8, start_index=1200) == whole
    assert fast_games(p, 3000, seed=9) != whole


@pytest.mark.parametrize("name", ["base-endgame-3v3", "classic2021-endgame-4v4", "advanced-endgame-4v4",
                                  "advanced-remove-choice"])
def test_compiled_frequencies_match_exact(name, load):
    p = load(name + ".json")
    exact, _ = exact_distribution(p, (Uniform(), Uniform()))
    probs: dict = Counter()
    for (e, f, w, _, _), q in exact.items():
        probs[(e, f, w)] += q
    n = 20_000
    seen = Counter(g[:3] for g in fast_games(p, n, seed=12))
    assert set(seen) <= set(probs)
    keys = sorted(probs)
    expected = [float(probs[k]) * n for k in keys]
    # pool rare outcomes so that every cell expects at least 5 games
    obs, exp, acc_o, acc_e = [], [], 0, 0.0
    for k, e in zip(keys, expected):
        acc_o += seen[k]
        acc_e += e
        if acc_e >= 5:
            obs.append(acc_o)
            exp.append(acc_e)
            acc_o, acc_e = 0, 0.0
    if acc_e:
        obs[-1] += acc_o
        exp[-1] += acc_e
    if len(obs) > 1:
        assert stats.chisquare(obs, exp).pvalue > 1e-4


@pytest.mark.parametrize("rules", RULES[:4] + TEAM_RULES[:2], ids=IDS[:4] + TEAM_IDS[:2])
def test_compiled_games_agree_with_engine_sampling(rules):
    """From the opening: winners and game lengths of both paths come from one distribution."""
    p = Position.start(rules)
    fast = play_games(p, ("uniform", "uniform"), 20_000, seed=1)
    slow = play_games(p, ("uniform", "uniform"), 300, seed=1, sampler=Sampler.ENGINE)
    for field in (2, 3):  # winner, rounds
        cats = sorted({g[field] for g in fast} | {g[field] for g in slow})
        table = [[sum(g[field] == c for g in fast) for c in cats], [sum(g[field] == c for g in slow) for c in cats]]
        keep = [i for i in range(len(cats)) if table[0][i] + table[1][i] >= 20]
        table = [[row[i] for i in keep] for row in table]
        assert stats.chi2_contingency(table).pvalue > 1e-4


def test_the_analysis_uses_the_fast_path_only_where_it_applies():
    assert unsupported(Position.start("advanced")) is None
    assert unsupported(Position.start("team")) is None
    assert unsupported(Position.start(Rules.preset("base", concede_as_decision=True))) is None
    # the endgame solver plays no team side: a team endgame is not the compiled path's to solve
    assert not applies(_team_endgame(), ("uniform", "uniform"))


def _team_endgame():
    """A team game's round start where no side can reshuffle again."""
    rng = random.Random(2)
    while True:
        p = Position.start("team")
        while not p.is_over:
            if p.to_play == OPEN_FIRST and all(s.exhaustions >= p.rules.exhaustion_limit for s in p.sides):
                return p
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_move(p, uniform_choice(p, rng), False)


def _endgames(rules, count, seed):
    """Random round starts of ``rules`` where no side can reshuffle, with small hands."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        p = Position.start(rules)
        while not p.is_over:
            if p.to_play == OPEN_FIRST and applies(p, ("uniform", "uniform")) and \
                    sum(s.hand.size + s.deck.size for s in p.sides) <= 9:
                found.append(p)
                break
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_move(p, uniform_choice(p, rng), False)
    return found


@pytest.mark.parametrize("rules", RULES[:9], ids=IDS[:9])  # (one rule set of concede decisions: the solver reads them too)
def test_endgame_solver_equals_plain_enumeration(rules):
    for p in _endgames(rules, 3, seed=4):
        fast, _ = exact_distribution(p, (Uniform(), Uniform()))
        plain, _ = exact_distribution(p, (Uniform(), Uniform()), fast=False)
        assert fast == plain
        assert sum(fast.values()) == Fraction(1)


@pytest.mark.parametrize("rules", RULES[:8], ids=IDS[:8])
def test_float_forward_pass_equals_the_fractions(rules):
    """The float64 forward pass gives every outcome and round count of the exact fractions, to rounding."""
    for p in _endgames(rules, 3, seed=5):
        exact, _ = exact_distribution(p, (Uniform(), Uniform()))
        floats, _ = exact_distribution(p, (Uniform(), Uniform()), floats=True)
        assert set(floats) == set(exact)
        assert all(abs(floats[k] - float(q)) < 1e-12 for k, q in exact.items())
        assert abs(sum(floats.values()) - 1) < 1e-12


@pytest.mark.slow
def test_float_forward_pass_on_hands_of_six_with_decks():
    """Larger endgames than the fractions test: both hands of six, a card left in each deck."""
    from guyenne_explore.analysis.exact.endgame import Endgame
    from guyenne_explore.analysis.exact.forward import ForwardEndgame

    p = Position.from_json({
        "rules": "advanced", "castles": ["neutral", "english", "french", "neutral", "english", "french"],
        "round": 9, "first": "french", "to_play": "open_first",
        "sides": {s: {"hand": ["H", "5", "4", "3", "2", "2"], "deck": ["2"],
                      "discard": ["5", "4", "4", "3", "3", "3"] + ["2"] * 9, "removed": [], "exhaustions": 1}
                  for s in ("english", "french")}})
    exact = Endgame(p.rules).value(p)
    floats = ForwardEndgame(p.rules).value(p)
    assert set(floats) == set(exact)
    assert max(abs(floats[k] - float(q)) for k, q in exact.items()) < 1e-12


def _after_last_reshuffle(deck: int) -> Position:
    """A base round start after both sides' last reshuffle, hands of 6 and ``deck`` cards in each deck."""
    cards = ["H", "5", "5", "4", "4", "4", "3", "3", "3", "3"] + ["2"] * 12
    side = {"hand": cards[:6], "deck": cards[6:6 + deck], "discard": cards[6 + deck:], "removed": [],
            "exhaustions": 1 if deck else 2}
    return Position.from_json({"rules": "base", "castles": ["neutral", "english", "french"] * 2, "round": 9,
                               "first": "english", "to_play": "open_first", "sides": {"english": side, "french": side}})


def test_auto_enumerates_endgames_with_two_cards_a_deck_and_samples_beyond():
    from guyenne_explore.analysis.api import analyse

    small = analyse(_after_last_reshuffle(2), games=200, seed=1)
    assert small.exact and small.arithmetic == "float"
    assert abs(sum(small.win.values()) - 1) < 1e-12
    assert not analyse(_after_last_reshuffle(3), games=200, seed=1).exact
