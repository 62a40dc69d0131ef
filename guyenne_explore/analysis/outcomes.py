"""Game outcomes as the analysis reports them: a sampled game's summary, and the row the metrics read.

Kept apart from the samplers so that the compiled path (:mod:`.fast.rollout`),
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


#: An exact result's ending where only its score is known and the score proves the game was no
#: sweep (``scoring.sweep_told_by_score``); sampled games carry the engine's own ending.
NO_SWEEP = "no_sweep"


class Outcome(NamedTuple):
    """What the metrics read of a game; a :class:`Game` has the same fields.

    An exact result knows only the first four, and whether the game ended by a sweep where the
    score tells it (``ending`` :data:`~guyenne_explore.scoring.SWEEP` or :data:`NO_SWEEP`); the
    others are None there."""

    english: int
    french: int
    winner: str
    rounds: int
    decided: int | None = None
    hero_kept: tuple[bool, bool] | None = None
    ending: str | None = None
