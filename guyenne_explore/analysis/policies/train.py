"""Training the learned policy's weights: CMA-ES over seeded compiled games against a pool.

    guyenne-explore train --rules advanced --seed 1 --minutes 10

A candidate's fitness is its score (a win 1, a draw 1/2) in compiled games against each policy of
the pool (:func:`pool_sides`: the heuristic, the starting weights and the best weights so far), in both seats;
every candidate of a generation plays the same seeded games (common random numbers), so their
differences are not luck of the deal.  After each generation the distribution's mean plays a fixed
set of games (the same every generation) against the heuristic and against the weights the run started
from (:func:`validation`): the mean that scores best there is the best so far, kept when the time
runs out or the run is cancelled, and written as the weights file.
The validation games are the seed's, so the best score a run reports is biased upward by its choice
among many means: ``benchmarks/bench_strong.py`` measures on other seeds.

A network (``--hidden N``, :mod:`.network`) is trained the same way, CMA-ES with a diagonal covariance over its
numbers (its input weights a unit at a time, :func:`vector`), from its linear weights with output weights at 0, so it
first plays exactly the linear policy it refines; its pool also holds a league (:data:`LEAGUE_SIZE` latest): every
:data:`LEAGUE_EVERY` generations the best so far joins it with an :func:`exploiter` trained against that snapshot by
the same CMA-ES, so that what exploits it is trained against (a double-oracle league, as in PSRO, with evolution
strategies as the oracle: the compiled loop plays thousands of games a second, which a gradient learner's data
collection from traces would not use as fully on two cores).  The counters of :mod:`.counters` that search are not in
the league (each plays its games in Python, a hundred times slower); ``benchmarks/bench_exploit.py`` measures them; the
five compiled into the game loop judge a robust run.

A robust run (``--robust K``, :data:`ROBUST_EVERY`) is trained to be hard to exploit rather than to score most: a
candidate is measured by the mean of its K lowest scores against the heuristic, ``strong-linear``, its start, the
best so far, a league of exploiters, each trained for minutes against the best so far, and the gauntlet's compiled
counters, and the best so far is the
mean whose K lowest validation scores are highest.  The game's styles beat one another in a cycle, so raising a
mean score moves a model round it; raising its worst scores is what makes what beats it lose.

The setup discard's and the team split's own weights (:mod:`.discard`, :mod:`.team_split`) are trained too when asked
(``--discard``, ``--team-split``: :func:`trained_discard`, :func:`trained_split`), from the heuristic's; a frozen run
(``--freeze-placements``, :func:`searched`) varies them alone, its start's placement weights kept as they are.

Reproducible: CMA-ES draws from its own seeded stream (a ``numpy.random.RandomState`` handed to cma
as its ``randn``, never numpy's global one) and the games from theirs, so the same seed gives the same
weights for the same number of generations, whether a generation's candidates are scored here, on a
local process pool or on a Dask cluster (each candidate is one task of :func:`fitness`, the results
taken in the candidates' order).  A run stopped by its time records its generations; ``--generations
N`` replays it.

Resumable: after every generation the whole run (cma's own strategy object, pickled with its random
stream, the best so far and the generation count) is written to a state file (:func:`save_state`);
a run resumed from it continues exactly where it stopped, so a run stopped and resumed ends with the
weights of a run never stopped.  A state file is a pickle: resume only files your own runs wrote.

Cancellable: ``progress`` is asked after every candidate and returning False stops the run at once
(within one candidate's games, well under a second), keeping the best so far.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import time
import warnings
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ...engine import Position, Rules
from ...i18n import gettext
from ..cancel import Cancelled
from ..compiled import layout as kn
from ..compiled.rollout import play_summaries
from ..compiled.policy_codes import COUNTER, FEATURES, HEURISTIC, IDEAS, P_IDEA, SidePolicy
from .counters import COUNTERS
from .heuristic import Heuristic
from ..compiled.policy_codes import MAX_HIDDEN, decision_model, decision_parts
from .discard import HEURISTIC_DISCARD, split_discard
from .team_split import HEURISTIC_SPLIT, split_team_split
from .network import hidden_units
from .strong import Strong, checked_weights
from .weights import preset_file, read_model, shipped, write_model
from .mixture import Mixture

#: the seeds' offset of the validation games (apart from every generation's)
VALIDATION = 1_000_003
#: the state file's layout (a state of another layout is refused, not misread)
STATE_FORMAT = 2
#: what the command trains by default: its time, games a seat, candidates a generation, initial step
MINUTES, GAMES, POPSIZE, SIGMA = 10.0, 200, 12, 0.3
TRAIN_DEFAULTS = {"minutes": MINUTES, "games": GAMES, "popsize": POPSIZE, "seed": 1}
#: a network's league: every LEAGUE_EVERY generations the best so far joins it with an exploiter trained against it
#: (EXPLOITER_GENERATIONS generations of EXPLOITER_POPSIZE candidates); candidates meet its LEAGUE_SIZE latest
LEAGUE_EVERY, LEAGUE_SIZE, EXPLOITER_GENERATIONS, EXPLOITER_POPSIZE = 5, 4, 4, 8
#: a robust run (``--robust K``): a candidate's fitness is the mean of its K lowest scores against the pool, not the
#: mean of them all, and the pool also holds ``strong-linear``'s weights; every ROBUST_EVERY generations an exploiter
#: trained for ROBUST_EXPLOITER_GENERATIONS generations against the best so far joins the league, whose
#: ROBUST_LEAGUE_SIZE latest exploiters the candidates meet.  Why: the game's styles beat one another in a cycle
#: (measured under advanced: the network beat strong-linear 0.72, strong-linear beat an exploiter of the network 0.89,
#: which beat the network 0.88), so a model that only raises its mean score moves round the cycle, and its exploiters
#: of a few generations (the default league's) are too weak to stop it: against exploiters trained for minutes, the
#: worst of its scores is what it must raise
ROBUST_EVERY, ROBUST_LEAGUE_SIZE, ROBUST_EXPLOITER_GENERATIONS = 20, 8, 300
#: the spread of a new network's input weights (its outputs start at 0: it plays its linear part)
INPUT_SCALE = 0.3


class Trained(NamedTuple):
    """A run's result: the best weights, their validation score (:func:`validation`), generations run,
    and whether the run was cancelled before its end."""

    weights: tuple[float, ...]
    score: float
    generations: int
    cancelled: bool = False


class Settings(NamedTuple):
    """What a run is: the same settings and generations give the same weights."""

    rules: Any  # the rules' JSON
    seed: int
    games: int
    popsize: int
    sigma: float
    #: the model the run starts from: the linear weights, then the network's numbers (:mod:`.network`)
    x0: tuple[float, ...]
    #: the network's hidden units (0: the linear policy's weights alone, without a league)
    hidden: int = 0
    #: a robust run's K (:data:`ROBUST_EVERY`): a candidate's fitness is the mean of its K lowest scores; 0: the mean
    robust: int = 0
    #: whether the run keeps its start's placement weights (linear and network) as they are and varies its discard's
    #: and team split's weights alone (``--freeze-placements``, :func:`searched`)
    freeze: bool = False


class TrainingProgress(NamedTuple):
    """Where a run stands: generations done (of ``generations`` when it has a number), candidates of the
    one under way, seconds spent and left (None until two generations are done: the first also starts the workers), the best score."""

    generation: int
    generations: int | None
    candidate: int
    popsize: int
    seconds: float
    seconds_left: float | None
    best: float


class Cost(NamedTuple):
    """A run's cost before it starts: its games a generation, the measured games a second, the
    generations it will run and the seconds it will take."""

    games_a_generation: int
    games_per_second: float
    generations: int
    seconds: float


def score(start: Position, weights: Sequence[float], opponent: SidePolicy, games: int, seed: int) -> float:
    """The learned policy's score with ``weights`` against ``opponent``: ``games`` games in each seat."""
    me = Strong(weights).compiled()
    points = 0.0
    for seat, pair in enumerate(((me, opponent), (opponent, me))):
        out = play_summaries(start, games, seed + seat, sides=pair)
        won = out[:, kn.OUT_WINNER]
        points += float(kn.side_scores(won, seat).sum())
    return points / (2 * games)


