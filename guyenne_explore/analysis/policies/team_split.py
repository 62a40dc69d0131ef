"""The learned policy's team split (RULES.md 8, ``team_split``): a softmax over a learned score of a few features of
each split, where a model has split weights; the heuristic's split where it has none.

A split's features are :data:`~..compiled.policy_codes.SPLIT_FEATURES` (why each: there): how evenly the giver's
cards are shared, how evenly the team's two hands hold cards after it (the partner's own cards counted, which the
heuristic ignores), the worth given and whether the hero is given.  They read the partner's hand by its size alone,
which the giver sees (its cards it may not).  Its score is ``s . phi`` summed in their order from 0.0, as the
compiled twin sums it (:func:`..compiled.heuristic_kernel.choose_split`); the heuristic's weights
(:data:`HEURISTIC_SPLIT`) score a split exactly as the heuristic does.  A model keeps them after its discard
(:func:`split_team_split`); a weights file names them in its ``team_split`` object (:func:`team_split_tail`), and a
file without one plays the heuristic's split, exactly as every file did before the learned split.  The team's order
stays the heuristic's (measured under team: the partner first 0.520, the drawer first 0.522, at random 0.517).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...engine import HERO, Cards, Rules
from ..compiled.policy_codes import HEURISTIC_SPLIT, SPLIT_FEATURES, decision_model, decision_parts
from .discard import decision_tail, discard_score
from .heuristic import worth

__all__ = ["HEURISTIC_SPLIT", "features", "split_score", "split_team_split", "team_split_json", "team_split_tail",
           "with_team_split"]


def features(rules: Rules, held: int, partner: int, given: Cards) -> tuple[float, ...]:
    """The features of giving ``given`` of the giver's ``held`` cards to a partner holding ``partner``, in
    :data:`SPLIT_FEATURES`' order: the giver's evenness, the team's, the worth given, the hero given."""
    kept = held - given.size
    return (float(abs(kept - given.size)), float(abs(kept - (partner + given.size))), worth(rules, given),
            1.0 if given[HERO] else 0.0)


def split_score(weights: Sequence[float], phi: Sequence[float]) -> float:
    """``s . phi`` summed as the compiled twin sums it: in the features' order from 0.0 (the discard's sum)."""
    return discard_score(weights, phi)


def split_team_split(model: Sequence[float]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """A model without its split (the linear weights, a network and a discard), and its split's weights (empty: the
    heuristic's split).  The split follows the discard (``policy_codes.split_start``): its count S, then S weights
    (``policy_codes.SPLIT_FEATURES``)."""
    placing, discard, own = decision_parts(model)
    return decision_model(placing, discard, ()), own


def with_team_split(model: Sequence[float], weights: Sequence[float]) -> tuple[float, ...]:
    """``model`` with the split ``weights`` (none: the heuristic's split), in place of any it had; its discard
    kept."""
    placing, discard, _ = decision_parts(model)
    return decision_model(placing, discard, weights)


def team_split_tail(named: object, where: str) -> tuple[float, ...]:
    """The split's weights of a weights file's ``team_split`` object (:func:`.discard.decision_tail`)."""
    return decision_tail(named, "team_split", SPLIT_FEATURES, where)


def team_split_json(weights: Sequence[float]) -> dict[str, Any]:
    """The split's weights as a weights file writes them (what :func:`team_split_tail` reads)."""
    return dict(zip(SPLIT_FEATURES, weights))
