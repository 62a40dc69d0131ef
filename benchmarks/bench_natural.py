"""How well the natural policy gradient of the learned policy's compiled games is estimated, and where it leads.

    .venv/bin/python benchmarks/bench_natural.py --rules classic2021 --games 200000
    .venv/bin/python benchmarks/bench_natural.py --rules classic2021 --games 20000 --estimator explore
    .venv/bin/python benchmarks/bench_natural.py --rules advanced --respond 10

``strong`` is a softmax over scores, so ``grad log pi(a|s)`` (the *compatible features* ``psi(s, a)``) is known in
closed form at every placement, and the least-squares fit of the moves' advantages on it is the natural gradient
(:mod:`guyenne_explore.analysis.policies.natural`, which ``guyenne-explore improve --method natural`` follows).  This
benchmark estimates it twice on disjoint self-play games and prints how well the two agree (their cosine over every
number, in the metric of the placements' normal matrix, where two directions that change the moves' scores alike
agree even where the numbers' weakly determined combinations differ, and over the linear weights; the share of the
advantages the step explains), then the start moved by steps of it, the first moving the policy by
``natural.FIRST_KL`` nats and each next twice as long, each against the start (both seats, ``--match`` games a seat,
95% Wilson interval) with its mean KL divergence from the start.  ``--perturb FEATURE:FACTOR`` first multiplies a
linear weight (a start that a step should mend).

Two estimators:

- ``paired`` (the default, the command's): one placement a game played again with other legal moves, uniformly
  (``--explore X``: drawn from the policy at X times its temperature), each in a copy of the game that differs by
  that move alone; the difference of the two scores regressed on the difference of the moves' score gradients;
- ``explore``: the games played at ``--explore`` times the temperature (default 2), both sides, each placement's game
  score regressed on its compatible features (centred by the behaviour's own distribution) and a baseline (the
  policy's mean features, the placement point): plain policy-gradient self-play, what PPO and magnetic mirror
  descent read.  ``strong`` plays its likeliest placement at 99.8% of its placements (classic2021), so its own games,
  untempered, teach nothing.

Measured here (2026-11-30, classic2021's shipped network):

- ``explore``, 20,000 games (about 110 s): the moves explain 2e-4 of the scores' variance, the two directions'
  linear weights point in opposite ways (cosine -0.87), and no step beats the start by more than noise (0.500 to
  0.503 up to 0.24 nats; 0.465 at 16 nats);
- ``paired``, 200,000 games (75 s for both directions): the moves explain 0.7% of the differences, the directions
  agree (0.86 in the placements' metric; 0.53 over every number, 0.23 over the linear weights alone), and with the
  regression's ridge at 1e-6 the best step scores 0.520 [0.510, 0.531] against the start at 5.5 nats, three times as long
  0.054 (the ridge now used, 0.1, took 0.550 at 19 nats; ``natural.RIDGE``'s comment).

So a game's score is too noisy a signal for plain policy-gradient self-play at this scale, and the same games' moves,
paired, give a direction that a line search can follow.

``--respond N`` trains a best response against the policy by the same gradient (``natural.respond``, the exploit
command's trained responder, :data:`~guyenne_explore.analysis.policies.natural.RESPONSE_GAMES` games an iteration)
and prints its score against the policy after each of ``N`` iterations (``--match`` games a seat, 95% interval), then
against ``strong-linear``, and how both place in their games.  Measured here (2026-11-30, advanced's shipped
network, ``--respond 4``, seed 1, one core beside a CI run): 0.511, 0.538, 0.594, 0.767 [0.758, 0.776] after each of
the recipe's four iterations (114 s); the response scores 0.601 against ``strong-linear``.  It opens small (one or two
cards at 66% of its openings, the hero alone at 11%) and answers big (three cards or more at 49% of its answers), where
the network opens with three cards or more at 54% and answers with one card at 59%.  A scratch run of ten iterations
on another seed went 0.520, 0.611, 0.710, 0.778, 0.815, 0.838, 0.858, 0.870, 0.870, 0.876 (373 s).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.analysis.compiled import layout as kn  # noqa: E402
from guyenne_explore.analysis.compiled.policy_codes import FEATURES  # noqa: E402
from guyenne_explore.analysis.compiled.recording import Recorded, recorded_games  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import TEMPERATURE  # noqa: E402
from guyenne_explore.analysis.policies.improvement import _vector  # noqa: E402
from guyenne_explore.analysis.policies.natural import (CHUNK, Direction, divergence, first_size, respond,  # noqa: E402
                                                       match, paired_direction, score_gradients, stepped)
from guyenne_explore.analysis.policies.network import hidden_units  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.analysis.policies.weights import preset_file, read_model  # noqa: E402
from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.engine import Position, Rules  # noqa: E402


#: the tempered self-play regression's ridge, relative to its normal matrix's mean diagonal: for its numbers alone (its
#: baseline's columns are nearly collinear with the compatible features' sums)
RIDGE = 1e-6


def compatible(made: Recorded, theta: np.ndarray, units: int, temperature: float = TEMPERATURE
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each recorded placement's compatible features ``psi`` (a row a placement, a column a number of ``theta``:
    ``grad log pi`` of the move drawn, under the softmax of ``theta``'s scores at ``temperature``), the policy's mean
    features there (what the baseline reads) and the log-probability of every move (a row a move)."""
    phi = made.phi.astype(np.float64)
    firsts = made.column("first")
    of = np.repeat(np.arange(len(firsts)), made.column("moves"))
    grads, score = score_gradients(phi, theta, units)
    z = score / temperature
    shifted = z - np.maximum.reduceat(z, firsts)[of]
    e = np.exp(shifted)
    total = np.add.reduceat(e, firsts)
    p = e / total[of]
    psi = grads[firsts + made.column("chosen")] - np.add.reduceat(p[:, None] * grads, firsts)
    return psi / temperature, np.add.reduceat(p[:, None] * phi, firsts), shifted - np.log(total)[of]


