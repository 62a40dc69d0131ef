"""The engine: the rules of Guyenne as code, and its one door.

The floors above (the analysis, the render, the widgets and the command line) import the
engine through this package only (an import-linter contract checks it), so what they may
rely on is listed in one place and the engine's modules stay free to change.  Everything
here asks the engine; nothing restates a rule.  The engine imports no plotting, widget,
notebook or compiler library::

    from guyenne_explore.engine import Position
    p = Position.from_json(open("position.json").read())
    print(len(p.legal_moves), p.why_illegal("3:H5"))

Positions and rules
    :class:`Position` (with its methods: ``legal_moves``, ``apply``, ``chance_outcomes``,
    ``apply_outcome``, ``sample_outcome``, ``result``, ``view``, ``under``: the position under other
    rules), :class:`Side`, :class:`Draw`,
    :class:`Rules` (and the choices and bounds of its parameters: :data:`BOUNDS`, :data:`MAX_PER_VALUE`),
    the rules parameters as data (:class:`Parameter`, :data:`PARAMETERS` in RULES.md 10's order,
    :data:`PARAMETERS_BY_NAME`, their kinds :data:`NUMBER`, :data:`CHOICE`, :data:`FLAG`, :data:`COUNTS`, and
    :class:`When` a change of one takes effect on a game under way),
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
    :func:`table_result` and :func:`points_rows` (scores of a final table, RULES.md 6), :func:`side_score` (a
    finished game's score for one side: a win 1, a draw a half, a loss 0),
    :data:`ENDINGS`, :func:`ending` (how a game ended), :func:`sweeper` (the side holding every castle
    of a table, the sweep end check, RULES.md 5 step 1), :func:`holds_too_few` and
    :func:`cannot_play_on` (the one-card end check after the draw, RULES.md 5 step 4),
    :func:`cannot_reshuffle_again` (a side whose discard is out of the game for good, RULES.md 5
    step 3), :func:`hand_size_after_draw` (a hand's size after the draw, whichever cards come),
    :func:`ending_without_reshuffle` (how such an endgame ended on its final table).
Playing
    :func:`play` with :class:`Hooks` (the one game loop), :func:`begin_game` and :func:`game_members` (what plays
    a game for a policy that draws something once a game), :class:`Policy`, :class:`Uniform`,
    :data:`UNIFORM`, :func:`concede_move`, :class:`SideView`, :class:`PublicRecord`, :func:`determinise`
    (a full position drawn from a view and its record, for searches),
    :class:`GameRecord`, :class:`Event`, :func:`play_game` (a seeded game recorded).
Files and records
    :meth:`Position.load`, :func:`save_position`, :func:`parse_json`, :func:`position_from_json`,
    :class:`PositionError` (a position file's problems), :data:`MAX_TEXT`; a played game's header
    (:class:`RecordHeader`, :class:`Seat`, :class:`Undo`, :func:`seats_for`, :func:`read_records`,
    :func:`weights_fingerprint`, :class:`RecordError`, :func:`uniform_choice`).
For drawing and explaining
    :data:`SYMBOLS`, :func:`kind_of`, :class:`CardError`, :func:`defender_at`, :data:`BATTLES`,
    :data:`POINTS`, the score's terms (:func:`score_terms`, :class:`ScoreTerm`, :data:`RUN`,
    :data:`LONGEST_RUN`, :data:`UNSPENT`, :func:`longest_runs`, :func:`tie_break`), what a side sees
    (:func:`side_view`, :func:`revealed`), :func:`as_problem`, :class:`ProblemsError`,
    :data:`PRESET_NAMES`, :func:`evolve` and :func:`replace_side` (the builder's edits),
    :func:`set_svg_renderer` (how a position draws itself in a notebook).
"""

from __future__ import annotations

from .cards import EMPTY, HERO, KINDS, SYMBOLS, CardError, Cards, kind_of, value_of
from .determinisation import determinise
from .drawing import (cannot_reshuffle_again, ending_without_reshuffle, hand_size_after_draw, side_draws,
                      side_outcomes)
