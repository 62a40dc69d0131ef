"""The one way a long command runs (``train``, ``improve``, ``balance``, ``depth``): its cost said first, its
progress with the time left on standard error, its games spread where ``--workers`` or ``--scheduler`` says,
and Ctrl-C (or ``kill``) stopping every worker before the command says how to continue (``--resume``,
``--store``) and exits 130.

The workers stop by the executor's context: the process pool of the analysis stops its processes on the way
out (within two seconds, ``tests/test_cancel.py``), a Dask client is closed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, ContextManager, TypeVar

from ..i18n import gettext as _
from ..i18n import plain_count, plain_duration
from .common import scheduler

T = TypeVar("T")


class Bar:
    """Progress on standard error with the time left, at most every :attr:`every` seconds."""

    def __init__(self, every: float = 2.0) -> None:
        self.clock, self.every, self.last = time.monotonic, every, -every

    def __call__(self, line: str) -> None:
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            print(line, file=sys.stderr, flush=True)


def time_left(said: float | None, planned: float, elapsed: float) -> str:
    """The time left as a progress line says it: the run's own estimate when it has one (``said``), else what
    the cost said first (``planned`` seconds) less the time it has run."""
    return plain_duration(said if said is not None else max(0.0, planned - elapsed))


def games_done(done: int, total: int) -> str:
    """The progress line of a run counted in games."""
    return _("{done} of {total} games").format(done=plain_count(done), total=plain_count(total))


def executor_for(args: argparse.Namespace, engine_played: bool) -> ContextManager[Any]:
    """Where a long run spreads its games: a Dask cluster (``--scheduler``), the local cores (``--workers``, by
    default all of them when the engine plays), else this process (None).  A context manager in every case,
    whose exit stops the workers."""
    if getattr(args, "scheduler", None):
        return _ClientExecutor(scheduler(args.scheduler))
    workers = args.workers or ((os.cpu_count() or 1) if engine_played else 1)
    if workers > 1:
        from ..analysis.workers import process_pool  # started safely after compiled games (see there)

        return process_pool(workers)
    return contextlib.nullcontext(None)


class _ClientExecutor:
    """A Dask client as a context manager that yields its executor and closes the client after."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def __enter__(self) -> Any:
        return self.client.get_executor()

    def __exit__(self, *exc: object) -> None:
        self.client.close()


def long_run(args: argparse.Namespace, cost: str, line: Callable[..., str],
             work: Callable[[Any, Callable[..., None]], T], *, engine_played: bool,
             stopped: Callable[[], str | None] | None = None) -> T:
    """Run ``work(executor, progress)``: ``cost`` said first, each ``progress(...)`` said as ``line(...)`` on
    standard error at most every two seconds, the executor of :func:`executor_for` stopped on the way out.
    On Ctrl-C (the analysis' ``Cancelled`` too) ``stopped()`` says how to continue, if it can, and the interrupt goes on
    to :func:`guyenne_explore.cli.main` (exit 130)."""
    from ..analysis import Cancelled

    print(cost, file=sys.stderr, flush=True)
    bar = Bar()

    def progress(*state: Any) -> None:
        bar(line(*state))

    try:
        with executor_for(args, engine_played) as executor:
            return work(executor, progress)
    except (KeyboardInterrupt, Cancelled):
        said = stopped() if stopped is not None else None
        if said is not None:
            print(said, file=sys.stderr)
        raise KeyboardInterrupt from None


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM as Ctrl-C: the command's own clean-up runs (its workers stopped) before it exits."""
    raise KeyboardInterrupt


def stop_on_terminate() -> Any:
    """Make ``kill`` (SIGTERM, sent to the command alone) stop a command as Ctrl-C does; the handler it
    replaces, to put back (None where signals cannot be handled here: not the main thread).  By default
    SIGTERM ends the process at once and leaves its workers playing their games to the end.  The
    benchmarks' pools (``benchmarks/pools.py``) stop theirs by it too."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _terminated)
