"""guyenne_explore: explore the rules of Guyenne, a 2-player bluff and hand-management card game.

The engine (rules, positions, legal moves, chance outcomes) is importable without
Jupyter or plotting libraries::

    from guyenne_explore import Position, Rules
    p = Position.from_json(open("position.json").read())
    print(len(p.legal_moves), p.why_illegal("3:H5"))
"""

from .cards import Cards
from .moves import IllegalMove, LegalMoves, Move
from .position import Draw, Position, Side, Placed
from .positions_io import PositionError, load_position, save_position
from .rules import PRESETS, Rules, RulesError
from .scoring import Result

__all__ = ["Cards", "Draw", "IllegalMove", "LegalMoves", "Move", "Placed", "Position", "PositionError",
           "PRESETS", "Result", "Rules", "RulesError", "Side", "load_position", "save_position"]
__version__ = "0.1.0"
