"""The exact cost estimate against the measured cost, printed (never asserted).

Run: python benchmarks/bench_estimate.py [--cap SECONDS]

For each check position and the deal of a few small variants (2 to 4 castles, hands of 2 and 3, a few cards a
side: long games over few states, where the estimate counted paths 100 to 1,000 times the states), in a fresh
process each: the cost estimate an exact request reads (:func:`.analysis.planning.estimate_exact_cost`, states
and seconds), the exact analysis's measured CPU seconds and peak memory over the process's start, the states it
solved, the bytes a state took, and the estimate's ratios to the measured time and states (``est/real``: the
refusals promise them within ten times either way; ``tests/test_bounded_work.py`` pins the states').  A run past ``--cap``
seconds (60 by default) is stopped and shown as ``>cap``.  Guarantee 2 of issue 46 reads these figures.
"""

from __future__ import annotations

import json
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guyenne_explore.analysis.api import analyse  # noqa: E402
from guyenne_explore.analysis.cancel import Cancelled  # noqa: E402
from guyenne_explore.analysis.planning import estimate_exact_cost  # noqa: E402
from guyenne_explore.engine import Position, Rules  # noqa: E402
from tests.conftest import position_files  # noqa: E402  (the check positions: ../shared, else tests/positions)

#: (castles, hand size, the valued cards of a side besides its hero) of the small variants, dealt
VARIANTS = [(2, 2, "23"), (2, 2, "234"), (2, 2, "235"), (2, 2, "2345"), (2, 3, "2345"), (3, 2, "2345"),
            (4, 2, "2345")]


def variant_position(castles: int, hand: int, cards: str) -> Position:
    """The deal of the base rules with ``castles`` castles, hands of ``hand`` and one card of each value in
    ``cards`` a side (and the hero)."""
    counts = {value: cards.count(value) for value in set(cards)}
    return Position.start(Rules.preset("base", castles=castles, hand_size=hand, card_counts=counts))


def measure(p: Position, cap: float) -> dict[str, float | int | None]:
    """This process: the estimate, then the forced exact analysis's CPU seconds, peak memory and states."""
    nodes, seconds = estimate_exact_cost(p)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    try:
        states: int | None = analyse(p, method="exact", force=True,
                                     progress=lambda *_: False if time.process_time() - start > cap else None).states
    except Cancelled:
        states = None
    real = time.process_time() - start
    peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # Linux: KiB
    return {"estimate": seconds, "positions": nodes, "real": real, "peak": peak, "states": states}


def in_child(spec: str, cap: float) -> dict:
    """:func:`measure` in a fresh process (its peak memory its own)."""
    out = subprocess.run([sys.executable, __file__, "--one", spec, "--cap", str(cap)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.splitlines()[-1])


def position_of(spec: str) -> Position | None:
    if spec.startswith("variant:"):
        castles, hand, cards = spec.split(":")[1].split(",")
        return variant_position(int(castles), int(hand), cards)
    return Position.from_json(pathlib.Path(spec).read_text())


def main() -> None:
    cap = float(sys.argv[sys.argv.index("--cap") + 1]) if "--cap" in sys.argv else 60.0
    if "--one" in sys.argv:
        p = position_of(sys.argv[sys.argv.index("--one") + 1])
        print(json.dumps(None if p is None else measure(p, cap)))
        return
    specs = [(path.stem, str(path)) for path in position_files()]
    specs += [(f"{c} castles, hand {h}, H{cards}", f"variant:{c},{h},{cards}") for c, h, cards in VARIANTS]
    print(f"{'position':30s} {'estimate':>10s} {'measured':>10s} {'est/real':>9s} {'peak':>9s} {'est. states':>11s} "
          f"{'states':>8s} {'est/real':>9s} {'bytes/state':>11s}")
    for name, spec in specs:
        row = in_child(spec, cap)
        if row is None:
            print(f"{name:30s} (no such position)")
            continue
        real = row["real"] if row["states"] is not None else None
        shown = f"{real:9.2f}s" if real is not None else f"{'>' + format(cap, 'g'):>9s}s"
        ratio = f"{row['estimate'] / max(real, 0.01):9.2g}" if real is not None else f"{'<':>9s}"
        per_state = f"{row['peak'] / row['states']:11.0f}" if row["states"] else f"{'-':>11s}"
        states = f"{row['positions'] / row['states']:9.2g}" if row["states"] else f"{'<':>9s}"
        print(f"{name:30s} {row['estimate']:9.3g}s {shown} {ratio} {row['peak'] / 2**20:7.0f}MB "
              f"{row['positions']:11.3g} {row['states'] or 0:8d} {states} {per_state}", flush=True)
    print("\nest/real below 0.01 s of measured time is read against 0.01 s (a process's timer is no finer here).")


if __name__ == "__main__":
    main()
