"""The learned policy: the compiled and Python versions are one policy, move for move, from the view only."""

import random

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled.rollout import traced
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.strong import Strong, checked_weights, load_weights
from guyenne_explore.engine.determinisation import determinise
from guyenne_explore.engine.record import play_game
from guyenne_explore.engine.rules import Rules
from tests.replaying import replay_trace

#: weights that use every feature (the shipped ones may leave some at zero)
EVERY = (1.1, 0.05, 0.4, -0.2, -0.35, -0.03, 0.2, -0.1, 0.15, 0.1, 0.07, 0.3, 0.12, -0.08, 0.06, -0.25, 0.09, 0.11,
         -0.06, 0.13, 0.05)


def policy(name: str):
    return Strong(EVERY) if name == "strong" else Heuristic() if name == "heuristic" else None


def sides(names):
    from guyenne_explore.analysis.compiled.policy_codes import UNIFORM_SIDE
    return tuple(UNIFORM_SIDE if n == "uniform" else policy(n).compiled() for n in names)


def replay(start: Position, names, seed: int, index: int) -> int:
    """Replay a compiled game through the engine, checking every decision of a scoring policy; returns
    how many decisions of the learned policy were checked."""
    rows, kinds, out = traced(start, seed, index, sides(names))
    twins = [policy(name) for name in names]
    return sum(names[side] == "strong" for side in replay_trace(start, rows, kinds, out, lambda side: twins[side]))


@pytest.mark.parametrize("rules", ["base", "advanced", "classic2021", "expert",
                                   {"preset": "advanced", "adjacency": "ring"},
                                   {"preset": "advanced", "hero": False, "castles": 7},
                                   {"preset": "advanced", "reshuffle": "immediate", "removal": "classic2021"},
                                   "team", "team3", {"preset": "classic2021", "concede_as_decision": True},
                                   {"preset": "team3", "concede_as_decision": True}])
@pytest.mark.parametrize("names", [("strong", "strong"), ("heuristic", "strong"), ("strong", "uniform")])
def test_compiled_strong_is_the_python_strong(rules, names):
    start = Position.start(Rules.from_json(rules))
    assert sum(replay(start, names, 11, index) for index in range(2)) > 10


def test_the_shipped_model_is_the_python_and_compiled_policy():
    start = Position.start(Rules.from_json("advanced"))
    global EVERY
    saved, EVERY = EVERY, load_weights()
    try:
        assert replay(start, ("strong", "heuristic"), 3, 0) > 5
    finally:
        EVERY = saved


@pytest.mark.parametrize("rules", ["advanced", "team"])
def test_the_decision_is_the_same_whatever_the_hidden_cards(rules):
    """Positions dealt differently behind one view (a team member's: its partner's hand and face-down
    cards dealt again too): the compiled policy draws the same move with the same weights from the
    same random stream (its trace's first decision row is the same)."""
    start = Position.start(Rules.from_json(rules))
    checked = 0
    for game in range(4):
        for q in play_game(start, game).positions():
            if q.is_chance or q.is_over or q.to_play not in ("open_first", "respond_first", "open_second", "respond_second"):
                continue
            view = q.view(q.side_to_play)
            rows = set()
            for r in range(3):
                deal = determinise(view, random.Random(r))
                assert deal.view(q.side_to_play) == view
                names = ("strong", "uniform") if q.side_to_play == 0 else ("uniform", "strong")
                rows.add(tuple(traced(deal, 5, 0, sides(names))[0][0]))
            assert len(rows) == 1, (game, q.to_play)
            checked += 1
    assert checked > 10


def test_bad_weights_are_refused_with_the_field():
    n = len(EVERY)
    with pytest.raises(ValueError, match=f"{n} numbers"):
        checked_weights(None, [1.0, 2.0])
    with pytest.raises(ValueError, match="weight of stake must be a finite number"):
        checked_weights(None, [1.0, float("nan")] + [0.0] * (n - 2))
    with pytest.raises(ValueError, match="retrain"):
        checked_weights(["gain"], [1.0] * n)


def test_fast_games_play_the_scoring_policies_under_expert_from_the_start():
    """Heuristic and learned policy games from the expert setup discard are played by the compiled
    loop (no longer left to the engine), each the game its index gives alone."""
    from guyenne_explore.analysis.compiled.rollout import fast_games, traced_game
    from guyenne_explore.analysis.policies.sides import compiled_sides

    start = Position.start(Rules.from_json("expert"))
    for names in (("heuristic", "strong"), ("strong", "strong")):
        games = fast_games(start, 6, 4, sides=compiled_sides(names, start.rules))
        assert len(games) == 6
        for index, game in enumerate(games):
            record, alone = traced_game(start, 4, index, compiled_sides(names, start.rules))
            assert alone == game
            assert record.events[0].to_play == "setup_discard"
