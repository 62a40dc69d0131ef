"""Which machinery answers an analysis, decided in one place and returned as a value.

An analysis of a position can be answered by an exact solver (the endgame solver, or the
enumeration of every move and deal) or by sampled games (the compiled game loop, or the engine
playing policies in Python, worth spreading over worker processes).  Which one depends on the
policies, the rules, the point of play, the size of the tree and what the user asked for.
:func:`plan` weighs all of it once and returns a :class:`Plan`: the method, the solver or
sampler, the arithmetic, whether the games are worth spreading over processes, the estimated
cost, and the reason in words the panels and the command line show.  :func:`.api.analyse`
executes a plan and nothing else decides.

The machinery keeps its own capability checks (what the compiled loop can encode, when a round
start is an endgame); this module is the one that asks them and chooses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from math import comb
from typing import TYPE_CHECKING, Iterable

from ..engine_api import Cards, Draw, Hooks, Move, Position, play
from ..i18n import N_, gettext, ngettext, plain_count
from .compiled.encode import unsupported as compiled_uniform_unsupported
from ..i18n import plain_duration
from .exact.distribution import out_of_reach, require_exact
from .exact.endgame import applies, in_reach
from .limits import ExactOutOfReach
from .policies.registry import policy_named
from .policies.search import ISMCTS

if TYPE_CHECKING:
    from .exact.forward import ForwardEndgame

__all__ = ["Plan", "Solver", "Sampler", "Where", "plan", "sampler_for", "in_endgame", "estimate_tree_size",
           "estimate_exact_cost", "exact_cost_parts", "AUTO_SECONDS", "EXACT_SECONDS", "ENDGAME_DECKS_AUTO",
           "ARITHMETICS", "METHODS", "SECONDS_A_GAME", "SEARCH_SECONDS_A_ROLLOUT", "SEARCHED_DECISIONS",
           "engine_plays", "sampling_seconds", "seconds_a_game", "surely_sampled"]

METHODS = ("auto", "exact", "sample")
ARITHMETICS = ("fraction", "float")
#: The policies the compiled game loop plays (any other is played by the engine)
COMPILED_POLICIES = ("uniform", "heuristic", "strong")
#: Estimated seconds of exact analysis (:func:`estimate_exact_cost`) above which "auto" samples instead.
AUTO_SECONDS = 1.0
#: Cards still in decks (both sides together) up to which "auto" solves an endgame by full
#: enumeration in float64: 2 cards a deck take 0.3 s at worst, 3 a deck 2 s
#: (``benchmarks/bench_speed.py`` prints the times by deck size).
ENDGAME_DECKS_AUTO = 4
#: Estimated seconds above which an explicit exact request is refused unless forced: about a minute
#: (a request just under a limit of minutes ran for minutes unannounced)
EXACT_SECONDS = 60.0


class Solver(str, Enum):
    """The exact machinery: the endgame solver (every round start from here on is an endgame, no side
    can reshuffle again) or the enumeration of every move and chance outcome (which hands the endgame
    round starts it meets to the endgame solver)."""

    ENDGAME = "endgame"
    ENUMERATION = "enumeration"
    #: the enumeration by the engine alone, without the compiled endgame solvers (``fast=False``: the reference)
    PLAIN = "plain"


class Where(str, Enum):
    """Where sampled games are played: in this process, on the local cores (a pool of worker
    processes), or on a Dask cluster."""

    THIS_PROCESS = "this process"
    LOCAL_CORES = "local cores"
    CLUSTER = "cluster"


class Sampler(str, Enum):
    """The sampling machinery: the compiled game loop (thousands of games a second) or the engine
    playing the policies in Python (a search, or rules the compiled loop does not play)."""

    COMPILED = "compiled"
    ENGINE = "engine"


#: rough seconds one sampled game takes on one core, by the machinery that plays it and the costlier of its
#: two policies (any other policy: strong's; a search's by its budget, :data:`SEARCH_SECONDS_A_ROLLOUT`).
#: Measured from the deal of each preset, twice (``benchmarks/bench_sampling.py --per-game``, 2026-11-27):
#: compiled, 0.006 to 0.023 ms a game of uniform, 0.04 to 0.08 of the heuristic, 0.04 to 0.13 of strong; the
#: engine, 6 to 18 ms of uniform, 23 to 52 of the heuristic, 20 to 67 of strong.  Each is the most of these,
#: rounded up to the next of 1, 2, 5 (a cost said up front may err long, not short).  The figures before these
#: said 3 ms for every game of strong: 30 times too long where the compiled loop plays it, 20 times too short
#: where the engine does.
SECONDS_A_GAME = {
    Sampler.COMPILED: {"uniform": 0.00005, "heuristic": 0.0001, "strong": 0.0002},
    Sampler.ENGINE: {"uniform": 0.02, "heuristic": 0.1, "strong": 0.1},
}


#: rough seconds a search game takes on one core, per rollout of its budget a decision.  Measured against strong
#: (``guyenne-explore depth --levels strong,search:N --games 400 --workers 1``, 80 games, 2026-11-27, less the 5 s
#: the command takes to start): search:100 0.09 s a game in advanced; search:400 0.25 s in advanced, 0.34
#: in expert, 0.48 in classic2021, 0.20 in team and team3.  0.0015 a rollout errs long by at most 3 times
#: (it was 0.02, when the search was the tree's: 15 to 25 times the games' time now)
SEARCH_SECONDS_A_ROLLOUT = 0.0015
#: a search side's decisions a game with more than one legal move, each of which takes its whole budget in
#: milliseconds (``search:Nms``): the most of the presets', measured against strong (``benchmarks/bench_search.py
#: --games 40 --preset P --search search:100``, 2026-11-27): 15 in advanced, 19 in expert, 22 in classic2021 and
#: team3, 30 in team, rounded up
SEARCHED_DECISIONS = 32


def seconds_a_game(p: Position, policies: tuple[str, str]) -> float:
    """Rough seconds one game of ``policies`` from ``p`` takes on one core, the cost said before games are
    sampled: each searching side's by its budget (rollouts, or milliseconds at each of its decisions: two
    searching sides cost twice one), the other policies' by who plays the pair (:func:`sampler_for`)."""
    table = SECONDS_A_GAME[sampler_for(p, policies)[0]]
    searches = [name for name in policies if name.partition(":")[0] == "search"]
    others = [table.get(name.partition("@")[0], table["strong"]) for name in policies if name not in searches]
    return sum(_search_seconds(name) for name in searches) + max(others, default=0.0)


