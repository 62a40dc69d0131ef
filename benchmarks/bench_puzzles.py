"""Puzzles from bot games: how many games each preset needs for 50 puzzles, their tags, and how long a position
takes to verify.

Run: ``.venv/bin/python benchmarks/bench_puzzles.py [WANTED] [PRESETS]`` (default 50 puzzles of base, advanced,
expert, classic2021, team and team3; the heuristic against strong, the search's 400 rollouts a candidate; bot games are played
one at a time until WANTED puzzles are found, within the cap of ``puzzles --from-games``).  Prints, per preset, the
games played, the puzzles found and their tags, and the seconds a position took to verify (mean and slowest) in
processor time of the process (the machine's other work does not lengthen it, as it does the wall clock).
Before a preset is timed, one position of a game outside the count is verified: the first verification of a
process loads the compiled search from numba's cache (about a second), which is not the puzzle's cost; that
warm-up is excluded (an earlier run counted it, in wall-clock time on a busy machine: its slowest was 2.31 s).
"""

from __future__ import annotations

import sys
from collections import Counter

from guyenne_explore.analysis.puzzles import PuzzleFinder, bot_games, puzzles_from_bot_games
from guyenne_explore.analysis.puzzles import DECISIONS


def warm_up(finder: PuzzleFinder, preset: str) -> None:
    """Verify one decision of a game outside the count (seeded far from it), then forget its time."""
    positions = bot_games(preset, 1, seed=1_000_000)[0].positions()
    first = next(i for i, p in enumerate(positions) if p.to_play in DECISIONS and len(p.legal_moves) > 1)
    finder.verify(positions[: first + 1], "warm-up")
    finder.seconds.clear()


def main() -> None:
    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    presets = sys.argv[2].split(",") if len(sys.argv) > 2 else ["base", "advanced", "expert", "classic2021", "team", "team3"]
    for preset in presets:
        finder = PuzzleFinder()
        warm_up(finder, preset)
        found, played = puzzles_from_bot_games(preset, wanted, finder=finder)
        tags = Counter(t for pz in found for t in pz.tags)
        methods = Counter(pz.method for pz in found)
        slowest = max(finder.seconds)
        print(f"{preset}: {len(found)} puzzles from {played} games ({dict(methods)}); tags {dict(tags)}; "
              f"a position verified in {sum(finder.seconds) / len(finder.seconds):.3f} s on average, "
              f"{slowest:.3f} s at most (processor time; {len(finder.seconds)} positions, warm-up excluded)", flush=True)


if __name__ == "__main__":
    main()
