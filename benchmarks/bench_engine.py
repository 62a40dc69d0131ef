"""Print figures of the plain engine (no fast simulator): exact enumeration of the check positions and
sampled games/s per preset.  ``bench_speed.py`` gives the fast simulator's figures.

Run: python benchmarks/bench_engine.py [--skip-slow]
"""

import pathlib
import random
import sys
import time

from guyenne_explore.engine import Position
from guyenne_explore.analysis.exact.distribution import exact_distribution
from guyenne_explore.analysis.policies import Uniform
from guyenne_explore.analysis.sampling.sample import play_out

ROOT = pathlib.Path(__file__).resolve().parent.parent
SLOW = {"advanced-endgame-4v4", "base-live-decks", "expert-third-cycle"}


def main() -> None:
    skip_slow = "--skip-slow" in sys.argv
    print("exact enumeration on the engine alone (uniform policies)")
    for path in sorted((ROOT / "tests" / "positions").glob("*.json")):
        name = path.name[:-5]
        if name.endswith((".moves", ".expected")) or (skip_slow and name in SLOW):
            continue
        p = Position.from_json(path.read_text())
        t = time.perf_counter()
        _, states = exact_distribution(p, (Uniform(), Uniform()), fast=False)
        dt = time.perf_counter() - t
        print(f"  {name:32s} {dt:8.2f} s  {states:7d} round-start states  {states / dt:9.0f} states/s")
    print("sampled uniform games from the start (one core)")
    for preset in ("base", "advanced", "expert", "classic2021", "team", "team3"):
        start = Position.start(preset)
        n, t = 0, time.perf_counter()
        while time.perf_counter() - t < 3.0:
            play_out(start, (Uniform(), Uniform()), random.Random(n))
            n += 1
        dt = time.perf_counter() - t
        print(f"  {preset:12s} {n / dt:8.1f} games/s")


if __name__ == "__main__":
    main()
