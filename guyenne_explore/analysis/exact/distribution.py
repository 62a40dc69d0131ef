"""Exact outcome distributions by enumeration of every move and chance outcome.

The value of a position is a distribution over final outcomes
``(english score, french score, winner, ending, rounds still to play)`` with exact
fractions; ``ending`` is the reason of the engine's :class:`~guyenne_explore.engine.scoring.Ending`
(a sweep, a side that exhausted its deck, a side out of cards), which a score alone
does not tell (under classic2021 a side scores 12 without a sweep).  A round is
expanded breadth first, merging equal positions at each step, down to the
positions where it ends (a draw between rounds or the end of the game); only the positions after the draws, one per start of a
round, are memoised.  Many placements lead to the same table, so this keeps
the number of solved states small (the ``states`` of a result).  Round starts
from which no side can reshuffle again go to the forward pass of
:mod:`.exact.forward_exact`, which gives the same values far faster (``fast=False`` keeps the plain
enumeration, the reference the tests compare it with).
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from fractions import Fraction
from math import lcm
from typing import Any, Callable

from ...engine import OPEN_FIRST, Position, PublicRecord, apply_legal, game_members, side_view
from ...i18n import gettext, ngettext, plain_duration
from ..cancel import Cancelled
from ..limits import Budget, ExactOutOfReach
from .reference import Reference, Value
from .endgame import Endgame, applies
from .forward import ForwardEndgame
from .forward_exact import ExactForwardEndgame
from ..policies import Policy

Outcome = tuple[int, int, str, str, int]
Distribution = dict[Outcome, Fraction]  # the same shape as :data:`.exact.endgame.Distribution`


class NotExact(ValueError):
    """A policy without exact move probabilities was asked for an exact analysis."""


def require_exact(policies: tuple[Policy, Policy]) -> None:
    """Exact enumeration needs each policy's move probabilities as fractions."""
    for pol in policies:
        if not getattr(pol, "exact", False):
            raise NotExact(gettext("policy {name} has no exact move distribution; sample instead").format(
                name=repr(pol.name)))


def out_of_reach(nodes: float, seconds: float) -> str:
    """Why an exact request is refused, in plain units (the caller may force it)."""
    return gettext("exact enumeration is out of reach here: it would take {duration} (an estimated {count} positions "
                   "to visit); sample instead, or force it").format(duration=plain_duration(seconds),
                                                                    count=_plain_count(nodes))


def _plain_count(n: float) -> str:
    """A count of positions in words, the noun's grammar in each translation (French says "3 milliards
    de positions" but "2 mille positions", which Babel's compact numbers do not carry)."""
    if not n < 1e15:
        return gettext("more than a million billion")
    for size, name in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"), (1e3, "thousand")):
        if n >= size:
            count = round(n / size)
            said = {"trillion": ngettext("{count} trillion", "{count} trillion", count),
                    "billion": ngettext("{count} billion", "{count} billion", count),
                    "million": ngettext("{count} million", "{count} million", count),
                    "thousand": ngettext("{count} thousand", "{count} thousand", count)}
            return said[name].format(count=count)
    return f"{n:.0f}"


#: Positions of a round's step between two reports inside it (:meth:`Solver.round_ends`): the first round of 16
#: castles has hundreds of thousands, and Cancel or the budget must not wait for its end
POSITIONS_A_REPORT = 1000
#: Cards in hands and decks up to which an endgame goes to the memoised endgame solver rather than the
#: exact forward pass (``benchmarks/bench_exact.py``: the 4-against-4 check endgames take about as long either way)
SMALL_ENDGAME = 8


def forward_pass_takes(p: Position, top: bool, floats: bool) -> bool:
    """Whether the first endgame round start met, ``p`` (the position asked about itself when ``top``), goes to a
    forward pass over the rounds rather than the memoised :class:`.exact.endgame.Endgame`: the one place this is
    decided, read by the solver and by the cost estimate (each solver counts its states in its own unit).  Never
    under rules of so many castles that the pass's 3^castles tables would outgrow the memory budget; always in
    float64; in fractions, only an endgame asked about itself holding more than :data:`SMALL_ENDGAME` cards."""
    if not ForwardEndgame.fits(p.rules):
        return False
    return floats or (top and sum(s.hand.size + s.deck.size for s in p.sides) > SMALL_ENDGAME)