def natural_direction(rules: Rules, model: Sequence[float], games: int, seed: int, explore: float = 2.0,
                      temperature: float = TEMPERATURE) -> Direction:
    """The natural gradient of ``model``'s score in self-play, from ``games`` compiled games of ``model`` against
    itself at ``explore`` times its temperature (seeded by ``seed``): the regression, accumulated a
    :data:`CHUNK` of games at a time, of each placement's game score on its compatible features and a baseline."""
    units = hidden_units(model)
    theta = _vector(model, units)
    start = Position.start(rules)
    side = Strong(model, temperature=temperature * explore).compiled(rules)
    n_psi = len(theta)
    width = n_psi + len(FEATURES) + 5  # psi, then the baseline's: the mean features, the point, a constant
    normal = np.zeros((width, width))
    moment = np.zeros(width)
    sum_y = sum_yy = 0.0
    decisions = 0
    for lo in range(0, games, CHUNK):
        made = recorded_games(start, min(CHUNK, games - lo), seed, (side, side), start_index=lo)
        if not len(made.decisions):
            continue
        psi, mean_phi, _ = compatible(made, theta, units, temperature * explore)
        point = np.eye(4)[made.column("point") - kn.OPEN_FIRST]  # the four placements' codes follow one another
        x = np.concatenate([psi, mean_phi, point, np.ones((len(psi), 1))], axis=1)
        y = made.scores() - 0.5
        normal += x.T @ x
        moment += x.T @ y
        sum_y, sum_yy = sum_y + float(y.sum()), sum_yy + float(y @ y)
        decisions += len(y)
    if not decisions:
        return Direction(np.zeros(n_psi), 0, 0.0, np.zeros((n_psi, n_psi)))
    ridge = RIDGE * float(np.mean(np.diag(normal))) * np.eye(width)
    coef = np.linalg.solve(normal + ridge, moment)
    base = np.linalg.solve((normal + ridge)[n_psi:, n_psi:], moment[n_psi:])
    explained_all = float(coef @ moment)
    explained_base = float(base @ moment[n_psi:])
    variance = sum_yy - sum_y * sum_y / decisions
    return Direction(coef[:n_psi], decisions, (explained_all - explained_base) / variance if variance else 0.0,
                     normal[:n_psi, :n_psi] / decisions)


def perturbed(model: Sequence[float], perturb: str | None) -> tuple[float, ...]:
    """``model`` with one linear weight multiplied (``FEATURE:FACTOR``; None: as it is)."""
    if not perturb:
        return tuple(model)
    name, _, factor = perturb.partition(":")
    if name not in FEATURES:
        raise SystemExit(f"--perturb: no feature {name!r} (the features: {', '.join(FEATURES)})")
    moved = list(model)
    moved[FEATURES.index(name)] *= float(factor)
    return tuple(moved)


