"""Does the expert setup discard matter, and does strong's own beat the heuristic's? (issue 47, "the expert discard")

The package's network for ``--rules`` (a rule set with a setup discard) plays ``--games`` games a seat against
``strong-linear`` with each discard below, given as the learned discard's weights (``policies.discard``: minus the
worth, the weakest kind's cards, the kinds kept): the heuristic's (the file as shipped), a uniform random discard
(every weight 0: every discard scores alike), the strongest cards set aside, the weakest kept for bluffs, the
heuristic's softer; then the file's own discard if it has one.  Both seats, 95% Wilson intervals.

    .venv/bin/python benchmarks/bench_discard.py --rules expert --games 5000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.analysis.policies.discard import HEURISTIC_DISCARD, split_discard, with_discard  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.analysis.policies.train import score  # noqa: E402
from guyenne_explore.engine import Position  # noqa: E402

#: the discards played, as the learned discard's weights (worth, weakest, kinds)
DISCARDS = {"the heuristic's: the weakest set aside": HEURISTIC_DISCARD,
            "uniform random": (0.0, 0.0, 0.0),
            "the strongest set aside": (1.0, 0.0, 0.0),
            "the weakest kept for bluffs": (-1.0, -2.0, 0.0),
            "the heuristic's, softer (T=1)": (-0.1, 0.0, 0.0)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="expert", help="a rule set with a setup discard (preset or rules JSON)")
    ap.add_argument("--games", type=int, default=5000, help="games a seat")
    ap.add_argument("--seed", type=int, default=470_000)
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    if not rules.pre_discard:
        ap.error(f"--rules: {args.rules} has no setup discard")
    start, model = Position.start(rules), Strong().model_for(rules)
    linear = Strong(linear=True).compiled(rules)
    own = split_discard(model)[1]
    played = {**DISCARDS, **({"the file's own": own} if own else {})}
    for name, weights in played.items():
        s = score(start, with_discard(model, weights), linear, args.games, args.seed)
        low, high = wilson(s * 2 * args.games, 2 * args.games)
        print(f"{name:>40}: {s:.3f} [{low:.3f}, {high:.3f}] against strong-linear over {2 * args.games} games",
              flush=True)


if __name__ == "__main__":
    main()
