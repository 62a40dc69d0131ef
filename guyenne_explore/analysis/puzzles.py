"""Puzzles from games: the positions of game records where one move is clearly best, and why a move is not.

A puzzle is a decision of a recorded game (a person's or a bot's) where one move
is clearly better than every other, verified one of two ways:

- **exactly** (``"exact"``), where no side can draw again (the open-hand solver's
  endgames, :mod:`.optimal.solver`), at a side's last decision of the round (``open_second``,
  ``respond_second``): each legal move is valued against the equilibrium of the other side
  (its hidden cards weighed by the equilibrium's own chances of them, the rounds after at
  their solved value), and the puzzle is kept when the solver's equilibrium plays one move
  for sure and it beats every other by at least :data:`EXACT_MARGIN`;
- **by the search** (``"search"``) elsewhere: the compiled search's candidates
  (:meth:`.policies.search.ISMCTS.candidate_values`: ``strong``'s likeliest moves, and the
  move the game played) valued over the same rollouts from worlds dealt from the mover's view,
  kept when the best one's 95% Wilson interval lies above every other's by at least the margin.

A searched puzzle's values are the mover's chance to win, a draw counting half; an exact one's, the
mover's expected score difference (an open-hand endgame is most often won or lost whatever the
move: what a move changes there is by how much), by :data:`EXACT_MARGIN` points.  Each puzzle carries its
solution as a line of play (the best move, then the round to its end: the equilibrium's
likeliest moves, or ``strong``'s), and is tagged by the rules that line shows
(:data:`TAGS`), read from the positions the engine produced; :data:`SECTION_OF` links a tag,
and each step of a game, to its section of the rulebook.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..engine import (CONCEDE_CHOICE, DRAW, HERO, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, REMOVE_CHOICE, RESPOND_FIRST,
                          RESPOND_SECOND, SIDES, SWEEP, Event, GameRecord, Move, Position, concede_move, play_game)
from ..i18n import N_, FIRST_CASTLE, castle_number, current_language, gettext, plain_number, plain_percent, side_noun, translator
from .intervals import wilson
from .optimal.solver import OptimalSolver, english_payoff, round_key, why_not_solvable
from .policies.search import ISMCTS
from .policies.strong import Strong

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["SECTION_OF", "TAGS", "Puzzle", "PuzzleError", "PuzzleFinder", "PuzzleVerdict", "bot_games", "find_puzzles",
           "judge", "puzzles_from_bot_games", "puzzles_from_json", "rule_section"]

#: the rules a puzzle can teach, as its tags
TAGS = ("hero", "removal", "concede", "exhaustion", "reshuffle", "sweep")
#: a rule tag, a decision or chance point, or a storyboard step -> its section of the rulebook (RULES.md:
#: conceding is part of resolving a battle, section 4; an exhausted deck and the reshuffle, section 5 step 3).
#: Its values are the rulebook's section ids (:data:`guyenne_explore.rulebook.SECTION_IDS`, a test keeps them so).
SECTION_OF: dict[str, str] = {
    "hero": "battles", "removal": "removals", "concede": "battles", "exhaustion": "drawing", "reshuffle": "drawing",
    "sweep": "end",
    "start": "round", "deal": "setup", "setup_discard": "variants", "team_split": "team", "team_order": "team",
    OPEN_FIRST: "placements", RESPOND_FIRST: "placements", OPEN_SECOND: "placements", RESPOND_SECOND: "placements",
    "battle": "battles", CONCEDE_CHOICE: "battles", REMOVE_CHOICE: "removals", DRAW: "drawing", "end": "end",
}
#: what each tag's rule does, in a sentence that follows "the best move ..." in a learner's feedback
TAG_WORDS = {
    "hero": N_("wins a battle by the hero, whatever the sums"),
    "removal": N_("makes cards leave the game for good"),
    "concede": N_("makes the defender concede"),
    "exhaustion": N_("exhausts a deck"),
    "reshuffle": N_("makes a side shuffle its discard into a new deck"),
    "sweep": N_("ends the game by taking every castle"),
}
EXACT, SEARCH = "exact", "search"
#: defaults: the margin a searched best move must win by (in chances to win), the search's rollouts a candidate
MARGIN, GAMES = 0.05, 400
#: the margin of an exact puzzle, in points of the expected score difference (an open-hand endgame is most often
#: won or lost whatever the move: what a move changes there is by how much)
EXACT_MARGIN = 1.0
#: the decisions a puzzle is found at (team decisions and the expert setup are no puzzles)
DECISIONS = (*PLACEMENTS, REMOVE_CHOICE)
#: the puzzles ``puzzles --from-games`` plays bot games for, and the most games it plays for them (issue 45 asks
#: 50 a preset; benchmarks/bench_puzzles.py prints how many games each preset needs)
WANTED, MOST_GAMES = 50, 400


def rule_section(key: str) -> str:
    """The rulebook section of a rule tag or of a game step (:data:`SECTION_OF`); a step it does not know
    belongs to ``round``, the round's course."""
    return SECTION_OF.get(key, "round")