def surely_sampled(p: Position, policies: tuple[str, str], method: str) -> bool:
    """Whether :func:`plan` answers ``method`` by sampled games whatever the tree's size, as it decides: asked
    to sample, or "auto" with a policy of no exact move distribution outside an endgame (the cost of sampled
    games can then be said before the run, without estimating the enumeration)."""
    if method == "sample":
        return True
    inexact = not all(policy_named(name).exact for name in policies)
    return method == "auto" and inexact and not in_endgame(p, policies)


def sampling_seconds(p: Position, policies: tuple[str, str], games: int, cores: int = 1) -> float:
    """Rough seconds ``games`` sampled games of ``policies`` from ``p`` take here: games the engine plays are
    spread over ``cores`` (as a plan spreads them), compiled ones play in one process."""
    engine = sampler_for(p, policies)[0] is Sampler.ENGINE
    return games * seconds_a_game(p, policies) / (max(1, cores) if engine else 1)


def _search_seconds(name: str) -> float:
    """A search's game: its budget, as the policy of that name has it, in rollouts or milliseconds a decision."""
    search = policy_named(name)
    assert isinstance(search, ISMCTS)  # the registry's "search"
    if search.milliseconds is not None:
        return search.milliseconds / 1000 * SEARCHED_DECISIONS
    return SEARCH_SECONDS_A_ROLLOUT * search.simulations


@dataclass(frozen=True)
class Plan:
    """What answers one analysis, and why: the value :func:`plan` returns and :func:`.api.analyse` executes."""

    policies: tuple[str, str]
    #: "exact" or "sample"
    method: str
    #: the exact solver (None when sampled)
    solver: Solver | None
    #: the sampler (None when exact)
    sampler: Sampler | None
    #: games to sample (0 when exact)
    games: int
    #: where the games are played (this process when exact)
    where: Where
    #: how an exact distribution is summed: "fraction" or "float" (None when sampled)
    arithmetic: str | None
    #: estimated seconds of an exact enumeration where it was estimated, else None
    seconds: float | None
    #: the reason, in words a person reads: which machinery answers and why
    reason: str

    @property
    def spread(self) -> bool:
        """Whether the games are worth spreading over worker processes: engine-played games are slow;
        compiled games run thousands a second in one process, sooner than a worker starts."""
        return self.sampler is Sampler.ENGINE

    @property
    def short(self) -> str:
        """A few words for a status line: "exact, endgame solver", "2,000 games, compiled"."""
        if self.method == "exact":
            return gettext("exact, endgame solver") if self.solver is Solver.ENDGAME else gettext("exact, enumeration")
        count = ngettext("{count} game", "{count} games", self.games).format(count=plain_count(self.games))
        return count + ", " + (gettext("compiled") if self.sampler is Sampler.COMPILED else gettext("engine"))


