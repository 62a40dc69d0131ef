"""strong's own team split (issue 47, RULES.md 8): the compiled and Python twins are one policy, the heuristic's
weights play the heuristic's split exactly, the decision reads the partner's hand by its size alone, a file's bad
split is refused naming the field, and training it is reproducible."""

import json
import random

import numpy as np
import pytest

from guyenne_explore.analysis.compiled.layout import TEAM_SPLIT
from guyenne_explore.analysis.compiled.policy_codes import HEURISTIC_SPLIT, SPLIT_FEATURES
from guyenne_explore.analysis.compiled.rollout import traced
from guyenne_explore.analysis.policies import train
from guyenne_explore.analysis.policies import weights as files
from guyenne_explore.analysis.policies.discard import split_discard, with_discard
from guyenne_explore.analysis.policies.strong import Strong, checked_weights
from guyenne_explore.analysis.policies.heuristic import worth
from guyenne_explore.analysis.policies.team_split import split_score, split_team_split, with_team_split
from guyenne_explore.cli import main
from guyenne_explore.engine import HERO, Position, Rules
from guyenne_explore.engine.determinisation import determinise
from guyenne_explore.engine.record import play_game
from tests.test_network import NET, replay, sides_of
from tests.test_strong import EVERY
from tests.test_train import SMALL

#: split weights that rank the splits otherwise than the heuristic (a softmax over several splits, the partner's
#: own cards counted, the hero given or kept)
SPLIT = (-0.4, -0.6, 0.3, 0.8)
TEAMS = [Position.start(Rules.preset(name)) for name in ("team", "team3")]


def split_rows(start, seed, index, names, model):
    """The team split rows of a compiled game's trace, of the sides ``names`` names ``strong``."""
    return [r for r in traced(start, seed, index, sides_of(names, model))[0]
            if r[0] == TEAM_SPLIT and names[r[1]] == "strong"]


def test_the_row_keeps_the_split_after_the_discard_and_each_reads_back():
    """A split follows the discard (a D of 0 where there is none, a linear model's H of 0 before): neither is read as
    the other, and replacing one keeps the other."""
    linear = with_team_split(EVERY, SPLIT)
    assert linear[len(EVERY):] == (0.0, 0.0, 4.0) + SPLIT and checked_weights(None, list(linear)) == linear
    assert split_discard(linear) == (linear, ()) and split_team_split(linear) == (EVERY, SPLIT)
    both = with_discard(with_team_split(NET, SPLIT), (-0.3, -0.4, 0.25))
    assert split_discard(both) == (with_team_split(NET, SPLIT), (-0.3, -0.4, 0.25))
    assert split_team_split(both) == (with_discard(NET, (-0.3, -0.4, 0.25)), SPLIT)
    assert with_team_split(both, ()) == with_discard(NET, (-0.3, -0.4, 0.25))
    with pytest.raises(ValueError, match="a team split's numbers must be their count"):
        checked_weights(None, list(linear[:-1]))
    with pytest.raises(ValueError, match="weight of the team split must be a finite number"):
        checked_weights(None, list(linear[:-1]) + [float("nan")])


@pytest.mark.parametrize("start", TEAMS, ids=["team", "team3"])
@pytest.mark.parametrize("model", [with_team_split(NET, SPLIT), with_discard(with_team_split(EVERY, SPLIT),
                                                                             (-0.3, -0.4, 0.25))])
def test_the_compiled_split_is_the_python_split(start, model):
    """Team games with a model's own split weights (a network's and a linear model's), replayed through the engine:
    every decision of strong, its splits included, is the Python twin's from the same random number."""
    names = ("strong", "strong")
    totals = [r[4] for index in range(4) for r in split_rows(start, 23, index, names, model)]
    assert totals and max(totals) > 1000  # a softmax over several splits
    assert sum(replay(start, names, 23, index, model) for index in range(4)) > 10


def test_the_heuristics_split_weights_play_the_games_of_a_model_without_a_split():
    """A model with :data:`HEURISTIC_SPLIT` plays exactly the games (every row of the trace) of the model without a
    split, the Python policy weighs the split as the heuristic does; its own weights change the split."""
    for start in TEAMS:
        for index in range(4):
            plain = traced(start, 31, index, sides_of(("strong", "heuristic"), NET))
            as_heuristic = traced(start, 31, index, sides_of(("strong", "heuristic"), with_team_split(NET, HEURISTIC_SPLIT)))
            assert np.array_equal(plain[0], as_heuristic[0]) and np.array_equal(plain[2], as_heuristic[2])
        q = next(q for q in play_game(start, 0).positions() if not q.is_chance and q.to_play == "team_split")
        view = q.view(q.side_to_play)
        assert Strong(with_team_split(NET, HEURISTIC_SPLIT)).weights(view) == Strong(NET).weights(view)
        assert Strong(with_team_split(NET, SPLIT)).weights(view) != Strong(NET).weights(view)


