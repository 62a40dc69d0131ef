"""The playtest report's speed (issue 44): reading each decision at a search budget, then the report once the
decisions are read (from the cache).  Targets: at most 1 s a decision at search:400, at most 10 s for the report
of 20 games once read.  Printed, never asserted.

    .venv/bin/python benchmarks/bench_playtest.py [--games 20] [--budget search:400] [--rules advanced]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.analysis.playtest import budget_of, playtest_report, reading_cost  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import Heuristic  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.engine.record import RecordHeader, Seat, play_game  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--budget", default="search:400")
    ap.add_argument("--rules", default="advanced", help="a preset name or rules JSON")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    start = Position.start(rules)
    named = []
    for i in range(args.games):  # "people": the heuristic against strong, a header naming them
        record = play_game(start, i, (Heuristic(), Strong()))
        record.header = RecordHeader.new(rules, [Seat("english", 0, "person", name="Ann"),
                                                 Seat("french", 0, "person", name="Ben")])
        named.append((f"game{i}", record))
    budget = budget_of(args.budget)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["GUYENNE_CACHE"] = cache
        decisions, draws, _cached, said = reading_cost([r for _n, r in named], budget)
        t = time.perf_counter()
        playtest_report(named, budget=budget, bot_games=200)
        first = time.perf_counter() - t
        t = time.perf_counter()
        playtest_report(named, budget=budget, bot_games=200)
        again = time.perf_counter() - t
    read = first - again
    print(f"{args.games} games, {decisions} decisions and {draws} draws at {args.budget} ({args.rules})")
    print(f"reading: {read:.1f} s (cost said {said:.1f} s): {read / max(1, decisions + draws):.3f} s an event "
          f"(target: at most 1 s a decision)")
    print(f"the report once read (cache warm, 200 bot games a level): {again:.1f} s (target: at most 10 s)")


if __name__ == "__main__":
    main()
