"""Starting positions for the builder: the opening, a rulebook example, a random mid-game position.

Each is made by the engine from a seed (the deal and the moves are the
engine's own), so the same choice always gives the same position.
"""

from __future__ import annotations

import random

from ..position import Position
from ..record import uniform_choice
from ..rules import Rules

#: the names shown in the builder's "start from" choice
STARTS = ("opening", "rulebook example", "random mid-game")


def opening(rules: Rules | str = "advanced", seed: int = 1) -> Position:
    """The first decision of a game: the deal (and any expert or team setup) played from ``seed``."""
    p = Position.start(rules)
    rng = random.Random(seed)
    while p.is_chance or p.to_play in ("setup_discard", "team_split", "team_order"):
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(uniform_choice(p, rng))
    return p


def rulebook_example() -> Position:
    """The rulebook's siege: the French attack English castle 2 with 5 3; the English must answer.

    Built as in notebooks/rule_examples.ipynb, figure (c): the base deal of seed 1,
    round 2, castle 2 English, the French first.
    """
    data = opening("base", 1).to_json()
    data.update(round=2, first="french")
    data["castles"][2] = "english"
    return Position.from_json(data).apply("2:53")


def midgame(rules: Rules | str = "advanced", seed: int = 1, rounds: int = 4) -> Position:
    """A position at the start of a later round, reached by seeded uniform-random play.

    Stops at the first placement of round ``1 + rounds`` (or earlier if the game ends first,
    then at the last decision before the end).
    """
    p = opening(rules, seed)
    rng = random.Random(seed)
    last_decision = p
    while not p.is_over:
        if not p.is_chance:
            if p.round > rounds and p.to_play == "open_first":
                return p
            last_decision = p
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(uniform_choice(p, rng))
    return last_decision


def start_position(name: str, rules: Rules | str = "advanced", seed: int = 1) -> Position:
    """The start called ``name`` (one of :data:`STARTS`)."""
    if name == "opening":
        return opening(rules, seed)
    if name == "rulebook example":
        return rulebook_example()
    if name == "random mid-game":
        return midgame(rules, seed)
    raise ValueError(f"unknown start {name!r}: one of {', '.join(STARTS)}")
