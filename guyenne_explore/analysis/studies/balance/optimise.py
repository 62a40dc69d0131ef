"""The balance search: optuna proposes candidates, racing plays them, the study keeps every trial.

Optuna's sampler proposes each candidate from the trials so far (seeded again before each proposal
from the search's seed and the number of trials finished, so a search resumed from its store proposes
what an uninterrupted one would have); a space no larger than the trials asked is tried whole, each
candidate once.  One target: TPE minimises its distance.  Several targets: NSGA-II minimises each
target's distance as its own objective, so the search keeps the trade-off between targets that cannot
all be met (the *front*: the candidates no other beats on every target at once) instead of folding them
into one sum that hides it.  A candidate plays its games in rungs (:mod:`.racing`) and is dropped once an
interval misses a target: optuna's *pruned* for TPE; for NSGA-II, which reads only finished trials,
a finished trial with its distances at the rung it stopped, marked dropped (where no candidate can meet
every target each one is dropped, and the front is still found).  The trials, their metrics with intervals and the search's
definition live in an optuna study: in memory, or in a journal file (``store``) that a later run with
the same definition continues (a different definition gets its own study in the same file).  A
candidate stopped by a cancel is queued again, so the resumed search plays it first.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import time
import warnings
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from ....engine import Position, RulesError
from ....i18n import gettext, ngettext, plain_count
from ...cancel import Cancelled
from ...limits import check_duration
from ...metrics import Metric
from ...planning import plan
from ..depth import ladder_cost
from .measure import PlayedMeasure, Tick
from .racing import missed, rungs
from .space import Assignment, Space
from .targets import DEPTH, MET, Target, distances, dominates, objective, verdicts

if TYPE_CHECKING:
    import optuna

#: candidates a search tries unless told otherwise
TRIALS = 30
#: trials a search may take (proposals of candidates already tried included) for each candidate asked
DUPLICATES = 4
#: NSGA-II's generation: a third of the trials, between these bounds (its first generation is drawn at random)
POPULATION = (4, 10)
#: the most games refining a candidate to a precision plays, in the search's games a candidate
REFINE_LIMIT = 64


class Measure(Protocol):
    """Reads a candidate's metrics after each rung of games (:class:`.measure.PlayedMeasure`; tests plant others)."""

    def cost(self, games: int) -> int: ...

    def __call__(self, assignment: Assignment, rung: int, games: int,
                 tick: Tick | None = None) -> Mapping[str, Metric]: ...


@dataclass(frozen=True)
class SearchProgress:
    """Where a search stands: the candidate being played and the games of this run, played and at most to play."""

    candidate: int
    candidates: int
    label: str
    played: int
    planned: int
    elapsed: float

    @property
    def seconds_left(self) -> float | None:
        """At the pace so far; an upper bound, as racing drops candidates before their last games."""
        return None if not self.played else self.elapsed / self.played * max(0, self.planned - self.played)


@dataclass(frozen=True)
class Candidate:
    """One candidate's rules and figures, as its trial keeps them."""

    number: int
    assignment: dict[str, Any]
    metrics: dict[str, Metric]
    games: int
    #: the sum of the targets' distances (None: its rules were refused)
    objective: float | None
    #: dropped by racing before its last rung
    dropped: bool
    #: the targets its intervals missed when dropped
    missed: tuple[str, ...]
    #: the varied parameters whose value differs from the preset's
    changes: tuple[str, ...]
    #: the engine's problems with its rules (values that do not fit together)
    problems: tuple[str, ...]
    #: after more games to a precision (:func:`refine`): whether each target's interval is that narrow;
    #: None: not refined
    precise: bool | None = None

    def meets(self, targets: Sequence[Target]) -> bool:
        """Played to its last rung, with every target met: its whole 95% interval in range, not only its value."""
        found = verdicts(targets, self.metrics)
        return (not self.dropped and not self.problems and len(found) == len(targets)
                and all(v.outcome == MET for v in found.values()))

    def distances(self, targets: Sequence[Target]) -> list[float] | None:
        """Each target's distance (None: its rules were refused or a target's metric was not read)."""
        if self.problems or any(t.metric not in self.metrics for t in targets):
            return None
        return distances(targets, self.metrics)

    def to_json(self, targets: Sequence[Target], front: bool = False) -> dict[str, object]:
        return {"number": self.number, "settings": self.assignment, "changes": list(self.changes),
                "games": self.games, "objective": self.objective, "dropped": self.dropped,
                "missed": list(self.missed), "problems": list(self.problems), "meets": self.meets(targets),
                "verdicts": {name: v.to_json() for name, v in verdicts(targets, self.metrics).items()},
                "front": front, "precise": self.precise,
                "metrics": {k: m.to_json() for k, m in self.metrics.items()}}


