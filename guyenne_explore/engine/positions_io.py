"""Positions as JSON (RULES.md section 10): load with every problem named, save, round-trip.

Loading never fails from deep inside: every field is read defensively, each
problem is collected with where it is, and a :class:`PositionError` lists them
all.  A position that loads is valid; its warnings are on ``error.warnings``
or ``Position.warnings()``.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Iterator

from .cards import EMPTY, SYMBOLS, CardError, Cards, kind_of
from .problems import Problem, ProblemsError, problem
from .rules import SIDES, Rules, RulesError
from .state import (BATTLES, CONCEDE_CHOICE, CONTROL_NAMES, ENGLISH, FRENCH, NEUTRAL, POINTS,
                    REMOVE_CHOICE, Placed, Point, Side, SideIndex, new_position)
from .validation import position_problems, position_warnings

if TYPE_CHECKING:  # pragma: no cover
    from .state import State

_CONTROL = {"neutral": NEUTRAL, "english": ENGLISH, "french": FRENCH}
_SYMBOL_KIND = {symbol: kind for kind, symbol in enumerate(SYMBOLS)}
#: The most characters a position text (JSON or notation) may hold: a position is about
#: 1 kB, so this refuses a wrong or hostile file at once instead of reading it all.
MAX_TEXT = 100_000
_FIELDS = ("rules", "castles", "round", "first", "to_play", "sides", "placed", "remove_choice", "concede_choice")
_SIDE_FIELDS = ("hand", "members", "deck", "discard", "removed", "exhaustions", "stacked", "drawer", "order")


class PositionError(ProblemsError):
    """A position that cannot be used; ``problems`` names every problem found (as :class:`Problem`).

    ``draft`` is the position as read when its parts could be read (its rules, its decision point, both
    sides), problems and all: a builder draws it while a person fixes it, and nothing plays from it."""

    def __init__(self, problems: list[Problem], warnings: list[Problem] | None = None,
                 draft: State | None = None) -> None:
        super().__init__(problems, warnings)
        self.draft = draft

    def describe(self) -> str:
        return "invalid position:\n- " + "\n- ".join(self.lines())


def text_of(data: Any) -> str:
    """The text of a position given as ``str`` or ``bytes`` (UTF-8), within :data:`MAX_TEXT`."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > 4 * MAX_TEXT:
            raise PositionError([problem("input.too_large", "", size=len(data), limit=MAX_TEXT)])
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PositionError([problem("input.not_utf8", "", detail=f"byte {exc.start}")]) from None
    if not isinstance(data, str):
        raise PositionError([problem("input.not_text", "", kind=type(data).__name__)])
    if len(data) > MAX_TEXT:
        raise PositionError([problem("input.too_large", "", size=len(data), limit=MAX_TEXT)])
    return data


def parse_json(text: Any, field: str = "") -> Any:
    """JSON text to values; every way it can fail (syntax, depth, number size) is a PositionError."""
    text = text_of(text)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise PositionError([problem("json.invalid", field,
                                     detail=f"{exc.msg} at line {exc.lineno}, column {exc.colno}")]) from None
    except RecursionError:
        raise PositionError([problem("json.too_deep", field)]) from None
    except ValueError as exc:  # a number too long to convert, or NaN/Infinity
        detail = "a number has too many digits" if "digits" in str(exc) else str(exc)[:120]
        raise PositionError([problem("json.invalid", field, detail=detail)]) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a position can hold")


