"""The learned policy's network: the compiled and Python twins are one policy under every preset, a network whose
output weights are 0 plays its linear part, the decision reads only the side's view, and bad networks are refused
in words."""

import json
import random

import pytest

from guyenne_explore.analysis.compiled.policy_codes import FEATURES, network_size
from guyenne_explore.analysis.compiled.rollout import traced
from guyenne_explore.analysis.policies import weights as files
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.network import hidden_units, network_json
from guyenne_explore.analysis.policies.strong import Strong, checked_weights
from guyenne_explore.analysis import PolicySpec
from guyenne_explore.engine import PRESETS, Position, Rules
from guyenne_explore.engine.determinisation import determinise
from guyenne_explore.engine.record import play_game
from tests.replaying import replay_trace
from tests.test_strong import EVERY


def network(units: int, seed: int, scale: float = 0.4) -> tuple[float, ...]:
    """A model: the test's linear weights, then a seeded random network of ``units`` units."""
    rng = random.Random(seed)
    return EVERY + (float(units),) + tuple(rng.gauss(0.0, scale) for _ in range(network_size(units) - 1))


NET = network(8, 2026)


def sides_of(names, model):
    from guyenne_explore.analysis.compiled.policy_codes import UNIFORM_SIDE
    return tuple(UNIFORM_SIDE if n == "uniform" else Heuristic().compiled() if n == "heuristic"
                 else Strong(model).compiled() for n in names)


def replay(start: Position, names, seed: int, index: int, model=NET) -> int:
    """A compiled game replayed through the engine, every decision of the network checked against the Python
    twin; returns how many of its decisions were checked."""
    rows, kinds, out = traced(start, seed, index, sides_of(names, model))
    twins = [Heuristic() if n == "heuristic" else Strong(model) if n == "strong" else None for n in names]
    return sum(names[side] == "strong" for side in replay_trace(start, rows, kinds, out, lambda side: twins[side]))


@pytest.mark.parametrize("rules", ["base", "advanced", "classic2021", "expert", "team", "team3",
                                   {"preset": "advanced", "hero": False, "castles": 7}])
@pytest.mark.parametrize("names", [("strong", "strong"), ("heuristic", "strong")])
def test_the_compiled_network_is_the_python_network(rules, names):
    start = Position.start(Rules.from_json(rules))
    assert sum(replay(start, names, 17, index) for index in range(2)) > 10


def test_the_network_changes_the_play_and_zero_outputs_play_the_linear_policy():
    """A network moves its side's probabilities; the same network with its output weights at 0 plays exactly the
    linear policy it was built on (the start of a training run)."""
    start = Position.start(Rules.preset("advanced"))
    muted = NET[:len(NET) - 8] + (0.0,) * 8
    changed = same = 0
    for q in play_game(start, 3).positions()[:40]:
        if q.is_chance or q.is_over or q.to_play not in ("open_first", "respond_first", "open_second", "respond_second"):
            continue
        view = q.view(q.side_to_play)
        linear = Strong(EVERY).distribution(view)
        assert Strong(muted).distribution(view) == linear
        same += 1
        changed += Strong(NET).distribution(view) != linear
    assert same > 5 and changed > 0


@pytest.mark.parametrize("rules", ["advanced", "team"])
def test_the_networks_decision_is_the_same_whatever_the_hidden_cards(rules):
    """Deals that differ only where the side may not look (a team member's partner's hand and face-down cards
    included) give the compiled network the same first decision from the same random stream."""
    start = Position.start(Rules.from_json(rules))
    checked = 0
    for game in range(3):
        for q in play_game(start, game).positions():
            if q.is_chance or q.is_over or q.to_play not in ("open_first", "respond_first", "open_second",
                                                              "respond_second"):
                continue
            view = q.view(q.side_to_play)
            rows = set()
            for r in range(3):
                deal = determinise(view, random.Random(r))
                names = ("strong", "uniform") if q.side_to_play == 0 else ("uniform", "strong")
                rows.add(tuple(traced(deal, 5, 0, sides_of(names, NET))[0][0]))
            assert len(rows) == 1, (game, q.to_play)
            checked += 1
    assert checked > 10