class PuzzleError(ValueError):
    """A puzzle file or entry that cannot be read; the message names the field first."""


@dataclass(frozen=True)
class Puzzle:
    """One verified puzzle: the full position at the mover's decision, its solution and the values behind it."""

    position: Position
    solution: Move
    #: every move valued, best first: the mover's chance to win (a draw half), or its expected score difference
    #: when exact
    values: tuple[tuple[Move, float], ...]
    method: str
    margin: float
    #: the solution's line of play: the best move, then the round to its end
    line: tuple[Event, ...]
    tags: tuple[str, ...]
    #: where the puzzle comes from: the record's name and the event's index
    source: str = ""
    #: the search's seed and rollouts a candidate (to value another move on the same games); 0 when exact
    seed: int = 0
    games: int = 0

    @property
    def side(self) -> int:
        side = self.position.side_to_play
        assert side is not None  # a puzzle is at a decision
        return side

    @property
    def sections(self) -> tuple[str, ...]:
        """The rulebook sections its tags belong to, each once."""
        return tuple(dict.fromkeys(rule_section(t) for t in self.tags))

    @property
    def best_value(self) -> float:
        return self.values[0][1]

    def record(self) -> GameRecord:
        """The solution as a game record from the puzzle's position (a storyboard draws it)."""
        return GameRecord(self.position, list(self.line))

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.position.rules.preset_name, "side": SIDES[self.side], "to_play": self.position.to_play,
                "position": self.position.to_json(), "solution": self.solution.text(), "method": self.method,
                "margin": self.margin, "tags": list(self.tags), "sections": list(self.sections),
                "values": [{"move": m.text(), "value": round(v, 6)} for m, v in self.values],
                "line": [e.to_json() for e in self.line], "source": self.source, "seed": self.seed,
                "games": self.games}

    @classmethod
    def from_json(cls, data: Any, field: str = "puzzle") -> "Puzzle":
        """A puzzle from its JSON; a :class:`PuzzleError` names the field that is wrong (the line is replayed)."""
        if not isinstance(data, dict):
            raise PuzzleError(gettext("{field}: a puzzle is an object with position, solution and values").format(
                field=field))
        for name in ("position", "solution", "values", "line", "method", "tags"):
            if name not in data:
                raise PuzzleError(gettext("{field}: missing field {name}").format(field=field, name=repr(name)))
        try:
            p = Position.from_json(data["position"])
            values = tuple((p.parse_move(v["move"]), float(v["value"])) for v in data["values"])
            line = tuple(Event.from_json(e, f"{field}.line[{i}]") for i, e in enumerate(data["line"]))
            GameRecord(p, list(line)).positions()
            return cls(p, p.parse_move(data["solution"]), values, str(data["method"]), float(data.get("margin", 0)),
                       line, tuple(data["tags"]), str(data.get("source", "")), int(data.get("seed", 0)),
                       int(data.get("games", 0)))
        except (ValueError, KeyError, TypeError) as exc:
            raise PuzzleError(f"{field}: {exc}") from None