def pool_sides(best: Sequence[float], past: Sequence[float],
               league: Sequence[Sequence[float]] = (), linear: Sequence[float] | None = None) -> tuple[SidePolicy, ...]:
    """The opponents every candidate meets: the heuristic, the weights the run started from (a past self,
    so that the pool keeps what the run has already beaten), the best weights so far, and a network's league
    (:data:`LEAGUE_SIZE` of its latest past versions and of the exploiters trained against them); a robust run's
    (``linear``: ``strong-linear``'s weights) meets ``strong-linear`` after the heuristic, and its league's
    :data:`ROBUST_LEAGUE_SIZE` latest exploiters."""
    if linear is not None:
        judges = robust_judges(past, league, linear)
        return (*judges[:3], Strong(best).compiled(), *judges[3:])
    return (Heuristic().compiled(), Strong(past).compiled(), Strong(best).compiled(),
            *(Strong(m).compiled() for m in league[-LEAGUE_SIZE:]))


def robust_judges(past: Sequence[float], league: Sequence[Sequence[float]],
                  linear: Sequence[float]) -> tuple[SidePolicy, ...]:
    """What a robust run measures its models against, apart from its best so far: the heuristic, ``strong-linear``
    (``linear``), the weights the run started from, the league's :data:`ROBUST_LEAGUE_SIZE` latest exploiters and the
    gauntlet's compiled counters (:data:`~..compiled.policy_codes.IDEAS`: a counter counts among a model's lowest
    scores only where it reads or bullies that model); its candidates meet these and the best so far
    (:func:`pool_sides`), its validation these alone."""
    return (Heuristic().compiled(), Strong(linear).compiled(), Strong(past).compiled(),
            *(Strong(m).compiled() for m in league[-ROBUST_LEAGUE_SIZE:]),
            *(COUNTERS[name]().compiled() for name in IDEAS))


def worst_mean(scores: Sequence[float], worst: int) -> float:
    """The mean of the ``worst`` lowest ``scores`` (all of them when there are fewer): a robust run's measure of a
    model, which only rises when the model beats what beats it most."""
    low = sorted(scores)[:worst]
    return sum(low) / len(low)


def fitness(rules: Any, x: Sequence[float], best: Sequence[float], past: Sequence[float], games: int,
            base: int, league: Sequence[Sequence[float]] = (), robust: int = 0) -> float:
    """CMA-ES's fitness of a candidate model (lower is better): minus its mean score against the pool (a robust
    run's: minus the mean of its ``robust`` lowest, :func:`worst_mean`); one task of a generation, module level so
    that process pools and Dask clusters can run it."""
    rules = Rules.from_json(rules)
    start = Position.start(rules)
    if robust:
        pool = pool_sides(best, past, league, linear_start(rules))
        return -worst_mean([score(start, x, o, games, base + 2 * i) for i, o in enumerate(pool)], robust)
    pool = pool_sides(best, past, league)
    return -sum(score(start, x, o, games, base + 2 * i) for i, o in enumerate(pool)) / len(pool)


