"""The learned policy's network: the compiled and Python twins are one policy under every preset, a network whose
output weights are 0 plays its linear part, the decision reads only the side's view, and bad networks are refused
in words."""

import json
import random

import pytest

from guyenne_explore.analysis.compiled.policy_codes import FEATURES, MAX_HIDDEN, network_size
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
    """A model: the test's linear weights, then a seeded random network of ``units`` units (its input weights of the
    features before ``counted`` drawn first, as before it was added, so that the other tests' networks stay theirs;
    then its biases and output weights; then its input weights of ``counted``)."""
    rng = random.Random(seed)
    before = units * (len(FEATURES) - 1)
    drawn = [rng.gauss(0.0, scale) for _ in range(network_size(units) - 1 - units)]
    counted = [rng.gauss(0.0, scale) for _ in range(units)]
    return EVERY + (float(units),) + tuple(drawn[:before] + counted + drawn[before:])


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


@pytest.mark.parametrize("rules", ["advanced", "classic2021", "team3"])
def test_a_network_that_reads_the_counted_chance_through_its_units_alone_is_the_python_network(rules):
    """The compiled policy counts the opponent's hidden sets where the model reads them: here through the network's
    input weights alone, its linear weight of ``counted`` 0 (a wrong index in that test would leave them uncounted)."""
    counted = FEATURES.index("counted")
    model = list(network(8, 77, scale=0.8))
    model[counted] = 0.0
    units, n = 8, len(FEATURES)
    for j in range(units):
        model[n + 1 + counted * units + j] = (-1) ** j * 6.0
    start = Position.start(Rules.from_json(rules))
    assert sum(replay(start, ("strong", "heuristic"), 29, index, tuple(model)) for index in range(3)) > 10
    alike = list(model)
    for j in range(units):
        alike[n + 1 + counted * units + j] = 0.0
    reads, ignores = (sides_of(("strong", "heuristic"), tuple(m)) for m in (model, alike))
    assert any(traced(start, 29, i, reads)[0] != traced(start, 29, i, ignores)[0] for i in range(8))  # it reads them


@pytest.mark.parametrize("units", [1, 3, MAX_HIDDEN])
def test_networks_of_one_to_the_most_units_are_the_python_network(units):
    """The compiled network's scratch (flat rows a feature and a unit, the input weights copied unit by unit) holds
    networks of any size up to the most: their compiled games replayed against the Python twin."""
    start = Position.start(Rules.preset("expert"))
    model = network(units, 31 + units, scale=0.8)
    assert sum(replay(start, ("strong", "strong"), 23, index, model) for index in range(2)) > 10


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


def test_a_network_written_before_the_counted_chance_reads_its_input_weights_of_it_as_0(tmp_path):
    """A file whose rows hold a weight for each feature but ``counted`` (the shipped files before it) plays as it did;
    a row of another length is refused."""
    path = tmp_path / "net.json"
    files.write_model(path, NET, {"command": "test"}, "advanced")
    data = json.loads(path.read_text())
    counted = FEATURES.index("counted")
    assert counted == len(FEATURES) - 1
    older = dict(data, weights={k: v for k, v in data["weights"].items() if k != "counted"},
                 network=dict(data["network"], inputs=[row[:counted] for row in data["network"]["inputs"]]))
    path.write_text(json.dumps(older))
    model = files.read_model(path).weights
    units = hidden_units(model)
    assert model[counted] == 0.0
    assert [model[len(FEATURES) + 1 + counted * units + j] for j in range(units)] == [0.0] * units
    others = [i for i in range(len(FEATURES)) if i != counted]
    assert [model[i] for i in others] == [NET[i] for i in others]
    path.write_text(json.dumps(dict(data, network=dict(data["network"], inputs=[row[:-2] for row in
                                                                               data["network"]["inputs"]]))))
    with pytest.raises(ValueError, match="network.inputs must be 8 rows"):
        files.read_model(path)


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


