"""``train`` and ``improve``: the learned policy strong's weights for a rule set, by CMA-ES (``train``) or by its own
search (``improve``, expert iteration); both said, shown and stopped as every long run (:mod:`.long_run`),
resumable from the state they save, the weights file written last.  ``mix``: weights files played as one policy, a
member drawn at each decision."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..engine import Rules, RulesError
from ..i18n import ngettext, plain_count, plain_duration
from ..i18n import gettext as _
from .common import EXIT_OK, Refused, prepare_fast_path, rules_arg
from .long_run import long_run, time_left

def _trained_rules(args: argparse.Namespace, resumed: Any) -> Rules:
    """The rules ``train`` trains for: ``--rules`` (else the resumed run's) with each ``--vary name=value``."""
    from ..analysis.studies.balance import Space, SpaceError

    if args.rules:
        rules = rules_arg(args.rules)
    elif resumed is not None:
        return Rules.from_json(resumed.settings.rules)
    else:
        raise Refused(_("--rules: name the preset or rules JSON to train for (--rules advanced)"))
    if not args.vary:
        return rules
    try:
        space = Space.parse(rules, args.vary)
    except SpaceError as exc:
        raise Refused(str(exc)) from None
    several = next((v for v in space.varied if len(v.values) != 1), None)
    if several is not None:
        raise Refused(_("--vary {name}: give the one value to train for, {name}=VALUE").format(name=several.parameter))
    try:
        return space.rules({v.parameter: v.values[0] for v in space.varied})
    except RulesError as exc:
        raise Refused(_("--vary: {problem}").format(problem="; ".join(str(x) for x in exc.problems))) from None


def _weights_run(args: argparse.Namespace, read: Any
                 ) -> tuple[Any, Rules, tuple[float, ...] | None, dict[str, Any] | None]:
    """What ``train`` and ``improve`` start from: the run ``--resume`` names (read by ``read``), the rules it is
    for, the whole model it starts from (``--start``'s, a network's numbers too; else a resumed run's own start;
    None: the package's) and that file as the weights file records it (:func:`..analysis.training.start_record`, read
    as the run begins; a resumed run's from its state, as the file may have changed since); bad input refused in one
    line naming it."""
    from pathlib import Path

    from ..analysis.training import start_model, start_record

    try:
        resumed = read(Path(args.resume)) if args.resume else None
        rules = _trained_rules(args, resumed)
        if args.start:
            return resumed, rules, start_model(Path(args.start)), start_record(Path(args.start))
    except ValueError as exc:
        raise Refused(str(exc)) from None
    if resumed is None:
        return None, rules, None, None
    return resumed, rules, resumed.settings.x0, resumed.origin


def _shown_rules(rules: Rules) -> str:
    """The rules as the cost line and the weights file name them: a preset's name, else compact rules JSON."""
    data = rules.to_json()
    return data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))