def exploiter(start: Position, target: Sequence[float] | Mixture, seed: int, games: int,
              generations: int | None = EXPLOITER_GENERATIONS, popsize: int = EXPLOITER_POPSIZE,
              ask: Callable[[], None] | None = None, seconds: float | None = None,
              opponents: Sequence[tuple[float, SidePolicy]] = ()) -> tuple[float, ...]:
    """A best response to the frozen model ``target`` (or mixture, :mod:`.mixture`) within its own model class:
    CMA-ES from ``target`` itself (a mixture's first member), each candidate's fitness its score against ``target``
    alone (both seats), its own seeded stream; the mean of its last generation, after ``generations`` (or as many as
    ``seconds`` allow: the benchmarks' best response trained for minutes).  What exploits a network's snapshot joins
    its league (:class:`Run`), so that the network is trained against what beats it.  ``opponents``: instead of
    ``target``, compiled sides each with its share of the fitness (a population's members at their meta-game odds,
    ``benchmarks/bench_population.py``; ``target`` is then where the search starts).  ``ask()`` between candidates
    raises :class:`.Cancelled` to stop."""
    cma = _cma()
    mix = target if isinstance(target, Mixture) else Mixture.alone(target)
    met = tuple(opponents) or ((1.0, Strong(mixture=mix).compiled()),)
    target = mix.members[0]
    hidden, discards, splits = hidden_units(target), discard_count(target), split_count(target)
    stream = np.random.RandomState(seed % (2 ** 32))
    es = cma.CMAEvolutionStrategy(list(vector(target)), SIGMA, {"popsize": popsize, "verbose": -9, "randn": stream.randn,
                                                                "CMA_diagonal": True, "seed": seed % (2 ** 32) + 1})
    t0, generation = time.monotonic(), 0
    while (generations is None or generation < generations) and (seconds is None or time.monotonic() - t0 < seconds):
        candidates = es.ask()
        values = []
        for x in candidates:
            model = model_of(x, hidden, discards, splits)
            values.append(-sum(share * score(start, model, side, games, seed + generation * 10) for share, side in met))
            if ask is not None:
                ask()
        es.tell(candidates, values)
        generation += 1
    return model_of(es.mean, hidden, discards, splits)


def vector(model: Sequence[float]) -> tuple[float, ...]:
    """The numbers CMA-ES varies of a model: all but its counts of hidden units, discard and split weights (which a run
    keeps), a network's input weights a unit at a time (as a file writes them; the model keeps them a feature at a
    time for the compiled loop), so a run's search is the same whatever the layout of the row; then the discard's
    weights, if it has its own (:mod:`.discard`), then the team split's (:mod:`.team_split`)."""
    n = len(FEATURES)
    model, own, split = decision_parts(model)
    units = hidden_units(model)
    if not units:
        return tuple(model) + own + split
    inputs = np.asarray(model[n + 1:n + 1 + units * n], np.float64).reshape(n, units)  # [feature, unit]
    return (tuple(model[:n]) + tuple(float(v) for v in inputs.T.ravel()) + tuple(model[n + 1 + units * n:]) + own
            + split)


def discard_count(model: Sequence[float]) -> int:
    """How many discard weights a model has (0: it plays the heuristic's discard)."""
    return len(split_discard(model)[1])


def split_count(model: Sequence[float]) -> int:
    """How many team split weights a model has (0: it plays the heuristic's split)."""
    return len(split_team_split(model)[1])


def model_of(x: Sequence[float], hidden: int, discards: int = 0, splits: int = 0) -> tuple[float, ...]:
    """The model of CMA-ES's numbers ``x`` (:func:`vector`'s inverse; ``discards`` and ``splits``: the discard's and
    the team split's weights at its end, :func:`discard_count`, :func:`split_count`), checked."""
    n = len(FEATURES)
    numbers = [float(v) for v in x]
    if discards or splits:
        placing = numbers[:len(numbers) - discards - splits]
        return checked_weights(None, decision_model(model_of(placing, hidden), numbers[len(placing):][:discards],
                                                    numbers[len(placing) + discards:]))
    if not hidden:
        return checked_weights(None, numbers)
    inputs = np.asarray(numbers[n:n + hidden * n], np.float64).reshape(hidden, n)  # [unit, feature]
    return checked_weights(None, numbers[:n] + [float(hidden)] + [float(v) for v in inputs.T.ravel()]
                           + numbers[n + hidden * n:])


def searched(settings: Settings) -> tuple[float, ...]:
    """What the run's CMA-ES varies: the whole model's :func:`vector`, or a frozen run's (``settings.freeze``) its
    discard's and team split's weights alone: a few numbers among a network's hundreds would move as slowly as the
    rest, and each generation's noise in the placements would drown what they change."""
    x = vector(settings.x0)
    return x[len(x) - discard_count(settings.x0) - split_count(settings.x0):] if settings.freeze else x


def candidate(settings: Settings, x: Sequence[float]) -> tuple[float, ...]:
    """The model of CMA-ES's numbers ``x`` in the run (:func:`searched`'s inverse): a frozen run's start with these
    discard and split weights, else :func:`model_of`."""
    discards, splits = discard_count(settings.x0), split_count(settings.x0)
    if settings.freeze:
        whole = vector(settings.x0)
        x = whole[:len(whole) - discards - splits] + tuple(x)
    return model_of(x, settings.hidden, discards, splits)


