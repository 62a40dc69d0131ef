"""Which machinery answers an analysis, decided in one place and returned as a value.

An analysis of a position can be answered by an exact solver (the endgame solver, or the
enumeration of every move and deal) or by sampled games (the compiled game loop, or the engine
playing policies in Python, worth spreading over worker processes).  Which one depends on the
policies, the rules, the point of play, the size of the tree and what the user asked for.
:func:`plan` weighs all of it once and returns a :class:`Plan`: the method, the solver or
sampler, the arithmetic, where the games go (this process, the local cores or a cluster, and the executor
that takes them), the estimated cost, and the reason in words the panels and the command line show.
:func:`.api.execute` carries a plan out without deciding again.

The machinery keeps its own capability checks (what the compiled loop can encode, when a round
start is an endgame); this module is the one that asks them and chooses.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from concurrent.futures import Executor
from dataclasses import dataclass, field
from enum import Enum
from math import comb
from typing import TYPE_CHECKING, Callable, Iterable

from ..engine import OPEN_FIRST, Cards, Draw, Hooks, Move, Position, game_members, play, side_draws
from ..i18n import gettext, ngettext, plain_count, plain_duration
from .exact.distribution import forward_pass_takes, out_of_reach, require_exact
from .exact.endgame import applies
from .exact.reference import merge_key
from .capabilities import capabilities
from .limits import ExactOutOfReach
from .policies.search import ISMCTS
from .policies.spec import PolicySpec

if TYPE_CHECKING:
    from .exact.forward import ForwardEndgame

__all__ = ["Plan", "Solver", "Sampler", "Where", "plan", "sampler_for", "in_endgame", "estimate_tree_size",
           "estimate_exact_cost", "exact_cost_parts", "AUTO_SECONDS", "EXACT_SECONDS", "ENDGAME_DECKS_AUTO",
           "ARITHMETICS", "METHODS", "SECONDS_A_GAME", "SEARCH_SECONDS_A_ROLLOUT", "SEARCHED_DECISIONS",
           "engine_first", "engine_first_games", "engine_plays", "sampling_seconds", "seconds_a_game", "surely_sampled",
           "waits_for_compiling"]

METHODS = ("auto", "exact", "sample")
ARITHMETICS = ("fraction", "float")
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


def seconds_a_game(p: Position, policies: tuple[str, str], fast: bool = True) -> float:
    """Rough seconds one game of ``policies`` from ``p`` takes on one core, the cost said before games are
    sampled: each searching side's by its budget (rollouts, or milliseconds at each of its decisions: two
    searching sides cost twice one), the other policies' by who plays the pair (:func:`sampler_for`; ``fast=False``:
    the engine)."""
    table = SECONDS_A_GAME[sampler_for(p, policies, fast)[0]]
    specs = [PolicySpec.parse(name) for name in policies]
    others = [table.get(spec.kind, table["strong"]) for spec in specs if not spec.searches]
    return sum(_search_seconds(spec) for spec in specs if spec.searches) + max(others, default=0.0)


def surely_sampled(p: Position, policies: tuple[str, str], method: str) -> bool:
    """Whether :func:`plan` answers ``method`` by sampled games whatever the tree's size, as it decides: asked
    to sample, or "auto" with a policy of no exact move distribution outside an endgame (the cost of sampled
    games can then be said before the run, without estimating the enumeration)."""
    if method == "sample":
        return True
    can = capabilities(p, policies)
    return method == "auto" and not can.exact and not can.endgame


def sampling_seconds(p: Position, policies: tuple[str, str], games: int, cores: int = 1, fast: bool = True,
                     each: float | None = None) -> float:
    """Rough seconds ``games`` sampled games of ``policies`` from ``p`` take here: games the engine plays are
    spread over ``cores`` (as a plan spreads them), compiled ones play in one process (``fast=False``: the engine
    plays them all, as in a first answer while the fast simulator compiles).  ``each``: the seconds of one game on one
    core where the caller measured them (a training run times its own model's games), else
    :func:`seconds_a_game`'s table."""
    engine = sampler_for(p, policies, fast)[0] is Sampler.ENGINE
    return games * (seconds_a_game(p, policies, fast) if each is None else each) / (max(1, cores) if engine else 1)


def _search_seconds(spec: PolicySpec) -> float:
    """A search's game: its budget, as the policy of that spec has it, in rollouts or milliseconds a decision."""
    search = spec.policy()
    assert isinstance(search, ISMCTS)  # the spec's "search"
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
    #: rough seconds of the whole run here, the cost said before it: the exact enumeration's estimate where it was
    #: made, or the sampled games' where the plan sends them (spread over the local cores it uses); None: an
    #: endgame or a forced enumeration, never refused by its cost
    cost: float | None = None
    #: the executor the games go to, given to :func:`plan` (a process pool, a Dask client's executor); None: the
    #: shared local pool where :attr:`where` is the local cores, else this process.  Not part of the plan's value
    #: (two plans of the same games are equal wherever they run: a run's games are the same on any executor)
    executor: Executor | None = field(default=None, compare=False, repr=False)
    #: :attr:`reason` worked out again in the language of the moment (:meth:`reason_now`), set by :func:`plan`; None
    #: in a plan read back from a session, which says its reason as it was written
    words: Callable[[], str] | None = field(default=None, init=False, compare=False, repr=False)

    def reason_now(self) -> str:
        """The reason in the language of the moment: a panel shows the kept plans again after a language switch."""
        return self.words() if self.words is not None else self.reason

    def saying(self, words: Callable[[], str]) -> "Plan":
        """This plan, its reason said by ``words`` (called once here for :attr:`reason`)."""
        object.__setattr__(self, "words", words)
        return self

    def games_go_to(self) -> Executor | None:
        """The executor this plan's games are played on (None: this process): the one given to :func:`plan`, or the
        shared local pool where the plan spreads its games over the local cores (started here, on the first run
        that needs it, not when planning: a plan is also made only to say a cost)."""
        if self.executor is None and self.where is Where.LOCAL_CORES:
            from .workers import local_pool

            return local_pool()
        return self.executor

    @property
    def spread(self) -> bool:
        """Whether the games are worth spreading over worker processes: engine-played games are slow;
        compiled games run thousands a second in one process, sooner than a worker starts."""
        return self.sampler is Sampler.ENGINE

    @property
    def short(self) -> str:
        """A few words for a status line: "exact, endgame solver", "2,000 games, fast simulator" (the app's words for the
        compiled game loop), "2,000 games, engine"."""
        if self.method == "exact":
            return gettext("exact, endgame solver") if self.solver is Solver.ENDGAME else gettext("exact, enumeration")
        count = ngettext("{count} game", "{count} games", self.games).format(count=plain_count(self.games))
        return count + ", " + (gettext("fast simulator") if self.sampler is Sampler.COMPILED else gettext("engine"))


def sampler_for(p: Position, policies: tuple[str, str], fast: bool = True) -> tuple[Sampler, str]:
    """Who plays sampled games from ``p``, and why in words: the compiled game loop where it plays these
    policies under these rules, else the engine (``fast=False`` always asks the engine)."""
    if not fast:
        return Sampler.ENGINE, gettext("played by the engine, as asked")
    reason = capabilities(p, policies).not_compiled
    if reason is None:
        return Sampler.COMPILED, gettext("played by the compiled game loop")
    return Sampler.ENGINE, gettext(reason)


#: how long the engine plays a first answer while the fast simulator compiles: a few seconds of games (issue: every first
#: run of a panel's defaults within 10 s of the explorer showing, whatever the compile's state)
ENGINE_FIRST_SECONDS = 4.0
#: the fewest games of such an answer (an interval of about ±0.1 on a proportion)
ENGINE_FIRST_GAMES = 100


def engine_first_games(p: Position, policies: tuple[str, str], games: int, parts: int = 1) -> int:
    """How many of ``games`` the engine plays in about :data:`ENGINE_FIRST_SECONDS` in the asking process: the first
    answer given while the fast simulator compiles, refined by the compiled games once it is ready.  One core: the other
    compiles, and a pool's workers would take seconds to start and load the package before their first game.  A
    run of several samples (skill levels, a sweep's values, a ladder's matches) gives each of its ``parts`` its
    share of the seconds and of the fewest games, so that the whole first answer still takes a few seconds."""
    each = seconds_a_game(p, policies, fast=False)
    share = max(parts, 1)
    return min(games, max(ENGINE_FIRST_GAMES // share, int(ENGINE_FIRST_SECONDS / share / each)))


def waits_for_compiling(name: str) -> bool:
    """Whether the policy ``name``'s games wait for the fast simulator rather than being played by the engine first: a
    search's candidates, worlds and rollouts are compiled kernels of its own (the engine's rollouts would take
    minutes a game), the other policies play in Python in milliseconds."""
    return PolicySpec.parse(name).searches


def engine_first(policies: Iterable[str], compiling: bool, method: str = "sample") -> bool:
    """Whether a run of ``policies`` is answered first by the engine, with fewer games (:func:`engine_first_games`),
    then refined by the compiled games: while the fast simulator is still to compile (``compiling``: what
    :func:`.sampling.warm.needs_compiling` says, asked by the caller, on a floor above this one), for every panel
    alike, so that no first answer waits minutes for the compiler.  An exact run (whose enumeration compiles
    endgame solvers of its own) and a run with a search (:func:`waits_for_compiling`) wait for the compiling."""
    return compiling and method != "exact" and not any(waits_for_compiling(name) for name in policies)


def engine_plays(names: Iterable[str]) -> bool:
    """Whether games among the policies ``names`` are the engine's under any rules, as :func:`sampler_for`
    decides: one of them is no policy the compiled loop plays (a search, a counter that searches:
    :attr:`PolicySpec.compiles`).
    A run over many rule sets or candidates spreads its games over worker processes then, before it knows each
    position."""
    return not all(PolicySpec.parse(name).compiles for name in names)


def in_endgame(p: Position, policies: tuple[str, str]) -> bool:
    """Whether every round start from ``p`` on is solved by the endgame solver (no side can reshuffle)."""
    return capabilities(p, policies).endgame


def plan(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), method: str = "auto", games: int = 2000,
         force: bool = False, fast: bool = True, arithmetic: str | None = None, cores: int = 1,
         executor: Executor | None = None, seconds_a_game: float | None = None) -> Plan:
    """Decide what answers an analysis of ``p`` (see :func:`.api.analyse` for the arguments).

    ``cores`` is how many local cores the caller lets the games use and ``executor`` where it offers to send
    them (a process pool, or a Dask client's executor: a cluster): games the engine plays go to the executor,
    else to the shared local pool when there is more than one core; compiled games stay in this process, where
    they run sooner than workers start, and so does an exact run.  The plan names that executor
    (:meth:`Plan.games_go_to`): :func:`.api.execute` asks nothing again.  ``seconds_a_game``: one game's seconds on
    one core where the caller measured them, for the cost (:func:`sampling_seconds`).

    "auto" is exact when the position is a small endgame (at most :data:`ENDGAME_DECKS_AUTO` cards in
    decks) or when both policies are exact and the estimated enumeration takes at most
    :data:`AUTO_SECONDS`; else sampled.  An explicit "exact" needs exact policies (else
    :class:`.exact.distribution.NotExact`) and is refused with :class:`.limits.ExactOutOfReach` above
    :data:`EXACT_SECONDS` unless forced; on an endgame it is never refused.
    """
    pols = (PolicySpec.parse(policies[0]).policy(), PolicySpec.parse(policies[1]).policy())  # an unknown name is refused here
    if method not in METHODS:
        raise ValueError(f"method must be auto, exact or sample, not {method!r}")
    if arithmetic is None:
        arithmetic = "float" if method == "auto" else "fraction"
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be fraction or float, not {arithmetic!r}")
    can = capabilities(p, policies)
    endgame = fast and can.endgame
    seconds: float | None = None
    # each reason a function, said again in the language of the moment (Plan.reason_now)
    why_sampled: Callable[[], str] = lambda: gettext("sampled as asked")
    if method == "auto":
        if endgame:
            decks = sum(s.deck.size for s in p.sides)
            method = "exact" if decks <= ENDGAME_DECKS_AUTO else "sample"
            why_sampled = lambda: gettext(  # noqa: E731
                "an endgame with {count} cards in decks, sampled sooner than solved").format(count=decks)
        elif not can.exact:
            method = "sample"
            names = [name for name, pol in zip(policies, pols) if not pol.exact]
            why_sampled = lambda: gettext("{policy} has no exact move distribution").format(policy=names[0])  # noqa: E731
        else:
            seconds = estimated = estimate_exact_cost(p, policies, floats=arithmetic == "float")[1]
            method = "exact" if seconds <= AUTO_SECONDS else "sample"
            why_sampled = lambda: gettext("exact enumeration would take {duration}").format(  # noqa: E731
                duration=plain_duration(estimated))
    if method == "exact":
        require_exact(pols)
        if endgame:
            def endgame_words() -> str:
                return gettext("Exact: from here on no side can reshuffle, so the endgame solver sums every round in "
                               "closed form.")
            return Plan(tuple(policies), "exact", Solver.ENDGAME, None, 0, Where.THIS_PROCESS,  # type: ignore[arg-type]
                        arithmetic, None, endgame_words()).saying(endgame_words)
        if not force and seconds is None:  # (auto chose exact by an estimate within AUTO_SECONDS: not again)
            floats = arithmetic == "float"
            size, seconds = estimate_exact_cost(p, policies, floats=floats)
            if size > PILOT_STATES and EXACT_SECONDS / 100 < seconds <= EXACT_SECONDS:  # Knuth's estimate is heavy-
                # tailed: a few probes tend to miss big subtrees: look again (a run the pilot finished was measured)
                again = estimate_exact_cost(p, policies, probes=300, seed=1, floats=floats, pilot=False)
                size, seconds = max((size, seconds), again, key=lambda cost: cost[1])
            if seconds > EXACT_SECONDS:
                raise ExactOutOfReach(out_of_reach(size, seconds))
        took = seconds

        def exact_words() -> str:
            return (gettext("Exact: every move and deal enumerated ({duration}).").format(duration=plain_duration(took))
                    if took is not None else gettext("Exact: every move and deal enumerated, as forced."))
        return Plan(tuple(policies), "exact", Solver.ENUMERATION if fast else Solver.PLAIN, None, 0,  # type: ignore[arg-type]
                    Where.THIS_PROCESS, arithmetic, seconds, exact_words(), seconds).saying(exact_words)
    sampler = sampler_for(p, policies, fast)[0]
    where = _where(sampler, "", cores, executor)[0]

    def sampled_words() -> str:
        return gettext("Sampled: {games} ({why}); {played}.").format(
            games=ngettext("{count} game", "{count} games", games).format(count=plain_count(games)), why=why_sampled(),
            played=_where(sampler, sampler_for(p, policies, fast)[1], cores, executor)[1])
    cost = sampling_seconds(p, policies, games, cores if where is Where.LOCAL_CORES else 1, fast, seconds_a_game)
    return Plan(tuple(policies), "sample", None, sampler, games, where, None, seconds, sampled_words(), cost,  # type: ignore[arg-type]
                executor if where is not Where.THIS_PROCESS else None).saying(sampled_words)


def _where(sampler: Sampler, played: str, cores: int, executor: Executor | None) -> tuple[Where, str]:
    """Where sampled games go, and who plays them there in words: the engine's to the executor offered (a Dask
    client's is a cluster), else over the local cores when there is more than one; compiled games in this
    process, whatever is offered (thousands a second, sooner than a worker starts)."""
    if sampler is not Sampler.ENGINE:
        return Where.THIS_PROCESS, played
    if _is_cluster(executor):
        return Where.CLUSTER, gettext("{played}, on the cluster").format(played=played)
    if cores > 1:
        return Where.LOCAL_CORES, ngettext("{played}, on {count} local core", "{played}, on {count} local cores",
                                           cores).format(played=played, count=cores)
    if executor is not None:
        return Where.LOCAL_CORES, gettext("{played}, on the worker processes given").format(played=played)
    return Where.THIS_PROCESS, played


def _is_cluster(executor: Executor | None) -> bool:
    """Whether an executor hands work to a Dask cluster (its client's ``get_executor()``)."""
    return executor is not None and type(executor).__module__.split(".")[0] == "distributed"


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
#: Seconds per distinct state the merged recursion memoises (where the probes counted them, :data:`COVERAGE`):
#: each costs its moves' or draws' fractions summed, far more than a node of Knuth's count of paths (measured on
#: variants of 2 castles, hand 2 and 3 or 4 cards a side: 4e-4 to 7e-4, less the endgames at 5e-5 a state;
#: ``benchmarks/bench_estimate.py``)
SECONDS_PER_STATE = 5e-4
#: Seconds per round start of an endgame below them (castle table, both hands and decks), which
#: :class:`.exact.endgame.Endgame` solves in closed form round by round
SECONDS_PER_ENDGAME_STATE = 5e-5
#: Seconds per pair of side states and castle table of a forward pass (:mod:`.exact.forward_exact`), which holds
#: every table of a pair at once: 0.1 s for the 121 and 169 pairs of the check endgames at 6 castles, in
#: fractions (``benchmarks/bench_estimate.py``; float64 takes a third of it)
SECONDS_PER_PAIR_AND_TABLE = 1e-6


def estimate_exact_cost(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), probes: int = 30,
                        seed: int = 0, floats: bool = False, pilot: bool = True) -> tuple[float, float]:
    """What an exact analysis of ``p`` will do: ``(states, seconds)``, the states in the unit the solver counts
    (its ``states``: memoised positions, and pairs of side states where a forward pass takes an endgame).

    A run the solver finishes within :data:`PILOT_STATES` and :data:`PILOT_SECONDS` is simply run (:func:`_pilot`;
    not with ``pilot=False``): its cost is measured, not estimated (the check positions and the smallest variants,
    where the sampled estimate below counted every path to a state the solver memoises once).  Past that, the two parts of
    :func:`exact_cost_parts` turn into seconds by constants that ``benchmarks/bench_exact.py`` calibrates; a run
    ``benchmarks/bench_estimate.py`` measures against this estimate."""
    nodes, endgame, distinct = _cost_parts(p, policies, probes, seed, floats)
    # the probes first: where they count far more states than a pilot may take, the pilot would only be stopped (a
    # second a rule set before every "auto" analysis of a whole game, longer than its sampled games)
    piloted = _pilot(p, policies, floats) if pilot and nodes + endgame <= PILOT_PROBED_STATES else None
    if piloted is not None:
        return piloted
    per_state = SECONDS_PER_ENDGAME_STATE
    if nodes <= 1 and forward_pass_takes(p, True, floats):  # a forward pass's pairs carry every castle table
        per_state = SECONDS_PER_PAIR_AND_TABLE * 3 ** p.rules.castles
    states = max(nodes + endgame, PILOT_STATES) if pilot else nodes + endgame  # a pilot stopped: more than that
    seconds = nodes * (SECONDS_PER_STATE if distinct else SECONDS_PER_NODE) + endgame * per_state
    pairs = _member_pairs(p, policies)  # (the probes follow the members' mean; each pair is solved on its own)
    return states * pairs, seconds * pairs


def _member_pairs(p: Position, policies: tuple[str, str]) -> int:
    """How many pairs of what plays the game an exact analysis solves one by one: the product of each policy's
    members where it draws one once a game (``game_members``), else 1."""
    pairs = 1
    for name in policies:
        pairs *= len(game_members(PolicySpec.parse(name).policy(), p.rules))
    return pairs


#: States, and CPU seconds, up to which :func:`estimate_exact_cost` runs the exact analysis rather than estimating
#: it (the check positions take 1 to 900 states, 0.1 s at most: ``benchmarks/bench_estimate.py``)
PILOT_STATES = 2000
PILOT_SECONDS = 0.5
#: the probes' count past which no pilot is tried: Knuth's count was up to 1,000 times the solver's on small variants
#: (:func:`exact_cost_parts`), so a million times the pilot's states leaves a wide margin
PILOT_PROBED_STATES = PILOT_STATES * 1e6


def _pilot(p: Position, policies: tuple[str, str], floats: bool) -> tuple[float, float] | None:
    """``(states, seconds)`` of the exact analysis of ``p`` when it finishes within :data:`PILOT_STATES` and
    :data:`PILOT_SECONDS` (its states, and its CPU seconds measured), else None: it is stopped at the first report
    past either (the solvers report every 200 to 1,000 states or positions, and within a forward pass's rounds)."""
    from .cancel import Cancelled
    from .exact.distribution import exact_distribution

    started = time.process_time()

    def within(states: int) -> bool | None:
        return False if states > PILOT_STATES or time.process_time() - started > PILOT_SECONDS else None

    try:
        _, states = exact_distribution(p, (PolicySpec.parse(policies[0]).policy(), PolicySpec.parse(policies[1]).policy()), within,
                                       floats=floats)
    except (Cancelled, ExactOutOfReach):  # past the pilot's limits, or a step past the memory budget: no small run
        return None
    return float(states), time.process_time() - started


def exact_cost_parts(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), probes: int = 30,
                     seed: int = 0, floats: bool = False) -> tuple[float, float]:
    """The two counts of :func:`estimate_exact_cost`: the states the solver memoises above the first endgame round
    starts, and the round starts the endgame solver memoises below them.

    Above the endgames, Knuth's estimate counts paths: every path to a state the solver memoises once.  Where the
    probes meet the same states again and again (a small state space: long games of few cards) their count of
    distinct states (:func:`_distinct_states`, from :data:`DISTINCT_PROBES` probes) is the lesser and the nearer:
    Knuth's was 1,000 times the solver's count on small variants, this within 4 times.

    Each endgame round start met costs the round starts its endgame can reach (:func:`_endgame_states`), but the
    endgame solver's memo is shared: a start reached by many paths, or the same states reached from several
    starts, are solved once.  So the endgame count is the lesser of Knuth's (each start weighted by its paths)
    and the states reachable from all starts met together (:func:`_union_states`), which was within twice the
    solver's count on small variants where Knuth's was 1,000 times it.  Where ``p`` is itself an endgame that
    a forward pass takes (:func:`.exact.distribution.forward_pass_takes`) it counts what the pass counts, pairs
    of side states, without the castle tables each pair carries."""
    return _cost_parts(p, policies, probes, seed, floats)[:2]