def cmd_train(args: argparse.Namespace) -> int:
    """Train the learned policy's weights for a rule set: the cost first, progress with the time left, a state saved
    after every generation (``--resume`` continues it), the weights file last."""
    from pathlib import Path

    from importlib.util import find_spec

    from ..analysis.training import (TRAIN_DEFAULTS, cache_file, check_training, estimate_training, read_state, train,
                                     write_weights)

    if find_spec("cma") is None:  # (the train extra's; the panels' training is the natural gradient, without it)
        raise Refused(_("train: CMA-ES needs the cma package, which the train extra installs (bash scripts/setup.sh "
                        "train); improve --method natural trains without it"))
    resumed, rules, start_from, begun = _weights_run(args, read_state)
    saved = resumed.settings if resumed is not None else None
    hidden = args.hidden if args.hidden is not None else (saved.hidden if saved else None)
    robust = args.robust if args.robust is not None else (saved.robust if saved else 0)
    freeze = args.freeze_placements or (saved.freeze if saved else False)
    seed = args.seed if args.seed is not None else saved.seed if saved else int(TRAIN_DEFAULTS["seed"])
    games = args.games or (saved.games if saved else int(TRAIN_DEFAULTS["games"]))
    popsize = args.popsize or (saved.popsize if saved else int(TRAIN_DEFAULTS["popsize"]))
    minutes = args.minutes if args.minutes is not None or args.generations else TRAIN_DEFAULTS["minutes"]
    seconds = None if minutes is None else minutes * 60
    out = Path(args.out) if args.out else cache_file(rules)
    state = Path(args.resume) if args.resume else out.with_name(out.name + ".state")
    shown_rules = _shown_rules(rules)
    try:
        settings = check_training(rules, seed, seconds, args.generations, games, popsize, start_from=start_from,
                                  resume=resumed, hidden=hidden, robust=robust, discard=args.discard,
                                  team_split=args.team_split, freeze=freeze)
        prepare_fast_path()  # before the pace is measured
        done = resumed.generation if resumed is not None else 0  # --generations counts from the run's start
        cost = estimate_training(rules, games, popsize, seconds,
                                 None if args.generations is None else max(1, args.generations - done),
                                 args.workers or 1, hidden=settings.hidden, robust=robust)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    said = ngettext("training strong for {rules}: {generations} generation of {games} games (measured here: {rate} "
                    "games a second), {duration} at that pace",
                    "training strong for {rules}: {generations} generations of {games} games (measured here: {rate} "
                    "games a second), {duration} at that pace", cost.generations).format(
        rules=shown_rules, generations=plain_count(cost.generations), games=plain_count(cost.games_a_generation),
        rate=plain_count(round(cost.games_per_second)), duration=plain_duration(cost.seconds))

    def line(p: Any) -> str:  # until a generation is timed, the pace measured before the start
        text = (_("generation {number} of {planned} (candidate {candidate} of {popsize}): best {best:.3f}, the mean of "
                  "its {robust} lowest scores against the heuristic, strong-linear, the starting weights, the "
                  "league's exploiters and the counters, {left} left") if robust else
                _("generation {number} of {planned} (candidate {candidate} of {popsize}): best {best:.3f} against the "
                  "heuristic and the starting weights, {left} left"))
        return text.format(
            robust=robust, number=p.generation + 1, planned=p.generations if p.generations is not None else done + cost.generations,
            candidate=p.candidate, popsize=p.popsize, best=p.best, left=time_left(p.seconds_left, cost.seconds, p.seconds))

    def stopped() -> str:
        return (_("the run is saved after each generation in {state}: --resume {state} continues it").format(state=state)
                if state.exists() else _("stopped before its first generation: nothing to resume"))

    try:  # one process unless --workers says
        result = long_run(args, said, line, lambda executor, progress: train(
            rules, seed, seconds, games, popsize, generations=args.generations, start_from=start_from,
            executor=executor, progress=progress, state=state, resume=resumed, hidden=hidden, robust=robust,
            discard=args.discard, team_split=args.team_split, freeze=freeze, origin=begun),
        engine_played=False,
            stopped=stopped)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    write_weights(out, result, shown_rules, seed, games, begun, popsize, robust=robust, freeze=freeze)
    policy = f"strong@{out}"
    if args.json:
        print(json.dumps({"weights_file": str(out), "state": str(state), "policy": policy, "rules": rules.to_json(),
                          "seed": seed, "generations": result.generations,
                          "validation_score": result.score,
                          "weights": json.loads(out.read_text(encoding="utf-8"))["weights"]}, indent=1))
    else:
        print((_("wrote {path}: {generations} generations, validation score {score:.3f} (the mean of its {robust} "
                 "lowest scores against the heuristic, strong-linear, the starting weights, the league's "
                 "exploiters and the counters); play it with --policies {policy}") if robust else
               _("wrote {path}: {generations} generations, validation score {score:.3f} against the heuristic and the "
                 "starting weights; play it with --policies {policy}")).format(
            path=out, generations=result.generations, score=result.score, policy=policy, robust=robust))
    return EXIT_OK


