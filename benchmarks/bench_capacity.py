"""Whether a richer model over strong's features would learn more from its search than the linear one does.

    .venv/bin/python benchmarks/bench_capacity.py --rules advanced --games 300 --workers 2

It plays the improvement's self-play (``analysis.improvement.self_play``: at each placement the compiled
search values strong's likeliest moves over the same rollouts), keeps 70% of the games' decisions to fit
and 30% to test, and fits, as the improvement does (the expected value of strong's softmax under the
search's values), three models from the shipped weights:

- **linear**: ``w . phi``, strong's own form;
- **by point**: one weight vector for each placement point (open first, respond first, open second,
  respond second), four times the weights;
- **quadratic**: ``w . phi`` plus every product of two standardised features (231 more weights, an L2
  pull towards zero).

Printed for each: the test decisions' mean expected value under the fitted softmax, beside the shipped
weights' and the mean of each decision's best candidate value (an upper bound that the rollouts' noise
inflates: the best of eight noisy means), and how often the model's top move is the search's best
candidate.  Printed, never asserted.  Measured here on two cores (300 games, about 3 minutes of play
and 3 of fitting), test values:

============  =======  ======  ========  =========  ==============
rules         shipped  linear  by point  quadratic  best candidate
============  =======  ======  ========  =========  ==============
advanced      0.5201   0.5204  0.5206    0.5213     0.6459
classic2021   0.5016   0.5017  0.5025    0.5020     0.6314
============  =======  ======  ========  =========  ==============

Four times the weights, or every product of two features, gain at most 0.001 of a game's value a
placement over the linear model: what the search finds at a placement is not a function of these
features that more weights would learn from this many rollouts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.analysis.improvement import Decision, self_play  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import TEMPERATURE  # noqa: E402
from guyenne_explore.analysis.policies.train import default_start  # noqa: E402
from guyenne_explore.engine_api import PLACEMENTS, Rules  # noqa: E402
from pools import stopping_pool  # noqa: E402

Stacked = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def stack(rows: Sequence[tuple[np.ndarray, np.ndarray]]) -> Stacked:
    """Decisions' rows one above the other: features, values, each decision's first row, each row's decision."""
    phi = np.concatenate([f for f, _ in rows])
    values = np.concatenate([v for _, v in rows])
    sizes = [len(v) for _, v in rows]
    return phi, values, np.cumsum([0] + sizes[:-1]), np.repeat(np.arange(len(rows)), sizes)


def expected(s: Stacked, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each decision's expected value under the softmax of ``w``, and each row's probability."""
    phi, values, firsts, of = s
    z = phi @ w / TEMPERATURE
    e = np.exp(z - np.maximum.reduceat(z, firsts)[of])
    p = e / np.add.reduceat(e, firsts)[of]
    return np.add.reduceat(p * values, firsts), p


def fit(s: Stacked, start: np.ndarray, pull: np.ndarray) -> np.ndarray:
    """The weights of the best mean expected value, less ``pull . (w - start)^2`` (the improvement's fit)."""
    from scipy.optimize import minimize

    phi, values, _, of = s

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        ev, p = expected(s, w)
        grad = -(phi.T @ (p * (values - ev[of]))) / TEMPERATURE / len(ev)
        d = w - start
        return -float(ev.mean()) + float(pull @ (d * d)), grad + 2 * pull * d

    return minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 500}).x


def agreement(s: Stacked, w: np.ndarray) -> float:
    """How often the top move of ``w`` is (one of) the search's best candidates."""
    phi, values, firsts, _ = s
    z = phi @ w
    ends = list(firsts[1:]) + [len(z)]
    return float(np.mean([values[a + np.argmax(z[a:b])] == values[a:b].max() for a, b in zip(firsts, ends)]))


def models(w0: np.ndarray, mean: np.ndarray, spread: np.ndarray) -> dict[str, tuple[Callable[[Decision], np.ndarray],
                                                                                     np.ndarray, np.ndarray]]:
    """Each model: its rows from a decision, its start (where it plays as the shipped weights) and its pull."""
    n = len(w0)
    pairs = np.triu_indices(n)
    scale = max(float(np.abs(w0).mean()), 1.0)

    def by_point(d: Decision) -> np.ndarray:
        out = np.zeros((len(d.values), 4 * n))
        k = PLACEMENTS.index(d.point)
        out[:, k * n:(k + 1) * n] = d.features
        return out

    def quadratic(d: Decision) -> np.ndarray:
        z = (d.features - mean) / spread
        return np.hstack([d.features, (z[:, :, None] * z[:, None, :])[:, pairs[0], pairs[1]]])

    q = len(pairs[0])
    return {"linear": (lambda d: d.features, w0, np.full(n, 1e-3 / scale ** 2)),
            "by point": (by_point, np.tile(w0, 4), np.full(4 * n, 1e-3 / scale ** 2)),
            "quadratic": (quadratic, np.concatenate([w0, np.zeros(q)]),
                          np.concatenate([np.full(n, 1e-3 / scale ** 2), np.full(q, 1e-3)]))}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="a preset name")
    ap.add_argument("--games", type=int, default=300, help="self-play games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = Rules.from_json(args.rules)
    w0 = np.array(default_start(rules))
    with stopping_pool(args.workers) as pool:
        games = list(pool.map(self_play, [rules.to_json()] * args.games, [tuple(w0)] * args.games,
                              [args.seed] * args.games, [0] * args.games, range(args.games)))
    cut = int(len(games) * 0.7)
    train_games, test_games = [d for g in games[:cut] for d in g], [d for g in games[cut:] for d in g]
    every = np.concatenate([d.features for d in train_games])
    mean, spread = every.mean(0), every.std(0) + 1e-9
    print(f"{args.rules}: {len(train_games)} decisions to fit ({cut} games), {len(test_games)} to test")
    for name, (rows, start, pull) in models(w0, mean, spread).items():
        fitting = stack([(rows(d), d.values) for d in train_games])
        testing = stack([(rows(d), d.values) for d in test_games])
        w = fit(fitting, start, pull)
        shipped = expected(testing, start)[0].mean()
        best = float(np.mean([d.values.max() for d in test_games]))
        print(f"  {name:>9}: test value {expected(testing, w)[0].mean():.4f} (shipped weights {shipped:.4f}, "
              f"best candidate {best:.4f}); fit {expected(fitting, w)[0].mean():.4f}; top move the search's best "
              f"{agreement(testing, w):.3f} (shipped {agreement(testing, start):.3f})")


if __name__ == "__main__":
    main()
