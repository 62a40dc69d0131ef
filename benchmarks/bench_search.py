"""The search's strength and cost: a search against an opponent, both seats on the same deals.

Prints the search's score (a win 1, a draw 1/2) over both seats with its 95% Wilson
interval, the seconds taken, and the milliseconds of a search decision (mean, median and
90th percentile; then the median and 90th percentile of the process's CPU time, which is
what the wall time would be on an idle core of a busy machine).  The opponent is any policy name (``strong``, ``heuristic``, a
counter-policy) or ``tree:N``: the tree search (``ISMCTS(compiled=False)``, what team
sides and conceding as a decision get) with a budget of N rollouts.  Each seat plays
games ``0..games/2`` of the same seed, so the deals of round 1 are the same from both
sides.  One process: run it alone on a busy machine.

    .venv/bin/python benchmarks/bench_search.py --games 200 --search search:400 --against strong
    .venv/bin/python benchmarks/bench_search.py --games 60 --search search:400 --against tree:400
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.engine import Position, side_score  # noqa: E402
from guyenne_explore.analysis import PolicySpec  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.analysis.sampling.sample import sample_games  # noqa: E402
from guyenne_explore.analysis.policies.search import ISMCTS  # noqa: E402
from guyenne_explore.engine.rules import Rules  # noqa: E402
from timed import Timed  # noqa: E402


def make(name: str):
    if name.startswith("tree:"):
        return ISMCTS(int(name[5:]), compiled=False)
    return PolicySpec.parse(name).policy()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="games over both seats")
    ap.add_argument("--preset", default="advanced", help="a preset name or a rules JSON object")
    ap.add_argument("--search", default="search:400", help="the search, as the command line names it")
    ap.add_argument("--against", default="strong", help="a policy name or tree:N")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    p = Position.start(Rules.from_json(args.preset))
    search = Timed(make(args.search))
    t = time.perf_counter()
    points = 0.0
    for seat in (0, 1):
        pair = (search, make(args.against)) if seat == 0 else (make(args.against), search)
        out = sample_games(p, pair, args.games // 2, args.seed)
        points += sum(side_score(g.winner, seat) for g in out)
    games = 2 * (args.games // 2)
    low, high = wilson(points, games)
    print(f"{args.preset}: {args.search} vs {args.against}: {points / games:.3f} [{low:.3f}, {high:.3f}] over {games} "
          f"games in {time.perf_counter() - t:.0f} s; {1000 * search.seconds / max(1, search.decisions):.0f} ms "
          f"a search decision ({search.decisions} decisions), median {1000 * _quantile(search.times, 0.5):.0f} ms, "
          f"90th percentile {1000 * _quantile(search.times, 0.9):.0f} ms; CPU time a decision: median "
          f"{1000 * _quantile(search.cpu, 0.5):.0f} ms, 90th percentile {1000 * _quantile(search.cpu, 0.9):.0f} ms "
          f"(with more than one legal move, {len(search.choices)} decisions: median "
          f"{1000 * _quantile(search.choices, 0.5):.0f} ms, 90th percentile {1000 * _quantile(search.choices, 0.9):.0f} ms)")


def _quantile(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


if __name__ == "__main__":
    main()
