"""Compile the fast path once, into numba's on-disk cache, so that no analysis waits for it.

Every kernel is ``@njit(cache=True)``: compiled the first time it runs (about 40
CPU-seconds for the whole kernel) and cached beside its module until the source
changes.  ``scripts/setup.sh`` runs ``python -m guyenne_explore.analysis.fast.warm``
once after installing, which plays a few sampled games under every preset (the
kernels' argument types are the same for all rule sets, so this reaches every
signature the analysis uses); the panels ask :func:`needs_compiling` to say
"Preparing the fast path" when a run will still have to compile.
"""

from __future__ import annotations

import sys
import time

from numba.core.registry import CPUDispatcher

from . import kernel


def kernels() -> list[CPUDispatcher]:
    """The compiled functions of the fast path."""
    return [f for f in vars(kernel).values() if isinstance(f, CPUDispatcher)]


def _cached_on_disk(f: CPUDispatcher) -> bool:
    """Whether numba's cache holds a compiled version of ``f`` for its current source."""
    cache = getattr(f, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_load_index", None)
    return bool(index is not None and index())


def needs_compiling() -> bool:
    """True when some kernel is neither compiled in this process nor cached for its source."""
    return any(not f.signatures and not _cached_on_disk(f) for f in kernels())


def warm(games: int = 8) -> float:
    """Run the fast path once under every preset it serves; returns the seconds it took."""
    from ...engine_api import PRESETS, Position
    from .encode import unsupported
    from .rollout import fast_games

    start = time.perf_counter()
    for name in PRESETS:
        p = Position.start(name)
        if unsupported(p, ("uniform", "uniform")) is None:
            fast_games(p, games, seed=0)
    return time.perf_counter() - start


if __name__ == "__main__":
    if needs_compiling() or "--force" in sys.argv:
        print("Compiling the fast path once (numba, cached for later runs)...", flush=True)
        print(f"  done in {warm():.0f} s")
    else:
        print("The fast path is already compiled (numba cache).")
