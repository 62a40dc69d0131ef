"""Properties over many seeded random games of every preset: conservation, termination, legality, chance."""

import random
from fractions import Fraction

import pytest

from guyenne_explore.engine import Position, Rules
from guyenne_explore.engine.record import GameRecord, play_game, uniform_choice

PRESETS = ["base", "advanced", "expert", "classic2021", "team", "team3"]
VARIANTS = [
    Rules.preset("advanced", reshuffle="immediate"),
    Rules.preset("base", concede_as_decision=True),
    Rules.preset("team3", members={"english": 1, "french": 2}, removal="advanced"),
    Rules.preset("expert", hand_size=7, max_at_castle=4, adjacency="ring"),
    Rules.preset("base", card_counts={"1": 4, "2": 10, "3": 0, "4": 0, "5": 0, "6": 2}, hero=False),
]
GAMES = 400
#: games whose every chance point is also enumerated (probabilities sum to 1, the sample is among them)
CHANCE_CHECKED = 100


def _check_game(rules, seed, check_chance=True):
    rng = random.Random(seed)
    p = Position.start(rules)
    full = p.rules.card_set
    steps = 0
    while not p.is_over:
        for side in (0, 1):
            assert p.cards_of(side) == full, f"seed {seed}: {p.notation()}"
        if p.is_chance:
            d = p.sample_outcome(rng)
            if check_chance:
                outcomes = p.chance_outcomes()
                assert sum(pr for _, pr in outcomes) == 1
                assert all(pr > 0 for _, pr in outcomes)
                assert d in {o for o, _ in outcomes}
            p = p.apply_outcome(d)
        else:
            moves = p.legal_moves
            m = uniform_choice(p, rng)
            assert m in moves and p.why_illegal(m) is None
            p = p.apply(m)
            steps += 1
        assert steps < 2000
    r = p.result()
    assert r.winner in ("english", "french", "draw")
    return p


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_keep_the_rules(preset):
    for seed in range(GAMES):
        _check_game(Rules.preset(preset), seed, check_chance=seed < CHANCE_CHECKED)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_random_games_of_variants(rules):
    for seed in range(40):
        _check_game(rules, seed)


@pytest.mark.parametrize("preset", PRESETS)
def test_records_replay_and_round_trip(preset):
    for seed in range(10):
        record = play_game(Position.start(preset), seed)
        data = record.to_json()
        again = GameRecord.from_json(data)
        assert again.final == record.final
        assert play_game(Position.start(preset), seed).to_json() == data  # seeded: identical


@pytest.mark.parametrize("preset", PRESETS)
def test_every_position_round_trips(preset):
    for seed in range(5):
        for p in play_game(Position.start(preset), seed).positions():
            assert Position.from_json(p.to_json()) == p
            assert Position.from_notation(p.notation()) == p


def test_deal_probabilities_sum_to_one():
    outs = Position.start("base").chance_outcomes()
    assert sum(pr for _, pr in outs) == Fraction(1)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_thousands_of_random_games(preset):
    for seed in range(GAMES, 5 * GAMES):
        _check_game(Rules.preset(preset), seed, check_chance=False)
