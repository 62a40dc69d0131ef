"""A panel's training of strong for a variant: Train runs the generations its cost promised, and what it shows
follows a language switch made while it was hidden.  The training itself is replaced by a stand-in here
(tests/test_train.py trains for real)."""

from types import SimpleNamespace

import pytest

from guyenne_explore.analysis.policies.train import Cost
from guyenne_explore.i18n import set_language
from guyenne_explore.engine.rules import Rules
from guyenne_explore.widgets import training as module
from guyenne_explore.widgets.training import StrongTraining

TINY = Rules.from_json({"preset": "advanced", "hand_size": 5})


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """Each measure of the cost finds a different pace (7 generations, then 99...); ``asked`` records the
    generations each training was asked for, and every training is cancelled after 3."""
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path))
    paces = iter([7, 99, 99, 99])
    monkeypatch.setattr(module, "estimate_training", lambda *a, **k: Cost(1_200, 3_456.0, next(paces), 600.0))
    monkeypatch.setattr(module, "local_cores", lambda: 1)
    asked: list[int] = []

    def train(*args, generations, **kwargs):
        asked.append(generations)
        return SimpleNamespace(cancelled=True, generations=3)

    monkeypatch.setattr(module, "train", train)
    return asked


def test_train_runs_the_generations_its_cost_showed(stand_in):
    training = StrongTraining()
    training.show(TINY, True)
    assert "7 generations of 1,200 games, at 3,456 games a second" in training.cost.value
    training.train(block=True)
    assert stand_in == [7]  # not a second measure's 99
    assert "cancelled after 3 generations" in training.controls.status.value


def test_a_language_switch_while_hidden_reaches_the_training_once_shown(stand_in):
    training = StrongTraining()
    training.show(TINY, True)
    training.train(block=True)
    training.show(TINY, False)  # hidden: the switch's relabelling of the page does not reach it
    previous = set_language("fr")
    try:
        training.show(TINY, True)
        assert training.controls.cancel_button.description == "Annuler"
        assert training.controls.status.value.startswith("Entraînement annulé après 3 générations")
        assert "1\u202f200 parties" in training.cost.value or "1\u00a0200 parties" in training.cost.value
    finally:
        set_language(previous)


def test_a_preset_with_its_own_shipped_weights_says_so_before_the_cost(stand_in):
    # advanced and team ship weights trained for them; a variant has none
    training = StrongTraining()
    for preset in ("advanced", "team"):
        training.show(Rules.preset(preset), True)
        assert training.cost.value.startswith(f"Strong already plays the weights trained for the preset {preset}")
        assert " generations of 1,200 games" in training.cost.value  # training again stays possible, its cost said
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
    assert "cancelled after 3 generations" in training.controls.status.value


def test_a_kept_cancelled_run_is_said_before_train(stand_in, monkeypatch):
    training = StrongTraining()
    training.show(TINY, True)
    assert "cancelled run" not in training.cost.value
    training.state.parent.mkdir(parents=True, exist_ok=True)
    training.state.write_bytes(b"a run")
    monkeypatch.setattr(module, "read_state", lambda path: SimpleNamespace(generation=5))
    training.show(TINY, True)
    assert "A cancelled run of 5 generations is kept for this variant: Train continues it." in training.cost.value


def test_the_trained_option_plays_a_presets_shipped_weights_until_trained_here(stand_in):
    training = StrongTraining()
    training.show(Rules.preset("advanced"), True)
    assert training.policy() == "strong"
    training.show(TINY, True)  # a variant: nothing to play until trained
    assert training.policy() is None
    training.file.parent.mkdir(parents=True, exist_ok=True)
    training.file.write_text("{}")
    assert training.policy() == f"strong@{training.file}"


def test_the_variant_lab_runs_nothing_else_while_strong_trains(stand_in, monkeypatch):
    import threading

    from guyenne_explore.engine.position import Position
    from guyenne_explore.widgets.training import TRAINED
    from guyenne_explore.widgets.variant_lab import VariantLab

    release = threading.Event()
    monkeypatch.setattr(module, "train", lambda *a, **k: release.wait(30) and SimpleNamespace(cancelled=True, generations=1))
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
