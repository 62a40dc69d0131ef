"""Training the learned policy: reproducible by seed, resumable, cancellable, the same on a cluster; weights
files by feature name, one a preset, and strong@FILE for weights trained for a variant."""

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from guyenne_explore.analysis.compiled.policy_codes import FEATURES
from guyenne_explore.analysis.policies import train
from guyenne_explore.analysis.policies import weights as files
from guyenne_explore.analysis import PolicySpec
from guyenne_explore.analysis.policies.strong import Strong, load_weights
from guyenne_explore.cli import main
from guyenne_explore.engine.rules import PRESETS, Rules

#: a tiny variant: five cards a hand, short games
TINY = Rules.from_json({"preset": "advanced", "hand_size": 5})
TINY_ARGS = ["--rules", "advanced", "--vary", "hand_size=5"]
SMALL = {"games": 4, "popsize": 4}


def test_a_tiny_training_run_is_reproducible(tmp_path):
    runs = [train.train(TINY, 3, None, generations=2, state=tmp_path / f"s{i}", **SMALL) for i in range(2)]
    assert runs[0] == runs[1] and runs[0].generations == 2 and not runs[0].cancelled
    means = [list(train.read_state(tmp_path / f"s{i}").es.mean) for i in range(2)]
    assert means[0] == means[1]
    train.train(TINY, 4, None, generations=2, state=tmp_path / "other", **SMALL)
    assert list(train.read_state(tmp_path / "other").es.mean) != means[0]  # another seed, another search
    out = tmp_path / "w.json"
    train.write_weights(out, runs[0], "advanced", 3, 4, popsize=4)
    assert load_weights(out) == runs[0].weights
    data = json.loads(out.read_text())
    assert list(data["weights"]) == list(FEATURES)  # each weight named by its feature
    assert data["trained"]["seed"] == 3 and data["trained"]["generations"] == 2
    assert "--generations 2" in data["trained"]["command"]
    assert data["trained"]["started_from"].startswith("weights/advanced.json of guyenne_explore ")


def test_the_time_left_waits_for_a_pace_the_workers_start_does_not_make():
    # the first generation also starts the workers: no time left from it alone, then the mean pace after it
    seen: dict[int, float | None] = {}
    train.train(TINY, 3, None, generations=4, progress=lambda p: seen.setdefault(p.generation, p.seconds_left),
                **SMALL)
    assert seen[0] is None and seen[1] is None
    assert seen[2] is not None and seen[3] is not None and seen[3] >= 0


@pytest.mark.parametrize("robust", [0, 1])
def test_the_time_left_counts_the_games_of_each_generation_the_league_s_growth_included(monkeypatch, robust):
    # a network's league grows every few generations by an exploiter trained for many (a robust run's, for 300): a
    # pace read from the generations before would plan several times the generations that fit; the run counts
    # each generation's games, as these played them
    played = [0]
    real = train.play_summaries

    def counted(start, games, seed, **kwargs):
        played[0] += games
        return real(start, games, seed, **kwargs)

    monkeypatch.setattr(train, "play_summaries", counted)
    at: dict[int, int] = {}
    every = train.ROBUST_EVERY if robust else train.LEAGUE_EVERY
    train.train(TINY, 3, None, generations=every, hidden=2, robust=robust, games=2, popsize=4,
                progress=lambda p: at.setdefault(p.generation, played[0]))
    at[every] = played[0]
    for g in range(every):
        assert at[g + 1] - at[g] == train.games_of_generation(g, 2, 4, 2, robust), g
    for first, last in ((0, 3), (7, 205), (150, 171), (400, 1000)):  # summed in closed form once the league is full
        assert train.games_between(first, last, 2, 4, 2, robust) == sum(
            train.games_of_generation(g, 2, 4, 2, robust) for g in range(first, last))
    full = 100 * every  # the league full: a cycle of growth plays the plan's games (its share rounded down)
    assert sum(train.games_of_generation(g, 2, 4, 2, robust) for g in range(full, full + every)) == pytest.approx(
        every * train.games_a_generation(2, 4, 2, robust), abs=every)