class Solver:
    """Enumerates a game tree under a pair of exact policies, memoising round starts."""

    def __init__(self, policies: tuple[Policy, Policy],
                 progress: Callable[[int], bool | None] | None = None, fast: bool = True, floats: bool = False,
                 budget: Budget | None = None):
        require_exact(policies)
        self.policies = policies
        #: a policy reads the public record (``remembers``): each path carries its record, as the game loop folds
        #: it, and round starts are memoised by position and record (None: by position)
        self.remembers = any(getattr(pol, "remembers", False) for pol in policies)
        self.memo: dict[Any, Distribution] = {}
        self.progress = progress
        #: what the run may spend, checked at each report (by default the memory budget, no time limit)
        self.budget = budget or Budget(None)
        self.names = (policies[0].name, policies[1].name)
        self.fast = fast
        #: endgame round starts go to the forward pass over the rounds: in exact integers
        #: (:mod:`.exact.forward_exact`), or with ``floats`` in float64 (:mod:`.exact.forward`)
        self.floats = floats
        self.endgame: ForwardEndgame | Endgame | None = None
        #: uniform play in fractions: a memoised recursion that merges positions sharing a future
        #: (:mod:`.exact_reference`), with the same endgame solvers at endgame round starts
        #: (in float64 too for teams: no endgame round start of a team game is summed in floats)
        self.merged = _Merged(self) if fast and self.names == ("uniform", "uniform") else None

    @property
    def states(self) -> int:
        """Round-start states solved (by the engine, and by the endgame solver)."""
        merged = self.merged.states if self.merged else 0
        return len(self.memo) + merged + (self.endgame.states if self.endgame else 0)

    def endgame_value(self, p: Position, top: bool) -> Distribution:
        """An endgame round start's distribution: a position that is an endgame itself goes to the forward
        pass (:mod:`.exact.forward_exact`, or float64 with ``floats``); the many round starts met inside a
        larger tree, and endgames of at most :data:`SMALL_ENDGAME` cards (the forward pass's setup costs
        more than they do), go to :class:`.exact.endgame.Endgame`, whose memo they share; so do all of them under
        rules of so many castles that the forward pass's 3^castles tables would outgrow the memory budget."""
        if self.endgame is None:
            if not forward_pass_takes(p, top, self.floats):
                self.endgame = Endgame(p.rules, self._report)
            else:
                self.endgame = (ForwardEndgame if self.floats else ExactForwardEndgame)(p.rules, self._report)
        # with ``floats`` the forward pass's float64 values stand in for the fractions: the sums below take either
        return self.endgame.value(p)  # type: ignore[return-value]

    def round_ends(self, p: Position, record: PublicRecord | None = None
                   ) -> dict[tuple[Position, PublicRecord | None], Fraction]:
        """The positions where the current round's decisions stop (chance or end), each with its record (None
        unless a policy remembers), with probabilities."""
        ends: dict[tuple[Position, PublicRecord | None], Fraction] = defaultdict(Fraction)
        level: dict[tuple[Position, PublicRecord | None], Fraction] = {(p, record): Fraction(1)}
        while level:
            nxt: dict[tuple[Position, PublicRecord | None], Fraction] = defaultdict(Fraction)
            for i, ((q, seen), pq) in enumerate(level.items()):
                if i % POSITIONS_A_REPORT == POSITIONS_A_REPORT - 1:  # a round of many castles: minutes
                    self._report(0)
                if q.is_chance or q.is_over:
                    ends[(q, seen)] += pq
                    continue
                side = q.side_to_play
                assert side is not None  # neither chance nor the end: a side decides
                view = q.view(side) if seen is None else side_view(q, side, record=seen)
                for move, pm in self.policies[side].distribution(view):
                    child = apply_legal(q, move)
                    nxt[(child, None if seen is None else seen.after(q, child, move))] += pq * pm
            level = nxt
        return ends

    def solve(self, p: Position, top: bool = True, record: PublicRecord | None = None) -> Distribution:
        """The distribution from ``p``, reached with ``record`` (where a policy remembers; at the top, what the
        position alone tells: :meth:`PublicRecord.assumed`, as a sampled game starts)."""
        if self.remembers and record is None:
            record = PublicRecord.assumed(p)
        key = (p, record) if self.remembers else p
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if self.fast and applies(p, self.names):
            return self.endgame_value(p, top)
        if self.merged is not None and (not self.floats or p.rules.is_team):
            return self.merged.distribution(p)
        out: Distribution = defaultdict(Fraction)
        if p.is_over:
            r = p.result()
            assert r.ending is not None
            out[(r.english, r.french, r.winner, r.ending.reason, 0)] = Fraction(1)
        elif p.is_chance:
            for draw, pd in p.chance_outcomes():
                child = p.apply_outcome(draw)
                shift = child.round - p.round
                seen = None if record is None else record.after(p, child)
                for (e, f, w, ending, n), q in self.solve(child, False, seen).items():
                    out[(e, f, w, ending, n + shift)] += pd * q
        else:
            for (end, seen), pe in self.round_ends(p, record).items():
                for outcome, q in self.solve(end, False, seen).items():
                    out[outcome] += pe * q
        out = dict(out)
        if not p.is_chance and not p.is_over:
            self.memo[key] = out
            self._report(0)
        return out

    def _report(self, _: int) -> None:
        """Told by every solver as its states grow: stops the run past its budget, or when the caller cancels."""
        self.budget.check(self.states)
        if self.progress and self.progress(self.states) is False:
            raise Cancelled()


