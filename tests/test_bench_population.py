"""``benchmarks/bench_population.py``: its meta-game solver finds the Nash odds of games whose answer is known, its odds
in whole chunks keep their total, and a tiny run writes a population that the package reads back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_population as bp  # noqa: E402

from guyenne_explore.analysis.policies.weights import read_model  # noqa: E402


def test_the_nash_odds_of_a_cycle_are_even_and_a_dominant_member_takes_them_all():
    cycle = np.array([[0.5, 0.9, 0.1], [0.1, 0.5, 0.9], [0.9, 0.1, 0.5]])  # each beats the next
    np.testing.assert_allclose(bp.nash(cycle), [1 / 3] * 3, atol=1e-9)
    dominant = np.array([[0.5, 0.4, 0.3], [0.6, 0.5, 0.45], [0.7, 0.55, 0.5]])  # the last beats both others
    np.testing.assert_allclose(bp.nash(dominant), [0, 0, 1], atol=1e-9)
    # rock, paper, scissors weighted: the odds that leave every reply the same score
    lopsided = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.25], [0.0, 0.75, 0.5]])
    odds = bp.nash(lopsided)
    np.testing.assert_allclose(odds @ (lopsided - 0.5), 0.0, atol=1e-9)
    assert odds.min() > 0.1


def test_a_field_bound_moves_the_odds_to_the_mixtures_that_reach_it_and_a_support_keeps_at_most_so_many():
    cycle = np.array([[0.5, 0.9, 0.1], [0.1, 0.5, 0.9], [0.9, 0.1, 0.5]])
    field = np.array([0.7, 0.5, 0.55])  # each member's score against strong-linear: the even mixture's is 0.583
    odds = bp.nash(cycle, field, 0.6)
    assert odds @ field == pytest.approx(0.6) and odds[0] > 1 / 3  # the bound holds, the member strong there gains
    assert min(odds @ cycle) < min(bp.nash(cycle) @ cycle)  # and costs the mixture some of its worst score
    np.testing.assert_allclose(bp.nash(cycle, field, 0.8), [1, 0, 0])  # none reaches it: the strongest there
    rows, few = bp.supported(cycle, field, 0.6, 2)
    assert len(rows) == 2 and few @ field[rows] >= 0.6 - 1e-9
    assert min(few @ cycle[rows, :]) == pytest.approx(max(  # the best pair's worst score against all three
        min(bp.nash(cycle[np.ix_(r, r)], field[r], 0.6) @ cycle[r, :]) for r in ([0, 1], [0, 2], [1, 2])
        if bp.nash(cycle[np.ix_(r, r)], field[r], 0.6) @ field[r] >= 0.6 - 1e-9))
    rows, few = bp.supported(cycle, None, 0.0, 3)
    assert rows == [0, 1, 2] and np.allclose(few, 1 / 3)


@pytest.mark.parametrize("odds, whole", [
    ([0.27, 0.73], [3, 9]), ([1 / 3] * 3, [4, 4, 4]), ([1.0, 0.0], [12, 0]), ([0.04, 0.48, 0.48], [0, 6, 6])])
def test_whole_odds_keep_their_total_and_round_the_largest_remainders_up(odds, whole):
    assert bp.whole_odds(odds) == whole and sum(bp.whole_odds(odds)) == bp.ODDS_TOTAL


def test_a_tiny_run_prints_each_iteration_and_writes_its_population(tmp_path, capsys, monkeypatch):
    from guyenne_explore.analysis.policies import natural

    for name, value in (("MATCH_GAMES", 150), ("STEPS", 3)):  # the responses' line search: a few hundred games a step
        monkeypatch.setattr(natural, name, value)
    out = tmp_path / "population"
    bp.main(["--rules", "advanced", "--iterations", "1", "--response-iterations", "1", "--games", "200",
             "--match", "50", "--out", str(out)])
    printed = capsys.readouterr().out
    assert "population of 1" in printed and "population of 2" in printed and "response 1 takes" in printed
    assert "a fresh response from the network takes" in printed and "from the likeliest member" in printed
    saved = json.loads((out / "odds.json").read_text())
    scores = np.array(saved["scores"])
    assert scores.shape == (2, 2) and np.allclose(scores + scores.T, 1.0)
    assert sum(saved["odds"]) == pytest.approx(1.0)
    assert len(saved["field"]) == 2 and f"at most {bp.MAX_MEMBERS} members" in printed
    members = [read_model(out / f"member{i}.json") for i in range(2)]
    assert members[0].weights == read_model(bp.preset_file(bp.rules_arg("advanced"))).played().members[0]
    assert members[1].trained["method"] == "population"


def test_a_tiny_run_with_the_exploiters_oracle_and_a_field_bound_writes_a_mixture_drawn_once_a_game(tmp_path, capsys):
    out = tmp_path / "population"
    bp.main(["--rules", "advanced", "--iterations", "2", "--oracle-minutes", "0.0001", "--match", "40",
             "--field", "0.5", "--field-share", "2", "--out", str(out)])
    printed = capsys.readouterr().out
    assert "population of 3" in printed and "response 2 takes" in printed
    saved = json.loads((out / "odds.json").read_text())
    assert len(saved["field"]) == 3 and np.dot(saved["odds"], saved["field"]) >= 0.5 - 1e-9
    rows, _odds = bp.supported(np.array(saved["scores"]), np.array(saved["field"]), 0.5, 3)
    assert (out / "mixture.json").exists() == (len(rows) > 1)  # a mixture file where the support holds two or three
    if len(rows) > 1:
        mixture = read_model(out / "mixture.json").played()
        assert mixture.per_game and mixture.members == tuple(read_model(out / f"member{i}.json").weights for i in rows)


def test_the_exploiters_oracle_counted_in_generations_gives_the_same_response_for_the_same_seed():
    rules = bp.rules_arg("advanced")
    network = read_model(bp.preset_file(rules)).played().members[0]
    members, odds = [network], [1.0]
    one = bp.cma_response(rules, members, odds, network, 7, None, generations=1)
    assert one == bp.cma_response(rules, members, odds, network, 7, None, generations=1)
    assert one != network  # its generation moved the response from its start
    assert bp.cma_response(rules, members, odds, network, 8, None, generations=1) != one


def test_measuring_a_saved_population_trains_a_response_against_its_whole_nash_mixture(tmp_path, capsys):
    out = tmp_path / "population"
    bp.main(["--rules", "advanced", "--iterations", "1", "--oracle-generations", "1", "--match", "40", "--out", str(out)])
    capsys.readouterr()
    bp.main(["--rules", "advanced", "--measure", str(out), "--oracle-generations", "1", "--match", "40"])
    printed = capsys.readouterr().out
    members = int((np.array(json.loads((out / "odds.json").read_text())["odds"]) > 0).sum())
    assert f"from the {members}-member Nash mixture of {out}" in printed and "population of" not in printed


def test_a_population_resumed_from_its_folder_ends_as_the_run_never_stopped(tmp_path, capsys):
    """Ten-minute responses take a session's hours for a few iterations: a run goes on where the last one stopped
    (``--resume``), with the same members, payoff table and odds as one run of all its iterations."""
    common = ["--rules", "advanced", "--oracle-generations", "1", "--match", "30", "--no-fresh"]
    whole, steps = tmp_path / "whole", tmp_path / "steps"
    bp.main([*common, "--iterations", "2", "--out", str(whole)])
    bp.main([*common, "--iterations", "1", "--out", str(steps)])
    assert len(json.loads((steps / "odds.json").read_text())["field"]) == 2  # stopped after one response
    bp.main([*common, "--iterations", "1", "--out", str(steps), "--resume"])
    printed = capsys.readouterr().out
    assert "a fresh response" not in printed  # --no-fresh: no oracle's time after the last iteration
    assert json.loads((steps / "odds.json").read_text()) == json.loads((whole / "odds.json").read_text())
    for i in range(3):
        assert read_model(steps / f"member{i}.json").weights == read_model(whole / f"member{i}.json").weights
    with pytest.raises(SystemExit):
        bp.main([*common, "--iterations", "1", "--resume"])  # no folder to go on from: refused
    assert "--resume goes on with the population of --out DIR" in capsys.readouterr().err
