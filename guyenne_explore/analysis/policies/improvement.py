"""Improving the learned policy by its own search: expert iteration over the compiled search's values.

    guyenne-explore improve --rules classic2021 --seed 1 --iterations 2 --games 400

CMA-ES (:mod:`.policies.train`) scores whole weight vectors by games won; it finds weights that beat its pool,
but a search built on them still finds, at most placements, a better move than theirs.  This module
teaches the weights what the search finds (expert iteration: Anthony, Tian and Barber 2017; the
search's values as the target, as in policy-improvement steps of MPO or AlphaZero's distillation):

1. **Positions.**  ``games`` seeded self-play games of ``strong`` with the current model (the
   engine's game loop and the Python policy, both sides; a run starts from the model ``strong`` plays under
   the rules, its network, unless ``--start`` names another file).  At each placement the compiled search
   (:meth:`.policies.search.ISMCTS.candidate_values`, built on these weights) values ``strong``'s likeliest
   :data:`.policies.search.CANDIDATES` moves and the heuristic's likeliest :data:`EXPLORED` (moves strong may
   score far down, which a search against it finds: see ``benchmarks/bench_strong.py``'s exploiter), each
   over the same :data:`ROLLOUTS` games from the worlds that the opponent's placements of the round make
   likely.  The features of every legal placement
   (:func:`.policies.strong.features`, from the side's own view) are kept with those values; a legal move
   that is no candidate is valued as the worst candidate.
2. **Fit.**  The new model maximises the mean expected value of ``strong``'s softmax over the
   legal placements (the policy's own form and temperature), less :data:`REGULARISATION` times the
   squared distance from the current model (in units of its numbers' mean size): L-BFGS (scipy), over the
   linear weights and, for a network (:mod:`.network`), its input weights, biases and output weights, with
   the gradient through its rectified units.  A search that cannot tell two candidates apart leaves the
   model where it was.
3. **Kept if better.**  After each iteration the new weights play validation games like
   :mod:`.policies.train`'s (against the heuristic and the weights the run started from), but ten times
   as many (:data:`VALIDATION_GAMES`): an iteration gains less than 200 games can tell; the best so far is
   what the run writes.

Measured (iterations of 400 games from CMA-ES's weights, ``benchmarks/bench_weights.py --against``,
4,000 compiled games on seeds 777000+): after two iterations the weights score against those they
started from 0.640 in advanced, 0.526 in expert, 0.590 in classic2021, 0.515 in team3 (team: no
iteration validated better); the third and fourth add little (against the second's: 0.518, 0.510,
0.527).  An iteration of 400 games takes about 4 minutes on two cores, 30 s on 16.

Valuing the heuristic's likeliest placements too (:data:`EXPLORED`): a search built on strong's model
(the gauntlet's model exploiter) gains most at the first opening and the last answer, often with a move
strong scores far down, at another castle, which strong's own candidates never offered the fit.  Four
iterations from advanced's shipped weights then held the exploiter to 0.355 instead of 0.292 (400 games,
the same seeds) and scored 0.518 against those weights; in classic2021 no iteration validated better.
Ten more from there (seed 3), kept by 2,000 validation games: the kept 4th scores 0.533 against its start,
0.979 against the heuristic and holds the exploiter to 0.401 [0.367, 0.435] over 800 games (the start:
0.356); the 6th and 10th do about as well (0.539 and 0.538; the 6th 0.416 [0.383, 0.451] on the same 800
games).  In classic2021 six (seed 2) kept the 6th: 0.515 against its start, the exploiter 0.307 over 800
games (0.285); five more from there (seed 4) gained nothing (iterations 2, 4, 5: 0.500, 0.494, 0.503
against their start): the linear model over these features has reached what this search teaches it.

Networks (three iterations of 400 games from each preset's shipped network, ``--seed 1``; the model exploiter by
``benchmarks/bench_exploit.py --responders exploiter``, 800 games; a best response trained for 10 minutes by
``benchmarks/bench_network.py --best-response 10``): under expert the model exploiter falls from 0.559 to 0.489
after one iteration and to 0.458 [0.424, 0.493] after three, but the best response rises from 0.718 to 0.769 and
0.841, and ``strong-linear`` loses 0.679 and 0.672 to them instead of 0.707; under advanced the model exploiter
rises from 0.581 to 0.659; under classic2021 it stays (0.838; 0.836 and 0.828).  The search's values teach the
network to answer its own play better, and a response trained against the result beats it by more: the game's
styles beat one another in a cycle (:mod:`.train`'s robust runs), and this step moves round it.  Played together
with its start at even odds (:mod:`.mixture`, what expert ships), the improved network holds the model exploiter to
0.509 and a best response to 0.709, each below its start's.

**Magnetic mirror descent** (``--magnet`` and ``--proximal``; Sokota et al. 2023, "A unified approach to
reinforcement learning, quantal response equilibria, and two-player zero-sum games").  The plain fit moves the
policy towards the best answer to itself, and the game's styles beat one another in a cycle: iterations move round
it.  MMD's step at a decision is the policy ``pi`` that maximises its expected value less ``magnet`` times its KL
divergence from the run's start (the magnet, ``rho``) and ``proximal`` times that from the iteration's start (``q``,
a step's size): ``log pi = (Q + magnet log rho + proximal log q) / (magnet + proximal)`` up to a constant.  A
regularised fit teaches the model these policies (their cross-entropy, as MPO's policy step: a tabular model plays
them exactly).  With exact values the iterations converge to ``pi`` proportional to ``rho exp(Q / magnet)`` in
two-player zero-sum games, where the plain step cycles: a mix of the moves whose values are close, as an
equilibrium's.  The magnet is the start, not the uniform policy (entropy): a move no search valued is valued as
the worst candidate, and a uniform magnet spreads the policy over dozens of such moves.  A regularised run writes
its last iteration (each is validated and reported, but a score against the start is not what the run is after).

Measured, from the shipped networks, 150 games an iteration, ``--seed 1``, one core each; the model exploiter by
``benchmarks/bench_exploit.py --responders exploiter`` over 400 games (the shipped networks: 0.581 under advanced,
0.838 under classic2021, over 800):

- ``--magnet 0.002 --proximal 0.002``: classic2021 0.899 [0.865, 0.925] after three iterations; advanced 0.775
  [0.732, 0.813] after two;
- ``--magnet 0.005 --proximal 0.005``, advanced: 0.608 [0.559, 0.654] after two, 0.615 [0.566, 0.661] after four;
- at 0.1 and 0.3 the policy does not move: ``strong`` is nearly sure (its likeliest placement has 0.9 of the
  probability on average, the rest tens of nats below), so a KL divergence weighed at 0.1 dwarfs any value the
  search finds.  A step moves where the two weigh a few thousandths;
- the uniform magnet (the same run with the anchor's scores all 0), classic2021 at 0.002 and 0.002: on one
  self-play game's placements the likeliest one's probability fell from 0.91 to 0.80 in one iteration, and the
  validation score from 0.726 after the first iteration to 0.618 after the third (0.717 with the start's magnet).

So the search's values do not teach the network to be harder to exploit, however the step is regularised: the
smaller the step the closer to its start, the larger the more exploitable, as the plain fit.  Nor is the model
exploiter's edge the network's tells: under classic2021 the same exploiter with its worlds weighed as if ``strong``
played uniformly (``benchmarks/bench_exploit.py --responders exploiter-blind``) takes 0.839 [0.800, 0.872] from it
over 400 games, as much as the one that reads them (0.838 over 800): its edge is one ply of search over
``strong``'s known play.
Not that the search finds little: its pick, valued again on other rollouts, wins 0.093 a placement more than
``strong``'s own under classic2021, 0.111 under advanced and 0.064 under expert (``benchmarks/bench_regret.py``).
But no small model learns where: fitted to the search's values of 420 games' placements, a linear score, a network
over ``strong``'s features and one over the raw cards all play the test placements no better than the start, and
fitted to the search's greedy picks worse (``benchmarks/bench_capacity.py``).

Reproducible: game ``g`` of iteration ``i`` is seeded by ``(seed, i, g)`` alone and the fit is
deterministic, so the same seed and iterations give the same weights on any number of workers.
Resumable: after every iteration the run (its settings, the weights, the best so far) is written to
a JSON state file; a run resumed from it goes on as if never stopped.  Cancellable: ``progress`` is
asked after every decision here (every 0.2 s with workers) and False stops the run, keeping the best
so far; a pool's workers stop at their next decision (a local one that does not is killed), as
sampled games do.
"""

