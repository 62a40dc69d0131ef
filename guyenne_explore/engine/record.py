"""Game records: a start position, the moves and chance outcomes from it, and the result.

A record replays exactly (every event is checked by the engine again) and is
saved as JSON, so a game found by an analysis can be studied step by step.  A
playtest's record adds a header (who sat where, person or bot, under which rules,
seed and package version), each decision's thinking time and the moves taken
back, so games played by people and by bots are read alike (:func:`read_records`).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Literal

from .cards import CardError, Cards
from .game_loop import Hooks, play
from ..i18n import gettext as _
from .moves import IllegalMove, Move
from .policy import UNIFORM, Policy
from .position import Draw, Position
from .problems import shown
from .rules import SIDES, Rules, RulesError


class RecordError(ValueError):
    """A game record that cannot be read; the message names the field first (``moves[3].side: ...``)."""


@dataclass(frozen=True)
class Event:
    """One step of a game: a side's move at a decision point, or a chance outcome."""

    to_play: str
    side: int | None
    move: Move | None = None
    draw: Draw | None = None

    def to_json(self) -> dict[str, Any]:
        if self.draw is not None:
            return {"to_play": self.to_play, "chance": True,
                    "english": self.draw.english.symbols(), "french": self.draw.french.symbols()}
        assert self.move is not None and self.side is not None
        return {"to_play": self.to_play, "side": SIDES[self.side], "move": self.move.text(),
                **self.move.to_json()}

    @classmethod
    def from_json(cls, d: Any, field: str = "event") -> "Event":
        """An event from its JSON; a RecordError names ``field`` and what is wrong with it, whatever
        the input holds (a record is a file anyone can edit)."""
        if not isinstance(d, dict):
            raise RecordError(_("{field}: an event is an object with to_play and a move or a draw, not {value}").format(
                field=field, value=shown(d)))
        if not isinstance(d.get("to_play"), str):
            raise RecordError(_("{field}.to_play: the point of the game as text (open_first, draw, ...), not {value}")
                              .format(field=field, value=shown(d.get("to_play"))))
        if d.get("chance"):
            return cls(d["to_play"], None, draw=Draw(*(_drawn(d.get(name), f"{field}.{name}") for name in SIDES)))
        if d.get("side") not in SIDES:
            raise RecordError(_("{field}.side: english or french, not {value}").format(field=field, value=shown(d.get("side"))))
        try:
            return cls(d["to_play"], SIDES.index(d["side"]), move=Move.from_json(d))
        except IllegalMove as exc:
            raise RecordError(f"{field}: {exc}") from None


def _drawn(value: Any, field: str) -> Cards:
    """The cards a side drew at a chance event, or a RecordError naming the field."""
    if not isinstance(value, list):
        raise RecordError(_("{field}: the cards drawn as a list like [\"5\", \"2\"], not {value}").format(
            field=field, value=shown(value)))
    try:
        return Cards.of(value)
    except CardError as exc:
        raise RecordError(f"{field}: {exc}") from None


#: the header's format tag: a reader refuses a record of another format rather than guess its fields
RECORD_FORMAT = "guyenne-record/1"
#: who plays a seat
SEAT_KINDS = ("person", "bot")


def rules_fingerprint(rules: Rules) -> str:
    """The first 16 hex digits of the SHA-256 of the rules' canonical JSON: equal rule sets, equal fingerprints,
    so a playtest's records group by the rules they were played under whatever preset they were named from."""
    canonical = json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def weights_fingerprint(weights: Iterable[float]) -> str:
    """The first 16 hex digits of the SHA-256 of a learned policy's weights as JSON: which network played a seat."""
    return hashlib.sha256(json.dumps(list(weights)).encode("utf-8")).hexdigest()[:16]


def _text(d: dict[str, Any], name: str, field: str, optional: bool = False) -> Any:
    """``d[name]`` when it is text (or absent/None where ``optional``), else a RecordError naming the field."""
    value = d.get(name)
    if (value is None and optional) or (isinstance(value, str) and value):
        return value
    raise RecordError(_("{field}: text, not {value}").format(field=f"{field}.{name}", value=shown(value)))


def _milliseconds(value: Any, field: str) -> int | None:
    """A thinking time in milliseconds (a whole number from 0), None when absent, else a RecordError."""
    if value is None or (type(value) is int and 0 <= value < 10**12):
        return value
    raise RecordError(_("{field}: a thinking time in milliseconds (a whole number from 0), not {value}").format(
        field=field, value=shown(value)))


