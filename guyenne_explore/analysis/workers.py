"""The local cores for sampling: a process pool that is safe to start after the fast path has run.

Why not ``ProcessPoolExecutor()`` as it comes: on Linux its workers are *forked*
from the current process.  The compiled uniform games (``kernel.play_batch``)
run on numba's thread pool (``parallel=True``); once that pool has started in a
process, a child forked from it inherits a threading layer whose threads do not
exist in the child, and the child dies or hangs the first time it runs
compiled code.  A panel's kernel has usually run uniform games before someone
asks for skilled ones, so its pool starts its workers from a *forkserver* (a
clean process started for the purpose, that never ran compiled code) or, where
that does not exist, by *spawn*.

Games spread over workers are identical to one process for the same seed
(:func:`.sample.sample_games_on` splits game indexes, not random streams), so
using the local cores changes the time a run takes, never its result.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor

from ..engine_api import Position

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def local_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def safe_context() -> multiprocessing.context.BaseContext:
    """A start method whose workers never inherit a started numba thread pool."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A new pool of ``workers`` processes (default: the local cores) started safely (see above)."""
    return ProcessPoolExecutor(workers or local_cores(), mp_context=safe_context())


def local_pool() -> ProcessPoolExecutor:
    """The process's shared pool over the local cores, started on first use and kept for later runs
    (a worker's start and its loading of the compiled code are paid once, not per run)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = process_pool()
            atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
        return _pool


def engine_played(p: Position, policy_names: tuple[str, str]) -> bool:
    """Whether these games are played by the engine in Python (a search, or rules the kernels do not
    play): slow games, worth spreading over processes.  Compiled games run thousands a second in
    one process, faster than a worker takes to start."""
    from .fast import heuristic as compiled
    from .sample import fast_reason

    if fast_reason(p, policy_names) is None:
        return False
    return "heuristic" not in policy_names or compiled.unsupported(p, policy_names) is not None


def executor_for(p: Position, policy_names: tuple[str, str]) -> Executor | None:
    """What the panels sample on by default: the local pool for engine-played games when this
    machine has more than one core, else None (this process)."""
    if local_cores() > 1 and engine_played(p, policy_names):
        return local_pool()
    return None