def _cost_parts(p: Position, policies: tuple[str, str], probes: int, seed: int,
                floats: bool) -> tuple[float, float, bool]:
    """:func:`exact_cost_parts`, and whether its first count is of distinct states (else of Knuth's paths)."""
    probing = _Probing(p, tuple(policies), floats)  # type: ignore[arg-type]
    rng = random.Random(seed)
    probing.run(probes, rng)
    nodes, endgame = probing.nodes / probes, probing.endgame / probes
    if probing.coverage() >= COVERAGE / 2 and probes < DISTINCT_PROBES:  # a small state space: count it well
        probing.run(DISTINCT_PROBES - probes, rng)
    distinct = probing.coverage() >= COVERAGE and _distinct_states(probing.seen) < nodes
    if distinct:
        nodes = _distinct_states(probing.seen)
    if len(probing.starts) > 1:
        assert probing.forward is not None
        endgame = min(endgame, _union_states(list(probing.starts.values()), probing.forward))
    return nodes, endgame, distinct


#: Good-Turing coverage of the probes (the share of their visits to states they met before) from which their count
#: of distinct states (:func:`_distinct_states`) stands for the states above the endgames: below it most states
#: are met once and the count says little (0.05 from the advanced deal; 0.7 to 0.85 on variants of 2 castles)
COVERAGE = 0.5
#: Probes that count the distinct states where the first ones show a small state space
DISTINCT_PROBES = 300