@dataclass(frozen=True)
class Seat:
    """Who plays one seat: a side (and, in the team game, one member of it), a person by a pseudonym or a bot
    by its policy's name (``strong@NAME`` with its weights' fingerprint, so a record says which network played)."""

    side: str
    member: int
    kind: Literal["person", "bot"]
    name: str | None = None
    policy: str | None = None
    weights_fingerprint: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "member": self.member, "kind": self.kind}
        out.update((k, v) for k, v in (("name", self.name), ("policy", self.policy),
                                       ("weights_fingerprint", self.weights_fingerprint)) if v is not None)
        return out

    @classmethod
    def from_json(cls, d: Any, field: str = "seat") -> "Seat":
        """A seat from its JSON; a RecordError names the field that is wrong."""
        if not isinstance(d, dict):
            raise RecordError(_("{field}: a seat is an object with side, member and kind, not {value}").format(
                field=field, value=shown(d)))
        if d.get("side") not in SIDES:
            raise RecordError(_("{field}.side: english or french, not {value}").format(
                field=field, value=shown(d.get("side"))))
        if type(d.get("member")) is not int or d["member"] not in (0, 1):
            raise RecordError(_("{field}.member: 0 or 1 (a team's member), not {value}").format(
                field=field, value=shown(d.get("member"))))
        if d.get("kind") not in SEAT_KINDS:
            raise RecordError(_("{field}.kind: person or bot, not {value}").format(
                field=field, value=shown(d.get("kind"))))
        person = d["kind"] == "person"
        return cls(d["side"], d["member"], d["kind"], name=_text(d, "name", field, optional=not person),
                   policy=_text(d, "policy", field, optional=person),
                   weights_fingerprint=_text(d, "weights_fingerprint", field, optional=True))


def seats_for(rules: Rules) -> list[tuple[str, int]]:
    """The seats of a game under ``rules`` in the header's order: side, then member (a team side has two)."""
    return [(side, member) for side, count in zip(SIDES, rules.members) for member in range(count)]


@dataclass(frozen=True)
class RecordHeader:
    """Who played a recorded game, when, under which rules, seed and version, and whether undo was allowed
    (a counted game does not allow it).  ``rules`` are written in full beside their fingerprint, so a reader
    can tell the rules a record says from those its start position holds."""

    date: str
    rules_fingerprint: str
    package_version: str
    seed: int | None
    undo: bool
    seats: tuple[Seat, ...]
    rules: Rules

    @classmethod
    def new(cls, rules: Rules, seats: Iterable[Seat], seed: int | None = None, undo: bool = False) -> "RecordHeader":
        """The header of a game starting now, under ``rules``, written by this version of the package."""
        from .. import __version__

        now = datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
        return cls(now, rules_fingerprint(rules), __version__, seed, undo, tuple(seats), rules)

    def to_json(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "date": self.date, "rules": self.rules.to_json(),
                "rules_fingerprint": self.rules_fingerprint, "package_version": self.package_version,
                "seed": self.seed, "undo": self.undo, "seats": [s.to_json() for s in self.seats]}

    @classmethod
    def from_json(cls, d: Any, field: str = "header") -> "RecordHeader":
        """A header from its JSON: a RecordError names the field that is wrong, and a fingerprint that is not
        the rules' says the record was played under other rules than it says."""
        if not isinstance(d, dict):
            raise RecordError(_("{field}: an object with format, date, rules and seats, not {value}").format(
                field=field, value=shown(d)))
        if d.get("format") != RECORD_FORMAT:
            raise RecordError(_("{field}.format: {expected}, not {value} (a record of another program or version)")
                              .format(field=field, expected=RECORD_FORMAT, value=shown(d.get("format"))))
        date = _text(d, "date", field)
        try:
            datetime.fromisoformat(date.replace("Z", "+00:00"))
        except ValueError:
            raise RecordError(_("{field}.date: a date and time like 2026-11-29T00:20:00Z, not {value}").format(
                field=field, value=shown(date))) from None
        try:
            rules = Rules.from_json(d.get("rules"))  # type: ignore[arg-type]
        except (RulesError, TypeError) as exc:
            raise RecordError(f"{field}.rules: {exc}") from None
        fingerprint = _text(d, "rules_fingerprint", field)
        if fingerprint != rules_fingerprint(rules):
            raise RecordError(_("{field}.rules_fingerprint: {value} is not the fingerprint of the rules the header "
                                "names ({expected}): played under other rules than it says").format(
                field=field, value=shown(fingerprint), expected=rules_fingerprint(rules)))
        seed = d.get("seed")
        if seed is not None and type(seed) is not int:
            raise RecordError(_("{field}.seed: a whole number or null, not {value}").format(
                field=field, value=shown(seed)))
        if type(d.get("undo")) is not bool:
            raise RecordError(_("{field}.undo: true or false, not {value}").format(
                field=field, value=shown(d.get("undo"))))
        seats = d.get("seats")
        if not isinstance(seats, list):
            raise RecordError(_("{field}.seats: a list of seats, not {value}").format(field=field, value=shown(seats)))
        read = tuple(Seat.from_json(s, f"{field}.seats[{i}]") for i, s in enumerate(seats))
        if [(s.side, s.member) for s in read] != seats_for(rules):
            raise RecordError(_("{field}.seats: one seat per side and member, in the order {expected}, not {value}")
                              .format(field=field, expected=", ".join(f"{s}/{m}" for s, m in seats_for(rules)),
                                      value=", ".join(f"{s.side}/{s.member}" for s in read) or "none"))
        return cls(date, fingerprint, _text(d, "package_version", field), seed, d["undo"], read, rules)


