"""``benchmarks/bench_natural.py``: its compatible features are ``grad log pi`` of the move drawn (checked against
finite differences, through a network's rectified units), its regression finds a planted advantage, and a perturbation
names a feature."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from guyenne_explore.analysis.compiled.policy_codes import FEATURES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_natural as bn  # noqa: E402
import bench_network  # noqa: E402

from guyenne_explore.analysis.compiled.recording import recorded_games  # noqa: E402
from guyenne_explore.analysis.policies.improvement import _vector  # noqa: E402
from guyenne_explore.analysis.policies.network import hidden_units  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.engine import Position, Rules  # noqa: E402


def _log_pi(made, theta, units, temperature):
    _, _, log_p = bn.compatible(made, theta, units, temperature)
    return log_p[made.column("first") + made.column("chosen")]


@pytest.mark.parametrize("rules", ["classic2021", "advanced"])
def test_the_compatible_features_are_the_gradient_of_the_drawn_move_s_log_probability(rules):
    rules = Rules.from_json(rules)
    model = Strong().model_for(rules)
    units = hidden_units(model)
    assert units > 0  # the shipped network: the gradient goes through its units
    made = recorded_games(Position.start(rules), 2, 4, (Strong(model, temperature=0.3).compiled(rules),) * 2)
    theta = _vector(model, units)
    psi, _, _ = bn.compatible(made, theta, units, 0.3)
    rng = np.random.default_rng(0)
    for i in rng.choice(len(theta), 25, replace=False):
        h = 1e-5 * max(1.0, abs(theta[i]))
        up, down = theta.copy(), theta.copy()
        up[i] += h
        down[i] -= h
        numeric = (_log_pi(made, up, units, 0.3) - _log_pi(made, down, units, 0.3)) / (2 * h)
        np.testing.assert_allclose(psi[:, i], numeric, rtol=1e-4, atol=1e-5)


def test_the_direction_is_the_regression_of_the_scores_on_the_compatible_features(monkeypatch):
    """With the games' scores replaced by a planted advantage (a number times the first compatible feature, plus a
    state's worth), the regression finds that number and nothing on the other numbers."""
    rules = Rules.from_json("classic2021")
    model = Strong(file=Path(bn.preset_file(rules)).parent / "linear" / "classic2021.json").model_for(rules)
    theta = _vector(model, 0)
    real = bn.compatible

    seen = []

    def planted(made, theta_, units, temperature):
        psi, mean_phi, log_p = real(made, theta_, units, temperature)
        planted.scores = 0.5 + 0.02 * psi[:, 0] + 0.01 * mean_phi[:, 3]
        seen.append(psi)
        return psi, mean_phi, log_p

    monkeypatch.setattr(bn, "compatible", planted)
    monkeypatch.setattr(bn.Recorded, "scores", lambda self: planted.scores)
    found = bn.natural_direction(rules, model, 60, 1, explore=3.0)
    assert found.samples > 1000
    assert found.step.shape == theta.shape
    # the same advantage at every placement (the features are nearly collinear: the numbers may share it out)
    psi = np.concatenate(seen)
    np.testing.assert_allclose(psi @ found.step, 0.02 * psi[:, 0], atol=1e-3 * float(np.abs(0.02 * psi[:, 0]).max()))
    assert 0.05 < found.explained < 1.0


def test_a_perturbation_names_a_feature():
    assert bn.perturbed((1.0,) * len(FEATURES), "gain:0.5")[0] == 0.5
    with pytest.raises(SystemExit, match="no feature 'gian'"):
        bn.perturbed((1.0,) * len(FEATURES), "gian:0.5")


def test_respond_prints_the_response_after_each_iteration_then_how_both_place(monkeypatch, capsys):
    from guyenne_explore.analysis.policies import natural

    monkeypatch.setattr(natural, "RESPONSE_GAMES", 400)
    for name, value in (("MATCH_GAMES", 150), ("STEPS", 3)):  # the line search's matches: a few hundred games a step
        monkeypatch.setattr(natural, name, value)
    monkeypatch.setattr(bench_network, "play", lambda *args, **kwargs: None)  # the styles' engine games: none here
    bn.main(["--rules", "advanced", "--respond", "2", "--match", "20"])
    out = capsys.readouterr().out
    assert out.count("against the policy") == 2 and "iteration 2," in out
    assert "the response against strong-linear" in out
