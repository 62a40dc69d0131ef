"""Skill depth and luck: a ladder of levels, each against the one below in both seats, on compiled games."""

from __future__ import annotations

import json

from guyenne_explore.analysis.studies.depth import Depth, skill_depth
from guyenne_explore.analysis.studies.depth import Match
from guyenne_explore.analysis.outcomes import Game
from guyenne_explore.cli import main
from guyenne_explore.engine import Rules

ADVANCED = Rules.preset("advanced")
#: every card a 2, no hero, two castles, one card a castle: every battle is a tie and every placement alike
NO_DECISIONS = Rules.preset("base").replace(card_counts={"2": 8, "3": 0, "4": 0, "5": 0}, hero=False, hand_size=2,
                                            castles=2, max_at_castle=1)


def test_uniform_against_uniform_has_no_skill_depth():
    depth = skill_depth(ADVANCED, ("uniform", "uniform"), games=100, seed=1)
    (match,) = depth.matches
    assert match.score.value == 0.5 and (match.score.low, match.score.high) == (0.5, 0.5)
    assert (depth.chain, depth.chain_low, depth.chain_high) == (0, 0, 0)
    assert depth.metric().value == 0.0


def test_the_heuristic_beats_uniform_play_and_the_chain_counts_it():
    depth = skill_depth(ADVANCED, ("uniform", "uniform", "heuristic"), games=300, seed=1)
    assert [m.beats for m in depth.matches] == [False, True]
    assert depth.chain == 1 and depth.chain_high == 1
    weaker = depth.matches[1].weaker_wins
    assert weaker.value < 0.5 and weaker.games == 600
    assert depth.matches[1].luck.value < 0.9  # decisions matter here


def test_three_levels_each_beating_the_one_below_are_a_chain_of_two_steps_and_said_so():
    # the stronger level wins every deal in both seats: each of the two matches is beaten outright
    won = Game(10, 2, "english", 6, 1, (True, True), "sweep")
    lost = Game(2, 10, "french", 6, 1, (True, True), "sweep")
    first, second = [won] * 20, [lost] * 20
    levels = ("uniform", "heuristic", "strong")
    matches = [Match.from_games(w, s, first, second) for w, s in zip(levels, levels[1:])]
    depth = Depth.from_matches("advanced", levels, matches, [(first, second)] * 2)
    assert [m.beats for m in depth.matches] == [True, True] and depth.chain == 2
    text = depth.chain_text("en")
    assert text.startswith("skill chain: 2 steps, each a level beating the one below") and "levels" not in text
    assert depth.metric().unit == "steps"


def test_a_rule_set_where_decisions_cannot_matter_has_a_luck_share_of_one():
    depth = skill_depth(NO_DECISIONS, ("uniform", "heuristic"), games=40, seed=2)
    assert (depth.luck.value, depth.luck.low, depth.luck.high) == (1.0, 1.0, 1.0)
    assert depth.chain == 0 and depth.weaker_wins.value == 0.0


def test_the_depth_command_prints_the_ladder_as_json(capsys):
    code = main(["depth", "--rules", "advanced", "--levels", "uniform,heuristic", "--games", "60", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    data = json.loads(out.out)
    assert data["levels"] == ["uniform", "heuristic"] and data["chain"] in (0, 1)
    assert set(data["luck_share"]) >= {"value", "ci95"} and len(data["matches"]) == 1
    assert "heuristic against uniform: 120 games" in out.err  # the cost, said before it starts, as the result says the match


def test_the_depth_command_refuses_a_ladder_of_one_or_an_unknown_level(capsys):
    assert main(["depth", "--levels", "uniform"]) == 1
    assert "two levels" in capsys.readouterr().err
    assert main(["depth", "--levels", "uniform,wizard"]) == 1
    assert "wizard" in capsys.readouterr().err


def test_a_search_level_plays_a_tenth_of_the_games_wherever_it_is_asked():
    # one rule for the ladder's matches and the skill command's levels
    from guyenne_explore.analysis.studies.depth import SEARCH_SHARE, level_games, match_games

    assert [level_games(lv, 400) for lv in ("uniform", "strong", "search:100", "search:250ms")] == [400, 400, 40, 40]
    assert level_games("search:400", 5) == 1 and SEARCH_SHARE == 10
    assert match_games("heuristic", "strong", 400) == 400 and match_games("strong", "search:100", 400) == 40


def test_a_time_budgeted_search_is_costed_for_every_decision_it_searches():
    # search:Nms spends its whole budget at each decision with a choice: the cost said up front counts
    # SEARCHED_DECISIONS of them a game, which must cover the games of the longest preset (team)
    import random

    from guyenne_explore.analysis.planning import SEARCHED_DECISIONS, seconds_a_game
    from guyenne_explore.analysis import PolicySpec
    from guyenne_explore.engine import Position, play

    class Counted:
        def __init__(self, policy):
            self.policy, self.searched = policy, 0

        def choose(self, view, rng):
            self.searched += len(list(view.legal_moves)) > 1
            return self.policy.choose(view, rng)

    search = Counted(PolicySpec.parse("search:20").policy())
    for game in range(4):
        seats = (search, PolicySpec.parse("strong").policy()) if game % 2 == 0 else (PolicySpec.parse("strong").policy(), search)
        play(Position.start(Rules.preset("team")), random.Random(game), seats)
    assert 0 < search.searched / 4 <= SEARCHED_DECISIONS
    assert seconds_a_game(Position.start(Rules.preset("team")), ("search:250ms", "search:250ms")) == 2 * 0.25 * SEARCHED_DECISIONS
