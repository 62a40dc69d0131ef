"""A population of best responses and its meta-game's Nash odds (PSRO): how hard to exploit the learned policy's
styles are when a game's player is drawn from them at the deal.

    .venv/bin/python benchmarks/bench_population.py --rules advanced --iterations 6
    .venv/bin/python benchmarks/bench_population.py --rules advanced --iterations 6 --out /tmp/population
    .venv/bin/python benchmarks/bench_population.py --rules advanced --iterations 5 --oracle-minutes 3 \
        --field 0.62 --field-share 2 --out /tmp/population
    .venv/bin/python benchmarks/bench_population.py --rules advanced --iterations 2 --oracle-minutes 3 \
        --field 0.62 --field-share 2 --out /tmp/population --resume --no-fresh   # two more, from where it stopped

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

**The measuring exploiter as the oracle, the field as a bound** (``--oracle-minutes M``: each response trained by
the CMA-ES of ``train.exploiter``, the best response ``bench_network.py --best-response`` measures a policy with, its
fitness the odds-weighted score against the members; ``--field F``: the Nash odds among the mixtures that score at
least F against ``strong-linear``, the issue's 0.60 with a margin; ``--field-share K``: K of a response's
:data:`ODDS_TOTAL` parts of fitness against ``strong-linear``, so that a member stays strong against the field).  The
natural gradient's responses are the weak link above: with the field share they took 0.50 to 0.52 from their
mixtures (advanced and classic2021, three iterations, 2026-12-02), where three minutes of CMA-ES take 0.83 from the
network.  With the exploiter as oracle (2026-12-02, ``--iterations 5 --oracle-minutes 3 --field 0.62 --field-share
2``, seed 1, one core each, 25 minutes):

- advanced: the responses took 0.827, 0.828, 0.777, 0.714 and 0.750 from the mixtures they were trained against;
  the last Nash odds spread over five of six members (0.056, 0.276, 0.221, 0.447 and the network's none), scoring
  0.620 against ``strong-linear``; a fresh response of three minutes took 0.671 from it, where it takes 0.83 from
  the network alone;
- classic2021: 0.656, 0.657, 0.949, 0.909 and 0.626; three members at the end (0.269, 0.062, 0.668), 0.687 against
  ``strong-linear``; a fresh response took 0.662 (the network alone: 0.66 to 0.71).

Each new response still beats its mixture by 0.63 to 0.95: the game's cycle of styles within this model class is
long, and six iterations are far from its meta-game's equilibrium.  Twelve iterations with responses of two minutes
(``--iterations 12 --oracle-minutes 2 --field 0.62 --field-share 2``, 25 minutes each) converge against that oracle:

- classic2021: from the sixth iteration on each response took 0.506 to 0.525 from its mixture; the last Nash odds
  spread over five of 13 members, 0.658 against ``strong-linear``; a fresh response of two minutes took 0.533 from
  it (0.660 from its likeliest member), and 0.510 from its best support of three (members 2, 4 and 5 at 27:24:9,
  0.626 against ``strong-linear``);
- advanced: 0.819, 0.840, 0.661, 0.648, 0.724, 0.610, 0.586, 0.596, 0.707, 0.518, then the Nash over seven of 13
  members, 0.655 against ``strong-linear``; a fresh response took 0.521 (0.559 from its likeliest member), 0.592
  from the best three (members 7, 11 and 12 at 6:23:31, 0.674 against ``strong-linear``).

But the measure of issue 47 is a response of ten minutes, and it finds far more: ``bench_network.py --network
DIR/mixture.json --games 800 --best-response 10`` takes 0.860 [0.834, 0.882] from advanced's three (the network alone:
0.890 [0.866, 0.910] after eight minutes) and 0.814 [0.786, 0.840] from classic2021's (the network: 0.711 [0.678,
0.741]); both score above the target against ``strong-linear`` (0.657 and 0.629, 800 games).  Its responses open with
one card and answer big.  Against the whole Nash mixture (``--measure DIR --oracle-minutes 10``: the population's
``member*.json`` at the odds of ``odds.json``, ten minutes of :func:`cma_response` from the network, then 2,000 games a
seat against each member) a response takes 0.596 under advanced (seven members) and 0.559 under classic2021 (five) with
``--seed 1`` (2026-12-02), and 0.632 and 0.714 on another seed of the same oracle (9,100,007): the whole equilibrium is
harder to exploit than its best three (0.860 and 0.814) and than advanced's network, but a response's reach varies by
0.05 to 0.15 with its seed, and neither is yet within the issue's 0.55.  A population stays as hard to exploit as its
oracle is strong: a ten-minute oracle a response, over enough iterations, costs hours a preset on two cores.
``--oracle-generations N`` runs each response for N generations rather than minutes, so that a run is the same on any
machine (sixty generations, 20 s against one member, are a far weaker oracle than two minutes: its first response
took 0.617 from advanced's network).

**The whole equilibrium in one file.**  A mixture now holds up to eight members (``mixture.MAX_MEMBERS``; the
search's mean of more than three is rounded to 2^-41, ``mixture.mixed``), so ``--out`` writes the whole Nash mixture
as ``DIR/mixture.json`` where its support fits.  The same twelve iterations (2026-12-02, ``--iterations 12
--oracle-minutes 2 --field 0.62 --field-share 2 --seed 1``, one core each, 25 minutes) ended on seven of 13 members
under advanced (odds 3:2:12:11:7:9:16; a fresh two-minute response took 0.545) and five under classic2021 (25:5:8:8:13;
0.492).  The issue's measures of those files:

- ``bench_network.py --network DIR/mixture.json --games 800 --best-response 10``: a ten-minute response takes 0.758
  [0.727, 0.787] from advanced's seven (the network alone: 0.890 [0.866, 0.910]) and 0.713 [0.681, 0.743] from
  classic2021's five (the network: 0.711 [0.678, 0.741]); they score 0.623 [0.588, 0.655] and 0.677 [0.644, 0.708]
  against ``strong-linear`` (the networks: 0.70 and 0.73);
- ``bench_exploit.py --rules advanced --levels strong@DIR/mixture.json --games 400 --responders exploiter``: the
  model exploiter, one ply of search on the mixture's mean, takes 0.811 [0.770, 0.847] from advanced's seven (from
  the network: 0.548), and the same search weighing no bets (``--responders exploiter-blind``) 0.818 [0.777, 0.852]:
  its edge is not reading the mean's tells but its rollouts, the members' own play, which one ply of search beats.

So the whole equilibrium is harder for a trained response to exploit than the network under advanced, but each of its
members is a response trained against the others, not a player that a search on its own model finds hard: the best
counter's score rises from 0.89 only to 0.81 by another route, and the mixture loses 0.08 against ``strong-linear``.
It is not shipped as ``strong``: a population whose members are trained against the search as well (the model
exploiter in the oracle's fitness) is the next step.

**The ten-minute oracle** (2026-12-03, ``--iterations 8 --oracle-minutes 10 --field 0.62 --field-share 2 --seed 1
--out DIR``, one core, two hours): each response trained as long as the issue's measuring response.  The responses took
0.882, 0.948, 0.672, 0.834, 0.716, 0.665, 0.681 and 0.717 from the mixtures they were trained against, and the last
Nash odds fell wholly on the last response (member 8), which beats every member before it (0.58 to 0.75; the
network it started from: 0.62); fresh ten-minute responses took 0.777 (from the network) and 0.806 (from member 8)
from it.  The issue's measures of ``DIR/member8.json``:

- ``bench_network.py --rules advanced --network DIR/member8.json --games 800 --best-response 10``: 0.802 [0.773,
  0.829] against ``strong-linear`` (the network: 0.70), and a ten-minute response takes 0.870 [0.845, 0.892] (the
  network: 0.890 [0.866, 0.910]): the response opens with 2 or 3 cards (37% and 59% of its openings) and answers with
  1 or 2 (82%), where member 8 opens with 3 half the time and answers with 1 to 3 cards (9% with 5);
- ``bench_exploit.py --rules advanced --levels strong@DIR/member8.json --games 400 --responders exploiter``: the model
  exploiter 0.469 [0.420, 0.518]: members trained by the ten-minute oracle are no easy prey of one ply of search, as
  the two-minute oracle's were (0.811).

So a longer oracle makes members stronger against the field and against search, but the meta-game still cycles:
after eight iterations every response beats its predecessors, the equilibrium is one member, and that member is as
exploitable by a ten-minute response as the network.  At this pace (ten minutes and more an iteration on one core)
the dozens of iterations a converged population of such members needs are out of a two-core session's reach.

Two cheaper uses of that population, measured (2026-12-03, advanced, one core each unless said):

- **Its members played at even odds** (fictitious play's average rather than the Nash odds: ``guyenne-explore mix
  --drawn game --out U.json DIR/member1.json ... DIR/member8.json``, the eight responses, a member drawn once a game):
  0.701 [0.669, 0.732] against ``strong-linear``, and a ten-minute response takes 0.773 [0.743, 0.801] from it
  (``bench_network.py --network U.json --games 800 --best-response 10``): less than from member 8 alone (0.870) or the
  network (0.890), about as much as from the two-minute oracle's seven (0.758).
- **A robust run from member 8** (``guyenne-explore train --rules advanced --seed 1 --minutes 75 --games 200
  --popsize 12 --hidden 8 --robust 3 --start DIR/member8.json --workers 2``: 690 generations, its league's exploiters
  retrained against its best every 20): a ten-minute response takes 0.791 [0.761, 0.817] from it (member 8: 0.870),
  but it falls to 0.544 [0.509, 0.578] against ``strong-linear`` (0.802) and the model exploiter takes 0.700 [0.653,
  0.743] from it (``bench_exploit.py --games 400 --responders exploiter``; member 8: 0.469).  Its validation score (the
  mean of its three lowest scores) swung between 0.39 and 0.57 as each new exploiter joined its league: the league's
  exploiters kept finding 0.6 against its best.

Neither is shipped: each trades one of the issue's targets for another, and neither brings a ten-minute response near
0.55.
"""

