"""What an analysis may cost before it is refused: the error it raises and the memory it may take.

A leaf of the analysis layer, so that the entry points (:mod:`.api`) and the solvers deep below them
(:mod:`.exact.forward_exact`) refuse with the same error, which the command line and the panels show
as a plain sentence (never a ``MemoryError`` from inside numpy, never a machine out of memory).
"""

from __future__ import annotations

import time
from math import prod

from ..i18n import gettext, ngettext, plain_duration, plain_size

#: Bytes one array of an exact analysis may take, and its memos together (the machines this runs on have a few
#: GiB to spare).
MEMORY_BUDGET = 2 * 2**30
#: Bytes a solved state takes in the memos of an exact enumeration, its key and its distribution (measured by
#: ``benchmarks/bench_estimate.py``: 200 to 1,200 on team positions of 20,000 to 50,000 states; rounded up)
BYTES_A_STATE = 2000
#: Times its estimated seconds past which an exact enumeration that was not forced is stopped: the estimate is
#: within ten times of the measured time (``benchmarks/bench_estimate.py``), so a run past that is one it missed
OVERRUN = 10


class ExactOutOfReach(ValueError):
    """Exact enumeration would take too long or too much memory here; sample instead.

    ``forceable``: whether forcing the request would run it (a long wait is the user's to accept;
    memory beyond the machine's is not)."""

    def __init__(self, message: str, forceable: bool = True):
        super().__init__(message)
        self.forceable = forceable


def check_memory(shape: tuple[int, ...], itemsize: int = 8, budget: int = MEMORY_BUDGET) -> None:
    """Refuse, before allocating it, an array that would take more than ``budget`` bytes.

    Checked even when the request was forced: forcing accepts a long wait, not a machine that
    runs out of memory part-way."""
    need = prod(shape) * itemsize
    if need > budget:
        raise ExactOutOfReach(
            gettext("exact enumeration is out of reach here: one step would need about {need} of memory (the limit "
                    "is {limit}); sample instead").format(need=plain_size(need), limit=plain_size(budget)),
            forceable=False)


class Budget:
    """What one exact enumeration may spend, checked as it grows (at each progress report): its memos'
    memory (``states`` times :data:`BYTES_A_STATE`, against ``memory``) and, unless ``seconds`` is None
    (forced), the wall-clock seconds.  A run past either stops with :class:`ExactOutOfReach`, in words: the
    backstop for the arrays :func:`check_memory` sees and the estimate the plan read, never a ``MemoryError``."""

    def __init__(self, seconds: float | None, memory: int | None = None) -> None:
        self.seconds, self.memory = seconds, MEMORY_BUDGET if memory is None else memory
        self._began = time.monotonic()

    def check(self, states: int) -> None:
        """Stop the run (raise) when its memos or its time have outgrown the budget."""
        need = states * BYTES_A_STATE
        if need > self.memory:
            raise ExactOutOfReach(
                gettext("exact enumeration stopped: its tables had grown to about {need} of memory (the limit is "
                        "{limit}); sample instead").format(need=plain_size(need), limit=plain_size(self.memory)),
                forceable=False)
        if self.seconds is not None and time.monotonic() - self._began > self.seconds:
            raise ExactOutOfReach(
                gettext("exact enumeration stopped after {duration}, far longer than its estimate; sample instead, "
                        "or force it").format(duration=plain_duration(self.seconds)))


#: Estimated seconds past which a run a client starts (sampled games, a sweep, a balance search, a skill run) is
#: refused unless the user confirms it (``force``, "run anyway"): half an hour
RUN_SECONDS = 30 * 60.0


class TooLong(ValueError):
    """A run whose cost, said before it starts, is past :data:`RUN_SECONDS`: refused in words, and the user may
    confirm it (``force``), as an exact enumeration refused for its time may be forced."""

    forceable = True


def check_duration(seconds: float, what: str, force: bool = False) -> None:
    """Refuse (raise :class:`TooLong`) ``what`` (a few words: "2,000,000 games") estimated at ``seconds``, past
    :data:`RUN_SECONDS` unless ``force``."""
    if seconds > RUN_SECONDS and not force:
        raise TooLong(gettext("{what} would take {duration}, more than the limit of {limit} for a run not "
                              "confirmed; ask for less, or run it anyway").format(
            what=what, duration=plain_duration(seconds),
            limit=ngettext("{count} minute", "{count} minutes", round(RUN_SECONDS / 60)).format(
                count=round(RUN_SECONDS / 60))))
