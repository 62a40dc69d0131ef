"""The compiled self-play recorder: its features are the Python policy's, from the side's view, decision by decision;
it leaves the games as they are, and a batch cut across full buffers records the same."""

import numpy as np
import pytest

from guyenne_explore.analysis.compiled import recording
from guyenne_explore.analysis.compiled.recording import forced_games, recorded_games
from guyenne_explore.analysis.compiled.rollout import play_summaries, traced
from guyenne_explore.analysis.compiled.layout import POINTS
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.strong import Strong
from guyenne_explore.engine import Position, Rules
from tests.replaying import replay_trace


class Watching(Strong):
    """``strong`` with one model, which keeps each placement's view, its legal moves' features and weights."""

    def __init__(self, model):
        super().__init__(model)
        self.seen = []

    def weights(self, view):
        weighted = super().weights(view)
        if view.to_play in POINTS[2:6]:
            self.seen.append((view.to_play, view.side, self.featured(view), dict(weighted)))
        return weighted


def _rows(featured):
    return np.array([phi for _, phi in featured], np.float32)


def _sorted(rows):
    return rows[np.lexsort(rows.T[::-1])]


@pytest.mark.parametrize("rules", ["classic2021", "advanced", "expert", "team", "team3",
                                   {"preset": "advanced", "hero": False, "castles": 7}])
@pytest.mark.parametrize("opponent", ["strong", "heuristic"])
def test_the_recorded_features_are_the_python_policy_s_from_the_view(rules, opponent):
    rules = Rules.from_json(rules)
    start = Position.start(rules)
    model = Strong().model_for(rules)
    checked = 0
    for index in range(2):
        twins = [Watching(model), Watching(model) if opponent == "strong" else Heuristic()]
        sides = tuple(t.compiled(rules) for t in twins)
        rows, kinds, out = traced(start, 5, index, sides)
        replay_trace(start, rows, kinds, out, twins.__getitem__)
        seen = [s for t in twins if isinstance(t, Watching) for s in t.seen]
        made = recorded_games(start, 1, 5, sides, start_index=index)
        assert len(made.decisions) == len(seen)
        # the decisions in the game's order: each side's in its own order
        for side in (0, 1):
            mine = [s for s in seen if s[1] == side]
            rows_of = made.decisions[made.column("side") == side]
            assert len(rows_of) == len(mine)
            for (point, _, featured, weighted), d in zip(mine, rows_of):
                _game, _side, code, first, moves, chosen, weight, total = d.tolist()
                assert POINTS[code] == point
                phi = made.phi[first:first + moves]
                np.testing.assert_allclose(_sorted(phi), _sorted(_rows(featured)), rtol=1e-6, atol=1e-6)
                # the move drawn: its features, whole-number weight and the total are the Python policy's
                found = [m for m, f in featured if np.allclose(np.float32(f), phi[chosen], rtol=1e-6, atol=1e-6)]
                assert any(weighted.get(m) == weight for m in found)
                assert total == sum(weighted.values())
                checked += 1
        assert (made.out[0] == out).all()
    assert checked > 10


def test_recording_leaves_the_games_as_they_are():
    rules = Rules.from_json("advanced")
    start = Position.start(rules)
    sides = (Strong().compiled(rules), Heuristic().compiled(rules))
    made = recorded_games(start, 40, 9, sides)
    assert (made.out == play_summaries(start, 40, 9, 0, sides)).all()
    assert set(made.column("side").tolist()) == {0}  # only the learned policy's placements
    assert sorted(set(made.column("game").tolist())) == list(range(40))
    assert ((made.scores() == 0) | (made.scores() == 0.5) | (made.scores() == 1)).all()


@pytest.mark.parametrize("first_rows", [64, 3_000])
def test_a_batch_cut_across_full_buffers_records_the_same(monkeypatch, first_rows):
    rules = Rules.from_json("classic2021")
    start = Position.start(rules)
    sides = (Strong().compiled(rules),) * 2
    whole = recorded_games(start, 12, 2, sides, start_index=3)
    monkeypatch.setattr(recording, "FIRST_ROWS", first_rows)
    cut = recorded_games(start, 12, 2, sides, start_index=3)
    assert (cut.out == whole.out).all()
    assert (cut.decisions == whole.decisions).all()
    assert (cut.phi == whole.phi).all()


def test_a_forced_game_is_the_recorded_one_but_for_the_move_forced():
    rules = Rules.from_json("classic2021")
    start = Position.start(rules)
    sides = (Strong().compiled(rules),) * 2
    made = recorded_games(start, 6, 3, sides)
    game = made.column("game")
    at = np.arange(len(game)) - np.searchsorted(game, game)  # each decision's index in its game
    # forcing the move the policy played, at each placement in turn, plays the recorded game again
    again = forced_games(start, 3, sides, game, at, made.column("chosen"))
    assert (again == made.out[game]).all()
    # forcing another legal move changes some games (the move is played, where it is asked)
    other = (made.column("chosen") + 1) % made.column("moves")
    changed = forced_games(start, 3, sides, game, at, other)
    assert (changed[:, 0] != made.out[game][:, 0]).any()
    # a move forced past the game's last placement is never played
    late = forced_games(start, 3, sides, np.arange(6), np.full(6, 10_000), np.zeros(6, np.int64))
    assert (late == made.out).all()


def test_a_column_of_a_record_is_forced_under_the_one_compiled_signature():
    """A record's columns are strided views: passed as they were, numba compiled the forced games a second time for them
    (half a minute of a clean clone's tests)."""
    from guyenne_explore.analysis.compiled import loop

    rules = Rules.from_json("advanced")
    start = Position.start(rules)
    sides = (Strong().compiled(rules),) * 2
    made = recorded_games(start, 2, 1, sides)
    whole = np.zeros(2, np.int64)
    forced_games(start, 1, sides, whole, whole, whole)
    signatures = list(loop.play_forced.signatures)
    games, chosen = made.column("game")[:2], made.column("chosen")[:2]
    assert not games.flags.c_contiguous and not chosen.flags.c_contiguous  # (what the test is about)
    forced_games(start, 1, sides, games, whole, chosen)
    assert loop.play_forced.signatures == signatures