def test_a_network_file_round_trips_and_bad_networks_are_refused(tmp_path):
    path = tmp_path / "net.json"
    files.write_model(path, NET, {"command": "test"}, "advanced")
    model = files.read_model(path)
    assert model.weights == NET and hidden_units(model.weights) == 8
    data = json.loads(path.read_text())
    for bad, words in ((dict(data["network"], hidden=0), "network.hidden must be a whole number"),
                       (dict(data["network"], inputs=[[1.0] * len(FEATURES)] * 7), "network.inputs must be 8 rows"),
                       (dict(data["network"], biases=[0.0] * 3), "network.biases must be a list of 8 numbers"),
                       (dict(data["network"], outputs=[float("nan")] * 8), "finite numbers"),
                       ([1, 2], "'network' must be an object")):
        path.write_text(json.dumps(dict(data, network=bad)).replace("NaN", '"NaN"'))
        with pytest.raises(ValueError, match=words):
            files.read_model(path)
    with pytest.raises(ValueError, match="hidden units"):
        checked_weights(None, list(NET[:-1]))
    assert network_json(NET[len(FEATURES):])["hidden"] == 8


# ---------------------------------------------------------------------- training a network
from guyenne_explore.analysis.policies import train  # noqa: E402
from guyenne_explore.cli import main  # noqa: E402
from tests.test_train import SMALL, TINY, TINY_ARGS  # noqa: E402


def test_a_networks_training_starts_from_its_linear_part_and_is_reproducible_and_resumable(tmp_path):
    """A network run starts from the linear weights with output weights at 0 (it plays them exactly), grows a
    league of its past versions and their exploiters, gives the same network for the same seed and generations, and
    a run stopped and resumed ends as one never stopped."""
    settings = train.check_training(TINY, 3, None, 1, hidden=4, **SMALL)
    assert hidden_units(settings.x0) == 4 and settings.x0[-8:] == (0.0,) * 8
    assert settings.x0[:len(FEATURES)] == Strong().model_for(TINY)[:len(FEATURES)]
    whole = train.train(TINY, 3, None, generations=train.LEAGUE_EVERY + 1, hidden=4, state=tmp_path / "whole", **SMALL)
    again = train.train(TINY, 3, None, generations=train.LEAGUE_EVERY + 1, hidden=4, **SMALL)
    assert whole == again and hidden_units(whole.weights) == 4
    run = train.read_state(tmp_path / "whole")
    assert len(run.league) == 2  # the snapshot and the exploiter trained against it
    assert run.league[1] != run.league[0] and hidden_units(run.league[1]) == 4
    state = tmp_path / "part"
    stopped = train.train(TINY, 3, None, generations=train.LEAGUE_EVERY + 1, hidden=4, state=state,
                          progress=lambda p: False if p.generation >= 2 else None, **SMALL)
    assert stopped.cancelled
    resumed = train.train(TINY, 3, None, generations=train.LEAGUE_EVERY + 1, resume=train.read_state(state), **SMALL)
    assert resumed == whole


def test_a_variant_fine_tunes_its_presets_network(tmp_path):
    """Trained from a network's file (as a variant from its preset's), a run keeps that network's size and
    starts from it."""
    start = tmp_path / "net.json"
    files.write_model(start, NET, {}, "advanced")
    settings = train.check_training(TINY, 1, None, 1, start_from=train.start_model(start), **SMALL)
    assert settings.hidden == 8 and settings.x0 == NET
    with pytest.raises(ValueError, match="--hidden"):
        train.check_training(TINY, 1, None, 1, start_from=train.start_model(start), resume=train.Run(settings),
                             hidden=4, **SMALL)


