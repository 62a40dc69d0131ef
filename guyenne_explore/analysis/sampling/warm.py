"""Compile the fast simulator once, into numba's on-disk cache, so that no analysis waits for it.

Every kernel is ``@njit(cache=True)``: compiled the first time it runs (about four minutes of CPU in all,
most of it the game loop, with the uniform games) and cached beside its module
until the source changes.  An analysis enters the compiled code through a few entry
points (:data:`STEPS`: the one game loop's uniform batches, the heuristic's tables, the
loop's batches with a heuristic side, the search's weights, likelihoods and rollouts, which the skill
levels' default ladder and the tests meet, and the recorded and replayed games that train strong for a variant and
its best responses), each with one
signature under every rule set: the arguments are built by ``compiled.rollout.batch_args``
with the same types whatever the castles, cards or policies (a writable empty points table
past ten castles once made a second signature, compiled again in the middle of a run).  It
sits beside the samplers, over the policies, because its examples take the heuristic's numbers
from the Python policy (``Heuristic.compiled``).

``scripts/setup.sh`` runs ``python -m guyenne_explore.analysis.sampling.warm`` once after
installing (``--compiling`` only says, by its exit status, whether a process compiles now).  Where the cache
still lacks a step, :func:`pending` names it and :func:`prepare` compiles the steps one by one, reporting each (the panels say
what they prepare, with a count, before their run starts).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple


from ...i18n import N_, gettext, plain_duration

if TYPE_CHECKING:  # numba itself is imported by the checks and the compiling, not by the explorer's start
    from numba.core.dispatcher import Dispatcher

    from ...engine import Position

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["EVERY_GAME", "Step", "compile_in_background", "compiling_in_background", "compiling_note",
           "compiling_seconds", "games_of", "needs_compiling", "prepare", "preparing_message", "warm", "warm_workers"]


class Step(NamedTuple):
    """One entry point of the compiled code: what it is (a message, translated when shown), its
    functions, a call that runs it on a small example (compiling it or loading it from the cache), and
    the seconds its compiling takes on an idle two-core machine (what the cost said before a run adds)."""

    what: str
    functions: Callable[[], list[Dispatcher[Any]]]
    run: Callable[[], object]
    seconds: float
    #: the example's arguments of the first function (its exact signature is looked up), or None:
    #: any compiled version will do
    args: Callable[[], tuple] | None = None
    #: the games that need it: "uniform" (every compiled game: the loop itself), "scoring" (a side scoring its
    #: moves: the heuristic and strong), "search", "training" (strong's recorded games: a training's, a trained
    #: best response's)
    serves: str = "uniform"


def _example() -> Position:
    from ...engine import Position, Rules

    return Position.start(Rules.preset("advanced"))


def _heuristic_sides() -> tuple:
    from ..policies.heuristic import Heuristic

    side = Heuristic().compiled()
    return side, side


def _uniform() -> list[Dispatcher[Any]]:
    from ..compiled import loop

    return [loop.play_batch]


def _tables() -> list[Dispatcher[Any]]:
    from ..compiled import heuristic_kernel as heuristic

    return [heuristic._row_table, heuristic._bluff_rows]


def _heuristic() -> list[Dispatcher[Any]]:
    from ..compiled import loop

    return [loop.play_serial]


def _uniform_args() -> tuple:
    from ..compiled.rollout import batch_args

    return batch_args(_example(), 2, 0)


def _run_uniform() -> object:
    from ..compiled.rollout import play_summaries

    return play_summaries(_example(), 2, 0)


def _run_tables() -> object:
    from ..compiled import heuristic_kernel as heuristic
    from ..compiled.encode import encode

    p = _example()
    return heuristic.tables(p, encode(p), _heuristic_sides()[0])


def _run_heuristic() -> object:
    from ..compiled.rollout import play_summaries

    return play_summaries(_example(), 2, 0, sides=_heuristic_sides())


def _search() -> list[Dispatcher[Any]]:
    from ..compiled import search_kernel as search

    return [search.move_weights, search.likelihoods, search.play_jobs]


def _run_search() -> object:
    """One decision of the search at the example's first placement, once the deal is drawn: its candidates'
    weights, the opponent's likelihoods and the rollouts, the three entry points a search level meets."""
    import random

    from ..policies.search import ISMCTS

    rng = random.Random(0)
    p = _example()
    while p.side_to_play is None:  # the deal
        p = p.apply_outcome(p.sample_outcome(rng))
    return ISMCTS(8).choose(p.view(p.side_to_play), rng)


def _recording() -> list[Dispatcher[Any]]:
    from ..compiled import loop

    return [loop.play_recorded, loop.play_forced]


