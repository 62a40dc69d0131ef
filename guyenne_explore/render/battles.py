"""Who wins the round's battles, as a diagram may show it: asked of the engine, never recomputed.

A battle can be marked when its outcome is visible to the reader of the
diagram: after it is resolved (the cards are face up for both sides), or
before, in the designer's view where every card is face up.  The outcome comes
from :func:`guyenne_explore.engine.flow.battle_winner` with the control the castle had
at the start of the round (:func:`guyenne_explore.engine.flow.defender_at`).

A resolved battle's cards may since have changed (removals, a concession), and
the position keeps no record of the castle's control before the battle.  Only
the battle pending at a ``remove_choice`` is known to have been neutral with its
cards intact; for the other resolved battles the mark gives the result the table
shows (who controls the castle now) and says the winner is not known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine import battle_winner, defender_at
from ..engine import ENGLISH, FRENCH, NEUTRAL, REMOVE_CHOICE
from ..engine import revealed

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Position


@dataclass(frozen=True)
class BattleMark:
    """The outcome of battle X (0) or Y (1) at ``castle``.

    ``holder`` is the castle's control after the battle (NEUTRAL after a tie at
    a neutral castle).  ``winner`` is the winning side, None for a tie; it is
    meaningful only when ``known``.  ``defender`` is the side that defended
    (None at a neutral castle or when not known).  ``pending``: the battle is
    not resolved yet, and the mark says what revealing the cards now would give
    (at a ``concede_choice`` the defender may still concede instead).
    """

    battle: int
    castle: int
    holder: int
    winner: int | None
    known: bool
    defender: int | None
    pending: bool


def battle_marks(position: Position, *, show_hands: bool) -> list[BattleMark]:
    """The marks for the round's battles whose outcome the diagram may show.

    Without ``show_hands`` only resolved battles are marked, so a mark never
    tells more than the face-up cards do.
    """
    p = position
    out: list[BattleMark] = []
    for b in (0, 1):
        castle = p.placed.castle(b)
        if castle is None:
            continue
        english, french = p.placed.at(ENGLISH, b), p.placed.at(FRENCH, b)
        resolved = revealed(p, b, ENGLISH) and revealed(p, b, FRENCH)
        if not resolved:
            if not (show_hands and english.size and french.size):
                continue
            defender = defender_at(p, b)
            winner = battle_winner(NEUTRAL if defender is None else defender, english, french)
            holder = winner if winner is not None else (NEUTRAL if defender is None else defender)
            out.append(BattleMark(b, castle, holder, winner, True, defender, pending=True))
        elif p.to_play == REMOVE_CHOICE and b == p.battle:
            # defender_at is None here: the pending battle was neutral, its cards are intact
            winner = battle_winner(NEUTRAL, english, french)
            out.append(BattleMark(b, castle, p.castles[castle], winner, True, None, pending=False))
        else:
            holder = p.castles[castle]
            # a castle neutral after its battle was neutral before it and the battle tied
            out.append(BattleMark(b, castle, holder, None, holder == NEUTRAL, None, pending=False))
    return out
