"""A panel's training of strong for a variant: Train runs the iterations its cost promised at the pace it showed,
continues a cancelled run, and what it shows follows a language switch made while it was hidden.  The training is
replaced by a stand-in in most tests here; one trains for real, its matches cut short (tests/test_natural.py tests
the method itself)."""

import json
from types import SimpleNamespace

import pytest

from guyenne_explore.analysis.policies import natural as nt
from guyenne_explore.analysis.policies.train import Trained, default_start
from guyenne_explore.i18n import set_language
from guyenne_explore.engine.rules import Rules
from guyenne_explore.widgets import training as module
from guyenne_explore.widgets.training import StrongTraining

TINY = Rules.from_json({"preset": "advanced", "hand_size": 5})


def _cancelled_after(state, iterations):
    """A run's state saved after ``iterations`` iterations, as a cancelled run leaves it."""
    rules = Rules.from_json({"preset": "advanced", "hand_size": 5})
    run = nt.NaturalRun(nt.NaturalSettings(rules.to_json(), 1, 200_000, default_start(rules)), iterations)
    state.parent.mkdir(parents=True, exist_ok=True)
    run.save(state)


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """Each measure of the pace finds another (30 s an iteration, then 99 s...); ``asked`` records the iterations
    each training was asked for and the pace it was given, and every training is cancelled after 3 iterations."""
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path))
    monkeypatch.setattr(module, "_PACES", {})  # no pace measured by another test
    paces = iter([30.0, 99.0, 99.0, 99.0])
    monkeypatch.setattr(module, "natural_iteration_seconds", lambda *a, **k: next(paces))
    asked: list[tuple[int, float]] = []

    def natural(rules, seed, iterations, games, *, state, pace, **kwargs):
        asked.append((iterations, pace))
        _cancelled_after(state, 3)
        return Trained(default_start(rules), 0.5, 3, True)

    monkeypatch.setattr(module, "natural", natural)
    return asked


def test_train_runs_the_iterations_its_cost_showed_at_the_pace_it_showed(stand_in):
    training = StrongTraining()
    training.show(TINY, True)
    assert ("Training strong for this variant takes about 2 minutes on one core: 4 iterations of 200,000 of its own "
            "games") in training.cost.value
    training.train(block=True)
    assert stand_in == [(4, 30.0)]  # not a second measure's 99 s
    assert "cancelled after 3 iterations" in training.controls.status.value
    bar = training.controls.progress  # at what the run keeps, 3 of its 4 iterations' games
    assert (bar.value, bar.max, bar.description) == (600_000, 800_000, "600,000/800,000 games")
    assert "A cancelled run of 3 iterations is kept for this variant: Train continues it." in training.cost.value
    # what is left, at the pace measured once: a cost that changed at each showing told nothing (a Cancel, a language
    # switch; 5 to 15 minutes for one variant on a loaded machine)
    assert "takes about 30 seconds on one core: 1 iteration of" in training.cost.value
    other = StrongTraining()  # the other panel's training says the same
    other.show(TINY, True)
    assert other.cost.value == training.cost.value
    training.train(block=True)
    assert stand_in[-1][0] == 4  # the promised iterations, counted from the run's start


def test_a_language_switch_while_hidden_reaches_the_training_once_shown(stand_in):
    training = StrongTraining()
    training.show(TINY, True)
    training.train(block=True)
    training.show(TINY, False)  # hidden: the switch's relabelling of the page does not reach it
    previous = set_language("fr")
    try:
        training.show(TINY, True)
        assert training.controls.cancel_button.description == "Annuler"
        assert training.controls.status.value.startswith("Entraînement annulé après 3 itérations")
        assert "200\u202f000 de ses propres parties" in training.cost.value
    finally:
        set_language(previous)


def test_a_preset_with_its_own_shipped_weights_says_so_before_the_cost(stand_in):
    # advanced and team ship weights trained for them; a variant has none
    training = StrongTraining()
    for preset in ("advanced", "team"):
        training.show(Rules.preset(preset), True)
        assert training.cost.value.startswith(f"These are the rules of the preset {preset}: strong already plays "
                                              "weights trained for them")
        assert " iterations of 200,000 of its own games" in training.cost.value  # training again stays possible
    training.show(TINY, True)
    assert training.cost.value.startswith("Training strong for this variant takes")


def test_a_run_in_the_background_gives_train_back_when_it_ends(stand_in):
    # the run reports its end from its own thread, still alive then: Train must come back all the same
    training = StrongTraining()
    told: list[bool] = []
    training.on_busy = told.append
    training.show(TINY, True)
    training.train(block=False)
    training.controls.thread.join(30)
    assert told == [True, False] and not training.busy
    assert not training.train_button.disabled
    assert "cancelled after 3 iterations" in training.controls.status.value


def test_a_kept_run_that_cannot_be_continued_says_why_before_train(stand_in):
    training = StrongTraining()
    training.show(TINY, True)
    assert "cancelled run" not in training.cost.value
    training.state.parent.mkdir(parents=True, exist_ok=True)
    training.state.write_text("a run")
    training.show(TINY, True)
    assert training.cost.value.startswith("A saved run cannot be continued: --resume: ")


def test_the_trained_option_plays_a_presets_shipped_weights_until_trained_here(stand_in):
    training = StrongTraining()
    training.show(Rules.preset("advanced"), True)
    assert training.policy() == "strong"
    training.show(TINY, True)  # a variant: nothing to play until trained
    assert training.policy() is None
    training.file.parent.mkdir(parents=True, exist_ok=True)
    training.file.write_text("{}")
    assert training.policy() == f"strong@{training.file}"


