"""A one-line text notation for positions that round-trips (like FEN for chess).

Fields, separated by single spaces::

    RULES CASTLES ROUND FIRST TO_PLAY ENGLISH FRENCH [PLACED]

- RULES: a preset name, or the rules JSON with no spaces (``{"preset":"advanced","hand_size":7}``);
- CASTLES: one letter per castle, ``E`` english, ``F`` french, ``.`` neutral;
- ROUND: a number; FIRST: ``E`` or ``F``; TO_PLAY: the decision point, with ``@X`` or
  ``@Y`` at ``concede_choice`` and ``remove_choice``;
- a side: ``HAND/DECK/DISCARD/REMOVED/EXHAUSTIONS``, cards strongest first and ``-`` for none;
  a stacked deck is written in brackets, top card first (``[5322]``); a team writes its hands
  as ``HAND0+HAND1`` and adds ``/DRAWER/ORDER`` (``ORDER`` ``-`` while undecided);
- PLACED, during a round: ``X:C:ENGLISH:FRENCH`` then ``Y:C:ENGLISH:FRENCH`` (C a castle index).

Example: ``advanced .EF.E. 10 E respond_second 53/-/2222/-/2 2/-/5422/-/2 X:2:H:2 Y:0:-:4``
"""

from __future__ import annotations

import json

from .cards import SYMBOLS, CardError, Cards, kind_of
from .position import BATTLES, NEUTRAL, Placed, Position, Side
from .positions_io import PositionError
from .rules import Rules, RulesError
from .validation import position_problems

_LETTER = {NEUTRAL: ".", 0: "E", 1: "F"}
_CONTROL = {v: k for k, v in _LETTER.items()}


def _side(s: Side) -> str:
    hands = "+".join(str(h) for h in s.hands)
    deck = "[" + "".join(SYMBOLS[k] for k in s.deck_order) + "]" if s.deck_order is not None else str(s.deck)
    text = f"{hands}/{deck}/{s.discard}/{s.removed}/{s.exhaustions}"
    if s.is_team:
        text += f"/{s.drawer}/{'-' if s.order is None else s.order}"
    return text


def write_notation(p: Position) -> str:
    spec = p.rules.to_json()
    rules = spec if isinstance(spec, str) else json.dumps(spec, separators=(",", ":"))
    point = p.to_play + (f"@{BATTLES[p.battle]}" if p.battle is not None else "")
    parts = [rules, "".join(_LETTER[c] for c in p.castles), str(p.round), "EF"[p.first], point,
             _side(p.sides[0]), _side(p.sides[1])]
    pl = p.placed
    for b, castle in enumerate((pl.x, pl.y)):
        if castle is not None:
            parts.append(f"{BATTLES[b]}:{castle}:{pl.at(0, b)}:{pl.at(1, b)}")
    return " ".join(parts)


def _read_side(text: str, where: str) -> Side:
    fields = text.split("/")
    if len(fields) not in (5, 7):
        raise ValueError(f"{where} needs HAND/DECK/DISCARD/REMOVED/EXHAUSTIONS (and /DRAWER/ORDER for a team)")
    hands = tuple(Cards.parse(h) for h in fields[0].split("+"))
    deck_text = fields[1]
    order = None
    if deck_text.startswith("["):
        order = tuple(kind_of(c) for c in deck_text.strip("[]"))
        deck = Cards.parse(deck_text.strip("[]"))
    else:
        deck = Cards.parse(deck_text)
    side = Side(hands=hands, deck=deck, discard=Cards.parse(fields[2]), removed=Cards.parse(fields[3]),
                exhaustions=int(fields[4]), deck_order=order)
    if len(fields) == 7:
        side = Side(**{**side.__dict__, "drawer": int(fields[5]),
                       "order": None if fields[6] == "-" else int(fields[6])})
    return side


def parse_notation(text: str) -> Position:
    """Read a position; a PositionError names what is wrong."""
    parts = text.strip().split()
    if len(parts) < 7:
        raise PositionError([f"a position notation has at least 7 fields separated by spaces, not {len(parts)}:"
                             " RULES CASTLES ROUND FIRST TO_PLAY ENGLISH FRENCH [PLACED]"])
    try:
        rules_text = parts[0]
        rules = Rules.from_json(json.loads(rules_text) if rules_text.startswith("{") else rules_text)
        castles = tuple(_CONTROL[c] for c in parts[1].upper()) if all(c in "EF." for c in parts[1].upper()) else None
        if castles is None:
            raise ValueError(f"castles {parts[1]!r}: one letter per castle, E, F or .")
        first = "EF".index(parts[3].upper()) if parts[3].upper() in ("E", "F") else None
        if first is None:
            raise ValueError(f"first player {parts[3]!r}: E or F")
        point, _, battle_text = parts[4].partition("@")
        battle = BATTLES.index(battle_text) if battle_text else None
        sides = (_read_side(parts[5], "english"), _read_side(parts[6], "french"))
        xy: list[int | None] = [None, None]
        cards = [[Cards(), Cards()], [Cards(), Cards()]]
        for extra in parts[7:]:
            name, castle, eng, fr = extra.split(":")
            b = BATTLES.index(name)
            xy[b] = int(castle)
            cards[0][b], cards[1][b] = Cards.parse(eng), Cards.parse(fr)
        placed = Placed(xy[0], xy[1], ((cards[0][0], cards[0][1]), (cards[1][0], cards[1][1])))
        p = Position(rules, castles, int(parts[2]), first, point, sides, placed, battle)
    except RulesError as exc:
        raise PositionError([f"rules: {x}" for x in exc.problems]) from None
    except (ValueError, CardError, IndexError) as exc:
        raise PositionError([f"cannot read the notation: {exc}"]) from None
    problems = position_problems(p)
    if problems:
        raise PositionError(problems)
    return p
