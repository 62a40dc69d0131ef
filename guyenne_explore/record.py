"""Game records: a start position, the moves and chance outcomes from it, and the result.

A record replays exactly (every event is checked by the engine again) and is
saved as JSON, so a game found by an analysis can be studied step by step.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from .cards import Cards
from .game_loop import Hooks, play
from .moves import Move
from .policy import UNIFORM, Policy
from .position import Draw, Position
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
        parsed: dict[str, Any] = json.loads(data) if isinstance(data, str) else data
        record = cls(Position.from_json(parsed["start"]), [Event.from_json(e) for e in parsed["moves"]])
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
    """Play from ``start`` to the end with a seeded generator (chance and moves share it), each
    side by its policy (one for both, or a pair), through the engine's one game loop."""
    pair = policies if isinstance(policies, tuple) else (policies, policies)
    record = GameRecord(start)
    play(start, random.Random(seed), pair, (_Recorder(record),), max_events)
    return record
