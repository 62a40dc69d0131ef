"""Positions as JSON (RULES.md section 10): load with every problem named, save, round-trip.

Loading never fails from deep inside: every field is read defensively, each
problem is collected with where it is, and a :class:`PositionError` lists them
all.  A position that loads is valid; its warnings are on ``error.warnings``
or ``Position.warnings()``.
"""

from __future__ import annotations

import json
from typing import Any

from .cards import EMPTY, SYMBOLS, CardError, Cards, kind_of
from .position import (BATTLES, CONCEDE_CHOICE, CONTROL_NAMES, ENGLISH, FRENCH, NEUTRAL, POINTS,
                       REMOVE_CHOICE, Placed, Position, Side)
from .rules import SIDES, Rules, RulesError
from .validation import position_problems, position_warnings

_CONTROL = {"neutral": NEUTRAL, "english": ENGLISH, "french": FRENCH}


class PositionError(ValueError):
    """A position that cannot be used; ``problems`` names every problem found."""

    def __init__(self, problems: list[str], warnings: list[str] | None = None):
        self.problems = list(problems)
        self.warnings = list(warnings or [])
        super().__init__("invalid position:\n- " + "\n- ".join(self.problems))


class _Reader:
    """Collects problems while reading a JSON object, so one pass names them all."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def cards(self, value: Any, where: str) -> Cards:
        if value is None:
            return EMPTY
        if not isinstance(value, list):
            self.problems.append(f"{where} must be a list of cards like [\"H\", \"5\", \"2\"], not {value!r}")
            return EMPTY
        counts = [0] * 10
        for item in value:
            try:
                counts[kind_of(item)] += 1
            except CardError:
                self.problems.append(f"{where}: unknown card {item!r} (cards are H, 2, 3, 4, 5...)")
        return Cards(counts)

    def integer(self, value: Any, where: str, default: int = 0) -> int:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.append(f"{where} must be a whole number, not {value!r}")
            return default
        return value

    def side_name(self, value: Any, where: str) -> int:
        if value in SIDES:
            return SIDES.index(value)
        self.problems.append(f"{where} must be 'english' or 'french', not {value!r}")
        return ENGLISH


def position_from_json(data: str | dict[str, Any]) -> Position:
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise PositionError([f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"]) from None
    if not isinstance(data, dict):
        raise PositionError([f"a position is a JSON object, not {type(data).__name__}"])
    rd = _Reader()
    try:
        rules = Rules.from_json(data.get("rules", "base"))
    except RulesError as exc:
        raise PositionError([f"rules: {p}" for p in exc.problems]) from None
    unknown = set(data) - {"rules", "castles", "round", "first", "to_play", "sides", "placed",
                           "remove_choice", "concede_choice", "result", "warnings", "notation"}
    for key in sorted(unknown):
        rd.problems.append(f"unknown field {key!r}")

    castles_in = data.get("castles")
    castles: list[int] = []
    if not isinstance(castles_in, list):
        rd.problems.append(f"castles must be a list of {rules.castles} of neutral/english/french")
        castles = [NEUTRAL] * rules.castles
    else:
        for i, c in enumerate(castles_in):
            if c not in _CONTROL:
                rd.problems.append(f"castle {i} is {c!r}: it must be neutral, english or french")
            castles.append(_CONTROL.get(c, NEUTRAL))
    round_ = rd.integer(data.get("round"), "round", 1)
    first = rd.side_name(data.get("first", rules.first_side), "first")
    to_play = data.get("to_play")
    if to_play not in POINTS:
        rd.problems.append(f"to_play is {to_play!r}: it must be one of {', '.join(POINTS)}")

    sides_in = data.get("sides")
    sides: list[Side] = []
    if not isinstance(sides_in, dict):
        rd.problems.append("sides must be an object with english and french")
        sides_in = {}
    for name in SIDES:
        sides.append(_read_side(rd, sides_in.get(name), name, rules))
    for extra in sorted(set(sides_in) - set(SIDES)):
        rd.problems.append(f"sides has an unknown side {extra!r}")

    placed, battle = _read_placed(rd, data, to_play)
    if rd.problems:
        # name the problems of the readable rest too, so one pass reports everything
        more: list[str] = []
        if to_play in POINTS and isinstance(sides_in, dict) and all(n in sides_in for n in SIDES):
            try:
                more = position_problems(Position(rules, tuple(castles), round_, first, to_play,
                                                  (sides[0], sides[1]), placed, battle))
            except Exception:  # the readable rest may be too broken to check further
                more = []
        raise PositionError(rd.problems + [m for m in more if m not in rd.problems])
    p = Position(rules, tuple(castles), round_, first, to_play, (sides[0], sides[1]), placed, battle)
    if to_play == REMOVE_CHOICE and isinstance(data.get("remove_choice"), dict):
        said = data["remove_choice"].get("side")
        castle = placed.castle(battle or 0)
        if said in SIDES and castle is not None and p.castles[castle] != NEUTRAL:
            loser = 1 - p.castles[castle]
            if SIDES.index(said) != loser:
                rd.problems.append(f"remove_choice names {said}, but the loser at castle {BATTLES[battle or 0]} "
                                   f"(now {SIDES[p.castles[castle]]}) is {SIDES[loser]}")
    problems = rd.problems + position_problems(p)
    if problems:
        raise PositionError(problems, position_warnings(p))
    return p


def _read_side(rd: _Reader, d: Any, name: str, rules: Rules) -> Side:
    if not isinstance(d, dict):
        rd.problems.append(f"sides.{name} is missing or not an object")
        return Side(hands=(EMPTY,) * rules.members[SIDES.index(name)])
    known = {"hand", "members", "deck", "discard", "removed", "exhaustions", "stacked", "drawer", "order"}
    for key in sorted(set(d) - known):
        rd.problems.append(f"sides.{name}: unknown field {key!r}")
    if "members" in d:
        members = d["members"]
        if not isinstance(members, list) or not all(isinstance(m, dict) for m in members):
            rd.problems.append(f"sides.{name}.members must be a list of {{\"hand\": [...]}} objects")
            hands: tuple[Cards, ...] = (EMPTY,)
        else:
            hands = tuple(rd.cards(m.get("hand"), f"sides.{name}.members[{i}].hand") for i, m in enumerate(members))
            if "hand" in d and rd.cards(d["hand"], f"sides.{name}.hand") != sum(hands, EMPTY):
                rd.problems.append(f"sides.{name}.hand must be the members' hands together")
    else:
        hands = (rd.cards(d.get("hand"), f"sides.{name}.hand"),)
    deck_list = d.get("deck")
    deck = rd.cards(deck_list, f"sides.{name}.deck")
    order = None
    if d.get("stacked"):
        if isinstance(deck_list, list):
            try:
                order = tuple(kind_of(c) for c in deck_list)
            except CardError:
                order = None
    drawer = rd.integer(d.get("drawer"), f"sides.{name}.drawer", 0)
    order_in = d.get("order")
    member_order = None if order_in is None else rd.integer(order_in, f"sides.{name}.order")
    return Side(hands=hands, deck=deck, discard=rd.cards(d.get("discard"), f"sides.{name}.discard"),
                removed=rd.cards(d.get("removed"), f"sides.{name}.removed"),
                exhaustions=rd.integer(d.get("exhaustions"), f"sides.{name}.exhaustions", 0),
                deck_order=order, drawer=drawer, order=member_order)


def _read_placed(rd: _Reader, data: dict[str, Any], to_play: Any) -> tuple[Placed, int | None]:
    pl = data.get("placed")
    battle = None
    for key in ("remove_choice", "concede_choice"):
        spec = data.get(key)
        if spec is None:
            continue
        if key != to_play:
            rd.problems.append(f"{key} is given but to_play is {to_play!r}")
        if not isinstance(spec, dict) or spec.get("castle") not in BATTLES:
            rd.problems.append(f"{key} must be an object like {{\"castle\": \"X\", \"side\": \"english\"}}")
        else:
            battle = BATTLES.index(spec["castle"])
    if to_play in (REMOVE_CHOICE, CONCEDE_CHOICE) and battle is None and not any(
            to_play in p for p in rd.problems):
        rd.problems.append(f"at {to_play} the position must say which battle: "
                           f"\"{to_play}\": {{\"castle\": \"X\" or \"Y\"}}")
    if pl is None:
        return Placed(), battle
    if not isinstance(pl, dict):
        rd.problems.append("placed must be an object like {\"X\": 2, \"Y\": null, \"english\": {...}, \"french\": {...}}")
        return Placed(), battle
    xy = []
    for key in BATTLES:
        v = pl.get(key)
        xy.append(None if v is None else rd.integer(v, f"placed.{key}"))
    rows = []
    for name in SIDES:
        side = pl.get(name, {}) or {}
        if not isinstance(side, dict):
            rd.problems.append(f"placed.{name} must be an object like {{\"X\": [...], \"Y\": [...]}}")
            side = {}
        rows.append((rd.cards(side.get("X"), f"placed.{name}.X"), rd.cards(side.get("Y"), f"placed.{name}.Y")))
    return Placed(xy[0], xy[1], (rows[0], rows[1])), battle


def position_to_json(p: Position) -> dict[str, Any]:
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


def load_position(path: str) -> Position:
    """Read a position file; a PositionError names every problem (unreadable file included)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise PositionError([f"cannot read {path}: {exc.strerror}"]) from None
    return position_from_json(text)


def save_position(p: Position, path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(position_to_json(p), fh, indent=1)
        fh.write("\n")