from __future__ import annotations

import argparse
import itertools
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
from guyenne_explore.analysis.policies import train  # noqa: E402
from guyenne_explore.analysis.policies.mixture import MAX_MEMBERS  # noqa: E402
from guyenne_explore.analysis.policies.weights import mix_files, preset_file, read_model, write_model  # noqa: E402
from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.engine import Position, Rules  # noqa: E402

#: the chunks of games a response's league holds, shared among the members by their odds (a member whose share rounds
#: to none is left out of the response's games)
ODDS_TOTAL = 12
#: the least odds of a member that the CMA-ES oracle's candidates play (the rest share its games by their odds)
LEAST_ODDS = 0.03


def nash(scores: np.ndarray, field: np.ndarray | None = None, least: float = 0.0) -> np.ndarray:
    """The odds of a Nash equilibrium of the symmetric meta-game whose row ``i`` holds member ``i``'s mean score
    against each member (both seats: ``scores + scores.T == 1``): the mixture that maximises its worst score against
    any member, as a linear program.  With ``field`` (each member's score against a fixed opponent outside the
    population, ``strong-linear``), the mixture must also score at least ``least`` against it: the equilibrium of
    the meta-game restricted to the mixtures that stay as strong as the target asks; where none does, the mixture
    that scores most against the field."""
    n = len(scores)
    gain = np.asarray(scores, float) - 0.5
    # variables: the n odds, then the value v; maximise v with sum_i p_i gain[i, j] >= v for every j
    a_ub, b_ub = np.c_[-gain.T, np.ones(n)], np.zeros(n)
    if field is not None and least > 0:
        if float(np.max(field)) < least:  # no mixture reaches it: the member strongest against the field
            return np.eye(n)[int(np.argmax(field))]
        a_ub, b_ub = np.r_[a_ub, np.r_[-np.asarray(field, float), 0.0][None, :]], np.r_[b_ub, -least]
    found = linprog(np.r_[np.zeros(n), -1.0], A_ub=a_ub, b_ub=b_ub,
                    A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)])
    if not found.success:
        raise RuntimeError(f"the meta-game's linear program failed: {found.message}")
    odds = np.clip(found.x[:n], 0.0, None)
    return odds / odds.sum()


