"""The compiled game loop's sides for levels named as :class:`.spec.PolicySpec` reads them.

Apart from :mod:`.heuristic` and :mod:`.strong` (the learned policy builds on the heuristic), so that
neither imports the other to name the sides of a batch.
"""

from __future__ import annotations

from pathlib import Path

from ...engine import Rules
from ..compiled.policy_codes import IDEAS, UNIFORM_SIDE, SidePolicy
from .counters import COUNTERS
from .heuristic import Heuristic
from .spec import PolicySpec
from .strong import LINEAR_NAME, Strong


def compiled_sides(names: tuple[str, str], rules: Rules | None = None) -> tuple[SidePolicy, SidePolicy]:
    """The sides of the compiled game loop for levels by name: uniform, this heuristic with its
    default numbers, a counter whose idea is compiled, or the learned policy with the package's weights for ``rules``
    (``strong``) or a file's (``strong@FILE``, ``persona@FILE``): the levels whose spec
    :attr:`~.spec.PolicySpec.compiles`."""
    sides = tuple(_side(PolicySpec.parse(name), rules) for name in names)
    return sides[0], sides[1]


def _side(spec: PolicySpec, rules: Rules | None) -> SidePolicy:
    if not spec.compiles:
        raise ValueError(f"the compiled path does not play {spec}")
    if spec.kind == "uniform":
        return UNIFORM_SIDE
    if spec.kind == "heuristic":
        return Heuristic().compiled()
    if spec.kind in IDEAS:  # a counter of the gauntlet whose idea is compiled
        return COUNTERS[spec.kind]().compiled(rules)
    # strong, strong-linear, strong@FILE, persona@FILE: strong with the package's weights, or a file's
    return Strong(file=Path(spec.weights) if spec.weights else None, linear=spec.kind == LINEAR_NAME).compiled(rules)
