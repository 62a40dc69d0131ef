"""Improving the learned policy by the natural policy gradient of its own games: paired deviations, compiled.

    guyenne-explore improve --method natural --rules classic2021 --seed 1 --iterations 4 --games 200000

``strong`` is a softmax over scores, so ``grad log pi(b|s)`` is known in closed form at every placement, for the
linear weights and a network's numbers alike: a move's gradient of its score (:func:`score_gradients`) less the
policy's mean one, over the temperature.  Regressing the moves' advantages on it gives the natural gradient (Kakade
2001; the compatible function approximation of Sutton et al. 2000): the step in the model's numbers that changes its
scores as the advantages ask, in the policy's own geometry (what PPO's and TRPO's steps approximate).

The advantages are measured as the model exploiter measures them, one move against another from the same placement,
but on the compiled loop (:mod:`..compiled.recording`), thousands of games a second where the engine-played search
of :mod:`.improvement` values a game's placements in a second: in each of ``games`` games one placement of the
learner's is drawn, and :data:`ALTERNATIVES` other legal moves, uniformly, each played in a copy of the game that
differs by that move alone (its random numbers go on as they would have).  The two games' difference of score for the
side, ``A(s, b) - A(s, a)``, is ``(grad score(b) - grad score(a)) . w / T`` under the compatible model: the regression
needs no baseline, and the common random numbers leave most differences 0.  Moves drawn uniformly, not from the
policy: a search finds its gains among the moves ``strong`` scores far down (``benchmarks/bench_regret.py``); in
scratch runs of self-play under classic2021, four iterations from alternatives drawn near its best (three times its
temperature) scored 0.571 against their start, from uniform ones 0.635.

The games are against a league (:func:`league`), a :data:`CHUNK` at a time in turn and in both seats: the current
policy, its start, ``strong-linear``, the heuristic and the gauntlet's compiled counters.  In self-play alone each
iteration moves round the game's cycle of styles: three iterations under classic2021 scored 0.591 against their start,
but 0.606 against ``strong-linear`` (their start: 0.724).  Each iteration's step is the multiple of the direction that
scores best against the league over :data:`MATCH_GAMES` compiled games a seat (:func:`line_search`, from a step that
moves the policy by :data:`FIRST_KL` nats; none better: the iteration keeps its start); the run's answer is the
iteration that scores best against its fixed opponents on other games (:data:`VALIDATION_GAMES`).

Measured (``guyenne-explore improve --method natural --rules R --seed 1 --iterations 4``, 200,000 games an iteration,
90 s or so an iteration on two cores; :func:`match`, 5,000 compiled games a seat, seed 424242, 95% intervals; the model
exploiter by ``benchmarks/bench_exploit.py --responders exploiter``, 400 games):

=============================  ====================  =====================  =====================  ====================
the network                    against its start     against strong-linear  against the heuristic  model exploiter
=============================  ====================  =====================  =====================  ====================
classic2021's shipped          (0.5)                 0.724 [0.715, 0.733]   0.943 [0.938, 0.947]   0.838 (800 games)
after 3 iterations, self-play  0.591 [0.582, 0.601]  0.606 [0.596, 0.616]   0.957 [0.953, 0.961]   0.850 [0.812, 0.882]
after 3 iterations, league     0.520 [0.511, 0.530]  0.747 [0.738, 0.755]   0.964 [0.960, 0.967]   0.833 [0.793, 0.866]
advanced's before              (0.5)                 0.711 [0.702, 0.720]   0.993 [0.991, 0.994]   0.581 (800 games)
after 3 iterations, league     0.510 [0.500, 0.520]  0.707 [0.698, 0.716]   0.994 [0.992, 0.995]   0.545 [0.496, 0.593]
=============================  ====================  =====================  =====================  ====================

Under classic2021 the league's natural gradient makes ``strong`` a little stronger against every opponent it meets,
and no harder for one ply of search to exploit; under advanced about as strong, and a little harder: the model
exploiter takes 0.548 [0.513, 0.582] from it over 800 other games (``--seed 2027``), 0.547 over the 1,200, where it
took 0.581 from its start; a best response trained for 10 minutes against it still takes 0.953 [0.935, 0.965]
(``benchmarks/bench_network.py --best-response 10``, 0.935 from its start).  Advanced's shipped network is this run
(the command in its file, from the network before it).  With the gauntlet's compiled counters in the league
(2026-11-30, the same command from the shipped network, three iterations) no iteration scored better against the league
than the start, which the run kept: the counters take at most 0.19 from ``strong`` (the caller and bully, advanced), so
they add little to learn from; they are in the league so that a step that lets a reader or a bully in loses score
there, which the line search weighs.

The exact posterior as an input (``counted``, :data:`~..compiled.policy_codes.F_COUNTED`, weighed 0 by every shipped
network).  From classic2021's shipped network (``--rules classic2021 --seed 1 --iterations 4 --start`` it, the league
with the counters, 2026-11-30) every iteration scored better against the league (0.871 at the start, 0.907 after the
fourth), and the network learnt to read it (its units' input weights of it from -8.96 to 3.03).  It is far stronger:
0.836 [0.828, 0.844] against ``strong-linear`` (the shipped 0.731 on the same 4,000 games a seat), 0.590 against the
shipped, and 0.544 against itself with its weights of ``counted`` set to 0.  But a best response trained against it
takes 0.758 [0.727, 0.787] from it (``bench_exploit.py --responders trained --games 800``; 0.529 from the shipped
robust network), and the model exploiter 0.822 [0.794, 0.847] (0.838): a step of the mean score moved it round the
cycle of styles again, as before, so classic2021 keeps its robust network.  From advanced's network (the same command)
no iteration beat the start.  What one ply of search wins at a placement lies mostly
outside what a step of these numbers expresses (``benchmarks/bench_capacity.py`` fitted the search's values and found
the same).

The same gradient against a frozen policy alone is a best response to it (:func:`respond`, the exploit command's
trained responder): under advanced four iterations of 50,000 games (two minutes on one core) take 0.767 from the
shipped network (0.778 on another seed, 0.876 after ten iterations), and the response opens small where the network
opens big (``benchmarks/bench_natural.py --respond 4``).  Training against such responses does not make the network
harder to exploit.  In scratch runs under advanced, each iteration first trained a response against the current policy
and added it to the league: the response to the next policy took less from it (0.782, 0.550, 0.574, 0.746 over four
iterations), but the first response still took 0.77 from the second policy; by the fourth the policy scored 0.545
against ``strong-linear`` (0.703 at the start), moving round the cycle of styles again.  A policy and its response
mixed at each decision (``guyenne-explore mix``) is weaker, 0.614 against ``strong-linear``, and no harder to exploit
(a fresh response took 0.839 from the mixture).  Nor is a hotter policy: at twice the temperature the network still
scores 0.703 against ``strong-linear``, and a response takes 0.855 from it.  Nor is a population of responses played
at its meta-game's Nash odds, a member drawn once a game (``benchmarks/bench_population.py``): its mixtures score
0.57 to 0.59 against ``strong-linear``, and the model exploiter takes 0.75 from them.

Reproducible: iteration ``i``'s games are seeded by ``(seed, i)`` and its draws by a generator of the same, so the
same seed and iterations give the same weights; resumable from the JSON state written after every iteration;
cancellable: ``progress`` is asked after every :data:`CHUNK` of games (under a second) and False stops the run,
keeping the best so far.
"""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ...engine import Position, Rules
from ...i18n import gettext
from ..cancel import Cancelled
from ..compiled import layout as kn
from ..compiled.policy_codes import FEATURES, IDEAS, SidePolicy, network_size
from ..compiled.recording import Recorded, forced_games, recorded_games
from ..compiled.rollout import play_summaries
from ..compiled.strong_kernel import D_CHOSEN, D_FIRST, D_MOVES, D_SIDE
from .counters import COUNTERS
from .heuristic import TEMPERATURE, Heuristic
from .improvement import ImproveProgress, _parts, _scored, _vector, kept, run_fields, run_json, write_state
from .network import hidden_units
from .strong import Strong, checked_weights
from .train import Trained, default_start

