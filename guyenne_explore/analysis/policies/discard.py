"""The learned policy's setup discard (RULES.md 2, expert's ``pre_discard``): a softmax over a learned score of a few
features of each discard, where a model has discard weights; the heuristic's discard where it has none.

A discard's features are :data:`~..compiled.policy_codes.DISCARD_FEATURES` (why each: there), all from the rules'
worth of a card (:func:`.heuristic.card_worth`), so one model's discard serves every variant.  Its score is
``d . phi`` summed in their order from 0.0, as the compiled twin sums it
(:func:`..compiled.heuristic_kernel.choose_discard`); the heuristic's weights (:data:`HEURISTIC_DISCARD`: minus the
worth) score a discard as the heuristic does.  A model keeps them after its network (:func:`split_discard`); a
weights file names them in its ``discard`` object (:func:`discard_tail`), and a file without one plays the
heuristic's discard, exactly as every file did before the learned discard.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ...engine import Cards, Rules
from ...i18n import gettext
from ..compiled.policy_codes import DISCARD_FEATURES, HEURISTIC_DISCARD, decision_model, decision_parts
from .heuristic import card_worth, worth

__all__ = ["HEURISTIC_DISCARD", "decision_tail", "discard_json", "discard_score", "discard_tail", "features",
           "split_discard", "with_discard"]


def features(rules: Rules, deck: Cards, cards: Cards) -> tuple[float, ...]:
    """The features of discarding ``cards`` from ``deck`` (the deck's valued cards), in
    :data:`DISCARD_FEATURES`' order: their worth, the cards of the deck's weakest valued kind among them (the
    first of the least worth), the valued kinds the deck keeps."""
    present = [k for k, n in enumerate(deck) if n]
    weakest = min(present, key=lambda k: card_worth(rules, k))
    kept = sum(1 for k in present if deck[k] > cards[k])
    return worth(rules, cards), float(cards[weakest]), float(kept)


def discard_score(weights: Sequence[float], phi: Sequence[float]) -> float:
    """``d . phi`` summed as the compiled twin sums it: in the features' order from 0.0."""
    s = 0.0
    for w, x in zip(weights, phi):
        s = s + w * x
    return s


def split_discard(model: Sequence[float]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """A model without its discard (the linear weights, a network and a team's split, as before the learned discard),
    and its discard's weights (empty: the heuristic's discard).  The discard follows the network (a linear model's H
    is written 0 before it): its count D, then D weights (``policy_codes.DISCARD_FEATURES``), then any split's
    (:mod:`.team_split`, which is never read as more of the discard)."""
    placing, own, split = decision_parts(model)
    return decision_model(placing, (), split), own


def with_discard(model: Sequence[float], weights: Sequence[float]) -> tuple[float, ...]:
    """``model`` with the discard ``weights`` (none: the heuristic's discard), in place of any it had; its split
    kept."""
    placing, _, split = decision_parts(model)
    return decision_model(placing, weights, split)


def discard_tail(named: object, where: str) -> tuple[float, ...]:
    """The discard's weights of a weights file's ``discard`` object (:func:`decision_tail`)."""
    return decision_tail(named, "discard", DISCARD_FEATURES, where)


def decision_tail(named: object, field: str, names: Sequence[str], where: str) -> tuple[float, ...]:
    """The weights of a decision's object ``field`` of a weights file (the setup discard's, a team split's), by feature
    ``names`` (a name it lacks reads 0, as a feature added later would in an older file); a ValueError names
    ``where`` and the field that is wrong."""
    if not isinstance(named, dict):
        raise ValueError(gettext("{where}: '{field}' must be an object of its features ({names}) and numbers").format(
            where=where, field=field, names=", ".join(names)))
    unknown = sorted(set(named) - set(names))
    if unknown:
        raise ValueError(gettext("{where}: {field}.{name} is not one of its features ({names})").format(
            where=where, field=field, name=unknown[0], names=", ".join(names)))
    out = []
    for name in names:
        w = named.get(name, 0.0)
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            raise ValueError(gettext("{where}: {field}.{name} must be a finite number, not {value}").format(
                where=where, field=field, name=name, value=repr(w)))
        out.append(float(w))
    return tuple(out)


def discard_json(weights: Sequence[float]) -> dict[str, Any]:
    """The discard's weights as a weights file writes them (what :func:`discard_tail` reads)."""
    return dict(zip(DISCARD_FEATURES, weights))