from __future__ import annotations

import functools
import json
import os
import random
import time
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ...engine import PLACEMENTS, Move, Position, Rules, SideView, play
from ...i18n import gettext
from ..cancel import Cancelled
from ..compiled.policy_codes import FEATURES, network_size
from ..workers import TaskSignal
from .heuristic import TEMPERATURE
from .search import ISMCTS
from .strong import Strong, checked_weights, features, seen_facts
from .network import hidden_units
from .train import Trained, default_start, gathered, validation_score

#: rollout games that value each candidate at a decision (the search's ``search:400`` plays about as many;
#: four times as many held the model exploiter no better: ``benchmarks/bench_strong.py``)
ROLLOUTS = 48
#: the heuristic's likeliest placements valued beside strong's candidates: moves strong scores far down
#: (another castle, a smaller bet) that a search built on its model finds worth playing against it
EXPLORED = 4
#: the fit's pull towards the weights it starts from (in units of their mean size)
REGULARISATION = 1e-3
#: the most either regulariser of magnetic mirror descent may weigh (a decision's values lie from 0 to 1)
MOST_REGULARISER = 10.0
#: the most steps of the fit (L-BFGS iterations): on the decisions of a hundred games or more it takes them all
FIT_STEPS = 300
#: evaluations of the fit's objective in FIT_STEPS steps (its line searches evaluate more than once a step: 396 on
#: the decisions of 100 classic2021 games), what its cost is counted in: about 40 s a hundred games here, as long as
#: their self-play on two cores
FIT_EVALUATIONS = 400
#: validation games a seat against each of the heuristic and the starting weights.  Compiled, they take
#: a second or two; at 200 the score's noise (about 0.02) outweighed what an iteration gains: a run kept
#: its 2nd iteration (0.762 on 200 games, 0.743 on 2,000) over its 6th (0.751 on 200, 0.758 on 2,000),
#: which beat the 2nd's start 0.539 and held the model exploiter to 0.439 where the 2nd held it to 0.345
VALIDATION_GAMES = 2000
#: the state file's layout (a state of another layout is refused, not misread)
STATE_FORMAT = 1
#: what the command runs by default
IMPROVE_DEFAULTS = {"iterations": 1, "games": 200, "seed": 1}


