"""A policy as a person names it: the one reading of a level's text, and the policy it builds.

Every place that takes a level (the command line's ``--policies`` and ``--levels``, a panel's level box, the
ladder, the playtest lab, the samplers' workers, the benchmarks) reads it here, as a :class:`PolicySpec`:

- ``uniform``, ``heuristic``, ``strong-linear``, ``strong``: the built-in levels (``strong`` with the package's
  weights, a network where one is trained; ``strong-linear`` the linear weights alone);
- ``search``, ``search:200`` (rollouts a decision), ``search:250ms`` (milliseconds a decision): the search, its
  budget read as every typed number is (:mod:`guyenne_explore.numbers`);
- ``strong@FILE``: the learned policy with a weights file trained for a variant (``guyenne-explore train``);
  ``persona@FILE``: the same policy with weights fitted to people's games (``guyenne-explore playtest persona``);
  in a page, ``FILE`` is the name of weights of the session, which the page resolves to its file;
- the counter-policies' names (:data:`.counters.COUNTERS`): exploiters the benchmarks' gauntlet plays.

So which levels the compiled game loop plays (:attr:`PolicySpec.compiles`) is said once, here, and a bad text
is refused once, in the same words wherever it was typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ... import numbers
from ...i18n import gettext
from . import Policy, Uniform
from ..compiled.policy_codes import IDEAS
from .counters import COUNTERS
from .heuristic import Heuristic
from .search import ISMCTS
from .strong import LINEAR_NAME, Strong

__all__ = ["PolicySpec", "POLICIES", "MAX_ROLLOUTS", "MAX_MILLISECONDS", "PERSONA", "WEIGHTED", "COMPILED"]

#: the built-in levels by name, weakest first (the panels' level lists)
POLICIES: dict[str, Callable[[], Policy]] = {"uniform": Uniform, "heuristic": Heuristic,
                                             LINEAR_NAME: lambda: Strong(linear=True), "strong": Strong,
                                             "search": ISMCTS}
#: the largest search budgets a name may ask: a million rollouts, or ten minutes, a decision (a game is dozens of
#: decisions: more would never end where a person waits for it)
MAX_ROLLOUTS, MAX_MILLISECONDS = 1_000_000, 600_000
#: the learned policy playing weights fitted to people's games (``guyenne-explore playtest persona``): ``persona@FILE``
PERSONA = "persona"
#: the kinds that take a weights file after an at sign: strong's weights trained for a variant, a persona's
WEIGHTED = ("strong", PERSONA)
#: the kinds the compiled game loop plays (any other is played by the engine): the counters whose ideas read the
#: table alone among them (:data:`~..compiled.policy_codes.IDEAS`)
COMPILED = ("uniform", "heuristic", LINEAR_NAME, "strong", PERSONA, *IDEAS)
#: the kind that takes a budget after a colon
SEARCH = "search"
#: a budget in milliseconds ends with this unit (``search:250ms``)
MS = "ms"


@dataclass(frozen=True)
class PolicySpec:
    """A level as named: its ``kind`` (a built-in level, ``persona`` or a counter's name), a search's budget
    (``rollouts`` or ``milliseconds`` a decision; neither: the search's default), the ``weights`` file (or a
    session's weights name) of ``strong@`` and ``persona@``.  ``str(spec)`` is its canonical text, which
    :meth:`parse` reads back to the same value."""

    kind: str
    rollouts: int | None = None
    milliseconds: int | None = None
    weights: str | None = None

    def __post_init__(self) -> None:
        """Refuse a value no text names (a spec is built by :meth:`parse`, or by code that must be right)."""
        if self.kind not in (*POLICIES, PERSONA, *COUNTERS):
            raise ValueError(f"no policy kind {self.kind!r}")
        if (self.rollouts is not None or self.milliseconds is not None) and (
                self.kind != SEARCH or self.rollouts is not None and self.milliseconds is not None):
            raise ValueError(f"{self.kind!r} takes no budget, or a search one budget, not {self!r}")
        if (self.weights is not None or self.kind == PERSONA) and (self.kind not in WEIGHTED or not self.weights):
            raise ValueError(f"{self.kind!r} takes no weights file, or persona one, not {self!r}")

    @classmethod
    def parse(cls, text: str) -> PolicySpec:
        """The level named by ``text``; a ValueError in words names the text and what is wrong (an unknown name
        with the names known, a missing weights file, a budget's form or bound as a
        :class:`~guyenne_explore.numbers.NumberError`)."""
        kind, at, weights = text.partition("@")
        if at and kind in WEIGHTED:
            if not weights:
                raise ValueError(gettext("{name}: give the weights file after the at sign, {kind}@FILE").format(
                    name=repr(text), kind=kind))
            return cls(kind, weights=weights)
        kind, colon, budget = text.partition(":")
        if kind not in (*POLICIES, *COUNTERS) or (colon and kind != SEARCH):
            # the skill levels first, the gauntlet's counter-strategies apart: one list of fourteen names read as
            # levels no panel shows
            raise ValueError(gettext("unknown level {name}: choose one of {levels} (the search with a budget: "
                                     "search:200 for 200 rollouts a move, or search:250ms), or a counter-strategy: "
                                     "{counters}").format(
                name=repr(text), levels=", ".join(POLICIES), counters=", ".join(COUNTERS)))
        if not colon:  # "search:" with nothing after is an empty budget, refused as an empty box is
            return cls(kind)
        field = gettext("the search budget in {name}").format(name=repr(text))
        if budget.endswith(MS):
            return cls(kind, milliseconds=numbers.whole(budget[:-len(MS)], field, 1, MAX_MILLISECONDS))
        return cls(kind, rollouts=numbers.whole(budget, field, 1, MAX_ROLLOUTS))

    def __str__(self) -> str:
        """The canonical text: ``search:200``, ``search:250ms``, ``strong@FILE``, ``uniform``."""
        budget, weights = self.budget, self.weights
        return self.kind + (f":{budget}" if budget else "") + (f"@{weights}" if weights else "")

    @property
    def budget(self) -> str | None:
        """A search's budget as written after the colon (``200``, ``250ms``); None: no budget given."""
        if self.milliseconds is not None:
            return f"{self.milliseconds}{MS}"
        return None if self.rollouts is None else str(self.rollouts)

    @property
    def compiles(self) -> bool:
        """Whether the compiled game loop plays this level (under rules it supports): the one answer."""
        return self.kind in COMPILED

    @property
    def searches(self) -> bool:
        """Whether this level is the search (its games cost a hundred of strong's)."""
        return self.kind == SEARCH

    @property
    def exact(self) -> bool:
        """Whether this level's moves have an exact distribution (an enumeration can answer with it), as its
        policy's class declares, without building the policy (nor opening its weights file)."""
        maker: Any = (Strong if self.kind in (*WEIGHTED, LINEAR_NAME) else ISMCTS if self.searches else
                              COUNTERS[self.kind] if self.kind in COUNTERS else POLICIES[self.kind])
        return bool(maker.exact)

    def policy(self) -> Policy:
        """A fresh policy of this level; a ValueError names the text and what is wrong with a weights file
        (missing, not a weights file, trained for other features)."""
        if self.weights is not None:  # strong@FILE, persona@FILE
            try:
                return Strong(file=Path(self.weights))
            except ValueError as exc:
                raise ValueError(gettext("{name}: {problem}").format(name=repr(str(self)), problem=exc)) from None
        if self.milliseconds is not None:
            return ISMCTS(milliseconds=self.milliseconds)
        if self.rollouts is not None:
            return ISMCTS(self.rollouts)
        return COUNTERS[self.kind]() if self.kind in COUNTERS else POLICIES[self.kind]()

