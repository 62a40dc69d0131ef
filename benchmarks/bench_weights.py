"""A preset's trained weights of ``strong`` against advanced's (or ``--against`` another file's, such as
the weights a run started from: ``git show COMMIT:PATH > old.json``) under that preset, and both against the
heuristic: compiled games on seeds apart from training's, both seats (a win 1, a draw 1/2).  Printed, never
asserted: the figure that decides whether a trained file is worth shipping.

    .venv/bin/python benchmarks/bench_weights.py --rules expert [--file FILE] [--against OLD] [--games 2000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.analysis.policies import train  # noqa: E402
from guyenne_explore.analysis.policies import weights as files  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import Heuristic  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong, load_weights  # noqa: E402
from guyenne_explore.engine.rules import Rules  # noqa: E402

#: seeds apart from every training run's (generations use seed * 1000 + ..., validation seed + 1_000_003)
SEED = 777_000


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="expert", help="a preset name or rules JSON")
    ap.add_argument("--file", help="the trained weights (default: the package's file of the preset)")
    ap.add_argument("--against", help="the weights to play against (default: the package's file of advanced)")
    ap.add_argument("--games", type=int, default=2000, help="games a seat")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    start = Position.start(rules)
    trained = load_weights(Path(args.file) if args.file else files.preset_file(rules))
    advanced = (load_weights(Path(args.against)) if args.against
                else files.shipped(files.preset_file(Rules.from_json("advanced"))))
    duel = train.score(start, trained, Strong(advanced).compiled(), args.games, SEED)
    heuristic = Heuristic().compiled()
    mine, theirs = (train.score(start, w, heuristic, args.games, SEED) for w in (trained, advanced))
    other = args.against or "advanced's weights"
    print(f"{args.rules}: trained against {other} {duel:.3f} ({2 * args.games} games, seeds {SEED}+); "
          f"against the heuristic: trained {mine:.3f}, {other} {theirs:.3f}")


if __name__ == "__main__":
    main()