def _run_recording() -> object:
    """Two of strong's self-play games recorded, and the first replayed with another move at its first placement:
    what a training of strong for a variant (and the trained responder) plays."""
    import numpy as np

    from ..compiled.recording import forced_games, recorded_games
    from ..policies.strong import Strong

    p = _example()
    sides = (Strong().compiled(p.rules),) * 2
    recorded_games(p, 2, 0, sides)
    first = np.zeros(1, np.int64)  # game 0, its placement 0, its move 0
    return forced_games(p, 0, sides, first, first, first)


#: what an analysis compiles, in the order it meets it, each with its compiling's seconds measured on a two-core
#: machine (``benchmarks/bench_first_runs.py --compile``, 2026-11-30: 142, 0.7, 12, 32 and 23 s; before the game loop
#: played the network, the counters and the counted chance, 55, 2, 8, 16 and 50): the game loop is most of it,
#: compiled with the uniform games; a loaded machine takes two to three times as long
STEPS = (
    Step(N_("the uniform games"), _uniform, _run_uniform, 140.0, _uniform_args),
    Step(N_("the heuristic's tables"), _tables, _run_tables, 1.0, serves="scoring"),
    # the loop's one signature (tests/test_fast_warm.py pins it): the heuristic's own arguments would build its
    # tables, running compiled code (0.7 s of every page's start, which only asks whether the step is ready)
    Step(N_("the heuristic's games"), _heuristic, _run_heuristic, 12.0, _uniform_args, serves="scoring"),
    Step(N_("the search"), _search, _run_search, 32.0, serves="search"),
    Step(N_("the recorded games of a training"), _recording, _run_recording, 23.0, serves="training"),
)

#: every kind of game an analysis's steps serve: what a run that does not say what it plays may need (a training's
#: recorded games are compiled by the install's warming, :data:`EVERY_STEP`, and else by the training itself)
EVERY_GAME = frozenset(("uniform", "scoring", "search"))
#: every step's games: what the install and the launch scripts compile in the background
EVERY_STEP = EVERY_GAME | {"training"}


def games_of(levels: Iterable[str]) -> frozenset[str]:
    """The kinds of games (:attr:`Step.serves`) a run of these levels plays: uniform games need the loop alone,
    a level the loop plays that scores its moves (the heuristic, strong, a compiled counter) its tables and games
    too; any other level (a search, a counter that searches) may play compiled rollouts of every kind."""
    from ..policies.spec import PolicySpec

    games = {"uniform"}
    for spec in map(PolicySpec.parse, levels):
        if not spec.compiles:
            return EVERY_GAME
        if spec.kind != "uniform":
            games.add("scoring")
    return frozenset(games)


def signature(args: tuple) -> tuple:
    """The numba types of a call's arguments: the signature the dispatcher compiles or loads for it."""
    from numba import typeof

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


#: the steps found ready by an exact look (:func:`step_ready`): ready they stay, as a process's sources do not change
#: under it, so each is looked up once; the explorer asks at each of its panels' costs, and a look builds the step's
#: example (the heuristic's tables: half a second of the app's start, looked up twenty times)
_READY: set[Step] = set()


def step_ready(step: Step, exact: bool = True) -> bool:
    """Whether running ``step`` would only load compiled code.  ``exact``: look its example's
    signature up (building the example runs the earlier steps' code, so only once those are ready)."""
    if step in _READY:
        return True
    functions = step.functions()
    if not all(_cached(f, None) for f in functions):
        return False
    if not exact:
        return True
    if step.args is None or _cached(functions[0], signature(step.args())):
        _READY.add(step)
        return True
    return False


def pending(games: frozenset[str] = EVERY_GAME) -> list[Step]:
    """The steps an analysis would still compile (checking them never compiles anything), of those serving
    ``games`` (see :attr:`Step.serves`): a run of uniform games neither checks nor compiles the heuristic's, whose
    check alone builds its tables (seconds at a command's start)."""
    out: list[Step] = []
    for step in STEPS:
        if step.serves not in games:
            continue
        if not step_ready(step, exact=not out):
            out.append(step)
    return out


def needs_compiling(games: frozenset[str] = EVERY_GAME) -> bool:
    """True when some step of the fast simulator serving ``games`` is neither compiled in this process nor cached."""
    return bool(pending(games))


def compiling_seconds() -> float:
    """The seconds the first run spends compiling what is still pending (0 once compiled or cached)."""
    return sum(step.seconds for step in pending())


def compiling_note() -> str:
    """What a cost said before a run leaves out while the fast simulator is still to compile (empty once it is
    compiled or cached): the first run compiles it, part by part, before its games."""
    seconds = compiling_seconds()
    return gettext("The first run prepares the fast simulator first: {duration}, once.").format(
        duration=plain_duration(seconds)) if seconds else ""


def preparing_message(step: Step, done: int, total: int) -> str:
    """What the panels show while ``step`` compiles: the step, which of how many, and about how long it takes."""
    return gettext("Preparing the fast simulator: compiling {what} ({done} of {total}, first run only, "
                   "{duration})...").format(what=gettext(step.what), done=done, total=total,
                                                  duration=plain_duration(step.seconds))


