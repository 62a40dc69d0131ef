"""The local cores for sampling: a process pool that is safe to start after the fast simulator has run,
and whose runs stop mid-game when cancelled.

Why not ``ProcessPoolExecutor()`` as it comes: on Linux its workers are *forked*
from the current process.  The compiled uniform games (``compiled.loop.play_batch``)
run on numba's thread pool (``parallel=True``); once that pool has started in a
process, a child forked from it inherits a threading layer whose threads do not
exist in the child, and the child dies or hangs the first time it runs
compiled code.  A panel's kernel has usually run uniform games before someone
asks for skilled ones, so its pool starts its workers from a *forkserver* (a
clean process started for the purpose, that never ran compiled code) or, where
that does not exist, by *spawn*.

Why the pool shares memory with its workers: a future that has started cannot
be cancelled, and a share of search games runs for minutes.  Each run on a
:class:`LocalPool` takes a slot of two small shared arrays: a flag its tasks ask
before every decision (set by Cancel or Ctrl-C: they stop within a decision) and
a count of the games they have finished (the panels' bar moves game by game,
not chunk by chunk).  Workers ignore Ctrl-C: the terminal sends it to the whole
process group, and a worker killed by it would break the pool for the next run;
the parent stops them through the flag instead, and kills any that does not stop
within :data:`GRACE` seconds.  A Dask cluster gets the same flag as a
``distributed.Event`` (:class:`DaskSignal`).

Games spread over workers are identical to one process for the same seed
(:func:`.sample.sample_games_on` splits game indexes, not random streams), so
using the local cores changes the time a run takes, never its result.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import resource
import threading
import uuid
from concurrent.futures import Executor, Future, ProcessPoolExecutor, wait
from typing import Any, Iterable, Protocol

from .cancel import Throttled
from .limits import MEMORY_BUDGET

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["local_cores", "local_pool", "process_pool"]

#: seconds the workers of a cancelled run get to notice the flag before they are killed
GRACE = 1.5
#: runs a pool can hold at once (each panel runs one at a time)
SLOTS = 32

_lock = threading.Lock()
_pool: LocalPool | None = None

# in a worker process: the pool's shared arrays (set by its initializer)
_flags: Any = None
_played: Any = None


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


#: Bytes of address space a worker may map (``RLIMIT_AS``): the memory budget of :mod:`..limits`, so that no task
#: a client starts can make a worker take more (it fails with a MemoryError instead, in the worker alone).
#: Measured: a worker that has played compiled games (numba, its LLVM included) and engine searches maps about
#: 1.1 GB at its peak (``VmPeak``), well under; RLIMIT_AS rather than RLIMIT_DATA, which numba's mappings would
#: escape.  The limit is the caller's process's, never above the hard limit it inherits.
WORKER_MEMORY = MEMORY_BUDGET


def _install(flags: Any, played: Any) -> None:
    """A worker's start: keep the run slots, leave Ctrl-C to the parent (see the module's docstring), and cap the
    worker's memory (:data:`WORKER_MEMORY`)."""
    global _flags, _played
    _flags, _played = flags, played
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    cap_memory(WORKER_MEMORY)


def cap_memory(limit: int) -> None:
    """Limit this process's address space to ``limit`` bytes (or the hard limit it has, if lower)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


class TaskSignal(Protocol):
    """What a task of a run carries to its worker: the run's stop flag and where it counts its games."""

    def is_set(self) -> bool: ...

    def add_played(self, games: int) -> None: ...


class PoolSignal:
    """A run's slot in its :class:`LocalPool` (pickled as the slot's number, read in the worker)."""

    def __init__(self, slot: int) -> None:
        self.slot = slot

    def is_set(self) -> bool:
        return bool(_flags[self.slot])

    def add_played(self, games: int) -> None:
        with _played.get_lock():
            _played[self.slot] += games


class DaskSignal:
    """A run's stop flag on a Dask cluster: a named ``distributed.Event``, asked at most five times a second."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._asked: Throttled | None = None

    def __reduce__(self) -> tuple[type[DaskSignal], tuple[str]]:
        return DaskSignal, (self.name,)  # the name travels; each worker asks the event anew

    def is_set(self) -> bool:
        if self._asked is None:
            from distributed import Event

            event = Event(self.name)
            self._asked = Throttled(event.is_set, every=0.2)
        return self._asked.is_set()

    def add_played(self, games: int) -> None:
        """A cluster's games are counted as their shares come back."""


class Run(Protocol):
    """One run's hold on an executor: the signal its tasks carry, its live game count, how to stop it."""

    signal: TaskSignal | None

    def played(self) -> int | None: ...

    def stop(self, futures: Iterable[Future[Any]]) -> None: ...

    def close(self) -> None: ...


