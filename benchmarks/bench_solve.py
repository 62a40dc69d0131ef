"""Speed and size of the open-hand endgame solver, by hand size; best responses; an OpenSpiel check.

    .venv/bin/python benchmarks/bench_solve.py                 # hands of 2 to 6 cards, 90 s a case at most
    .venv/bin/python benchmarks/bench_solve.py --cards 4 5 --limit 300 --openspiel --exploit

Each case runs in its own process pinned to one CPU core, so a case that runs past ``--limit``
is stopped and reported as such.  Hands are drawn (seeded) from each side's card set as at the
last exhaustion; castles are drawn too.  Sizes: round starts solved, leaves (pairs of plans of
the two sides in a round), subgames (after F's public choice of castle and card count) solved by
LP, skipped as saddle points (equal bounds from pure plans) or pruned (they cannot beat another subgame), the largest LP.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.engine.cards import Cards  # noqa: E402
from guyenne_explore.engine.rules import Rules  # noqa: E402

RULES = "advanced"


#: the hardest hands for their size: both heroes, many distinct values (the most distinct plans),
#: on an open table (every castle neutral: the equilibria are mixed there)
HARD = {2: ("H2", "52"), 3: ("H53", "H42"), 4: ("H543", "H542"), 5: ("H5432", "H5422"),
        6: ("H54322", "H54332")}
HARD_TABLE = (-1, -1, -1, -1, -1, -1)


def case(cards: int, seed: int) -> tuple[tuple[int, ...], int, Cards, Cards]:
    """Seed 0: the hard case of this size; other seeds: hands and castles drawn at random."""
    if seed == 0 and cards in HARD:
        he, hf = HARD[cards]
        return HARD_TABLE, 0, Cards.parse(he), Cards.parse(hf)
    rng = random.Random(seed * 100 + cards)
    rules = Rules.preset(RULES)
    pool = list(rules.card_set.kinds())
    hands = []
    for _ in range(2):
        hands.append(_pick(pool, cards, rng))
    castles = tuple(rng.choice((-1, -1, 0, 1)) for _ in range(rules.castles))
    return castles, rng.randrange(2), hands[0], hands[1]


def _pick(pool: list[int], k: int, rng: random.Random) -> Cards:
    counts = [0] * 10
    for kind in rng.sample(pool, k):
        counts[kind] += 1
    return Cards(counts)


def run_case(key, out, exploit: bool, counts) -> None:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError):
        pass
    from guyenne_explore.analysis.optimal.solver import OptimalSolver, exploitability
    from guyenne_explore.analysis.optimal.round import round_start

    rules = Rules.preset(RULES)
    solver = OptimalSolver(rules)

    def progress(solved: int) -> None:
        counts[0], counts[1] = len(solver.models), solved

    solver.progress = progress
    t = time.perf_counter()
    value = solver.value_of(key)
    row = {"value": value + 0.0, "seconds": time.perf_counter() - t, **solver.stats.to_json()}
    if exploit:
        from guyenne_explore.analysis.policies.heuristic import Heuristic
        from guyenne_explore.analysis.policies import Uniform
        rows = exploitability(round_start(rules, key), {"uniform": Uniform(), "heuristic": Heuristic()}, solver,
                              budget_seconds=60)
        row["exploit"] = [e.to_json() for e in rows]
    out.put(row)


def openspiel_check() -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import cfr, expected_game_score
    from open_spiel.python.algorithms import exploitability as expl

    from guyenne_explore.analysis.optimal.solver import OptimalSolver
    from guyenne_explore.analysis.optimal.round import round_start
    from guyenne_explore.analysis.optimal.tree import build_tree, solve_tree, to_efg

    rules = Rules.preset("advanced", castles=3)
    key = ((-1, -1, 1), 1, Cards.parse("H32"), Cards.parse("532"))
    t = time.perf_counter()
    ours = OptimalSolver(rules).value_of(key)
    t_ours = time.perf_counter() - t
    tree = build_tree(round_start(rules, key))
    t = time.perf_counter()
    whole = solve_tree(tree)
    t_whole = time.perf_counter() - t
    game = pyspiel.load_efg_game(to_efg(tree))
    t = time.perf_counter()
    solver = cfr.CFRPlusSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    v = expected_game_score.policy_value(game.new_initial_state(), [avg, avg])[0] + 0.5
    print(f"OpenSpiel check (advanced, 3 castles, H32 v 532): round solver {ours:.6f} ({t_ours:.2f} s), "
          f"whole-tree LP {whole:.6f} ({t_whole:.2f} s), CFR+ 300 iterations {v:.6f} "
          f"(NashConv {expl.nash_conv(game, avg):.2e}, {time.perf_counter() - t:.1f} s)")
    assert np.isfinite(v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    ap.add_argument("--seeds", type=int, default=1, help="positions per hand size")
    ap.add_argument("--limit", type=float, default=90.0, help="seconds a case may run")
    ap.add_argument("--exploit", action="store_true",
                    help="also best responses to uniform and heuristic (hands of up to 4 cards)")
    ap.add_argument("--openspiel", action="store_true", help="also the OpenSpiel CFR+ cross-check")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print(f"{RULES} rules, objective P(win) with draws half; one process per case, pinned to one core")
    print(f"{'cards':>5} {'english':>8} {'french':>8} {'value':>7} {'states':>7} {'leaves':>10} {'LPs':>6} "
          f"{'saddle':>6} {'pruned':>6} {'largest LP (vars x rows, nnz)':>30} {'build s':>8} {'LP s':>7} {'total s':>8}")
    results = []
    for cards in args.cards:
        for seed in range(args.seeds):
            key = case(cards, seed)
            q: mp.Queue = mp.Queue()
            counts = mp.Array("q", 2)
            exploit = args.exploit and cards <= 4
            proc = mp.get_context("fork").Process(target=run_case, args=(key, q, exploit, counts))
            start = time.perf_counter()
            proc.start()
            proc.join(args.limit)
            label = f"{cards:>5} {str(key[2]):>8} {str(key[3]):>8}"
            if proc.is_alive():
                proc.terminate()
                proc.join()
                print(f"{label}  not finished within {args.limit:g} s: {counts[0]:,} round starts explored, "
                      f"{counts[1]:,} solved")
                results.append({"cards": cards, "finished": False, "limit": args.limit})
                continue
            row = q.get()
            largest = f"{row['largest_variables']:,} x {row['largest_constraints']:,}, {row['largest_nonzeros']:,}"
            print(f"{label} {row['value']:7.4f} {row['states']:7,} {row['leaves']:10,} {row['subgames_solved']:6,} "
                  f"{row['saddle']:6,} {row['pruned']:6,} {largest:>30} {row['build_seconds']:8.2f} "
                  f"{row['lp_seconds']:7.2f} {row['seconds']:8.2f}")
            for e in row.get("exploit", []):
                got = "-" if e["responder_value"] is None else f"{e['responder_value']:.4f}"
                print(f"        best response to {e['policy']} as {e['policy_side']}: {got} "
                      f"(equilibrium {e['equilibrium_value']:.4f}; {e['seconds']:.2f} s) {e['note']}")
            results.append({"cards": cards, "finished": True, "wall": time.perf_counter() - start, **row,
                            "castles": key[0], "first": key[1], "english": str(key[2]), "french": str(key[3])})
    if args.openspiel:
        openspiel_check()
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
