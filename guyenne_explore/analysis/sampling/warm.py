"""Compile the fast path once, into numba's on-disk cache, so that no analysis waits for it.

Every kernel is ``@njit(cache=True)``: compiled the first time it runs (about a minute
of CPU for the uniform games, as much for the heuristic's) and cached beside its module
until the source changes.  An analysis enters the compiled code through a few entry
points (:data:`STEPS`: the one game loop's uniform batches, the heuristic's tables and the
loop's batches with a heuristic side, which the search's rollouts play too), each with one
signature under every rule set: the arguments are built by ``compiled.rollout.batch_args``
with the same types whatever the castles, cards or policies (a writable empty points table
past ten castles once made a second signature, compiled again in the middle of a run).  It
sits beside the samplers, over the policies, because its examples take the heuristic's numbers
from the Python policy (``Heuristic.compiled``).

``scripts/setup.sh`` runs ``python -m guyenne_explore.analysis.sampling.warm`` once after
installing.  Where the cache still lacks a step, :func:`pending` names it and
:func:`prepare` compiles the steps one by one, reporting each (the panels say what they
prepare, with a count, before their run starts).
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from numba import typeof
from numba.core.dispatcher import Dispatcher

from ...i18n import N_, gettext, ngettext

if TYPE_CHECKING:
    from ...engine_api import Position


class Step(NamedTuple):
    """One entry point of the compiled code: what it is (a message, translated when shown), its
    functions, and a call that runs it on a small example (compiling it or loading it from the cache)."""

    what: str
    functions: Callable[[], list[Dispatcher[Any]]]
    run: Callable[[], object]
    #: the example's arguments of the first function (its exact signature is looked up), or None:
    #: any compiled version will do
    args: Callable[[], tuple] | None = None


def _example() -> Position:
    from ...engine_api import Position, Rules

    return Position.start(Rules.preset("advanced"))


def _heuristic_sides() -> tuple:
    from ..policies.heuristic import Heuristic

    side = Heuristic().compiled()
    return side, side


def _uniform() -> list[Dispatcher[Any]]:
    from ..compiled import loop

    return [loop.play_batch]


def _tables() -> list[Dispatcher[Any]]:
    from ..compiled import heuristic

    return [heuristic._row_table, heuristic._bluff_rows]


def _heuristic() -> list[Dispatcher[Any]]:
    from ..compiled import loop

    return [loop.play_serial]


def _uniform_args() -> tuple:
    from ..compiled.rollout import batch_args

    return batch_args(_example(), 2, 0)


def _heuristic_args() -> tuple:
    from ..compiled.rollout import batch_args

    return batch_args(_example(), 2, 0, sides=_heuristic_sides())


def _run_uniform() -> object:
    from ..compiled.rollout import play_summaries

    return play_summaries(_example(), 2, 0)


def _run_tables() -> object:
    from ..compiled import heuristic
    from ..compiled.encode import encode

    p = _example()
    return heuristic.tables(p, encode(p), _heuristic_sides()[0])


def _run_heuristic() -> object:
    from ..compiled.rollout import play_summaries

    return play_summaries(_example(), 2, 0, sides=_heuristic_sides())


#: what an analysis compiles, in the order it meets it
STEPS = (
    Step(N_("the uniform games"), _uniform, _run_uniform, _uniform_args),
    Step(N_("the heuristic's tables"), _tables, _run_tables),
    Step(N_("the heuristic's games"), _heuristic, _run_heuristic, _heuristic_args),
)


def signature(args: tuple) -> tuple:
    """The numba types of a call's arguments: the signature the dispatcher compiles or loads for it."""
    return tuple(typeof(a) for a in args)


def _cached(f: Dispatcher[Any], sig: tuple | None) -> bool:
    """Whether ``f`` is compiled in this process, or numba's cache holds it for its current source
    (for the signature ``sig`` when given)."""
    if any(sig is None or tuple(s) == sig for s in f.signatures):
        return True
    cache = getattr(f, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_load_index", None)
    if index is None:
        return False
    keys = index()  # (signature, target, code hash) -> file; empty when the source changed
    return any(sig is None or tuple(key[0]) == sig for key in keys)


def step_ready(step: Step, exact: bool = True) -> bool:
    """Whether running ``step`` would only load compiled code.  ``exact``: look its example's
    signature up (building the example runs the earlier steps' code, so only once those are ready)."""
    functions = step.functions()
    if not all(_cached(f, None) for f in functions):
        return False
    return not exact or step.args is None or _cached(functions[0], signature(step.args()))


def pending() -> list[Step]:
    """The steps an analysis would still compile (checking them never compiles anything)."""
    out: list[Step] = []
    for step in STEPS:
        if not step_ready(step, exact=not out):
            out.append(step)
    return out


def needs_compiling() -> bool:
    """True when some step of the fast path is neither compiled in this process nor cached."""
    return bool(pending())


def compiling_note() -> str:
    """What a cost said before a run leaves out while the fast path is still to compile (empty once it is
    compiled or cached): the first run compiles it, about a minute a step, before its games."""
    steps = len(pending())
    return ngettext("The first run prepares the fast path first: about {minutes} minute, once.",
                    "The first run prepares the fast path first: about {minutes} minutes, once.", steps).format(
        minutes=steps) if steps else ""


def preparing_message(step: Step, done: int, total: int) -> str:
    """What the panels show while ``step`` compiles: the step, and which of how many."""
    return gettext("Preparing the fast path: compiling {what} ({done} of {total}, first run only, "
                   "about a minute each)...").format(what=gettext(step.what), done=done, total=total)


def prepare(progress: Callable[[Step, int, int], object] | None = None) -> float:
    """Compile every pending step, calling ``progress(step, i, n)`` before the i-th of n; returns the seconds."""
    start = time.perf_counter()
    steps = pending()
    for i, step in enumerate(steps, 1):
        if progress is not None:
            progress(step, i, len(steps))
        step.run()
    return time.perf_counter() - start


def warm(games: int = 8) -> float:
    """Compile what is pending, then run the fast path once under every preset it serves (the
    uniform and the heuristic games); returns the seconds it took."""
    from ...engine_api import PRESETS, Position
    from ..compiled import heuristic
    from ..compiled.encode import unsupported
    from ..compiled.rollout import fast_games

    start = time.perf_counter()
    prepare(lambda step, i, n: print(f"  {i}/{n} compiling {step.what}...", flush=True) if __name__ == "__main__"
            else None)
    for name in PRESETS:
        p = Position.start(name)
        if unsupported(p, ("uniform", "uniform")) is None:
            fast_games(p, games, seed=0)
        if heuristic.unsupported(p, ("heuristic", "heuristic")) is None:
            fast_games(p, games, seed=0, sides=_heuristic_sides())
    return time.perf_counter() - start


if __name__ == "__main__":
    if needs_compiling() or "--force" in sys.argv:
        print("Compiling the fast path once (numba, cached for later runs)...", flush=True)
        print(f"  done in {warm():.0f} s")
    else:
        print("The fast path is already compiled (numba cache).")
