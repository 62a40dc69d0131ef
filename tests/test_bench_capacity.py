"""``benchmarks/bench_capacity.py``: its models are fitted on the improvement's own self-play decisions, each a
residual on the start model's score that starts where that model plays and learns what its inputs tell; its raw
view is what the side sees; its read table says how often placements like one held their castle, its value table
how often a side went on to win from a table of castles."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_capacity as bc  # noqa: E402

from guyenne_explore.analysis.policies.improvement import self_play  # noqa: E402
from guyenne_explore.analysis.policies.train import default_start  # noqa: E402
from guyenne_explore.engine.rules import Rules  # noqa: E402


def test_its_decisions_are_the_improvements_with_their_candidate_features():
    rules = Rules.preset("advanced")
    w = default_start(rules)
    theirs = self_play(rules.to_json(), w, 3, 0, 1)
    ours = bc.described_play(rules.to_json(), w, 3, 1)
    assert len(ours) == len(theirs) > 0
    for (d, more, keys, places, raw), e in zip(ours, theirs):
        assert np.array_equal(d.features, e.features) and np.array_equal(d.values, e.values)
        assert more.shape == (len(d.values), len(bc.NEW_FEATURES)) and len(keys) == len(places) == len(d.values)
        assert raw.shape == (len(d.values), len(bc.VIEW_INPUTS))
        for won, lost, side in places:  # the table with the placement's castle won, and with it lost
            changed = [c for c in range(len(won)) if won[c] != lost[c]]
            assert len(changed) == 1 and won[changed[0]] == side and lost[changed[0]] == 1 - side


def test_the_read_table_is_each_kind_of_placements_share_of_castles_held():
    rows = bc.battles(Rules.preset("advanced").to_json(), 0)
    assert rows and all(held in (0.0, 0.5, 1.0) for _, held in rows)
    chance = bc.read_table(rows + [(("open_first", 0, 1, 2, 0), 0.0)] * 200)
    assert chance(("open_first", 0, 1, 2, 0)) < 0.05  # a lone 2 that never held, 200 times
    assert 0.0 < chance(("respond_first", 9, 9, 9, 0)) < 1.0  # never seen: the prior, not a certainty


def test_the_value_table_is_how_often_a_side_went_on_to_win_from_a_table():
    rows = bc.tables(Rules.preset("advanced").to_json(), 0)
    assert rows and all(len(t) == 6 and won in (0.0, 0.5, 1.0) for t, won in rows)
    from guyenne_explore.engine import ENGLISH as english, FRENCH as french, NEUTRAL as neutral

    lead = (english, english, neutral, neutral, neutral, french)
    value = bc.value_table(rows + [(lead, 1.0)] * 200)
    assert value(lead, english) > 0.9 and value(lead, french) < 0.1
    assert value(lead[::-1], english) == value(lead, english)  # a line read backwards scores the same
    swapped = (french, french, neutral, neutral, neutral, english)
    assert abs(value(swapped, french) - value(lead, english)) < 1e-12  # the sides swapped (1 - v, in floats)
    assert 0.0 < value((english, french) * 3, english) < 1.0  # never seen: the prior, not a certainty


def test_the_raw_view_of_a_placement_is_what_its_side_sees():
    import random

    from guyenne_explore.engine import Cards, Position, side_view

    p, rng = Position.start(Rules.preset("classic2021")), random.Random(1)
    while p.is_chance:  # the deal: then the first side opens
        p = p.apply_outcome(p.sample_outcome(rng))
    assert p.to_play == "open_first"
    view = side_view(p, p.first)
    for move in list(view.legal_moves)[:12]:
        row = dict(zip(bc.VIEW_INPUTS, bc.view_inputs(view, move)))
        for kind, symbol in enumerate(("1", "2", "3", "4", "5", "6", "7", "8", "9", "H")):
            assert row[f"hand {symbol}"] == view.hand[kind] and row[f"set {symbol}"] == move.cards[kind]
            assert row[f"left {symbol}"] == view.hand[kind] - move.cards[kind]
            assert row[f"hidden {symbol}"] == view.opponent_hidden[kind]
        assert [row[f"castle {c + 1}"] for c in range(6)].count(1.0) == 1 and row[f"castle {move.castle + 1}"] == 1.0
        assert row["open_first"] == 1.0 and row["respond_first"] == 0.0 and row["round"] == view.round
        assert row["size"] == move.cards.size and isinstance(move.cards, Cards)


def _decisions(rng: np.random.Generator, count: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Decisions of 5 moves and 3 inputs, the start's scores sure of move 0, the best move the one whose first
    input is largest (what a residual over the inputs can learn and the start does not play)."""
    out = []
    for _ in range(count):
        x = rng.normal(size=(5, 3))
        base = np.array([30.0, 0.0, 0.0, 0.0, 0.0])
        values = (x[:, 0] == x[:, 0].max()).astype(float)
        out.append((x, base, values))
    return out


def test_a_residual_starts_where_the_start_plays_and_learns_what_its_inputs_tell():
    rng = np.random.default_rng(5)
    fitting, testing = bc.stack(_decisions(rng, 400)), bc.stack(_decisions(rng, 200))
    for units in (0, 4):
        model = bc.Residual(3, units, fitting[0].mean(0), fitting[0].std(0))
        assert np.array_equal(model.logits(testing), testing[1])  # all 0 at first: the start's own play
        model.fit(fitting, bc.step_policy(fitting, 0.0, 0.05))
        assert bc.agreement(testing, testing[1]) < 0.4  # the start plays move 0, the best one time in five
        assert bc.agreement(testing, model.logits(testing)) > 0.9
        assert bc.expected(testing, model.logits(testing)).mean() > 0.9


def test_the_value_target_cannot_move_a_start_sure_of_its_move():
    """Why the benchmark has a step target: the expected value's gradient from a nearly sure start vanishes."""
    rng = np.random.default_rng(6)
    fitting = bc.stack(_decisions(rng, 400))
    model = bc.Residual(3, 0, fitting[0].mean(0), fitting[0].std(0))
    model.fit(fitting, None)
    assert bc.agreement(fitting, model.logits(fitting)) < 0.4