def trained_discard(rules: Rules, start: Sequence[float], discard: bool = False) -> tuple[float, ...]:
    """The discard weights a run under ``rules`` trains, from the model ``start``: none where the rules have no
    setup discard (``pre_discard``); else the start's own, or, when asked (``discard``, ``--discard``), the
    heuristic's (:data:`.discard.HEURISTIC_DISCARD`), which the run's first generation then plays exactly.  Asked,
    not by default: a run that varies three more numbers draws other candidates, so the recorded command of a
    network trained before the learned discard would no longer train it again."""
    own = split_discard(start)[1]
    return (own or (HEURISTIC_DISCARD if discard else ())) if rules.pre_discard else ()


def trained_split(rules: Rules, start: Sequence[float], team_split: bool = False) -> tuple[float, ...]:
    """The team split weights a run under ``rules`` trains, from the model ``start``: none where the rules have no
    team side; else the start's own, or, when asked (``team_split``, ``--team-split``), the heuristic's
    (:data:`.team_split.HEURISTIC_SPLIT`), which the run's first generation then plays exactly.  Asked, not by
    default, as the discard (:func:`trained_discard`): the shipped team files' recorded commands train them again."""
    own = split_team_split(start)[1]
    return (own or (HEURISTIC_SPLIT if team_split else ())) if rules.is_team else ()


def with_network(model: Sequence[float], hidden: int, seed: int) -> tuple[float, ...]:
    """``model`` with a network of ``hidden`` units (and without a discard or a split: :func:`trained_discard`,
    :func:`trained_split`): its own if it has one of that size; else its linear weights, then seeded small input
    weights (drawn a unit at a time), zero biases and zero output weights, so it plays exactly its linear part until
    training moves the outputs."""
    model = decision_parts(model)[0]
    if hidden == 0 or hidden_units(model) == hidden:
        return tuple(model) if hidden else tuple(model[:len(FEATURES)])
    rng = np.random.RandomState(seed % (2 ** 32))
    inputs = rng.normal(0.0, INPUT_SCALE, hidden * len(FEATURES))
    return model_of(tuple(model[:len(FEATURES)]) + tuple(map(float, inputs)) + (0.0,) * (2 * hidden), hidden)


def validation(start: Position, x: Sequence[float], settings: Settings,
               league: Sequence[Sequence[float]] = ()) -> float:
    """The score that picks the best weights of a run: the mean of ``x``'s scores against the heuristic and
    against the weights the run started from, on the seed's fixed validation games.  Against the heuristic
    alone a model that already beats it nearly always could not tell a better one from a worse one (every
    mean scored 0.999 and the start stayed the best); against its start, a mean that plays better shows it.
    A robust run's: the mean of ``x``'s ``robust`` lowest scores against the heuristic, ``strong-linear``, its start,
    its league's latest exploiters and the gauntlet's compiled counters (:func:`worst_mean`), so the best so far is the
    hardest to beat, not the one that beats its start most."""
    if not settings.robust:
        return validation_score(start, x, settings.x0, 2 * settings.games, settings.seed)
    base = settings.seed + VALIDATION
    pool = robust_judges(settings.x0, league, linear_start(start.rules))
    return worst_mean([score(start, x, o, 2 * settings.games, base + 2 * i) for i, o in enumerate(pool)],
                      settings.robust)


def validation_score(start: Position, x: Sequence[float], x0: Sequence[float], games: int, seed: int) -> float:
    """``x``'s mean score against the heuristic and against ``x0`` over ``games`` validation games a seat of
    ``seed`` (apart from every generation's): what picks the best weights of a training or improvement run."""
    base = seed + VALIDATION
    return (score(start, x, Heuristic().compiled(), games, base) + score(start, x, Strong(x0).compiled(), games, base)) / 2


