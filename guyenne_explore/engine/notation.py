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

A position is read only in this one form (single spaces, upper-case letters, no leading zeros,
cards strongest first, the rules JSON as written here), so a notation that loads saves as the same
text; another spelling is refused with the form to write instead.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .cards import SYMBOLS, CardError, Cards, kind_of
from .positions_io import PositionError, parse_json, text_of
from .problems import Problem, problem, shown
from .rules import Rules, RulesError
from .state import BATTLES, NEUTRAL, POINTS, Placed, Point, Side, SideIndex, new_position
from .validation import position_problems, position_warnings

if TYPE_CHECKING:  # pragma: no cover
    from .state import State

_LETTER = {NEUTRAL: ".", 0: "E", 1: "F"}
_CONTROL = {v: k for k, v in _LETTER.items()}


def _side(s: Side) -> str:
    hands = "+".join(str(h) for h in s.hands)
    deck = "[" + "".join(SYMBOLS[k] for k in s.deck_order) + "]" if s.deck_order is not None else str(s.deck)
    text = f"{hands}/{deck}/{s.discard}/{s.removed}/{s.exhaustions}"
    if s.is_team:
        text += f"/{s.drawer}/{'-' if s.order is None else s.order}"
    return text


def write_notation(p: State) -> str:
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


def _number(text: str, what: str, low: int = 0, high: int = 10**9) -> int:
    """A small whole number written in decimal digits (no sign, no huge digit strings)."""
    if not text.isascii() or not text.isdigit() or len(text) > 10 or not low <= int(text) <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {shown(text)}")
    return int(text)


def _read_side(text: str, where: str) -> Side:
    fields = text.split("/")
    if len(fields) not in (5, 7):
        raise ValueError(f"{where} needs HAND/DECK/DISCARD/REMOVED/EXHAUSTIONS (and /DRAWER/ORDER for a team)")
    hands = tuple(Cards.parse(h) for h in fields[0].split("+"))
    if len(hands) > 2:
        raise ValueError(f"{where} has {len(hands)} hands: a side has one, or two for a team")
    deck_text = fields[1]
    order = None
    if deck_text.startswith("[") or deck_text.endswith("]"):
        if not (deck_text.startswith("[") and deck_text.endswith("]") and len(deck_text) >= 2):
            raise ValueError(f"{where}: a stacked deck is written in brackets, top card first, like [5322]")
        order = tuple(kind_of(c) for c in deck_text[1:-1])
        deck = Cards.parse(deck_text[1:-1])
        order = order or None
    else:
        deck = Cards.parse(deck_text)
    drawer, member_order = 0, None
    if len(fields) == 7:
        drawer = _number(fields[5], f"{where}'s drawer", 0, 1)
        member_order = None if fields[6] == "-" else _number(fields[6], f"{where}'s order", 0, 1)
    return Side(hands=hands, deck=deck, discard=Cards.parse(fields[2]), removed=Cards.parse(fields[3]),
                exhaustions=_number(fields[4], f"{where}'s exhaustions"), deck_order=order,
                drawer=drawer, order=member_order)


def parse_notation(text: str | bytes) -> State:
    """Read a position; a PositionError names what is wrong (and nothing else is ever raised).

    The notation is read only in the one form :func:`write_notation` writes (a line end after it,
    as in a file, aside), so a position that loads saves as the text it was read from."""
    line = _without_line_end(text_of(text))
    parts = line.split()
    if len(parts) < 7:
        raise PositionError([problem("notation.fields", "", count=len(parts))])
    if line != " ".join(parts):
        raise PositionError([problem("notation.spacing", "")])
    p = _read(parts)
    problems = position_problems(p)
    if problems:
        raise PositionError(problems, position_warnings(p))
    problems = _unwritten_forms(parts, write_notation(p).split(" "))
    if problems:
        raise PositionError(problems)
    return p


def _without_line_end(text: str) -> str:
    """The text without the one line break that ends a line of a file (``\n`` or ``\r\n``)."""
    for end in ("\r\n", "\n"):
        if text.endswith(end):
            return text[:-len(end)]
    return text


def _unwritten_forms(read: list[str], written: list[str]) -> list[Problem]:
    """A problem for each field read in another form than the one it is written in (lower-case
    letters, ``01`` for a round, cards out of order...), with the form to write instead."""
    out = []
    for i, (mine, theirs) in enumerate(zip(read, written)):
        if mine != theirs:
            field = _FIELD_NAMES[i] if i < len(_FIELD_NAMES) else "placed." + theirs.split(":", 1)[0]
            out.append(problem("notation.form", field, value=mine, form=theirs))
    if not out and len(read) != len(written):
        out.append(problem("notation.form", "placed", value=" ".join(read[7:]), form=" ".join(written[7:])))
    return out


#: The field of each position of the notation, as its problems name them.
_FIELD_NAMES = ("rules", "castles", "round", "first", "to_play", "sides.english", "sides.french")


def _read(parts: list[str]) -> State:
    """The position the fields say, unchecked; a PositionError names a field that cannot be read."""
    rules_text = parts[0]
    try:
        rules = Rules.from_json(parse_json(rules_text, "rules") if rules_text.startswith("{") else rules_text)
    except RulesError as exc:
        raise PositionError(exc.problems) from None
    field = ""
    try:
        field = "castles"
        if not all(c in "EF." for c in parts[1].upper()):
            raise ValueError(f"castles {shown(parts[1])}: one letter per castle, E, F or .")
        castles = tuple(_CONTROL[c] for c in parts[1].upper())
        field = "round"
        round_ = _number(parts[2], "the round")
        field = "first"
        if parts[3].upper() not in ("E", "F"):
            raise ValueError(f"first player {shown(parts[3])}: E or F")
        first = SideIndex("EF".index(parts[3].upper()))
        field = "to_play"
        point, at, battle_text = parts[4].partition("@")
        if point not in POINTS:
            raise ValueError(f"decision point {shown(point)}: one of {', '.join(POINTS)}")
        point = Point(point)
        if at and battle_text not in BATTLES:
            raise ValueError(f"{shown(parts[4])}: the battle after @ is X or Y")
        battle = BATTLES.index(battle_text) if at else None
        field = "sides.english"
        english = _read_side(parts[5], "english")
        field = "sides.french"
        french = _read_side(parts[6], "french")
        field = "placed"
        xy: list[int | None] = [None, None]
        cards = [[Cards(), Cards()], [Cards(), Cards()]]
        for extra in parts[7:]:
            pieces = extra.split(":")
            if len(pieces) != 4 or pieces[0] not in BATTLES:
                raise ValueError(f"{shown(extra)}: placed cards are written X:CASTLE:ENGLISH:FRENCH")
            b = BATTLES.index(pieces[0])
            field = f"placed.{pieces[0]}"
            if xy[b] is not None:
                raise PositionError([problem("placed.duplicate", field, battle=pieces[0])])
            xy[b] = _number(pieces[1], f"castle {pieces[0]}")
            cards[0][b], cards[1][b] = Cards.parse(pieces[2]), Cards.parse(pieces[3])
        placed = Placed(xy[0], xy[1], ((cards[0][0], cards[0][1]), (cards[1][0], cards[1][1])))
        return new_position(rules, castles, round_, first, point, (english, french), placed, battle)
    except (ValueError, CardError) as exc:
        if isinstance(exc, PositionError):
            raise
        raise PositionError([problem("notation.unreadable", field, detail=str(exc))]) from None
