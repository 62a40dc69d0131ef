"""What an analysis may cost before it is refused: the error it raises and the memory it may take.

A leaf of the analysis layer, so that the entry points (:mod:`.api`) and the solvers deep below them
(:mod:`.exact.forward_exact`) refuse with the same error, which the command line and the panels show
as a plain sentence (never a ``MemoryError`` from inside numpy, never a machine out of memory).
"""

from __future__ import annotations

from math import prod

from ..i18n import gettext, plain_size

#: Bytes one array of an exact analysis may take (the machines this runs on have a few GiB to spare).
MEMORY_BUDGET = 2 * 2**30


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
