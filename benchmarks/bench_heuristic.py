"""Speed of the compiled heuristic against the compiled uniform games, in the same run.

    .venv/bin/python benchmarks/bench_heuristic.py [--games 20000] [--preset advanced] [--threads 1]

Prints games per second (one process, ``--threads`` numba threads) of uniform self-play,
heuristic against uniform and heuristic self-play from the opening, then the ratio to the
uniform rate (the issue's bar: at least 1/4), and the Python heuristic's rate for scale.
With one thread the clock is the process's CPU time, so that other work on a shared machine
does not count; each line also gives the rounds and decisions of a game (heuristic games last
longer than uniform ones, which is part of their cost).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba  # noqa: E402

from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.analysis.compiled import kernel as kn  # noqa: E402
from guyenne_explore.analysis.compiled.rollout import play_summaries  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import Heuristic  # noqa: E402
from guyenne_explore.analysis.policies.sides import compiled_sides  # noqa: E402
from guyenne_explore.analysis.policies import Uniform  # noqa: E402
from guyenne_explore.analysis.sampling.sample import sample_games  # noqa: E402
from guyenne_explore.engine.rules import Rules  # noqa: E402


def rates(runs: dict, repeats: int = 5, clock=time.perf_counter) -> dict:
    """Best games/s of each run over ``repeats`` rounds, the runs interleaved so that a busy machine
    slows them alike (the ratios are what the bar is about)."""
    for run, games in runs.values():
        run(max(1, games // 100))  # compile and warm up
    best = {name: 0.0 for name in runs}
    for _ in range(repeats):
        for name, (run, games) in runs.items():
            t = clock()
            run(games)
            best[name] = max(best[name], games / (clock() - t))
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--preset", default="advanced")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    p = Position.start(Rules.from_json(args.preset))
    runs = {("uniform", "uniform"): (lambda n: play_summaries(p, n, 1), args.games)}
    for pols in (("heuristic", "uniform"), ("heuristic", "heuristic")):
        runs[pols] = (lambda n, pols=pols: play_summaries(p, n, 1, sides=compiled_sides(pols)), args.games // 4)
    clock = time.process_time if args.threads == 1 else time.perf_counter
    best = rates(runs, clock=clock)
    uniform = best[("uniform", "uniform")]
    print(f"{args.preset}, {args.threads} thread(s), from the opening, best of 5 interleaved rounds "
          f"({'CPU' if args.threads == 1 else 'wall'} time)")
    for (a, b), r in best.items():
        out = runs[(a, b)][0](2000)
        rounds, decisions = out[:, kn.OUT_ROUNDS].mean(), out[:, kn.OUT_DECISIONS].mean()
        print(f"  {a:9s} vs {b:9s} {r:10.0f} games/s (compiled)  {r / uniform:.2f} of the uniform rate  "
              f"({1e6 / r:5.1f} us a game of {rounds:.1f} rounds, {decisions:.1f} decisions)")
    py = rates({"python": (lambda n: sample_games(p, (Heuristic(), Uniform()), n, 1), 40)}, repeats=1)["python"]
    print(f"  heuristic vs uniform   {py:10.1f} games/s (Python engine)")


if __name__ == "__main__":
    main()
