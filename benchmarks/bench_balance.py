"""The balance lab's targets (issue 22), printed (never asserted).

    .venv/bin/python benchmarks/bench_balance.py [--workers 2] [--games 400] [--depth-games 400]
                                                 [--only search|depth]

1. A two-parameter search over ``advanced`` (hand_size 5-7 x castles 5-7, nine candidates) under
   ``strong`` play, target advantage 0.48:0.52, 400 games a candidate, then the best candidate played on
   until its first-player advantage is known to +-0.02 (``--precision 0.02``: 95% interval half-width);
   target: within 15 minutes.
2. The skill chain of ``advanced`` with the levels uniform, heuristic, strong, search:100 at 400 deals a
   pair (each in both seats; a tenth where the search plays); target: within 5 minutes.

Each runs the command line (``guyenne-explore balance``, ``guyenne-explore depth``) in a new process, as a
designer would, and prints its wall-clock time beside the target (a shared machine stretches it), with the
figures the command answered.  With
fewer ``--depth-games`` than 400, the ladder's time at 400 is extrapolated per match, and said so.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "guyenne_explore"]


def run(args: list[str]) -> tuple[dict, float]:
    """The command's JSON answer and its wall-clock seconds."""
    start = time.monotonic()
    done = subprocess.run(CLI + args + ["--json"], cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout), wall


def verdict(seconds: float, target: float) -> str:
    return f"within {target / 60:g} minutes" if seconds <= target else f"over {target / 60:g} minutes"


def search(workers: int, games: int) -> None:
    args = ["balance", "--rules", "advanced", "--vary", "hand_size=5:7", "--vary", "castles=5:7",
            "--target", "advantage=0.48:0.52", "--policies", "strong", "--games", str(games), "--trials", "9",
            "--precision", "0.02", "--workers", str(workers)]
    data, wall = run(args)
    best = data["best"]
    first = best["metrics"]["Advantage (first side)"]
    low, high = first["ci95"]
    print("1. balance search: guyenne-explore " + " ".join(args))
    print(f"   {data['candidates']} candidates, {data['played']:,} games, wall {wall:.1f} s: "
          f"{verdict(wall, 15 * 60)} (target 15 minutes)")
    print(f"   best {best['settings']} ({best['games']:,} games): first-player advantage {first['value']:.4f} "
          f"[{low:.4f}, {high:.4f}], half-width {max(high - first['value'], first['value'] - low):.4f} "
          f"({'known to +-0.02' if best['precise'] else 'NOT known to +-0.02'}); meets the target: {best['meets']}")


def depth(workers: int, games: int) -> None:
    levels = "uniform,heuristic,strong,search:100"
    args = ["depth", "--rules", "advanced", "--levels", levels, "--games", str(games), "--workers", str(workers)]
    per_match = []
    total_wall = 0.0
    names = levels.split(",")
    for weaker, stronger in zip(names, names[1:]):  # one match a run: the time of each, for the extrapolation
        data, wall = run(args[:4] + [f"{weaker},{stronger}"] + args[5:])
        per_match.append((weaker, stronger, wall, data))
        total_wall += wall
    print("2. skill chain: guyenne-explore " + " ".join(args) + "  (each match in its own run)")
    for weaker, stronger, wall, match in per_match:
        m = match["matches"][0]
        print(f"   {weaker:9s} vs {stronger:10s}: score of the stronger {m['score']['value']:.3f} "
              f"[{m['score']['ci95'][0]:.3f}, {m['score']['ci95'][1]:.3f}], luck share {m['luck']['value']:.3f}, "
              f"{m['score']['games']} deals, wall {wall:.1f} s")
    print(f"   the ladder at {games} games a pair: wall {total_wall:.1f} s (each run's start-up included): "
          f"{verdict(total_wall, 5 * 60)} (target 5 minutes)")
    if games < 400:
        scale = 400 / games
        print(f"   extrapolated to 400 games a pair (x{scale:g} each match's games; its start-up counted as games, "
              f"so an upper bound): wall {total_wall * scale:.0f} s: {verdict(total_wall * scale, 5 * 60)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=int, default=400, help="games a candidate of the search")
    ap.add_argument("--depth-games", type=int, default=400, help="deals a pair of the ladder")
    ap.add_argument("--only", choices=("search", "depth"))
    args = ap.parse_args()
    if args.only != "depth":
        search(args.workers, args.games)
    if args.only != "search":
        depth(args.workers, args.depth_games)


if __name__ == "__main__":
    main()
