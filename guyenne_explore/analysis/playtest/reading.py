"""Each decision of a recorded game read against the bots, each draw's luck, and a game's luck-adjusted result.

**Decisions.**  At every decision with more than one legal move, the side's own view (with the public record of
the game so far) is given to the search (:meth:`.policies.search.ISMCTS.candidate_values`): ``strong``'s
:data:`~.policies.search.CANDIDATES` likeliest moves and the move played are each valued by the same ``budget``
rollouts from worlds consistent with that view (a win 1, a draw 1/2, ``strong`` against ``strong``).  The *loss*
is the best candidate's value minus the played move's (0 where the move played is the best), with a 95% interval
for a difference of two proportions: Newcombe's (1998) hybrid of the two means' Wilson intervals (values in [0, 1],
as a proportion's; the candidates share their rollouts, so the interval errs wide).  The normal bound it replaced,
``m (1 - m)`` of each mean, shrank to a point where every rollout agreed: a reading said "Win chance lost: 1.000
[1.000, 1.000]" after rollouts that all won for the best move and all lost for the move played.  Bands by the loss in win chance
(:data:`BANDS`): an *inaccuracy* from 0.03, a *mistake* from 0.08, a *blunder* from 0.20.  A game's or a
player's *accuracy* is ``100 exp(-K mean loss)`` with :data:`ACCURACY_K` = 10 (a mean loss of 0.05 reads 61).
Decisions the compiled loop does not play from (rules it does not play, a removal whose other choices ``strong``
never makes) are left unread (their loss is None) and counted.

**Exact values.**  A placement decision of an open-hand endgame (no side can draw again, both hands known to a
careful player: :func:`.optimal.solver.why_not_solvable`) with at most :data:`EXACT_CARDS` cards in both hands is
valued exactly instead, by the open-hand solver (:meth:`.optimal.solver.OptimalSolver.move_values`): every legal
move's value for the side to play (win 1, draw 1/2) against the other side's equilibrium mix over its hidden
placements, the side playing its best at its later placements of the round.  The loss is the best move's value
minus the played move's, with no interval: a move the equilibrium plays loses 0.  A decision the other side's
equilibrium never leads to (a ``respond_second`` after an opening its mix never makes) has no such value and is read
by the search.  Each decision says which: ``valued_by`` is ``"exact"`` or ``"search:N"``.

**Draws.**  A draw's *luck*, for the English side, is the value of the position after it minus the mean over
every draw possible there, weighed by the engine's exact probabilities (``Position.chance_outcomes``): the
values by ``budget`` rollouts of ``strong`` against ``strong`` from the full position (the luck a strong player
would feel), the mean exactly over the outcomes where there are at most :data:`ENUMERATED`, else over
``budget`` outcomes drawn by those probabilities.  The French side's luck is its opposite.  A game's
*luck-adjusted result* is its result for the English (win 1, draw 1/2) minus the English's summed luck: what
the game says of the play once the cards are taken out.

Readings are kept in a cache folder (:func:`cache_folder`) under the record's fingerprint, the budget and the
seed, so a report over the same records reads them at once the second time.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ...engine import ENGLISH, SIDES, GameRecord, Move, Position, PublicRecord, SideView, side_score
from ...i18n import gettext
from ..cancel import Cancelled
from ..intervals import difference_interval, wilson
from ..optimal.solver import OptimalSolver, round_key, why_not_solvable
from ..policies.search import ISMCTS
from ..policies.spec import PolicySpec
from ..policies.weights import cache_dir

#: loss thresholds (win chance) of the bands, worst first
BANDS = ((0.20, "blunder"), (0.08, "mistake"), (0.03, "inaccuracy"))
#: the accuracy curve: ``100 exp(-ACCURACY_K * mean loss)``
ACCURACY_K = 10.0
#: a draw's outcomes are all valued up to this many; beyond, ``budget`` outcomes are drawn by their probabilities
ENUMERATED = 16
#: the largest search budget a reading takes (rollouts a decision)
MAX_BUDGET = 100_000
#: rough seconds a rollout of a reading costs on one core (decisions: the candidates' rollouts; draws: the
#: outcomes'), measured by ``benchmarks/bench_playtest.py`` (about 0.1 s a decision at search:400 on two cores)
SECONDS_A_ROLLOUT = 0.00003
#: what ``valued_by`` says of a decision valued by the open-hand solver
EXACT = "exact"
#: the most cards both hands may hold together (placed cards counted) for a decision valued exactly: the solver's
#: work grows fast with them (about 0.5 s at 8 cards, 8 s at 10, a minute at 12, one core, once per endgame)
EXACT_CARDS = 10

OnStep = Callable[[int, int], "bool | None"]


class PlaytestError(ValueError):
    """A playtest request that cannot be answered (a budget not of the search, a level with no move weights)."""


def budget_of(text: str) -> int:
    """The rollouts a decision of ``search:N``, read as the level it names (:class:`PolicySpec`); a PlaytestError
    says the form (a budget in milliseconds, or above :data:`MAX_BUDGET`, does not fit a reading's cache)."""
    try:
        rollouts = PolicySpec.parse(text).rollouts
    except ValueError:  # not a level: the same words as a level that is not a search of rollouts
        rollouts = None
    if rollouts is None or rollouts > MAX_BUDGET:
        raise PlaytestError(gettext("the budget {budget}: the search with a number of rollouts a decision, "
                                    "search:400 (1 to {most})").format(budget=repr(text), most=MAX_BUDGET))
    return rollouts


def band(loss: float | None) -> str | None:
    """The band of a loss (:data:`BANDS`), "" for a good move, None for a decision not read."""
    if loss is None:
        return None
    return next((name for limit, name in BANDS if loss >= limit), "")


def accuracy(mean_loss: float) -> float:
    """The accuracy of a mean loss on the stated curve (:data:`ACCURACY_K`)."""
    return 100.0 * math.exp(-ACCURACY_K * mean_loss)


# ---------------------------------------------------------------------- walking a record
@dataclass(frozen=True)
class Seat:
    """Who decided for a side (and a team's member): a person's name, or a bot's policy."""

    side: int
    member: int
    name: str
    person: bool

    def to_json(self) -> dict[str, Any]:
        return {"side": SIDES[self.side], "member": self.member, "name": self.name,
                "kind": "person" if self.person else "bot"}


def seats_of(record: GameRecord) -> tuple[Seat, ...]:
    """The record's seats from its header; a record without one (played before headers) has one person a side,
    named by the side."""
    header = record.header
    if header is None:
        return tuple(Seat(side, 0, SIDES[side], True) for side in (0, 1))
    return tuple(Seat(SIDES.index(s.side), s.member, s.name or s.policy or s.side, s.kind == "person")
                 for s in header.seats)


def seat_at(seats: Sequence[Seat], side: int, member: int) -> Seat:
    """The seat deciding for ``side``'s ``member`` (a solo side: its only seat)."""
    mine = [s for s in seats if s.side == side]
    return next((s for s in mine if s.member == member), mine[0])


@dataclass(frozen=True)
class Step:
    """One decision of a record: the position, the deciding side's view with the public record, the move."""

    index: int
    position: Position
    view: SideView
    move: Move
    think_ms: int | None

    @property
    def choices(self) -> int:
        return len(self.view.legal_moves)


def steps(record: GameRecord) -> Iterator[Step]:
    """The record's decisions with a choice (more than one legal move), in order, each from the decider's view
    as it was in the game (the public record folded from the start, as the game loop gives it)."""
    positions = record.positions()
    public = PublicRecord.assumed(positions[0])
    for i, (before, after, event) in enumerate(zip(positions, positions[1:], record.events)):
        if event.move is not None and event.side is not None:
            view = dataclasses.replace(before.view(event.side), record=public)
            step = Step(i, before, view, event.move, record.thought(i))
            if step.choices > 1:
                yield step
        public = public.after(before, after, event.move)


def fingerprint(record: GameRecord) -> str:
    """A record's short stable name: the hash of its JSON with sorted keys (header, moves, thinking times)."""
    data = record.to_json()
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def play_fingerprint(record: GameRecord) -> str:
    """The hash of what was played (the start and each event), without the header: a reading's random stream is
    seeded by it, so the same game read at the same seed gives the same reading whenever and by whomever it
    was recorded (its date is in the header)."""
    text = json.dumps({"start": record.start.to_json(), "events": [e.to_json() for e in record.events]},
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def english_score(record: GameRecord) -> float | None:
    """The game's result for the English (win 1, draw 1/2, loss 0); None for a game not over."""
    final = record.final
    return side_score(final.result().winner, ENGLISH) if final.is_over else None


# ---------------------------------------------------------------------- readings
@dataclass(frozen=True)
class DecisionReading:
    """One decision against the bots: the move, its value and the best candidate's, the loss with its interval."""

    index: int
    round: int
    side: int
    member: int
    point: str
    move: str
    choices: int
    think_ms: int | None
    value: float | None
    best: float | None
    best_move: str | None
    #: how the values were found: "exact" (the open-hand solver) or "search:N" (N rollouts a candidate)
    valued_by: str

    @property
    def loss(self) -> float | None:
        return None if self.value is None or self.best is None else max(0.0, self.best - self.value)

    def loss_interval(self, games: int) -> tuple[float, float] | None:
        """The loss's 95% interval over ``games`` rollouts a candidate (see the module's words); None for a decision
        not read, and for one valued exactly (its loss has no interval)."""
        loss = self.loss
        if loss is None or self.value is None or self.best is None or self.valued_by == EXACT:
            return None
        low, high = difference_interval(self.best, wilson(self.best * games, games),
                                        self.value, wilson(self.value * games, games))
        return max(0.0, low), min(1.0, high)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class DrawLuck:
    """A chance event's luck for the English: the value after the draw minus the mean over every draw."""

    index: int
    round: int
    point: str
    outcomes: int
    after: float | None
    mean: float | None

    @property
    def luck(self) -> float | None:
        return None if self.after is None or self.mean is None else self.after - self.mean

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class GameReading:
    """One record read: its seats, each decision, each draw's luck, the result and the luck-adjusted result."""

    name: str
    fingerprint: str
    rules: str
    first: int
    seats: tuple[Seat, ...]
    result: float | None
    decisions: tuple[DecisionReading, ...]
    draws: tuple[DrawLuck, ...]

    @property
    def luck(self) -> float:
        """The English's summed luck over the draws read."""
        return sum(d.luck for d in self.draws if d.luck is not None)

    @property
    def luck_adjusted(self) -> float | None:
        return None if self.result is None else self.result - self.luck

    def player(self, decision: DecisionReading) -> Seat:
        return seat_at(self.seats, decision.side, decision.member)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "fingerprint": self.fingerprint, "rules": self.rules, "first": SIDES[self.first],
                "seats": [s.to_json() for s in self.seats], "result": self.result, "luck": self.luck,
                "luck_adjusted": self.luck_adjusted}


def cache_folder() -> Path:
    """Where readings are kept: beside the trained weights in the user's cache (``$GUYENNE_CACHE``)."""
    return cache_dir().parent / "playtest"


def _cache_file(fp: str, budget: int, seed: int) -> Path:
    from ... import __version__

    return cache_folder() / f"{fp}-search{budget}-seed{seed}-v{__version__}.json"


def reading_cost(records: Sequence[GameRecord], budget: int, seed: int = 0) -> tuple[int, int, int, float]:
    """What reading ``records`` at ``budget`` costs before it starts: the decisions and draws to read, the games
    already read (in the cache), and rough seconds on one core for the rest."""
    decisions = draws = cached = 0
    for record in records:
        if _cache_file(fingerprint(record), budget, seed).exists():
            cached += 1
            continue
        draws += sum(e.draw is not None for e in record.events)
        decisions += sum(1 for _ in steps(record))
    seconds = SECONDS_A_ROLLOUT * budget * (decisions * 9 + draws * 2)
    return decisions, draws, cached, seconds


def read_games(named: Sequence[tuple[str, GameRecord]], budget: int = 400, seed: int = 0,
               on_step: OnStep | None = None, cache: bool = True) -> list[GameReading]:
    """Every record read at ``budget`` rollouts (see the module's words), from the cache where it is there.
    ``on_step(done, total)`` counts decisions and draws as they are read and cancels by returning False
    (:class:`Cancelled`)."""
    todo = [(name, record, fingerprint(record)) for name, record in named]
    total = sum(len(record.events) for _n, record, _f in todo)
    done = 0
    out = []
    for name, record, fp in todo:
        file = _cache_file(fp, budget, seed)
        reading = _cached(file, name, record, fp) if cache else None
        if reading is None:
            def tick(step: int, before: int = done) -> None:
                if on_step is not None and on_step(before + step, total) is False:
                    raise Cancelled()
            reading = read_game(name, record, budget, seed, tick, fp)
            if cache:
                _store(file, reading)
        done += len(record.events)
        if on_step is not None and on_step(done, total) is False:
            raise Cancelled()
        out.append(reading)
    return out


def read_game(name: str, record: GameRecord, budget: int, seed: int = 0,
              tick: Callable[[int], None] | None = None, fp: str | None = None) -> GameReading:
    """One record read (see the module's words); ``tick(events done)`` between two reads."""
    import numba

    fp = fp or fingerprint(record)
    search = ISMCTS(budget)
    solver = OptimalSolver(record.start.rules)  # one a game: the endgame's later decisions reuse its rounds
    rng = random.Random(f"{seed}:{play_fingerprint(record)}")
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # many small batches: starting threads would cost more than they bring
    try:
        decisions = []
        for step in steps(record):
            decisions.append(_decision(search, solver, step, budget, rng.getrandbits(62)))
            if tick is not None:
                tick(step.index)
        positions = record.positions()
        draws = []
        for i, (before, event) in enumerate(zip(positions, record.events)):
            if event.draw is not None:
                draws.append(_luck(i, before, event.draw, positions[0].round, budget, rng.getrandbits(62)))
                if tick is not None:
                    tick(i)
    finally:
        numba.set_num_threads(threads)
    start = record.start
    return GameReading(name, fp, str(start.rules), SIDES.index(start.rules.first_side), seats_of(record),
                       english_score(record), tuple(decisions), tuple(draws))


def _decision(search: ISMCTS, solver: OptimalSolver, step: Step, budget: int, seed: int) -> DecisionReading:
    """One decision's values: every legal move's exact value where the open-hand solver reads it
    (:func:`_exact_values`), else the search's candidates' and the move played's (None where it does not read)."""
    p = step.position
    valued, valued_by = _exact_values(solver, p), EXACT
    if valued is None:
        valued = search.candidate_values(step.view, seed, budget, also=[step.move])
        valued_by = str(PolicySpec("search", rollouts=budget))
    value = best = None
    best_move = None
    if valued is not None and len(valued) > 1:
        values = dict(valued)
        value = values.get(step.move)
        top = max(valued, key=lambda mv: mv[1])
        best, best_move = top[1], top[0].text()
    return DecisionReading(step.index, p.round, step.view.side, step.view.member, p.to_play, step.move.text(),
                           step.choices, step.think_ms, value, best, best_move, valued_by)


def _exact_values(solver: OptimalSolver, p: Position) -> list[tuple[Move, float]] | None:
    """Every legal move's exact value for the side to play (win 1, draw 1/2) where ``p`` is a placement of an
    open-hand endgame (:func:`~..optimal.solver.why_not_solvable`) with at most :data:`EXACT_CARDS` cards in both
    hands and the other side's equilibrium leads to it; else None: the search reads it."""
    if why_not_solvable(p) is not None:
        return None
    _castles, _first, english, french = round_key(p)
    if english.size + french.size > EXACT_CARDS:
        return None
    return solver.move_values(p)


def _luck(index: int, p: Position, drawn: Any, first_round: int, budget: int, seed: int) -> DrawLuck:
    """A draw's luck for the English (see the module's words); no value where the compiled loop does not play."""
    outcomes = p.chance_outcomes()
    point, round_ = p.to_play, p.round - first_round + 1
    if len(outcomes) == 1:
        return DrawLuck(index, round_, point, 1, 0.0, 0.0)
    after = _value(p.apply_outcome(drawn), budget, seed)
    if after is None:
        return DrawLuck(index, round_, point, len(outcomes), None, None)
    if len(outcomes) <= ENUMERATED:
        each = max(1, budget // len(outcomes))
        weighted = [(float(prob), _value(p.apply_outcome(o), each, seed)) for o, prob in outcomes]
    else:
        rng = random.Random(seed)
        drawn_outcomes = rng.choices([o for o, _ in outcomes], weights=[float(w) for _, w in outcomes], k=budget)
        counts: dict[Any, int] = {}
        for o in drawn_outcomes:
            counts[o] = counts.get(o, 0) + 1
        weighted = [(n / budget, _value(p.apply_outcome(o), n, seed)) for o, n in counts.items()]
    values = [(w, v) for w, v in weighted if v is not None]
    if len(values) < len(weighted):  # a draw the compiled loop does not play from: no mean to compare to
        return DrawLuck(index, round_, point, len(outcomes), after, None)
    return DrawLuck(index, round_, point, len(outcomes), after, sum(w * v for w, v in values))


def _value(q: Position, games: int, seed: int) -> float | None:
    """The English's mean result over ``games`` compiled games of ``strong`` against ``strong`` from ``q``
    (win 1, draw 1/2); None where the compiled loop does not play from ``q``."""
    if q.is_over:
        return side_score(q.result().winner, ENGLISH)
    from ..compiled import layout
    from ..compiled.rollout import summaries_if_played
    from ..policies.sides import compiled_sides

    out = summaries_if_played(q, games, seed, 0, compiled_sides(("strong", "strong"), q.rules))
    if out is None:
        return None
    winners = out[:, layout.OUT_WINNER]
    return float(layout.side_scores(winners, ENGLISH).sum()) / games


# ---------------------------------------------------------------------- the cache
def _store(file: Path, reading: GameReading) -> None:
    """Keep a reading (replaced whole, so a reader never sees half a file)."""
    file.parent.mkdir(parents=True, exist_ok=True)
    data = {"decisions": [d.to_json() for d in reading.decisions], "draws": [d.to_json() for d in reading.draws]}
    tmp = file.with_name(f"{file.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, file)


def _cached(file: Path, name: str, record: GameRecord, fp: str) -> GameReading | None:
    """The reading kept for this record, or None (none kept, or one this version cannot read: read again)."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        decisions = tuple(DecisionReading(**d) for d in data["decisions"])
        draws = tuple(DrawLuck(**d) for d in data["draws"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    start = record.start
    return GameReading(name, fp, str(start.rules), SIDES.index(start.rules.first_side), seats_of(record),
                       english_score(record), decisions, draws)