class ImproveSettings(NamedTuple):
    """What a run is: the same settings and iterations give the same weights.  ``magnet`` and ``proximal``: the
    weights of magnetic mirror descent's two regularisers (0: the plain fit)."""

    rules: Any  # the rules' JSON
    seed: int
    games: int
    x0: tuple[float, ...]
    magnet: float = 0.0
    proximal: float = 0.0

    @property
    def regularised(self) -> bool:
        """Whether each fit is magnetic mirror descent's step: the run's answer is then its last iteration."""
        return bool(self.magnet or self.proximal)


class ImproveProgress(NamedTuple):
    """Where a run stands: iterations done of ``iterations``, games of the one under way, seconds spent and left (None
    until a game has been timed), the best validation score so far (a natural-gradient run's: against its league,
    :mod:`.natural`); while the iteration's weights are fitted to its games, the fit's steps done (``fit_step``, of at
    most :data:`FIT_STEPS`; None while it plays)."""

    iteration: int
    iterations: int
    game: int
    games: int
    seconds: float
    seconds_left: float | None
    best: float
    fit_step: int | None = None


class Pace(NamedTuple):
    """Seconds a run takes here for each game of an iteration: its self-play, and what its decisions add to the fit
    (:func:`fit_seconds`: on hundreds of games, about as long as their self-play on two cores)."""

    game: float
    fit: float


class Decision(NamedTuple):
    """One placement of the self-play: the features of each legal placement (rows) and its value; the
    placement point (``open_first``...), which the fit does not read (``benchmarks/bench_capacity.py`` does)."""

    features: np.ndarray
    values: np.ndarray
    point: str = ""


def check_improve(rules: Rules, seed: int, iterations: int, games: int,
                  start_from: Sequence[float] | None = None, magnet: float = 0.0,
                  proximal: float = 0.0) -> ImproveSettings:
    """The run's settings; a ValueError names the option that is wrong."""
    for option, value in (("--magnet", magnet), ("--proximal", proximal)):
        if not 0.0 <= value <= MOST_REGULARISER:
            raise ValueError(gettext("{option}: from 0 to {most}, not {value}").format(
                option=option, most=MOST_REGULARISER, value=value))
    if iterations < 1:
        raise ValueError(gettext("--iterations: at least 1 iteration, not {value}").format(value=iterations))
    if games < 1:
        raise ValueError(gettext("--games: at least 1 game an iteration, not {value}").format(value=games))
    model = default_start(rules) if start_from is None else checked_weights(None, list(start_from), "--start")
    return ImproveSettings(rules.to_json(), seed, games, model, float(magnet), float(proximal))