# ---------------------------------------------------------------------- finding
class PuzzleFinder:
    """Finds the puzzles of game records under one margin and search budget, keeping the solvers it built
    (one a rule set: endgames of one game share their round starts)."""

    def __init__(self, margin: float = MARGIN, games: int = GAMES, seed: int = 0):
        self.margin, self.games, self.seed = margin, games, seed
        self.search = ISMCTS()
        self.strong = Strong()
        self._solvers: dict[Any, OptimalSolver] = {}
        #: the processor seconds each position took to verify (found or not), for the benchmark: the process's own
        #: time, which the other work of a shared machine does not lengthen as it does the wall clock's
        self.seconds: list[float] = []

    def solver(self, p: Position) -> OptimalSolver:
        s = self._solvers.get(p.rules)
        if s is None:
            s = self._solvers[p.rules] = OptimalSolver(p.rules, "score")
        return s

    def find(self, record: GameRecord, source: str = "") -> list[Puzzle]:
        """The puzzles of one game record, in the order of the game."""
        positions = record.positions()
        out = []
        for i, p in enumerate(positions):
            if p.is_over or p.is_chance or p.to_play not in DECISIONS or len(p.legal_moves) < 2:
                continue
            t = time.process_time()
            puzzle = self.verify(positions[: i + 1], f"{source}#{i}" if source else f"#{i}",
                                 record.events[i].move if i < len(record.events) else None)
            self.seconds.append(time.process_time() - t)
            if puzzle is not None and puzzle.tags:
                out.append(puzzle)
        return out

    def verify(self, history: Sequence[Position], source: str, played: Move | None = None) -> Puzzle | None:
        """The puzzle at the last position of ``history`` (the round so far before it), or None when no
        move is clearly best there."""
        p = history[-1]
        if why_not_solvable(p) is None and p.to_play in (OPEN_SECOND, RESPOND_SECOND):
            return self._exact(history, source)
        if why_not_solvable(p) is None:
            return None  # an endgame's opening of the round: its hidden plans are the solver's, not the search's
        return self._searched(p, source, played)

    # ------------------------------------------------------------------ exact
    def _exact(self, history: Sequence[Position], source: str) -> Puzzle | None:
        p = history[-1]
        solver = self.solver(p)
        mix, reached = solver.strategy(p)
        if not reached or not mix or mix[0][1] < 1 - 1e-6:
            return None  # a mixed equilibrium: no single move is the answer
        worlds = _hidden_worlds(history, solver)
        if not worlds:
            return None  # the other side's earlier play is outside the equilibrium: no chances to weigh it by
        side = p.side_to_play
        assert side is not None
        values = sorted(((m, _exact_value(p, m, worlds, solver, side)) for m in p.legal_moves),
                        key=lambda mv: -mv[1])
        if values[0][0] != mix[0][0] or values[0][1] - values[1][1] < EXACT_MARGIN:
            return None
        line = self._line(p, values[0][0], lambda q: _likeliest(q, solver))
        return Puzzle(p, values[0][0], tuple(values), EXACT, EXACT_MARGIN, line, tags_of(p, line), source)

    # ------------------------------------------------------------------ search
    def _searched(self, p: Position, source: str, played: Move | None) -> Puzzle | None:
        side = p.side_to_play
        assert side is not None
        seed = hash_seed(self.seed, source)
        valued = self.search.candidate_values(p.view(side), seed, self.games, (played,) if played else ())
        if not valued or len(valued) < 2:
            return None
        values = sorted(valued, key=lambda mv: -mv[1])
        low = wilson(values[0][1] * self.games, self.games)[0]
        if any(low - wilson(v * self.games, self.games)[1] < self.margin for _, v in values[1:]):
            return None
        rng = random.Random(seed)
        line = self._line(p, values[0][0], lambda q: self.strong.choose(q.view(q.side_to_play or 0), rng), rng)
        return Puzzle(p, values[0][0], tuple(values), SEARCH, self.margin, line, tags_of(p, line), source, seed,
                      self.games)

    def value_of(self, puzzle: Puzzle, move: Move) -> float:
        """The mover's value of a legal ``move`` the puzzle did not value (a search puzzle values ``strong``'s
        likeliest moves): the same search, seed and rollouts, so it compares with the puzzle's values."""
        for m, v in puzzle.values:
            if m == move:
                return v
        valued = self.search.candidate_values(puzzle.position.view(puzzle.side), puzzle.seed, puzzle.games, (move,))
        assert valued is not None  # the puzzle was valued by the same search from the same view
        return next(v for m, v in valued if m == move)

    def _line(self, p: Position, best: Move, choose: Callable[[Position], Move],
              rng: random.Random | None = None) -> tuple[Event, ...]:
        """The best move, then play to the end of the round: decisions by ``choose`` (a defender's concede by the
        built-in rule), chance from ``rng`` (an endgame's draw has one outcome)."""
        rng = rng or random.Random(0)
        events = [Event(p.to_play, p.side_to_play, move=best)]
        q = p.apply(best)
        while not q.is_over and (q.round == p.round or q.is_chance):
            if q.is_chance:
                draw = q.sample_outcome(rng)
                events.append(Event(q.to_play, None, draw=draw))
                q = q.apply_outcome(draw)
                continue
            side = q.side_to_play
            assert side is not None
            move = concede_move(q.view(side)) if q.to_play == CONCEDE_CHOICE else choose(q)
            events.append(Event(q.to_play, side, move=move))
            q = q.apply(move)
        return tuple(events)


