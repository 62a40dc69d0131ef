"""Guyenne as an OpenSpiel game (``benchmarks/openspiel_guyenne.py``): the wrapper asks the engine for
everything, its actions are one integer per move, and IS-MCTS never sees hidden cards."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import numpy as np  # noqa: E402
import openspiel_guyenne as og  # noqa: E402
from timed import Timed  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from guyenne_explore.engine import Draw, Position, play  # noqa: E402
from guyenne_explore.analysis import PolicySpec  # noqa: E402

from tests.conftest import uniform_step  # noqa: E402


def random_play(state, rs: np.random.RandomState, visit=None):
    """Play ``state`` to its end through OpenSpiel's API, chance by its probabilities, moves uniformly."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            if visit is not None:
                visit(state)
            state.apply_action(int(rs.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("rules", ["advanced", "team"])
def test_registered_game_plays_to_the_engines_result(rules):
    game = pyspiel.load_game(og.SHORT_NAME, {"rules": rules})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rs = np.random.RandomState(7)
    for _ in range(3):
        state = game.new_initial_state()
        assert state.is_chance_node()  # the deal
        events = 0

        def count(_state):
            nonlocal events
            events += 1
        end = random_play(state, rs, count)
        assert events <= game.max_game_length()
        winner = end.position.result().winner
        expected = {"english": [1.0, -1.0], "french": [-1.0, 1.0], "draw": [0.0, 0.0]}[winner]
        assert end.returns() == expected
        assert sum(end.returns()) == 0


@pytest.mark.parametrize("rules", ["advanced", "team"])
def test_a_draw_is_two_chance_nodes_whose_product_is_the_engines_draw(rules):
    """English's draw then french's, each a chance node with a few outcomes summing to 1; every pair's
    probability is the engine's probability of that Draw, and the pair leads to the engine's position."""
    game = og.load(rules)
    rng = random.Random(3)
    p, seen = Position.start(game.rules), 0
    while not p.is_over and seen < 3:
        if p.is_chance:
            state = game.state_at(p)
            english = state.chance_outcomes()
            assert math.isclose(sum(pr for _, pr in english), 1.0)
            assert len({a for a, _ in english}) == len(english)
            joint = {}
            for action, pr in english:
                after = state.clone()
                after.apply_action(action)
                assert after.is_chance_node() and after.position is p  # nothing drawn until both sides have
                french = after.chance_outcomes()
                assert math.isclose(sum(q for _, q in french), 1.0)
                for other, q in french:
                    drawn = game.codec.decode_drawn(action), game.codec.decode_drawn(other)
                    joint[drawn] = pr * q
                    if len(joint) <= 3:
                        end = after.clone()
                        end.apply_action(other)
                        assert end.position == p.apply_outcome(Draw(*drawn))
            exact = {(d.english, d.french): float(w) for d, w in p.chance_outcomes()}
            assert joint.keys() == exact.keys()
            assert all(math.isclose(joint[k], exact[k]) for k in exact)
            seen += 1
        p = uniform_step(p, rng)
    assert seen >= 2


def test_compiled_rollouts_score_uniform_games_like_openspiels():
    """The bot's leaves, played by the compiled loop, have the value of OpenSpiel's own random rollouts:
    english's mean return from the start over many games agrees within sampling error."""
    game = og.load("advanced")
    rs = np.random.RandomState(2)
    compiled = og.CompiledRollouts(400, rs).evaluate(game.new_initial_state())
    python = mcts.RandomRolloutEvaluator(60, rs).evaluate(game.new_initial_state())
    assert compiled[0] == -compiled[1] and abs(compiled[0]) <= 1
    assert abs(compiled[0] - python[0]) < 0.45


@pytest.mark.parametrize("rules", ["advanced", "expert", "team3",
                                   '{"preset": "advanced", "concede_as_decision": true}'])
def test_every_legal_move_has_its_own_action(rules):
    game = og.load(rules)
    codec = game.codec
    rng = random.Random(11)
    decisions = 0
    for _ in range(4):
        p = Position.start(game.rules)
        while not p.is_over:
            if not p.is_chance:
                moves = list(p.legal_moves)
                actions = [codec.encode(m) for m in moves]
                assert len(set(actions)) == len(moves)
                assert all(0 <= a < game.num_distinct_actions() for a in actions)
                assert [codec.decode(a) for a in actions] == moves
                assert game.state_at(p).legal_actions() == sorted(actions)
                decisions += 1
            p = uniform_step(p, rng)
    assert decisions > 50


@pytest.mark.parametrize("rules", ["advanced", "team"])
def test_resampled_states_look_the_same_to_their_player(rules):
    """Every resampled world gives the player the same view (the same information state), and the
    worlds do differ where the player cannot see: the wrapper deals hidden cards, it never copies them."""
    game = og.load(rules)
    rs, rng = np.random.RandomState(5), random.Random(5)
    differs = 0

    def check(state):
        nonlocal differs
        player = state.current_player()
        for _ in range(3):
            world = state.resample_from_infostate(player, rng.random)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert og.view_text(world.view(player)) == og.view_text(state.view(player))
            assert world.legal_actions() == state.legal_actions()
            differs += world.position.sides[1 - player] != state.position.sides[1 - player]
    for _ in range(2):
        random_play(game.new_initial_state(), rs, check)
    assert differs > 0


def test_information_state_never_shows_the_opponents_hand():
    game = og.load("advanced")
    deals = Position.start(game.rules).chance_outcomes()  # english's hand first: deals 0 and 1 share it
    state = game.state_at(Position.start(game.rules).apply_outcome(deals[0][0]))
    text = state.information_state_string(0)
    theirs = state.position.sides[1].hand
    other = game.state_at(Position.start(game.rules).apply_outcome(deals[1][0]))
    assert state.position.sides[0].hand == other.position.sides[0].hand and theirs != other.position.sides[1].hand
    assert other.information_state_string(0) == text


def test_one_ismcts_decision_is_a_legal_action():
    game = og.load("advanced")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[5][0])  # english's hand
    state.apply_action(state.chance_outcomes()[0][0])  # french's
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 3, random_state=rs)
    worlds = random.Random(1)
    bot.set_resampler(lambda s, player: s.resample_from_infostate(player, worlds.random))
    action = bot.step(state)
    assert action in state.legal_actions()
    assert game.codec.decode(int(action)) in state.position.legal_moves


