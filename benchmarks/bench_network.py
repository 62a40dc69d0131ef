"""The learned policy's network against its targets (issue 47, point 3), both seats, 95% Wilson intervals.

For each rule set of ``--rules`` it prints:

- the network (``--network``: a weights file, ``{preset}`` replaced by the rule set's name, a model or a mixture of
  models, ``guyenne-explore mix``; default: the package's file that ``strong`` plays) against the linear policy
  (``--linear``; default: the package's linear file that ``strong-linear`` plays): target at least 0.60;
- with ``--best-response MINUTES``: a best response trained against the frozen network by the training's own
  code (:func:`guyenne_explore.analysis.policies.train.exploiter`, CMA-ES in the network's model class) for that
  long, then measured on other seeds: target at most 0.55; then how each plays in their games (the sizes of their
  openings and answers, with the hero or without: what the best response found to exploit);
- with ``--speed``: games a second of one thread for uniform, linear and network self-play (target: the network at
  least 1/20 of uniform) and the network's mean time a decision (target: at most 1 ms).

The counters of the gauntlet and the model exploiter are measured by ``benchmarks/bench_exploit.py --levels
strong`` (or ``strong@FILE``); OpenSpiel's IS-MCTS at equal time by ``benchmarks/bench_openspiel.py --opponents
strong``.

    .venv/bin/python benchmarks/bench_network.py --rules advanced --games 2000 --speed
    .venv/bin/python benchmarks/bench_network.py --rules advanced,classic2021,expert,team,team3 --games 800
    .venv/bin/python benchmarks/bench_network.py --rules advanced --network /tmp/net.json --best-response 10
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba  # noqa: E402

from guyenne_explore.analysis.compiled import layout  # noqa: E402
from guyenne_explore.analysis.compiled.policy_codes import UNIFORM_SIDES, SidePolicy  # noqa: E402
from guyenne_explore.analysis.compiled.rollout import play_summaries  # noqa: E402
from guyenne_explore.analysis.intervals import wilson  # noqa: E402
from guyenne_explore.analysis.policies import train  # noqa: E402
from guyenne_explore.analysis.policies import weights as files  # noqa: E402
from guyenne_explore.analysis.policies.mixture import Mixture  # noqa: E402
from guyenne_explore.analysis.policies.network import hidden_units  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong  # noqa: E402
from guyenne_explore.engine import HERO, OPEN_FIRST, OPEN_SECOND, Hooks, Position, Rules, play  # noqa: E402

#: the seeds of the measured games, apart from every training run's
SEED = 9_100_000


def match(start: Position, one: SidePolicy, other: SidePolicy, games: int, seed: int) -> tuple[float, float, float]:
    """``one``'s score against ``other`` over ``games`` compiled games, half in each seat, with its Wilson interval."""
    won = 0.0
    half = games // 2
    for seat, pair in enumerate(((one, other), (other, one))):
        out = play_summaries(start, half, seed + seat, sides=pair)
        won += float(layout.side_scores(out[:, layout.OUT_WINNER], seat).sum())
    low, high = wilson(won, 2 * half)
    return won / (2 * half), low, high


def model(path: str | None, rules: Rules, linear: bool) -> Mixture:
    """What the policy of ``path`` plays (``{preset}`` replaced by the rules' preset name: a model or a mixture), else
    the package's."""
    if path is None:
        return files.shipped_mixture(files.preset_file(rules, linear=linear))
    return files.read_model(Path(path.replace("{preset}", rules.preset_name))).played()


class _Sizes(Hooks):
    """The sizes of each side's placements, openings and answers apart, with the hero or without."""

    def __init__(self, names: tuple[str, str]) -> None:
        self.names, self.seen = names, Counter[tuple[str, str, int, bool]]()

    def decision(self, p: Position, side: int, move) -> None:
        if move.cards is not None:
            kind = "opens" if p.to_play in (OPEN_FIRST, OPEN_SECOND) else "answers"
            self.seen[(self.names[side], kind, move.cards.size, move.cards[HERO] > 0)] += 1


