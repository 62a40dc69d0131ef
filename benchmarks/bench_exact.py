"""Exact analysis times, printed (never asserted): the old path, the reference recursion, the new path.

Run: python benchmarks/bench_exact.py [--big]

For each position: seconds of
- ``old``: the engine's enumeration as it was before the merging recursion: a round at a time,
  memoised at round starts, endgame round starts by :class:`.exact.endgame.Endgame`;
- ``reference``: the plain memoised recursion of :mod:`.analysis.exact.reference` (merging, no
  endgame solver);
- ``new``: :func:`.analysis.exact.distribution.exact_distribution` in fractions, and in float64 (``floats``);

in CPU seconds of this process (the machine may be shared), the states each solved, Knuth's
tree-size estimate of the whole game tree, the cost estimate an exact request's refusal reads
(:func:`.analysis.planning.estimate_exact_cost`: positions and seconds), and whether the answers agree;
then the seconds a tree node took on each position that is not an endgame itself, which
calibrate the estimate's constants.  Positions: team, team3 and stacked-deck positions built from
the presets by seeded uniform games, the check positions, and the 6-against-6 endgame with both
decks spent.  ``--big`` adds larger team and stacked positions (minutes for the old path).
"""

from __future__ import annotations

import pathlib
import random
import sys
import time
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guyenne_explore.analysis.exact import distribution as ex  # noqa: E402
from guyenne_explore.analysis.planning import (SECONDS_PER_ENDGAME_STATE, SECONDS_PER_NODE, estimate_exact_cost,  # noqa: E402
                                           estimate_tree_size, exact_cost_parts, in_endgame)
from guyenne_explore.analysis.exact.reference import Reference  # noqa: E402
from guyenne_explore.analysis.exact.endgame import Endgame, applies  # noqa: E402
from guyenne_explore.analysis.policies import Uniform  # noqa: E402
from guyenne_explore.engine import OPEN_FIRST, TEAM_SPLIT, Position, Rules, apply_legal  # noqa: E402
from tests.conftest import position_files  # noqa: E402  (the check positions: ../shared, else tests/positions)
from tests.test_exact_fast import six_against_six  # noqa: E402  (the test's position)

POLICIES = (Uniform(), Uniform())
UNIFORM = ("uniform", "uniform")


def late(rules: Rules, seed: int, unspent: int, point: str, min_deck: int = 0) -> Position:
    """The first ``point`` of a seeded uniform game where hands and decks hold at most ``unspent`` cards
    (and the decks together at least ``min_deck``)."""
    rng = random.Random(seed)
    for _ in range(1000):
        p = Position.start(rules)
        while not p.is_over:
            if p.to_play == point and sum(s.hand.size + s.deck.size for s in p.sides) <= unspent and \
                    sum(s.deck.size for s in p.sides) >= min_deck:
                return p
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_legal(p, rng.choice(list(p.legal_moves)))
    raise ValueError(f"no such position in 1000 games of {rules.preset_name}")


def stacked(p: Position, seed: int) -> Position:
    """``p`` with both decks stacked in a seeded order (draws known until the next reshuffle)."""
    data = p.to_json()
    rng = random.Random(seed)
    for side in data["sides"].values():
        deck = list(side["deck"])
        rng.shuffle(deck)
        side["deck"], side["stacked"] = deck, True
    return Position.from_json(data)


def old_path(p: Position) -> tuple[dict, int]:
    """The enumeration before the merging recursion and the exact forward pass."""
    solver = ex.Solver(POLICIES)
    solver.merged = None
    endgame = Endgame(p.rules)
    solver.endgame_value = lambda q, top: endgame.value(q)  # type: ignore[method-assign]
    return solver.solve(p), len(solver.memo) + endgame.states


def reference(p: Position) -> tuple[dict, int]:
    r = Reference()
    return r.distribution(p), r.states


def new_path(p: Position) -> tuple[dict, int]:
    return ex.exact_distribution(p, POLICIES)


def new_floats(p: Position) -> tuple[dict, int]:
    return ex.exact_distribution(p, POLICIES, floats=True)


