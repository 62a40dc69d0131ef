"""Who decides at each decision point (RULES.md sections 3, 4 and 8).

Kept apart from :mod:`.flow` because the legal moves (:mod:`.moves`) need to know
who decides, and the flow needs the legal moves: both import this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import (CONCEDE_CHOICE, OPEN_FIRST, OPEN_SECOND, REMOVE_CHOICE, RESPOND_FIRST, RESPOND_SECOND,
                    SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT)

if TYPE_CHECKING:  # pragma: no cover
    from .state import State


def battle_of(point: str) -> int | None:
    """The battle (0 = X, 1 = Y) a placement decision places at."""
    if point in (OPEN_FIRST, RESPOND_FIRST):
        return 0
    if point in (OPEN_SECOND, RESPOND_SECOND):
        return 1
    return None


def acting_side(p: State) -> int | None:
    """The side that decides now, None at a chance point or the end."""
    point = p.to_play
    if point in (OPEN_FIRST, RESPOND_SECOND):
        return p.first
    if point in (RESPOND_FIRST, OPEN_SECOND):
        return 1 - p.first
    if point == SETUP_DISCARD:
        return p.first if p.sides[p.first].discard.size < p.rules.pre_discard else 1 - p.first
    if point in (TEAM_SPLIT, TEAM_ORDER):
        f = p.first
        return f if p.sides[f].is_team and p.sides[f].order is None else 1 - f
    if point in (CONCEDE_CHOICE, REMOVE_CHOICE):
        castle = p.placed.castle(p.battle or 0)
        assert castle is not None
        defender = p.castles[castle]
        return defender if point == CONCEDE_CHOICE else 1 - defender
    return None


def acting_member(p: State) -> int:
    """For a team side, the member (0 or 1) who decides now; 0 for a solo side."""
    side = acting_side(p)
    if side is None or not p.sides[side].is_team:
        return 0
    s = p.sides[side]
    if p.to_play == TEAM_SPLIT:
        return s.drawer if s.hands[s.drawer].size else 1 - s.drawer
    if p.to_play in (TEAM_ORDER, SETUP_DISCARD):
        return s.drawer
    battle = p.battle if p.to_play in (CONCEDE_CHOICE, REMOVE_CHOICE) else battle_of(p.to_play)
    return member_battle(s.order or 0, 0 if battle == 0 else 1)


def member_battle(order: int, battle_or_member: int) -> int:
    """A team's member placing at a battle (0: X, 1: Y), or the battle a member places at: the side's first
    member (its ``order``) takes the side's first placement, at X, the other the second, at Y (RULES.md 8).
    The map is its own inverse."""
    return order if battle_or_member == 0 else 1 - order