def sampler_for(p: Position, policies: tuple[str, str], fast: bool = True) -> tuple[Sampler, str]:
    """Who plays sampled games from ``p``, and why in words: the compiled game loop where it plays these
    policies under these rules, else the engine (``fast=False`` always asks the engine)."""
    if not fast:
        return Sampler.ENGINE, gettext("played by the engine, as asked")
    reason = _compiled_reason(p, policies)
    if reason is None:
        return Sampler.COMPILED, gettext("played by the compiled game loop")
    return Sampler.ENGINE, gettext(reason)


def engine_plays(names: Iterable[str]) -> bool:
    """Whether games among the policies ``names`` are the engine's under any rules, as :func:`sampler_for`
    decides: one of them is no policy the compiled loop plays (a search, a counter).  A run over many rule sets
    or candidates spreads its games over worker processes then, before it knows each position."""
    return any(name.partition("@")[0] not in COMPILED_POLICIES for name in names)  # strong@FILE: strong's weights


def _compiled_reason(p: Position, policies: tuple[str, str]) -> str | None:
    """Why the compiled loop cannot play these games (None: it can), in words to translate."""
    if engine_plays(policies):
        return N_("the engine plays them: the compiled game loop plays the uniform, heuristic and strong policies only")
    if all(name == "uniform" for name in policies):
        return compiled_uniform_unsupported(p, policies)
    from .compiled import heuristic  # the scoring policies' tables: loaded only when one plays

    return heuristic.unsupported(p, policies)


def in_endgame(p: Position, policies: tuple[str, str]) -> bool:
    """Whether every round start from ``p`` on is solved by the endgame solver (no side can reshuffle)."""
    return in_reach(p, policies)


