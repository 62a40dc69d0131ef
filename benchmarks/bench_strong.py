"""The learned policy's strength: its score against the heuristic, uniform, the counter-policies and
the search, both seats, with 95% Wilson intervals, and its speed in self-play against uniform's.

The heuristic and uniform pairings are compiled games (fresh seeds, none of the training's); the
counter-policies and the search play the Python twin in the engine's loop (the same policy, proven
move for move in tests/test_strong.py).

    .venv/bin/python benchmarks/bench_strong.py --games 1000 --engine-games 400 --lookahead-games 60 --search-games 0
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from guyenne_explore import Position  # noqa: E402
from guyenne_explore.analysis.api import policy_named  # noqa: E402
from guyenne_explore.analysis.compiled import layout as kn  # noqa: E402
from guyenne_explore.analysis.compiled.rollout import play_summaries  # noqa: E402
from guyenne_explore.analysis.compiled.sides import UNIFORM_SIDE, UNIFORM_SIDES  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.analysis.policies.counters import COUNTERS, SEARCHING  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import Heuristic  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.analysis.sampling.sample import sample_games  # noqa: E402
from guyenne_explore.rules import Rules  # noqa: E402


def row(name: str, points: list[float], games: int, secs: float) -> None:
    total = points[0] + points[1]
    low, high = wilson(round(total), 2 * games)
    print(f"strong vs {name:<14} {total / (2 * games):.3f} [{low:.3f}, {high:.3f}]  as english {points[0] / games:.3f}"
          f"  as french {points[1] / games:.3f}  ({2 * games} games, {secs:.1f} s)", flush=True)


def compiled(p: Position, name: str, games: int, seed: int) -> None:
    me, other = Strong().compiled(), Heuristic().compiled() if name == "heuristic" else UNIFORM_SIDE
    points, t = [0.0, 0.0], time.perf_counter()
    for seat, pair in enumerate(((me, other), (other, me))):
        won = play_summaries(p, games, seed + seat, sides=pair)[:, kn.OUT_WINNER]
        points[seat] = float(np.sum(won == seat) + 0.5 * np.sum(won == kn.DRAW_WINNER))
    row(name + " (compiled)", points, games, time.perf_counter() - t)


def engine(p: Position, name: str, games: int, seed: int) -> None:
    make = (lambda: COUNTERS[name]()) if name in COUNTERS else (lambda: policy_named(name))
    points, t = [0.0, 0.0], time.perf_counter()
    for seat in range(2):
        pols = (Strong(), make()) if seat == 0 else (make(), Strong())
        out = sample_games(p, pols, games, seed + seat)
        side = ("english", "french")[seat]
        points[seat] = sum(1.0 if g.winner == side else 0.5 if g.winner == "draw" else 0.0 for g in out)
    row(name, points, games, time.perf_counter() - t)


def speed(p: Position, games: int) -> None:
    rates = {}
    for name, sides in (("uniform", UNIFORM_SIDES), ("strong", (Strong().compiled(), Strong().compiled())),
                        ("heuristic", (Heuristic().compiled(), Heuristic().compiled()))):
        play_summaries(p, 50, 0, sides=sides)  # compiled and warm
        t = time.perf_counter()
        play_summaries(p, games, 1, sides=sides)
        rates[name] = games / (time.perf_counter() - t)
    print(f"self-play, one thread: uniform {rates['uniform']:.0f} games/s, heuristic {rates['heuristic']:.0f}, strong "
          f"{rates['strong']:.0f} ({rates['strong'] / rates['uniform']:.3f} of uniform's; the target is 0.05)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="advanced", help="a preset name")
    ap.add_argument("--games", type=int, default=1000, help="compiled games a seat (heuristic, uniform)")
    ap.add_argument("--engine-games", type=int, default=100, help="engine games a seat against each counter-policy")
    ap.add_argument("--lookahead-games", type=int, default=None,
                    help="engine games a seat against the searching counters (lookahead, exploiter; default a quarter "
                         "of --engine-games)")
    ap.add_argument("--search-games", type=int, default=0, help="engine games a seat against search:100")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    p = Position.start(Rules.from_json(args.preset))
    compiled(p, "heuristic", args.games, args.seed)
    compiled(p, "uniform", args.games, args.seed)
    speed(p, args.games)
    slow = max(1, args.engine_games // 4) if args.lookahead_games is None else args.lookahead_games
    for name in COUNTERS if args.engine_games else ():
        n = slow if name in SEARCHING else args.engine_games
        if n:
            engine(p, name, n, args.seed)
    if args.search_games:
        engine(p, "search:100", args.search_games, args.seed)


if __name__ == "__main__":
    main()
