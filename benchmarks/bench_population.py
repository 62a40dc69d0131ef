"""A population of best responses and its meta-game's Nash odds (PSRO): how hard to exploit the learned policy's
styles are when a game's player is drawn from them at the deal.

    .venv/bin/python benchmarks/bench_population.py --rules advanced --iterations 6
    .venv/bin/python benchmarks/bench_population.py --rules advanced --iterations 6 --out /tmp/population

Why: a best response trained against ``strong`` takes 0.70 from advanced's network (``bench_exploit.py --responders
trained``), and training the network against such responses only moves it round the game's cycle of styles
(``analysis/policies/natural.py``).  Policy-space response oracles (Lanctot et al. 2017) keep every style instead:
from the network ``strong`` plays, each iteration

1. scores every pair of the population (``natural.match``, both seats, ``--match`` compiled games a seat) and solves
   that meta-game for its Nash equilibrium (:func:`nash`, scipy's linear program): odds over the members;
2. trains a best response to the population played at those odds, one member drawn for a whole game: the natural
   gradient's iterations (``natural.stepped_once``, as ``natural.respond`` trains against one policy) against the
   members in turn, each a share of the games as its odds (:func:`whole_odds`), from the network;
3. adds it to the population.

The response's line search (``natural.line_search``) scores each step against the league's entries on the same
seeds, so a member repeated for its odds replays the same games: a step is chosen on ``natural.MATCH_GAMES`` /
:data:`ODDS_TOTAL` distinct games a seat for each member the odds hold, where ``natural.respond`` chooses on all of
them against one policy.  The figures below were measured so.

It prints each iteration's odds, the mixture's score against ``strong-linear``, and what the response takes from the
mixture: the odds-weighted mean of its scores against the members, which is its score against the mixture when the
member is drawn once a game.  At the end a fresh response (other seeds), from the network and from the mixture's
likeliest member, is measured alike.  ``--out DIR`` writes each member's weights file and the odds (``odds.json``).

Measured here (2026-11-30, ``--iterations 6``, seed 1, responses of 4 iterations of 50,000 games; one core each,
advanced and classic2021 side by side, about 20 minutes each):

- advanced: the responses took 0.523, 0.495, 0.745, 0.766, 0.668 and 0.536 from the mixtures they were trained
  against.  The Nash odds stayed on the latest response for four iterations (each beat every member before it), then
  spread: after six, five members at 0.278, 0.021, 0.147, 0.167 and 0.387.  A fresh response took 0.539 from that
  mixture (from the network) and 0.549 (from its likeliest member); the mixture scores 0.567 against
  ``strong-linear`` (the network: 0.702).
- classic2021: no response took more than 0.549 from its mixture, and the odds settled on one response (0.640
  against ``strong-linear``; the network: 0.727); a fresh response that started from that member took 0.699 from it.

The response recipe's reach varies with its seed: its first response took 0.523 from advanced's network here, 0.707
and 0.767 on other seeds.  Played as ``strong``, three of advanced's members drawn once a game (``guyenne-explore mix
member6.json member2.json member5.json --odds 39,28,17 --drawn game``) score 0.590 [0.579, 0.601] against ``strong-linear``
(``bench_network.py --network MIX.json --games 8000``; the network alone: 0.70), and the exploit command's counters
take more from them than from the network (``bench_exploit.py --levels strong@MIX.json --games 400 --responders
trained,exploiter``): the trained responder 0.718 [0.671, 0.759] (the network: 0.704), the model exploiter 0.760
[0.716, 0.799] (0.548).  A scratch run of the same steps on other seeds ended on two members (odds 3:1 when mixed)
that the trained responder took only 0.431 [0.384, 0.480] from, but the model exploiter 0.748 [0.703, 0.788]; they
score 0.597 [0.587, 0.608] against ``strong-linear`` drawn once a game, 0.587 [0.576, 0.598] drawn at each decision.
So at this scale the population's members, responses trained against each other, are weaker against the field and
against a search on their model than the network they start from; its Nash mixture is no answer to issue 47 yet.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np
from scipy.optimize import linprog

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.analysis.policies.natural import (RESPONSE_GAMES, RESPONSE_ITERATIONS, match,  # noqa: E402
                                                       stepped_once)
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.analysis.policies.weights import preset_file, read_model, write_model  # noqa: E402
from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.engine import Rules  # noqa: E402

#: the chunks of games a response's league holds, shared among the members by their odds (a member whose share rounds
#: to none is left out of the response's games)
ODDS_TOTAL = 12


def nash(scores: np.ndarray) -> np.ndarray:
    """The odds of a Nash equilibrium of the symmetric meta-game whose row ``i`` holds member ``i``'s mean score
    against each member (both seats: ``scores + scores.T == 1``): the mixture that maximises its worst score against
    any member, as a linear program."""
    n = len(scores)
    gain = np.asarray(scores, float) - 0.5
    # variables: the n odds, then the value v; maximise v with sum_i p_i gain[i, j] >= v for every j
    found = linprog(np.r_[np.zeros(n), -1.0], A_ub=np.c_[-gain.T, np.ones(n)], b_ub=np.zeros(n),
                    A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)])
    if not found.success:
        raise RuntimeError(f"the meta-game's linear program failed: {found.message}")
    odds = np.clip(found.x[:n], 0.0, None)
    return odds / odds.sum()


def whole_odds(odds: Sequence[float], total: int = ODDS_TOTAL) -> list[int]:
    """``odds`` as whole numbers of chunks out of ``total`` (the largest remainders rounded up), how many of a
    response's chunks of games each member plays."""
    raw = np.asarray(odds, float) * total
    whole = np.floor(raw).astype(int)
    for i in np.argsort(whole - raw)[: total - int(whole.sum())]:
        whole[i] += 1
    return [int(w) for w in whole]