class Recorder(Strong):
    """``strong`` with these weights, which also keeps, at each placement, the search's values of its
    candidates and the features of every legal placement (a subclass may keep more of each decision:
    ``benchmarks/bench_capacity.py``)."""

    def __init__(self, weights: Sequence[float], search_rng: random.Random, ask: Callable[[], None]) -> None:
        super().__init__(weights)
        self.search = ISMCTS(model=Strong(weights))
        self.search_rng, self.ask = search_rng, ask
        self.decisions: list[Decision] = []

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play in PLACEMENTS:
            self._record(view)
            self.ask()
        return super().choose(view, rng)

    def _record(self, view: SideView) -> None:
        valued = self.search.candidate_values(view, self.search_rng.getrandbits(62), ROLLOUTS, explored(self, view))
        if valued is None or len(valued) < 2:
            return
        worst = min(v for _, v in valued)
        if max(v for _, v in valued) - worst < 1e-12:
            return  # the search tells the candidates no apart: nothing to learn here
        of = dict(valued)
        moves = list(view.legal_moves)
        known = seen_facts(view)
        phi = np.array([features(view, m, known) for m in moves], np.float64)
        self.decisions.append(Decision(phi, np.array([of.get(m, worst) for m in moves], np.float64), view.to_play))


def explored(policy: Strong, view: SideView) -> list[Move]:
    """The heuristic's :data:`EXPLORED` likeliest placements, which the search values beside ``strong``'s candidates
    (the heuristic that ``policy`` plays away from placements: its own instance, the same moves)."""
    return [m for m, _ in sorted(policy._rest.weights(view), key=lambda mw: -mw[1])[:EXPLORED]]


def self_play(rules: Any, weights: Sequence[float], seed: int, iteration: int, game: int,
              ask: Callable[[], None] | TaskSignal | None = None) -> list[Decision]:
    """Game ``game`` of ``iteration``: its decisions (a task of a process pool or Dask cluster too).  ``ask``
    is called at each decision and raises :class:`.Cancelled` to stop; a run's stop flag in a worker."""
    return recorded_game(rules, weights, seed, iteration, game, ask).decisions


def recorded_game(rules: Any, weights: Sequence[float], seed: int, iteration: int, game: int,
                  ask: Callable[[], None] | TaskSignal | None = None, recorder: type[Recorder] = Recorder) -> Recorder:
    """:func:`self_play`'s game, played by ``recorder`` (a :class:`Recorder`), which is returned: the game and
    its search's values depend on ``(seed, iteration, game)`` alone."""
    if ask is None:
        ask = _never
    elif not callable(ask):
        ask = functools.partial(_stop_if_set, ask)
    start = Position.start(Rules.from_json(rules))
    player = recorder(weights, random.Random(f"improve-search:{seed}:{iteration}:{game}"), ask)
    play(start, random.Random(f"improve:{seed}:{iteration}:{game}"), (player, player), check_moves=False)
    return player


def _never() -> None:
    """Nothing stops a game played alone."""


def _stop_if_set(signal: TaskSignal) -> None:
    """Stop the game in a worker once its run's flag is set."""
    if signal.is_set():
        raise Cancelled()


def fit(decisions: Sequence[Decision], w0: Sequence[float], regularisation: float = REGULARISATION,
        step: Callable[[int], None] | None = None, magnet: float = 0.0, proximal: float = 0.0,
        anchor: Sequence[float] | None = None) -> tuple[float, ...]:
    """The model that maximises the decisions' mean expected value under ``strong``'s softmax (regularised: that plays
    magnetic mirror descent's step, :func:`_objective`), pulled towards the model ``w0`` it starts from (see the
    module's text): its linear weights and, for a network (:mod:`.network`), its
    input weights, biases and output weights too (a discard's and a team split's numbers, which no placement reads,
    are kept); ``w0`` itself when there is nothing to learn from.  The decisions' rows are stacked once, so each step
    of the fit is a few array operations, the network's gradient by the chain rule through its rectified units.
    ``step`` is told the steps done before each evaluation of the objective (a fit on hundreds of games takes
    minutes: what it raises, a cancel, stops the fit there).  ``magnet`` and ``proximal``: magnetic mirror
    descent's regularisers (:func:`_objective`), towards ``anchor``'s policy and ``w0``'s."""
    from scipy.optimize import minimize

    start = tuple(float(x) for x in w0)
    if not decisions:
        return start
    n, units = len(FEATURES), hidden_units(start)
    loss, theta0 = _objective(decisions, start, regularisation, magnet, proximal, anchor)
    done = [0]

    def told(theta: np.ndarray) -> tuple[float, np.ndarray]:
        if step is not None:
            step(done[0])
        return loss(theta)

    def stepped(xk: np.ndarray) -> None:  # (scipy names its argument so)
        done[0] += 1

    result = minimize(told, theta0, jac=True, method="L-BFGS-B", options={"maxiter": FIT_STEPS}, callback=stepped)
    fitted = [float(x) for x in result.x]
    kept = list(start[n + network_size(units):] if units else start[n:])  # the discard and split as they were
    return checked_weights(None, fitted[:n] + ([float(units)] + fitted[n:] if units else []) + kept)