def supported(scores: np.ndarray, field: np.ndarray | None, least: float, most: int) -> tuple[list[int], np.ndarray]:
    """The members and odds of the best equilibrium of :func:`nash` among those of at most ``most`` members (a
    mixture file holds at most ``MAX_MEMBERS``): the whole equilibrium's where its support fits, else every subset's,
    the one whose worst score against the whole population is highest."""
    n, best, value = len(scores), ([0], np.ones(1)), -1.0
    whole = nash(scores, field, least)
    if int((whole > 0).sum()) <= most:
        rows = [i for i in range(n) if whole[i] > 0]
        return rows, whole[rows] / whole[rows].sum()
    for k in range(1, min(most, n) + 1):
        for subset in itertools.combinations(range(n), k):
            rows = list(subset)
            odds = nash(scores[np.ix_(rows, rows)], None if field is None else field[rows], least)
            worst = float(np.min(odds @ scores[rows, :]))
            if field is not None and least > 0 and float(odds @ field[rows]) < least - 1e-9:
                worst -= 1.0  # short of the field's target: only where no subset reaches it
            if worst > value + 1e-9:
                best, value = (rows, odds), worst
    return best


def whole_odds(odds: Sequence[float], total: int = ODDS_TOTAL) -> list[int]:
    """``odds`` as whole numbers of chunks out of ``total`` (the largest remainders rounded up), how many of a
    response's chunks of games each member plays."""
    raw = np.asarray(odds, float) * total
    whole = np.floor(raw).astype(int)
    for i in np.argsort(whole - raw)[: total - int(whole.sum())]:
        whole[i] += 1
    return [int(w) for w in whole]


