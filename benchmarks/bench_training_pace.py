"""The training's cost said before it runs against the time its iterations take (the variant lab's and the skill levels
tab's "Training strong for this variant takes about ...", the command ``train``'s cost line).

    .venv/bin/python benchmarks/bench_training_pace.py --rules '{"preset":"advanced","hand_size":7}' --iterations 2

It works out :func:`guyenne_explore.analysis.policies.natural.iteration_seconds` (what the panels say, a second or two
of timed games) three times, then runs ``--iterations`` of the natural gradient with the panels' settings and prints
the seconds an iteration took beside them.  Printed, never asserted.

Measured here (2026-12-01, two cores otherwise idle, the variant of advanced above, 200,000 games an iteration): the
estimate timed the paired games in self-play alone and said 114 s an iteration where the run took 65 s (the league's
heuristic and counters play faster than the network, and the run plays them a chunk each); timed against the run's
own league it says 45 to 58 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.analysis.policies import natural  # noqa: E402
from guyenne_explore.cli.common import rules_arg  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default='{"preset":"advanced","hand_size":7}', help="a preset name or a rules JSON object")
    ap.add_argument("--games", type=int, default=int(natural.NATURAL_DEFAULTS["games"]), help="games an iteration")
    ap.add_argument("--iterations", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    for _ in range(3):
        t = time.perf_counter()
        said = natural.iteration_seconds(rules, args.games)
        print(f"said: {said:.1f} s an iteration (worked out in {time.perf_counter() - t:.1f} s)", flush=True)
    t = time.perf_counter()
    natural.natural(rules, args.seed, args.iterations, args.games)
    took = (time.perf_counter() - t) / args.iterations
    print(f"took: {took:.1f} s an iteration over {args.iterations} (the start's validation included)", flush=True)


if __name__ == "__main__":
    main()