def fit_seconds(decisions: Sequence[Decision], w0: Sequence[float]) -> float:
    """Seconds a fit of ``decisions`` from the model ``w0`` takes here at most: :data:`FIT_EVALUATIONS` evaluations
    of its objective, one of them timed (after one untimed)."""
    if not decisions:
        return 0.0
    loss, theta0 = _objective(decisions, tuple(float(x) for x in w0), REGULARISATION)
    loss(theta0)
    t = time.perf_counter()
    loss(theta0)
    return FIT_EVALUATIONS * (time.perf_counter() - t)


def _objective(decisions: Sequence[Decision], start: tuple[float, ...], regularisation: float,
               magnet: float = 0.0, proximal: float = 0.0, anchor: Sequence[float] | None = None
               ) -> tuple[Callable[[np.ndarray], tuple[float, np.ndarray]], np.ndarray]:
    """The fit's objective over ``decisions`` (the loss and its gradient) and the vector it starts from: minus the
    mean expected value of the softmax; with ``magnet`` or ``proximal``, the mean cross-entropy of the softmax from
    magnetic mirror descent's step at each decision (the module's text), ``pi`` proportional to ``exp((Q + magnet log
    rho + proximal log q) / (magnet + proximal))``, ``rho`` the policy of ``anchor`` (the run's start; default
    ``start``) and ``q`` that of ``start`` (the iteration's).  Its gradient by a move's score, ``p - pi``, does not
    vanish where the softmax is nearly sure of another move, as the expected value's (``p`` times the move's
    advantage) does: from ``strong``'s nearly sure policy that fit could not follow the step."""
    units = hidden_units(start)
    theta0 = _vector(start, units)
    phi = np.concatenate([d.features for d in decisions])
    values = np.concatenate([d.values for d in decisions])
    firsts = np.cumsum([0] + [len(d.values) for d in decisions[:-1]])
    of = np.repeat(np.arange(len(decisions)), [len(d.values) for d in decisions])
    scale = max(float(np.abs(theta0).mean()), 1.0)
    count = len(decisions)

    def policy(theta: np.ndarray) -> tuple[np.ndarray, Callable[[], np.ndarray], np.ndarray]:
        """Each placement's probability, its log-probability (a function: only a regularised fit asks for it) and the
        units' inputs."""
        score, hidden = _scored(theta, units, phi)
        z = score / TEMPERATURE
        shifted = z - np.maximum.reduceat(z, firsts)[of]
        e = np.exp(shifted)
        total = np.add.reduceat(e, firsts)[of]
        return e / total, lambda: shifted - np.log(total), hidden

    def log_policy(theta: np.ndarray) -> np.ndarray:
        return policy(theta)[1]()

    regularised = bool(magnet or proximal)
    if regularised:  # each decision's policy of magnetic mirror descent's step, which the fit's softmax is taught
        anchored = magnet * log_policy(_vector(anchor if anchor is not None else start, units))
        step = (values + anchored + proximal * log_policy(theta0)) / (magnet + proximal)
        wanted = np.exp(step - np.maximum.reduceat(step, firsts)[of])
        wanted /= np.add.reduceat(wanted, firsts)[of]

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        _, _, _, outputs = _parts(theta, units)
        p, log_p, hidden = policy(theta)
        active = np.maximum(hidden, 0.0)
        if regularised:  # the cross-entropy from the step's policy
            value = -float((wanted * log_p()).sum()) / count
            by_score = (p - wanted) / TEMPERATURE / count
        else:  # minus the expected value
            ev = np.add.reduceat(p * values, firsts)
            value = -float(ev.sum()) / count
            by_score = -(p * (values - ev[of])) / TEMPERATURE / count  # the loss's derivative by each placement's score
        by_unit = np.outer(by_score, outputs) * (hidden > 0)
        grad = np.concatenate([phi.T @ by_score, (phi.T @ by_unit).ravel(), by_unit.sum(axis=0), active.T @ by_score])
        pull = (theta - theta0) / scale
        return value + regularisation * float(pull @ pull), grad + 2 * regularisation * pull / scale

    return loss, theta0


