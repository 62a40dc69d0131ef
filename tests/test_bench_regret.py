"""``benchmarks/bench_regret.py``: the search's two valuations do not change strong's game, and each placement with
a choice gives one gain, the second valuation of the first's pick less that of strong's own policy."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_regret as br  # noqa: E402
import pytest  # noqa: E402

from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.analysis.policies.mixture import Mixture  # noqa: E402
from guyenne_explore.analysis.policies.train import default_start  # noqa: E402
from guyenne_explore.analysis.policies.weights import preset_file, read_model  # noqa: E402
from guyenne_explore.engine import PLACEMENTS, Hooks, Position, Rules, play  # noqa: E402


class _Moves(Hooks):
    def __init__(self) -> None:
        self.moves: list[object] = []

    def decision(self, p: Position, side: int, move: object) -> None:
        self.moves.append(move)


@pytest.mark.parametrize("preset", ["classic2021", "expert"])  # a model alone; expert's mixture of two
def test_the_valuations_leave_strongs_game_as_it_is_and_give_a_gain_a_placement(preset):
    rules = Rules.preset(preset)
    played = read_model(preset_file(rules)).played()
    assert len(played.members) == (2 if preset == "expert" else 1)
    valued, plain = br.ValuedTwice(played, "test"), Strong(mixture=played)
    seen, alone = _Moves(), _Moves()
    play(Position.start(rules), random.Random("regret:1:0"), (valued, valued), hooks=(seen,), check_moves=False)
    play(Position.start(rules), random.Random("regret:1:0"), (plain, plain), hooks=(alone,), check_moves=False)
    assert seen.moves == alone.moves
    assert valued.gains and all(point in PLACEMENTS and -1.0 <= gain <= 1.0 for point, gain, _ in valued.gains)
    assert len({round(g, 9) for _, g, _ in valued.gains}) > 1  # values from rollouts, not one constant


def test_a_gain_is_the_second_valuation_of_the_first_valuations_pick_less_that_of_strongs_policy():
    from guyenne_explore.engine import side_view

    rules = Rules.preset("classic2021")
    p, rng = Position.start(rules), random.Random(2)
    while p.is_chance:
        p = p.apply_outcome(p.sample_outcome(rng))
    view = side_view(p, p.first)
    a, b, c = list(view.legal_moves)[:3]
    player = br.ValuedTwice(Mixture.alone(default_start(rules)), "test")
    valuations = iter([[(a, 0.2), (b, 0.6), (c, 0.1)], [(a, 0.3), (b, 0.4), (c, 0.0)]])
    player.search.candidate_values = lambda *args: next(valuations)  # type: ignore[method-assign]
    player.weights = lambda v: [(a, 3), (b, 1), (list(view.legal_moves)[3], 4)]  # type: ignore[method-assign]
    player._value(view)
    # picked b by the first; strong's policy by the second: 3 * 0.3 + 1 * 0.4 + 4 * 0.0 (no value: the worst)
    assert player.gains == [("open_first", 0.4 - (3 * 0.3 + 1 * 0.4 + 4 * 0.0) / 8, True)]  # b again