from .flow import apply_move, battle_of, battle_winner, defence_holds, defender_at
from .turn import member_battle
from .game_loop import GameTooLong, Hooks, begin_game, game_members, play
from .moves import Choice, IllegalMove, LegalMoves, Move, placement_choice
from .parameters import CHOICE, COUNTS, FLAG, NUMBER, PARAMETERS, PARAMETERS_BY_NAME, Parameter, When
from .policy import UNIFORM, Policy, Uniform, concede_move
from .position import Position, set_svg_renderer
from .positions_io import MAX_TEXT, PositionError, parse_json, position_from_json, save_position
from .problems import Problem, ProblemsError, as_problem
from .record import (Event, GameRecord, RecordError, RecordHeader, Seat, Undo, play_game, read_records, rules_fingerprint,
                     seats_for, uniform_choice, weights_fingerprint)
from .rules import ADJACENCIES, BOUNDS, MAX_PER_VALUE, PRESET_NAMES, PRESETS, REMOVALS, RESHUFFLES, SCORINGS, SIDES, Rules, RulesError
from .scoring import (ENDINGS, EXHAUSTED, LONGEST_RUN, OUT_OF_CARDS, RUN, SWEEP, UNSPENT, Ending, Result, ScoreTerm,
                      cannot_play_on, ending, holds_too_few, longest_runs, points_rows, score_terms, side_score, sweeper,
                      table_result, tie_break)
from .state import (BATTLES, POINTS, CONCEDE_CHOICE, DEAL, DECISIONS, DRAW, END, ENGLISH, FRENCH, NEUTRAL, OPEN_FIRST, OPEN_SECOND,
                    PLACEMENTS, REMOVE_CHOICE, RESPOND_FIRST, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT,
                    Control, Draw, Placed, Point, Side, SideIndex, evolve, replace_side)
from .view import PublicRecord, SideView, revealed, side_view

__all__ = [
    # positions, rules, cards, moves
    "Position", "Side", "Placed", "Draw", "Rules", "RulesError", "PRESETS", "SIDES", "REMOVALS", "SCORINGS",
    "RESHUFFLES", "ADJACENCIES", "BOUNDS", "MAX_PER_VALUE", "Cards", "EMPTY", "HERO", "KINDS", "value_of",
    "Move", "Choice", "LegalMoves", "IllegalMove", "Problem", "placement_choice",
    # the rules parameters as data
    "Parameter", "PARAMETERS", "PARAMETERS_BY_NAME", "NUMBER", "CHOICE", "FLAG", "COUNTS", "When",
    # points of a game and controls
    "SETUP_DISCARD", "TEAM_SPLIT", "TEAM_ORDER", "OPEN_FIRST", "RESPOND_FIRST", "OPEN_SECOND", "RESPOND_SECOND",
    "CONCEDE_CHOICE", "REMOVE_CHOICE", "DECISIONS", "PLACEMENTS", "DEAL", "DRAW", "END", "ENGLISH", "FRENCH", "NEUTRAL",
    "Point", "Control", "SideIndex",
    # applying
    "apply_legal",
    # tables for fast paths
    "battle_winner", "battle_of", "member_battle", "defence_holds", "side_draws", "side_outcomes", "table_result", "points_rows",
    "Result", "side_score", "Ending", "ENDINGS", "SWEEP", "EXHAUSTED", "OUT_OF_CARDS", "ending", "sweeper",
    "holds_too_few", "cannot_play_on", "cannot_reshuffle_again", "hand_size_after_draw", "ending_without_reshuffle",
    # playing
    "play", "begin_game", "game_members", "Hooks", "GameTooLong",
    "Policy", "Uniform", "UNIFORM", "concede_move", "SideView", "PublicRecord", "determinise",
    "GameRecord", "Event", "play_game", "rules_fingerprint",
    # files and records
    "save_position", "parse_json", "position_from_json", "PositionError", "MAX_TEXT",
    "RecordHeader", "Seat", "Undo", "seats_for", "read_records", "weights_fingerprint", "RecordError", "uniform_choice",
    # for drawing and explaining
    "SYMBOLS", "kind_of", "CardError", "defender_at", "BATTLES", "POINTS", "score_terms", "ScoreTerm", "RUN", "LONGEST_RUN",
    "UNSPENT", "longest_runs", "tie_break", "side_view", "revealed", "as_problem", "ProblemsError", "PRESET_NAMES",
    "evolve", "replace_side", "set_svg_renderer",
]


def apply_legal(p: Position, move: Move) -> Position:
    """The position after ``move``, which the caller took from ``p.legal_moves`` (or the acting
    side's view of them): the engine applies it without checking its legality again, the
    analysis' hot path.  Any other move must go through :meth:`Position.apply`."""
    return apply_move(p, move, checked=False)
