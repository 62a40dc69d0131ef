"""Game records: a start position, the moves and chance outcomes from it, and the result.

A record replays exactly (every event is checked by the engine again) and is
saved as JSON, so a game found by an analysis can be studied step by step.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from .cards import CardError, Cards
from .game_loop import Hooks, play
from .i18n import gettext as _
from .moves import IllegalMove, Move
from .policy import UNIFORM, Policy
from .position import Draw, Position
from .problems import shown
from .rules import SIDES


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


@dataclass
class GameRecord:
    """A start position and the events played from it."""

    start: Position
    events: list[Event] = field(default_factory=list)

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
        out: dict[str, Any] = {"start": self.start.to_json(), "moves": [e.to_json() for e in self.events]}
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
        record = cls(Position.from_json(parsed["start"]),
                     [Event.from_json(e, f"moves[{i}]") for i, e in enumerate(parsed["moves"])])
        record.positions()  # replay: an inconsistent record fails here, naming the event
        return record


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
        self.record.events.append(Event(p.to_play, side, move=move))

    def chance(self, p: Position, draw: Draw) -> None:
        self.record.events.append(Event(p.to_play, None, draw=draw))


def play_game(start: Position, seed: int, policies: Policy | tuple[Policy, Policy] = UNIFORM,
              max_events: int = 100000) -> GameRecord:
    """Play from ``start`` to the end from ``seed`` (its draws from a chance stream apart from the
    moves', so the same seed draws the same cards whatever the policies decide), each side by its
    policy (one for both, or a pair), through the engine's one game loop."""
    pair = policies if isinstance(policies, tuple) else (policies, policies)
    record = GameRecord(start)
    play(start, random.Random(seed), pair, (_Recorder(record),), max_events)
    return record