def test_a_run_without_start_adapts_the_weights_strong_plays_under_the_rules():
    from guyenne_explore.analysis.policies.discard import split_discard

    for rules in (TINY, Rules.preset("team3", hand_size=5), Rules.preset("expert")):
        settings = train.check_training(rules, 1, None, 1, **SMALL)
        # the variant's preset's weights, not a fresh start (under expert, with the heuristic's discard to train)
        assert split_discard(settings.x0)[0] == Strong().model_for(rules)
    assert train.check_training(TINY, 1, None, 1, start_from={"gain": 2.0}, **SMALL).x0 == tuple(
        2.0 if n == "gain" else 0.0 for n in FEATURES)


def test_the_command_trains_the_same_weights_for_the_same_seed(tmp_path, capsys):
    outs = []
    for name in ("a.json", "b.json"):
        code = main(["train", *TINY_ARGS, "--seed", "2", "--generations", "2", "--games", "4", "--popsize", "4",
                     "--out", str(tmp_path / name), "--json"])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        assert "training strong for" in captured.err  # the cost, before it starts
        assert captured.err.index("training strong for") < captured.err.index(" left")  # then progress, time left
        outs.append(json.loads(captured.out))
    assert outs[0]["weights"] == outs[1]["weights"] and outs[0]["generations"] == 2
    assert outs[0]["policy"] == f"strong@{tmp_path / 'a.json'}"
    assert files.read_model(tmp_path / "a.json").trained_for == json.dumps(TINY.to_json(), separators=(",", ":"))


@pytest.mark.parametrize("args, field", [
    (["--rules", "nonsense"], "nonsense"),
    (["--rules", "advanced", "--vary", "hand_size=many"], "--vary"),
    (["--rules", "advanced", "--vary", "hand_size=5:7"], "--vary hand_size"),
    (["--rules", "advanced", "--vary", "colour=red"], "colour"),
    (["--rules", "advanced", "--minutes", "0"], "--minutes"),
    (["--rules", "advanced", "--minutes", "-3"], "--minutes"),
    (["--rules", "advanced", "--minutes", "nan"], "--minutes"),
    (["--vary", "hand_size=5"], "--rules"),
])
def test_the_command_refuses_bad_input_naming_the_field(tmp_path, capsys, args, field):
    code = main(["train", *args, "--out", str(tmp_path / "w.json")])
    err = capsys.readouterr().err
    assert code == 1
    assert field in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "w.json").exists()


def test_a_weights_file_of_other_features_is_refused_by_name(tmp_path, capsys):
    other = tmp_path / "other.json"
    named = dict(zip(FEATURES, [0.5] * len(FEATURES)))
    named["bluff"] = named.pop("gain")  # a model trained when a feature had another name
    other.write_text(json.dumps({"weights": named}))
    with pytest.raises(ValueError, match="missing gain; unknown bluff.*retrain"):
        files.read_model(other)
    with pytest.raises(ValueError, match="retrain"):
        PolicySpec.parse(f"strong@{other}").policy()
    assert main(["train", "--rules", "advanced", "--start", str(other), "--out", str(tmp_path / "w.json")]) == 1
    assert "bluff" in capsys.readouterr().err
    assert main(["analyse", "--rules", "advanced", "--policies", f"strong@{other}", "--samples", "10"]) == 1
    assert "retrain" in capsys.readouterr().err
    listed = tmp_path / "listed.json"  # the weights as a bare list: no names, refused
    listed.write_text(json.dumps({"features": list(FEATURES), "weights": [0.0] * len(FEATURES)}))
    with pytest.raises(ValueError, match="feature names"):
        files.read_model(listed)
    assert main(["train", "--resume", str(listed)]) == 1
    assert "--resume" in capsys.readouterr().err