def plan(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), method: str = "auto", games: int = 2000,
         force: bool = False, fast: bool = True, arithmetic: str | None = None, cores: int = 1,
         cluster: bool = False) -> Plan:
    """Decide what answers an analysis of ``p`` (see :func:`.api.analyse` for the arguments).

    ``cores`` is how many local cores the caller lets the games use and ``cluster`` whether it offers a
    Dask cluster: games the engine plays go to the cluster, else to the local cores when there are
    more than one; compiled games stay in this process, where they run sooner than workers start.

    "auto" is exact when the position is a small endgame (at most :data:`ENDGAME_DECKS_AUTO` cards in
    decks) or when both policies are exact and the estimated enumeration takes at most
    :data:`AUTO_SECONDS`; else sampled.  An explicit "exact" needs exact policies (else
    :class:`.exact.distribution.NotExact`) and is refused with :class:`.limits.ExactOutOfReach` above
    :data:`EXACT_SECONDS` unless forced; on an endgame it is never refused.
    """
    pols = (policy_named(policies[0]), policy_named(policies[1]))  # an unknown name is refused here
    if method not in METHODS:
        raise ValueError(f"method must be auto, exact or sample, not {method!r}")
    if arithmetic is None:
        arithmetic = "float" if method == "auto" else "fraction"
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be fraction or float, not {arithmetic!r}")
    endgame = fast and in_endgame(p, policies)
    exact_policies = all(pol.exact for pol in pols)
    seconds: float | None = None
    why_sampled = gettext("sampled as asked")
    if method == "auto":
        if endgame:
            decks = sum(s.deck.size for s in p.sides)
            method = "exact" if decks <= ENDGAME_DECKS_AUTO else "sample"
            why_sampled = gettext("an endgame with {count} cards in decks, sampled sooner than solved").format(
                count=decks)
        elif not exact_policies:
            method = "sample"
            names = [name for name, pol in zip(policies, pols) if not pol.exact]
            why_sampled = gettext("{policy} has no exact move distribution").format(policy=names[0])
        else:
            seconds = estimate_exact_cost(p, policies)[1]
            method = "exact" if seconds <= AUTO_SECONDS else "sample"
            why_sampled = gettext("exact enumeration would take {duration}").format(duration=plain_duration(seconds))
    if method == "exact":
        require_exact(pols)
        if endgame:
            return Plan(tuple(policies), "exact", Solver.ENDGAME, None, 0, Where.THIS_PROCESS,  # type: ignore[arg-type]
                        arithmetic, None,
                        gettext("Exact: from here on no side can reshuffle, so the endgame solver sums every "
                                "round in closed form."))
        if not force:
            size, seconds = estimate_exact_cost(p, policies)
            if EXACT_SECONDS / 100 < seconds <= EXACT_SECONDS:  # Knuth's estimate is heavy-tailed: a few probes
                again = estimate_exact_cost(p, policies, probes=300, seed=1)  # tend to miss big subtrees: look again
                size, seconds = max((size, seconds), again, key=lambda cost: cost[1])
            if seconds > EXACT_SECONDS:
                raise ExactOutOfReach(out_of_reach(size, seconds))
        reason = (gettext("Exact: every move and deal enumerated ({duration}).").format(
            duration=plain_duration(seconds)) if seconds is not None else
            gettext("Exact: every move and deal enumerated, as forced."))
        return Plan(tuple(policies), "exact", Solver.ENUMERATION if fast else Solver.PLAIN, None, 0,  # type: ignore[arg-type]
                    Where.THIS_PROCESS, arithmetic, seconds, reason)
    sampler, played = sampler_for(p, policies, fast)
    where = Where.THIS_PROCESS
    if sampler is Sampler.ENGINE and cluster:
        where, played = Where.CLUSTER, gettext("{played}, on the cluster").format(played=played)
    elif sampler is Sampler.ENGINE and cores > 1:
        where = Where.LOCAL_CORES
        played = ngettext("{played}, on {count} local core", "{played}, on {count} local cores", cores).format(
            played=played, count=cores)
    reason = gettext("Sampled: {games} ({why}); {played}.").format(
        games=ngettext("{count} game", "{count} games", games).format(count=plain_count(games)), why=why_sampled,
        played=played)
    return Plan(tuple(policies), "sample", None, sampler, games, where, None, seconds, reason)  # type: ignore[arg-type]


def estimate_tree_size(p: Position, probes: int = 30, seed: int = 0) -> float:
    """Knuth's estimator of the number of nodes of the game tree below ``p`` (random probes)."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        probe = _Probe()
        play(p, rng, hooks=(probe,), check_moves=False)
        total += probe.nodes
    return total / probes


class _Probe(Hooks):
    """One probe of Knuth's estimator: the product of the branching factors met along a uniform
    game, summed over its depths, is an unbiased estimate of the tree's size."""

    def __init__(self) -> None:
        self.weight, self.nodes = 1.0, 1.0

    def _step(self, branching: int) -> None:
        self.weight *= branching
        self.nodes += self.weight

    def decision(self, p: Position, side: int, move: Move) -> None:
        self._step(max(1, len(p.legal_moves)))

    def chance(self, p: Position, draw: Draw) -> None:
        self._step(len(p.chance_outcomes()))


#: Seconds of exact analysis per node of the game tree above the endgame round starts (tree nodes:
#: the merging recursion solves fewer states, but what each costs varies more than their count)
SECONDS_PER_NODE = 2.5e-5
#: Seconds per round start of an endgame below them (castle table, both hands and decks), which
#: :class:`.exact.endgame.Endgame` solves in closed form round by round
SECONDS_PER_ENDGAME_STATE = 5e-5


def estimate_exact_cost(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), probes: int = 30,
                        seed: int = 0) -> tuple[float, float]:
    """What an exact analysis of ``p`` will do: ``(positions, seconds)``.

    Knuth's estimator as in :func:`estimate_tree_size`, but each probe stops at the first endgame
    round start that the exact analysis hands to an endgame solver (:func:`.exact.endgame.applies`,
    uniform play without reshuffles): the tree below it is never enumerated.  Such a start costs
    the round starts its endgame can reach (:func:`_endgame_states`), far fewer than its subtree's
    nodes.  Both counts turn into seconds by constants that ``benchmarks/bench_exact.py`` calibrates
    (it prints the seconds per unit it measures)."""
    nodes, endgame = exact_cost_parts(p, policies, probes, seed)
    return nodes + endgame, nodes * SECONDS_PER_NODE + endgame * SECONDS_PER_ENDGAME_STATE


