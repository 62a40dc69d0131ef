"""One entry point for the panels and the command line: the plan's machinery, run.

:func:`.planning.plan` decides what answers (an exact solver, or sampled games on the compiled loop
or the engine); :func:`analyse` runs that plan and returns the result with the plan attached, so
the panels can say what answered and why.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Callable

from ..engine import Position
from ..i18n import ngettext, plain_count
from .limits import OVERRUN, Budget, ExactOutOfReach, check_duration
from .planning import AUTO_SECONDS, Plan, Solver, Where, plan
from .policies.spec import PolicySpec
from .results import AnalysisResult, exact_result, sampled_result
from .sampling.sample import play_games, sample_games_on

__all__ = ["analyse", "check_games", "execute", "ExactOutOfReach"]


def analyse(p: Position, policies: tuple[str, str] = ("uniform", "uniform"), method: str = "auto",
            games: int = 2000, seed: int = 0,
            progress: Callable[[int, int], bool | None] | None = None,
            executor: Executor | None = None, force: bool = False, fast: bool = True,
            arithmetic: str | None = None, cores: int = 1) -> AnalysisResult:
    """Outcome distribution from ``p``.

    ``method`` is "exact", "sample" or "auto" (exact when the estimated tree is
    within :data:`.planning.AUTO_SECONDS` and both policies are exact, else sampled: :func:`.planning.plan`
    decides, and refuses what it must).
    Games the engine plays run on ``executor`` with identical results, or, with ``cores`` above one, on the shared
    local pool when no executor is given; compiled games run in this process (the plan decides where:
    :func:`.planning.plan`).
    Unless ``fast`` is False, sampling uses the compiled games and exact
    enumeration the endgame solver where they apply (uniform policies, 2-player
    sides; see :mod:`.compiled`): the same answers, much sooner.  An explicit exact
    request on an endgame is never refused: it reports progress and can be cancelled.  Sampled games whose
    stated cost (the plan's :attr:`~.planning.Plan.cost`) is past :data:`.limits.RUN_SECONDS` are refused
    (:class:`.limits.TooLong`) unless ``force`` confirms them.

    ``arithmetic`` says how an exact distribution is summed: "fraction" (exact fractions,
    ``p_exact``) or "float" (float64: the same to rounding, endgames many times sooner).
    By default an explicit "exact" uses fractions and "auto" floats.
    """
    chosen = plan(p, policies, method, games, force, fast, arithmetic, cores, executor)
    if chosen.where is not Where.CLUSTER:  # (a cluster's cores are its own to count)
        check_games(chosen, force)
    return execute(p, chosen, seed, progress)


def check_games(chosen: Plan, force: bool = False) -> None:
    """Refuse a sampled plan whose games' cost here (the plan's :attr:`~.planning.Plan.cost`: the engine's spread
    over the local cores it uses) is past :data:`.limits.RUN_SECONDS`, unless ``force`` confirms it
    (:class:`.limits.TooLong`)."""
    if chosen.method == "sample" and chosen.cost is not None:
        check_duration(chosen.cost,
                       ngettext("{count} game", "{count} games", chosen.games).format(
                           count=plain_count(chosen.games)), force)


def exact_budget(chosen: Plan) -> Budget:
    """What an exact plan may spend: the memory budget always; and, where its cost was estimated (not forced, not
    an endgame), :data:`.limits.OVERRUN` times the estimate, or of :data:`.planning.AUTO_SECONDS` when the
    estimate is less (a run the estimate missed is stopped in words, not left to run for hours)."""
    return Budget(None if chosen.seconds is None else OVERRUN * max(chosen.seconds, AUTO_SECONDS))


def execute(p: Position, chosen: Plan, seed: int = 0,
            progress: Callable[[int, int], bool | None] | None = None) -> AnalysisResult:
    """Run a plan from ``p`` as it was decided: its exact solver, or its games where the plan sends them
    (:meth:`.planning.Plan.games_go_to`: the executor it names, else this process).  Nothing here chooses again."""
    policies = chosen.policies
    if chosen.method == "exact":
        from .exact.distribution import exact_distribution  # scipy's sparse matrices: not for a sampled run's start

        pols = (PolicySpec.parse(policies[0]).policy(), PolicySpec.parse(policies[1]).policy())
        dist, states = exact_distribution(p, pols, (lambda n: progress(n, 0)) if progress else None,
                                          chosen.solver is not Solver.PLAIN, floats=chosen.arithmetic == "float",
                                          budget=exact_budget(chosen))
        # only endgames are summed in floats: a tree that never reaches one stays in fractions
        summed = "float" if any(isinstance(q, float) for q in dist.values()) else "fraction"
        return exact_result(p, policies, dist, states, summed, chosen)
    executor = chosen.games_go_to()
    if executor is not None:
        samples = sample_games_on(executor, p, policies, chosen.games, seed, progress=progress,
                                  sampler=chosen.sampler)
    else:
        samples = play_games(p, policies, chosen.games, seed, progress=progress, sampler=chosen.sampler)
    return sampled_result(p, policies, samples, chosen)
