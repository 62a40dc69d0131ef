"""``benchmarks/bench_capacity.py``: its models are fitted on the improvement's own self-play decisions, and
its read table says how often placements like one held their castle, its value table how often a side went on to
win from a table of castles."""

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
    for (d, more, keys, places), e in zip(ours, theirs):
        assert np.array_equal(d.features, e.features) and np.array_equal(d.values, e.values)
        assert more.shape == (len(d.values), len(bc.NEW_FEATURES)) and len(keys) == len(places) == len(d.values)
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