#: other legal moves played at each drawn placement, each in its own copy of the game
ALTERNATIVES = 2
#: self-play games recorded (and their copies played) at once: under a second, between two questions to ``progress``
CHUNK = 200
#: the first step tried moves the policy by this mean KL divergence (nats) over the iteration's first games'
#: placements; each next step is twice as long, at most :data:`STEPS` of them, until one scores worse than the best
#: by more than :data:`WORSE` (a direction's useful size differs by rules and iterations: under classic2021 the shipped
#: network's first direction scored best at a step of 9 nats, 0.515 against its start, and twice as long lost, 0.33)
FIRST_KL = 0.01
STEPS = 8
WORSE = 0.01
#: compiled games a seat that score each step against the league, shared among its opponents
MATCH_GAMES = 4000
#: compiled games a seat that score each iteration against each fixed opponent of the league (other seeds than the
#: matches')
VALIDATION_GAMES = 2000
#: the regression's ridge, relative to its normal matrix's mean diagonal.  The features are nearly collinear, and the
#: weakly determined combinations of the numbers carry the estimate's noise, which breaks the policy before the
#: well determined ones have moved it far.  On classic2021's first direction (200,000 games, the best of a line
#: search against the start, 4,000 games a seat): 0.511 at 1e-6, 0.513 at 1e-4, 0.535 at 0.01, 0.522 at 0.03, 0.550 at
#: 0.1, 0.523 at 1 (where the step is nearly the plain gradient)
RIDGE = 0.1
#: a best response's recipe (:func:`respond`): iterations of the natural gradient against the frozen policy alone, and
#: paired games an iteration.  Against advanced's shipped network (``benchmarks/bench_natural.py --respond 4``) it took
#: 0.511, 0.538, 0.594, 0.767 after each of four iterations (114 s on one core beside other work); on another seed
#: 0.778 after four, 0.876 after ten
RESPONSE_ITERATIONS = 4
RESPONSE_GAMES = 50_000
#: the state file's layout (a state of another layout is refused, not misread)
STATE_FORMAT = 1
#: the seeds of the games that time an iteration (apart from a run's)
PACE_SEED = 1 << 40
#: what the command runs by default with ``--method natural``
NATURAL_DEFAULTS = {"iterations": 4, "games": 200_000, "seed": 1}


