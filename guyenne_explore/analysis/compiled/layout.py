"""The compiled path's array layout: indices of zones, scalars, rule parameters, summary columns.

Kept apart from :mod:`.kernel` (numba) so that encoding a position and reading a
summary need no compiler: importing the analysis stays light until a game is played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import ENDINGS, EXHAUSTED, KINDS, OUT_OF_CARDS, SWEEP, Control, Point

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

# The kernel works on the kinds present in the game only (usually 2, 3, 4, 5 and the hero), in the
# engine's order (values 1..9 at 0..8, the hero at 9), so the strongest kind is still the last one
# present; ``vals`` gives their values (0 for the hero, which overrides sums) and ``rp[HERO_KIND]``
# the hero's index (-1 when absent).
NEUTRAL = int(Control.NEUTRAL)  #: a castle's control is the engine's :class:`Control` as an int
# zones of a side: its cards in hand (a team side's: both members' hands together, so that whatever
# counts a side's cards reads one zone), deck, discard, removed, then the hand of a team's member 1
# (engine numbering; member 0's hand is HAND less this one; always empty for a lone side)
HAND, DECK, DISCARD, REMOVED, HAND_OF_1 = 0, 1, 2, 3, 4
N_ZONES = 5
#: the engine's decision and chance points this path handles; a point's code here is its index (the team
#: decisions and the defender's concede choice last, so that the placements keep their order: ``phase <=
#: RESPOND_FIRST`` is battle X's)
POINTS = (Point.SETUP_DISCARD, Point.DEAL, Point.OPEN_FIRST, Point.RESPOND_FIRST, Point.OPEN_SECOND,
          Point.RESPOND_SECOND, Point.REMOVE_CHOICE, Point.DRAW, Point.END, Point.TEAM_SPLIT, Point.TEAM_ORDER,
          Point.CONCEDE_CHOICE)
(SETUP, DEAL, OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND, REMOVE, DRAW, END, TEAM_SPLIT,
 TEAM_ORDER, CONCEDE) = range(len(POINTS))
# scalars of a state
PHASE, FIRST, ROUND, CASTLE_X, CASTLE_Y, BATTLE, EXH = range(7)  # EXH + side
ENDING = 8  #: how the game ended: an index in the engine's ``scoring.ENDINGS`` (-1 while it goes on)
#: a team side's drawer (DRAWER + side: member 0 or 1) and the member who places first this round
#: (ORDER + side: -1 until the team decides it)
DRAWER, ORDER = 9, 11
#: SHOWN + side * KINDS + k: how many cards of kind ``k`` (the loop's index among the kinds present) that side
#: showed face up in a battle lie in its discard (the public record's ``shown_discard``, engine ``PublicRecord``): added
#: at the round's end, cleared when the discard is reshuffled into the deck; 0 for a position started without its
#: history, as the record assumes.  What every side has seen of the other's discard, so that a policy counts the
#: cards out of its sight as the engine's view does (``SideView.opponent_hidden``)
SHOWN = 13
N_SCALARS = SHOWN + 2 * KINDS
END_SWEEP, END_EXHAUSTED, END_OUT_OF_CARDS = (ENDINGS.index(e) for e in (SWEEP, EXHAUSTED, OUT_OF_CARDS))
# rule parameters (TEAM + side: 1 when that side is a team of two members; CONCEDE_AS_DECISION: 1 when a
# defender's concede choice is a decision point, RULES.md 4)
HAND_SIZE, N_CASTLES, MAX_AT, LIMIT, IMMEDIATE, REMOVAL, SCORING, RING, PRE_DISCARD, HERO_KIND, TEAM = range(11)
CONCEDE_AS_DECISION = 12
N_RULES = 13
REMOVAL_NONE, REMOVAL_ADVANCED, REMOVAL_CLASSIC = 0, 1, 2
# columns of a game's summary
(OUT_ENGLISH, OUT_FRENCH, OUT_WINNER, OUT_ROUNDS, OUT_DECIDED, OUT_HERO_E, OUT_HERO_F,
 OUT_DECISIONS, OUT_ERROR, OUT_ENDING) = range(10)
N_OUT = 10
DRAW_WINNER = 2


def side_scores(winners: np.ndarray, side: int) -> np.ndarray:
    """Each summarised game's score for ``side`` from its winner code (the :data:`OUT_WINNER` column): a win 1, a
    draw a half, a loss 0, as the engine's ``side_score`` says of one game."""
    return (winners == side) + 0.5 * (winners == DRAW_WINNER)
#: a trace row: point, side, castle (at a team's order: the member who places first; at a concede choice: 1
#: for concede, 0 for reveal), the random index a
#: scoring policy drew and the total weight it drew from (-1, -1 for uniform choices and draws), then the
#: counts of the cards moved (one per kind present)
TRACE_HEAD = 5
#: a round row (at each end of a round, after the battles, and at the end of the game): round, first
#: player, exhaustions of each side, then the castles, then zones[side, zone, kind] of the first four
#: zones flattened (a team's hand: both members' cards, as the engine's ``Side.hand``)
ROUND_HEAD = 4
ERR_NO_MOVE, ERR_TOO_LONG = 1, 2
#: castle tables with at most this many castles get their points from the engine's table (3^n rows,
#: :func:`guyenne_explore.engine.scoring.points_rows`); beyond, :func:`castle_points` walks the runs
MAX_TABLED_CASTLES = 10


def round_width(n_castles: int, n_kinds: int) -> int:
    """Columns of a round row."""
    return ROUND_HEAD + n_castles + 8 * n_kinds