@dataclass(frozen=True)
class Undo:
    """A move taken back: the event index it was at, its text and how long it had been thought over."""

    at: int
    move: str
    think_ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": self.at, "move": self.move}
        if self.think_ms is not None:
            out["think_ms"] = self.think_ms
        return out

    @classmethod
    def from_json(cls, d: Any, field: str = "undo") -> "Undo":
        """An undo from its JSON, or a RecordError naming the field."""
        if not isinstance(d, dict):
            raise RecordError(_("{field}: an object with at and move, not {value}").format(field=field, value=shown(d)))
        if type(d.get("at")) is not int or d["at"] < 0:
            raise RecordError(_("{field}.at: the index of the event taken back (a whole number from 0), not {value}")
                              .format(field=field, value=shown(d.get("at"))))
        return cls(d["at"], _text(d, "move", field), _milliseconds(d.get("think_ms"), f"{field}.think_ms"))


@dataclass
class GameRecord:
    """A start position and the events played from it; a playtest's record also has a header, each event's
    thinking time (``think_ms``, None for chance and where not measured) and the moves taken back."""

    start: Position
    events: list[Event] = field(default_factory=list)
    header: RecordHeader | None = None
    think_ms: list[int | None] = field(default_factory=list)
    undos: list[Undo] = field(default_factory=list)

    def append(self, event: Event, think_ms: int | None = None) -> None:
        """Add the next event with its thinking time (kept beside it, one per event)."""
        self.think_ms.extend([None] * (len(self.events) - len(self.think_ms)))
        self.events.append(event)
        self.think_ms.append(think_ms)

    def take_back(self) -> Undo:
        """Take back the last decision and the chance events after it, keeping it as an :class:`Undo`."""
        last = max((i for i, e in enumerate(self.events) if e.move is not None), default=None)
        if last is None:
            raise ValueError("no move to take back")
        event = self.events[last]
        assert event.move is not None
        undo = Undo(last, event.move.text(), self.thought(last))
        del self.events[last:]
        del self.think_ms[last:]
        self.undos.append(undo)
        return undo

    def thought(self, index: int) -> int | None:
        """The thinking time of event ``index``, None when not measured."""
        return self.think_ms[index] if index < len(self.think_ms) else None

    def positions(self) -> list[Position]:
        """Every position of the game, the start included (replayed through the engine)."""
        out = [self.start]
        for e in self.events:
            p = out[-1]
            if e.to_play != p.to_play:
                raise ValueError(f"event {len(out)} is for {e.to_play} but the position is at {p.to_play}")
            out.append(p.apply_outcome(e.draw) if e.draw is not None else p.apply(e.move))  # type: ignore[arg-type]
        return out

    @property
    def final(self) -> Position:
        return self.positions()[-1]

    def to_json(self) -> dict[str, Any]:
        final = self.final
        out: dict[str, Any] = {"header": self.header.to_json()} if self.header is not None else {}
        out["start"] = self.start.to_json()
        out["moves"] = [e.to_json() for e in self.events]
        for i, event in enumerate(out["moves"]):
            if self.thought(i) is not None:
                event["think_ms"] = self.thought(i)
        if self.undos:
            out["undos"] = [u.to_json() for u in self.undos]
        if final.is_over:
            out["result"] = final.result().to_json()
            out["rounds"] = final.round - self.start.round + 1
        return out

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        """A record from its JSON (text or values): a RecordError names what is not a record's, a
        PositionError the start's problems, and the replay any event that does not fit its position."""
        try:
            parsed = json.loads(data) if isinstance(data, str) else data
        except RecursionError:
            raise RecordError(_("the JSON is nested too deeply")) from None
        if not isinstance(parsed, dict):
            raise RecordError(_("a game record is an object with start and moves, not {value}").format(value=shown(parsed)))
        for name in ("start", "moves"):
            if name not in parsed:
                raise RecordError(_("missing field {field}").format(field=repr(name)))
        if not isinstance(parsed["moves"], list):
            raise RecordError(_("moves: a list of events, not {value}").format(value=shown(parsed["moves"])))
        header = RecordHeader.from_json(parsed["header"]) if "header" in parsed else None
        start = Position.from_json(parsed["start"])
        if header is not None and start.rules != header.rules:
            raise RecordError(_("start.rules: the start position's rules are not the rules the header names "
                                "({fingerprint}): played under other rules than it says").format(
                fingerprint=header.rules_fingerprint))
        undos = parsed.get("undos", [])
        if not isinstance(undos, list):
            raise RecordError(_("undos: a list of moves taken back, not {value}").format(value=shown(undos)))
        record = cls(start, [Event.from_json(e, f"moves[{i}]") for i, e in enumerate(parsed["moves"])], header,
                     [_event_think(e, f"moves[{i}].think_ms") for i, e in enumerate(parsed["moves"])],
                     [Undo.from_json(u, f"undos[{i}]") for i, u in enumerate(undos)])
        record.positions()  # replay: an inconsistent record fails here, naming the event
        return record