class _Merged(Reference):
    """The reference recursion with the solver's endgame solvers at endgame round starts."""

    def __init__(self, solver: Solver):
        super().__init__(True, lambda _: solver._report(0))  # the budget and the caller, every 1,000 states
        self.solver = solver

    def shortcut(self, p: Position) -> Value | None:
        if p.to_play != OPEN_FIRST or not applies(p, self.solver.names):
            return None
        dist = self.solver.endgame_value(p, False)
        den = lcm(*(q.denominator for q in dist.values()))
        return den, {o: q.numerator * (den // q.denominator) for o, q in dist.items()}


def exact_distribution(p: Position, policies: tuple[Policy, Policy],
                       progress: Callable[[int], bool | None] | None = None,
                       fast: bool = True, floats: bool = False, budget: Budget | None = None) -> tuple[Distribution, int]:
    """The distribution from ``p`` and the number of round-start states solved.

    With ``floats`` the endgames are summed in float64 (:mod:`.exact.forward`): the same
    distribution to rounding, far sooner, but no fractions.  ``budget`` bounds the run's memory and time
    (by default the memory budget alone); a run past it, or one that still runs out of memory (the memo of a
    state far larger than :data:`.limits.BYTES_A_STATE`), stops with :class:`.limits.ExactOutOfReach`.

    A policy that draws what plays the game once a game (``game_members``: a mixture drawn once a game) is
    enumerated as that draw: the odds-weighted sum of the distributions of each pair of what the two sides draw."""
    drawn = [game_members(policy, p.rules) for policy in policies]
    if len(drawn[0]) > 1 or len(drawn[1]) > 1:
        total: Distribution = {}
        states = 0
        for share_e, english in drawn[0]:
            for share_f, french in drawn[1]:  # (progress counts the states of every pair so far)
                told = None if progress is None else partial(_counted_from, progress, states)
                dist, solved = exact_distribution(p, (english, french), told, fast, floats, budget)
                states += solved
                for outcome, q in dist.items():
                    total[outcome] = total.get(outcome, 0) + share_e * share_f * q
        return total, states
    solver = Solver(policies, progress, fast, floats, budget)
    try:
        with _no_cycle_collection():
            dist, states = solver.solve(p), solver.states
    except MemoryError:  # the memos are freed as the error unwinds: a refusal in words, not a crash
        solver.memo.clear()
        solver.merged = solver.endgame = None  # the error's frames keep the solver: not its memos
        raise ExactOutOfReach(gettext("exact enumeration ran out of memory; sample instead"),
                              forceable=False) from None
    solver.merged = None  # it refers back to the solver: without that cycle the memos go at once
    return dist, states


def _counted_from(progress: Callable[[int], bool | None], before: int, states: int) -> bool | None:
    """``progress`` told the states solved by the pairs before this one and this one's so far."""
    return progress(before + states)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The enumeration allocates millions of positions, keys and integer vectors that form no
    reference cycles: the cyclic garbage collector finds nothing among them, yet its passes over an
    ever larger memo take a sixth of a team position's time (``benchmarks/bench_exact.py``).
    Reference counting still frees everything; the collector runs again once the enumeration returns
    or raises."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
