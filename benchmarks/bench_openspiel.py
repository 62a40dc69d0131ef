"""OpenSpiel's generic IS-MCTS bot against the project's policies, both seats, at equal time per decision.

The yardstick of issue 23: OpenSpiel's ``ISMCTSBot`` with uniform random rollouts at its leaves
(``simulations`` x ``rollouts``), playing Guyenne through the thin wrapper
``benchmarks/openspiel_guyenne.py`` (every rule asked of the engine, hidden cards dealt by
``determinise``), against ``uniform``, ``heuristic``, ``search:N`` or a counter-policy, in the
engine's own game loop.  For each opponent it prints the bot's score (a win 1, a draw 1/2) over
both seats with its 95% Wilson interval, its score in each seat, and the mean time per decision
of each side (every decision a side is asked, forced ones included).

Equal time: unless ``--simulations`` fixes the bot's budget, a short calibration (two games,
one a seat, on seeds apart from the measured ones) times the opponent's decisions and the bot's
at a probe budget, and the bot gets the simulations that match the opponent's mean time per
decision (``--time-per-decision match``, the default) or a given number of milliseconds
(``--time-per-decision 120``), at least two (OpenSpiel's first simulation only creates the root).

    .venv/bin/python benchmarks/bench_openspiel.py --games 10 --opponents heuristic,search:100
    .venv/bin/python benchmarks/bench_openspiel.py --games 200 --workers 16 --simulations 100 --rollouts 4
    .venv/bin/python benchmarks/bench_openspiel.py --games 200 --workers 2 --time-per-decision 120
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openspiel_guyenne import MIN_SIMULATIONS, OpenSpielBot, load, read_rules  # noqa: E402
from timed import Timed  # noqa: E402

from guyenne_explore.analysis import PolicySpec  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.engine import Position, RulesError, play, side_score  # noqa: E402
from pools import stopping_pool  # noqa: E402

#: the bot's budget while calibrating (simulations of ``rollouts`` games each)
PROBE_SIMULATIONS = 4
#: calibration games (half in each seat)
CALIBRATION_GAMES = 2


def make(name: str) -> Any:
    """A fresh policy of the project by its level's name (a counter-policy's too)."""
    return PolicySpec.parse(name).policy()


def play_share(rules: str, opponent: str, simulations: int, rollouts: int, seat: int, seed: int, start: int,
               count: int) -> tuple[float, float, int, float, int]:
    """Games ``start..start+count`` with the bot as side ``seat``: the bot's points, its seconds and
    decisions, the opponent's seconds and decisions."""
    game = load(rules)
    warm(game, opponent)
    points, totals = 0.0, [0.0, 0, 0.0, 0]
    for i in range(start, start + count):
        bot, other = Timed(OpenSpielBot(game, simulations, rollouts)), Timed(make(opponent))
        policies = (bot, other) if seat == 0 else (other, bot)
        winner = play(Position.start(game.rules), random.Random(f"{seed}:{i}"), policies).result().winner
        points += side_score(winner, seat)
        for k, t in enumerate((bot, other)):
            totals[2 * k] += t.seconds
            totals[2 * k + 1] += t.decisions
    return points, float(totals[0]), int(totals[1]), float(totals[2]), int(totals[3])


def warm(game: Any, opponent: str) -> None:
    """Ask the opponent one untimed decision, so that loading its compiled rollouts (the search's
    numba functions) is not counted in its time per decision."""
    p = Position.start(game.rules)
    rng = random.Random(0)
    while p.is_chance:
        p = p.apply_outcome(p.sample_outcome(rng))
    side = p.side_to_play
    assert side is not None
    make(opponent).choose(p.view(side), rng)


def mean_ms(seconds: float, decisions: int) -> float:
    return 1000 * seconds / decisions if decisions else float("nan")