def respond_to(rules: Rules, members: Sequence[Sequence[float]], odds: Sequence[float], start: Sequence[float],
               seed: int, iterations: int, games: int, field: int = 0) -> tuple[float, ...]:
    """A best response to ``members`` drawn once a game at ``odds``: the natural gradient's iterations against the
    members in turn, each repeated by its :func:`whole_odds`, from ``start``; ``field`` of the :data:`ODDS_TOTAL`
    chunks against ``strong-linear`` instead, so that a response stays strong against the field it must beat."""
    league = tuple(Strong(m).compiled(rules) for m, n in zip(members, whole_odds(odds, ODDS_TOTAL - field))
                   for _ in range(n)) + (Strong(linear=True).compiled(rules),) * field
    weights = tuple(start)
    for i in range(iterations):
        weights = stepped_once(rules, weights, games, seed * 1_000_003 + i, league, False, _quiet, _quiet)
    return weights


def cma_response(rules: Rules, members: Sequence[Sequence[float]], odds: Sequence[float], start: Sequence[float],
                 seed: int, seconds: float | None, field: int = 0, generations: int | None = None) -> tuple[float, ...]:
    """A best response to ``members`` drawn once a game at ``odds`` by the exploiter's own CMA-ES
    (:func:`train.exploiter`, what ``bench_network.py --best-response`` measures a policy with), for ``generations``
    (the same response for the same seed), else as long as ``seconds`` allow: a candidate's fitness is its
    odds-weighted score against the members (both seats, :data:`train.GAMES` games a seat against each member of odds
    at least :data:`LEAST_ODDS`), ``field`` of :data:`ODDS_TOTAL` parts of it against ``strong-linear``; from
    ``start``, its stream seeded by ``seed``."""
    kept = [(float(o), Strong(m).compiled(rules)) for o, m in zip(odds, members) if o >= LEAST_ODDS]
    total, share = sum(o for o, _ in kept), field / ODDS_TOTAL
    sides = [(o / total * (1 - share), side) for o, side in kept] + (
        [(share, Strong(linear=True).compiled(rules))] if field else [])
    return train.exploiter(Position.start(rules), start, seed, train.GAMES, generations=generations,
                           seconds=seconds if generations is None else None, opponents=sides)