class _Reader:
    """Collects problems while reading a JSON object, so one pass names them all."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, code: str, field: str, **params: Any) -> None:
        self.problems.append(problem(code, field, **params))

    def cards(self, value: Any, where: str) -> Cards:
        if value is None:
            return EMPTY
        if not isinstance(value, list):
            self.add("value.not_list", where, label=where, example='["H", "5", "2"]', value=value)
            return EMPTY
        counts = [0] * 10
        for item in value:
            if isinstance(item, str) and item in _SYMBOL_KIND:
                counts[_SYMBOL_KIND[item]] += 1
            else:  # "h", " 5" or 5 would load but save as "H" and "5": one spelling, so it saves as read
                self.add("cards.symbol", where, value=item)
        return Cards(counts)

    def integer(self, value: Any, where: str, default: int = 0) -> int:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.add("value.not_whole", where, label=where, value=value)
            return default
        if abs(value) > 10**9:  # no field of a position is that large: the range is named by the checks
            self.add("value.too_large", where, label=where, high=10**9, why="", value=value)
            return default
        return value

    def side_name(self, value: Any, where: str) -> int:
        if isinstance(value, str) and value in SIDES:
            return SideIndex(SIDES.index(value))
        self.add("value.choice", where, label=where, choices="english, french", value=value)
        return ENGLISH

    def unknown(self, data: dict[Any, Any], known: tuple[str, ...], where: str) -> None:
        for key in sorted((k for k in data if k not in known), key=repr):
            self.add("json.unknown_field", f"{where}{key}" if isinstance(key, str) else where, key=key)


def position_from_json(data: str | bytes | dict[str, Any]) -> State:
    """Read a position from JSON text, UTF-8 bytes or parsed values; a PositionError names every problem.

    Nothing else is ever raised: each field is read defensively, and the position is
    checked (:func:`.validation.position_problems`) only once its parts are readable."""
    if isinstance(data, (str, bytes, bytearray)):
        data = parse_json(data)
    if not isinstance(data, dict):
        raise PositionError([problem("json.not_object", "", kind=type(data).__name__)])
    rd = _Reader()
    rules: Rules | None
    try:
        rules = Rules.from_json(data.get("rules", "base"))
    except RulesError as exc:
        rd.problems += exc.problems
        rules = None
    rd.unknown(data, _FIELDS, "")

    castles_in = data.get("castles")
    castles: list[int] = []
    if castles_in is None:
        rd.add("json.missing", "castles", key="castles", hint='a list like ["neutral", "english", ...], one per castle')
    elif not isinstance(castles_in, list):
        rd.add("value.not_list", "castles", label="castles",
               example='["neutral", "english", "french", ...] (one per castle)', value=castles_in)
    else:
        for i, c in enumerate(castles_in):
            if not isinstance(c, str) or c not in _CONTROL:
                rd.add("position.castle_control", f"castles[{i}]", index=i, value=c)
            castles.append(_CONTROL.get(c, NEUTRAL) if isinstance(c, str) else NEUTRAL)
    if data.get("round") is None:  # no default (nor null): a position in mid-game would silently become round 1
        rd.add("json.missing", "round", key="round", hint="the number of the round, 1 for the first")
    round_ = rd.integer(data.get("round"), "round", 1)
    first = rd.side_name(data.get("first", rules.first_side if rules else "english"), "first")
    to_play = data.get("to_play")
    if to_play is None:
        rd.add("json.missing", "to_play", key="to_play", hint="the decision point: one of " + ", ".join(POINTS))
    elif not isinstance(to_play, str) or to_play not in POINTS:
        rd.add("position.unknown_point", "to_play", value=to_play, choices=", ".join(POINTS))
    to_play = Point(to_play) if to_play in POINTS else None

    sides_in = data.get("sides")
    sides_given = isinstance(sides_in, dict)
    sides: list[Side] = []
    if sides_in is None:
        rd.add("json.missing", "sides", key="sides", hint='an object {"english": {...}, "french": {...}}')
        sides_in = {}
    elif not isinstance(sides_in, dict):
        rd.add("value.not_object", "sides", label="sides", example='{"english": {...}, "french": {...}}',
               value=sides_in)
        sides_in = {}
    for i, name in enumerate(SIDES):
        members = rules.members[i] if rules else 1
        sides.append(_read_side(rd, sides_in.get(name), name, members) if sides_given else
                     Side(hands=(EMPTY,) * members))  # no sides at all: said once above
    for extra in sorted((k for k in sides_in if k not in SIDES), key=repr):
        rd.add("position.unknown_side", "sides", value=extra)

    placed, battle = _read_placed(rd, data, to_play)
    if rules is None or to_play is None or not all(isinstance(sides_in.get(n), dict) for n in SIDES):
        raise PositionError(rd.problems)
    p = new_position(rules, tuple(castles), round_, first, to_play, (sides[0], sides[1]), placed, battle)
    _remove_side_problem(rd, p, data.get("remove_choice"))
    problems = rd.problems + [m for m in position_problems(p) if m not in rd.problems]
    if problems:
        raise PositionError(problems, position_warnings(p) if not rd.problems else [], draft=p)
    unkept = _unkept_problems(data, position_to_json(p))
    if unkept:
        raise PositionError(unkept, position_warnings(p), draft=p)
    return p


def _unkept_problems(data: dict[str, Any], saved: dict[str, Any]) -> list[Problem]:
    """A problem for each field given that the save of the position leaves out (a ``placed`` that places
    nothing, ``"stacked": false``, a field set to null...): a position saves as it was read, so a field
    that would not come back is refused, naming it, rather than dropped.  The save is the one statement
    of what a position keeps; the rules are compared by value (:meth:`.Rules.to_json` writes a preset's
    own values as its name), and a team's ``hand`` is checked against its members, not kept."""
    kept = set(_paths(saved))
    return [problem("json.not_kept", path, key=path) for path in _paths(data, kept)
            if path not in kept and not _team_hand(data, path)]