def generation_games(games: int, popsize: int, hidden: int = 0, robust: int = 0,
                     number: int | None = None) -> list[tuple[tuple[str, str], int]]:
    """The games one generation plays, as the levels of the two seats and how many: every candidate (the learned
    policy, ``strong``) against each policy of the pool (:func:`pool_sides`: the heuristic, then past models) in
    both seats, then the mean's validation against the heuristic and its start; for a network, with its league
    and the exploiters' training (one every :data:`LEAGUE_EVERY`: strong against strong); a robust run's
    (``robust`` > 0) with ``strong-linear``, its league of exploiters in the pool and the validation, and their
    longer training and the best's validation again (one every :data:`ROBUST_EVERY`).
    The plan (``number`` None) counts a full league and shares each growth of it out over its generations: the run's
    cost is these games' plans (``analysis.training.estimate_training``).  Generation ``number`` (from 0) meets the
    league as it stands then (empty at first) and plays a growth whole when the league grows after it, as
    :meth:`Run.generation_of` plays them: what the time left counts (:func:`train`)."""
    zeros = [0.0] * len(FEATURES)
    every, most, joining = _league_shape(hidden, robust)
    if number is None:
        grows, before, after = None, most if every else 0, most if every else 0
    else:
        grows = bool(every) and number % every == every - 1
        before = min(most, joining * (number // every)) if every else 0
        after = min(most, before + joining * grows)
    if robust:
        pool = pool_sides(zeros, zeros, [zeros] * before, zeros)
        judged = len(robust_judges(zeros, [zeros] * after, zeros))  # the validation's, after a growth
    else:
        pool = pool_sides(zeros, zeros, [zeros] * before)
        judged = 2  # the validation's: the heuristic, the start
    seats = [(("strong", level), (level, "strong")) for level in map(_level, pool)]
    out = [(pair, popsize * games) for both in seats for pair in both]
    out += [(pair, 2 * games) for both in seats[:judged] for pair in both]
    if every and grows is not False:
        trained = (ROBUST_EXPLOITER_GENERATIONS if robust else EXPLOITER_GENERATIONS) * EXPLOITER_POPSIZE * 2 * games
        growth = trained + (judged * 4 * games if robust else 0)  # a robust run's best validated again
        out.append((("strong", "strong"), growth if grows else growth // every))
    return out


def _level(side: SidePolicy) -> str:
    """The level a side of the pool plays, as a plan names it: the heuristic, a compiled counter, or strong."""
    if side.code == COUNTER:
        return IDEAS[int(side.params[P_IDEA])]
    return "heuristic" if side.code == HEURISTIC else "strong"


def games_a_generation(games: int, popsize: int, hidden: int = 0, robust: int = 0) -> int:
    """Games one generation plays with a full league, on average (:func:`generation_games`'s plan)."""
    return sum(n for _pair, n in generation_games(games, popsize, hidden, robust))


def games_of_generation(number: int, games: int, popsize: int, hidden: int = 0, robust: int = 0) -> int:
    """Games generation ``number`` (from 0) plays (:func:`generation_games`)."""
    return sum(n for _pair, n in generation_games(games, popsize, hidden, robust, number))


def games_between(first: int, last: int, games: int, popsize: int, hidden: int = 0, robust: int = 0) -> int:
    """Games generations ``first`` to ``last - 1`` play (:func:`games_of_generation`): each counted until the league
    is full, then by whole cycles of its growth, which repeat (a run of a million generations is summed at once)."""
    every, most, joining = _league_shape(hidden, robust)
    full = -(-most // joining) * every if every else 0  # the first generation that meets a full league
    head = sum(games_of_generation(g, games, popsize, hidden, robust) for g in range(first, min(last, full)))
    start = max(first, full)
    if last <= start:
        return head
    cycle = [games_of_generation(full + k, games, popsize, hidden, robust) for k in range(every or 1)]
    n = last - start
    return head + (n // len(cycle)) * sum(cycle) + sum(cycle[(start + k) % len(cycle)] for k in range(n % len(cycle)))


def _league_shape(hidden: int, robust: int) -> tuple[int, int, int]:
    """How often a run's league grows (every so many generations; 0: never, a linear run's), the most of its members
    a candidate meets, and the members a growth adds (a network's: its snapshot and an exploiter; a robust run's: an
    exploiter)."""
    if robust:
        return ROBUST_EVERY, ROBUST_LEAGUE_SIZE, 1
    return (LEAGUE_EVERY if hidden else 0), LEAGUE_SIZE, 2


def default_start(rules: Rules) -> tuple[float, ...]:
    """Where a run starts unless told: the package's weights that ``strong`` plays under ``rules`` (its
    preset's, or those of the preset a variant was made from), so training adapts the nearest trained
    play instead of starting again from nothing.  Measured under team3 with a hand of 5, 3 minutes on
    this machine's two cores: started from team3's file 0.565 against a run started from the
    heuristic's three scores over 4,000 compiled games."""
    return shipped(preset_file(rules))


def linear_start(rules: Rules) -> tuple[float, ...]:
    """The package's linear weights for ``rules`` (``strong-linear``'s): where the linear fits start, the improvement
    by the search and a persona fitted to people's games, which fit a linear score (a network's numbers are
    trained by self-play alone)."""
    return shipped(preset_file(rules, linear=True))


def training_pace(rules: Rules, hidden: int | None = None, sample: int = 400) -> tuple[int, float]:
    """The hidden units a run under ``rules`` trains (``hidden``, else its starting model's) and its games a second
    here: ``sample`` games of that model against the heuristic, timed after the compiled loop is ready, with the
    network it trains (which costs most of a game: the table of games' seconds the plans keep does not know it)."""
    start = Position.start(rules)
    units = hidden_units(default_start(rules)) if hidden is None else hidden
    x0 = with_network(default_start(rules), units, 0)
    heuristic = Heuristic().compiled()
    score(start, x0, heuristic, 2, 0)  # compiled (or loaded from numba's cache) before the clock starts
    t0 = time.perf_counter()
    score(start, x0, heuristic, max(1, sample // 2), 0)
    return units, 2 * max(1, sample // 2) / max(time.perf_counter() - t0, 1e-9)


def check_training(rules: Rules, seed: int, seconds: float | None, generations: int | None, games: int = GAMES,
                   popsize: int = POPSIZE, sigma: float = SIGMA,
                   start_from: tuple[float, ...] | dict[str, float] | None = None, resume: Run | None = None,
                   hidden: int | None = None, robust: int = 0, discard: bool = False, team_split: bool = False,
                   freeze: bool = False) -> Settings:
    """The run's settings; a ValueError names the option that is wrong (a resumed run's settings must be these)."""
    if seconds is None and generations is None:
        raise ValueError(gettext("--minutes: give the training time in minutes or --generations"))
    if seconds is not None and not (0 < seconds < math.inf):
        raise ValueError(gettext("--minutes: the training time must be a positive number of minutes, not {value}").format(
            value=seconds / 60))
    if generations is not None and generations < 1:
        raise ValueError(gettext("--generations: at least 1 generation, not {value}").format(value=generations))
    if games < 1:
        raise ValueError(gettext("--games: at least 1 game a seat, not {value}").format(value=games))
    if popsize < 2:
        raise ValueError(gettext("--popsize: at least 2 candidates a generation, not {value}").format(value=popsize))
    if isinstance(robust, bool) or not isinstance(robust, int) or robust < 0:
        raise ValueError(gettext("--robust: the number of lowest scores a candidate is measured by (0: its mean "
                                 "score), not {value}").format(value=robust))
    if not (0 < sigma < math.inf):
        raise ValueError(gettext("--sigma: the initial step must be positive, not {value}").format(value=sigma))
    start = (default_start(rules) if start_from is None
             else tuple(float(start_from.get(name, 0.0)) for name in FEATURES) if isinstance(start_from, dict)
             else checked_weights(None, list(start_from), "--start"))
    units = hidden_units(start) if hidden is None else hidden
    if isinstance(units, bool) or not 0 <= units <= MAX_HIDDEN:
        raise ValueError(gettext("--hidden: a whole number of hidden units from 0 (the linear policy) to {most}, not "
                                 "{value}").format(most=MAX_HIDDEN, value=units))
    x0 = decision_model(with_network(start, units, seed), trained_discard(rules, start, discard),
                        trained_split(rules, start, team_split))
    if freeze and len(x0) == len(decision_parts(x0)[0]):
        raise ValueError(gettext("--freeze-placements: these rules and options train no setup discard or team split "
                                 "(add --discard under rules with a setup discard, --team-split under team rules)"))
    settings = Settings(rules.to_json(), seed, games, popsize, sigma, x0, units, robust, freeze)
    if resume is not None:
        _same_run(resume.settings, settings, start_from is None and hidden is None)
    return settings


class Run:
    """One training run's whole state: its settings, cma's strategy (with its own random stream), the best
    so far and the generations done; pickled as it stands to resume it (:func:`save_state`)."""

    #: a run saved before runs kept their start file's record resumes as one from the package's weights
    origin: dict[str, Any] = {}

    def __init__(self, settings: Settings, origin: dict[str, Any] | None = None) -> None:
        cma = _cma()
        self.settings = settings
        #: where the run started, as its weights file records it (:func:`start_record`; empty: the package's weights), kept
        #: so that a run resumed from its state alone still records the start its command needs
        self.origin = dict(origin or {})
        self.features = tuple(FEATURES)
        stream = np.random.RandomState(settings.seed)
        options = {"popsize": settings.popsize, "verbose": -9, "randn": stream.randn}
        if settings.hidden and not settings.freeze:  # a network's hundreds of numbers: a diagonal covariance adapts
            options["CMA_diagonal"] = True            # in as many generations
        self.es = cma.CMAEvolutionStrategy(list(searched(settings)), settings.sigma, options)
        x0 = checked_weights(None, list(settings.x0))
        self.best = Trained(x0, validation(self.start, x0, settings), 0)
        self.generation = 0
        #: a network's league: its past versions and the exploiters trained against them, in the order they joined
        self.league: list[tuple[float, ...]] = []

    @property
    def start(self) -> Position:
        return Position.start(Rules.from_json(self.settings.rules))

    def generation_of(self, evaluate: Callable[[list[tuple[float, ...]], tuple[float, ...], int,
                                                 list[tuple[float, ...]]], list[float]],
                      ask: Callable[[], None] | None = None) -> None:
        """Run one generation, its candidate models scored by ``evaluate(candidates, best, base, league)``, then
        the mean's validation (the best so far is the mean that scored best there); a network's league then grows
        every :data:`LEAGUE_EVERY` generations by the best so far and by an :func:`exploiter` trained against it (a
        robust run's every :data:`ROBUST_EVERY` by a longer-trained exploiter alone, the best so far then validated
        again against it).
        A cancel inside leaves cma's stream drawn: a run resumes from the state saved after its last whole
        generation (:func:`read_state`)."""
        s = self.settings
        candidates = self.es.ask()
        values = evaluate([candidate(s, x) for x in candidates], self.best.weights,
                          s.seed * 1_000 + self.generation * 10, self.league)
        if s.robust and self.generation % ROBUST_EVERY == ROBUST_EVERY - 1:
            found = exploiter(self.start, self.best.weights, s.seed * 7_919 + self.generation, s.games,
                              generations=ROBUST_EXPLOITER_GENERATIONS, ask=ask)
            self.league.append(found)
            # the best so far measured again against the grown league, so that a later mean is compared fairly
            self.best = self.best._replace(score=validation(self.start, self.best.weights, s, self.league))
        elif s.hidden and not s.robust and self.generation % LEAGUE_EVERY == LEAGUE_EVERY - 1:
            snapshot = self.best.weights
            found = exploiter(self.start, snapshot, s.seed * 7_919 + self.generation, s.games, ask=ask)
            self.league.extend([snapshot, found])
        self.es.tell(candidates, values)
        self.generation += 1
        mean = candidate(s, self.es.mean)
        valid = validation(self.start, mean, s, self.league)
        if valid > self.best.score:
            self.best = Trained(mean, valid, self.generation)


def _cma() -> Any:
    """The cma package (imported quietly: it says at import that it plots nothing without matplotlib)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        import cma
    return cma


def save_state(path: Path, run: Run) -> None:
    """Write the run's state (replaced whole: a stop while writing leaves the previous generation's)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(pickle.dumps({"format": STATE_FORMAT, "run": run}))
    os.replace(tmp, path)


def read_state(path: Path) -> Run:
    """A run written by :func:`save_state`; a ValueError names the file and why it cannot be resumed."""
    _cma()
    try:
        data = pickle.loads(Path(path).read_bytes())
    except OSError as exc:
        raise ValueError(gettext("--resume: {path}: {error}").format(path=path, error=exc.strerror or exc)) from None
    except Exception:  # noqa: BLE001 - whatever a file that is no pickle raises, one sentence
        raise ValueError(gettext("--resume: {path} is not the state of a training run").format(path=path)) from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT or not isinstance(data.get("run"), Run):
        raise ValueError(gettext("--resume: {path} is not the state of a training run of this version").format(path=path))
    run: Run = data["run"]
    if run.features != tuple(FEATURES):  # the network's numbers follow the features
        raise ValueError(gettext("--resume: {path} trains the features {saved}, not this policy's {features}: start a "
                                 "new run").format(path=path, saved=", ".join(run.features), features=", ".join(FEATURES)))
    return run


def train(rules: Rules, seed: int, seconds: float | None = MINUTES * 60, games: int = GAMES, popsize: int = POPSIZE,
          sigma: float = SIGMA, generations: int | None = None,
          start_from: tuple[float, ...] | dict[str, float] | None = None, executor: Any = None,
          progress: Callable[[TrainingProgress], bool | None] | None = None, state: Path | None = None,
          resume: Run | None = None, hidden: int | None = None, robust: int = 0, discard: bool = False,
          team_split: bool = False, freeze: bool = False, origin: dict[str, Any] | None = None) -> Trained:
    """CMA-ES over the weights until ``seconds`` have passed or ``generations`` (counted from the run's
    start, a resumed run's earlier ones included) are done, ``games`` games a seat for each candidate and
    opponent, from the weights ``strong`` plays under these rules (:func:`default_start`) or ``start_from``
    (by feature; a feature it lacks starts at 0),
    or from the run ``resume`` (whose settings must be these).

    A generation's candidates are scored here, or as tasks of ``executor`` (a process pool or a Dask
    client's executor): the same weights either way.  ``progress`` is asked after every candidate; False
    cancels (the result's ``cancelled``; the best so far is kept).  ``state``: the file the run is
    saved to after every generation.  ``robust``: a robust run's K (:data:`ROBUST_EVERY`; 0, the default league);
    ``discard``, ``team_split``: train the setup discard's and the team split's weights too (:func:`trained_discard`,
    :func:`trained_split`); ``freeze``: those alone, the placements' as they start (:func:`searched`); ``origin``: the
    start file's record (:func:`start_record`), kept in the state.  A ValueError names bad input."""
    settings = check_training(rules, seed, seconds, generations, games, popsize, sigma, start_from, resume, hidden,
                              robust, discard, team_split, freeze)
    run = resume if resume is not None else Run(settings, origin)
    # a resumed run goes on as it began: its pool's start is its own, not the one these options would give (a run
    # resumed without --start or --hidden would otherwise meet the preset's shipped model as its start)
    settings = run.settings
    t0 = time.monotonic()
    # the seconds a game: those of this run's generations after its first (which also starts the workers, and so is
    # not a pace: None until a second is done) over their games (:func:`games_of_generation`), so the time left
    # neither counts the start nor jumps with a single generation, and counts the league's growths to come: a robust
    # run's first twenty generations play a fifth of its games, and a pace a generation read from them planned four
    # times the generations that fit
    per_game: float | None = None
    first_end, done_here, played = 0.0, 0, 0  # when this run's first generation ended; its generations, games since
    shape = (settings.games, settings.popsize, settings.hidden, settings.robust)
    pace = games_a_generation(*shape)  # games a generation, the league's growths shared out
    left_from: dict[int, int] = {}  # the games left of a --generations run from the generation under way, summed once

    def games_left(first: int, last: int) -> int:
        if first not in left_from:
            left_from.clear()
            left_from[first] = games_between(first, last, *shape)
        return left_from[first]

    def ask(candidate: int) -> None:
        spent = time.monotonic() - t0
        by_time = None if seconds is None else max(0.0, seconds - spent)
        by_count = None if generations is None or per_game is None else per_game * games_left(run.generation,
                                                                                                 generations)
        left = None if per_game is None else min(x for x in (by_time, by_count) if x is not None)
        planned = generations if generations is not None else (  # by time: the one under way and those that fit
            None if per_game is None or left is None else run.generation + max(1, math.ceil(left / (per_game * pace))))
        if progress is not None and progress(TrainingProgress(run.generation, planned, candidate, popsize, spent, left,
                                                              run.best.score)) is False:
            raise Cancelled()

    try:
        while (generations is None or run.generation < generations) and (
                seconds is None or time.monotonic() - t0 < seconds):
            ask(0)
            run.generation_of(_evaluator(settings.rules, settings.x0, games, executor, ask, settings.robust),
                              lambda: ask(popsize))
            done_here += 1
            if done_here == 1:
                first_end = time.monotonic()
            else:
                played += games_of_generation(run.generation - 1, *shape)
                per_game = (time.monotonic() - first_end) / played
            if state is not None:
                save_state(state, run)
    except Cancelled:
        return Trained(run.best.weights, run.best.score, run.generation, True)
    return Trained(run.best.weights, run.best.score, run.generation)


def _same_run(saved: Settings, asked: Settings, default_start: bool) -> None:
    """Refuse to resume a run under other settings, naming the first that differs."""
    for option, field in (("--rules", "rules"), ("--seed", "seed"), ("--games", "games"), ("--popsize", "popsize"),
                          ("--sigma", "sigma"), ("--robust", "robust"), ("--freeze-placements", "freeze")):
        if getattr(saved, field) != getattr(asked, field):
            raise ValueError(gettext("{option}: the run resumed has {saved}, not {asked} (leave it out to continue the "
                                     "run)").format(option=option, saved=repr(getattr(saved, field)),
                                                    asked=repr(getattr(asked, field))))
    if not default_start and saved.hidden != asked.hidden:
        raise ValueError(gettext("--hidden: the run resumed trains a network of {saved} hidden units, not {asked}").format(
            saved=saved.hidden, asked=asked.hidden))
    if not default_start and saved.x0 != asked.x0:
        raise ValueError(gettext("--start: the run resumed started from other weights"))


def _evaluator(rules: Any, past: Sequence[float], games: int, executor: Any, ask: Callable[[int], None],
               robust: int = 0) -> Callable[[list[tuple[float, ...]], tuple[float, ...], int, list[tuple[float, ...]]], list[float]]:
    """A generation's scoring: each candidate's :func:`fitness` here or as a task of ``executor``, ``ask``
    (which raises :class:`.Cancelled` when the run is cancelled) after each."""
    def evaluate(candidates: list[tuple[float, ...]], best: tuple[float, ...], base: int,
                 league: list[tuple[float, ...]]) -> list[float]:
        if executor is None:
            values = []
            for i, x in enumerate(candidates):
                values.append(fitness(rules, x, best, past, games, base, league, robust))
                ask(i + 1)
            return values
        futures = [executor.submit(fitness, rules, x, best, past, games, base, league, robust) for x in candidates]
        try:
            return [float(v) for v in gathered(futures, ask)]
        finally:
            for f in futures:
                f.cancel()
    return evaluate


def gathered(futures: list[Any], ask: Callable[[int], None]) -> list[Any]:
    """The futures' results in their order, ``ask(how many finished)`` as they finish (every 0.2 s at most
    apart; it raises :class:`.Cancelled` to stop)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending = set(futures)
    while pending:
        finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        ask(len(futures) - len(pending))
    return [f.result() for f in futures]


def start_model(path: Path) -> tuple[float, ...]:
    """The whole model of a weights file a training run starts from (a network's numbers too); a ValueError
    names ``--start`` and what is wrong."""
    try:
        return read_model(Path(path)).weights
    except ValueError as exc:
        raise ValueError(gettext("--start: {problem}").format(problem=exc)) from None


def command(rules: str, result: Trained, seed: int, games: int, popsize: int, start: str | None = None,
            robust: int = 0, freeze: bool = False) -> str:
    """The command that trains these weights again (the generations the run did, whatever stopped it); ``start``: the
    ``--start`` file as :func:`start_name` records it."""
    words = ["guyenne-explore", "train", "--rules", rules if rules.isidentifier() else f"'{rules}'", "--seed", str(seed),
             "--generations", str(result.generations), "--games", str(games), "--popsize", str(popsize)]
    if hidden_units(result.weights):
        words += ["--hidden", str(hidden_units(result.weights))]
    if robust:
        words += ["--robust", str(robust)]
    if discard_count(result.weights):
        words.append("--discard")
    if split_count(result.weights):
        words.append("--team-split")
    if freeze:
        words.append("--freeze-placements")
    return " ".join(words + (["--start", start] if start is not None else []))


def start_name(start: Path) -> str:
    """How a run's ``--start`` file is recorded: a package file by its path in the source tree (the linear file a
    shipped network was trained from), so the command runs again from a checkout; another by its name alone (a
    user's path would say where they keep their files, and could not be run elsewhere)."""
    tree = Path(__file__).resolve().parents[3]  # the folder that holds the package
    try:
        return str(Path(start).resolve().relative_to(tree))
    except ValueError:
        return Path(start).name


def shipped_name(rules: str) -> str:
    """The package file a run without ``--start`` started from, with the package's version (the file
    may change between versions; the same version gives the same weights)."""
    from ... import __version__

    parsed = Rules.from_json(json.loads(rules) if rules.startswith("{") else rules)
    return f"weights/{preset_file(parsed).name} of guyenne_explore {__version__}"


def start_record(start: Path) -> dict[str, Any]:
    """A start file as a run's weights file records it: its name (:func:`start_name`), and, where the file says how it
    was made, that record (``start_trained``: a file made in steps, often replacing its own start, as a shipped
    network given its own team split, is made again by the start's command, then the run's).  Read when the run
    begins and kept in its state: the file may be replaced before the run ends."""
    out: dict[str, Any] = {"started_from": start_name(start)}
    try:
        made = json.loads(Path(start).read_text()).get("trained")
    except (OSError, ValueError, AttributeError):  # the run read its weights already: a file without a record
        made = None
    if isinstance(made, dict) and "command" in made:
        out["start_trained"] = made
    return out


def start_fields(origin: dict[str, Any] | None, rules: str) -> tuple[str | None, dict[str, Any]]:
    """Where a run started, as its weights file says it (``train``'s and ``improve``'s alike): the start file the
    command names (None: the package's, which it does not name), and the record's ``started_from`` (that file, else
    the package's file of this version: :func:`shipped_name`) with the start's own ``start_trained`` where it has one;
    ``origin``: :func:`start_record`'s."""
    start = origin.get("started_from") if origin else None
    fields: dict[str, Any] = {"started_from": start if start is not None else shipped_name(rules)}
    if origin and "start_trained" in origin:
        fields["start_trained"] = origin["start_trained"]
    return start, fields


def write_weights(path: Path, result: Trained, rules: str, seed: int, games: int, origin: dict[str, Any] | None = None,
                  popsize: int = POPSIZE, trained_for: str | None = None, robust: int = 0, freeze: bool = False) -> None:
    """The weights file the policy loads (:func:`.weights.read_model`); ``origin``: the run's start file
    (:func:`start_record`; none: the package's weights); ``robust``: the run's K, if robust; ``freeze``: whether it trained
    the discard and split alone (``--freeze-placements``)."""
    start, begun = start_fields(origin, rules)
    trained = {"rules": rules, "seed": seed, "games_a_seat": games, "popsize": popsize,
               "generations": result.generations, "validation_score": round(result.score, 4),
               "cancelled": result.cancelled,
               **({"robust": robust} if robust else {}), **({"freeze_placements": True} if freeze else {}),
               "command": command(rules, result, seed, games, popsize, start, robust, freeze), **begun}
    write_model(path, result.weights, trained, trained_for or rules)
