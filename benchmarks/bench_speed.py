"""Speed figures of the fast path, printed (never asserted).

Run: python benchmarks/bench_speed.py [--seconds S]

1. Uniform-random full games from the opening under ``advanced`` on one and two
   threads, with placement decisions per second, beside OpenSpiel's C++
   uniform-random goofspiel with 13 cards (``pyspiel.evaluate_bots``) in the same run.
2. Exact distributions of the check positions and of endgames after the last
   reshuffle, through the analysis (endgame solver).
3. Interactive paths: legal moves and diagram of each check position.
"""

from __future__ import annotations

import pathlib
import sys
import time

import numba

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guyenne_explore import Position  # noqa: E402
from guyenne_explore.cards import Cards  # noqa: E402
from guyenne_explore.position import evolve  # noqa: E402
from guyenne_explore.analysis.api import analyse  # noqa: E402
from guyenne_explore.analysis.fast import kernel as kn  # noqa: E402
from guyenne_explore.analysis.fast.rollout import play_summaries  # noqa: E402
from guyenne_explore.render.svg import position_svg  # noqa: E402

SECONDS = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 3.0
POSITIONS = ROOT / "tests" / "positions"


def rollouts(preset: str, threads: int) -> tuple[float, float]:
    """Games/s and placement decisions/s from the opening (each round has four placements)."""
    numba.set_num_threads(threads)
    p = Position.start(preset)
    play_summaries(p, 2000, 0)  # compile / load the cache outside the timing
    games, placements, t = 0, 0, time.perf_counter()
    batch = 100_000
    while time.perf_counter() - t < SECONDS:
        out = play_summaries(p, batch, 0, start_index=games)
        games += batch
        placements += int(out[:, kn.OUT_ROUNDS].sum()) * 4
    dt = time.perf_counter() - t
    return games / dt, placements / dt


def goofspiel() -> tuple[float, float] | None:
    """OpenSpiel's uniform-random goofspiel(13): games/s and decisions/s (26 per game: 13 turns, 2 players)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("goofspiel(num_cards=13,players=2)")
    bots = [pyspiel.make_uniform_random_bot(i, 1000 + i) for i in range(2)]
    n, t = 0, time.perf_counter()
    while time.perf_counter() - t < SECONDS:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
        n += 1
    dt = time.perf_counter() - t
    return n / dt, n * 2 * game.max_game_length() / dt


def main() -> None:
    print(f"uniform-random games from the opening (advanced), {SECONDS:.0f} s each")
    one, one_dec = rollouts("advanced", 1)
    two, two_dec = rollouts("advanced", 2)
    print(f"  guyenne_explore 1 thread : {one:10.0f} games/s  {one_dec:12.0f} placement decisions/s")
    print(f"  guyenne_explore 2 threads: {two:10.0f} games/s  {two_dec:12.0f} placement decisions/s"
          f"  ({two / one:.2f}x one thread)")
    spiel = goofspiel()
    if spiel is None:
        print("  OpenSpiel not installed (pip install -e '.[bench]'): no comparison")
    else:
        print(f"  OpenSpiel goofspiel(13)  : {spiel[0]:10.0f} games/s  {spiel[1]:12.0f} decisions/s"
              f"  (ours / theirs, one thread: {one_dec / spiel[1]:.2f}x)")
    numba.set_num_threads(1)
    for preset in ("base", "expert", "classic2021"):
        g, _ = rollouts(preset, 1)
        print(f"  {preset:12s} 1 thread : {g:10.0f} games/s")

    print("exact distributions through the analysis (endgame solver where it applies)")
    for path in sorted(POSITIONS.glob("*.json")):
        if path.name.endswith((".moves.json", ".expected.json")):
            continue
        p = Position.from_json(path.read_text())
        t = time.perf_counter()
        r = analyse(p, method="exact", force=True)
        dt = time.perf_counter() - t
        print(f"  {path.stem:28s} {dt:8.3f} s  {r.states:6d} states  {r.states / dt:9.0f} states/s")

    print("exact endgames: base-live-decks with cards moved from removed to the decks (hands of 6)")
    base = Position.from_json((POSITIONS / "base-live-decks.json").read_text())
    for extra in (0, 1, 2, 3):
        sides = tuple(evolve(s, deck=s.deck + Cards.parse("2" * extra), removed=s.removed - Cards.parse("2" * extra))
                      for s in base.sides)
        p = evolve(base, sides=sides)
        t = time.perf_counter()
        r = analyse(p, method="exact")
        dt = time.perf_counter() - t
        decks = "+".join(str(s.deck.size) for s in p.sides)
        print(f"  decks {decks:6s} {dt:8.2f} s  {r.states:6d} states")

    print("interactive paths (mean of 20)")
    for path in sorted(POSITIONS.glob("*.json")):
        if path.name.endswith((".moves.json", ".expected.json")):
            continue
        p = Position.from_json(path.read_text())
        t = time.perf_counter()
        for _ in range(20):
            q = Position.from_json(path.read_text())
            moves = list(q.legal_moves)
        dt_moves = (time.perf_counter() - t) / 20
        t = time.perf_counter()
        for _ in range(20):
            position_svg(p)
        dt_svg = (time.perf_counter() - t) / 20
        print(f"  {path.stem:28s} load + {len(moves):4d} legal moves {dt_moves * 1000:6.1f} ms   "
              f"diagram {dt_svg * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