def test_weights_trained_by_an_earlier_version_are_said_as_it_trained_them():
    said = StrongTraining._record({"generations": 40, "seed": 1, "validation_score": 0.61})
    assert said.startswith("Strong is trained for this variant (40 generations, seed 1, score 0.61 against the heuristic")
    said = StrongTraining._record({"method": "natural", "iterations": 4, "seed": 1, "league_score": 0.83})
    assert said.startswith("Strong is trained for this variant (4 iterations of the natural gradient of its own games, "
                           "seed 1, score 0.83 against its league")
    assert "strong-linear and the heuristic)" in said  # written before the counters joined the league
    now = StrongTraining._record({"method": "natural", "iterations": 1, "seed": 1, "league_score": 0.9,
                                  "league": list(nt.LEAGUE_NAMES)})
    assert "1 iteration of" in now and "the heuristic and the counters)" in now


def test_the_cost_says_it_is_being_measured_while_the_pace_is_timed(monkeypatch, tmp_path):
    """The pace is timed on games when the option is chosen: meanwhile the line says so (it stayed empty for
    seconds beside the Train button), then gives the cost."""
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path))
    monkeypatch.setattr(module, "_PACES", {})
    training = StrongTraining()
    seen: list[str] = []
    monkeypatch.setattr(module, "natural_iteration_seconds", lambda *a, **k: seen.append(training.cost.value) or 30.0)
    training.show(TINY, True)
    assert len(seen) == 1 and "Measuring how fast the training runs here" in seen[0]
    assert "takes about 2 minutes on one core" in training.cost.value and "Measuring" not in training.cost.value


def test_a_training_cancelled_in_its_first_iteration_empties_its_bar(stand_in, monkeypatch):
    """Nothing is kept, so the bar shows no count: it stayed at the games played when Cancel was pressed."""
    training = StrongTraining()
    training.show(TINY, True)

    def natural(*args, progress, **kwargs):
        progress(SimpleNamespace(iteration=0, game=40_000, seconds=5.0, seconds_left=20.0))
        return SimpleNamespace(cancelled=True)

    monkeypatch.setattr(module, "natural", natural)
    training.train(block=True)
    bar = training.controls.progress
    assert "Training cancelled during its first iteration" in training.controls.status.value
    assert bar.value == 0 and bar.description.strip() == "" and training.controls.left.value == ""
    assert bar.layout.visibility == "hidden"  # no bar at all, as before any run


def test_a_bar_shows_only_while_a_run_has_one():
    """Before any run, no grey bar under the buttons (its room kept); a run shows it, and keeps it when done; a run
    refused before it played anything hides it again."""
    from guyenne_explore.widgets.run_controls import RunControls

    controls = RunControls()
    assert controls.progress.layout.visibility == "hidden"
    controls.start("Playing...", compile_first=False)
    controls.callback(3, 10)
    assert controls.progress.layout.visibility == "visible" and controls.progress.description == "3/10 games"
    controls.finish(True)
    assert controls.progress.layout.visibility == "visible"
    controls.reset()
    assert controls.progress.layout.visibility == "hidden"


def test_the_variant_lab_runs_nothing_else_while_strong_trains(stand_in, monkeypatch):
    import threading

    from guyenne_explore.engine.position import Position
    from guyenne_explore.widgets.training import TRAINED
    from guyenne_explore.widgets.variant_lab import VariantLab

    release = threading.Event()
    monkeypatch.setattr(module, "natural", lambda *a, **k: release.wait(30) and SimpleNamespace(cancelled=True))
    lab = VariantLab(Position.start(Rules.preset("advanced")))
    lab.editors["hand_size"].value = "5"
    lab.english_policy.value = TRAINED
    assert not lab.compare_button.disabled
    lab.training.train(block=False)
    assert lab.compare_button.disabled and lab.sweep_button.disabled
    lab.english_policy.value = "heuristic"  # a choice made meanwhile does not give them back
    assert lab.compare_button.disabled
    release.set()
    lab.training.controls.thread.join(30)
    assert not lab.compare_button.disabled and not lab.training.train_button.disabled


def test_a_real_training_writes_weights_the_panels_play_and_train_again_adds_iterations(monkeypatch, tmp_path):
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path))
    for name, value in (("MATCH_GAMES", 150), ("VALIDATION_GAMES", 150), ("STEPS", 3)):
        monkeypatch.setattr(nt, name, value)
    training = StrongTraining()
    training.iterations, training.games = 1, 200
    training.show(TINY, True)
    training.train(block=True)
    trained = json.loads(training.file.read_text())["trained"]
    assert training.controls.status.value == (  # what the run kept, said
        "Trained: strong plays its weights for this variant." if trained["best_iteration"] else
        "Trained: no iteration scored better against the league than the starting weights, which strong plays for this "
        "variant.")
    assert trained["method"] == "natural" and trained["iterations"] == 1 and "--method natural" in trained["command"]
    assert training.policy() == f"strong@{training.file}"
    assert training.cost.value.startswith("Strong is trained for this variant (1 iteration of the natural gradient")
    training.train(block=True)  # Train again: one iteration more, from the run kept
    assert json.loads(training.file.read_text())["trained"]["iterations"] == 2
