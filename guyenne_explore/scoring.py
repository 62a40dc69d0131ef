"""Scoring and the winner of a finished game (RULES.md section 6)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .position import ENGLISH, FRENCH, NEUTRAL
from .rules import SIDES

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position
    from .rules import Rules


@dataclass(frozen=True, order=True)
class Result:
    """Final scores and the winner: ``"english"``, ``"french"`` or ``"draw"``."""

    english: int
    french: int
    winner: str

    def to_json(self) -> dict[str, Any]:
        return {"english": self.english, "french": self.french, "winner": self.winner}

    def __str__(self) -> str:
        return f"english {self.english} - french {self.french}: " + (
            "draw" if self.winner == "draw" else f"{self.winner} wins")


def runs(castles: tuple[int, ...], side: int, ring: bool) -> list[int]:
    """Lengths of the maximal runs of adjacent castles a side controls."""
    n = len(castles)
    if all(c == side for c in castles):
        return [n]
    lengths: list[int] = []
    current = 0
    for c in castles:
        if c == side:
            current += 1
        elif current:
            lengths.append(current)
            current = 0
    if current:
        lengths.append(current)
    if ring and len(lengths) > 1 and castles[0] == side and castles[-1] == side:
        lengths[0] += lengths.pop()
    return lengths


def result(p: "Position") -> Result:
    """Scores and winner of the position's table, as if the game ended here."""
    return table_result(p.castles, p.sides[ENGLISH].unspent, p.sides[FRENCH].unspent, p.rules)


def table_result(castles: tuple[int, ...], unspent_english: int, unspent_french: int, rules: "Rules") -> Result:
    """Scores and winner of a final table: only the castles and each side's unspent cards count
    (the endgame solvers score many tables without building positions)."""
    sweep, points, longest = _castle_points(tuple(castles), rules.scoring, rules.adjacency == "ring")
    if sweep is not None:
        return Result(12 if sweep == ENGLISH else 0, 12 if sweep == FRENCH else 0, SIDES[sweep])
    unspent = (unspent_english, unspent_french)
    if rules.scoring == "2021":
        scores = [points[s] + unspent[s] for s in (ENGLISH, FRENCH)]
        keys = [(scores[s], longest[s], unspent[s]) for s in (ENGLISH, FRENCH)]
    else:
        scores = list(points)
        keys = [(scores[s], unspent[s]) for s in (ENGLISH, FRENCH)]
    winner = "draw" if keys[0] == keys[1] else ("english" if keys[0] > keys[1] else "french")
    return Result(scores[0], scores[1], winner)


@lru_cache(maxsize=1 << 16)
def _castle_points(castles: tuple[int, ...], scoring: str, ring: bool
                   ) -> tuple[int | None, tuple[int, int], tuple[int, int]]:
    """What the castles alone give: the side holding all of them (or None), each side's points
    before unspent cards, and each side's longest run.  Cached: the exact endgame solvers score the
    same few hundred tables again and again, with many unspent counts."""
    if castles[0] != NEUTRAL and all(c == castles[0] for c in castles):
        return castles[0], (0, 0), (0, 0)
    all_runs = [runs(castles, s, ring) for s in (ENGLISH, FRENCH)]
    longest = (max(all_runs[ENGLISH], default=0), max(all_runs[FRENCH], default=0))
    if scoring == "2021":
        points = tuple(sum(r) + (longest[s] if longest[s] >= 2 else 0) for s, r in enumerate(all_runs))
    else:
        points = tuple(sum(1 if n == 1 else 2 * n for n in r) for r in all_runs)
    return None, (points[0], points[1]), longest