def test_a_partner_giving_its_empty_drawer_a_card_splits_from_its_own_hand():
    """When the drawer holds no card, its partner gives it one (RULES.md 9): the view is the giver's (its own hand,
    the empty drawer's size 0) and the split's features read those."""
    found = 0
    for game in range(60):
        for q in play_game(Position.start(Rules.preset("team")), game).positions():
            if q.is_chance or q.is_over or q.to_play != "team_split":
                continue
            s = q.sides[q.side_to_play]
            if s.hands[s.drawer].size:
                continue
            view = q.view(q.side_to_play)
            assert view.member == 1 - s.drawer and view.hand == s.hands[1 - s.drawer] and view.partner_hand_size == 0
            assert all(m.cards.size == 1 for m in view.legal_moves)
            held = view.hand.size  # giving one of held cards to an empty partner: both evennesses |held - 2|
            for move, score in Strong(with_team_split(NET, SPLIT)).split(view, SPLIT):
                phi = (abs(held - 2), abs(held - 2), worth(view.rules, move.cards), float(move.cards[HERO]))
                assert score == split_score(SPLIT, phi)
            found += 1
    assert found


@pytest.mark.parametrize("start", TEAMS, ids=["team", "team3"])
def test_the_split_is_the_same_whatever_the_partners_cards(start):
    """Deals that differ only where the giver may not look (its partner's hand, the deck) give the split the same
    weights in Python and the same first compiled decision from the same random stream."""
    model = with_team_split(NET, SPLIT)
    checked = 0
    for game in range(3):
        for q in play_game(start, game).positions():
            if q.is_chance or q.is_over or q.to_play != "team_split":
                continue
            view = q.view(q.side_to_play)
            names = ("strong", "uniform") if q.side_to_play == 0 else ("uniform", "strong")
            rows, weights = set(), set()
            for r in range(4):
                deal = determinise(view, random.Random(r))
                rows.add(tuple(traced(deal, 5, 0, sides_of(names, model))[0][0]))
                weights.add(tuple(Strong(model).weights(deal.view(deal.side_to_play))))
            assert len(rows) == 1 and len(weights) == 1, (game, q.round)
            checked += 1
    assert checked > 3


def test_a_split_round_trips_through_a_file_and_bad_split_weights_are_refused(tmp_path):
    path = tmp_path / "team.json"
    model = with_team_split(NET, SPLIT)
    files.write_model(path, model, {"command": "test"}, "team")
    data = json.loads(path.read_text())
    assert data["team_split"] == dict(zip(SPLIT_FEATURES, SPLIT)) and "discard" not in data
    assert files.read_model(path).weights == model
    for bad, words in (({"alone": "even"}, "team_split.alone must be a finite number, not 'even'"),
                       ({"team": float("inf")}, "team_split.team must be a finite number, not inf"),
                       ({"hero": False}, "team_split.hero must be a finite number"),
                       ({"alone": -1.0, "drawer": 1.0}, "team_split.drawer is not one of its features"),
                       ([-1.0, 0.0, -0.01, 0.0], "'team_split' must be an object of its features")):
        path.write_text(json.dumps(dict(data, team_split=bad)))
        with pytest.raises(ValueError, match=f"{path}.*{words}" if isinstance(bad, dict) else words):
            files.read_model(path)
    path.write_text(json.dumps(dict(data, team_split={"team": 0.5})))  # a missing name reads 0
    assert split_team_split(files.read_model(path).weights)[1] == (0.0, 0.5, 0.0, 0.0)


TEAM = Rules.preset("team")
#: a start without a split of its own, whatever the package ships for team (its linear file)
LINEAR = "guyenne_explore/analysis/policies/weights/linear/team.json"
TEAM_SMALL = dict(SMALL, start_from=files.read_model(files.preset_file(TEAM, linear=True)).weights)
TEAM_ARGS = ["train", "--rules", "team", "--hidden", "0", "--games", "4", "--popsize", "4", "--json", "--start",
             str(files.preset_file(TEAM, linear=True))]


