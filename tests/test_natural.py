"""``improve --method natural``: the natural gradient of strong's own compiled games.  Its score gradients are the
score's derivatives (through a network's units), its paired games are seeded, its line search starts where the
policy moves by the first step's KL divergence, and a run is reproducible, resumable, cancellable and refuses bad
input in words."""

from __future__ import annotations

import json

import numpy as np
import pytest

from guyenne_explore.analysis.cancel import Cancelled
from guyenne_explore.analysis.compiled.policy_codes import COUNTER, HEURISTIC, IDEAS, P_IDEA, STRONG
from guyenne_explore.analysis.compiled.recording import recorded_games
from guyenne_explore.analysis.policies import natural as nt
from guyenne_explore.analysis.policies.improvement import ImproveRun, ImproveSettings, _scored, _vector
from guyenne_explore.analysis.policies.network import hidden_units
from guyenne_explore.analysis.policies.strong import Strong
from guyenne_explore.cli import main
from guyenne_explore.engine import Position, Rules


@pytest.fixture
def quick(monkeypatch):
    """A run's matches cut to a few hundred games (the games the tests ask for are the run's own)."""
    monkeypatch.setattr(nt, "MATCH_GAMES", 150)
    monkeypatch.setattr(nt, "VALIDATION_GAMES", 150)
    monkeypatch.setattr(nt, "STEPS", 3)


def test_the_score_gradients_are_the_score_s_derivatives():
    rules = Rules.from_json("advanced")
    model = Strong().model_for(rules)
    units = hidden_units(model)
    made = recorded_games(Position.start(rules), 1, 3, (Strong(model).compiled(rules),) * 2)
    phi = made.phi[:300].astype(np.float64)
    theta = _vector(model, units)
    grads, score = nt.score_gradients(phi, theta, units)
    assert np.allclose(score, _scored(theta, units, phi)[0])
    for i in np.random.default_rng(1).choice(len(theta), 30, replace=False):
        h = 1e-6 * max(1.0, abs(theta[i]))
        up, down = theta.copy(), theta.copy()
        up[i] += h
        down[i] -= h
        numeric = (_scored(up, units, phi)[0] - _scored(down, units, phi)[0]) / (2 * h)
        np.testing.assert_allclose(grads[:, i], numeric, rtol=1e-5, atol=1e-6)


def test_paired_deviations_are_seeded_two_a_game():
    rules = Rules.from_json("advanced")
    model = Strong().model_for(rules)
    found = nt.paired_direction(rules, model, 30, 2)
    assert 30 < found.samples <= 60  # a placement a game, two other moves at it (fewer where fewer are legal)
    assert np.isfinite(found.step).all() and 0.0 <= found.explained <= 1.0
    assert np.allclose(found.fisher, found.fisher.T)
    assert np.array_equal(found.step, nt.paired_direction(rules, model, 30, 2).step)
    assert not np.array_equal(found.step, nt.paired_direction(rules, model, 30, 3).step)


def test_the_line_search_starts_at_the_first_step_s_divergence():
    rules = Rules.from_json("classic2021")
    model = Strong().model_for(rules)
    made = recorded_games(Position.start(rules), 20, 5, (Strong(model).compiled(rules),) * 2)
    step = nt.paired_direction(rules, model, 200, 1).step
    size = nt.first_size(made, model, step)
    assert nt.divergence(made, model, step, 0.0) == pytest.approx(0.0, abs=1e-12)
    assert nt.FIRST_KL / 1.3 < nt.divergence(made, model, step, size) < nt.FIRST_KL * 1.3
    assert nt.divergence(made, model, step, 4 * size) > nt.divergence(made, model, step, size)
    assert nt.first_size(made, model, np.zeros_like(step)) == 0.0


def test_a_run_is_the_same_for_the_same_seed_and_resumes_as_if_never_stopped(tmp_path, quick):
    rules = Rules.from_json("classic2021")
    whole = nt.natural(rules, 2, 2, games=200)
    # it moved, at its second iteration (so that the comparisons below say something)
    assert whole.weights != Strong().model_for(rules) and whole.generations == 2
    assert whole == nt.natural(rules, 2, 2, games=200)
    state = tmp_path / "run.natural"
    nt.natural(rules, 2, 1, games=200, state=state)
    resumed = nt.natural(rules, 2, 2, games=200, state=state, resume=nt.NaturalRun.read(state))
    assert resumed == whole
    assert nt.NaturalRun.read(state).iteration == 2


