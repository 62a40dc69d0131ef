"""Improving strong by its own search: the search's values of its candidates, the fit towards them, and a run
that is reproducible (here, on a pool), resumable, cancellable and refuses bad input by name."""

from __future__ import annotations

import json
import random
import re
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled.policy_codes import DISCARD_FEATURES, FEATURES
from guyenne_explore.analysis.policies.heuristic import TEMPERATURE
from guyenne_explore.analysis.policies.network import hidden_units, network_term, split
from guyenne_explore.analysis.policies.strong import linear
from guyenne_explore.analysis.policies.train import with_network
from guyenne_explore.analysis.policies import improvement as im
from guyenne_explore.analysis.policies import weights as files
from guyenne_explore.analysis.policies.search import CANDIDATES, ISMCTS
from guyenne_explore.analysis.policies.strong import Strong, load_weights
from guyenne_explore.cli import main
from guyenne_explore.engine import PLACEMENTS, play
from guyenne_explore.engine.rules import Rules

TINY = Rules.preset("advanced", hand_size=5)
#: a small linear model to start tiny runs from
LINEAR = tuple({"gain": 1.0, "spent": -0.25, "removal": -0.3}.get(n, 0.0) for n in FEATURES)


@pytest.fixture(autouse=True)
def few_validation_games(monkeypatch):
    """A run's validation cut to a few hundred games a pairing (the runs' games are the tests' own; its figures are
    the benchmark's)."""
    monkeypatch.setattr(im, "VALIDATION_GAMES", 200)


def _placement_views(rules: Rules, seed: int, count: int) -> list:
    """The views of the first ``count`` placements of a seeded heuristic game."""
    views: list = []

    class Keep(Strong):
        def choose(self, view, rng):
            if view.to_play in PLACEMENTS and len(views) < count:
                views.append(view)
            return super().choose(view, rng)

    play(Position.start(rules), random.Random(seed), (Keep(), Keep()), check_moves=False)
    return views


@pytest.mark.parametrize("preset", ["advanced", "team3"])
def test_the_search_values_strong_s_likeliest_moves_the_same_way_for_the_same_seed(preset):
    search = ISMCTS()
    for view in _placement_views(Rules.preset(preset), 5, 6):
        valued = search.candidate_values(view, 11, 16)
        assert valued is not None and valued == search.candidate_values(view, 11, 16)
        moves = [m for m, _ in valued]
        assert set(moves) <= set(view.legal_moves) and len(moves) == min(CANDIDATES, len(view.legal_moves))
        assert set(moves) == set(Strong().ranked(view)[: len(moves)])  # strong's likeliest, the search's candidates
        if len(moves) > 1:
            assert all(0.0 <= v <= 1.0 for _, v in valued)


@pytest.mark.parametrize("preset", ["advanced", "team3"])
def test_the_heuristic_s_likeliest_placements_are_valued_after_strong_s_candidates(preset):
    from guyenne_explore.analysis.policies.heuristic import Heuristic

    search, explored_somewhere = ISMCTS(), False
    for view in _placement_views(Rules.preset(preset), 5, 8):
        own = search.candidate_values(view, 11, 16)
        also = [m for m, _ in sorted(Heuristic().weights(view), key=lambda mw: -mw[1])[: im.EXPLORED]]
        valued = search.candidate_values(view, 11, 16, also + also[:1])  # (a move twice is valued once)
        assert valued is not None and own is not None
        moves = [m for m, _ in valued]
        assert len(moves) == len(set(moves)) and set(moves) == {m for m, _ in own} | set(also)
        assert set(moves) <= set(view.legal_moves)
        if len(own) > 1:  # strong's candidates keep their values: the same rollouts, more moves beside them
            assert valued[: len(own)] == own
        explored_somewhere |= len(moves) > len(own)
    assert explored_somewhere


def test_the_fit_moves_the_weights_towards_the_moves_the_search_values_more():
    rng = np.random.default_rng(0)
    gain = FEATURES.index("gain")
    decisions = []
    for _ in range(200):
        phi = rng.normal(size=(6, len(FEATURES)))
        decisions.append(im.Decision(phi, (phi[:, gain] > 0).astype(float)))  # the search likes a higher gain
    w0 = tuple(0.0 for _ in FEATURES)
    w = im.fit(decisions, w0)
    assert w[gain] > 0.1 and w[gain] == max(w)
    assert im.fit([], w0) == w0  # nothing to learn from: where it started
    assert im.fit(decisions, w0) == w  # deterministic