@dataclass
class SearchResult:
    """Every candidate tried (this run and before it, from the store), and how to read them."""

    space: Space
    targets: list[Target]
    games: int
    seed: int
    candidates: list[Candidate]
    #: candidates finished before this run (a resumed search), and games played by this run
    resumed: int
    played: int
    seconds: float
    #: the candidates asked, the sides' levels of play and the ladder a depth target was read on (for a report)
    trials: int | None = None
    policies: tuple[str, str] | None = None
    ladder: tuple[str, ...] = ()

    @property
    def sampler(self) -> str:
        """The optuna sampler that proposed the candidates: NSGA-II for several targets, TPE for one."""
        return "NSGA-II" if len(self.targets) > 1 else "TPE"

    def front(self) -> list[Candidate]:
        """The trade-off front: the candidates played whose targets' distances no other candidate beats on every
        target at once (every candidate meeting all the targets when some do; the closest, for one target).
        A dropped candidate counts with the figures of the games it played."""
        scored = [(c, d) for c in self.candidates if (d := c.distances(self.targets)) is not None]
        return [c for c, d in scored if not any(dominates(e, d) for _o, e in scored)]
    #: the 95% intervals' half-width the best candidate was played to (:func:`refine`); None: not asked
    precision: float | None = None

    def ranked(self) -> list[Candidate]:
        """The candidates that meet every target, the fewest changes from the preset first, then the closest."""
        meeting = [c for c in self.candidates if c.meets(self.targets)]
        return sorted(meeting, key=lambda c: (len(c.changes), c.objective or 0.0, c.number))

    def best(self) -> Candidate | None:
        """The first of :meth:`ranked`; when none meets the targets, the closest candidate played."""
        ranked = self.ranked()
        if ranked:
            return ranked[0]
        scored = [c for c in self.candidates if c.objective is not None]
        return min(scored, key=lambda c: (c.objective, c.dropped, c.number), default=None)

    def to_json(self, alternatives: int = 5) -> dict[str, object]:
        best = self.best()
        ranked = self.ranked()
        front = {c.number for c in self.front()}

        def shown(c: Candidate) -> dict[str, object]:
            return c.to_json(self.targets, c.number in front)

        return {"preset": str(self.space.preset), "vary": [str(v) for v in self.space.varied],
                "targets": [t.to_json() for t in self.targets], "games": self.games, "seed": self.seed,
                "sampler": self.sampler, "candidates": len(self.candidates), "resumed": self.resumed,
                "played": self.played, "seconds": round(self.seconds, 3), "met": bool(ranked), "precision": self.precision,
                "best": shown(best) if best else None,
                "alternatives": [shown(c) for c in ranked[1:1 + alternatives]],
                "front": [shown(c) for c in self.front()],
                "tried": [shown(c) for c in self.candidates]}

    def rows(self) -> list[dict[str, object]]:
        """One row per candidate: its settings, games, verdicts (the front among them) and each metric with its
        95% interval (a CSV)."""
        names = sorted({k for c in self.candidates for k in c.metrics})
        front = {c.number for c in self.front()}
        out = []
        for c in self.candidates:
            row: dict[str, object] = {v.parameter: c.assignment.get(v.parameter) for v in self.space.varied}
            row.update(number=c.number, changes=len(c.changes), games=c.games, objective=c.objective,
                       dropped=c.dropped, meets=c.meets(self.targets), front=c.number in front,
                       problems="; ".join(c.problems))
            for name in names:
                m = c.metrics.get(name)
                row[name], row[f"{name} low"], row[f"{name} high"] = (m.value, m.low, m.high) if m else (None,) * 3
            out.append(row)
        return out


