"""``benchmarks/bench_strong.py``: a pairing's games are seeded by their index, so any split of them over
workers gives the same points; bad flags are refused in one line; the issue's search is the tree search on
the heuristic.  (Only the ``ismcts`` pairing needs OpenSpiel.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_strong as bs  # noqa: E402


@pytest.mark.parametrize("other,compiled", [("heuristic", True), ("folder", False)])
def test_the_points_do_not_depend_on_how_the_games_are_split(other, compiled):
    whole = bs.seat_share("advanced", other, 1, 5, 0, 4, compiled, (2, 1))[0]
    parts = sum(bs.seat_share("advanced", other, 1, 5, start, 2, compiled, (2, 1))[0] for start in (0, 2))
    assert whole == parts


@pytest.mark.parametrize("flags,message", [(["--only", "nobody"], "unknown pairing nobody"),
                                           (["--only", "exploiter@open_first+nowhere"], "unknown pairing exploiter@"),
                                           (["--bot", "1x4"], "--bot"),
                                           (["--rules", "advanced,nowhere"], "nowhere"),
                                           (["--weights", "no-such-weights.json"], "no-such-weights.json")])
def test_bad_flags_are_refused_in_one_line(flags, message, capsys):
    with pytest.raises(SystemExit) as stop:
        bs.parse(flags)
    assert message in str(stop.value) and "\n" not in str(stop.value)


def test_other_weights_are_what_strong_and_the_counters_built_on_it_play(tmp_path):
    """``--weights FILE``: strong plays FILE's weights in the compiled games and the engine's, and the
    exploiter models them; the same games with the package's weights score otherwise."""
    import json

    from guyenne_explore.analysis.policies import weights as files
    from guyenne_explore.engine.rules import Rules

    model = json.loads(files.preset_file(Rules.preset("advanced")).read_text())
    model["weights"] = {name: -w for name, w in model["weights"].items()}  # the worst moves first
    file = tmp_path / "reversed.json"
    file.write_text(json.dumps(model))
    strong = f"strong@{file}"
    assert bs.parse(["--weights", str(file)]).strong == strong
    assert bs.make("exploiter", strong)._strong.model == bs.make(strong).model != bs.make("strong").model
    args = bs.parse(["--counters-know", str(file)])
    assert (args.strong, args.known) == ("strong", strong)  # the counters model FILE, strong plays the package's
    for compiled, other in ((True, "heuristic"), (False, "folder")):
        shipped = bs.seat_share("advanced", other, 0, 5, 0, 4, compiled, (2, 1))[0]
        reversed_ = bs.seat_share("advanced", other, 0, 5, 0, 4, compiled, (2, 1), strong)[0]
        assert reversed_ < shipped
    # an exploiter that models the reversed weights mispredicts strong: it plays otherwise than one that knows them
    knows = bs.seat_share("advanced", "exploiter", 0, 5, 0, 4, False, (2, 1))[0]
    misled = bs.seat_share("advanced", "exploiter", 0, 5, 0, 4, False, (2, 1), "strong", strong)[0]
    assert misled > knows


def test_the_exploiter_at_some_points_is_the_model_exploiter_searching_there_only():
    args = bs.parse(["--only", "exploiter@open_first+respond_first"])
    assert bs.pairings(args.only_list, [], "search:400") == [("exploiter@open_first+respond_first",) * 2]
    exploiter = bs.make("exploiter@open_first+respond_first")
    assert exploiter.points == {"open_first", "respond_first"} and bs.make("exploiter").points == set(bs.PLACEMENTS)


def test_the_exploiter_at_a_point_is_played_and_printed_against_the_counters_target(capsys):
    bs.main(["--rules", "advanced", "--only", "exploiter@respond_second", "--games", "1", "--workers", "1"])
    out = capsys.readouterr().out
    assert "strong vs exploiter@respond_second" in out and "(2 games, engine" in out and "target 0.45" in out


def test_the_issues_search_is_the_tree_search_on_the_heuristic():
    # the baseline of "strong against search:400": the search as the issue measured it, before it was built on
    # strong (the tree, the heuristic as its order and its model of the opponent, heuristic games at its leaves)
    from guyenne_explore.analysis.policies.heuristic import Heuristic

    search = bs.make(bs.ISSUE_SEARCH)
    assert (search.simulations, search.compiled, search.worlds, search.candidates) == (400, False, 64, 8)
    assert type(search._prior) is Heuristic and search.rollout is search._prior  # heuristic games at its leaves
    assert bs.pairings([bs.ISSUE_SEARCH], [], "search:400") == [(bs.ISSUE_SEARCH, bs.ISSUE_SEARCH)]
    assert bs.parse(["--only", bs.ISSUE_SEARCH]).only_list == [bs.ISSUE_SEARCH]