def _expected_value(decisions: list, model: tuple[float, ...]) -> float:
    """The decisions' mean expected value under strong's own softmax of ``model``, scored as the Python policy
    scores a placement (its linear part and its network's term), apart from the fit's arrays."""
    linear_part, net = split(model)
    total = 0.0
    for d in decisions:
        scores = np.array([linear(linear_part, phi) + network_term(net, phi) for phi in d.features])
        p = np.exp((scores - scores.max()) / TEMPERATURE)
        total += float(p @ d.values / p.sum())
    return total / len(decisions)


def test_the_fit_of_a_network_teaches_it_what_no_linear_score_can_and_keeps_its_shape():
    """The search values a move where two features agree in sign (an exclusive or's complement): no linear
    score ranks that, a network of rectified units can.  The fit moves the network's numbers by their
    gradient and keeps its size and the numbers after it (a discard's)."""
    rng = np.random.default_rng(1)
    gain, stake = FEATURES.index("gain"), FEATURES.index("stake")
    decisions = []
    for _ in range(300):
        phi = rng.normal(size=(6, len(FEATURES)))
        decisions.append(im.Decision(phi, (phi[:, gain] * phi[:, stake] > 0).astype(float)))
    start = with_network(tuple(0.0 for _ in FEATURES), 4, 3)
    start = start[:len(FEATURES) + 1 + 4 * len(FEATURES) + 4] + (0.05,) * 4  # outputs off 0: the units take part
    discard = (float(len(DISCARD_FEATURES)),) + tuple(0.1 * (i + 1) for i in range(len(DISCARD_FEATURES)))
    fitted = im.fit(decisions, start + discard)
    assert len(fitted) == len(start + discard) and hidden_units(fitted) == 4 and fitted[len(start):] == discard
    linear_only = im.fit(decisions, tuple(0.0 for _ in FEATURES))
    before, network, linear_fit = (_expected_value(decisions, m) for m in (start, fitted[:len(start)], linear_only))
    assert network > linear_fit + 0.05 and network > before + 0.1
    assert im.fit(decisions, start + discard) == fitted  # deterministic


@pytest.mark.parametrize("magnet, proximal, sure", [(0.1, 0.0, 0.08), (0.0, 0.2, 0.08), (0.1, 0.2, 0.08),
                                                    (0.03, 0.5, 0.08), (0.002, 0.003, 3.0), (0.0, 0.002, 3.0)])
def test_a_regularised_fit_takes_magnetic_mirror_descent_s_step(magnet, proximal, sure):
    """Where the model can play any mix (a weight for each placement), the regularised fit's policy is magnetic
    mirror descent's step in closed form: log pi = (Q + magnet log rho + proximal log q) / (magnet + proximal) up to
    a constant, rho the anchor's policy (the run's start) and q the start's (the iteration's); the plain fit instead
    puts nearly all on the best.  Computed here from the softmax alone, apart from the fit's arrays.  From a nearly
    sure start (``sure`` 3: its placement 30 nats above the rest), as ``strong`` plays, too."""
    values = np.array([0.6, 0.5, 0.45, 0.2])
    decision = im.Decision(np.eye(len(values), len(FEATURES)), values)  # placement i: feature i alone
    anchor = tuple({0: 0.05, 2: 0.1}.get(i, 0.0) for i in range(len(FEATURES)))
    start = tuple({1: sure, 3: 0.02}.get(i, 0.0) for i in range(len(FEATURES)))

    def policy(model):
        z = np.array(model[:len(values)]) / TEMPERATURE
        return np.exp(z - z.max()) / np.exp(z - z.max()).sum()

    log_pi = (values + magnet * np.log(policy(anchor)) + proximal * np.log(policy(start))) / (magnet + proximal)
    wanted = np.exp(log_pi - log_pi.max()) / np.exp(log_pi - log_pi.max()).sum()
    fitted = im.fit([decision], start, regularisation=0.0, magnet=magnet, proximal=proximal, anchor=anchor)
    assert np.abs(policy(fitted) - wanted).max() < 1e-3
    assert fitted[len(values):] == start[len(values):]  # features no placement has are left alone
    plain = policy(im.fit([decision], start, regularisation=0.0))
    # the plain fit goes all the way to the best; from a sure start its gradient (a move's probability times its
    # advantage) vanishes and it stays: the regularised fit is taught the step's policy by its cross-entropy instead
    assert plain[0] > 0.99 > wanted[0] if sure < 1 else plain[1] > 0.99 and wanted[0] > 0.8