# ------------------------------------------------------------------------------------------------ the study
def _storage(store: str | None) -> Any:
    import optuna
    from optuna.storages.journal import JournalFileBackend

    if store is None:
        return optuna.storages.InMemoryStorage()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.storages.JournalStorage(JournalFileBackend(store))


def _distributions(space: Space) -> dict[str, Any]:
    from optuna.distributions import CategoricalDistribution, IntDistribution

    return {v.parameter: IntDistribution(v.values[0], v.values[-1]) if v.ordered else CategoricalDistribution(v.values)
            for v in space.varied}


def _sampler(trials: int, seed: int, finished: int, objectives: int) -> Any:
    """TPE for one objective, NSGA-II for several, seeded from the search's seed and the trials finished (a
    resumed search proposes as an uninterrupted one would: NSGA-II keeps its generations in the study)."""
    import optuna

    seeded = (seed * 7919 + finished) % 2**32
    if objectives > 1:
        low, high = POPULATION
        return optuna.samplers.NSGAIISampler(seed=seeded, population_size=max(low, min(high, trials // 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.samplers.TPESampler(seed=seeded, multivariate=True, n_startup_trials=max(2, min(10, trials // 3)))


def _to_attrs(metrics: Mapping[str, Metric]) -> dict[str, list[Any]]:
    return {k: [m.value, m.low, m.high, m.unit, m.games] for k, m in metrics.items()}


def _from_attrs(data: Mapping[str, Sequence[Any]]) -> dict[str, Metric]:
    return {k: Metric(k, v[0], v[1], v[2], v[3], v[4]) for k, v in data.items()}


def _candidate(space: Space, trial: "optuna.trial.FrozenTrial") -> Candidate:
    from optuna.trial import TrialState

    a = dict(trial.params)
    attrs = trial.user_attrs
    dropped = attrs.get("dropped", False) or (trial.state is TrialState.PRUNED and not attrs.get("problems"))
    return Candidate(trial.number, a, _from_attrs(attrs.get("metrics", {})), attrs.get("games", 0),
                     attrs.get("objective"), dropped,
                     tuple(attrs.get("missed", ())), tuple(space.changes(a)), tuple(attrs.get("problems", ())))


def _key(assignment: Assignment) -> str:
    return json.dumps(sorted(assignment.items()))


def study_name(space: Space, targets: Sequence[Target], games: int, seed: int, what: str) -> str:
    """The study of one search definition (preset, varied parameters, targets, games, seed, play): a store holds
    one study a definition, so a rerun with the same definition continues it.  A search of several targets is
    named apart (its study has one objective a target, which a study of one summed objective kept before
    cannot load)."""
    parts: list[object] = [str(space.preset), [str(v) for v in space.varied], [str(t) for t in targets], games, seed,
                           what]
    spec = json.dumps(parts + (["NSGA-II"] if len(targets) > 1 else []))
    return "balance-" + hashlib.sha256(spec.encode()).hexdigest()[:16]


def search(space: Space, targets: Sequence[Target], measure: Measure, *, games: int, trials: int = TRIALS,
           seed: int = 0, store: str | None = None, what: str = "",
           progress: Callable[[SearchProgress], "bool | None"] | None = None) -> SearchResult:
    """Try up to ``trials`` candidates of ``space`` (all of them when there are no more), each on up to ``games``
    games in rungs, against ``targets``.  ``what`` names the play (policies, ladder) in the study's name.
    ``progress`` is told of every rung and game counted; returning False cancels (:class:`..cancel.Cancelled`,
    as Ctrl-C does): the candidate under way is queued again and the finished ones stay in ``store``."""
    import optuna
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name=study_name(space, targets, games, seed, what), storage=_storage(store),
                                directions=["minimize"] * len(targets), load_if_exists=True)
    distributions = _distributions(space)
    done_states = (TrialState.COMPLETE, TrialState.PRUNED)
    for stale in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):  # a run killed mid-candidate
        study.tell(stale.number, state=TrialState.FAIL)
        study.enqueue_trial(stale.params)
    planned = min(trials, space.size)
    finished = study.get_trials(deepcopy=False, states=done_states)
    resumed = len({_key(t.params) for t in finished})
    if space.size <= trials:  # small enough to try whole: each candidate once, in order
        queued = {_key(t.params) for t in study.get_trials(deepcopy=False, states=(TrialState.WAITING,))}
        tried = {_key(t.params) for t in finished} | queued
        for values in itertools.product(*(v.values for v in space.varied)):
            a = dict(zip((v.parameter for v in space.varied), values))
            if _key(a) not in tried:
                study.enqueue_trial(a)
    ends = rungs(games)
    each = measure.cost(games)
    state = {"played": 0, "planned": max(0, planned - resumed) * each}
    started = time.monotonic()

    def report(number: int, label: str, played: int) -> None:
        if progress is not None and progress(SearchProgress(number, planned, label, played, state["planned"],
                                                      time.monotonic() - started)) is False:
            raise Cancelled()

    # a proposal of a candidate already tried counts as a trial of the study but not as a candidate; past
    # DUPLICATES times the candidates asked, the sampler is taken to have nothing new to propose
    while len({_key(t.params) for t in finished}) < planned and len(finished) < DUPLICATES * planned:
        study.sampler = _sampler(trials, seed, len(finished), len(targets))
        trial = study.ask(distributions)
        if len(targets) > 1:  # a queued candidate skips NSGA-II's proposal: give it its generation as a proposal has
            study.sampler.get_trial_generation(study, study.get_trials(deepcopy=False)[trial.number])
        a = {v.parameter: trial.params[v.parameter] for v in space.varied}
        earlier = next((t for t in finished if _key(t.params) == _key(a)), None)
        if earlier is not None:  # proposed again: the same games give the same figures (common random numbers)
            for k, v in earlier.user_attrs.items():
                trial.set_user_attr(k, v)
            for step, value in earlier.intermediate_values.items():  # one objective's rungs (TPE reads them)
                trial.report(value, step)
            if earlier.state is TrialState.COMPLETE:
                study.tell(trial, earlier.values)
            else:
                study.tell(trial, state=earlier.state)
        else:
            number, label = len({_key(t.params) for t in finished}) + 1, space.label(a)

            def told(played: int, number: int = number, label: str = label) -> None:
                report(number, label, played)

            try:
                _evaluate(space, targets, measure, trial, a, ends, state, told)
            except BaseException:  # Cancelled, Ctrl-C: the candidate is queued again for a resumed search
                study.tell(trial, state=TrialState.FAIL)
                study.enqueue_trial(a)
                raise
        finished = study.get_trials(deepcopy=False, states=done_states)
    seen: set[str] = set()
    candidates = []
    for t in finished:
        if _key(t.params) not in seen:
            seen.add(_key(t.params))
            candidates.append(_candidate(space, t))
    return SearchResult(space, list(targets), games, seed, candidates, resumed, state["played"],
                        time.monotonic() - started, trials)


def _evaluate(space: Space, targets: Sequence[Target], measure: Measure, trial: "optuna.trial.Trial",
              a: Assignment, ends: Sequence[int], state: dict[str, int], report: Callable[[int], None]) -> None:
    """Play one candidate rung by rung, dropping it once an interval misses a target; its figures go to the trial
    (one objective: the sum of the distances, reported each rung; several: each target's distance)."""
    from optuna.trial import TrialState

    study = trial.study
    several = len(targets) > 1
    try:
        space.rules(a)
    except RulesError as exc:
        trial.set_user_attr("problems", [str(p) for p in exc.problems])
        state["planned"] -= measure.cost(ends[-1])
        study.tell(trial, state=TrialState.PRUNED)
        return
    before = state["played"]
    report(before)
    values: list[float] = []
    for rung, end in enumerate(ends):
        def tick(done: int, base: int = state["played"]) -> None:
            report(base + done)

        metrics = measure(a, rung, end, tick)
        state["played"] = before + measure.cost(end)
        value = objective(targets, metrics)
        values = distances(targets, metrics) if several else [value]
        if not several:
            trial.report(value, end)
        out = missed(targets, metrics)
        trial.set_user_attr("metrics", _to_attrs(metrics))
        trial.set_user_attr("games", end)
        trial.set_user_attr("objective", value)
        report(state["played"])
        if out and end < ends[-1]:
            trial.set_user_attr("missed", [t.name for t in out])
            state["planned"] -= measure.cost(ends[-1]) - measure.cost(end)
            if several:  # NSGA-II reads only finished trials: a dropped one keeps its distances so far
                trial.set_user_attr("dropped", True)
                study.tell(trial, values)
            else:
                study.tell(trial, state=TrialState.PRUNED)
            return
    study.tell(trial, values)


# ------------------------------------------------------------------------------------------------ precision
def half_widths(targets: Sequence[Target], metrics: Mapping[str, Metric]) -> dict[str, float]:
    """Each target's 95% interval half-width (the widest side of its value), but the depth's: a chain of
    levels is counted in whole levels, not read to a precision."""
    out = {}
    for t in targets:
        m = metrics.get(t.metric)
        if t.metric == DEPTH or m is None:
            continue
        low = m.value if m.low is None else m.low
        high = m.value if m.high is None else m.high
        out[t.metric] = max(m.value - low, high - m.value)
    return out


def _precise(targets: Sequence[Target], metrics: Mapping[str, Metric], precision: float) -> bool:
    return all(w <= precision for w in half_widths(targets, metrics).values())


def _refined(c: Candidate, result: SearchResult, measure: Measure, precision: float, limit: int,
             report: Callable[[int, str, int], None]) -> tuple[Candidate, int]:
    """The candidate played again on the search's rungs (the same games: common random numbers), then on
    new rungs until each target's interval is ``precision`` wide either side (or ``limit`` times the
    search's games), each rung's games read from the widest interval (its width falls as one over the
    square root of the games); with the games played."""
    label, ends = result.space.label(c.assignment), list(rungs(result.games))
    most = limit * result.games
    metrics: Mapping[str, Metric] = {}
    played = end = rung = 0
    while rung < len(ends) or (not _precise(result.targets, metrics, precision) and end < most):
        if rung >= len(ends):
            widest = max(half_widths(result.targets, metrics).values())
            ends.append(min(most, max(end + 1, math.ceil(1.05 * end * (widest / precision) ** 2))))
        end = ends[rung]

        def tick(done: int, base: int = played) -> None:
            report(c.number, label, base + done)

        metrics = measure(c.assignment, rung, end, tick)
        played = measure.cost(end)
        rung += 1
    return replace(c, metrics=dict(metrics), games=end, objective=objective(result.targets, metrics), dropped=False,
                   missed=(), precise=_precise(result.targets, metrics, precision)), played


def refine(result: SearchResult, measure: Measure, precision: float, limit: int = REFINE_LIMIT,
           progress: Callable[[SearchProgress], "bool | None"] | None = None) -> SearchResult:
    """The search's best candidate played on until each target's 95% interval (the depth's aside) is at most
    ``precision`` either side of its value; ranked again with its new figures, and again while the best is
    one not refined (so the best returned is known to ``precision``, unless ``limit`` times the search's
    games were not enough: its ``precise`` says).  The candidates refined play the same games (common random
    numbers).  Refined figures are not stored in the study: a resumed search refines again, to the same
    figures."""
    started = time.monotonic()
    played = 0

    def report(number: int, label: str, done: int) -> None:
        if progress is not None and progress(SearchProgress(number, len(result.candidates), label, played + done,
                                                            played + done, time.monotonic() - started)) is False:
            raise Cancelled()

    while (best := result.best()) is not None and best.precise is None and not best.problems:
        refined, games = _refined(best, result, measure, precision, limit, report)
        played += games
        result = replace(result, candidates=[refined if c.number == best.number else c for c in result.candidates])
    return replace(result, precision=precision, played=result.played + played,
                   seconds=result.seconds + time.monotonic() - started)


# -------------------------------------------------------------------------------------------- the balance lab
@dataclass(frozen=True)
class Estimate:
    """What a search will cost at most: candidates, games each (their ladder's included), games, seconds."""

    candidates: int
    games_each: int
    games: int
    seconds: float


def estimate_search(space: Space, targets: Sequence[Target], policies: tuple[str, str], games: int, trials: int = TRIALS,
             ladder: Sequence[str] = ()) -> Estimate:
    """The most a search may cost (racing usually stops poor candidates after a quarter of their games), its
    seconds on one core: a candidate's games' plan's cost (:attr:`..planning.Plan.cost`), of games from the
    preset's deal (where a candidate's rules take a game from the compiled loop to the engine, it errs short)."""
    candidates = min(trials, space.size)
    ladder = tuple(ladder) if any(t.metric == DEPTH for t in targets) else ()
    measure = PlayedMeasure(space, policies, ladder=ladder)
    seconds = plan(Position.start(space.preset), policies, "sample", games=games).cost or 0.0
    seconds += sum(s for _w, _s, _n, s in ladder_cost(ladder, games, space.preset)) if ladder else 0.0
    return Estimate(candidates, measure.cost(games), candidates * measure.cost(games), candidates * seconds)


def balance_search(space: Space, targets: Sequence[Target], policies: tuple[str, str] = ("uniform", "uniform"),
            games: int = 400, trials: int = TRIALS, seed: int = 0, store: str | None = None,
            executor: Executor | None = None, ladder: Sequence[str] = (),
            progress: Callable[[SearchProgress], "bool | None"] | None = None,
            precision: float | None = None, force: bool = False) -> SearchResult:
    """Search ``space`` for rules meeting ``targets`` with ``policies`` on both sides, ``games`` seeded games a
    candidate (the same for every candidate), its depth on ``ladder`` when a target asks for it; with a
    ``precision``, the best candidate is then played on until its targets' intervals are that narrow
    (:func:`refine`).  Games the engine plays go to ``executor`` (the local pool or a Dask cluster: the same
    results as here).  A search whose most games (:func:`estimate_search`, on one core) would take more than
    :data:`..limits.RUN_SECONDS` is refused (:class:`..limits.TooLong`) unless ``force``."""
    ladder = tuple(ladder) if any(t.metric == DEPTH for t in targets) else ()
    if any(t.metric == DEPTH for t in targets) and len(ladder) < 2:
        raise ValueError(gettext("a depth target needs a ladder of at least two levels"))
    most = estimate_search(space, targets, policies, games, trials, ladder)
    check_duration(most.seconds, ngettext("{count} game", "{count} games", most.games).format(
        count=plain_count(most.games)), force)
    measure = PlayedMeasure(space, policies, seed, executor, ladder)
    what = json.dumps([list(policies), list(ladder)])
    result = search(space, targets, measure, games=games, trials=trials, seed=seed, store=store, what=what,
                    progress=progress)
    result = replace(result, policies=policies, ladder=ladder)
    return result if precision is None else refine(result, measure, precision, progress=progress)