class NaturalSettings(NamedTuple):
    """What a run is: the same settings and iterations give the same weights."""

    rules: Any  # the rules' JSON
    seed: int
    games: int
    x0: tuple[float, ...]


class Direction(NamedTuple):
    """A natural gradient: ``step`` in the model's numbers (:func:`.improvement._vector`'s order), from ``samples``
    paired games; ``explained``, the share of the pairs' differences the step explains (near 0: the games could not
    tell the moves apart); ``fisher``, the regression's normal matrix a sample (the metric two estimates compare in)."""

    step: np.ndarray
    samples: int
    explained: float
    fisher: np.ndarray


def check_natural(rules: Rules, seed: int, iterations: int, games: int,
                  start_from: Sequence[float] | None = None) -> NaturalSettings:
    """The run's settings; a ValueError names the option that is wrong."""
    if iterations < 1:
        raise ValueError(gettext("--iterations: at least 1 iteration, not {value}").format(value=iterations))
    if games < CHUNK:
        raise ValueError(gettext("--games: at least {least} games an iteration with --method natural, not {value}")
                         .format(least=CHUNK, value=games))
    model = default_start(rules) if start_from is None else checked_weights(None, list(start_from), "--start")
    return NaturalSettings(rules.to_json(), seed, games, model)


def score_gradients(phi: np.ndarray, theta: np.ndarray, units: int) -> tuple[np.ndarray, np.ndarray]:
    """Each move's gradient of its score by ``theta``'s numbers (a row a move of ``phi``: the linear weights' is its
    features; a unit's input weights', its features where the unit is active times its output weight, at ``k * units
    + j`` as the model lays them; a bias's, that output weight; an output weight's, the unit's output) and its score."""
    score, hidden = _scored(theta, units, phi)
    if not units:
        return phi, score
    _w, _inputs, _biases, outputs = _parts(theta, units)
    by_unit = (hidden > 0) * outputs  # d score / d (unit j's input)
    inputs = (phi[:, :, None] * by_unit[:, None, :]).reshape(len(phi), -1)
    return np.concatenate([phi, inputs, by_unit, np.maximum(hidden, 0.0)], axis=1), score