def prepare(progress: Callable[[Step, int, int], object] | None = None, games: frozenset[str] = EVERY_GAME) -> float:
    """Compile every pending step serving ``games``, calling ``progress(step, i, n)`` before the i-th of n; returns
    the seconds."""
    start = time.perf_counter()
    steps = pending(games)
    for i, step in enumerate(steps, 1):
        if progress is not None:
            progress(step, i, len(steps))
        step.run()
    return time.perf_counter() - start


#: the process compiling the fast simulator for this one while its runs are answered by the engine (None: none started)
_background: subprocess.Popen[bytes] | None = None


def lock_file() -> Path:
    """The file a compiling process holds locked, one for each cache (numba's beside the sources, or
    ``NUMBA_CACHE_DIR``): whoever compiles (the launch scripts' background step, a kernel's
    :func:`compile_in_background`) holds it, so that no second process compiles the same parts beside it."""
    cache = os.environ.get("NUMBA_CACHE_DIR") or str(Path(__file__).resolve().parent.parent)
    return Path(tempfile.gettempdir()) / f"guyenne-compiling-{hashlib.sha256(cache.encode()).hexdigest()[:16]}.lock"


@contextlib.contextmanager
def compiling_lock() -> Iterator[None]:
    """Hold :func:`lock_file` while compiling; a second compiling process waits here for the first, then finds
    nothing left to compile."""
    with open(lock_file(), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def compile_in_background() -> None:
    """Compile the pending steps in a process of their own, unless one already does (this process's, or another's
    that holds :func:`lock_file`, such as the launch scripts' step), so that this one stays free: its runs
    meanwhile are answered by the engine (fewer games, saying so) or wait for it, then use the compiled games once
    :func:`compiling_in_background` is over.  ``GUYENNE_COMPILE_IN_BACKGROUND=0`` leaves the compiling to the
    runs (a test of the engine's answer with a cold cache, which must not compile for minutes beside it)."""
    global _background
    if os.environ.get("GUYENNE_COMPILE_IN_BACKGROUND") == "0" or compiling_in_background():
        return
    _background = subprocess.Popen([sys.executable, "-m", __name__], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)


def compiling_in_background() -> bool:
    """Whether a process compiles the fast simulator now: this process's background step, or any process holding
    :func:`lock_file` (asked without waiting)."""
    if _background is not None and _background.poll() is None:
        return True
    try:
        with open(lock_file(), "a") as probe:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(probe, fcntl.LOCK_UN)
    except BlockingIOError:
        return True
    except OSError:  # no temporary folder to write in: nobody can hold the lock there either
        return False
    return False


def load_compiled() -> None:
    """Run every step's example, loading its compiled code from numba's cache into this process: a pool's worker
    that does it while the page is read plays its first run's games at once (called only once nothing is
    pending, or it would compile)."""
    for step in STEPS:
        if step.serves in EVERY_GAME:  # (a pool's workers play no training's recorded games)
            step.run()


def warm_workers(pool: Executor, workers: int) -> None:
    """Start ``workers`` processes of ``pool`` and have each load the compiled code (:func:`load_compiled`), so a
    first run spread over them pays neither their start nor the loading (seconds each on two cores)."""
    for future in [pool.submit(load_compiled) for _ in range(workers)]:
        future.result()


def warm(games: int = 8) -> float:
    """Compile what is pending, then run the fast simulator once under every preset it serves (the
    uniform and the heuristic games); returns the seconds it took."""
    from ...engine import PRESETS, Position
    from ..compiled import heuristic_kernel as heuristic
    from ..compiled.encode import unsupported
    from ..compiled.rollout import fast_games

    start = time.perf_counter()
    prepare(lambda step, i, n: print(f"  {i}/{n} compiling {step.what} ({plain_duration(step.seconds, 'en')})...",
                                     flush=True) if __name__ == "__main__"
            else None, EVERY_STEP)
    for name in PRESETS:
        p = Position.start(name)
        if unsupported(p) is None:
            fast_games(p, games, seed=0)
        if heuristic.unsupported(p) is None:
            fast_games(p, games, seed=0, sides=_heuristic_sides())
    return time.perf_counter() - start


if __name__ == "__main__" and "--compiling" in sys.argv:
    # for the scripts: exit 0 while a process compiles the fast simulator for this checkout's cache, 1 otherwise
    sys.exit(0 if compiling_in_background() else 1)
elif __name__ == "__main__":
    with compiling_lock():  # a kernel's runs wait for it (or play by the engine) rather than compile beside it
        if needs_compiling(EVERY_STEP) or "--force" in sys.argv:
            print("Compiling the fast simulator once (numba, cached for later runs)...", flush=True)
            print(f"  done in {warm():.0f} s")
        else:
            print("The fast simulator is already compiled (numba cache).")