def cmd_improve(args: argparse.Namespace) -> int:
    """Improve the learned policy's weights by its own search (expert iteration): the cost first, progress with
    the time left, the run saved after every iteration (``--resume`` continues it), the weights file last."""
    from pathlib import Path

    from ..analysis.training import (IMPROVE_DEFAULTS, ImproveRun, cache_file, check_improve, estimate_improve,
                                     FIT_STEPS, improve, self_play_seconds, write_improved)

    if args.method == "natural":
        return _natural(args)
    resumed, rules, start_from, origin = _weights_run(args, ImproveRun.read)
    saved = resumed.settings if resumed is not None else None
    seed = args.seed if args.seed is not None else saved.seed if saved else int(IMPROVE_DEFAULTS["seed"])
    games = args.games or (saved.games if saved else int(IMPROVE_DEFAULTS["games"]))
    iterations = args.iterations or int(IMPROVE_DEFAULTS["iterations"])
    magnet = args.magnet if args.magnet is not None else saved.magnet if saved else 0.0
    proximal = args.proximal if args.proximal is not None else saved.proximal if saved else 0.0
    out = Path(args.out) if args.out else cache_file(rules)
    state = Path(args.resume) if args.resume else out.with_name(out.name + ".improve")
    shown_rules = _shown_rules(rules)
    try:
        regularised = check_improve(rules, seed, iterations, games, start_from, magnet, proximal).regularised
        prepare_fast_path()  # before the pace is measured
        done = resumed.iteration if resumed is not None else 0
        pace = self_play_seconds(rules, start_from)
        seconds = estimate_improve(rules, iterations - done, games, args.workers or 1, pace=pace)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    said = ngettext("improving strong for {rules}: {iterations} iteration of {games} self-play games, each placement "
                    "valued by the search; {duration} at the pace measured here",
                    "improving strong for {rules}: {iterations} iterations of {games} self-play games, each placement "
                    "valued by the search; {duration} at the pace measured here", iterations).format(
        rules=shown_rules, iterations=iterations, games=plain_count(games), duration=plain_duration(seconds))

    # a regularised run writes its last iteration, so its progress says that one's score, not the best's
    fitting, playing = ((_("iteration {number} of {planned} (fitting the weights to its games: step {step} of at most "
                           "{most}): the last iteration's {best:.3f} against the heuristic and the starting weights, "
                           "{left} left"),
                         _("iteration {number} of {planned} (game {game} of {games}): the last iteration's {best:.3f} "
                           "against the heuristic and the starting weights, {left} left")) if regularised else
                        (_("iteration {number} of {planned} (fitting the weights to its games: step {step} of at most "
                           "{most}): best {best:.3f} against the heuristic and the starting weights, {left} left"),
                         _("iteration {number} of {planned} (game {game} of {games}): best {best:.3f} against the "
                           "heuristic and the starting weights, {left} left")))

    def line(p: Any) -> str:
        return (fitting if p.fit_step is not None else playing).format(
            number=p.iteration + 1, planned=p.iterations, step=p.fit_step, most=FIT_STEPS, game=p.game,
            games=plain_count(p.games), best=p.best, left=time_left(p.seconds_left, seconds, p.seconds))

    def stopped() -> str:
        return (_("the run is saved after each iteration in {state}: --resume {state} continues it").format(state=state)
                if state.exists() else _("stopped before its first iteration: nothing to resume"))

    try:  # one process unless --workers says
        result = long_run(args, said, line, lambda executor, progress: improve(
            rules, seed, iterations, games, start_from=start_from, executor=executor, progress=progress, state=state,
            resume=resumed, origin=origin, fit_pace=pace.fit, magnet=magnet, proximal=proximal), engine_played=False,
            stopped=stopped)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    write_improved(out, result, shown_rules, seed, games, iterations, origin, magnet, proximal)
    return _wrote(args, out, state, rules, seed, result, "validation_score", _(
        "wrote {path}: the weights of iteration {iteration}, validation score {score:.3f} against the heuristic and the "
        "starting weights; play it with --policies {policy}"))


def _wrote(args: argparse.Namespace, out: Any, state: Any, rules: Rules, seed: int, result: Any, score: str,
           said: str) -> int:
    """An improvement run's last word: its weights file, said in words (``said``) or as JSON (``--json``: the
    result's score under the name ``score``)."""
    policy = f"strong@{out}"
    if args.json:
        print(json.dumps({"weights_file": str(out), "state": str(state), "policy": policy, "rules": rules.to_json(),
                          "seed": seed, "iteration": result.generations, score: result.score,
                          "weights": json.loads(out.read_text(encoding="utf-8"))["weights"]}, indent=1))
    else:
        print(said.format(path=out, iteration=result.generations, score=result.score, policy=policy))
    return EXIT_OK


