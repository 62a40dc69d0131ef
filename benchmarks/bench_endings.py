"""How games end from the opening, per rule set: the Sweep metric (the engine's endings) beside the
old count (any score of 12), on the compiled uniform games.

Run: ``.venv/bin/python benchmarks/bench_endings.py [GAMES]``.
"""

from __future__ import annotations

import sys
from collections import Counter

from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis.compiled.rollout import fast_games
from guyenne_explore.analysis.metrics import designer_metrics
from guyenne_explore.engine.scoring import ENDINGS

RULES = [Rules.preset("base"), Rules.preset("advanced"), Rules.preset("expert"), Rules.preset("classic2021"),
         Rules.preset("base", castles=7), Rules.preset("advanced", castles=8, adjacency="ring")]


def main(games: int = 3000) -> None:
    print(f"{games} uniform games from the opening, seed 0")
    print(f"{'rules':40} {'Sweep':>7} {'score 12':>9}  " + "  ".join(f"{e:>12}" for e in ENDINGS))
    for rules in RULES:
        out = fast_games(Position.start(rules), games, seed=0)
        sweep = {m.name: m for m in designer_metrics(out)}["Sweep"].value
        twelve = sum(12 in (g.english, g.french) for g in out) / games
        ends = Counter(g.ending for g in out)
        print(f"{str(rules):40} {sweep:7.2%} {twelve:9.2%}  " + "  ".join(f"{ends[e] / games:12.2%}" for e in ENDINGS))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
