"""Time of building the explorer and of applying one move in it, in this process (headless widgets, no browser).

Builds the explorer as an app's kernel does (the first build, as a visit's new kernel does, loads the compiled code's
tables and looks the fast simulator up; the next ones are mostly the widgets), then opens it on a dealt opening (advanced
rules, seed 1), plays the first legal move and steps Back, ``ROUNDS`` times, and prints the median time of the move
(from the moves panel's Apply to every panel showing the new position) and of the Back step.

    .venv/bin/python benchmarks/bench_explorer.py
"""
from __future__ import annotations

import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guyenne_explore.widgets.explorer import Explorer  # noqa: E402
from guyenne_explore.widgets.starts import opening  # noqa: E402

ROUNDS = 30


def main() -> None:
    built = []
    for _ in range(4):
        t = time.perf_counter()
        Explorer()
        built.append(time.perf_counter() - t)
    start = opening("advanced", 1)
    e = Explorer(start)
    move = next(iter(start.legal_moves)).text()
    played, back = [], []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        assert e.moves.try_move(move)
        t1 = time.perf_counter()
        e.moves.step(-1)
        t2 = time.perf_counter()
        played.append(t1 - t)
        back.append(t2 - t1)
    after = start.apply(move)
    assert e.moves.position == start and e.table.position == start
    assert e.moves.try_move(move) and e.analysis.position == after and e.table.position == after
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"build the explorer: first {built[0] * 1000:6.0f} ms, then median {statistics.median(built[1:]) * 1000:.0f} ms")
    print(f"apply one move ({move}): median {statistics.median(played) * 1000:6.1f} ms over {ROUNDS} "
          f"(min {min(played) * 1000:.1f} ms)")
    print(f"Back one step:           median {statistics.median(back) * 1000:6.1f} ms over {ROUNDS} "
          f"(min {min(back) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