def test_a_robust_run_is_measured_by_its_worst_scores_against_a_league_of_exploiters(tmp_path, capsys):
    """``--robust K``: a candidate's measure is the mean of its K lowest scores (so it must beat what beats it
    most); every ROBUST_EVERY generations an exploiter trained against the best so far joins the league (exploiters
    alone); a stopped and resumed run ends as one never stopped; the command and the file record ``--robust``."""
    assert train.worst_mean([0.9, 0.2, 0.5, 0.7], 2) == pytest.approx(0.35)
    assert train.worst_mean([0.9, 0.2], 3) == pytest.approx(0.55)
    rules, x = TINY.to_json(), Strong().model_for(TINY)
    mean = train.fitness(rules, x, x, x, 4, 11)
    worst = train.fitness(rules, x, x, x, 4, 11, robust=1)
    assert worst > mean  # minus the lowest score: its lowest is below its mean (it meets the heuristic and itself)
    generations = train.ROBUST_EVERY + 1
    whole = train.train(TINY, 3, None, generations=generations, hidden=4, robust=2, state=tmp_path / "whole", **SMALL)
    run = train.read_state(tmp_path / "whole")
    assert run.settings.robust == 2 and len(run.league) == 1 and hidden_units(run.league[0]) == 4
    assert run.league[0] != run.best.weights
    state = tmp_path / "part"
    stopped = train.train(TINY, 3, None, generations=generations, hidden=4, robust=2, state=state,
                          progress=lambda p: False if p.generation >= 2 else None, **SMALL)
    assert stopped.cancelled
    with pytest.raises(ValueError, match="--robust"):
        train.train(TINY, 3, None, generations=generations, resume=train.read_state(state), **SMALL)
    assert train.train(TINY, 3, None, generations=generations, resume=train.read_state(state), robust=2,
                       **SMALL) == whole
    out = tmp_path / "robust.json"
    assert main(["train", *TINY_ARGS, "--seed", "2", "--games", "4", "--popsize", "4", "--generations", "1",
                 "--hidden", "4", "--robust", "2", "--out", str(out)]) == 0
    assert "the mean of its 2 lowest scores" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["trained"]["robust"] == 2 and data["trained"]["command"].endswith("--hidden 4 --robust 2")


def test_a_run_resumed_without_its_options_meets_its_own_start(tmp_path):
    """A linear run under a preset whose shipped model is a network, resumed without ``--hidden`` (as the command
    resumes from a state alone), goes on against its own start, not the network those options would give: it ends
    with the weights of the run never stopped (it met the shipped network before, and ended elsewhere)."""
    options = {"games": 2, "popsize": 12}
    whole = train.train(TINY, 3, None, generations=6, hidden=0, **options)
    state = tmp_path / "part"
    train.train(TINY, 3, None, generations=6, hidden=0, state=state,
                progress=lambda p: False if p.generation >= 1 else None, **options)
    assert train.train(TINY, 3, None, generations=6, resume=train.read_state(state), **options) == whole


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
                                         (["--hidden", "-1"], "--hidden"), (["--robust", "0"], "--robust"),
                                         (["--robust", "half"], "--robust")])
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
    assert Strong().played(rules) == files.read_model(files.preset_file(rules)).played()
    assert compiled_sides(("strong-linear", "strong"), rules) == (
        Strong(linear).compiled(rules), Strong(mixture=files.read_model(files.preset_file(rules)).played()).compiled(rules))
    assert PolicySpec.parse("strong-linear").policy().name == "strong-linear"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_presets_network_records_the_commands_that_train_it_again(preset):
    """A shipped network says how it was made: trained for its preset, by ``train --hidden`` from the preset's
    linear file (by its path in the source tree), the seed and generations that give it again; a file trained
    further from the preset's own file (a robust run; its own team split, then the whole model) records each step
    before it (``start_trained``), each naming the preset's file as its start, so the steps run in order from a
    checkout give it again; a step may be an ``improve`` run from the preset's file (expert's second member; advanced's
    last, by ``--method natural``).  A
    mixture's members each so (a run from the preset's file starts from its first member), and the mixture the ``mix``
    command that forms it from them."""
    rules = Rules.preset(preset)
    model = files.read_model(files.preset_file(rules))
    assert model.trained_for == preset
    data = json.loads(files.preset_file(rules).read_text())
    if "mixture" in data:
        assert data["trained"]["command"].startswith("guyenne-explore mix ")
        assert f"--out guyenne_explore/analysis/policies/weights/{preset}.json" in data["trained"]["command"]
    members = data["mixture"]["members"] if "mixture" in data else [data]
    for member in members:
        hidden = member["network"]["hidden"]
        steps = [member["trained"]]
        while "start_trained" in steps[-1] and "--start guyenne_explore/analysis/policies/weights/linear/" not in \
                steps[-1]["command"]:
            steps.append(steps[-1]["start_trained"])
        *later, first = steps
        for step in [*later, first]:
            assert f"--rules {preset} " in step["command"]
            if step.get("method") in ("improve", "natural"):  # an improvement keeps its start's network's shape
                assert step["command"].startswith("guyenne-explore improve " if step["method"] == "improve" else
                                                  "guyenne-explore improve --method natural ") and step is not first
                assert f"--iterations {step['iterations']} " in step["command"]
            else:
                assert f"--hidden {hidden}" in step["command"]
                assert f"--generations {step['generations']} " in step["command"]
        assert first["command"].endswith(f"--start guyenne_explore/analysis/policies/weights/linear/{preset}.json")
        for step in later:
            assert step["command"].endswith(f"--start guyenne_explore/analysis/policies/weights/{preset}.json")