def scores(model: Sequence[float], phi: np.ndarray) -> np.ndarray:
    """Each placement's score under ``model`` from its features (rows of ``phi``), as the fit scores them, the
    softmax's logits times its temperature: for a benchmark that fits more on top of a model
    (``benchmarks/bench_capacity.py``)."""
    units = hidden_units(model)
    return _scored(_vector(model, units), units, phi)[0]


def _scored(theta: np.ndarray, units: int, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's score under the fitted vector ``theta`` (``w . phi`` plus the network's term) and its units'
    inputs (a row a placement, a column a unit; none for a linear model), which the fit's gradient reads."""
    w, inputs, biases, outputs = _parts(theta, units)
    hidden = phi @ inputs + biases
    return phi @ w + np.maximum(hidden, 0.0) @ outputs, hidden


def _vector(model: Sequence[float], units: int) -> np.ndarray:
    """A model's numbers as the fit varies them (its unit count left out): a network of ``units`` units."""
    n = len(FEATURES)
    if hidden_units(model) != units:
        raise ValueError(gettext("the anchor's network has {found} hidden units, the model fitted {units}").format(
            found=hidden_units(model), units=units))
    return np.array(tuple(model[:n]) + tuple(model[n + 1:n + network_size(units)]) if units else tuple(model[:n]),
                    np.float64)