def test_cancel_stops_training_at_once_keeping_the_best(tmp_path):
    stop, began = threading.Event(), threading.Event()
    asked: list[train.TrainingProgress] = []

    def progress(p):
        asked.append(p)
        if p.generation >= 1 and p.candidate >= 2:  # inside the second generation
            began.set()
        return False if stop.is_set() else None

    result: list[train.Trained] = []
    worker = threading.Thread(target=lambda: result.append(
        train.train(TINY, 1, None, games=20, popsize=6, generations=100_000, progress=progress)))
    worker.start()
    assert began.wait(120)
    stop.set()
    set_at = time.monotonic()
    worker.join(60)
    assert not worker.is_alive()
    assert time.monotonic() - set_at < 2  # one candidate's 120 games at most
    (trained,) = result
    assert trained.cancelled and trained.generations < 100_000
    assert len(trained.weights) == len(Strong().model_for(TINY)) and 0 <= trained.score <= 1  # its start's model
    assert asked[0].popsize == 6 and asked[0].generations == 100_000


def test_a_run_stopped_and_resumed_ends_as_one_never_stopped(tmp_path):
    whole = train.train(TINY, 5, None, generations=4, **SMALL)
    state = tmp_path / "run.state"
    stopped = train.train(TINY, 5, None, generations=4, state=state,
                          progress=lambda p: False if p.generation >= 2 else None, **SMALL)
    assert stopped.cancelled and stopped.generations == 2
    resumed = train.train(TINY, 5, None, generations=4, resume=train.read_state(state), **SMALL)
    assert resumed == whole
    with pytest.raises(ValueError, match="--seed"):
        train.train(TINY, 6, None, generations=4, resume=train.read_state(state), **SMALL)


def test_the_command_resumes_a_run_to_the_weights_of_an_unstopped_one(tmp_path, capsys):
    common = [*TINY_ARGS, "--seed", "4", "--games", "4", "--popsize", "4", "--json"]
    assert main(["train", *common, "--generations", "3", "--out", str(tmp_path / "whole.json")]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(["train", *common, "--generations", "1", "--out", str(tmp_path / "part.json")]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", str(tmp_path / "part.json.state"), "--generations", "3", "--json",
                 "--out", str(tmp_path / "part.json")]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["weights"] == whole["weights"] and resumed["generations"] == 3
    # a run from a --start file resumes from its state alone (it was refused: "started from other weights")
    start = ["--start", str(files.preset_file(TINY, linear=True))]
    assert main(["train", *common, *start, "--generations", "2", "--out", str(tmp_path / "from.json")]) == 0
    from_start = json.loads(capsys.readouterr().out)
    assert main(["train", *common, *start, "--generations", "1", "--out", str(tmp_path / "again.json")]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", str(tmp_path / "again.json.state"), "--generations", "2", "--json",
                 "--out", str(tmp_path / "again.json")]) == 0
    assert json.loads(capsys.readouterr().out)["weights"] == from_start["weights"]


def test_a_pool_and_a_dask_cluster_train_the_same_weights_as_this_process(tmp_path):
    def trained(name, executor=None):
        result = train.train(TINY, 7, None, generations=2, executor=executor, state=tmp_path / name, **SMALL)
        return result, list(train.read_state(tmp_path / name).es.mean)  # the search itself, not only the best

    here = trained("here")
    with ThreadPoolExecutor(2) as pool:
        assert trained("pool", pool) == here
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert trained("dask", client.get_executor()) == here


