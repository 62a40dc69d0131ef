"""The benchmarks' process pool: Ctrl-C or ``kill`` stops its workers with the benchmark.

A benchmark runs for minutes to hours over a pool of workers.  A plain ``ProcessPoolExecutor`` leaves them
playing their games to the end when the benchmark gets SIGTERM (they slowed later runs until found), and
on Ctrl-C every worker prints a traceback.  This pool is the product's (:class:`LocalPool`: its workers leave
Ctrl-C to the parent); SIGTERM is made Ctrl-C as the command line does it (:func:`~guyenne_explore.cli.long_run.stop_on_terminate`),
and either kills the workers, says ``cancelled`` and exits with 130, as the product's commands do.
"""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from typing import Iterator

from guyenne_explore.analysis.workers import LocalPool
from guyenne_explore.cli.common import EXIT_CANCELLED
from guyenne_explore.cli.long_run import stop_on_terminate


@contextmanager
def stopping_pool(workers: int) -> Iterator[LocalPool]:
    """A pool of ``workers`` processes, shut down at the end; on Ctrl-C or SIGTERM its workers are killed
    and the benchmark exits with 130 (its figures so far are already printed)."""
    previous = stop_on_terminate()
    pool = LocalPool(workers)
    try:
        yield pool
    except KeyboardInterrupt:
        pool.kill()
        print("cancelled", file=sys.stderr)
        raise SystemExit(EXIT_CANCELLED) from None
    except BaseException:
        pool.kill()
        raise
    else:
        pool.shutdown()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