def _natural(args: argparse.Namespace) -> int:
    """``improve --method natural``: the natural policy gradient of strong's own compiled games
    (:mod:`..analysis.policies.natural`), said, shown, stopped and resumed as the search's method is."""
    from pathlib import Path

    from ..analysis.training import (NATURAL_DEFAULTS, NaturalRun, cache_file, check_natural, natural,
                                     natural_iteration_seconds, write_natural)

    for option, value in (("--magnet", args.magnet), ("--proximal", args.proximal), ("--scheduler", args.scheduler)):
        if value is not None:
            raise Refused(_("{option}: only with --method search").format(option=option))
    if args.workers not in (None, 1):
        raise Refused(_("--workers: --method natural plays its compiled games in this process"))
    resumed, rules, start_from, origin = _weights_run(args, NaturalRun.read)
    saved = resumed.settings if resumed is not None else None
    seed = args.seed if args.seed is not None else saved.seed if saved else int(NATURAL_DEFAULTS["seed"])
    games = args.games or (saved.games if saved else int(NATURAL_DEFAULTS["games"]))
    iterations = args.iterations or int(NATURAL_DEFAULTS["iterations"])
    out = Path(args.out) if args.out else cache_file(rules)
    state = Path(args.resume) if args.resume else out.with_name(out.name + ".natural")
    shown_rules = _shown_rules(rules)
    try:
        check_natural(rules, seed, iterations, games, start_from)
        prepare_fast_path()  # before the pace is measured
        done = resumed.iteration if resumed is not None else 0
        print(_("measuring the pace here (a first run compiles the recorded games first: about a minute)..."),
              file=sys.stderr, flush=True)
        pace = natural_iteration_seconds(rules, games, start_from)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    seconds = pace * (iterations - done)
    said = ngettext("improving strong for {rules} by the natural gradient of its own games: {iterations} iteration of "
                    "{games} games against a league, each with one placement played again with other moves; {duration} at "
                    "the pace measured here",
                    "improving strong for {rules} by the natural gradient of its own games: {iterations} iterations of "
                    "{games} games against a league, each with one placement played again with other moves; {duration} at "
                    "the pace measured here", iterations).format(
        rules=shown_rules, iterations=iterations, games=plain_count(games), duration=plain_duration(seconds))

    def line(p: Any) -> str:
        return _("iteration {number} of {planned} ({game} of {games} games, then the steps' matches): best {best:.3f} "
                 "against the league (the starting weights, strong-linear, the heuristic and the counters), {left} left").format(
            number=min(p.iteration + 1, p.iterations), planned=p.iterations, game=plain_count(min(p.game, p.games)),
            games=plain_count(p.games), best=p.best, left=time_left(p.seconds_left, seconds, p.seconds))

    def stopped() -> str:
        return (_("the run is saved after each iteration in {state}: --resume {state} continues it").format(state=state)
                if state.exists() else _("stopped before its first iteration: nothing to resume"))

    try:
        result = long_run(args, said, line, lambda executor, progress: natural(
            rules, seed, iterations, games, start_from=start_from, progress=progress, state=state, resume=resumed,
            origin=origin, pace=pace), engine_played=False, stopped=stopped)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    write_natural(out, result, shown_rules, seed, games, iterations, origin)
    return _wrote(args, out, state, rules, seed, result, "league_score", _(
        "wrote {path}: the weights of iteration {iteration}, {score:.3f} against the league (the starting weights, "
        "strong-linear, the heuristic and the counters); play it with --policies {policy}"))


def cmd_mix(args: argparse.Namespace) -> int:
    """Write the mixture of weights files (a member drawn by its odds at each decision or once a game,
    :mod:`..analysis.policies.mixture`), which ``strong@OUT`` plays; the file records the command that forms it."""
    import shlex
    from pathlib import Path

    from ..analysis.training import mix_files

    odds = None
    if args.odds is not None:
        try:
            odds = tuple(int(x) for x in args.odds.split(","))
        except ValueError:
            raise Refused(_("--odds: whole numbers separated by commas (2,1), not {value}").format(
                value=repr(args.odds))) from None
    per_game = args.drawn == "game"
    command = shlex.join(["guyenne-explore", "mix", *args.files, *(["--odds", args.odds] if args.odds else []),
                          *(["--drawn", "game"] if per_game else []), "--out", args.out])
    try:
        model = mix_files([Path(f) for f in args.files], odds, Path(args.out), command, per_game)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    mix = model.played()
    print((_("wrote {path}: {count} members, odds {odds}, a member drawn once a game (play it as strong@{path})")
           if per_game else _("wrote {path}: {count} members, odds {odds} (play it as strong@{path})")).format(
        path=args.out, count=len(mix.members), odds=":".join(map(str, mix.odds))))
    return EXIT_OK