def _event_think(event: Any, field: str) -> int | None:
    """An event's thinking time (absent: None); a chance event has none, since nobody thought over it."""
    value = _milliseconds(event.get("think_ms"), field)
    if value is not None and event.get("chance"):
        raise RecordError(_("{field}: a chance event has no thinking time").format(field=field))
    return value


def read_records(paths: Iterable[str | Path]) -> tuple[list[tuple[str, GameRecord]], list[tuple[str, str]]]:
    """A playtest: the records in ``paths`` (files, and every ``*.json`` in a folder, in name order).

    Returns the good records with their file names, and the bad ones with the problem in words (the field
    first), so one bad file never hides the others."""
    good: list[tuple[str, GameRecord]] = []
    bad: list[tuple[str, str]] = []
    for given in paths:
        path = Path(given)
        for file in sorted(path.glob("*.json")) if path.is_dir() else [path]:
            try:
                good.append((str(file), GameRecord.from_json(file.read_text(encoding="utf-8"))))
            except OSError as exc:
                bad.append((str(file), _("cannot read it: {error}").format(error=exc.strerror or exc)))
            except UnicodeDecodeError:
                bad.append((str(file), _("not text: a game record is JSON")))
            except json.JSONDecodeError as exc:
                bad.append((str(file), _("not JSON: {error}").format(error=exc)))
            except ValueError as exc:  # RecordError, PositionError, a replay that does not fit
                bad.append((str(file), str(exc)))
    return good, bad


def uniform_choice(p: Position, rng: random.Random) -> Move:
    """The uniform policy's move at ``p`` (:data:`.policy.UNIFORM`, from the acting side's view)."""
    side = p.side_to_play
    assert side is not None, f"no side decides at {p.to_play}"
    return UNIFORM.choose(p.view(side), rng)


class _Recorder(Hooks):
    """Writes every event of a game into a record."""

    def __init__(self, record: "GameRecord"):
        self.record = record

    def decision(self, p: Position, side: int, move: Move) -> None:
        self.record.append(Event(p.to_play, side, move=move))

    def chance(self, p: Position, draw: Draw) -> None:
        self.record.append(Event(p.to_play, None, draw=draw))


def play_game(start: Position, seed: int, policies: Policy | tuple[Policy, Policy] = UNIFORM,
              max_events: int = 100000, header: RecordHeader | None = None) -> GameRecord:
    """Play from ``start`` to the end from ``seed`` (its draws from a chance stream apart from the
    moves', so the same seed draws the same cards whatever the policies decide), each side by its
    policy (one for both, or a pair), through the engine's one game loop; ``header`` says who played."""
    pair = policies if isinstance(policies, tuple) else (policies, policies)
    record = GameRecord(start, header=header)
    play(start, random.Random(seed), pair, (_Recorder(record),), max_events)
    return record