def cosine(a: np.ndarray, b: np.ndarray, metric: np.ndarray | None = None) -> float:
    """The cosine of two directions, in ``metric`` (default the plain one): in the estimates' own normal matrix, two
    directions that change the moves' scores alike agree even where the numbers' weakly determined combinations
    (whose noise a plain cosine reads) differ."""
    m = np.eye(len(a)) if metric is None else metric
    norm = float(np.sqrt((a @ m @ a) * (b @ m @ b)))
    return float(a @ m @ b) / norm if norm else 0.0


def responded(rules: Rules, model: Sequence[float], iterations: int, seed: int, games: int) -> None:
    """A best response trained against ``model`` (:func:`natural.respond`), measured after each iteration."""
    from bench_network import styles  # (this folder's: the sizes of both sides' placements)

    target, t = Strong(model), time.perf_counter()

    def each(i: int, weights: tuple[float, ...]) -> None:
        score = match(rules, weights, target.compiled(rules), games, seed + 777)
        low, high = wilson(score * 2 * games, 2 * games)
        print(f"  iteration {i + 1}, {time.perf_counter() - t:.0f} s: against the policy {score:.3f} [{low:.3f}, "
              f"{high:.3f}]", flush=True)

    found = respond(rules, target, seed, iterations, each=each)
    score = match(rules, found, Strong(linear=True).compiled(rules), games, seed + 778)
    print(f"  the response against strong-linear: {score:.3f}; how each places in 100 games a seat:", flush=True)
    styles(Position.start(rules), Strong(found), target, 100, seed + 13)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic2021", help="a preset name or rules JSON")
    ap.add_argument("--games", type=int, default=20_000, help="self-play games a direction")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--estimator", choices=("explore", "paired"), default="paired",
                    help="tempered self-play's outcomes, or paired deviations' (the default)")
    ap.add_argument("--explore", type=float, default=None,
                    help="the behaviour's temperature, times the policy's (explore: default 2); paired: the "
                         "deviations drawn from the policy at this temperature, not uniformly")
    ap.add_argument("--alternatives", type=int, default=2, help="deviations a sampled placement (paired)")
    ap.add_argument("--weights", help="a weights file (default: the one strong plays under the rules; a mixture's "
                                      "first member)")
    ap.add_argument("--perturb", help="FEATURE:FACTOR, a linear weight multiplied first")
    ap.add_argument("--steps", type=int, default=9, help="steps played, the first moving the policy by "
                                                         "FIRST_KL nats, each next twice as long")
    ap.add_argument("--match", type=int, default=4000, help="games a seat against the start")
    ap.add_argument("--respond", type=int, metavar="N", help="train a best response for N iterations instead")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    model = perturbed(read_model(Path(args.weights) if args.weights else preset_file(rules)).played().members[0],
                      args.perturb)
    if args.respond:
        responded(rules, model, args.respond, args.seed, args.match)
        return
    t = time.perf_counter()
    if args.estimator == "paired":
        halves = [paired_direction(rules, model, args.games // 2, args.seed * 2 + h, args.alternatives, args.explore)
                  for h in (0, 1)]
    else:
        halves = [natural_direction(rules, model, args.games // 2, args.seed * 2 + h, args.explore or 2.0)
                  for h in (0, 1)]
    n = len(FEATURES)
    print(f"{args.rules} ({args.estimator}): two directions from {args.games // 2} games each ({halves[0].samples} and "
          f"{halves[1].samples} samples), {time.perf_counter() - t:.0f} s: cosine {cosine(*(h.step for h in halves)):.2f}, "
          f"in the placements' metric {cosine(*(h.step for h in halves), halves[0].fisher + halves[1].fisher):.2f}, "
          f"linear weights {cosine(*(h.step[:n] for h in halves)):.2f}; the moves explain "
          f"{halves[0].explained:.2e} and {halves[1].explained:.2e} of the scores' variance", flush=True)
    step = (halves[0].step + halves[1].step) / 2
    sample = recorded_games(Position.start(rules), 300, args.seed + 1_000_003, (Strong(model).compiled(rules),) * 2)
    first = first_size(sample, model, step)
    for size in (first * 2 ** j for j in range(args.steps if first else 0)):
        moved = stepped(model, step, size)
        score = match(rules, moved, model, args.match, args.seed + 777)
        low, high = wilson(score * 2 * args.match, 2 * args.match)
        print(f"  size {size:.4g}: KL {divergence(sample, model, step, size):.4f}, against the start {score:.3f} "
              f"[{low:.3f}, {high:.3f}]", flush=True)


if __name__ == "__main__":
    main()
