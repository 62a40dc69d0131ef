"""The compiled game loop's sides for policies named as the registry names them.

Apart from :mod:`.heuristic` and :mod:`.strong` (the learned policy builds on the heuristic), so that
neither imports the other to name the sides of a batch.
"""

from __future__ import annotations

from pathlib import Path

from ...engine import Rules
from ..compiled.policy_codes import UNIFORM_SIDE, SidePolicy
from .heuristic import Heuristic
from .strong import Strong


def compiled_sides(names: tuple[str, str], rules: Rules | None = None) -> tuple[SidePolicy, SidePolicy]:
    """The sides of the compiled game loop for policies by name: uniform, this heuristic with its
    default numbers, or the learned policy with the package's weights for ``rules`` (``strong``) or a
    file's (``strong@FILE``, ``persona@FILE``): the names the loop plays, ``compiled.heuristic_kernel.COMPILED_NAMES``."""
    sides = tuple(_side(name, rules) for name in names)
    return sides[0], sides[1]


def _side(name: str, rules: Rules | None) -> SidePolicy:
    base, _at, file = name.partition("@")
    if name == "uniform":
        return UNIFORM_SIDE
    if name == "heuristic":
        return Heuristic().compiled()
    if base in ("strong", "persona"):  # persona@FILE: strong with weights fitted to people's games
        return Strong(file=Path(file) if file else None).compiled(rules)
    raise ValueError("the compiled path plays the uniform, heuristic and strong policies only")
