"""Training the learned policy's weights: CMA-ES over seeded compiled games against a pool.

    python -m guyenne_explore.analysis.policies.train --rules advanced --seed 1 --minutes 5

A candidate's fitness is its score (a win 1, a draw 1/2) in compiled games against each policy of
the pool (the heuristic, the starting weights, and the best weights so far), in both seats; every candidate of a
generation plays the same seeded games (common random numbers), so their differences are not luck
of the deal.  After each generation the distribution's mean plays a fixed set of games against the
heuristic (the same every generation): the mean that scores best there is the best so far, kept when
the time runs out or Ctrl-C stops the run, and written as the weights file.  The same seed gives the
same weights for the same number of generations (CMA-ES draws from its own seeded stream; the games
from theirs): a run stopped by ``--minutes`` runs as many as the machine allows, the file records
them, and ``--generations N`` (with the same ``--start``) replays that run.  The validation games
are the seed's, so the best score a run reports is biased upward by its choice among many means:
``benchmarks/bench_strong.py`` measures on other seeds.  Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

import numpy as np

from ...engine_api import Position, Rules, RulesError
from ..compiled import layout as kn
from ..compiled.rollout import play_summaries
from ..compiled.sides import FEATURES, SidePolicy
from .heuristic import Heuristic
from .strong import WEIGHTS_FILE, Strong, checked_weights

#: where CMA-ES starts: the heuristic's scores (its gain, spending and removal shares)
START = {"gain": 1.0, "spent": -0.25, "removal": -0.3}
#: the seeds' offset of the validation games (apart from every generation's)
VALIDATION = 1_000_003


class Trained(NamedTuple):
    """A run's result: the best weights, their validation score against the heuristic, generations run."""

    weights: tuple[float, ...]
    score: float
    generations: int


def score(start: Position, weights: Sequence[float], opponent: SidePolicy, games: int, seed: int) -> float:
    """The learned policy's score with ``weights`` against ``opponent``: ``games`` games in each seat."""
    me = Strong(weights).compiled()
    points = 0.0
    for seat, pair in enumerate(((me, opponent), (opponent, me))):
        out = play_summaries(start, games, seed + seat, sides=pair)
        won = out[:, kn.OUT_WINNER]
        points += float(np.sum(won == seat) + 0.5 * np.sum(won == kn.DRAW_WINNER))
    return points / (2 * games)


def train(rules: Rules, seed: int, seconds: float, games: int = 100, popsize: int = 12, sigma: float = 0.3,
          generations: int | None = None, report: Callable[[str], None] | None = None,
          start_from: dict[str, float] | None = None) -> Trained:
    """CMA-ES over the weights for ``seconds`` (or ``generations``), ``games`` games a seat for each
    candidate and opponent, from :data:`START` or the weights ``start_from`` (by feature; a feature
    it lacks starts at 0); Ctrl-C stops it and keeps the best so far.  A ValueError names bad input."""
    import warnings

    with warnings.catch_warnings():  # cma says at import that it plots nothing without matplotlib
        warnings.simplefilter("ignore", UserWarning)
        import cma

    if not (seconds > 0) or seconds == float("inf"):
        raise ValueError(f"--minutes: the training time must be a positive number of minutes, not {seconds / 60!r}")
    if games < 1:
        raise ValueError(f"--games: at least 1 game a seat, not {games}")
    if popsize < 2:
        raise ValueError(f"--popsize: at least 2 candidates a generation, not {popsize}")
    if not (sigma > 0):
        raise ValueError(f"--sigma: the initial step must be positive, not {sigma}")
    start = Position.start(rules)
    heuristic = Heuristic().compiled()
    x0 = [(START if start_from is None else start_from).get(name, 0.0) for name in FEATURES]
    es = cma.CMAEvolutionStrategy(x0, sigma, {"seed": seed, "popsize": popsize, "verbose": -9})
    best = Trained(checked_weights(None, x0), score(start, x0, heuristic, 2 * games, seed + VALIDATION), 0)
    past = Strong(best.weights).compiled()  # the start, a past self: the pool keeps what it beat
    say = report or (lambda line: None)
    say(f"start: {best.score:.3f} against the heuristic (validation)")
    t0 = time.monotonic()
    gen = 0
    try:
        while (generations is None or gen < generations) and time.monotonic() - t0 < seconds:
            pool = (heuristic, past, Strong(best.weights).compiled())
            candidates = es.ask()
            base = seed * 1_000 + gen * 10
            fitness = [-sum(score(start, x, o, games, base + 2 * i) for i, o in enumerate(pool)) / len(pool)
                       for x in candidates]
            es.tell(candidates, fitness)
            gen += 1
            mean = checked_weights(None, [float(v) for v in es.mean])
            valid = score(start, mean, heuristic, 2 * games, seed + VALIDATION)
            if valid > best.score:
                best = Trained(mean, valid, gen)
            say(f"generation {gen}: pool score best {-min(fitness):.3f} mean {-float(np.mean(fitness)):.3f}; the mean "
                f"scores {valid:.3f} against the heuristic, the best so far {best.score:.3f} "
                f"({time.monotonic() - t0:.0f} s)")
    except KeyboardInterrupt:
        say("stopped: keeping the best so far")
    return Trained(best.weights, best.score, gen)


def weights_by_feature(path: Path) -> dict[str, float]:
    """A weights file's weights by feature name, for a run that starts from them (a model trained
    before features were added keeps what it learned); a ValueError names what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
        pairs = dict(zip(data["features"], data["weights"], strict=True))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"--start: {path} is no weights file ({exc})") from None
    unknown = sorted(set(pairs) - set(FEATURES))
    if unknown:
        raise ValueError(f"--start: {path} has features this policy does not compute: {', '.join(unknown)}")
    return dict(zip(FEATURES, checked_weights(None, [pairs.get(n, 0.0) for n in FEATURES], f"--start {path}")))


def write(path: Path, result: Trained, rules: str, seed: int, games: int, start: Path | None = None) -> None:
    """The weights file the policy loads (:func:`.strong.load_weights`)."""
    data = {"features": list(FEATURES), "weights": list(result.weights),
            "trained": {"rules": rules, "seed": seed, "games_a_seat": games, "generations": result.generations,
                        "validation_score_vs_heuristic": round(result.score, 4),
                        "started_from": None if start is None else start.name}}
    path.write_text(json.dumps(data, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="a preset name or a rules JSON object")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--generations", type=int, default=None, help="stop after this many generations")
    ap.add_argument("--games", type=int, default=200, help="games a seat for each candidate and opponent")
    ap.add_argument("--popsize", type=int, default=12)
    ap.add_argument("--out", type=Path, default=WEIGHTS_FILE, help="the weights file to write")
    ap.add_argument("--start", type=Path, default=None, help="a weights file to start from (default: the heuristic's scores)")
    args = ap.parse_args(argv)
    try:
        spec = json.loads(args.rules) if args.rules.lstrip().startswith("{") else args.rules
        rules = Rules.from_json(spec)
        start_from = weights_by_feature(args.start) if args.start else None
        result = train(rules, args.seed, args.minutes * 60, args.games, args.popsize, generations=args.generations,
                       report=lambda line: print(line, file=sys.stderr, flush=True), start_from=start_from)
    except (ValueError, RulesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    write(args.out, result, args.rules, args.seed, args.games, args.start)
    print(f"wrote {args.out}: validation score {result.score:.3f} against the heuristic", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