def test_each_preset_plays_its_own_file_and_a_variant_that_of_the_preset_it_was_made_from():
    for name in PRESETS:
        model = files.read_model(files.WEIGHTS_DIR / f"{name}.json")
        assert Strong().model_for(Rules.preset(name)) == model.weights
        assert model.trained["command"] and model.trained_for  # how to make it again, and for which rules
    assert files.preset_file(TINY) == files.WEIGHTS_DIR / "advanced.json"
    assert Strong().model_for(TINY) == load_weights(files.WEIGHTS_DIR / "advanced.json")
    for name in ("team3", "classic2021", "expert"):
        variant = Rules.preset(name, hand_size=5)
        assert files.preset_of(variant) is None
        assert Strong().model_for(variant) == load_weights(files.WEIGHTS_DIR / f"{name}.json")
    assert files.preset_file(None) == files.WEIGHTS_DIR / f"{files.FALLBACK}.json"


def test_strong_at_a_file_plays_its_weights_on_the_compiled_path(tmp_path):
    from guyenne_explore.analysis import plan

    out = tmp_path / "w.json"
    weights = tuple(float(i) / 10 for i in range(len(FEATURES)))
    files.write_model(out, weights, {"seed": 0}, "advanced")
    assert PolicySpec.parse(f"strong@{out}").policy().model == weights
    chosen = plan(train.Position.start(TINY), (f"strong@{out}", "heuristic"), "sample", games=10)
    assert chosen.sampler is not None and chosen.sampler.name == "COMPILED"
    with pytest.raises(ValueError, match="strong@FILE"):
        PolicySpec.parse("strong@").policy()
    assert files.cache_file(TINY) != files.cache_file(Rules.preset("advanced"))


def test_ctrl_c_exits_130_with_a_state_that_resumes(tmp_path, capsys, monkeypatch):
    common = [*TINY_ARGS, "--seed", "8", "--games", "4", "--popsize", "4", "--generations", "3", "--json"]
    assert main(["train", *common, "--out", str(tmp_path / "whole.json")]) == 0
    whole = json.loads(capsys.readouterr().out)
    scored, real = [], train.fitness

    def interrupted(*args):
        scored.append(1)
        if len(scored) == 6:  # in the second generation, as Ctrl-C would
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(train, "fitness", interrupted)
    assert main(["train", *common, "--out", str(tmp_path / "part.json")]) == 130
    err = capsys.readouterr().err
    assert "--resume" in err and not (tmp_path / "part.json").exists()
    monkeypatch.setattr(train, "fitness", real)
    assert main(["train", "--resume", str(tmp_path / "part.json.state"), "--generations", "3", "--json",
                 "--out", str(tmp_path / "part.json")]) == 0
    assert json.loads(capsys.readouterr().out)["weights"] == whole["weights"]


def tiny_training(training, monkeypatch):
    """A panel's training made tiny (one iteration of 200 games, its matches a few hundred games)."""
    from guyenne_explore.analysis.policies import natural

    for name, value in (("MATCH_GAMES", 150), ("VALIDATION_GAMES", 150), ("STEPS", 3)):
        monkeypatch.setattr(natural, name, value)
    training.iterations, training.games = 1, 200


def test_the_variant_lab_shows_the_cost_before_training_then_plays_the_trained_weights(tmp_path, monkeypatch):
    from guyenne_explore.engine.position import Position
    from guyenne_explore.widgets.training import TRAINED
    from guyenne_explore.widgets.variant_lab import VariantLab

    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path))
    lab = VariantLab(Position.start(Rules.preset("advanced")))
    lab.editors["hand_size"].value = "5"
    assert lab.variant == TINY
    assert not lab.training.box.children  # no Train nor second Cancel on the page until the option is chosen
    tiny_training(lab.training, monkeypatch)
    lab.english_policy.value = TRAINED
    assert lab.training.box.children == lab.training.parts
    words = lab.training.cost.value
    assert "Training strong for this variant takes" in words and "at the pace measured here" in words  # the cost, first
    assert lab.training.controls.progress.value == 0 and not lab.training.controls.running
    assert not files.cache_file(TINY).exists()
    assert lab._settings(2) is None and "not trained" in lab.controls.status.value  # refused, not run untrained
    lab.training.train(block=True)
    assert files.cache_file(TINY).exists() and "Trained" in lab.training.controls.status.value
    assert "is trained for this variant" in lab.training.cost.value
    settings = lab._settings(2)
    assert settings is not None and settings["policies"] == (f"strong@{files.cache_file(TINY)}", "uniform")