def test_cma_varies_a_networks_numbers_a_unit_at_a_time_and_back():
    """The numbers a run varies list the input weights a unit at a time (a file's rows), whatever the row's
    layout, and :func:`train.model_of` is their inverse: a run's search does not follow the compiled loop's layout."""
    x = train.vector(NET)
    assert len(x) == len(NET) - 1 and train.model_of(x, 8) == NET
    rows = network_json(NET[len(FEATURES):])["inputs"]
    assert list(x[len(FEATURES):len(FEATURES) + 8 * len(FEATURES)]) == [v for row in rows for v in row]
    assert train.vector(EVERY) == EVERY and train.model_of(EVERY, 0) == EVERY


# ---------------------------------------------------------------------- the learned setup discard (issue 47)
from guyenne_explore.analysis.compiled.policy_codes import DISCARD_FEATURES, HEURISTIC_DISCARD  # noqa: E402
from guyenne_explore.analysis.policies.discard import split_discard, with_discard  # noqa: E402

EXPERT = Position.start(Rules.preset("expert"))
#: discard weights that rank the discards otherwise than the heuristic (it keeps its weakest cards for bluffs and
#: mixes: a softmax over several discards)
DISCARD = (-0.3, -0.4, 0.25)


@pytest.mark.parametrize("model", [with_discard(NET, DISCARD), with_discard(EVERY, DISCARD)])
@pytest.mark.parametrize("names", [("strong", "strong"), ("heuristic", "strong")])
def test_the_compiled_discard_is_the_python_discard(model, names):
    """Expert games with a model's own discard weights (a network's and a linear model's), replayed through the
    engine: every decision of strong, its setup discard included, is the Python twin's from the same random
    number."""
    from guyenne_explore.analysis.compiled.layout import SETUP

    totals = [r[4] for index in range(3) for r in traced(EXPERT, 23, index, sides_of(names, model))[0]
              if r[0] == SETUP and names[r[1]] == "strong"]
    assert min(totals) > 1000  # a softmax over several discards, where the heuristic's weighs one alone (1000)
    assert sum(replay(EXPERT, names, 23, index, model) for index in range(3)) > 10


