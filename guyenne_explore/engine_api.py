"""The engine as solvers and samplers use it: one import, every name documented here.

The analysis layer (exact enumeration, the compiled fast path, sampling, the
policies) imports the engine through this module only, so what it may rely on is
listed in one place and the engine's other names stay free to change.  Everything
here asks the engine; nothing restates a rule.

Positions and rules
    :class:`Position` (with its methods: ``legal_moves``, ``apply``, ``chance_outcomes``,
    ``apply_outcome``, ``sample_outcome``, ``result``, ``view``), :class:`Side`, :class:`Draw`,
    :class:`Rules` (and the choices and bounds of its parameters: :data:`BOUNDS`, :data:`MAX_PER_VALUE`),
    :data:`PRESETS`, :data:`SIDES`, the cards (:class:`Cards`, :data:`EMPTY`,
    :data:`HERO`, :data:`KINDS`, :func:`value_of`), moves (:class:`Move`, :class:`Choice`,
    :class:`LegalMoves`, :func:`placement_choice`: a placement's limits from a hand, RULES.md 3), the decision
    and chance points and the controls (the enums :class:`Point`, :class:`Control`, :class:`SideIndex` and
    their members by name), :class:`Problem` (what a
    position's warnings are: code, field and message).
Applying a known-legal move
    :func:`apply_legal`: the hot path's apply, for a move taken from ``legal_moves`` or a view's.
Tables for fast paths
    :func:`battle_winner`, :func:`battle_of`, :func:`member_battle` (a team's member at a battle, RULES.md 8),
    :func:`defence_holds` (RULES.md 4),
    :func:`side_outcomes` (a side's draws with their probabilities, RULES.md 5), :func:`side_draws`
    (both sides' at a chance point, one side at a time),
    :func:`table_result` and :func:`points_rows` (scores of a final table, RULES.md 6),
    :data:`ENDINGS`, :func:`ending` (how a game ended), :func:`sweeper` (the side holding every castle
    of a table, the sweep end check, RULES.md 5 step 1), :func:`holds_too_few` and
    :func:`cannot_play_on` (the one-card end check after the draw, RULES.md 5 step 4),
    :func:`cannot_reshuffle_again` (a side whose discard is out of the game for good, RULES.md 5
    step 3), :func:`hand_size_after_draw` (a hand's size after the draw, whichever cards come),
    :func:`ending_without_reshuffle` (how such an endgame ended on its final table).
Playing
    :func:`play` with :class:`Hooks` (the one game loop), :class:`Policy`, :class:`Uniform`,
    :data:`UNIFORM`, :func:`concede_move`, :class:`SideView`, :class:`PublicRecord`, :func:`determinise`
    (a full position drawn from a view and its record, for searches),
    :class:`GameRecord`, :class:`Event`, :func:`play_game` (a seeded game recorded).
"""

from __future__ import annotations

from .cards import EMPTY, HERO, KINDS, Cards, value_of
from .determinise import determinise
from .drawing import (cannot_reshuffle_again, ending_without_reshuffle, hand_size_after_draw, side_draws,
                      side_outcomes)
from .flow import apply_move, battle_of, battle_winner, defence_holds
from .turn import member_battle
from .game_loop import GameTooLong, Hooks, play
from .moves import Choice, IllegalMove, LegalMoves, Move, placement_choice
from .policy import UNIFORM, Policy, Uniform, concede_move
from .position import Position
from .problems import Problem
from .record import Event, GameRecord, play_game, rules_fingerprint
from .rules import ADJACENCIES, BOUNDS, MAX_PER_VALUE, PRESETS, REMOVALS, RESHUFFLES, SCORINGS, SIDES, Rules, RulesError
from .scoring import (ENDINGS, EXHAUSTED, OUT_OF_CARDS, SWEEP, Ending, Result, cannot_play_on, ending,
                      holds_too_few, points_rows, sweeper, table_result)
from .state import (CONCEDE_CHOICE, DEAL, DECISIONS, DRAW, END, ENGLISH, FRENCH, NEUTRAL, OPEN_FIRST, OPEN_SECOND,
                    PLACEMENTS, REMOVE_CHOICE, RESPOND_FIRST, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT,
                    Control, Draw, Placed, Point, Side, SideIndex)
from .view import PublicRecord, SideView

__all__ = [
    # positions, rules, cards, moves
    "Position", "Side", "Placed", "Draw", "Rules", "RulesError", "PRESETS", "SIDES", "REMOVALS", "SCORINGS",
    "RESHUFFLES", "ADJACENCIES", "BOUNDS", "MAX_PER_VALUE", "Cards", "EMPTY", "HERO", "KINDS", "value_of",
    "Move", "Choice", "LegalMoves", "IllegalMove", "Problem", "placement_choice",
    # points of a game and controls
    "SETUP_DISCARD", "TEAM_SPLIT", "TEAM_ORDER", "OPEN_FIRST", "RESPOND_FIRST", "OPEN_SECOND", "RESPOND_SECOND",
    "CONCEDE_CHOICE", "REMOVE_CHOICE", "DECISIONS", "PLACEMENTS", "DEAL", "DRAW", "END", "ENGLISH", "FRENCH", "NEUTRAL",
    "Point", "Control", "SideIndex",
    # applying
    "apply_legal",
    # tables for fast paths
    "battle_winner", "battle_of", "member_battle", "defence_holds", "side_draws", "side_outcomes", "table_result", "points_rows",
    "Result", "Ending", "ENDINGS", "SWEEP", "EXHAUSTED", "OUT_OF_CARDS", "ending", "sweeper",
    "holds_too_few", "cannot_play_on", "cannot_reshuffle_again", "hand_size_after_draw", "ending_without_reshuffle",
    # playing
    "play", "Hooks", "GameTooLong", "Policy", "Uniform", "UNIFORM", "concede_move", "SideView", "PublicRecord", "determinise",
    "GameRecord", "Event", "play_game", "rules_fingerprint",
]


def apply_legal(p: Position, move: Move) -> Position:
    """The position after ``move``, which the caller took from ``p.legal_moves`` (or the acting
    side's view of them): the engine applies it without checking its legality again, the
    analysis' hot path.  Any other move must go through :meth:`Position.apply`."""
    return apply_move(p, move, checked=False)