def _quiet(_done: int) -> None:
    """(No progress shown: the benchmark prints after each step.)"""


def against(rules: Rules, weights: Sequence[float], members: Sequence[Sequence[float]], games: int,
            seed: int) -> list[float]:
    """``weights``' mean score against each member, both seats, ``games`` compiled games a seat."""
    return [match(rules, weights, m, games, seed) for m in members]


def _row(values: Sequence[float]) -> str:
    return " ".join(f"{v:.3f}" for v in values)


def measure(rules: Rules, folder: Path, args: argparse.Namespace) -> None:
    """A response trained against the population that ``--out`` wrote in ``folder`` (its ``member*.json`` at the odds
    of its ``odds.json``, drawn once a game), from the preset's network, then its score against each member with
    odds: what no weights file of at most ``MAX_MEMBERS`` members can be measured by ``bench_network.py``."""
    odds = np.array(json.loads((folder / "odds.json").read_text())["odds"])
    members = [read_model(folder / f"member{i}.json").weights for i in range(len(odds))]
    t = time.perf_counter()
    response = cma_response(rules, members, odds, members[0], args.seed + 9_100_000, 60 * args.oracle_minutes,
                            generations=args.oracle_generations or None)
    row = np.array(against(rules, response, members, args.match, args.seed + 9_100_004))
    print(f"{args.rules}: a response of {time.perf_counter() - t:.0f} s takes {float(odds @ row):.3f} from the "
          f"{int((odds > 0).sum())}-member Nash mixture of {folder} (against each member with odds: "
          f"{_row([v for v, o in zip(row, odds) if o > 0])})", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="a preset name or rules JSON")
    ap.add_argument("--iterations", type=int, default=6, help="responses added to the population")
    ap.add_argument("--response-iterations", type=int, default=RESPONSE_ITERATIONS,
                    help="the natural gradient's iterations a response")
    ap.add_argument("--games", type=int, default=RESPONSE_GAMES, help="paired games a response's iteration")
    ap.add_argument("--match", type=int, default=2000, help="compiled games a seat of each pair's score")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--field", type=float, default=0.0,
                    help="the least the mixture must score against strong-linear (0: no such bound)")
    ap.add_argument("--field-share", type=int, default=0,
                    help=f"chunks of a response's {ODDS_TOTAL} played against strong-linear instead of the mixture")
    ap.add_argument("--oracle-minutes", type=float, default=0.0,
                    help="train each response by the exploiter's CMA-ES for this long instead of the natural gradient")
    ap.add_argument("--oracle-generations", type=int, default=0,
                    help="as --oracle-minutes, this many CMA-ES generations a response (the same run for the same seed)")
    ap.add_argument("--measure", type=Path, metavar="DIR",
                    help="train no population: a response against the one --out wrote in DIR, its whole Nash mixture "
                         "drawn once a game, for --oracle-minutes (or --oracle-generations) from the network")
    ap.add_argument("--out", type=Path, help="a folder for the members' weights files, the odds and the mixture "
                                             f"of at most {MAX_MEMBERS} members drawn once a game (written after each "
                                             "iteration)")
    ap.add_argument("--resume", action="store_true",
                    help="go on with the population --out holds (its members, payoff table and scores against "
                         "strong-linear): --iterations more, seeded as if never stopped")
    ap.add_argument("--no-fresh", action="store_true",
                    help="end without the two fresh responses to the last mixture (two oracles' time)")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    if args.measure is not None:
        measure(rules, args.measure, args)
        return
    if args.resume and args.out is None:
        ap.error("--resume goes on with the population of --out DIR: give it")
    start = read_model(preset_file(rules)).played().members[0]
    linear = Strong(linear=True).compiled(rules)
    t = time.perf_counter()
    if args.resume:
        kept = json.loads((args.out / "odds.json").read_text())
        scores, field = np.array(kept["scores"]), np.array(kept["field"])
        population = [tuple(read_model(args.out / f"member{i}.json").weights) for i in range(len(scores))]
    else:
        population, scores = [tuple(start)], np.full((1, 1), 0.5)
        field = np.array([match(rules, start, linear, args.match, args.seed + 3)])
    first = len(population) - 1  # the responses already in it: the next is seeded as the run's next
    written = [len(population) if args.resume else 0]  # the members --out holds already (a resumed run's)

    def write(odds: np.ndarray) -> None:
        """The population as it stands, in --out: each member not yet written, the odds, the payoff table and the
        field's scores (after each iteration: a run stopped loses at most the one under way)."""
        if args.out is None:
            return
        args.out.mkdir(parents=True, exist_ok=True)
        for i in range(written[0], len(population)):
            write_model(args.out / f"member{i}.json", population[i],
                        {"method": "population", "member": i, "command": " ".join(sys.argv)}, args.rules)
        written[0] = len(population)
        (args.out / "odds.json").write_text(json.dumps({"odds": [float(o) for o in odds], "scores": scores.tolist(),
                                                        "field": field.tolist()}))

    def responded(members: Sequence[Sequence[float]], odds: np.ndarray, begin: Sequence[float], seed: int,
                  field: int) -> tuple[float, ...]:
        if args.oracle_minutes or args.oracle_generations:
            return cma_response(rules, members, odds, begin, seed, 60 * args.oracle_minutes, field,
                                args.oracle_generations or None)
        return respond_to(rules, members, odds, begin, seed, args.response_iterations, args.games, field)

    def report(name: str, odds: np.ndarray, seed: int, rows: Sequence[int] | None = None) -> None:
        members = population if rows is None else [population[i] for i in rows]
        response = responded(members, odds, members[int(np.argmax(odds))] if name == "member" else start, seed, 0)
        row = against(rules, response, members, args.match, seed + 2)
        mixture = "the mixture" if rows is None else f"the mixture of members {list(rows)}"
        print(f"  a fresh response from the {'likeliest member' if name == 'member' else 'network'} takes "
              f"{float(odds @ row):.3f} from {mixture} (against each member: {_row(row)})", flush=True)

    for k in range(first, first + args.iterations + 1):
        odds = nash(scores, field, args.field)
        write(odds)
        print(f"{args.rules}, population of {len(population)}, {time.perf_counter() - t:.0f} s: Nash odds "
              f"{_row(odds)}; the mixture against strong-linear {float(odds @ field):.3f} (each: {_row(field)})",
              flush=True)
        if k == first + args.iterations:
            if not args.no_fresh:
                report("network", odds, args.seed + 9_001)
                report("member", odds, args.seed + 9_002)
            break
        response = responded(population, odds, start, args.seed + 1_000 + k, args.field_share)
        row = np.array(against(rules, response, population, args.match, args.seed + 2))
        print(f"  response {k + 1} takes {float(odds @ row):.3f} from the mixture (against each member: {_row(row)})",
              flush=True)
        scores = np.block([[scores, 1.0 - row[:, None]], [row[None, :], np.full((1, 1), 0.5)]])
        field = np.r_[field, match(rules, response, linear, args.match, args.seed + 3)]
        population.append(response)
    rows, few = supported(scores, field, args.field, MAX_MEMBERS)
    whole = [max(1, round(60 * o)) for o in few]
    print(f"  at most {MAX_MEMBERS} members: {rows} at odds {':'.join(map(str, whole))}, its worst score against a "
          f"member {float(np.min(few @ scores[rows, :])):.3f}, against strong-linear {float(few @ field[rows]):.3f}",
          flush=True)
    if len(rows) < int((odds > 0).sum()) and not args.no_fresh:  # the equilibrium cut to what a file holds
        report("network", few, args.seed + 9_003, rows)
    if args.out is not None:
        if len(rows) > 1:
            mix_files([args.out / f"member{i}.json" for i in rows], tuple(whole), args.out / "mixture.json",
                      " ".join(sys.argv), per_game=True)
        mixture = f" and the mixture of {len(rows)}" if len(rows) > 1 else " (one member: no mixture)"
        print(f"wrote {len(population)} members, odds.json{mixture} to {args.out}")


if __name__ == "__main__":
    main()
