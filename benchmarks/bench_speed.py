"""Speed figures of the fast simulator, printed (never asserted).

Run: python benchmarks/bench_speed.py [--seconds S]

1. Uniform-random full games from the opening under ``advanced`` on one and two
   threads, with placement decisions per second, beside OpenSpiel's C++
   uniform-random goofspiel with 13 cards (``pyspiel.evaluate_bots``) in the same run.
2. Exact distributions of the check positions and of endgames after the last
   reshuffle, through the analysis: in fractions (endgame solver) and in float64 (forward pass).
3. Interactive paths: legal moves and diagram of each check position.
"""

from __future__ import annotations

import pathlib
import random
import sys
import time
from itertools import product

import numba

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guyenne_explore.engine import Position, Rules  # noqa: E402
from guyenne_explore.analysis.exact.forward import ForwardEndgame  # noqa: E402
from guyenne_explore.engine.cards import Cards  # noqa: E402
from guyenne_explore.analysis.api import analyse  # noqa: E402
from guyenne_explore.analysis.compiled import kernel as kn  # noqa: E402
from guyenne_explore.analysis.compiled.rollout import play_summaries  # noqa: E402
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


def endgame(preset: str, deck: int, seed: int) -> Position:
    """A round start after both sides' last reshuffle: random hands of 6, ``deck`` cards in each deck."""
    rng = random.Random(seed)
    limit = 3 if preset == "expert" else 2
    sides = {}
    for name in ("english", "french"):
        cards = ["H", "5", "5", "4", "4", "4", "3", "3", "3", "3"] + ["2"] * 12
        rng.shuffle(cards)
        sides[name] = {"hand": cards[:6], "deck": cards[6:6 + deck], "discard": cards[6 + deck:], "removed": [],
                       "exhaustions": limit - 1 if deck else limit}
    castles = [rng.choice(["neutral", "english", "french"]) for _ in range(6)]
    return Position.from_json({"rules": preset, "castles": castles, "round": 9, "first": "english",
                               "to_play": "open_first", "sides": sides})


def side_states_per_round(hand: str, deck: str) -> list[int]:
    """How many distinct (hand, deck) one side can hold at each round start of an endgame (uniform play)."""
    solver = ForwardEndgame(Rules.preset("base"))
    level = {(Cards.parse(hand), Cards.parse(deck))}
    counts = []
    while level:
        counts.append(len(level))
        level = set().union(*(solver.next_states(*state) for state in level))
    return counts


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
        t = time.perf_counter()
        analyse(p, method="exact", force=True, arithmetic="float")
        dt_float = time.perf_counter() - t
        print(f"  {path.stem:28s} fractions {dt:8.3f} s ({r.states:6d} states)   float64 {dt_float:8.3f} s")

    print("exact endgames after the last reshuffle, hands of 6, float64 forward pass / fractions")
    print("  (random hands from the full card set; the fractions only with empty decks: minutes beyond)")
    for deck in (0, 1, 2, 3, 4):
        worst_float, worst_fraction = 0.0, 0.0
        for preset, seed in product(("base", "advanced", "expert", "classic2021"), range(2)):
            p = endgame(preset, deck, seed)
            t = time.perf_counter()
            analyse(p, method="exact", arithmetic="float")
            worst_float = max(worst_float, time.perf_counter() - t)
            if deck == 0:
                t = time.perf_counter()
                analyse(p, method="exact")
                worst_fraction = max(worst_fraction, time.perf_counter() - t)
        fraction = f"   fractions worst {worst_fraction:6.2f} s" if deck == 0 else ""
        print(f"  {deck} card(s) in each deck: float64 worst of 8 {worst_float:6.2f} s{fraction}")

    print("why decks of a whole cycle are out of reach: one side's states (hand, deck) per round,")
    print("  from a hand of 6 and a deck of 16 (base, right after the last reshuffle); the forward pass")
    print("  holds every english state against every french one, each with a vector of 729 castle tables")
    for r, n in enumerate(side_states_per_round("H 5 4 3 2 2", "5 4 4 3 3 3 2 2 2 2 2 2 2 2 2 2"), 1):
        print(f"  round {r:2d}: {n:6d} side states, up to {n * n:13,d} pairs")

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