def _paths(data: Any, kept: set[str] | None = None, where: str = "") -> Iterator[str]:
    """The path of every field of ``data`` (``sides.english.stacked``, ``sides.english.members[0].hand``),
    not below a path missing from ``kept`` (a field left out is named once, not with its parts) nor
    inside the rules."""
    if isinstance(data, dict):
        for key, value in data.items():
            path = f"{where}.{key}" if where else str(key)
            yield path
            if path != "rules" and (kept is None or path in kept):
                yield from _paths(value, kept, path)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, kept, f"{where}[{i}]")


def _team_hand(data: dict[str, Any], path: str) -> bool:
    """Whether ``path`` is a team side's ``hand`` given beside its ``members`` (checked, not saved); ``data``
    is the JSON of a position that loaded, so its sides are objects."""
    return any(path == f"sides.{name}.hand" and "members" in data["sides"][name] for name in SIDES)


def _remove_side_problem(rd: _Reader, p: State, spec: Any) -> None:
    """A remove_choice that names a side must name the loser of that battle."""
    if p.to_play != REMOVE_CHOICE or not isinstance(spec, dict) or p.battle not in (0, 1):
        return
    said = spec.get("side")  # optional: the loser follows from the table
    castle = p.placed.castle(p.battle)
    if said is None:
        return
    if castle is None or not 0 <= castle < len(p.castles) or p.castles[castle] == NEUTRAL:
        return
    loser = 1 - p.castles[castle]
    if not isinstance(said, str) or said not in SIDES:
        rd.add("value.choice", "remove_choice.side", label="remove_choice.side", choices="english, french",
               value=said)
    elif SIDES.index(said) != loser:
        rd.add("point.remove_side", "remove_choice.side", value=said, battle=BATTLES[p.battle],
               winner=SIDES[p.castles[castle]], side=SIDES[loser])


def _read_side(rd: _Reader, d: Any, name: str, members: int) -> Side:
    where = f"sides.{name}"
    if not isinstance(d, dict):
        rd.add("position.missing_side", where, name=name)
        return Side(hands=(EMPTY,) * members)
    rd.unknown(d, _SIDE_FIELDS, where + ".")
    hands: tuple[Cards, ...]
    if "members" in d:
        listed = d["members"]
        if not isinstance(listed, list) or not 1 <= len(listed) <= 2 or not all(isinstance(m, dict) for m in listed):
            rd.add("value.not_list", f"{where}.members", label=f"{where}.members",
                   example='[{"hand": [...]}, {"hand": [...]}] (one or two members)', value=listed)
            hands = (EMPTY,) * members
        else:
            for i, m in enumerate(listed):
                rd.unknown(m, ("hand",), f"{where}.members[{i}].")
            hands = tuple(rd.cards(m.get("hand"), f"{where}.members[{i}].hand") for i, m in enumerate(listed))
            if "hand" in d and rd.cards(d["hand"], f"{where}.hand") != sum(hands, EMPTY):
                rd.add("position.team_hand", f"{where}.hand", name=name)
        if members == 1:  # a single player's hand is written "hand": read as that, but refused in this form
            rd.add("position.solo_member_field", f"{where}.members", side=name, key="members")
            hands = (sum(hands, EMPTY),)
    else:
        hands = (rd.cards(d.get("hand"), f"{where}.hand"),)
    deck_list = d.get("deck")
    deck = rd.cards(deck_list, f"{where}.deck")
    order = None
    stacked = d.get("stacked", False)
    if not isinstance(stacked, bool):
        rd.add("value.not_bool", f"{where}.stacked", label=f"{where}.stacked", value=stacked)
    elif stacked and isinstance(deck_list, list):
        try:
            order = tuple(kind_of(c) for c in deck_list) or None  # an empty stacked deck is just empty
        except CardError:
            order = None  # the unknown card is named by the deck's reading
    if members == 1:  # written only for a team: given for a single player, even as 0 or null, it would be dropped
        for key in ("drawer", "order"):
            if key in d:
                rd.add("position.solo_member_field", f"{where}.{key}", side=name, key=key)
    drawer = rd.integer(d.get("drawer"), f"{where}.drawer", 0)
    order_in = d.get("order")
    member_order = None if order_in is None else rd.integer(order_in, f"{where}.order")
    return Side(hands=hands, deck=deck, discard=rd.cards(d.get("discard"), f"{where}.discard"),
                removed=rd.cards(d.get("removed"), f"{where}.removed"),
                exhaustions=rd.integer(d.get("exhaustions"), f"{where}.exhaustions", 0),
                deck_order=order, drawer=drawer, order=member_order)