def test_a_regularised_fit_s_gradient_is_its_loss_s_on_a_network():
    """The regularisers' gradient through a network's units, against finite differences of the loss."""
    rng = np.random.default_rng(3)
    decisions = [im.Decision(rng.normal(size=(5, len(FEATURES))), rng.uniform(size=5)) for _ in range(30)]
    start = with_network(tuple(rng.normal(scale=0.1, size=len(FEATURES))), 3, 4)
    anchor = tuple(x + 0.05 * rng.normal() if i != len(FEATURES) else x for i, x in enumerate(start))
    loss, theta0 = im._objective(decisions, start, 1e-3, 0.1, 0.3, anchor)
    theta = theta0 + rng.normal(scale=0.1, size=theta0.shape)
    _, grad = loss(theta)
    for i in rng.choice(len(theta), 12, replace=False):
        step = np.zeros_like(theta)
        step[i] = 1e-6
        assert grad[i] == pytest.approx((loss(theta + step)[0] - loss(theta - step)[0]) / 2e-6, rel=1e-3, abs=1e-8)
    with pytest.raises(ValueError, match="hidden units"):
        im._objective(decisions, start, 1e-3, 0.1, 0.0, tuple(0.0 for _ in FEATURES))


def test_a_regularised_run_keeps_its_last_iteration_and_its_regularisers_across_a_resume(tmp_path):
    kwargs = {"games": 2, "start_from": LINEAR, "magnet": 0.1, "proximal": 0.3}
    whole = im.improve(TINY, 3, 2, state=tmp_path / "whole", **kwargs)
    saved = im.ImproveRun.read(tmp_path / "whole")
    assert whole.generations == 2 and whole.weights == saved.weights  # the last, whatever its validation
    assert (saved.settings.magnet, saved.settings.proximal) == (0.1, 0.3)
    im.improve(TINY, 3, 1, state=tmp_path / "part", **kwargs)
    part = im.ImproveRun.read(tmp_path / "part")
    assert im.improve(TINY, 3, 2, resume=part, state=tmp_path / "part", **kwargs) == whole
    with pytest.raises(ValueError, match="--resume"):
        im.improve(TINY, 3, 2, resume=part, **{**kwargs, "magnet": 0.2})
    assert whole.weights != im.improve(TINY, 3, 2, games=2, start_from=LINEAR).weights


def test_a_tiny_run_is_reproducible_here_and_on_a_pool_and_resumes_as_if_never_stopped(tmp_path):
    kwargs = {"games": 2, "start_from": LINEAR}
    here = im.improve(TINY, 3, 2, state=tmp_path / "here", **kwargs)
    assert not here.cancelled and 0 <= here.generations <= 2
    with ThreadPoolExecutor(2) as pool:
        assert im.improve(TINY, 3, 2, executor=pool, **kwargs) == here
    im.improve(TINY, 3, 1, state=tmp_path / "part", **kwargs)
    resumed = im.ImproveRun.read(tmp_path / "part")
    assert resumed.iteration == 1
    assert im.improve(TINY, 3, 2, resume=resumed, state=tmp_path / "part", **kwargs) == here
    saved = im.ImproveRun.read(tmp_path / "here")
    assert saved.iteration == 2 and saved.best.weights == here.weights
    assert saved.weights != saved.settings.x0  # the fit moved the weights


def test_cancel_stops_the_run_at_once_keeping_the_start():
    asked: list[im.ImproveProgress] = []

    def progress(p: im.ImproveProgress) -> bool:
        asked.append(p)
        return len(asked) < 3

    result = im.improve(TINY, 1, 5, games=50, progress=progress)
    assert result.cancelled and result.weights == Strong().model_for(TINY) and len(asked) == 3
    assert asked[0].iteration == 0 and asked[0].iterations == 5 and asked[0].games == 50