def hash_seed(seed: int, source: str) -> int:
    """A search seed for one position of one record: the same on every run and machine (not Python's hash)."""
    import zlib

    return (seed * 1_000_003 + zlib.crc32(source.encode())) % (1 << 62)


def _likeliest(q: Position, solver: OptimalSolver) -> Move:
    """The equilibrium's likeliest move at a placement (any removal at a remove choice: in an endgame they
    all lead to the same state)."""
    first = next(iter(q.legal_moves))
    if q.to_play not in PLACEMENTS:
        return first
    mix, _ = solver.strategy(q)
    return mix[0][0] if mix else first


def _hidden_worlds(history: Sequence[Position], solver: OptimalSolver) -> list[tuple[Position, float]]:
    """The positions the mover cannot tell from the last one of ``history`` (the other side's face-down cards of
    this round changed), each with its chance under the equilibrium; for ``respond_second`` the second player's
    answers and openings, for ``open_second`` the first player's opening cards."""
    p = history[-1]
    by_point = {q.to_play: q for q in history if q.round == p.round}
    f, s = p.first, 1 - p.first
    if p.to_play == RESPOND_SECOND:
        q1 = by_point[RESPOND_FIRST]
        b, c = p.placed.at(s, 0), p.placed.at(s, 1)
        worlds = []
        answers, _ = solver.strategy(q1)
        for mb, wb in answers:
            if mb.cards.size != b.size:
                continue
            q2 = q1.apply(mb)
            seconds, reached = solver.strategy(q2)
            worlds += [(q2.apply(mc), wb * wc) for mc, wc in seconds
                       if reached and mc.castle == p.placed.y and mc.cards.size == c.size]
        return _normalised(worlds)
    q0 = by_point[OPEN_FIRST]
    a, b = p.placed.at(f, 0), p.placed.at(s, 0)
    x = p.placed.x
    assert x is not None  # castle X is chosen at open_second
    opens, _ = solver.strategy(q0, (x, a.size))
    return _normalised([(q0.apply(ma).apply(Move(b)), wa) for ma, wa in opens])


def _normalised(worlds: list[tuple[Position, float]]) -> list[tuple[Position, float]]:
    total = sum(w for _, w in worlds)
    return [(q, w / total) for q, w in worlds if w > 0] if total > 1e-9 else []


def _exact_value(p: Position, move: Move, worlds: list[tuple[Position, float]], solver: OptimalSolver,
                 side: int) -> float:
    """The mover's expected score difference after ``move``, over the worlds it cannot tell apart (the first player's answer
    at Y from the equilibrium), the rounds after at their solved value."""
    total = 0.0
    for q, w in worlds:
        q = q.apply(move)
        if q.to_play == RESPOND_SECOND:  # the second player opened Y: the first player answers as the equilibrium
            answers, _ = solver.strategy(q)
            total += w * sum(wd * _settled(q.apply(d), solver) for d, wd in answers)
        else:
            total += w * _settled(q, solver)
    return total if side == 0 else -total