def timed(f: Callable[[Position], tuple[dict, int]], p: Position) -> tuple[float, dict, int]:
    """CPU seconds of this process: other work on a shared machine does not count."""
    t = time.process_time()
    dist, states = f(p)
    return time.process_time() - t, dist, states


def positions(big: bool) -> list[tuple[str, Position]]:
    out = [
        ("team split (10 cards)", late(Rules.preset("team"), 1, 10, TEAM_SPLIT)),
        ("team open_first advanced (10)", late(Rules.preset("team", removal="advanced"), 13, 10, OPEN_FIRST)),
        ("team3 split (9)", late(Rules.preset("team3"), 3, 9, TEAM_SPLIT)),
        ("base stacked decks (12)", stacked(late(Rules.preset("base"), 4, 12, OPEN_FIRST, 1), 4)),
        ("advanced live decks (10)", late(Rules.preset("advanced"), 5, 10, OPEN_FIRST)),
    ]
    if big:
        out += [
            ("team split (12)", late(Rules.preset("team"), 1, 12, TEAM_SPLIT)),
            ("team open_first advanced (10')", late(Rules.preset("team", removal="advanced"), 2, 10, OPEN_FIRST)),
            ("team3 split (10)", late(Rules.preset("team3"), 3, 10, TEAM_SPLIT)),
            ("base stacked decks (14)", stacked(late(Rules.preset("base"), 4, 14, OPEN_FIRST, 2), 4)),
        ]
    for path in position_files():
        out.append((path.stem, Position.from_json(path.read_text())))
    out.append(("6v6 endgame, decks spent", six_against_six()))
    return out


def main() -> None:
    big = "--big" in sys.argv
    # imports and caches of the first exact analysis outside the timings
    new_path(late(Rules.preset("base"), 0, 6, OPEN_FIRST))
    print(f"{'position':34s} {'old':>8s} {'reference':>10s} {'new':>8s} {'floats':>8s}   "
          f"{'states old/ref/new':>22s} {'tree estimate':>14s} {'cost estimate':>20s}  same")
    calibration: list[tuple[str, float, float, float]] = []
    for name, p in positions(big):
        t_old, d_old, s_old = timed(old_path, p)
        endgame = applies(p, ("uniform", "uniform"))
        if endgame and sum(s.hand.size for s in p.sides) > 10:
            t_ref, d_ref, s_ref = float("nan"), d_old, 0  # the plain recursion takes minutes here
        else:
            t_ref, d_ref, s_ref = timed(reference, p)
        t_new, d_new, s_new = timed(new_path, p)
        t_float, _, _ = timed(new_floats, p)
        estimate = estimate_tree_size(p)
        cost, seconds = estimate_exact_cost(p)
        if not in_endgame(p, UNIFORM):  # what a refusal reads (endgames are never refused)
            calibration.append((name, *exact_cost_parts(p), t_new))
        same = d_old == d_ref == d_new
        print(f"{name:34s} {t_old:7.2f}s {t_ref:9.2f}s {t_new:7.2f}s {t_float:7.2f}s   "
              f"{s_old:7d}/{s_ref:6d}/{s_new:7d} {estimate:14.3g} {cost:9.3g} ~{seconds:7.2f}s  {same}", flush=True)
    print("\ncost estimate (what a refusal reads): Knuth's probes down to the first endgame round start (tree nodes)")
    print("and the round starts of the endgames there; seconds = nodes * SECONDS_PER_NODE + endgame states *")
    print(f"SECONDS_PER_ENDGAME_STATE ({SECONDS_PER_NODE:.2g} and {SECONDS_PER_ENDGAME_STATE:.2g} in analysis/planning.py).")
    print("Measured on the positions that are not endgames themselves:")
    for name, nodes, endgame, t in calibration:
        per_node = (t - endgame * SECONDS_PER_ENDGAME_STATE) / max(nodes, 1)
        print(f"  {name:34s} {nodes:9.3g} nodes {endgame:9.3g} endgame states {t:7.2f}s: {per_node:.2g} s a node")


if __name__ == "__main__":
    main()