def test_a_model_without_discard_weights_discards_as_the_heuristic():
    """A model without discard weights (every shipped file) weighs the setup discard as the heuristic does, the
    Python and compiled policies alike; its own weights change the discard."""
    view = EXPERT.view(EXPERT.side_to_play)
    # (expert's shipped mixture weighs its members' equal distributions together: the same shares, other numbers)
    assert Strong(NET).distribution(view) == Strong().distribution(view) == Heuristic().distribution(view)
    assert Strong(with_discard(NET, DISCARD)).weights(view) != Heuristic().weights(view)
    assert split_discard(Strong().model_for(EXPERT.rules))[1] == ()
    for index in range(4):
        plain = traced(EXPERT, 29, index, sides_of(("strong", "heuristic"), NET))[0]
        as_heuristic = traced(EXPERT, 29, index, sides_of(("heuristic", "heuristic"), NET))[0]
        assert [r for r in plain if r[0] == 0] == [r for r in as_heuristic if r[0] == 0]
    assert Strong(with_discard(NET, HEURISTIC_DISCARD)).weights(view) == Heuristic().weights(view)


def test_a_discard_round_trips_through_a_file_and_bad_discard_weights_are_refused(tmp_path):
    path = tmp_path / "net.json"
    model = with_discard(NET, DISCARD)
    files.write_model(path, model, {"command": "test"}, "expert")
    data = json.loads(path.read_text())
    assert data["discard"] == dict(zip(DISCARD_FEATURES, DISCARD)) and files.read_model(path).weights == model
    linear = with_discard(EVERY, DISCARD)
    files.write_model(path, linear, {"command": "test"}, "expert")
    assert files.read_model(path).weights == linear and "network" not in json.loads(path.read_text())
    for bad, words in (({"worth": "much"}, "discard.worth must be a finite number, not 'much'"),
                       ({"worth": True}, "discard.worth must be a finite number"),
                       ({"worth": -1.0, "bluff": 1.0}, "discard.bluff is not one of its features"),
                       ([-1.0, 0.0, 0.0], "'discard' must be an object of its features")):
        path.write_text(json.dumps(dict(data, discard=bad)))
        with pytest.raises(ValueError, match=words):
            files.read_model(path)
    with pytest.raises(ValueError, match="a discard's numbers must be their count"):
        checked_weights(None, list(model[:-1]))
    with pytest.raises(ValueError, match="weight of the discard must be a finite number"):
        checked_weights(None, list(model[:-1]) + [float("inf")])


def test_training_under_expert_includes_the_discard_and_under_advanced_not(tmp_path):
    """A run under rules with a setup discard varies the discard's weights too when asked (``--discard``), from the
    heuristic's (so its start plays exactly as before), and writes them and the flag in its command; not asked, it
    leaves them out (so a network trained before the learned discard is trained again by its recorded command);
    under rules without one it leaves them out, even from a start that has them."""
    assert train.check_training(EXPERT.rules, 3, None, 1, hidden=0, **SMALL).x0 == Strong().model_for(
        EXPERT.rules)[:len(FEATURES)]
    expert = train.check_training(EXPERT.rules, 3, None, 1, hidden=0, discard=True, **SMALL)
    assert split_discard(expert.x0)[1] == HEURISTIC_DISCARD
    assert train.vector(expert.x0) == expert.x0[:len(FEATURES)] + HEURISTIC_DISCARD
    assert train.model_of(train.vector(expert.x0), 0, 3) == expert.x0
    assert train.model_of(train.vector(with_discard(NET, DISCARD)), 8, 3) == with_discard(NET, DISCARD)
    advanced = train.check_training(Rules.preset("advanced"), 3, None, 1, start_from=with_discard(NET, DISCARD),
                                    **SMALL)
    assert advanced.x0 == NET and len(train.vector(advanced.x0)) == len(NET) - 1
    result = train.train(EXPERT.rules, 3, None, generations=1, hidden=0, discard=True, **SMALL)
    assert train.discard_count(result.weights) == len(DISCARD_FEATURES)
    train.write_weights(tmp_path / "expert.json", result, "expert", 3, SMALL["games"])
    written = json.loads((tmp_path / "expert.json").read_text())
    assert set(written["discard"]) == set(DISCARD_FEATURES) and written["trained"]["command"].endswith("--discard")