def _parts(theta: np.ndarray, units: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A fitted vector's linear weights, input weights (a row a feature, a column a unit: the model's order, feature
    k's weight into unit j at ``k * units + j``), biases and output weights."""
    n = len(FEATURES)
    inputs = theta[n:n + n * units].reshape(n, units)
    return theta[:n], inputs, theta[n + n * units:n + n * units + units], theta[n + n * units + units:]


def validation(rules: Any, x: Sequence[float], x0: Sequence[float], seed: int) -> float:
    """``x``'s mean score against the heuristic and against ``x0`` on the training's validation games."""
    return validation_score(Position.start(Rules.from_json(rules)), x, x0, VALIDATION_GAMES, seed)


class ImproveRun:
    """One run's whole state (JSON): its settings, the iterations done, the weights now and the best; ``origin``,
    the weights file it started from as :func:`.train.start_record` records it (its name, and how that file was made;
    None: the package's), read when the run began, so a resumed run's weights file still says how to make it again."""

    def __init__(self, settings: ImproveSettings, iteration: int = 0, weights: Sequence[float] | None = None,
                 best: Trained | None = None, origin: dict[str, Any] | None = None) -> None:
        self.settings, self.iteration, self.origin = settings, iteration, origin
        self.weights = tuple(weights) if weights is not None else settings.x0
        self.best = best if best is not None else Trained(settings.x0, validation(
            settings.rules, settings.x0, settings.x0, settings.seed), 0)

    def save(self, path: Path) -> None:
        """Write the state whole (a reader never sees half a file)."""
        s = self.settings
        write_state(path, {"format": STATE_FORMAT, **run_json(s.rules, s.seed, s.games, s.x0, self.iteration,
                                                             self.weights, self.best, self.origin),
                           "magnet": s.magnet, "proximal": s.proximal})

    @classmethod
    def read(cls, path: Path) -> "ImproveRun":
        """The run saved in ``path``; a ValueError names what is wrong with the file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            if data.get("format") != STATE_FORMAT or data.get("features") != list(FEATURES):
                raise ValueError(gettext("another layout or other features than this version's"))
            settings = ImproveSettings(data["rules"], int(data["seed"]), int(data["games"]),
                                       checked_weights(None, data["x0"]), float(data.get("magnet", 0.0)),
                                       float(data.get("proximal", 0.0)))
            return cls(settings, *run_fields(data))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(gettext("--resume: {path} is no improvement run of this version ({error})").format(
                path=path, error=getattr(exc, "strerror", None) or exc)) from None


def run_json(rules: Any, seed: int, games: int, x0: Sequence[float], iteration: int, weights: Sequence[float],
             best: Trained, origin: dict[str, Any] | None) -> dict[str, Any]:
    """A run's state as JSON, the fields every method's run has (:class:`ImproveRun`, :class:`.natural.NaturalRun`)."""
    return {"features": list(FEATURES), "rules": rules, "seed": seed, "games": games, "x0": list(x0),
            "iteration": iteration, "weights": list(weights),
            "best": {"weights": list(best.weights), "score": best.score, "iteration": best.generations}, "origin": origin}


def run_fields(data: dict[str, Any]) -> tuple[int, tuple[float, ...], Trained, dict[str, Any] | None]:
    """The iteration, weights, best and origin of a run's state (:func:`run_json`); a ValueError where they are not."""
    best = Trained(checked_weights(None, data["best"]["weights"]), float(data["best"]["score"]),
                   int(data["best"]["iteration"]))
    origin = data.get("origin")
    if origin is None and isinstance(data.get("start"), str):  # a state that kept the start's name alone
        origin = {"started_from": data["start"]}
    if origin is not None and not isinstance(origin.get("started_from"), str):
        raise ValueError(gettext("another layout or other features than this version's"))
    return int(data["iteration"]), checked_weights(None, data["weights"]), best, origin


def kept(run: Any, valid: float, state: Path | None, always: bool = False) -> None:
    """An iteration's end, for a run of either method (:class:`ImproveRun`, :class:`.natural.NaturalRun`): its weights
    become the best when their validation score ``valid`` beats the best's (``always``: a regularised run's, which
    answers with its last), and the run is saved in ``state``."""
    if always or valid > run.best.score:
        run.best = Trained(run.weights, valid, run.iteration)
    if state is not None:
        run.save(state)


def write_state(path: Path, data: dict[str, Any]) -> None:
    """Write a run's state whole: a reader never sees half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def improve(rules: Rules, seed: int, iterations: int, games: int = int(IMPROVE_DEFAULTS["games"]),
            start_from: Sequence[float] | None = None, executor: Any = None,
            progress: Callable[[ImproveProgress], bool | None] | None = None, state: Path | None = None,
            resume: ImproveRun | None = None, origin: dict[str, Any] | None = None,
            fit_pace: float = 0.0, magnet: float = 0.0, proximal: float = 0.0) -> Trained:
    """``iterations`` of improvement (counted from the run's start) from the weights ``strong`` plays under
    ``rules`` or ``start_from``, or from the run ``resume``; each game's decisions here or as tasks of
    ``executor`` (the same weights either way).  ``progress`` returning False cancels (the result's
    ``cancelled``; the best so far is kept).  The result's ``generations`` are the best's iteration.
    ``origin``: the file ``start_from`` was read from, as :func:`.train.start_record` records it, kept in the state
    for a resumed run.  The time left counts the fits to come at ``fit_pace`` seconds a game (:attr:`Pace.fit`) until
    one has been timed, then at the pace of the last; a fit's own at the pace of its steps so far.  With ``magnet`` or
    ``proximal`` each fit is magnetic mirror descent's step (:func:`_objective`) and the best is the last iteration."""
    settings = check_improve(rules, seed, iterations, games, start_from, magnet, proximal)
    if resume is not None:
        if resume.settings[:3] != settings[:3] or resume.settings[4:] != settings[4:] or (
                start_from is not None and resume.settings.x0 != settings.x0):
            raise ValueError(gettext("--resume: the run saved has other --rules, --seed, --games, --start, --magnet or "
                                     "--proximal"))
        settings = resume.settings
    run = resume if resume is not None else ImproveRun(settings, origin=origin)
    t0, first = time.monotonic(), run.iteration
    fitting = [0.0, fit_pace]  # the seconds spent fitting, and a fit's seconds a game (the last one's once timed)

    def told(game: int, left: float | None, step: int | None = None) -> None:
        spent = time.monotonic() - t0
        if progress is not None and progress(ImproveProgress(run.iteration, iterations, game, games, spent, left,
                                                             run.best.score, step)) is False:
            raise Cancelled()

    def game_pace(game: int) -> float | None:
        finished = (run.iteration - first) * games + game  # workers finish games all through an iteration
        return (time.monotonic() - t0 - fitting[0]) / finished if finished else None

    def ask(game: int) -> None:
        """``game``: the games of this iteration finished (in this process: the one under way's index)."""
        pace = game_pace(game)
        told(game, None if pace is None else
             pace * ((iterations - run.iteration) * games - game) + fitting[1] * games * (iterations - run.iteration))

    def fitted(decisions: list[Decision]) -> tuple[float, ...]:
        """The iteration's fit, telling its steps (the time left: the steps to come at the pace of those done)."""
        start, pace = time.monotonic(), game_pace(games)

        def step(done: int) -> None:
            each = (time.monotonic() - start) / done if done else None
            later = (iterations - run.iteration - 1) * games
            told(games, None if each is None or pace is None else
                 each * (FIT_STEPS - done) + later * (pace + each * FIT_STEPS / games), done)

        try:
            return fit(decisions, run.weights, step=step, magnet=settings.magnet, proximal=settings.proximal,
                       anchor=settings.x0)
        finally:
            fitting[0] += time.monotonic() - start
            fitting[1] = (time.monotonic() - start) / games

    try:
        while run.iteration < iterations:
            decisions: list[Decision] = []
            if executor is None:
                for g in range(games):
                    decisions += self_play(settings.rules, run.weights, seed, run.iteration, g, functools.partial(ask, g))
            else:
                decisions += _spread(executor, settings.rules, run.weights, seed, run.iteration, games, ask)
            run.weights = fitted(decisions)
            run.iteration += 1
            kept(run, validation(settings.rules, run.weights, settings.x0, seed), state, settings.regularised)
    except Cancelled:
        return Trained(run.best.weights, run.best.score, run.best.generations, True)
    return run.best


def _spread(executor: Any, rules: Any, weights: Sequence[float], seed: int, iteration: int, games: int,
            ask: Callable[[int], None]) -> list[Decision]:
    """An iteration's games as tasks of ``executor``, their decisions in the games' order.  Each task carries
    the run's stop flag (:func:`.workers.open_run`): when ``ask`` cancels or anything interrupts
    the wait (Ctrl-C), the workers stop at their next decision, and a local worker that does not is killed."""
    from ..workers import open_run

    hold = open_run(executor)
    futures = [executor.submit(self_play, rules, weights, seed, iteration, g, hold.signal) for g in range(games)]
    try:
        return [d for part in gathered(futures, ask) for d in part]
    except BaseException:
        hold.stop(futures)
        raise
    finally:
        hold.close()


def self_play_seconds(rules: Rules, model: Sequence[float] | None = None) -> Pace:
    """Seconds one self-play game of ``model`` (default: what ``strong`` plays under ``rules``) takes here, timed after
    the compiled loop is ready: the engine's game with the search valuing every placement, which no table of games'
    seconds knows (the run's cost is its plans', at this pace: ``analysis.training.estimate_improve``), and what its
    decisions add to the fit (:func:`fit_seconds`).  A network's Python twin takes longer than the linear score's."""
    x0 = default_start(rules) if model is None else model
    self_play(rules.to_json(), x0, 0, -1, 1)  # compiled (or loaded from numba's cache) before the clock starts
    t = time.perf_counter()
    decisions = self_play(rules.to_json(), x0, 0, -1, 0)
    return Pace(time.perf_counter() - t, fit_seconds(decisions, x0))


def iteration_games(games: int) -> list[tuple[tuple[str, str], int]]:
    """The games one iteration plays, as the levels of the two seats and how many: ``games`` of ``strong``'s
    self-play, then its validation against the heuristic and the start in both seats (:func:`validation`)."""
    seats = [(("strong", level), (level, "strong")) for level in ("heuristic", "strong")]
    return [(("strong", "strong"), games)] + [(pair, VALIDATION_GAMES) for both in seats for pair in both]


def write_improved(path: Path, result: Trained, rules: str, seed: int, games: int, iterations: int,
                   origin: dict[str, Any] | None = None, magnet: float = 0.0, proximal: float = 0.0) -> None:
    """The weights file the policy loads, saying how it was made and the command that makes it again; ``origin``: the
    file the run started from (:func:`.train.start_record`: its name and, where it says so, how it was made, so a
    shipped file improved in place is made again by its start's command, then this one; None: the package's)."""
    from .train import start_fields
    from .weights import write_model

    start, begun = start_fields(origin, rules)
    words = ["guyenne-explore", "improve", "--rules", rules if rules.isidentifier() else f"'{rules}'", "--seed",
             str(seed), "--iterations", str(iterations), "--games", str(games)]
    regularisers = {"magnet": magnet, "proximal": proximal}
    words += [word for name, value in regularisers.items() if value for word in (f"--{name}", str(value))]
    trained = {"method": "improve", "rules": rules, "seed": seed, "games_an_iteration": games,
               "iterations": iterations, **{name: value for name, value in regularisers.items() if value},
               "best_iteration": result.generations,
               "validation_score": round(result.score, 4), "cancelled": result.cancelled,
               "command": " ".join(words + (["--start", start] if start is not None else [])), **begun}
    write_model(path, result.weights, trained, rules)