def test_cancel_stops_a_run_at_once_keeping_the_best(quick):
    rules = Rules.from_json("classic2021")
    asked = []

    def progress(p):
        asked.append(p)
        return len(asked) < 2

    result = nt.natural(rules, 4, 3, games=1000, progress=progress)
    assert result.cancelled and len(asked) == 2 and asked[-1].game == 2 * nt.CHUNK
    assert result.weights == Strong().model_for(rules) and result.generations == 0


def test_bad_settings_and_states_are_refused_in_words(tmp_path):
    rules = Rules.from_json("classic2021")
    with pytest.raises(ValueError, match="--games: at least 200"):
        nt.check_natural(rules, 1, 1, 50)
    with pytest.raises(ValueError, match="--iterations: at least 1"):
        nt.check_natural(rules, 1, 0, 400)
    search = tmp_path / "search.improve"
    ImproveRun(ImproveSettings(rules.to_json(), 1, 10, Strong().model_for(rules)), best=nt.Trained(
        Strong().model_for(rules), 0.5, 0)).save(search)
    with pytest.raises(ValueError, match="no natural-gradient run"):
        nt.NaturalRun.read(search)


@pytest.mark.parametrize("extra, said", [(["--magnet", "0.1"], "--magnet: only with --method search"),
                                         (["--workers", "2"], "--workers: --method natural plays"),
                                         (["--games", "10"], "--games: at least 200")])
def test_the_command_refuses_what_the_method_does_not_take(capsys, extra, said):
    code = main(["improve", "--method", "natural", "--rules", "classic2021", *extra])
    assert code != 0
    assert said in capsys.readouterr().err


def test_the_command_writes_weights_that_say_how_to_make_them_again(tmp_path, capsys, quick):
    out = tmp_path / "w.json"
    assert main(["improve", "--method", "natural", "--rules", "classic2021", "--games", "200", "--iterations", "1",
                 "--seed", "3", "--out", str(out), "--json"]) == 0
    printed = capsys.readouterr()
    said = json.loads(printed.out)
    assert "measuring the pace here" in printed.err and "improving strong for classic2021" in printed.err  # cost first
    trained = json.loads(out.read_text())["trained"]
    assert trained["method"] == "natural" and said["policy"] == f"strong@{out}"
    assert trained["league"] == ["start", "strong-linear", "heuristic", *IDEAS]  # what its score was against
    assert trained["command"] == ("guyenne-explore improve --method natural --rules classic2021 --seed 3 "
                                  "--iterations 1 --games 200")
    assert (tmp_path / "w.json.natural").exists()


def test_a_step_moves_the_placement_s_numbers_and_keeps_the_team_split_s():
    rules = Rules.from_json("team")
    model = Strong().model_for(rules)
    units = hidden_units(model)
    step = np.ones(len(_vector(model, units)))
    moved = nt.stepped(model, step, 0.5)
    assert len(moved) == len(model)
    assert np.allclose(_vector(moved, units), _vector(model, units) + 0.5)
    n = len(_vector(model, units)) + 1  # the numbers a step varies, and the network's unit count
    assert moved[n:] == model[n:] and len(model) > n  # the team split's weights, as they were


def test_the_league_is_met_in_turn_and_in_both_seats():
    learner, a, b = object(), object(), object()
    seen = [nt._seats(learner, (a, b), chunk) for chunk in range(5)]
    assert seen == [((learner, a), 0), ((learner, b), 0), ((a, learner), 1), ((b, learner), 1), ((learner, a), 0)]
    assert nt._seats(learner, (), 3) == ((learner, learner), None)
    rules = Rules.from_json("classic2021")
    league = nt.league(rules, Strong().model_for(rules))  # the start, strong-linear, the heuristic, the counters
    assert [side.code for side in league] == [STRONG, STRONG, HEURISTIC] + [COUNTER] * len(IDEAS)
    assert [side.params[P_IDEA] for side in league[3:]] == list(range(len(IDEAS)))