def test_the_fit_tells_its_steps_with_the_time_left_and_a_cancel_there_keeps_the_start():
    """A fit on hundreds of games takes minutes, as long as their self-play: it says its steps and the time left
    (the command said "2 seconds left" for five minutes), and a cancel stops it at its next evaluation."""
    asked: list[im.ImproveProgress] = []
    im.improve(TINY, 3, 2, games=2, start_from=LINEAR, progress=asked.append)
    steps = [p for p in asked if p.fit_step is not None]
    assert {p.iteration for p in steps} == {0, 1} and all(p.game == p.games == 2 for p in steps)
    first = [p.fit_step for p in steps if p.iteration == 0]
    assert first == sorted(first) and first[0] == 0 and 0 < first[-1] <= im.FIT_STEPS
    assert all(p.seconds_left is not None and p.seconds_left >= 0 for p in steps if p.fit_step)

    def cancel_in_the_fit(p: im.ImproveProgress) -> bool:
        return not p.fit_step

    result = im.improve(TINY, 3, 2, games=2, start_from=LINEAR, progress=cancel_in_the_fit)
    assert result.cancelled and result.weights == LINEAR


@pytest.mark.parametrize("on_a_pool", [False, True])
def test_the_time_left_comes_from_the_games_finished_during_the_first_iteration(on_a_pool):
    """Workers finish an iteration's games all through it: the time left follows them from the first one
    finished, not from a guess until the iteration's end (it stood still for minutes)."""
    asked: list[im.ImproveProgress] = []
    kwargs = {"games": 4, "start_from": LINEAR, "progress": asked.append}
    if on_a_pool:
        with ThreadPoolExecutor(2) as pool:
            im.improve(TINY, 3, 1, executor=pool, **kwargs)
    else:
        im.improve(TINY, 3, 1, **kwargs)
    first = [p for p in asked if p.iteration == 0 and p.fit_step is None]  # its games (its fit: the test above)
    assert all((p.seconds_left is None) == (p.game == 0) for p in first)
    timed = [p for p in first if p.seconds_left is not None]
    assert timed and all(p.seconds_left >= 0 for p in timed)
    assert timed[-1].seconds_left < timed[-1].seconds  # most of the one iteration is done: less left than spent


@pytest.mark.parametrize("args, field", [
    (["--rules", "advanced", "--iterations", "0"], "--iterations"),
    (["--rules", "advanced", "--games", "0"], "--games"),
    (["--rules", "nonsense"], "nonsense"),
    (["--iterations", "1"], "--rules"),
    (["--rules", "advanced", "--magnet", "-0.1"], "--magnet"),
    (["--rules", "advanced", "--proximal", "11"], "--proximal"),
    (["--rules", "advanced", "--magnet", "nan"], "--magnet"),
])
def test_the_command_refuses_bad_input_naming_the_field(args, field, capsys, tmp_path):
    code = main(["improve", *args, "--out", str(tmp_path / "w.json")])
    err = capsys.readouterr().err
    assert code != 0 and field in err and "Traceback" not in err
    assert not (tmp_path / "w.json").exists()


def test_the_command_bounds_the_regularisers_as_the_run_does(capsys, tmp_path):
    from guyenne_explore.cli.parser import MOST_REGULARISER

    assert MOST_REGULARISER == im.MOST_REGULARISER  # the light parser's copy
    with pytest.raises(ValueError, match="--proximal"):
        im.check_improve(TINY, 1, 1, 1, proximal=im.MOST_REGULARISER * 1.01)


def test_the_command_refuses_a_state_that_is_no_run_naming_it(tmp_path, capsys):
    bad = tmp_path / "bad.improve"
    bad.write_text(json.dumps({"format": 99}))
    code = main(["improve", "--resume", str(bad)])
    err = capsys.readouterr().err
    assert code != 0 and "--resume" in err and str(bad) in err and "Traceback" not in err


def test_a_state_whose_origin_names_no_file_is_refused_and_an_older_state_s_start_is_read(tmp_path):
    im.improve(TINY, 3, 1, games=1, start_from=LINEAR, state=tmp_path / "run", origin={"started_from": "mine.json"})
    data = json.loads((tmp_path / "run").read_text())
    assert im.ImproveRun.read(tmp_path / "run").origin == {"started_from": "mine.json"}
    (tmp_path / "old").write_text(json.dumps({**{k: v for k, v in data.items() if k != "origin"}, "start": "old.json"}))
    assert im.ImproveRun.read(tmp_path / "old").origin == {"started_from": "old.json"}
    (tmp_path / "bad").write_text(json.dumps({**data, "origin": {"started_from": 3}}))
    with pytest.raises(ValueError, match="--resume"):
        im.ImproveRun.read(tmp_path / "bad")