def styles(start: Position, one: Strong, other: Strong, games: int, seed: int) -> None:
    """How ``one`` (the best response) and ``other`` (the network) place in ``games`` engine games a seat against each
    other: the share of each size of their openings and of their answers (``3H``: three cards, the hero among them)."""
    sizes = _Sizes(("best response", "network"))
    for i in range(games):
        for names, pair in ((("best response", "network"), (one, other)), (("network", "best response"), (other, one))):
            sizes.names = names
            play(start, random.Random(f"{seed}:{i}:{names[0]}"), pair, (sizes,), check_moves=False)
    for who in ("network", "best response"):
        for kind in ("opens", "answers"):
            mine = {(n, h): c for (w, k, n, h), c in sizes.seen.items() if (w, k) == (who, kind)}
            total = sum(mine.values())
            shares = "  ".join(f"{n}{'H' if h else ''} {c / total:.2f}" for (n, h), c in sorted(mine.items()))
            print(f"    {who:>13} {kind:<7} ({total} placements): {shares}", flush=True)


def speed(start: Position, network: Mixture, linear: Mixture, games: int) -> None:
    """Games a second of one thread of each self-play, and the network's time a decision."""
    numba.set_num_threads(1)
    rates = {}
    for name, sides in (("uniform", UNIFORM_SIDES), ("linear", (Strong(mixture=linear).compiled(),) * 2),
                        ("network", (Strong(mixture=network).compiled(),) * 2)):
        play_summaries(start, 8, 0, sides=sides)  # compiled before the clock starts
        t = time.perf_counter()
        out = play_summaries(start, games, SEED, sides=sides)  # type: ignore[arg-type]
        seconds = time.perf_counter() - t
        rates[name] = games / seconds
        decisions = float(out[:, layout.OUT_DECISIONS].sum())
        print(f"  {name:>8} self-play: {rates[name]:,.0f} games a second on one thread, "
              f"{1e6 * seconds / decisions:.1f} µs a decision (games included)")
    print(f"  network / uniform: 1/{rates['uniform'] / rates['network']:.1f} (target: at least 1/20)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="rule sets, comma-separated (presets or rules JSON)")
    ap.add_argument("--games", type=int, default=2000, help="games a match, half in each seat (at least 800)")
    ap.add_argument("--network", help="the network's weights file ({preset}: the rule set's name)")
    ap.add_argument("--linear", help="the linear policy's weights file ({preset}: the rule set's name)")
    ap.add_argument("--best-response", type=float, metavar="MINUTES",
                    help="train a best response against the frozen network for this long, then measure it")
    ap.add_argument("--speed", action="store_true", help="time self-play of uniform, linear and network")
    args = ap.parse_args(argv)
    for text in (x for x in args.rules.split(";" if args.rules.startswith("{") else ",") if x):
        rules = Rules.from_json(text)
        start = Position.start(rules)
        network, linear = model(args.network, rules, False), model(args.linear, rules, True)
        members = " + ".join(f"{hidden_units(m)}" for m in network.members)
        print(f"{text}: a network of {members} hidden units" + (
            "" if network.single else f" (a mixture, odds {':'.join(map(str, network.odds))})"), flush=True)
        ours, theirs = Strong(mixture=network), Strong(mixture=linear)
        v, lo, hi = match(start, ours.compiled(), theirs.compiled(), args.games, SEED)
        print(f"  network vs linear: {v:.3f} [{lo:.3f}, {hi:.3f}] over {args.games} games (target: at least 0.60)",
              flush=True)
        v, lo, hi = match(start, ours.compiled(), ours.compiled(), args.games, SEED)
        print(f"  network vs itself: {v:.3f} [{lo:.3f}, {hi:.3f}] (the seats' balance)", flush=True)
        if args.best_response:
            t = time.perf_counter()
            found = train.exploiter(start, network, SEED + 7, train.GAMES, generations=None,
                                    seconds=60 * args.best_response)
            v, lo, hi = match(start, Strong(found).compiled(), ours.compiled(), args.games, SEED + 11)
            print(f"  best response trained {time.perf_counter() - t:.0f} s vs network: {v:.3f} [{lo:.3f}, {hi:.3f}] "
                  f"(target: at most 0.55); how each places in 100 games a seat:", flush=True)
            styles(start, Strong(found), ours, 100, SEED + 13)
        if args.speed:
            speed(start, network, linear, max(200, args.games))


if __name__ == "__main__":
    main()
