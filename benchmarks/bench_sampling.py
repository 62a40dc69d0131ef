"""Where the time of a sampled analysis goes, printed (never asserted).

    .venv/bin/python benchmarks/bench_sampling.py [--games 1000000] [--preset advanced] [--first-only]
    .venv/bin/python benchmarks/bench_sampling.py --per-game


1. Time to the first game, cold (a new process) with numba's cache warm, for uniform and heuristic
   play: the imports, the first game, then 10,000 games; and ``guyenne-explore analyse --samples 1``
   from the shell, start to end.  (Cold cache: ``python -m guyenne_explore.analysis.sampling.warm``
   compiles it; this benchmark does so first when something is pending, and says so.)
2. Uniform sampling as ``analyse --samples N`` runs it, step by step: the compiled games on one and
   two threads (games/s), building the games' summaries, the result (counts, designer metrics and
   intervals, JSON), then the whole ``analyse`` on one and two threads; OpenSpiel's C++ uniform
   goofspiel with 13 cards in the same run, as a yardstick (installed by the ``bench`` extra).

3. ``--per-game`` alone: the seconds a game of uniform, the heuristic and strong against itself, on one core from
   the deal of each preset, played by the compiled loop and by the engine, beside the figures the cost said
   before sampled games uses (``planning.SECONDS_A_GAME``).

Times are wall-clock seconds with, where the machine is shared, the process's CPU seconds beside
them (a busy machine stretches the first, not the second).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numba  # noqa: E402

from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.analysis.api import analyse  # noqa: E402
from guyenne_explore.analysis.sampling import warm  # noqa: E402
from guyenne_explore.analysis.compiled.rollout import CHUNK, _games, play_summaries  # noqa: E402
from guyenne_explore.analysis.results import sampled_result  # noqa: E402

from bench_speed import goofspiel  # noqa: E402  the same yardstick as the fast simulator's benchmark

#: what a new process runs: the analysis' own entry (play_games), timed from the first line
CHILD = r"""
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from guyenne_explore.engine import Position
from guyenne_explore.analysis.sampling.sample import play_games
t1, c1 = time.perf_counter(), time.process_time()
p = Position.start(sys.argv[1])
policies = tuple(sys.argv[2].split(","))
play_games(p, policies, 1, 0)
t2, c2 = time.perf_counter(), time.process_time()
play_games(p, policies, 10_000, 1)
t3, c3 = time.perf_counter(), time.process_time()
print(json.dumps({"imports": [t1 - t0, c1 - c0], "first": [t2 - t1, c2 - c1], "games": [t3 - t2, c3 - c2]}))
"""


class Clock:
    """Wall and CPU seconds of a block: ``with Clock() as c: ...; c.wall, c.cpu``."""

    def __enter__(self) -> "Clock":
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self._wall, time.process_time() - self._cpu

    def __str__(self) -> str:
        return f"{self.wall:7.2f} s ({self.cpu:6.2f} s CPU)"


def first_games(preset: str) -> None:
    pending = warm.pending()
    if pending:
        print(f"  compiling first (the cache lacked {', '.join(s.what for s in pending)}): "
              f"{warm.prepare():.0f} s")
    cli = Path(sys.executable).parent / "guyenne-explore"
    for policies in ("uniform,uniform", "heuristic,heuristic", "heuristic,uniform"):
        t = time.perf_counter()
        got = subprocess.run([sys.executable, "-c", CHILD, preset, policies], capture_output=True, text=True,
                             cwd=ROOT, check=True)
        total = time.perf_counter() - t
        r = json.loads(got.stdout)
        print(f"  {policies:20s} imports {r['imports'][0]:5.2f} s ({r['imports'][1]:4.2f} CPU)  first game "
              f"{r['first'][0]:5.2f} s ({r['first'][1]:4.2f} CPU)  new process to first game {total - r['games'][0]:5.2f} s;"
              f"  then 10,000 games {r['games'][0]:5.2f} s")
        if cli.exists():
            t = time.perf_counter()
            subprocess.run([str(cli), "analyse", "--rules", preset, "--policies", policies, "--samples", "1"],
                           capture_output=True, check=True, cwd=ROOT)
            print(f"  {'':20s} guyenne-explore analyse --policies {policies} --samples 1: "
                  f"{time.perf_counter() - t:5.2f} s start to end")


def kernel_games(p: Position, games: int, threads: int) -> tuple[Clock, list]:
    """The compiled games in the chunks ``fast_games`` plays them in."""
    numba.set_num_threads(threads)
    play_summaries(p, 2000, 0)  # threads started, code loaded
    outs = []
    with Clock() as c:
        for lo in range(0, games, CHUNK):
            outs.append(play_summaries(p, min(CHUNK, games - lo), 1, lo))
    return c, outs


def breakdown(preset: str, games: int) -> None:
    p = Position.start(preset)
    policies = ("uniform", "uniform")
    one, outs = kernel_games(p, games, 1)
    two, _ = kernel_games(p, games, 2)
    print(f"  compiled games, 1 thread : {one}  {games / one.wall:9.0f} games/s ({games / one.cpu:9.0f} per CPU s)")
    print(f"  compiled games, 2 threads: {two}  {games / two.wall:9.0f} games/s ({one.wall / two.wall:.2f}x one thread)")
    with Clock() as c:
        samples = [g for out in outs for g in _games(out)]
    print(f"  the games' summaries     : {c}  ({len(set(samples))} distinct of {len(samples)})")
    with Clock() as c:
        import scipy.stats  # noqa: F401  (the intervals' library, imported by the first interval)
    print(f"  importing scipy.stats    : {c}")
    with Clock() as c:
        result = sampled_result(p, policies, samples)
    print(f"  the result (counts)      : {c}")
    with Clock() as c:
        result.to_json()
    print(f"  metrics, intervals, JSON : {c}")
    for threads in (1, 2):
        numba.set_num_threads(threads)
        with Clock() as c:
            analyse(p, policies, "sample", games=games, seed=1).to_json()
        print(f"  analyse + JSON, {threads} thread{'s' if threads > 1 else ' '}: {c}  {games / c.wall:9.0f} games/s")
    spiel = goofspiel()
    print("  OpenSpiel not installed (pip install -e '.[bench]'): no yardstick" if spiel is None else
          f"  OpenSpiel goofspiel(13), C++, 1 thread: {spiel[0]:9.0f} games/s")


def per_game(compiled_games: int = 5000, engine_games: int = 40) -> None:
    """Each compiled policy's game against itself from each preset's deal, by each sampler, in ms."""
    from guyenne_explore.engine import Rules
    from guyenne_explore.analysis.planning import SECONDS_A_GAME, Sampler
    from guyenne_explore.analysis.sampling.sample import play_games
    from guyenne_explore.engine.rules import PRESETS

    print("ms a game on one core, against itself from the deal: compiled loop / engine")
    levels = list(SECONDS_A_GAME[Sampler.COMPILED])  # the compiled levels with a cost said
    print(f"{'':12s}" + "".join(f"{level:>22s}" for level in levels))
    for preset in PRESETS:
        p = Position.start(Rules.preset(preset))
        cells = []
        for level in levels:
            play_games(p, (level, level), 50, 0)  # compiled (or loaded from numba's cache) before the clock
            times = []
            for n, sampler in ((compiled_games, Sampler.COMPILED), (engine_games, Sampler.ENGINE)):
                t = time.perf_counter()
                play_games(p, (level, level), n, 1, sampler=sampler)
                times.append((time.perf_counter() - t) / n * 1000)
            cells.append(f"{times[0]:9.3f} / {times[1]:6.1f}")
        print(f"{preset:12s}" + "".join(f"{c:>22s}" for c in cells), flush=True)
    said = [f"{SECONDS_A_GAME[Sampler.COMPILED][lv] * 1000:9.3f} / {SECONDS_A_GAME[Sampler.ENGINE][lv] * 1000:6.1f}"
            for lv in levels]
    print(f"{'cost said':12s}" + "".join(f"{c:>22s}" for c in said))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--preset", default="advanced")
    ap.add_argument("--first-only", action="store_true", help="only the time to the first game")
    ap.add_argument("--per-game", action="store_true", help="only each policy's seconds a game, by who plays it")
    args = ap.parse_args()
    if args.per_game:
        per_game()
        return
    print(f"time to the first game, {args.preset}, a new process, numba's cache warm")
    first_games(args.preset)
    if not args.first_only:
        print(f"uniform sampling of {args.games:,} games, {args.preset}, from the opening (numba threads: "
              f"{numba.config.NUMBA_NUM_THREADS} available)")
        breakdown(args.preset, args.games)


if __name__ == "__main__":
    main()