def _distinct_states(seen: Counter) -> float:
    """Chao's estimate of how many states there are from how often the probes met each (``seen``): those met,
    and for the unseen the square of those met once over twice those met twice.  It errs short where some states
    are far rarer than others: 2 to 4 times short on variants of 2 castles (``benchmarks/bench_estimate.py``)."""
    counts = Counter(seen.values())
    once, twice = counts[1], counts[2]
    return len(seen) + (once * once / (2 * twice) if twice else once * (once - 1) / 2)


class _Probing:
    """The probes of :func:`exact_cost_parts` so far: Knuth's sums, the endgame round starts met, and how often
    each state the solver memoises was met (by the uniform solver's merged key, else the round start)."""

    def __init__(self, p: Position, policies: tuple[str, str], floats: bool) -> None:
        self.p, self.policies, self.floats = p, policies, floats
        self.nodes = self.endgame = 0.0
        self.sizes: dict[tuple, float] = {}
        self.starts: dict[tuple, Position] = {}
        self.sides: dict[tuple, list[int]] = {}
        self.seen: Counter = Counter()
        self.forward: ForwardEndgame | None = None

    def coverage(self) -> float:
        """Good-Turing's sample coverage: one less the share of visits to states met once."""
        visits = sum(self.seen.values())
        return 1 - sum(1 for n in self.seen.values() if n == 1) / visits if visits else 0.0

    def run(self, probes: int, rng: random.Random) -> None:
        """Play ``probes`` more probes, adding to the sums."""
        for _ in range(probes):
            probe = _EndgameProbe(self.policies, self.seen)
            try:
                play(self.p, rng, hooks=(probe,), check_moves=False)
            except _Stop:
                assert probe.stop is not None
                self.endgame += probe.weight * self._size(probe.stop, probe.nodes <= 1)
            self.nodes += probe.nodes

    def _size(self, stop: Position, top: bool) -> float:
        """The round starts of the endgame from ``stop`` (cached), in the unit of the solver that takes it."""
        key = (stop.castles, *((s.hand, s.deck) for s in stop.sides))
        if key not in self.sizes:
            if self.forward is None:
                from .exact.forward import ForwardEndgame  # numpy tables: loaded when a probe meets an endgame

                self.forward = ForwardEndgame(self.p.rules)
            tables = not (top and forward_pass_takes(stop, True, self.floats))
            self.sizes[key], self.starts[key] = _endgame_states(stop, self.forward, self.sides, tables), stop
        return self.sizes[key]