class LocalPool(ProcessPoolExecutor):
    """A process pool over the local cores, started safely, whose runs can be stopped mid-game."""

    def __init__(self, workers: int | None = None) -> None:
        ctx = safe_context()
        self.flags = ctx.Array("b", SLOTS)
        self.counts = ctx.Array("q", SLOTS)
        self._free = list(range(SLOTS))
        self._slots = threading.Lock()
        super().__init__(workers or local_cores(), mp_context=ctx, initializer=_install,
                         initargs=(self.flags, self.counts))

    def open_run(self) -> _PoolRun:
        with self._slots:
            if not self._free:
                raise RuntimeError("too many runs at once on one pool")
            slot = self._free.pop()
        self.flags[slot] = 0
        self.counts[slot] = 0
        return _PoolRun(self, slot)

    def release(self, slot: int) -> None:
        with self._slots:
            self._free.append(slot)

    def kill(self) -> None:
        """Kill every worker now (one did not stop in time): the pool is broken and is not used again."""
        processes = list((getattr(self, "_processes", None) or {}).values())
        # taken before ``shutdown``, which drops the pool's reference to its manager thread
        manager = getattr(self, "_executor_manager_thread", None)
        for process in processes:
            process.kill()
        for process in processes:
            process.join(GRACE)  # gone when this returns, not merely signalled
        self.shutdown(wait=False, cancel_futures=True)
        # The manager thread winds up on its own once its workers are gone (milliseconds), closing the pool's
        # wake-up pipe.  Joined here: at exit, Python's own clean-up writes to that pipe unless it finds it closed,
        # and a close from the manager thread at that moment made a command stopped by kill or Ctrl-C end with a
        # traceback ("Bad file descriptor").  The interpreter joins this thread at exit in any case; the bound
        # only keeps a stuck thread from hanging a panel.
        if manager is not None:
            manager.join(10 * GRACE)
        forget(self)


class _PoolRun:
    def __init__(self, pool: LocalPool, slot: int) -> None:
        self.pool, self.slot = pool, slot
        self.signal: TaskSignal | None = PoolSignal(slot)

    def played(self) -> int | None:
        return int(self.pool.counts[self.slot])

    def stop(self, futures: Iterable[Future[Any]]) -> None:
        """Set the flag: a started share stops at its next decision (a search, at its next rollout), a
        queued one at its first.  None is cancelled here: the pool's own thread fails the futures of a
        pool it finds killed, and a future cancelled meanwhile makes it raise."""
        self.pool.flags[self.slot] = 1
        if wait(list(futures), timeout=GRACE).not_done:
            self.pool.kill()

    def close(self) -> None:
        self.pool.release(self.slot)


class _DaskRun:
    def __init__(self, client: Any) -> None:
        from distributed import Event

        self.event = Event(f"guyenne-stop-{uuid.uuid4().hex}", client=client)
        self.signal: TaskSignal | None = DaskSignal(self.event.name)

    def played(self) -> int | None:
        return None

    def stop(self, futures: Iterable[Future[Any]]) -> None:
        """Set the flag and wait for the shares to see it.  They are not cancelled first: a started
        share's thread is not the scheduler's to stop (cancelling only hides it), and a client cannot
        tell a started share from a queued one; a queued one stops at its first decision."""
        self.event.set()
        self.stopped = True
        _cancel_all(wait(list(futures), timeout=2 * GRACE).not_done)

    def close(self) -> None:
        if not getattr(self, "stopped", False):
            self.event.clear()  # the scheduler forgets the event of a run that ended by itself


class _PlainRun:
    """Any other executor: pending shares are cancelled, a started one runs to its end."""

    signal: TaskSignal | None = None

    def played(self) -> int | None:
        return None

    def stop(self, futures: Iterable[Future[Any]]) -> None:
        _cancel_all(futures)

    def close(self) -> None:
        pass


def _cancel_all(futures: Iterable[Future[Any]]) -> list[Future[Any]]:
    """Cancel what has not started; the futures still to wait for."""
    return [f for f in futures if not f.cancel() and not f.done()]


def open_run(executor: Executor) -> Run:
    """A run's hold on ``executor``: a local pool's slot, a Dask cluster's event, or neither."""
    if isinstance(executor, LocalPool):
        return executor.open_run()
    client = getattr(executor, "_client", None)
    if client is not None and type(executor).__module__.startswith("distributed"):
        return _DaskRun(client)
    return _PlainRun()


def process_pool(workers: int | None = None) -> LocalPool:
    """A new pool of ``workers`` processes (default: the local cores) started safely (see above)."""
    return LocalPool(workers)


def local_pool() -> LocalPool:
    """The process's shared pool over the local cores, started on first use and kept for later runs
    (a worker's start and its loading of the compiled code are paid once, not per run)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = process_pool()
            atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
        return _pool


def forget(pool: Executor) -> None:
    """The next :func:`local_pool` starts a new pool if ``pool`` was the shared one."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
