"""The gauntlet: every policy against every other and against the counter-policies, both seats.

Prints one row per pairing: the first policy's score (a win 1, a draw 1/2) over
both seats with its 95% Wilson interval, the score in each seat, and the games
per second of that pairing.  Then, for each real policy, its worst score
against a counter-policy (the issue's bar: at least 0.45), and the tells of each
real policy's openings in self-play: how often a one-card opening is the hero,
how often it bluffs (one weakest card, or the hero with one weakest card), and
the mean size of its openings with and without the hero.

    .venv/bin/python benchmarks/gauntlet.py --games 100 --preset advanced
    .venv/bin/python benchmarks/gauntlet.py --games 40 --policies heuristic,search:400 --workers 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.engine import ENGLISH, HERO, OPEN_FIRST, OPEN_SECOND, Hooks, play, side_score  # noqa: E402
from guyenne_explore.analysis import PolicySpec  # noqa: E402
from guyenne_explore.analysis.policies.counters import COUNTERS  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.analysis.sampling.sample import sample_games  # noqa: E402
from guyenne_explore.engine.rules import Rules  # noqa: E402
from pools import stopping_pool  # noqa: E402

REAL = ("uniform", "heuristic", "strong", "search:400")


def make(name: str):
    return PolicySpec.parse(name).policy()


def _seat(rules: str, a: str, b: str, games: int, seed: int, start: int) -> tuple[float, int, float]:
    """Games ``start..`` with ``a`` as english against ``b``: a's points, games, seconds."""
    p = Position.start(Rules.from_json(rules))
    t = time.perf_counter()
    out = sample_games(p, (make(a), make(b)), games, seed, start_index=start)
    points = sum(side_score(g.winner, ENGLISH) for g in out)
    return points, games, time.perf_counter() - t


def pairing(pool, rules: str, a: str, b: str, games: int, seed: int, chunk: int) -> dict:
    """``a`` against ``b``, ``games`` in each seat (seat 2 swaps the sides and uses its own seed)."""
    jobs = []
    for seat, (e, f) in enumerate(((a, b), (b, a))):
        for start in range(0, games, chunk):
            jobs.append((seat, pool.submit(_seat, rules, e, f, min(chunk, games - start), seed + seat, start)))
    points, secs = [0.0, 0.0], 0.0
    for seat, job in jobs:
        pts, n, s = job.result()
        points[seat] += pts if seat == 0 else n - pts
        secs += s
    total = points[0] + points[1]
    low, high = wilson(total, 2 * games)
    return {"a": a, "b": b, "score": total / (2 * games), "low": low, "high": high,
            "english": points[0] / games, "french": points[1] / games, "games_s": 2 * games / secs}


class _Openings(Hooks):
    def __init__(self) -> None:
        self.rows: list[tuple[int, bool, bool]] = []  # size, hero placed, bluff

    def decision(self, p, side, move) -> None:
        if p.to_play in (OPEN_FIRST, OPEN_SECOND):
            hand = p.sides[side].hands[p.member_to_play]
            weakest = next((k for k in range(HERO) if hand[k]), None)
            c = move.cards
            bluff = weakest is not None and c[weakest] > 0 and (c.size == 1 or (c[HERO] > 0 and c.size == 2))
            self.rows.append((c.size, c[HERO] > 0, bluff))


def tells(rules: str, name: str, games: int, seed: int) -> str:
    """What a policy's openings give away, from ``games`` self-play games."""
    p = Position.start(Rules.from_json(rules))
    seen = _Openings()
    for i in range(games):
        play(p, random.Random(f"{seed}:{i}"), (make(name), make(name)), (seen,), check_moves=False)
    rows = seen.rows
    lone = [hero for size, hero, _ in rows if size == 1]
    with_hero = [size for size, hero, _ in rows if hero]
    without = [size for size, hero, _ in rows if not hero]
    mean = (lambda xs: sum(xs) / len(xs) if xs else float("nan"))
    return (f"{name:>12}: {len(rows)} openings; a lone card is the hero {mean(lone):.2f} of the time "
            f"({len(lone)} lone cards); bluffs {mean([b for *_, b in rows]):.3f}; mean size with the hero "
            f"{mean(with_hero):.2f}, without {mean(without):.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per seat of each pairing")
    ap.add_argument("--preset", default="advanced", help="a preset name or a rules JSON object")
    ap.add_argument("--policies", default=",".join(REAL), help="the real policies, comma-separated")
    ap.add_argument("--counters", default=",".join(COUNTERS), help="the counter-policies, comma-separated")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--tell-games", type=int, default=100, help="self-play games read for tells (a tenth for search)")
    args = ap.parse_args(argv)
    real = [x for x in args.policies.split(",") if x]
    counters = [x for x in args.counters.split(",") if x]
    chunk = max(1, -(-args.games // max(1, args.workers)))
    rows = []
    t0 = time.perf_counter()
    with stopping_pool(args.workers) as pool:
        pairs = [(a, b) for i, a in enumerate(real) for b in real[i + 1:]] + [(a, c) for a in real for c in counters]
        for a, b in pairs:
            row = pairing(pool, args.preset, a, b, args.games, args.seed, chunk)
            rows.append(row)
            print(f"{a:>12} vs {b:<12} {row['score']:.3f} [{row['low']:.3f}, {row['high']:.3f}]"
                  f"  as english {row['english']:.3f}  as french {row['french']:.3f}"
                  f"  {row['games_s']:8.1f} games/s", flush=True)
    print(f"\n{args.preset}: {args.games} games a seat, {len(rows)} pairings in {time.perf_counter() - t0:.0f} s")
    for a in real:
        worst = min((r for r in rows if r["a"] == a and r["b"] in counters), key=lambda r: r["score"], default=None)
        if worst:
            verdict = "holds" if worst["score"] >= 0.45 else "BEATEN"
            print(f"{a:>12}: worst against a counter {worst['score']:.3f} ({worst['b']}) {verdict}")
    print("\nopenings in self-play (tells):")
    for a in real:
        if a != "uniform":
            print(tells(args.preset, a, args.tell_games if not PolicySpec.parse(a).searches else max(1, args.tell_games // 10),
                        args.seed))


if __name__ == "__main__":
    main()