def _read_placed(rd: _Reader, data: dict[str, Any], to_play: Any) -> tuple[Placed, int | None]:
    pl = data.get("placed")
    battle = None
    for key in (REMOVE_CHOICE, CONCEDE_CHOICE):
        spec = data.get(key)
        if spec is None:
            continue
        if key != to_play:
            rd.add("point.battle_not_here", key, key=key, point=to_play)
        if not isinstance(spec, dict) or not isinstance(spec.get("castle"), str) or spec["castle"] not in BATTLES:
            rd.add("value.not_object", key, label=key, example='{"castle": "X", "side": "english"}', value=spec)
        else:
            rd.unknown(spec, ("castle", "side") if key == REMOVE_CHOICE else ("castle",), f"{key}.")
            battle = BATTLES.index(spec["castle"])
    if to_play in (REMOVE_CHOICE, CONCEDE_CHOICE) and battle is None and data.get(to_play) is None:
        rd.add("point.battle_missing", to_play, point=to_play)
    if pl is None:
        return Placed(), battle
    if not isinstance(pl, dict):
        rd.add("value.not_object", "placed", label="placed",
               example='{"X": 2, "Y": null, "english": {...}, "french": {...}}', value=pl)
        return Placed(), battle
    rd.unknown(pl, ("X", "Y", *SIDES), "placed.")
    xy = []
    for key in BATTLES:
        v = pl.get(key)
        xy.append(None if v is None else rd.integer(v, f"placed.{key}"))
    rows = []
    for name in SIDES:
        side = pl.get(name)
        if side is None:
            side = {}
        if not isinstance(side, dict):
            rd.add("value.not_object", f"placed.{name}", label=f"placed.{name}", example='{"X": [...], "Y": [...]}',
                   value=side)
            side = {}
        rd.unknown(side, BATTLES, f"placed.{name}.")
        rows.append((rd.cards(side.get("X"), f"placed.{name}.X"), rd.cards(side.get("Y"), f"placed.{name}.Y")))
    return Placed(xy[0], xy[1], (rows[0], rows[1])), battle


def position_to_json(p: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rules": p.rules.to_json(),
        "castles": [CONTROL_NAMES[c] for c in p.castles],
        "round": p.round,
        "first": SIDES[p.first],
        "to_play": p.to_play,
        "sides": {},
    }
    for i, name in enumerate(SIDES):
        s = p.sides[i]
        d: dict[str, Any] = {}
        if s.is_team:
            d["members"] = [{"hand": h.symbols()} for h in s.hands]
            d["drawer"] = s.drawer
            d["order"] = s.order
        else:
            d["hand"] = s.hand.symbols()
        if s.deck_order is not None:
            d["deck"] = [SYMBOLS[k] for k in s.deck_order]
            d["stacked"] = True
        else:
            d["deck"] = s.deck.symbols()
        d["discard"] = s.discard.symbols()
        d["removed"] = s.removed.symbols()
        d["exhaustions"] = s.exhaustions
        out["sides"][name] = d
    if not p.placed.empty:
        pl = p.placed
        out["placed"] = {"X": pl.x, "Y": pl.y}
        for i, name in enumerate(SIDES):
            out["placed"][name] = {"X": pl.at(i, 0).symbols(), "Y": pl.at(i, 1).symbols()}
    if p.to_play == REMOVE_CHOICE and p.battle is not None:
        castle = p.placed.castle(p.battle)
        loser = 1 - p.castles[castle] if castle is not None and p.castles[castle] != NEUTRAL else 0
        out["remove_choice"] = {"castle": BATTLES[p.battle], "side": SIDES[loser]}
    if p.to_play == CONCEDE_CHOICE and p.battle is not None:
        out["concede_choice"] = {"castle": BATTLES[p.battle]}
    return out


def load_position(path: str) -> State:
    """Read a position file; a PositionError names every problem (unreadable or oversized file included).

    At most :data:`MAX_TEXT` characters are read, so a device or a huge file is refused at once."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise PositionError([problem("input.not_path", "", value=path)])
    try:
        with open(path, "rb") as fh:
            raw = fh.read(4 * MAX_TEXT + 1)
    except OSError as exc:
        raise PositionError([problem("input.unreadable_file", "", path=str(path),
                                     reason=exc.strerror or type(exc).__name__)]) from None
    except ValueError as exc:  # a path with a NUL byte
        raise PositionError([problem("input.unreadable_file", "", path=repr(path), reason=str(exc))]) from None
    return position_from_json(raw)


def save_position(p: State, path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(position_to_json(p), fh, indent=1)
        fh.write("\n")