def _settled(q: Position, solver: OptimalSolver) -> float:
    """English's expected score difference once the round's placements are done: its removals and draw played out (in an endgame they
    change nothing that matters), then the final score or the next round start's solved value."""
    while not q.is_over and q.to_play in (REMOVE_CHOICE, CONCEDE_CHOICE, DRAW):
        if q.is_chance:
            q = q.apply_outcome(q.chance_outcomes()[0][0])
        else:
            side = q.side_to_play
            assert side is not None
            q = q.apply(concede_move(q.view(side)) if q.to_play == CONCEDE_CHOICE else next(iter(q.legal_moves)))
    if q.is_over:
        return english_payoff(q.result(), solver.objective)
    return solver.value_of(round_key(q))


# ---------------------------------------------------------------------- tags
def tags_of(start: Position, line: Sequence[Event]) -> tuple[str, ...]:
    """The rules of :data:`TAGS` that the line from ``start`` shows, each read from the positions the engine
    produced: a battle with exactly one hero, a card gone to a removed zone, a defender conceding, a deck
    exhausted (or the game ending for want of cards), a discard shuffled into a new deck, a sweep."""
    ps = GameRecord(start, list(line)).positions()
    seen: list[str] = []
    for e, before, after in zip(line, ps, ps[1:]):
        if e.to_play == RESPOND_SECOND and e.move is not None:
            if _one_hero(before, e.move):
                seen.append("hero")
        if any(after.sides[s].removed.size > before.sides[s].removed.size for s in (0, 1)):
            seen.append("removal")
        if e.to_play == CONCEDE_CHOICE and e.move is not None and e.move.concede:
            seen.append("concede")
        if any(after.sides[s].exhaustions > before.sides[s].exhaustions for s in (0, 1)):
            seen.append("exhaustion")
        if e.to_play == DRAW and any(after.sides[s].discard.size < before.sides[s].discard.size for s in (0, 1)):
            seen.append("reshuffle")
    final = ps[-1]
    if final.is_over:
        ending = final.result().ending
        if ending is not None:
            seen.append("sweep" if ending.reason == SWEEP else "exhaustion")
    return tuple(t for t in TAGS if t in seen)


def _one_hero(before: Position, last: Move) -> bool:
    """Whether a battle of the round ``last`` completes has exactly one hero (RULES.md 4: it wins whatever the sums)."""
    f, s = before.first, 1 - before.first
    heroes_at = [(before.placed.at(f, 0), before.placed.at(s, 0)), (before.placed.at(f, 1) + last.cards,
                                                                     before.placed.at(s, 1))]
    return any((a[HERO] > 0) != (b[HERO] > 0) for a, b in heroes_at)


# ---------------------------------------------------------------------- a learner's move
@dataclass(frozen=True)
class PuzzleVerdict:
    """What a learner's move at a puzzle is: illegal, the solution, or legal and worse by ``loss``."""

    legal: bool
    correct: bool
    loss: float
    reason: str


def judge(puzzle: Puzzle, text: str, finder: PuzzleFinder | None = None, lang: str | None = None) -> PuzzleVerdict:
    """A learner's move in words (``lang``, default the current language): an illegal move gets the engine's
    reason; a legal one that is not the solution, by how much it is worse and what the best move achieves."""
    tr = translator(lang or current_language())
    _ = tr.gettext
    p = puzzle.position
    reason = p.why_illegal(text, FIRST_CASTLE) if text.strip() else _("type a move, e.g. 3:H52")
    if reason is not None:
        return PuzzleVerdict(False, False, 0.0, _("{move} is not allowed: {reason}.").format(move=text, reason=reason))
    move = p.parse_move(text, FIRST_CASTLE)
    best, value = puzzle.solution, puzzle.best_value
    exact = puzzle.method == EXACT
    if move == best:
        right = (_("Right: {move} is the best move; against best play it ends {value} points ahead on average.")
                 if exact else _("Right: {move} is the best move; it wins {value} of games."))
        return PuzzleVerdict(True, True, 0.0, right.format(move=move.text(FIRST_CASTLE), value=_shown(value, exact, lang)))
    mine = (finder or PuzzleFinder()).value_of(puzzle, move)
    words = {"move": move.text(FIRST_CASTLE), "mine": _shown(mine, exact, lang), "best": best.text(FIRST_CASTLE),
             "value": _shown(value, exact, lang),
             "loss": plain_number(value - mine if exact else 100 * (value - mine), 1 if exact else 0, lang),
             "achieves": _(" and ").join(tr.gettext(TAG_WORDS[t]) for t in puzzle.tags),
             "castles": _castles_won(puzzle, lang)}
    worse = (_("{move} is legal but worse: against best play it scores {loss} points less than {best}, which "
               "{achieves}{castles}.") if exact else
             _("{move} is legal but worse: it wins {mine} of games, {loss} points less than {best}, which wins {value} "
               "and {achieves}{castles}."))
    return PuzzleVerdict(True, False, value - mine, worse.format(**words))