def respond_to(rules: Rules, members: Sequence[Sequence[float]], odds: Sequence[float], start: Sequence[float],
               seed: int, iterations: int, games: int) -> tuple[float, ...]:
    """A best response to ``members`` drawn once a game at ``odds``: the natural gradient's iterations against the
    members in turn, each repeated by its :func:`whole_odds`, from ``start``."""
    league = tuple(Strong(m).compiled(rules) for m, n in zip(members, whole_odds(odds)) for _ in range(n))
    weights = tuple(start)
    for i in range(iterations):
        weights = stepped_once(rules, weights, games, seed * 1_000_003 + i, league, False, _quiet, _quiet)
    return weights


def _quiet(_done: int) -> None:
    """(No progress shown: the benchmark prints after each step.)"""


def against(rules: Rules, weights: Sequence[float], members: Sequence[Sequence[float]], games: int,
            seed: int) -> list[float]:
    """``weights``' mean score against each member, both seats, ``games`` compiled games a seat."""
    return [match(rules, weights, m, games, seed) for m in members]


def _row(values: Sequence[float]) -> str:
    return " ".join(f"{v:.3f}" for v in values)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="a preset name or rules JSON")
    ap.add_argument("--iterations", type=int, default=6, help="responses added to the population")
    ap.add_argument("--response-iterations", type=int, default=RESPONSE_ITERATIONS,
                    help="the natural gradient's iterations a response")
    ap.add_argument("--games", type=int, default=RESPONSE_GAMES, help="paired games a response's iteration")
    ap.add_argument("--match", type=int, default=2000, help="compiled games a seat of each pair's score")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, help="a folder for the members' weights files and the odds")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    start = read_model(preset_file(rules)).played().members[0]
    linear = Strong(linear=True).compiled(rules)
    population, scores, t = [tuple(start)], np.full((1, 1), 0.5), time.perf_counter()

    def report(name: str, odds: np.ndarray, seed: int) -> None:
        response = respond_to(rules, population, odds, population[int(np.argmax(odds))] if name == "member" else start,
                              seed, args.response_iterations, args.games)
        row = against(rules, response, population, args.match, seed + 2)
        print(f"  a fresh response from the {'likeliest member' if name == 'member' else 'network'} takes "
              f"{float(odds @ row):.3f} from the mixture (against each member: {_row(row)})", flush=True)

    for k in range(args.iterations + 1):
        odds = nash(scores)
        versus_linear = sum(o * match(rules, m, linear, args.match, args.seed + 3) for o, m in zip(odds, population)
                            if o > 0)
        print(f"{args.rules}, population of {len(population)}, {time.perf_counter() - t:.0f} s: Nash odds "
              f"{_row(odds)}; the mixture against strong-linear {versus_linear:.3f}", flush=True)
        if k == args.iterations:
            report("network", odds, args.seed + 9_001)
            report("member", odds, args.seed + 9_002)
            break
        response = respond_to(rules, population, odds, start, args.seed + 1_000 + k, args.response_iterations,
                              args.games)
        row = np.array(against(rules, response, population, args.match, args.seed + 2))
        print(f"  response {k + 1} takes {float(odds @ row):.3f} from the mixture (against each member: {_row(row)})",
              flush=True)
        scores = np.block([[scores, 1.0 - row[:, None]], [row[None, :], np.full((1, 1), 0.5)]])
        population.append(response)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for i, member in enumerate(population):
            write_model(args.out / f"member{i}.json", member,
                        {"method": "population", "member": i, "command": " ".join(sys.argv)}, args.rules)
        (args.out / "odds.json").write_text(json.dumps({"odds": [float(o) for o in odds], "scores": scores.tolist()}))
        print(f"wrote {len(population)} members and odds.json to {args.out}")


if __name__ == "__main__":
    main()