@pytest.mark.parametrize("args, words", [(["--hidden", "17"], "--hidden"), (["--hidden", "two"], "--hidden"),
                                         (["--hidden", "-1"], "--hidden")])
def test_the_command_refuses_a_bad_network_size_naming_the_option(args, words, capsys):
    assert main(["train", *TINY_ARGS, "--generations", "1", *args]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_the_command_writes_a_network_with_the_command_that_trains_it_again(tmp_path, capsys):
    out = tmp_path / "net.json"
    assert main(["train", *TINY_ARGS, "--seed", "2", "--games", "4", "--popsize", "4", "--generations", "2",
                 "--hidden", "4", "--json", "--out", str(out)]) == 0
    said = json.loads(capsys.readouterr().out)
    data = json.loads(out.read_text())
    assert data["network"]["hidden"] == 4 and said["generations"] == 2
    assert data["trained"]["command"].endswith("--hidden 4")
    assert PolicySpec.parse(f"strong@{out}").policy().model_for(TINY) == files.read_model(out).weights


def test_cancel_stops_a_networks_training_inside_its_exploiters_training():
    """The league's exploiter is trained inside a generation: a cancel there stops the run too."""
    asked = []

    def progress(p):
        asked.append(p)
        return False if p.generation == train.LEAGUE_EVERY - 1 and p.candidate >= SMALL["popsize"] else None

    result = train.train(TINY, 1, None, generations=50, hidden=4, progress=progress, **SMALL)
    assert result.cancelled and result.generations == train.LEAGUE_EVERY - 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_strong_linear_plays_the_linear_file_and_strong_the_presets_file(preset):
    """``strong-linear`` is the policy before its network, kept as a level and as the network's yardstick: it plays
    the package's linear weights; ``strong`` plays the preset's own file (a network where one was trained)."""
    from guyenne_explore.analysis.policies.sides import compiled_sides

    rules = Rules.preset(preset)
    linear = Strong(linear=True).model_for(rules)
    assert hidden_units(linear) == 0 and linear == files.read_model(files.preset_file(rules, linear=True)).weights
    assert Strong().model_for(rules) == files.read_model(files.preset_file(rules)).weights
    assert compiled_sides(("strong-linear", "strong"), rules) == (Strong(linear).compiled(rules),
                                                                  Strong(Strong().model_for(rules)).compiled(rules))
    assert PolicySpec.parse("strong-linear").policy().name == "strong-linear"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_presets_network_records_the_command_that_trains_it_again(preset):
    """A shipped network says how it was made: trained for its preset, by ``train --hidden`` from the preset's
    linear file (by its path in the source tree), the seed and generations that give it again."""
    rules = Rules.preset(preset)
    model = files.read_model(files.preset_file(rules))
    assert hidden_units(model.weights), f"{preset} ships no network"
    command = model.trained["command"]
    assert model.trained_for == preset
    assert f"--rules {preset} " in command and f"--hidden {hidden_units(model.weights)}" in command
    assert command.endswith(f"--start guyenne_explore/analysis/policies/weights/linear/{preset}.json")
    assert f"--generations {model.trained['generations']} " in command


def test_cma_varies_a_networks_numbers_a_unit_at_a_time_and_back():
    """The numbers a run varies list the input weights a unit at a time (a file's rows), whatever the row's
    layout, and :func:`train.model_of` is their inverse: a run's search does not follow the compiled loop's layout."""
    x = train.vector(NET)
    assert len(x) == len(NET) - 1 and train.model_of(x, 8) == NET
    rows = network_json(NET[len(FEATURES):])["inputs"]
    assert list(x[len(FEATURES):len(FEATURES) + 8 * len(FEATURES)]) == [v for row in rows for v in row]
    assert train.vector(EVERY) == EVERY and train.model_of(EVERY, 0) == EVERY