def paired_direction(rules: Rules, model: Sequence[float], games: int, seed: int, alternatives: int = ALTERNATIVES,
                     explore: float | None = None, ask: Callable[[int], None] | None = None,
                     temperature: float = TEMPERATURE, opponents: Sequence[SidePolicy] = ()) -> Direction:
    """The natural gradient of ``model`` from ``games`` games seeded by ``seed`` (see the module's text): self-play, or
    against ``opponents`` in turn, a :data:`CHUNK` of games each, ``model`` in one seat and then the other;
    ``alternatives`` moves at one drawn placement of ``model``'s a game, uniformly among the other legal ones
    (``explore``: drawn instead from the policy at that many times its temperature, the move played left out).
    ``ask`` is told the games done after each chunk (what it raises, a cancel, stops here)."""
    units = hidden_units(model)
    theta = _vector(model, units)
    start = Position.start(rules)
    learner = Strong(model).compiled(rules)
    draw = np.random.default_rng([seed, 4099])
    normal = np.zeros((len(theta), len(theta)))
    moment = np.zeros(len(theta))
    sum_dd, count = 0.0, 0
    for lo in range(0, games, CHUNK):
        n = min(CHUNK, games - lo)
        sides, seat = _seats(learner, opponents, lo // CHUNK)
        made = recorded_games(start, n, seed, sides, start_index=lo)
        game = made.column("game")
        first_of = np.searchsorted(game, np.arange(n))
        held = np.bincount(game, minlength=n)
        mine = made.column("side") == seat if seat is not None else np.ones(len(game), bool)
        picked, at, alt = [], [], []
        for g in np.flatnonzero(held):
            own = first_of[g] + np.flatnonzero(mine[first_of[g]:first_of[g] + held[g]])
            if not len(own):
                continue
            k = int(own[draw.integers(len(own))])  # (its index among every recorded placement of the game: a learned
            # opponent's too, as the forced game counts them)
            first, moves, chosen = (int(x) for x in made.decisions[k, [D_FIRST, D_MOVES, D_CHOSEN]])
            if moves < 2:
                continue
            if explore is None:
                weight = np.ones(moves)
            else:
                score, _ = _scored(theta, units, made.phi[first:first + moves].astype(np.float64))
                weight = np.exp((score - score.max()) / (temperature * explore))
            weight[chosen] = 0.0
            others = int((weight > 0).sum())
            for b in draw.choice(moves, min(alternatives, others), replace=False, p=weight / weight.sum()):
                picked.append(k)
                at.append(k - first_of[g])
                alt.append(int(b))
        if picked:
            rows, moved = np.array(picked), np.array(alt)
            forced = forced_games(start, seed, sides, lo + game[rows], np.array(at), moved)
            side = made.decisions[rows, D_SIDE]
            d = _side_score(forced, side) - _side_score(made.out[game[rows]], side)
            firsts = made.decisions[rows, D_FIRST]
            grads_b, _ = score_gradients(made.phi[firsts + moved].astype(np.float64), theta, units)
            grads_a, _ = score_gradients(made.phi[firsts + made.decisions[rows, D_CHOSEN]].astype(np.float64), theta,
                                         units)
            delta = (grads_b - grads_a) / temperature
            normal += delta.T @ delta
            moment += delta.T @ d
            sum_dd += float(d @ d)
            count += len(d)
        if ask is not None:
            ask(lo + n)
    if not count:
        return Direction(np.zeros(len(theta)), 0, 0.0, normal)
    coef = np.linalg.solve(normal + RIDGE * float(np.mean(np.diag(normal))) * np.eye(len(theta)), moment)
    return Direction(coef, count, float(coef @ moment) / sum_dd if sum_dd else 0.0, normal / count)


def _seats(learner: SidePolicy, opponents: Sequence[SidePolicy], chunk: int
           ) -> tuple[tuple[SidePolicy, SidePolicy], int | None]:
    """Chunk ``chunk``'s sides and the learner's seat (None: self-play, both): the opponents in turn, the learner in
    the first seat against each, then in the second."""
    if not opponents:
        return (learner, learner), None
    other = opponents[chunk % len(opponents)]
    seat = (chunk // len(opponents)) % 2
    return ((learner, other) if seat == 0 else (other, learner)), seat


def _side_score(out: np.ndarray, side: np.ndarray) -> np.ndarray:
    """Each game's score (a win 1, a draw a half) for the side of the same row."""
    winners = out[:, kn.OUT_WINNER]
    return np.where(side == 0, kn.side_scores(winners, 0), kn.side_scores(winners, 1))


def stepped(model: Sequence[float], step: np.ndarray, size: float) -> tuple[float, ...]:
    """``model`` moved by ``size`` times ``step`` (its discard's and team split's numbers kept)."""
    units = hidden_units(model)
    n = len(FEATURES)
    moved = [float(x) for x in _vector(model, units) + size * step]
    kept = list(model[n + network_size(units):] if units else model[n:])
    return checked_weights(None, moved[:n] + ([float(units)] + moved[n:] if units else []) + kept)


def divergence(made: Recorded, model: Sequence[float], step: np.ndarray, size: float,
               temperature: float = TEMPERATURE) -> float:
    """The mean KL divergence of ``model`` moved by ``size`` times ``step`` from ``model`` over the placements of
    ``made``: how far a step moves the policy, whatever its numbers' scale."""
    units = hidden_units(model)
    theta = _vector(model, units)
    phi = made.phi.astype(np.float64)
    firsts = made.column("first")
    of = np.repeat(np.arange(len(firsts)), made.column("moves"))

    def log_policy(numbers: np.ndarray) -> np.ndarray:
        z = _scored(numbers, units, phi)[0] / temperature
        shifted = z - np.maximum.reduceat(z, firsts)[of]
        return shifted - np.log(np.add.reduceat(np.exp(shifted), firsts))[of]

    log_p, log_q = log_policy(theta), log_policy(theta + size * step)
    return float(np.add.reduceat(np.exp(log_p) * (log_p - log_q), firsts).mean())


def first_size(made: Recorded, model: Sequence[float], step: np.ndarray) -> float:
    """The multiple of ``step`` that moves ``model``'s policy by :data:`FIRST_KL` over ``made``'s placements (by
    bisection on its logarithm, within a factor of 1.1); 0 where no multiple up to 10^9 moves it that far."""
    if not len(made.decisions) or not np.any(step):
        return 0.0
    low, high = 1e-6, 1e9
    if divergence(made, model, step, high) < FIRST_KL:
        return 0.0
    while high / low > 1.1:
        middle = float(np.sqrt(low * high))
        low, high = (middle, high) if divergence(made, model, step, middle) < FIRST_KL else (low, middle)
    return high


def match(rules: Rules, model: Sequence[float], other: Sequence[float] | SidePolicy, games: int, seed: int) -> float:
    """``model``'s mean score against ``other`` (a model, or a compiled side) over ``games`` compiled games a seat (the
    same games each seat)."""
    start = Position.start(rules)
    a = Strong(model).compiled(rules)
    b = other if isinstance(other, SidePolicy) else Strong(other).compiled(rules)
    first = play_summaries(start, games, seed, 0, (a, b))[:, kn.OUT_WINNER]
    second = play_summaries(start, games, seed, 0, (b, a))[:, kn.OUT_WINNER]
    return float(kn.side_scores(first, 0).sum() + kn.side_scores(second, 1).sum()) / (2 * games)


class NaturalRun:
    """One run's whole state (JSON): its settings, the iterations done, the weights now and the best; ``origin``, the
    weights file it started from as :func:`.train.start_record` records it (None: the package's)."""

    def __init__(self, settings: NaturalSettings, iteration: int = 0, weights: Sequence[float] | None = None,
                 best: Trained | None = None, origin: dict[str, Any] | None = None) -> None:
        self.settings, self.iteration, self.origin = settings, iteration, origin
        self.weights = tuple(weights) if weights is not None else settings.x0
        self.best = best if best is not None else Trained(settings.x0, 0.5, 0)

    def save(self, path: Path) -> None:
        """Write the state whole (a reader never sees half a file)."""
        s = self.settings
        write_state(path, {"format": STATE_FORMAT, "method": "natural", **run_json(
            s.rules, s.seed, s.games, s.x0, self.iteration, self.weights, self.best, self.origin)})

    @classmethod
    def read(cls, path: Path) -> "NaturalRun":
        """The run saved in ``path``; a ValueError names what is wrong with the file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            if (data.get("format") != STATE_FORMAT or data.get("method") != "natural"
                    or data.get("features") != list(FEATURES)):
                raise ValueError(gettext("another layout or other features than this version's"))
            settings = NaturalSettings(data["rules"], int(data["seed"]), int(data["games"]),
                                       checked_weights(None, data["x0"]))
            return cls(settings, *run_fields(data))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(gettext("--resume: {path} is no natural-gradient run of this version ({error})").format(
                path=path, error=getattr(exc, "strerror", None) or exc)) from None


def iteration_seconds(rules: Rules, games: int, model: Sequence[float] | None = None) -> float:
    """Seconds an iteration of ``games`` games takes here: the paired games' mean pace over one and two rounds of
    chunks against the run's own opponents (its policy and :func:`league`, a chunk each), after an untimed round
    that compiles the loop or loads what each opponent plays with; the compiled matches' pace from 100 and 500 games
    a seat, the difference of the two (what a call costs whatever its games, building its sides, cancels out: timed
    on one call it doubled the estimate); then the chunks of an iteration and its matches at most (the line
    search's, which runs them all as often as not).  Timed in self-play alone, the paired games said twice their
    time: the league's heuristic and counters play faster than the network (a variant of advanced: 114 s said, 65 s
    an iteration); timed as the difference of two calls, they swung from 34 to 85 s (``bench_training_pace.py``)."""
    x0 = default_start(rules) if model is None else tuple(model)
    against = (Strong(x0).compiled(rules), *league(rules, x0))
    rounds = len(against)
    # untimed: a chunk against each opponent loads what each plays with (warmed on the policy alone, the first
    # timed round carried the others' loading, and the first estimate in a process said 41 s for 60)
    paired_direction(rules, x0, rounds * CHUNK, PACE_SEED, opponents=against)

    def timed(work: Callable[..., object], *args: Any, **named: Any) -> float:
        t = time.perf_counter()
        work(*args, **named)
        return time.perf_counter() - t

    one, two = (timed(paired_direction, rules, x0, n * rounds * CHUNK, PACE_SEED + n, opponents=against) for n in (1, 2))
    chunk = (one + two) / (3 * rounds)  # the mean pace: once warm, a call costs little beside its chunks
    few, more = (timed(match, rules, x0, x0, n, PACE_SEED + 5) for n in (100, 500))
    a_game = max((more - few) / 800, more / 4000)
    return chunk * games / CHUNK + a_game * 2 * (MATCH_GAMES * (STEPS + 3) + VALIDATION_GAMES * len(LEAGUE_NAMES))


def natural(rules: Rules, seed: int, iterations: int, games: int = int(NATURAL_DEFAULTS["games"]),
            start_from: Sequence[float] | None = None,
            progress: Callable[[ImproveProgress], bool | None] | None = None, state: Path | None = None,
            resume: NaturalRun | None = None, origin: dict[str, Any] | None = None,
            pace: float | None = None) -> Trained:
    """``iterations`` of the natural gradient (counted from the run's start) from the weights ``strong`` plays under
    ``rules`` or ``start_from``, or from the run ``resume``.  ``progress`` returning False cancels (the result's
    ``cancelled``; the best so far is kept); ``pace``: an iteration's seconds (:func:`iteration_seconds`), until one
    has been timed.  The result's ``generations`` are the best's iteration, its score the best's against the league's
    fixed opponents (:func:`league_score`; iteration 0: the start's)."""
    settings = check_natural(rules, seed, iterations, games, start_from)
    if resume is not None:
        if resume.settings[:3] != settings[:3] or (start_from is not None and resume.settings.x0 != settings.x0):
            raise ValueError(gettext("--resume: the run saved has other --rules, --seed, --games or --start"))
        settings = resume.settings
    fixed = league(rules, settings.x0)
    valid_seed = _seed(seed, 0) + 2  # every iteration validated on the same games, the start too
    run = resume if resume is not None else NaturalRun(
        settings, best=Trained(settings.x0, league_score(rules, settings.x0, fixed, VALIDATION_GAMES, valid_seed), 0),
        origin=origin)
    t0, first = time.monotonic(), run.iteration
    seconds_left = None if pace is None else pace * (iterations - run.iteration)
    matches = MATCH_GAMES * (STEPS + 3) + VALIDATION_GAMES * len(fixed)

    def told(game: int) -> None:
        spent = time.monotonic() - t0
        done = run.iteration - first + game / (games + matches)
        left = time_left(spent, done, iterations - first, seconds_left)
        if progress is not None and progress(ImproveProgress(run.iteration, iterations, game, games, spent, left,
                                                             run.best.score)) is False:
            raise Cancelled()

    try:
        while run.iteration < iterations:
            run.weights = stepped_once(rules, run.weights, games, _seed(seed, run.iteration), fixed, True, told,
                                       lambda j: told(games + j * MATCH_GAMES))
            run.iteration += 1
            kept(run, league_score(rules, run.weights, fixed, VALIDATION_GAMES, valid_seed, lambda: told(games + matches)),
                 state)
    except Cancelled:
        return Trained(run.best.weights, run.best.score, run.best.generations, True)
    return run.best


def time_left(spent: float, done: float, total: float, said: float | None) -> float | None:
    """Seconds left of a run of ``total`` iterations, ``done`` of them (a fraction counts) after ``spent`` seconds: the
    pace seen so far, weighed against the seconds ``said`` for the whole run before it began (None: not worked out)
    by the share of an iteration done.  From the pace seen alone, a panel said 11 minutes left after the first
    chunk's games (the league built and the start validated in its seconds) and 5 minutes after a few more; the run
    took 4."""
    seen = spent / done * (total - done) if done > 0 else None
    if said is None:
        return seen
    before = max(0.0, said - spent)
    if seen is None:
        return before
    weight = min(1.0, done)
    return (1 - weight) * before + weight * seen


def stepped_once(rules: Rules, model: tuple[float, ...], games: int, seed: int, opponents: Sequence[SidePolicy],
                 itself: bool, ask: Callable[[int], None], tell: Callable[[int], None]) -> tuple[float, ...]:
    """One iteration of either run, :func:`natural`'s or :func:`respond`'s: the natural gradient of ``model`` from
    ``games`` paired games against ``opponents`` (``itself``: and its own policy, first), then the step a line search
    against the same finds best, from the size that moves it by :data:`FIRST_KL` over a chunk of its games against the
    first of them.  ``ask`` and ``tell``: the paired games' and the line search's progress."""
    learner = Strong(model).compiled(rules)
    against = (learner, *opponents) if itself else tuple(opponents)
    found = paired_direction(rules, model, games, seed, ask=ask, opponents=against)
    sample = recorded_games(Position.start(rules), CHUNK, seed, (learner, against[0]))
    return line_search(rules, model, found.step, first_size(sample, model, found.step), against, seed + 1, tell)


#: the league's fixed opponents by name, in :func:`league`'s order (a weights file records against what its score is)
LEAGUE_NAMES = ("start", "strong-linear", "heuristic", *IDEAS)


def league(rules: Rules, x0: Sequence[float]) -> tuple[SidePolicy, ...]:
    """The opponents a run learns against beside its current policy: its start, ``strong-linear``, the heuristic and
    the gauntlet's compiled counters (:data:`~..compiled.policy_codes.IDEAS`: the bet-size reader, the bluffer, the
    folder, the caller and bully, the tell reader), so that what was written to read or bully the policy is met.
    Against itself alone each iteration moves round the game's cycle of styles: under classic2021 three iterations of
    self-play scored 0.591 against their start but 0.606 against ``strong-linear``, which their start beats 0.724."""
    return (Strong(x0).compiled(rules), Strong(linear=True).compiled(rules), Heuristic().compiled(rules),
            *(COUNTERS[name]().compiled(rules) for name in IDEAS))


def league_score(rules: Rules, model: Sequence[float], opponents: Sequence[SidePolicy], games: int, seed: int,
                 tell: Callable[[], None] | None = None) -> float:
    """``model``'s mean score against ``opponents``, ``games`` compiled games a seat against each; ``tell`` is called
    after each opponent's (a second or so: what it raises, a cancel, stops here)."""
    total = 0.0
    for other in opponents:
        total += match(rules, model, other, games, seed)
        if tell is not None:
            tell()
    return total / len(opponents)


def line_search(rules: Rules, model: tuple[float, ...], step: np.ndarray, size: float,
                opponents: Sequence[SidePolicy], seed: int, tell: Callable[[int], None]) -> tuple[float, ...]:
    """``model`` moved by the multiple of ``step`` that scores best against ``opponents`` (:func:`league_score`; itself
    if none scores better than ``model`` does, one half against itself): ``size`` then each next twice as long, at
    most :data:`STEPS`, until one scores worse than the best by more than :data:`WORSE`; then two between the best and
    twice it (its size times 2^(1/2) and 2^(1/4)), where a policy's useful step and the one that breaks it are often a
    doubling apart.  ``tell`` is told the steps played after each match against an opponent."""
    games = max(1, MATCH_GAMES // len(opponents))
    best, best_score, best_size = model, league_score(rules, model, opponents, games, seed, lambda: tell(0)), 0.0
    played = 0

    def tried(multiple: float) -> float:
        nonlocal best, best_score, best_size, played
        moved = stepped(model, step, multiple)
        score = league_score(rules, moved, opponents, games, seed, lambda: tell(played))
        played += 1
        if score > best_score:
            best, best_score, best_size = moved, score, multiple
        return score

    for j in range(STEPS if size > 0 else 0):
        if tried(size * 2 ** j) < best_score - WORSE:
            break
    if best_size:
        for factor in (2 ** 0.5, 2 ** 0.25):
            tried(best_size * factor)
    return best


def respond(rules: Rules, target: Strong, seed: int, iterations: int | None = None, games: int | None = None,
            tell: Callable[[float], None] | None = None,
            each: Callable[[int, tuple[float, ...]], None] | None = None) -> tuple[float, ...]:
    """A best response to the frozen policy ``target`` under ``rules``, trained by this module's natural gradient
    against it alone: ``iterations`` of ``games`` paired games each (by default :data:`RESPONSE_ITERATIONS` of
    :data:`RESPONSE_GAMES`), from ``target``'s own model (a mixture's first member), each step the one that scores
    best against ``target`` (:func:`line_search`).  ``tell`` is told the share of the work done, after every chunk of
    games and every match (what it raises, a cancel, stops here); ``each(i, weights)`` after iteration ``i`` (from
    0).  The same seed gives the same response."""
    iterations = RESPONSE_ITERATIONS if iterations is None else iterations
    games = RESPONSE_GAMES if games is None else games
    frozen = target.compiled(rules)
    weights = target.model_for(rules)
    steps = STEPS + 3  # the line search's matches at most, its start's included

    def played(i: int, game: int) -> None:  # an iteration's first half: its paired games
        if tell is not None:
            tell((i + 0.5 * game / games) / iterations)

    def matched(i: int, step: int) -> None:  # its second: the line search's matches
        if tell is not None:
            tell((i + 0.5 + 0.5 * min(step, steps) / steps) / iterations)

    for i in range(iterations):
        weights = stepped_once(rules, weights, games, _seed(seed, i), (frozen,), False, partial(played, i),
                               partial(matched, i))
        if each is not None:
            each(i, weights)
    return weights


def _seed(seed: int, iteration: int) -> int:
    """Iteration ``iteration``'s games' seed: apart from every other iteration's and run's (a 62-bit mix)."""
    return (seed * 1_000_003 + iteration * 7919 + 17) % (1 << 62)


def write_natural(path: Path, result: Trained, rules: str, seed: int, games: int, iterations: int,
                  origin: dict[str, Any] | None = None) -> None:
    """The weights file the policy loads, saying how it was made and the command that makes it again (``origin``: as
    :func:`.improvement.write_improved` records it)."""
    from .train import start_fields
    from .weights import write_model

    start, begun = start_fields(origin, rules)
    words = ["guyenne-explore", "improve", "--method", "natural", "--rules",
             rules if rules.isidentifier() else f"'{rules}'", "--seed", str(seed), "--iterations", str(iterations),
             "--games", str(games)]
    trained = {"method": "natural", "rules": rules, "seed": seed, "games_an_iteration": games,
               "iterations": iterations, "best_iteration": result.generations,
               "league_score": round(result.score, 4), "league": list(LEAGUE_NAMES), "cancelled": result.cancelled,
               "command": " ".join(words + (["--start", start] if start is not None else [])), **begun}
    write_model(path, result.weights, trained, rules)