def _shown(value: float, exact: bool, lang: str | None) -> str:
    """A value as a learner reads it, in the language's decimals: points ahead (exact) or a share of games won."""
    return plain_number(value, 1, lang, signed=True) if exact else plain_percent(value, lang)


def _castles_won(puzzle: Puzzle, lang: str | None) -> str:
    """The castles the mover holds after the solution's round and did not before, as a clause (or nothing)."""
    tr = translator(lang or current_language())
    before = puzzle.position.castles
    after = puzzle.record().final.castles
    won = [castle_number(c) for c in range(len(before)) if after[c] == puzzle.side != before[c]]
    if not won:
        return ""
    return tr.ngettext("; {side} then hold castle {castles}", "; {side} then hold castles {castles}", len(won)).format(
        side=side_noun(SIDES[puzzle.side], lang), castles=", ".join(str(c) for c in won))


# ---------------------------------------------------------------------- games and files
def bot_games(rules: Any, count: int, seed: int = 0) -> list[GameRecord]:
    """``count`` seeded games, the heuristic against ``strong``, seats swapped every other game."""
    return list(itertools.islice(_bot_games(Position.start(rules), seed), count))


def _bot_games(start: Position, seed: int) -> Iterator[GameRecord]:
    """The seeded games of :func:`bot_games`, played one at a time as they are asked for (game ``k`` from seed
    ``seed + k``, the heuristic first in even games): a caller can stop once it has what it needs."""
    from .policies.heuristic import Heuristic

    h, s = Heuristic(), Strong()
    for k in itertools.count():
        yield play_game(start, seed + k, (h, s) if k % 2 == 0 else (s, h))


def bot_game_name(preset_name: str, seed: int) -> str:
    """The name a bot game's puzzles cite as their source: its preset and its seed."""
    return f"{preset_name}-seed-{seed}"


def puzzles_from_bot_games(rules: Any, wanted: int = WANTED, most: int = MOST_GAMES, seed: int = 0,
                           finder: PuzzleFinder | None = None) -> tuple[list[Puzzle], int]:
    """The puzzles of :func:`bot_games`' games, played one at a time until ``wanted`` puzzles are found or ``most``
    games are played (a preset's yield differs, so no fixed count of games fits them all), and the number of games
    played.  The last game's puzzles are all kept: there may be a few more than ``wanted``."""
    start = Position.start(rules)
    finder = finder or PuzzleFinder(seed=seed)
    found: list[Puzzle] = []
    played = 0
    for record in _bot_games(start, seed):
        if len(found) >= wanted or played >= most:
            break
        found += finder.find(record, bot_game_name(start.rules.preset_name, seed + played))
        played += 1
    return found, played


def find_puzzles(records: Iterable[tuple[str, GameRecord]], margin: float = MARGIN, games: int = GAMES,
                 seed: int = 0, finder: PuzzleFinder | None = None) -> list[Puzzle]:
    """The puzzles of named game records, in order."""
    finder = finder or PuzzleFinder(margin, games, seed)
    return [pz for name, record in records for pz in finder.find(record, name)]


def puzzles_from_json(data: Any) -> list[Puzzle]:
    """Puzzles from a list of their JSON (what ``guyenne-explore puzzles --json`` writes)."""
    if not isinstance(data, list):
        raise PuzzleError(gettext("puzzles: a list of puzzles"))
    return [Puzzle.from_json(d, f"puzzles[{i}]") for i, d in enumerate(data)]
