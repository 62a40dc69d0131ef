"""Game outcomes as the analysis reports them: a sampled game's summary, and the row the metrics read.

Kept apart from the samplers so that the compiled path (:mod:`.compiled.rollout`),
the engine's sampler (:mod:`.sample`) and the metrics (:mod:`.metrics`) share one
definition without importing one another.
"""

from __future__ import annotations

from typing import NamedTuple


class Game(NamedTuple):
    """One sampled game's summary; the first four fields are the outcome and its length."""

    english: int
    french: int
    winner: str
    rounds: int
    #: the round (counted from 1) after which the eventual winner led on the table for good
    decided: int
    #: whether each side's hero was still in play (not removed) at the end
    hero_kept: tuple[bool, bool]
    #: how the game ended: one of the engine's ``scoring.ENDINGS`` (a sweep, a side out of cards, ...)
    ending: str


class Outcome(NamedTuple):
    """What the metrics read of a game; a :class:`Game` has the same fields.

    An exact result knows the outcome, its length and how the game ended (the engine's ending,
    which every exact solver carries in its outcomes); the others are None there."""

    english: int
    french: int
    winner: str
    rounds: int
    #: how the game ended: one of the engine's ``scoring.ENDINGS``
    ending: str
    decided: int | None = None
    hero_kept: tuple[bool, bool] | None = None
