"""What can answer for a position and its two policies, worked out once: a :class:`Capabilities` value.

OpenSpiel declares a game's capabilities once (its chance mode, its information, its utility).  Here they
depend on the position and the policies too (a stacked deck, a team, a search, a variant's card sets), so
they are asked once for them and the value is read by every part that chooses machinery: the plan
(:mod:`.planning`: exact or sampled, compiled or engine games, the endgame solver), the samplers and the
style measures.  Each machinery still says what it reaches, in its own module (the compiled loop:
:func:`.compiled.encode.unsupported` and :func:`.compiled.heuristic_kernel.unsupported`; the endgame solver:
:func:`.exact.endgame.in_reach`; a level: :attr:`PolicySpec.compiles` and :attr:`PolicySpec.exact`);
this module is the one place that asks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..engine import Position
from ..i18n import N_
from .compiled.encode import unsupported as uniform_unsupported
from .exact.endgame import in_reach
from .policies.spec import PolicySpec

__all__ = ["Capabilities", "capabilities"]


@dataclass(frozen=True)
class Capabilities:
    """What answers games of ``policies`` from one position."""

    policies: tuple[str, str]
    #: why the compiled game loop cannot play these games, in words to translate (None: it plays them)
    not_compiled: str | None
    #: whether every round start from here on is one the endgame solver solves (uniform play of two lone sides
    #: that can no longer reshuffle)
    endgame: bool
    #: whether both policies have an exact move distribution, so that an enumeration can answer
    exact: bool

    @property
    def compiled(self) -> bool:
        """Whether the compiled game loop plays these games."""
        return self.not_compiled is None


@lru_cache(maxsize=256)
def capabilities(p: Position, policies: tuple[str, str]) -> Capabilities:
    """What answers games of ``policies`` from ``p`` (kept for the positions last asked about: a plan, its cost
    and its samplers ask about the same one several times)."""
    specs = tuple(PolicySpec.parse(name) for name in policies)
    return Capabilities(policies=tuple(policies), not_compiled=_not_compiled(p, specs),  # type: ignore[arg-type]
                        endgame=in_reach(p, policies), exact=all(spec.exact for spec in specs))


def _not_compiled(p: Position, specs: tuple[PolicySpec, ...]) -> str | None:
    """Why the compiled loop cannot play games of ``specs`` from ``p`` (None: it can), in words to translate."""
    if not all(spec.compiles for spec in specs):
        return N_("the engine plays them: the compiled game loop plays the uniform, heuristic and strong policies and the "
           "counters that read the table alone, not a search")
    if all(spec.kind == "uniform" for spec in specs):
        return uniform_unsupported(p)
    from .compiled import heuristic_kernel  # the scoring policies' tables: loaded only when one plays

    return heuristic_kernel.unsupported(p)