def test_training_under_team_rules_includes_the_split_when_asked_and_is_reproducible(tmp_path):
    """``--team-split`` varies the split's weights too, from the heuristic's (so its start plays exactly as before),
    only under rules with a team side; two runs give the same model, written with the flag in its command."""
    assert train.split_count(train.check_training(TEAM, 3, None, 1, hidden=0, **TEAM_SMALL).x0) == 0
    team = train.check_training(TEAM, 3, None, 1, hidden=0, team_split=True, **TEAM_SMALL)
    assert split_team_split(team.x0)[1] == HEURISTIC_SPLIT
    assert train.vector(team.x0) == team.x0[:-7] + HEURISTIC_SPLIT  # H 0, D 0 and S left out
    assert train.model_of(train.vector(team.x0), 0, 0, 4) == team.x0
    both = with_discard(with_team_split(NET, SPLIT), (-0.3, -0.4, 0.25))
    assert train.model_of(train.vector(both), 8, 3, 4) == both
    advanced = train.check_training(Rules.preset("advanced"), 3, None, 1, start_from=with_team_split(NET, SPLIT),
                                    team_split=True, **SMALL)
    assert advanced.x0 == NET
    result = train.train(TEAM, 3, None, generations=2, hidden=0, team_split=True, **TEAM_SMALL)
    assert result == train.train(TEAM, 3, None, generations=2, hidden=0, team_split=True, **TEAM_SMALL)
    assert train.split_count(result.weights) == len(SPLIT_FEATURES)
    train.write_weights(tmp_path / "team.json", result, "team", 3, SMALL["games"])
    written = json.loads((tmp_path / "team.json").read_text())
    assert set(written["team_split"]) == set(SPLIT_FEATURES)
    assert written["trained"]["command"].endswith("--team-split")


def test_a_frozen_run_trains_the_split_alone_and_resumes(tmp_path, capsys):
    """``--freeze-placements``: CMA-ES varies the split's four weights alone, the start's placements kept as they
    are; refused where nothing but placements would be trained; a stopped run resumed from its state alone (the
    flag not repeated) ends as one never stopped, and the file and command record it."""
    with pytest.raises(ValueError, match="--freeze-placements"):
        train.check_training(TEAM, 3, None, 1, hidden=0, freeze=True, **TEAM_SMALL)
    settings = train.check_training(TEAM, 3, None, 1, team_split=True, freeze=True, **TEAM_SMALL)
    assert train.searched(settings) == HEURISTIC_SPLIT
    assert train.candidate(settings, SPLIT) == with_team_split(settings.x0, SPLIT)
    result = train.train(TEAM, 3, None, generations=2, team_split=True, freeze=True, state=tmp_path / "run", **TEAM_SMALL)
    mean = train.read_state(tmp_path / "run").es.mean  # the search itself, not only the best
    assert len(mean) == len(SPLIT_FEATURES) and tuple(mean) != HEURISTIC_SPLIT
    assert split_team_split(result.weights)[0] == split_team_split(settings.x0)[0]
    # the command: a run of 2 generations, and one of 1 resumed to 2 from its state alone
    assert main([*TEAM_ARGS, "--seed", "5", "--generations", "2", "--team-split", "--freeze-placements", "--out",
                 str(tmp_path / "whole.json")]) == 0
    said = capsys.readouterr()
    whole = json.loads(said.out)
    assert "training strong for team: 2 generations of" in said.err  # the cost line, before it starts
    assert main([*TEAM_ARGS, "--seed", "5", "--generations", "1", "--team-split", "--freeze-placements", "--out",
                 str(tmp_path / "part.json")]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", str(tmp_path / "part.json.state"), "--generations", "2", "--json",
                 "--out", str(tmp_path / "part.json")]) == 0
    assert json.loads(capsys.readouterr().out)["weights"] == whole["weights"]
    written = json.loads((tmp_path / "part.json").read_text())
    assert written["team_split"] == json.loads((tmp_path / "whole.json").read_text())["team_split"]
    assert written["trained"]["freeze_placements"] is True
    assert written["trained"]["command"].endswith(f"--team-split --freeze-placements --start {LINEAR}")
    # a run from a file that says how it was made carries that record: a shipped network given its own split by a
    # frozen run, which then replaces it, is made again by the network's command, then the split's
    assert main([*TEAM_ARGS, "--seed", "6", "--generations", "1", "--freeze-placements", "--start",
                 str(tmp_path / "whole.json"), "--out", str(tmp_path / "chained.json")]) == 0
    capsys.readouterr()
    chained = json.loads((tmp_path / "chained.json").read_text())["trained"]
    assert chained["start_trained"] == json.loads((tmp_path / "whole.json").read_text())["trained"]
    assert chained["command"].endswith("--team-split --freeze-placements --start whole.json")
    assert chained["start_trained"]["start_trained"] == files.read_model(files.preset_file(TEAM, linear=True)).trained