def calibrate(rules: str, opponent: str, rollouts: int, target_ms: float | None, seed: int) -> tuple[int, float]:
    """The bot's simulations for equal time, and the opponent's calibrated ms per decision."""
    bot_s, bot_n, opp_s, opp_n = 0.0, 0, 0.0, 0
    for g in range(CALIBRATION_GAMES):
        _, bs, bn, os_, on = play_share(rules, opponent, PROBE_SIMULATIONS, rollouts, g % 2, seed + 10_000, g, 1)
        bot_s, bot_n, opp_s, opp_n = bot_s + bs, bot_n + bn, opp_s + os_, opp_n + on
    opponent_ms = mean_ms(opp_s, opp_n)
    per_simulation = mean_ms(bot_s, bot_n) / PROBE_SIMULATIONS
    target = opponent_ms if target_ms is None else target_ms
    return max(MIN_SIMULATIONS, round(target / per_simulation)), opponent_ms


def measure(pool: ProcessPoolExecutor, rules: str, opponent: str, simulations: int, rollouts: int, games: int,
            seed: int, chunk: int) -> dict[str, Any]:
    """``games`` in each seat; the bot's score over both seats and each side's time per decision."""
    jobs = [(seat, pool.submit(play_share, rules, opponent, simulations, rollouts, seat, seed, start,
                               min(chunk, games - start)))
            for seat in (0, 1) for start in range(0, games, chunk)]
    points, totals = [0.0, 0.0], [0.0, 0, 0.0, 0]
    for seat, job in jobs:
        pts, *times = job.result()
        points[seat] += pts
        totals = [a + b for a, b in zip(totals, times)]
    total = points[0] + points[1]
    low, high = wilson(total, 2 * games)
    return {"score": total / (2 * games), "low": low, "high": high, "english": points[0] / games,
            "french": points[1] / games, "bot_ms": mean_ms(totals[0], int(totals[1])),
            "opponent_ms": mean_ms(totals[2], int(totals[3]))}


def parse_target(text: str) -> float | None:
    """``match`` (None: the opponent's time) or a positive number of milliseconds."""
    if text == "match":
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ValueError(f"--time-per-decision: 'match' or a positive number of milliseconds, not {text!r}")
    return value


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games in each seat against each opponent")
    ap.add_argument("--rules", default="advanced", help="a preset name or a rules JSON object")
    ap.add_argument("--opponents", default="strong,search:400", help="the policies, comma-separated")
    ap.add_argument("--simulations", type=int, default=None, help="the bot's simulations (default: equal time)")
    ap.add_argument("--rollouts", type=int, default=4, help="random rollouts at each leaf of the bot")
    ap.add_argument("--time-per-decision", default="match",
                    help="the bot's time per decision: 'match' (the opponent's) or milliseconds")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        target = parse_target(args.time_per_decision)
        rules = read_rules(args.rules)
        load(args.rules)
        opponents = [x for x in args.opponents.split(",") if x]
        for name in opponents:
            make(name)
        for name, value, least in (("--games", args.games, 1), ("--rollouts", args.rollouts, 1),
                                   ("--workers", args.workers, 1),
                                   ("--simulations", args.simulations or MIN_SIMULATIONS, MIN_SIMULATIONS)):
            if value < least:
                raise ValueError(f"{name} must be at least {least}, not {value}")
    except (RulesError, ValueError) as exc:
        sys.exit(f"bench_openspiel: {str(exc).splitlines()[0]}")
    chunk = max(1, -(-args.games // args.workers))
    print(f"{rules}: OpenSpiel IS-MCTS (uniform rollouts x {args.rollouts}) against {', '.join(opponents)}; "
          f"{args.games} games a seat, seed {args.seed}, {args.workers} worker(s)", flush=True)
    t0 = time.perf_counter()
    with stopping_pool(args.workers) as pool:
        for name in opponents:
            simulations, calibrated = args.simulations, None
            if simulations is None:
                simulations, calibrated = calibrate(args.rules, name, args.rollouts, target, args.seed)
            row = measure(pool, args.rules, name, simulations, args.rollouts, args.games, args.seed, chunk)
            note = f" (calibrated: opponent {calibrated:.1f} ms)" if calibrated is not None else ""
            print(f"ismcts:{simulations}x{args.rollouts} vs {name:<12} {row['score']:.3f} "
                  f"[{row['low']:.3f}, {row['high']:.3f}]  as english {row['english']:.3f}  "
                  f"as french {row['french']:.3f}  ms/decision: bot {row['bot_ms']:.1f}, "
                  f"{name} {row['opponent_ms']:.1f}{note}", flush=True)
    print(f"{len(opponents)} opponents in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