def exact_cost_parts(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), probes: int = 30,
                     seed: int = 0) -> tuple[float, float]:
    """The two counts of :func:`estimate_exact_cost`: tree nodes above the first endgame round starts,
    and the round starts of the endgames there."""
    rng = random.Random(seed)
    nodes = endgame = 0.0
    sizes: dict[tuple, float] = {}
    sides: dict[tuple, list[int]] = {}
    forward: ForwardEndgame | None = None
    for _ in range(probes):
        probe = _EndgameProbe(tuple(policies))  # type: ignore[arg-type]
        try:
            play(p, rng, hooks=(probe,), check_moves=False)
        except _Stop:
            stop = probe.stop
            assert stop is not None
            key = tuple((s.hand, s.deck) for s in stop.sides)
            if key not in sizes:
                if forward is None:
                    from .exact.forward import ForwardEndgame  # numpy tables: loaded when a probe meets an endgame

                    forward = ForwardEndgame(p.rules)
                sizes[key] = _endgame_states(stop, forward, sides)
            endgame += probe.weight * sizes[key]
        nodes += probe.nodes
    return nodes / probes, endgame / probes


#: Side states of one round past which :func:`_endgame_states` stops following an endgame's rounds:
#: 60 a side make 3,600 pairs over up to 729 castle tables, already minutes of endgame, and following
#: decks of many cards further would take the estimate itself seconds
ENDGAME_SIDE_STATES = 60


def _endgame_states(p: Position, forward: ForwardEndgame, sides: dict[tuple, list[int]]) -> float:
    """Round starts an endgame from ``p`` can reach: each side's cards evolve by themselves in an
    endgame (:func:`_side_states`), so the pairs of side states of a round are at most the product
    of each side's; times the castle tables that differ from ``p``'s in at most the castles the
    rounds so far could take (two a round).  Past :data:`ENDGAME_SIDE_STATES` states of a side in a
    round (decks of many cards: an endgame far beyond an exact analysis) that round's count stands
    for every round the cards can still last."""
    levels = [_side_states(s.hand, s.deck, forward, sides) for s in p.sides]
    n = len(p.castles)
    rounds = max(1, min(s.hand.size + s.deck.size for s in p.sides) // 2)  # each spends two cards or more
    total = 0.0
    for r, (a, b) in enumerate(zip(*levels)):  # the game ends when either side is out of rounds
        pairs = a * b * sum(comb(n, k) * 2 ** k for k in range(min(n, 2 * r) + 1))
        if max(a, b) > ENDGAME_SIDE_STATES:
            return total + pairs * max(1, rounds - r)
        total += pairs
    return total


def _side_states(hand: Cards, deck: Cards, forward: ForwardEndgame, cache: dict[tuple, list[int]]) -> list[int]:
    """How many ``(hand, deck)`` one side can hold at each coming round start of an endgame, the game
    going on (:meth:`.exact.forward.ForwardEndgame.next_states`), up to the first round past
    :data:`ENDGAME_SIDE_STATES` (cached: probes meet the same sides again and again)."""
    key = (hand, deck)
    hit = cache.get(key)
    if hit is None:
        level, hit = {key}, []
        while level:
            hit.append(len(level))
            if len(level) > ENDGAME_SIDE_STATES:
                break
            level = set().union(*(forward.next_states(*state) for state in level))
        cache[key] = hit
    return hit


class _Stop(Exception):
    """A probe reached an endgame round start."""


class _EndgameProbe(Hooks):
    """A probe of :func:`estimate_exact_cost`: Knuth's sum of branching products down to the first
    endgame round start (``stop``, with the probe's ``weight`` there)."""

    def __init__(self, policies: tuple[str, str]) -> None:
        self.policies = policies
        self.weight, self.nodes = 1.0, 1.0
        self.stop: Position | None = None

    def decision(self, p: Position, side: int, move: Move) -> None:
        if applies(p, self.policies):
            self.stop = p
            raise _Stop()
        self.weight *= max(1, len(p.legal_moves))
        self.nodes += self.weight

    def chance(self, p: Position, draw: Draw) -> None:
        self.weight *= len(p.chance_outcomes())
        self.nodes += self.weight
