"""Policies by name, as the panels, the command line and the samplers' workers ask for them."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ... import numbers
from ...i18n import gettext
from .heuristic import Heuristic
from . import Policy, Uniform
from .search import ISMCTS
from .strong import Strong

POLICIES: dict[str, Callable[[], Policy]] = {"uniform": Uniform, "heuristic": Heuristic, "strong": Strong,
                                             "search": ISMCTS}

#: the largest search budgets a name may ask: a million rollouts, or ten minutes, a decision (a game is dozens of
#: decisions: more would never end where a person waits for it)
MAX_ROLLOUTS, MAX_MILLISECONDS = 1_000_000, 600_000
#: the learned policy playing weights fitted to people's games (``guyenne-explore playtest persona``): ``persona@FILE``
PERSONA = "persona"
#: the names that take a weights file after an at sign: strong's weights trained for a variant, a persona's
WEIGHTED = ("strong", PERSONA)


def policy_named(name: str) -> Policy:
    """A fresh policy of that name; a ValueError lists the names known.

    The search takes its budget after a colon: ``search:200`` (rollouts a decision) or
    ``search:250ms`` (milliseconds a decision), read as every typed number is (a
    :class:`~guyenne_explore.numbers.NumberError` names the name and the budget's form or bound); the learned
    policy a weights file after an at sign: ``strong@FILE`` (weights trained for a variant by ``guyenne-explore train``),
    or ``persona@FILE`` (weights fitted to people's games by ``guyenne-explore playtest persona``: the same policy).
    """
    if name.partition("@")[0] in WEIGHTED and "@" in name:
        return trained_strong(name)
    base, colon, budget = name.partition(":")
    if base not in POLICIES or (colon and base != "search"):
        raise ValueError(gettext("unknown policy {name}: choose one of {choices} (the search with a budget: search:200 "
                                 "rollouts, or search:250ms)").format(name=repr(name), choices=", ".join(POLICIES)))
    if not colon:  # "search:" with nothing after is an empty budget, refused as an empty box is
        return POLICIES[base]()
    if budget.endswith("ms"):
        return ISMCTS(milliseconds=numbers.whole(budget[:-2], _budget_field(name), 1, MAX_MILLISECONDS))
    return ISMCTS(numbers.whole(budget, _budget_field(name), 1, MAX_ROLLOUTS))


def _budget_field(name: str) -> str:
    """The budget of a search's name as a refusal names it (a NumberError is the ValueError callers catch)."""
    return gettext("the search budget in {name}").format(name=repr(name))


def trained_strong(name: str) -> Strong:
    """``strong@FILE`` (or ``persona@FILE``): the learned policy with the weights of FILE; a ValueError names the
    file and what is wrong with it (missing, not a weights file, trained for other features)."""
    base, _at, file = name.partition("@")
    if not file and base == PERSONA:
        raise ValueError(gettext("{name}: give the weights file after the at sign, persona@FILE").format(name=repr(name)))
    if not file:
        raise ValueError(gettext("{name}: give the weights file after the at sign, strong@FILE").format(name=repr(name)))
    try:
        return Strong(file=Path(file))
    except ValueError as exc:
        raise ValueError(gettext("{name}: {problem}").format(name=repr(name), problem=exc)) from None
