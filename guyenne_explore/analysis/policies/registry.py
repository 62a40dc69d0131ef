"""Policies by name, as the panels, the command line and the samplers' workers ask for them."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ...i18n import gettext
from .heuristic import Heuristic
from . import Policy, Uniform
from .search import ISMCTS
from .strong import Strong

POLICIES: dict[str, Callable[[], Policy]] = {"uniform": Uniform, "heuristic": Heuristic, "strong": Strong,
                                             "search": ISMCTS}


def policy_named(name: str) -> Policy:
    """A fresh policy of that name; a ValueError lists the names known.

    The search takes its budget after a colon: ``search:200`` (rollouts a decision) or
    ``search:250ms`` (milliseconds a decision); the learned policy a weights file after an at sign:
    ``strong@FILE`` (weights trained for a variant by ``guyenne-explore train``).
    """
    if name.partition("@")[0] == "strong" and "@" in name:
        return trained_strong(name)
    base, _, budget = name.partition(":")
    if base not in POLICIES or (budget and base != "search"):
        raise ValueError(gettext("unknown policy {name}: choose one of {choices} (the search with a budget: search:200 "
                                 "rollouts, or search:250ms)").format(name=repr(name), choices=", ".join(POLICIES)))
    if not budget:
        return POLICIES[base]()
    amount = budget[:-2] if budget.endswith("ms") else budget
    if not amount.isdigit() or int(amount) < 1:
        raise ValueError(gettext("the search budget in {name} must be a whole number of rollouts (search:200) or of "
                                 "milliseconds (search:250ms), at least 1").format(name=repr(name)))
    return ISMCTS(milliseconds=int(amount)) if budget.endswith("ms") else ISMCTS(int(amount))


def trained_strong(name: str) -> Strong:
    """``strong@FILE``: the learned policy with the weights of FILE; a ValueError names the file and what is
    wrong with it (missing, not a weights file, trained for other features)."""
    file = name.partition("@")[2]
    if not file:
        raise ValueError(gettext("{name}: give the weights file after the at sign, strong@FILE").format(name=repr(name)))
    try:
        return Strong(file=Path(file))
    except ValueError as exc:
        raise ValueError(gettext("{name}: {problem}").format(name=repr(name), problem=exc)) from None
