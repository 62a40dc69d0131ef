"""The training's cost said before it runs against the time its iterations take (the variant lab's and the skill levels
tab's "Training strong for this variant takes about ...", the command ``train``'s cost line).

    .venv/bin/python benchmarks/bench_training_pace.py --rules '{"preset":"advanced","hand_size":7}' --iterations 2

It works out :func:`guyenne_explore.analysis.policies.natural.iteration_seconds` (what the panels say, a second or two
of timed games) three times, then runs ``--iterations`` of the natural gradient with the panels' settings and prints
the seconds an iteration took beside them.  Printed, never asserted.

Measured here (2026-12-01, two cores otherwise idle, the variant of advanced above, 200,000 games an iteration):

- the estimate as it was, the paired games timed in self-play alone: 114 s said, 65 s taken (the league's heuristic
  and counters play faster than the network, and the run plays them a chunk each);
- timed against the run's own league as the difference of two calls: 45 to 58 s said, then on another run 83, 85
  and 34 s (a slope of two short calls is noisy), and the first in a process low (warmed on the policy alone);
- now (the mean pace of both calls after an untimed round against every opponent): 51.0, 55.9 and 58.3 s said, 58.6
  s taken.  A panel measures it once per rules and games (its first figure, here 51 s: 3.4 minutes said for four
  iterations that take 3.9).
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