def test_the_skill_tab_offers_strong_and_strong_trained_and_cancel_stops_its_training(tmp_path, monkeypatch):
    from guyenne_explore.widgets.skill_panel import SkillPanel
    from guyenne_explore.widgets.starts import opening

    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path))
    panel = SkillPanel(opening("advanced", 1))
    panel.uniform.value = panel.heuristic.value = panel.search.value = False
    panel.strong.value = True
    assert panel.levels == ["strong"]
    training = panel.training
    training.iterations, training.games = 4, 200_000  # long: cancelled below
    panel.strong_trained.value = True
    assert "Training strong for this variant takes" in training.cost.value and training.controls.progress.value == 0
    # advanced ships weights trained for it: until weights are trained here, the option plays them (once)
    assert panel.levels == ["strong"]
    training.train(block=False)
    assert panel.run_button.disabled and training.busy  # one run at a time on the cores
    deadline = time.monotonic() + 120
    while training.controls.progress.value < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert training.controls.progress.value >= 2 and training.controls.left.value  # its games, with the time left
    training.controls.cancel()
    training.controls.thread.join(60)
    assert not training.controls.running
    assert "cancelled" in training.controls.status.value.lower()
    assert not files.cache_file(Rules.preset("advanced")).exists()  # no weights from a cancelled run
    assert not training.train_button.disabled and not panel.run_button.disabled  # Train starts again; Run runs
    assert training.controls.status.value.startswith("Training cancelled during its first iteration: nothing is kept")
    assert "A cancelled run of" not in training.cost.value  # (a run is kept after each iteration)


def test_the_validation_measures_a_mean_against_the_heuristic_and_the_start():
    """A start that already beats the heuristic nearly always still has room to show a better mean: the
    validation averages the heuristic's games with games against the start (where the start itself scores
    about one half, far from the ceiling)."""
    from guyenne_explore.engine import Position
    from guyenne_explore.analysis.policies.heuristic import Heuristic

    start = Position.start(TINY)
    shipped = files.shipped(files.preset_file(Rules.from_json("advanced")))
    settings = train.check_training(TINY, 3, None, 1, games=20, popsize=4, start_from=dict(zip(FEATURES, shipped)))
    against_heuristic = train.score(start, settings.x0, Heuristic().compiled(), 40, 3 + train.VALIDATION)
    against_start = train.score(start, settings.x0, Strong(settings.x0).compiled(), 40, 3 + train.VALIDATION)
    assert against_heuristic > 0.9 and 0.3 < against_start < 0.7
    assert train.validation(start, settings.x0, settings) == pytest.approx((against_heuristic + against_start) / 2)


def test_without_cma_the_command_says_which_extra_installs_it(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cma" else real(name, *a))
    assert main(["train", "--rules", "advanced", "--generations", "1"]) == 1
    err = capsys.readouterr().err
    assert "cma package, which the train extra installs" in err and "Traceback" not in err


def test_a_robust_run_judges_its_models_by_the_gauntlets_compiled_counters_too():
    """What was written to read or bully a policy counts among its lowest scores where it does: the robust run's
    judges end with the five compiled counters, the heuristic's numbers and each one's idea."""
    from guyenne_explore.analysis.compiled.policy_codes import COUNTER, IDEAS, P_IDEA

    rules = Rules.from_json("advanced")
    start = Strong().model_for(rules)
    judges = train.robust_judges(start, [start], Strong(linear=True).model_for(rules))
    counters = [j for j in judges if j.code == COUNTER]
    assert [j.params[P_IDEA] for j in counters] == list(range(len(IDEAS)))
    assert len(judges) == 4 + len(IDEAS)  # the heuristic, strong-linear, the start, one exploiter, the counters
