"""The compiled game loop's sides for policies named as the registry names them.

Apart from :mod:`.heuristic` and :mod:`.strong` (the learned policy builds on the heuristic), so that
neither imports the other to name the sides of a batch.
"""

from __future__ import annotations

from ..compiled.sides import UNIFORM_SIDE, SidePolicy
from .heuristic import Heuristic
from .strong import Strong


def compiled_sides(names: tuple[str, str]) -> tuple[SidePolicy, SidePolicy]:
    """The sides of the compiled game loop for policies by name: uniform, this heuristic with its
    default numbers, or the learned policy with its shipped weights (the names the loop plays:
    ``compiled.heuristic.COMPILED_NAMES``)."""
    sides = tuple(UNIFORM_SIDE if name == "uniform" else Heuristic().compiled() if name == "heuristic"
                  else Strong().compiled() if name == "strong" else None for name in names)
    if None in sides:
        raise ValueError("the compiled path plays the uniform, heuristic and strong policies only")
    return sides[0], sides[1]  # type: ignore[return-value]
