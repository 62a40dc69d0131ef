"""The compiled heuristic is the Python heuristic, move for move, on replayed games."""

import numpy as np
import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled import heuristic_kernel as fh
from guyenne_explore.analysis.compiled import kernel as kn
from guyenne_explore.analysis.compiled.rollout import play_summaries, traced
from guyenne_explore.analysis.policies.heuristic import Heuristic, pick
from guyenne_explore.analysis.policies.sides import compiled_sides
from guyenne_explore.engine.cards import HERO, KINDS, Cards
from guyenne_explore.engine.moves import Move
from guyenne_explore.engine.rules import Rules
from tests.replaying import replay_trace



def replay(start: Position, policies, seed: int, index: int) -> int:
    """Replay a compiled game through the engine, checking every heuristic decision; returns how many."""
    rows, kinds, out = traced(start, seed, index, compiled_sides(policies))
    h = Heuristic()
    return len(replay_trace(start, rows, kinds, out, lambda side: h if policies[side] == "heuristic" else None))


@pytest.mark.parametrize("rules", ["base", "advanced", "classic2021", "expert",
                                   {"preset": "advanced", "adjacency": "ring"},
                                   {"preset": "base", "card_counts": {"1": 6, "2": 0, "3": 6, "4": 0, "5": 0, "6": 3}, "hand_size": 7},
                                   {"preset": "advanced", "hero": False, "castles": 7},
                                   {"preset": "advanced", "reshuffle": "immediate", "removal": "classic2021"},
                                   {"preset": "advanced", "castles": 12, "adjacency": "ring"},
                                   "team", "team3", {"preset": "team3", "first_side": "french", "removal": "advanced"},
                                   {"preset": "advanced", "concede_as_decision": True},
                                   {"preset": "team", "concede_as_decision": True, "removal": "classic2021"}])
@pytest.mark.parametrize("policies", [("heuristic", "heuristic"), ("uniform", "heuristic")])
def test_compiled_heuristic_is_the_python_heuristic(rules, policies):
    start = Position.start(Rules.from_json(rules))
    checked = sum(replay(start, policies, 7, index) for index in range(3))
    assert checked > 20


def test_a_batch_plays_each_game_as_alone():
    """The batch keeps the policy's memo of chances from game to game; each game is still the one
    its index gives alone (the traced game, checked move by move above)."""
    start = Position.start(Rules.from_json("advanced"))
    for policies in (("heuristic", "heuristic"), ("heuristic", "uniform")):
        batch = play_summaries(start, 12, 5, sides=compiled_sides(policies))
        for index in range(12):
            assert (traced(start, 5, index, compiled_sides(policies))[2] == batch[index]).all()


def test_compiled_heuristic_from_a_position_inside_a_round():
    from guyenne_explore.engine.record import play_game

    mid = play_game(Position.start("advanced"), 3).positions()[9]
    assert not mid.is_chance
    assert replay(mid, ("heuristic", "heuristic"), 1, 0) > 5
    # team games from each point of a round: the split, the order, each member's placement
    seen = set()
    for q in play_game(Position.start("team"), 4).positions()[:40]:
        if not q.is_chance and not q.is_over:
            seen.add(q.to_play)
            assert replay(q, ("heuristic", "heuristic"), 2, 0) > 5
    assert {"team_split", "team_order", "open_first", "respond_second"} <= seen


def test_what_the_compiled_heuristic_leaves_to_the_engine():
    from guyenne_explore.analysis.planning import sampler_for

    assert fh.unsupported(Position.start("team")) is None  # team sides too
    # a team's split is listed from the placements' card sets: a castle taking fewer than the split gives is the engine's
    assert "team splits" in fh.unsupported(Position.start(Rules.preset("team", max_at_castle=3)))
    assert fh.unsupported(Position.start("expert")) is None  # the setup discard too
    # which levels compile is PolicySpec.compiles' answer, asked first by the plan
    assert "uniform, heuristic and strong" in sampler_for(Position.start("base"), ("search", "uniform"))[1]
    assert fh.unsupported(Position.start("advanced")) is None


def test_the_setup_discards_are_listed_in_the_engines_order():
    """The compiled setup discard walks the card sets in the order of the engine's legal moves (a
    pick's index means the same move in both)."""
    for rules in ("expert", {"preset": "expert", "card_counts": {"1": 3, "2": 0, "3": 2, "5": 4, "9": 1}}):
        p = Position.start(Rules.from_json(rules))
        deck = p.sides[p.side_to_play].deck
        kinds = [k for k in range(KINDS) if deck[k]]
        src = np.array([0 if k == HERO else deck[k] for k in kinds], np.int64)
        m, listed = np.zeros(len(kinds), np.int64), []
        while fh._next_discard(m, src, p.rules.pre_discard):
            listed.append(Move(cards=Cards([dict(zip(kinds, m.tolist())).get(k, 0) for k in range(KINDS)])))
        assert listed == list(p.legal_moves)


def test_a_warm_heuristic_discards_as_the_python_one():
    """At a temperature where many discards weigh, each side's setup discard is the Python policy's pick
    from the loop's random number, with the same total weight."""
    h = Heuristic(temperature=2.0)
    start = Position.start(Rules.from_json("expert"))
    spread = set()
    for index in range(12):
        rows, kinds, _ = traced(start, 3, index, (h.compiled(), h.compiled()))
        p = start
        for point, side, _castle, index_, total, *counts in rows[:2]:
            assert point == kn.SETUP
            move = Move(cards=Cards([dict(zip(kinds, counts)).get(k, 0) for k in range(KINDS)]))
            weighted = h.weights(p.view(side))
            assert sum(w for _, w in weighted) == total
            assert pick(weighted, index_) == move
            spread.add(move)
            p = p.apply(move)
    assert len(spread) > 3  # several discards were drawn, not only the weakest


@pytest.mark.parametrize("preset", ["advanced", "classic2021"])
def test_conceding_as_a_decision_changes_no_decision_of_the_scoring_policies(preset):
    """The built-in concede (the rule every policy plays) never changes a battle, so the same seed plays the
    same games whether the rules make it a decision or not: the heuristic's worth of a removal included
    (its simulated battle once stopped at the concede choice and counted no removal).  strong plays the
    preset's weights file on both (under a variant it would play advanced's)."""
    from guyenne_explore.analysis.policies import weights as files

    columns = [kn.OUT_ENGLISH, kn.OUT_FRENCH, kn.OUT_WINNER, kn.OUT_ROUNDS, kn.OUT_DECIDED, kn.OUT_HERO_E,
               kn.OUT_HERO_F, kn.OUT_ENDING]
    strong = f"strong@{files.preset_file(Rules.preset(preset))}"
    for policies in (("heuristic", "heuristic"), (strong, "heuristic")):
        rows = []
        for decides in (False, True):
            rules = Rules.preset(preset, concede_as_decision=decides)
            rows.append(play_summaries(Position.start(rules), 150, 2, sides=compiled_sides(policies, rules))[:, columns])
        assert (rows[0] == rows[1]).all()
