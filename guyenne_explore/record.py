"""Game records: a start position, the moves and chance outcomes from it, and the result.

A record replays exactly (every event is checked by the engine again) and is
saved as JSON, so a game found by an analysis can be studied step by step.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from .cards import Cards
from .moves import Move
from .flow import defence_holds
from .position import CONCEDE_CHOICE, Draw, Position
from .rules import SIDES


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
    def from_json(cls, d: dict[str, Any]) -> "Event":
        if d.get("chance"):
            return cls(d["to_play"], None, draw=Draw(Cards.of(d["english"]), Cards.of(d["french"])))
        return cls(d["to_play"], SIDES.index(d["side"]), move=Move.from_json(d))


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
    def from_json(cls, data: dict[str, Any] | str) -> "GameRecord":
        if isinstance(data, str):
            data = json.loads(data)
        record = cls(Position.from_json(data["start"]), [Event.from_json(e) for e in data["moves"]])
        record.positions()  # replay: an inconsistent record fails here, naming the event
        return record


Chooser = Callable[[Position, random.Random], Move]


def uniform_choice(p: Position, rng: random.Random) -> Move:
    """The uniform policy's choice (RULES.md 10), with the built-in concede rule."""
    if p.to_play == CONCEDE_CHOICE:
        b = p.battle or 0
        defender = p.castles[p.placed.castle(b)]  # type: ignore[index]
        return Move(concede=not defence_holds(defender, p.placed.at(0, b), p.placed.at(1, b)))
    moves = list(p.legal_moves)
    return moves[rng.randrange(len(moves))]


def play_game(start: Position, seed: int, choose: Chooser = uniform_choice, max_events: int = 100000) -> GameRecord:
    """Play from ``start`` to the end with a seeded generator (chance and moves share it)."""
    rng = random.Random(seed)
    record = GameRecord(start)
    p = start
    while not p.is_over:
        if len(record.events) >= max_events:
            raise RuntimeError(f"game did not end within {max_events} events")
        if p.is_chance:
            d = p.sample_outcome(rng)
            record.events.append(Event(p.to_play, None, draw=d))
            p = p.apply_outcome(d)
        else:
            m = choose(p, rng)
            record.events.append(Event(p.to_play, p.side_to_play, move=m))
            p = p.apply(m)
    return record
