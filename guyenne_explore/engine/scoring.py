"""Scoring, the winner and how a game ended (RULES.md sections 5 and 6).

The end checks live here too: :func:`sweeper` (RULES.md 5.1, one side controls
every castle) and :func:`cannot_play_on` (5.4, a side holds at most one card after
drawing) are what :mod:`.flow` asks to end a game, and what :func:`ending`
reports, so the reason a metric counts is the reason the game stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .state import ENGLISH, FRENCH, NEUTRAL
from .rules import SIDES

if TYPE_CHECKING:  # pragma: no cover
    from .state import State
    from .rules import Rules


#: How a game ended (RULES.md 5): one side controls every castle at the end of a round (5.1) ...
SWEEP = "sweep"
#: ... or, after drawing, a side holds at most one card (5.4) having exhausted its deck L times ...
EXHAUSTED = "exhausted"
#: ... or before that, in the degenerate case where its deck and discard are both empty.
OUT_OF_CARDS = "out_of_cards"
ENDINGS = (SWEEP, EXHAUSTED, OUT_OF_CARDS)
#: What a sweep scores (RULES.md 6, every rule set and castle count); the other side scores 0.
SWEEP_POINTS = 12


@dataclass(frozen=True, order=True)
class Ending:
    """Why a game ended: ``reason`` (one of :data:`ENDINGS`) and the sides it names (the side
    holding every castle for a sweep, else each side left with at most one card)."""

    reason: str
    sides: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "sides": [SIDES[s] for s in self.sides]}

    def __str__(self) -> str:
        who = " and ".join(SIDES[s] for s in self.sides)
        if self.reason == SWEEP:
            return f"{who} controls every castle"
        one = len(self.sides) == 1
        if self.reason == EXHAUSTED:
            return f"{who} exhausted {'its deck' if one else 'their decks'} for the last time and cannot play on"
        return f"{who} {'has' if one else 'have'} no card left to play on"


@dataclass(frozen=True, order=True)
class Result:
    """Final scores and the winner: ``"english"``, ``"french"`` or ``"draw"``; ``ending`` says
    how the game ended (None for a table scored as if the game ended there)."""

    english: int
    french: int
    winner: str
    ending: Ending | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"english": self.english, "french": self.french, "winner": self.winner}
        if self.ending is not None:
            out["ending"] = self.ending.to_json()
        return out

    def __str__(self) -> str:
        return f"english {self.english} - french {self.french}: " + (
            "draw" if self.winner == "draw" else f"{self.winner} wins")


def side_score(winner: str, side: int | str) -> float:
    """A finished game's score for ``side`` (its index or its name) from its :attr:`Result.winner`: a win 1, a
    draw a half, a loss 0.  The one definition of an advantage (sampled and exact results, the balance search's
    first side, a level against another, a search's rollouts): a game neither side is favoured in scores one half
    for each, however often it is drawn, where a win rate would sit below a half."""
    name = SIDES[side] if isinstance(side, int) else side
    return 1.0 if winner == name else 0.5 if winner == "draw" else 0.0


def runs(castles: tuple[int, ...], side: int, ring: bool) -> list[int]:
    """Lengths of the maximal runs of adjacent castles a side controls."""
    return [len(run) for run in run_castles(castles, side, ring)]


def run_castles(castles: tuple[int, ...], side: int, ring: bool) -> list[tuple[int, ...]]:
    """The maximal runs of adjacent castles a side controls, each as its castles' indexes in table order
    (on a ring, a run through the last castle goes on at the first): what a score is made of, castle by castle."""
    if all(c == side for c in castles):
        return [tuple(range(len(castles)))]
    found: list[list[int]] = []
    current: list[int] = []
    for i, c in enumerate(castles):
        if c == side:
            current.append(i)
        elif current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    if ring and len(found) > 1 and castles[0] == side and castles[-1] == side:
        found[0] = found.pop() + found[0]
    return [tuple(run) for run in found]


def sweeper(castles: tuple[int, ...]) -> int | None:
    """The side controlling every castle (RULES.md 5.1: the game ends), or None."""
    first = castles[0]
    if first != NEUTRAL and all(c == first for c in castles):
        return first
    return None


def holds_too_few(hand_size: int) -> bool:
    """Whether a side holding ``hand_size`` cards after drawing cannot play on (RULES.md 5 step 4: at
    most one card ends the game, since a round places at two castles).  The one-card end check:
    :func:`cannot_play_on` asks it of both sides, and the solvers that know hand sizes only ask it too."""
    return hand_size <= 1


def cannot_play_on(hands: tuple[int, int]) -> tuple[int, ...]:
    """The sides whose hand, after drawing, holds at most one card (RULES.md 5.4: the game ends)."""
    return tuple(s for s in (ENGLISH, FRENCH) if holds_too_few(hands[s]))


def ending(p: "State") -> Ending | None:
    """How the finished game ``p`` ended, None while it goes on."""
    if not p.is_over:
        return None
    side = sweeper(p.castles)
    if side is not None:
        return Ending(SWEEP, (side,))
    out = cannot_play_on((p.sides[ENGLISH].hand.size, p.sides[FRENCH].hand.size))
    if not out:
        raise ValueError("a finished game without a sweep has a side with at most one card in hand")
    spent = all(p.sides[s].exhaustions >= p.rules.exhaustion_limit for s in out)
    return Ending(EXHAUSTED if spent else OUT_OF_CARDS, out)


def result(p: "State") -> Result:
    """Scores and winner of the position's table (as if the game ended here when it goes on),
    with how it ended when it is over."""
    r = table_result(p.castles, p.sides[ENGLISH].unspent, p.sides[FRENCH].unspent, p.rules)
    return Result(r.english, r.french, r.winner, ending(p))


#: The tie-breaks of RULES.md 6 on equal scores: the longer longest run (2021 scoring only), then more
#: unspent cards (hand + deck).
LONGEST_RUN = "longest_run"
UNSPENT = "unspent"


def tie_break(p: "State") -> str | None:
    """Which tie-break decided the winner of ``p``'s table (:data:`LONGEST_RUN` or :data:`UNSPENT`):
    None when the scores differ or nothing decided (a draw).  Read in the order :func:`table_result`
    compares, so a page can say why equal scores still have a winner."""
    r = result(p)
    if r.english != r.french or r.winner == "draw":
        return None
    if p.rules.scoring == "2021":
        longest = longest_runs(p)
        if longest[ENGLISH] != longest[FRENCH]:
            return LONGEST_RUN
    return UNSPENT


def longest_runs(p: "State") -> tuple[int, int]:
    """Each side's longest run of adjacent castles (the 2021 tie-break; a lone castle is a run of 1)."""
    return _castle_points(tuple(p.castles), p.rules.scoring, p.rules.adjacency == "ring")[2]


def table_result(castles: tuple[int, ...], unspent_english: int, unspent_french: int, rules: "Rules") -> Result:
    """Scores and winner of a final table: only the castles and each side's unspent cards count
    (the endgame solvers score many tables without building positions)."""
    sweep, points, longest = _castle_points(tuple(castles), rules.scoring, rules.adjacency == "ring")
    if sweep is not None:
        return Result(SWEEP_POINTS if sweep == ENGLISH else 0, SWEEP_POINTS if sweep == FRENCH else 0, SIDES[sweep])
    unspent = (unspent_english, unspent_french)
    keys: list[tuple[int, ...]]
    if rules.scoring == "2021":
        scores = [points[s] + unspent[s] for s in (ENGLISH, FRENCH)]
        keys = [(scores[s], longest[s], unspent[s]) for s in (ENGLISH, FRENCH)]
    else:
        scores = list(points)
        keys = [(scores[s], unspent[s]) for s in (ENGLISH, FRENCH)]
    winner = "draw" if keys[0] == keys[1] else ("english" if keys[0] > keys[1] else "french")
    return Result(scores[0], scores[1], winner)


@lru_cache(maxsize=32)
def points_rows(castles: int, scoring: str, ring: bool) -> tuple[tuple[int, int, int, int, int], ...]:
    """What every table of ``castles`` castles gives, as data for the compiled fast simulator.

    Row ``sum((control + 1) * 3 ** (castles - 1 - i))`` (control -1 neutral, 0 english, 1 french)
    holds: the side holding every castle or -1, each side's points before unspent cards, then each
    side's tie-break run (the longest run under 2021 scoring, 0 under 2022 where it decides nothing).
    """
    rows = []
    for code in range(3 ** castles):
        table = []
        for _ in range(castles):
            code, digit = divmod(code, 3)
            table.append(digit - 1)
        side, points, longest = _points_of(tuple(reversed(table)), scoring, ring)
        ties = longest if scoring == "2021" else (0, 0)
        rows.append((-1 if side is None else side, points[0], points[1], ties[0], ties[1]))
    return tuple(rows)


@lru_cache(maxsize=1 << 16)
def _castle_points(castles: tuple[int, ...], scoring: str, ring: bool
                   ) -> tuple[int | None, tuple[int, int], tuple[int, int]]:
    """:func:`_points_of`, cached: the exact endgame solvers score the same few hundred tables
    again and again, with many unspent counts."""
    return _points_of(castles, scoring, ring)


def _points_of(castles: tuple[int, ...], scoring: str, ring: bool
               ) -> tuple[int | None, tuple[int, int], tuple[int, int]]:
    """What the castles alone give: the side holding all of them (or None), each side's points
    before unspent cards, and each side's longest run."""
    side = sweeper(castles)
    if side is not None:
        return side, (0, 0), (0, 0)
    all_runs = [runs(castles, s, ring) for s in (ENGLISH, FRENCH)]
    longest = (max(all_runs[ENGLISH], default=0), max(all_runs[FRENCH], default=0))
    points = tuple(sum(t.points for t in _castle_terms(castles, s, scoring, ring)) for s in (ENGLISH, FRENCH))
    return None, (points[0], points[1]), longest


#: The kind of a score's term (:class:`ScoreTerm`) for a run of castles; the others are named as the tie-breaks
#: and endings are: the 2021 bonus of the longest run (:data:`LONGEST_RUN`), the unspent cards of 2021 scoring
#: (:data:`UNSPENT`), every castle held (:data:`SWEEP`, its flat points).
RUN = "run"


@dataclass(frozen=True)
class ScoreTerm:
    """One term of a side's final score: its kind, the castles it counts (indexes; none for unspent cards)
    and the points it gives.  A side's terms add up to its score in :func:`result`."""

    kind: str
    castles: tuple[int, ...]
    points: int


def _castle_terms(castles: tuple[int, ...], side: int, scoring: str, ring: bool) -> list[ScoreTerm]:
    """The terms the castles give a side when no side holds them all (RULES.md 6)."""
    found = run_castles(castles, side, ring)
    if scoring == "2021":
        terms = [ScoreTerm(RUN, run, len(run)) for run in found]
        longest = max(found, key=len, default=())
        if len(longest) >= 2:
            terms.append(ScoreTerm(LONGEST_RUN, longest, len(longest)))
        return terms
    return [ScoreTerm(RUN, run, 1 if len(run) == 1 else 2 * len(run)) for run in found]


def score_terms(p: "State", side: int) -> list[ScoreTerm]:
    """How ``side``'s score of ``p``'s table is made, castle by castle (a page explains a final score with it):
    the sweep's flat points, or each run, the 2021 longest-run bonus and unspent cards."""
    castles = tuple(p.castles)
    holder = sweeper(castles)
    if holder is not None:
        return [ScoreTerm(SWEEP, tuple(range(len(castles))), SWEEP_POINTS if holder == side else 0)]
    terms = _castle_terms(castles, side, p.rules.scoring, p.rules.adjacency == "ring")
    if p.rules.scoring == "2021":
        terms.append(ScoreTerm(UNSPENT, (), p.sides[side].unspent))
    return terms
