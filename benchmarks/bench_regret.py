"""How far the learned policy is from what one ply of search on its own play picks, placement by placement.

    .venv/bin/python benchmarks/bench_regret.py --rules classic2021 --games 40 --workers 2

It plays ``strong``'s self-play (the engine's loop, the Python policy, seeded by ``--seed`` and the game).  At each
placement the compiled search that the improvement learns from (:meth:`.policies.search.ISMCTS.candidate_values`:
``strong``'s likeliest moves and the heuristic's, :data:`~.policies.improvement.EXPLORED`, each over the same
:data:`~.policies.improvement.ROLLOUTS` games from the worlds the opponent's placements make likely, both sides
playing ``strong`` after it) values the candidates twice, on independent rollouts.  The search's pick is the best
by the first valuation; the second scores it against ``strong``'s own policy there (its expected value over its
move distribution, a move no search valued counted as the worst candidate).  So the gain is not the noise of
choosing the best of several noisy means: it is what one ply of search on ``strong``'s model wins at that
placement, what the gauntlet's model exploiter plays at every one of its own, and what the improvement tries to
teach the network.  A policy at the search's fixed point would show 0; printed by placement point with 95% Student
t intervals, the shares of placements where the pick gains or loses more than 0.05, and how often the second
valuation picks the same move (the rest is the rollouts' noise).  Printed, never asserted.

Measured here on the shipped policies (2026-11-30, ``--games 40 --workers 1``, 64 to 106 s a rule set; expert's is
its mixture of two networks), the gain a placement with its 95% interval, then by point, how often the second
valuation picked the same move, and the model exploiter's score against the same policy
(``bench_exploit.py --responders exploiter``, 800 games):

===========  ======================  ==========  =============  ===========  ==============  ======  =========
rules        every placement         open first  respond first  open second  respond second  again   exploiter
===========  ======================  ==========  =============  ===========  ==============  ======  =========
classic2021  0.093 [0.083, 0.102]    0.096       0.097          0.092        0.086           0.49    0.838
advanced     0.111 [0.098, 0.123]    0.118       0.153          0.094        0.073           0.53    0.581
expert       0.064 [0.055, 0.073]    0.079       0.071          0.068        0.035           0.51    0.509
===========  ======================  ==========  =============  ===========  ==============  ======  =========

So ``strong`` is far from its search's fixed point under every preset: at four placements in ten the search's pick
wins more than 0.05 of a game more, at one in ten it loses as much, and half the picks are the rollouts' noise (a
second valuation picks another move).  The gain a placement does not rank the policies as the model exploiter does
(advanced's is the largest, its exploiter's score the middle one): the exploiter plays its search at its own
placements against ``strong``, where the gains add up over a game and meet other positions than ``strong``'s self-play.
What the search finds is no function of ``strong``'s features nor of the raw cards that a model learns from
thousands of such placements (``bench_capacity.py``).

The linear policy before the networks (``--weights guyenne_explore/analysis/policies/weights/linear/R.json``, the
level ``strong-linear``, 12 to 19 s a rule set on two cores) is nearer its own search's fixed point: 0.081 [0.072,
0.090] a placement under classic2021 and 0.073 [0.062, 0.084] under advanced, though the networks beat it (0.71
under advanced).  Training the networks against a pool made them stronger and further from what a search on them
picks.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.analysis.intervals import mean_interval  # noqa: E402
from guyenne_explore.analysis.policies.improvement import ROLLOUTS, explored  # noqa: E402
from guyenne_explore.analysis.policies.search import ISMCTS  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.analysis.policies.mixture import Mixture  # noqa: E402
from guyenne_explore.analysis.policies.weights import preset_file, read_model  # noqa: E402
from guyenne_explore.engine import PLACEMENTS, Move, Position, Rules, SideView, play  # noqa: E402
from pools import stopping_pool  # noqa: E402

#: a placement's point, what the search's pick gains there over strong's policy, and whether the second valuation
#: picks the same move (how much of the pick is the rollouts' noise)
Gain = tuple[str, float, bool]


class ValuedTwice(Strong):
    """``strong``, which at each placement also has the search value its candidates twice and keeps the pick's gain."""

    def __init__(self, played: Mixture, seed: str) -> None:
        super().__init__(mixture=played)
        self.search = ISMCTS(model=Strong(mixture=played))
        self.search_rng = random.Random(seed)
        self.gains: list[Gain] = []

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play in PLACEMENTS:
            self._value(view)
        return super().choose(view, rng)

    def _value(self, view: SideView) -> None:
        also = explored(self, view)
        first = self.search.candidate_values(view, self.search_rng.getrandbits(62), ROLLOUTS, also)
        again = self.search.candidate_values(view, self.search_rng.getrandbits(62), ROLLOUTS, also)
        if not first or not again or len(first) < 2:
            return  # the compiled loop does not play from here, or there is no choice
        picked, second = max(first, key=lambda mv: mv[1])[0], dict(again)
        worst = min(second.values())
        weighted = self.weights(view)
        total = sum(w for _, w in weighted)
        own = sum(w * second.get(m, worst) for m, w in weighted) / total
        self.gains.append((view.to_play, second[picked] - own, max(again, key=lambda mv: mv[1])[0] == picked))


def gains(rules: Any, played: Mixture, seed: int, game: int) -> list[Gain]:
    """Self-play game ``game``'s placements with what the search's pick gains at each (a pool's task)."""
    player = ValuedTwice(played, f"regret-search:{seed}:{game}")
    play(Position.start(Rules.from_json(rules)), random.Random(f"regret:{seed}:{game}"), (player, player),
         check_moves=False)
    return player.gains


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic2021", help="a preset name or rules JSON")
    ap.add_argument("--games", type=int, default=40, help="self-play games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", help="a weights file, a model or a mixture (default: the one strong plays under the "
                                      "rules)")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    played = read_model(Path(args.weights) if args.weights else preset_file(rules)).played()
    t = time.perf_counter()
    with stopping_pool(args.workers) as pool:
        rows = [g for game in pool.map(gains, [rules.to_json()] * args.games, [played] * args.games,
                                       [args.seed] * args.games, range(args.games)) for g in game]
    print(f"{args.rules}: {len(rows)} placements in {args.games} games, {time.perf_counter() - t:.0f} s", flush=True)
    for point in (None, *PLACEMENTS):
        xs = [g for p, g, _ in rows if point is None or p == point]
        if len(xs) < 2:
            continue
        mean, low, high = mean_interval(xs)
        same = sum(s for p, _, s in rows if point is None or p == point) / len(xs)
        print(f"  {point or 'every placement':>16}: the search's pick gains {mean:.3f} [{low:.3f}, {high:.3f}] "
              f"over {len(xs)}; more than 0.05 at {sum(x > 0.05 for x in xs) / len(xs):.2f}, loses more than "
              f"0.05 at {sum(x < -0.05 for x in xs) / len(xs):.2f}; picked again {same:.2f}", flush=True)


if __name__ == "__main__":
    main()