#: Side states of one round past which :func:`_endgame_states` stops following an endgame's rounds:
#: 60 a side make 3,600 pairs over up to 729 castle tables, already minutes of endgame, and following
#: decks of many cards further would take the estimate itself seconds
ENDGAME_SIDE_STATES = 60
#: Side states of all endgames together past which :func:`_union_states` stops following them (their count then
#: stands for each later round): 2,000 a side make millions of round starts, far beyond an exact analysis
UNION_SIDE_STATES = 2000


def _tables(n: int, rounds: int) -> int:
    """Castle tables that differ from a round start's in at most the castles ``rounds`` rounds can take (two a
    round), each castle to either side."""
    return sum(comb(n, k) * 2 ** k for k in range(min(n, 2 * rounds) + 1))


def _endgame_states(p: Position, forward: ForwardEndgame, sides: dict[tuple, list[int]], tables: bool = True) -> float:
    """Round starts an endgame from ``p`` can reach: each side's cards evolve by themselves in an
    endgame (:func:`_side_states`), so the pairs of side states of a round are at most the product
    of each side's; times (``tables``) the castle tables that differ from ``p``'s in at most the castles the
    rounds so far could take (a forward pass holds every table of a pair at once: it counts pairs).  Past
    :data:`ENDGAME_SIDE_STATES` states of a side in a round (decks of many cards: an endgame far beyond an
    exact analysis) that round's count stands for every round the cards can still last."""
    levels = [_side_states(s.hand, s.deck, forward, sides) for s in p.sides]
    n = len(p.castles)
    rounds = max(1, min(s.hand.size + s.deck.size for s in p.sides) // 2)  # each spends two cards or more
    total = 0.0
    for r, (a, b) in enumerate(zip(*levels)):  # the game ends when either side is out of rounds
        pairs = a * b * (_tables(n, r) if tables else 1)
        if max(a, b) > ENDGAME_SIDE_STATES:
            return total + pairs * max(1, rounds - r)
        total += pairs
    return total


def _union_states(starts: list[Position], forward: ForwardEndgame) -> float:
    """Round starts the endgames from all of ``starts`` can reach together, as the endgame solver's shared memo
    holds them: round by round, the side states each side can hold from any start (a union, each side's cards
    evolving by themselves), their pairs, times the castle tables within reach of the starts' tables."""
    levels = [_union_levels([(s.sides[i].hand, s.sides[i].deck) for s in starts], forward) for i in (0, 1)]
    n = len(starts[0].castles)
    known = len({s.castles for s in starts})
    rounds = max(max(s.hand.size + s.deck.size for s in q.sides) for q in starts) // 2 + 1
    total = 0.0
    for r in range(rounds):
        a, b = (_at_round(side, r) for side in levels)
        total += a * b * min(3 ** n, known * _tables(n, r))
    return total


def _at_round(levels: list[int], r: int) -> int:
    """A side's states at round ``r`` of :func:`_union_levels`'s counts: past the last counted, the last where it
    stopped counting (more than :data:`UNION_SIDE_STATES`), else none (its cards are spent)."""
    if r < len(levels):
        return levels[r]
    return levels[-1] if levels[-1] > UNION_SIDE_STATES else 0


def _union_levels(starts: list[tuple[Cards, Cards]], forward: ForwardEndgame) -> list[int]:
    """How many ``(hand, deck)`` one side can hold at each round after the starts, from any of them, up to the
    first round past :data:`UNION_SIDE_STATES` (its count is the last)."""
    level, counts = set(starts), []
    while level:
        counts.append(len(level))
        if len(level) > UNION_SIDE_STATES:
            break
        level = set().union(*(forward.next_states(*state) for state in level))
    return counts


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

    def __init__(self, policies: tuple[str, str], seen: Counter) -> None:
        self.policies = policies
        self.weight, self.nodes = 1.0, 1.0
        self.stop: Position | None = None
        #: how often each state the solver memoises was met (:class:`_Probing`)
        self.seen = seen
        self.merged = policies == ("uniform", "uniform")  # the merged recursion memoises every position

    def decision(self, p: Position, side: int, move: Move) -> None:
        if applies(p, self.policies):
            self.stop = p
            raise _Stop()
        if self.merged:
            self.seen[merge_key(p)] += 1
        elif p.to_play == OPEN_FIRST:  # other policies: the round starts
            self.seen[p] += 1
        self.weight *= max(1, len(p.legal_moves))
        self.nodes += self.weight

    def chance(self, p: Position, draw: Draw) -> None:
        if self.merged:
            self.seen[merge_key(p)] += 1
        english, french = side_draws(p)  # their count: the pairs' probabilities are not needed (most of the probes' time)
        self.weight *= len(english) * len(french)
        self.nodes += self.weight