def test_against_a_learned_opponent_only_the_learner_s_placements_are_played_again(monkeypatch):
    """The opponent's placements are recorded too (a learned policy), and counted in the forced game's index: every
    forced move is the learner's, at its own placement."""
    rules = Rules.from_json("classic2021")
    model = Strong().model_for(rules)
    opponent = Strong(linear=True).compiled(rules)
    calls = []
    real = nt.forced_games

    def watched(p, seed, sides, games, force_at, force_move):
        calls.append((sides, games.copy(), force_at.copy()))
        return real(p, seed, sides, games, force_at, force_move)

    monkeypatch.setattr(nt, "forced_games", watched)
    nt.paired_direction(rules, model, 2 * nt.CHUNK, 5, opponents=(opponent,))
    for chunk, (sides, games, force_at) in enumerate(calls):
        seat = sides.index(opponent) ^ 1
        made = recorded_games(Position.start(rules), nt.CHUNK, 5, sides, start_index=chunk * nt.CHUNK)
        first = np.searchsorted(made.column("game"), games - chunk * nt.CHUNK)
        assert (made.column("side")[first + force_at] == seat).all()


def test_cancel_stops_the_line_search_after_the_match_under_way(quick):
    rules = Rules.from_json("classic2021")
    asked = []

    def progress(p):
        asked.append(p)
        return p.game <= p.games  # the first word from the line search's matches cancels

    result = nt.natural(rules, 4, 2, games=200, progress=progress)
    assert result.cancelled and result.generations == 0
    assert asked[-1].game > asked[-1].games and sum(p.game > p.games for p in asked) == 1


def test_a_best_response_is_trained_against_the_frozen_policy_alone_and_is_the_same_for_the_same_seed(monkeypatch, quick):
    rules = Rules.from_json("advanced")
    met, shares, after = [], [], []
    real = nt.paired_direction
    monkeypatch.setattr(nt, "paired_direction", lambda *a, **k: met.append(k["opponents"]) or real(*a, **k))
    target = Strong()
    found = nt.respond(rules, target, 5, iterations=2, games=400, tell=shares.append,
                       each=lambda i, w: after.append((i, w)))
    assert len(met) == 2 and all(len(o) == 1 and o[0] == target.compiled(rules) for o in met)  # the target alone
    assert [i for i, _ in after] == [0, 1] and after[-1][1] == found
    assert shares == sorted(shares) and 0 <= shares[0] and shares[-1] <= 1
    assert nt.respond(rules, target, 5, iterations=2, games=400) == found


def test_a_best_responses_training_stops_where_its_tell_raises():
    def tell(share):
        raise Cancelled()

    with pytest.raises(Cancelled):
        nt.respond(Rules.from_json("advanced"), Strong(), 5, iterations=1, games=400, tell=tell)


def test_the_pace_of_an_iteration_times_its_league_and_leaves_out_what_a_match_call_costs(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(nt.time, "perf_counter", lambda: clock[0])
    calls = []

    def paired(rules, model, games, seed, opponents=()):  # 0.1 s a chunk (a call's own cost is a few ms once warm)
        # every call plays the run's own opponents, a chunk each (the league's play faster than the policy)
        assert len(opponents) == 1 + len(nt.LEAGUE_NAMES) and games % (len(opponents) * nt.CHUNK) == 0
        calls.append(games // (len(opponents) * nt.CHUNK))
        clock[0] += (5.0 if len(calls) == 1 else 0.0) + 0.1 * games / nt.CHUNK  # the first loads: untimed

    def match(rules, model, other, games, seed):  # 0.5 s a call, 1 ms a game
        clock[0] += 0.5 + 0.001 * 2 * games

    monkeypatch.setattr(nt, "paired_direction", paired)
    monkeypatch.setattr(nt, "match", match)
    seconds = nt.iteration_seconds(Rules.from_json("advanced"), 200_000)
    matches = 2 * (nt.MATCH_GAMES * (nt.STEPS + 3) + nt.VALIDATION_GAMES * len(nt.LEAGUE_NAMES))
    assert seconds == pytest.approx(0.1 * 1000 + 0.001 * matches) and calls == [1, 1, 2]


def test_the_time_left_weighs_the_pace_said_before_the_run_against_the_pace_seen():
    # after the first chunk, the pace seen alone said 20 minutes where 4 were said and the run took 4
    assert nt.time_left(3.0, 0.01, 4, 240.0) == pytest.approx(0.99 * 237 + 0.01 * 3 / 0.01 * 3.99)
    assert nt.time_left(60.0, 1.0, 4, 240.0) == pytest.approx(180.0)  # an iteration done: its own pace alone
    assert nt.time_left(0.0, 0.0, 4, 240.0) == 240.0 and nt.time_left(0.0, 0.0, 4, None) is None
    assert nt.time_left(30.0, 0.5, 4, None) == pytest.approx(210.0)  # nothing said: the pace seen
    assert nt.time_left(300.0, 0.5, 4, 240.0) >= 0.0  # a run slower than said never says a negative time