@pytest.mark.parametrize("seat", [0, 1])
def test_the_bot_plays_a_policy_through_the_engines_game_loop(seat):
    game = og.load("advanced")
    bot = Timed(og.OpenSpielBot(game, simulations=2, rollouts=1))
    heuristic = Timed(PolicySpec.parse("heuristic").policy())
    policies = (bot, heuristic) if seat == 0 else (heuristic, bot)
    end = play(Position.start(game.rules), random.Random(seat), policies)
    assert end.is_over and bot.decisions > 0 and heuristic.decisions > 0


def test_bad_rules_are_refused_naming_the_problem():
    with pytest.raises(ValueError, match="not JSON"):
        og.read_rules('{"preset": ')
    with pytest.raises(ValueError, match="hand size"):
        og.read_rules('{"preset": "advanced", "hand_size": 99}')


def test_a_clone_moves_on_alone():
    """OpenSpiel clones a state by deep-copying its attributes; the clone shares the immutable position
    but an action on it leaves the original where it was."""
    game = og.load("advanced")
    state = game.new_initial_state()
    clone = state.clone()
    assert clone.position is state.position
    clone.apply_action(clone.chance_outcomes()[0][0])
    clone.apply_action(clone.chance_outcomes()[0][0])
    assert state.is_chance_node() and not clone.is_chance_node() and state.english_draw is None
    assert state.position == Position.start(game.rules)
