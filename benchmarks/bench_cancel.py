"""How long Cancel and Ctrl-C take to stop skilled play, and how soon the next run starts.

    .venv/bin/python benchmarks/bench_cancel.py [--policy search:400] [--after 4]

Each line is one way a run is stopped, ``--after`` seconds into search games (English searching,
French heuristic, advanced from before the deal): the seconds from the request until the call
returned (every worker stopped or killed), and the seconds the next run of two short games took
on the same executor.  Ctrl-C is sent to the command line's whole process group, as a terminal does,
and timed until the command has exited.  Printed, never asserted (tests/test_cancel.py checks what a
stopped run leaves behind, whatever the machine's load).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

from guyenne_explore.engine import Position
from guyenne_explore.analysis.cancel import Cancelled
from guyenne_explore.analysis.sampling.sample import play_games, sample_games_on
from guyenne_explore.analysis.workers import process_pool

START = Position.start("advanced")
NEXT = ("search:10", "uniform")


def stop_after(after: float):
    """A progress callback that asks to stop ``after`` seconds in; returns it and when it asked."""
    asked: list[float] = []
    t0 = time.monotonic()

    def progress(done: int, total: int) -> bool | None:
        if time.monotonic() - t0 < after:
            return None
        if not asked:
            asked.append(time.monotonic())
        return False
    return progress, asked


def timed(label: str, run, after: float, rerun) -> None:
    progress, asked = stop_after(after)
    try:
        run(progress)
        print(f"{label:34s} ended before the request")
        return
    except Cancelled:
        stopped = time.monotonic() - asked[0]
    t = time.monotonic()
    rerun()
    print(f"{label:34s} stopped {stopped:5.2f} s after the request; next run of 2 games {time.monotonic() - t:5.2f} s")


def ctrl_c(policy: str, after: float) -> None:
    cmd = [sys.executable, "-m", "guyenne_explore", "analyse", "--rules", "advanced", "--policies",
           f"english={policy},french=heuristic", "--samples", "200", "--seed", "1", "--workers", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(after + 3)  # the command's start-up, then games under way
    t = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate()
    print(f"{'command line, Ctrl-C (2 workers)':34s} exited {time.monotonic() - t:5.2f} s after Ctrl-C "
          f"(exit {proc.returncode}: {err.strip().splitlines()[-1] if err.strip() else ''})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="search:400", help="the English side's policy (default search:400)")
    parser.add_argument("--after", type=float, default=4.0, help="seconds into the run before Cancel")
    args = parser.parse_args()
    names = (args.policy, "heuristic")
    print(f"Cancel {args.after:g} s into {args.policy} against heuristic, advanced before the deal "
          f"(load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    timed("this process", lambda pr: play_games(START, names, 50, 1, progress=pr), args.after,
          lambda: play_games(START, NEXT, 2, 5))
    with process_pool(2) as pool:
        timed("local pool, 2 workers", lambda pr: sample_games_on(pool, START, names, 50, 1, progress=pr),
              args.after, lambda: sample_games_on(pool, START, NEXT, 2, 5))
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("Dask: not installed")
    else:
        import logging

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            ex = client.get_executor()
            timed("Dask, 2 workers", lambda pr: sample_games_on(ex, START, names, 50, 1, progress=pr, chunk=2),
                  args.after, lambda: sample_games_on(ex, START, NEXT, 2, 5))
    ctrl_c(args.policy, args.after)


if __name__ == "__main__":
    main()