def test_the_command_writes_weights_strong_plays_with_the_command_that_makes_them_again(tmp_path, capsys):
    out = tmp_path / "w.json"
    code = main(["improve", "--rules", "advanced", "--vary", "hand_size=5", "--games", "1", "--seed", "2",
                 "--out", str(out), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err.index("improving strong for") < captured.err.index(" left")  # the cost, then progress
    assert not re.search(r"about (about|under|more)", captured.err)  # its duration said once, as plain_duration says it
    data = json.loads(out.read_text())
    assert data["trained"]["method"] == "improve" and "--iterations 1 --games 1" in data["trained"]["command"]
    assert "--magnet" not in data["trained"]["command"] and "magnet" not in data["trained"]
    assert json.loads(captured.out)["policy"] == f"strong@{out}"
    assert load_weights(out)[:len(FEATURES)] == tuple(json.loads(captured.out)["weights"][n] for n in FEATURES)
    # it improved what strong plays there, the package's network, and wrote it whole
    assert hidden_units(load_weights(out)) == hidden_units(Strong().model_for(TINY)) > 0


def test_cancel_on_a_process_pool_stops_its_workers_and_keeps_the_start():
    from guyenne_explore.analysis.workers import process_pool

    asked: list[im.ImproveProgress] = []
    workers: list = []

    def progress(p: im.ImproveProgress) -> bool:
        asked.append(p)
        workers.extend(w for w in pool._processes.values() if w not in workers)
        return p.game == 0 and len(asked) < 3  # stop while the first games are under way

    with process_pool(2) as pool:
        result = im.improve(TINY, 1, 3, games=40, executor=pool, progress=progress)
        assert result.cancelled and result.weights == Strong().model_for(TINY)
        assert asked[-1].iteration == 0 and workers
        # its workers stopped at their next decision and the pool plays on, or they did not and were killed
        if any(w.is_alive() for w in workers):
            assert len(pool.submit(im.self_play, TINY.to_json(), result.weights, 1, 0, 0).result()) > 0


def test_a_resumed_run_started_from_a_file_still_names_it_in_the_command(tmp_path, capsys):
    start = tmp_path / "mine.json"
    start.write_text((files.WEIGHTS_DIR / "advanced.json").read_text())
    out = tmp_path / "w.json"
    common = ["--rules", "advanced", "--vary", "hand_size=5", "--games", "1", "--seed", "2", "--out", str(out)]
    assert main(["improve", *common, "--iterations", "1", "--start", str(start), "--magnet", "0.1"]) == 0
    assert main(["improve", "--resume", f"{out}.improve", "--iterations", "2", "--out", str(out)]) == 0
    said = capsys.readouterr().err
    assert "the last iteration's" in said and "best" not in said  # a regularised run writes its last, not its best
    trained = json.loads(out.read_text())["trained"]
    assert trained["started_from"] == "mine.json" and trained["command"].endswith("--magnet 0.1 --start mine.json")
    assert trained["magnet"] == 0.1 and "proximal" not in trained and trained["best_iteration"] == 2
    # how the start was made is kept, read when the run began (the resumed part read it from the run's state)
    assert trained["start_trained"] == json.loads(start.read_text())["trained"]
    # the start's network is improved, not dropped (the run read its linear weights alone before)
    assert json.loads(out.read_text())["network"]["hidden"] == json.loads(start.read_text())["network"]["hidden"]


@pytest.mark.parametrize("preset", ["classic2021", "advanced"])
def test_a_models_scores_are_the_python_policys(preset):
    """``improvement.scores`` (what a benchmark fits on top of) scores each placement as the Python twin does: the
    linear score plus the network's term, here on the shipped network and its linear part alone."""
    model = files.shipped(files.preset_file(Rules.preset(preset)))
    assert hidden_units(model) > 0
    phi = np.random.default_rng(3).normal(size=(40, len(FEATURES))) * 3
    w, net = split(model)
    for m in (model, w):
        twin = np.array([linear(w, row) + (network_term(net, row) if m is model else 0.0) for row in phi])
        assert np.allclose(im.scores(m, phi), twin, rtol=1e-9, atol=1e-9)
