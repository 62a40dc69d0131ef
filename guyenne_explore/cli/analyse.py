"""Commands that answer for one position: ``analyse`` (its outcome distribution, exact or sampled) and ``solve``
(optimal play in an open-hand endgame, and how far the policies are from it)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import ExitStack

from ..i18n import castle_number, ngettext, plain_count, plain_duration
from ..i18n import gettext as _
from .common import EXIT_OK, Refused, policy_of, policy_pair, prepare_fast_path, read_position, scheduler
from .common import side_word, start_position, write_file

def cmd_analyse(args: argparse.Namespace) -> int:
    """The outcome distribution from a position, as the plan decides it (exact or sampled), its cost said first."""
    from ..analysis import ExactOutOfReach, NotExact, TooLong, check_games, execute, plan
    from ..analysis.planning import sampling_seconds

    p = start_position(args)
    policies = policy_pair(args.policies)
    method = "exact" if args.exact else ("sample" if args.samples else "auto")
    try:
        with ExitStack() as held:
            # games the engine plays (a search) are slow: spread over the cores by default (the shared local pool),
            # over --workers processes, or on a Dask cluster; compiled games (uniform, the heuristic) play thousands a
            # second here, sooner than worker processes start and load them: the plan decides where they go, and
            # its cost is theirs there
            cores = args.workers or (os.cpu_count() or 1)
            offered = None
            if args.scheduler:  # a Dask cluster: the same games as here, spread over its workers
                offered = held.enter_context(scheduler(args.scheduler)).get_executor()
            elif args.workers and args.workers > 1:
                from ..analysis.workers import process_pool  # its workers start with the first game sent to it

                offered = held.enter_context(process_pool(args.workers))
            chosen = plan(p, policies, method, games=args.samples or 2000, force=args.force,
                          arithmetic="float" if args.float else None, cores=cores, executor=offered)
            if not args.scheduler:  # past half an hour of games on these cores: refused unless --force confirms it
                check_games(chosen, args.force)
            if chosen.method == "sample":  # compiled games, or a search's compiled rollouts
                prepare_fast_path(policies)
            if chosen.spread:  # the engine's games take minutes where compiled ones take a second: said first
                print(_("{games} games played by the engine: {duration} on one core (Ctrl-C stops)").format(
                    games=plain_count(chosen.games),
                    duration=plain_duration(sampling_seconds(p, policies, chosen.games))), file=sys.stderr)
            result = execute(p, chosen, args.seed)
    except ExactOutOfReach as exc:
        raise Refused(_("{error} with --force (Ctrl-C stops it)").format(error=exc) if exc.forceable else str(exc)) \
            from None
    except NotExact as exc:
        raise Refused(str(exc)) from None
    except TooLong as exc:
        raise Refused(_("{error} with --force (Ctrl-C stops it)").format(error=exc)) from None
    data = result.to_json()
    if args.report:
        from ..render.report import analysis_report

        write_file(args.report, analysis_report(p, {str(p.rules): result}, seed=None if result.exact else args.seed)
               .encode("utf-8"))
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        kind = ((_("exact, fractions") if result.arithmetic == "fraction" else _("exact, floats")) if result.exact
                else ngettext("{count} sampled game", "{count} sampled games", result.games).format(count=result.games))
        print(_("{rules} from {point}, round {round} ({kind})").format(rules=p.rules, point=p.to_play, round=p.round,
                                                                       kind=kind))
        if result.plan is not None:
            print("  " + result.plan.reason)
        for w, v in data["win"].items():
            print(f"  {w:8s} {v:.4f}")
        print("  " + _("rounds: {rounds}").format(rounds=", ".join(f"{k}: {v:.4f}" for k, v in data["rounds"].items())))
    return EXIT_OK


def cmd_solve(args: argparse.Namespace) -> int:
    """Equilibrium of an open-hand endgame: value, first-decision mix, policies' exploitability, size."""
    from ..analysis.optimal import OptimalSolver, exploitability, solve_position, why_not_solvable

    p = read_position(args.position)
    names = [n.strip() for n in args.policies.split(",") if n.strip() and n.strip() != "none"]
    policies = {name: policy_of(name) for name in names}
    reason = why_not_solvable(p)
    if reason:
        raise Refused(reason)
    solver = OptimalSolver(p.rules, args.objective)
    result = solve_position(p, args.objective, solver)
    if names and p.to_play == "open_first":
        result.exploitability = exploitability(p, policies, solver,
                                               budget_seconds=args.budget)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return EXIT_OK
    what = _("P(win), a draw counting half") if args.objective == "win" else _("expected score difference")
    print(_("{rules}, round {round}, {point}: value ({what}) of {scope}").format(
        rules=p.rules, round=p.round, point=p.to_play, what=what, scope=_(result.scope)))
    print("  " + _("English {english}   French {french}").format(english=f"{result.side_value(0):.4f}",
                                                                  french=f"{result.side_value(1):.4f}"))
    print(_("equilibrium mix of {side} at {point}:").format(side=side_word(result.side_to_play), point=p.to_play))
    for mv, w in result.moves:  # castles as a reader counts them, with the move's notation beside
        said = mv.text() if mv.castle is None else _("{cards} at castle {castle}").format(
            cards=mv.cards, castle=castle_number(mv.castle))
        print(f"  {w:7.2%}  {said}   [{mv.text()}]")
    for row in result.answers:
        mix = ", ".join(f"{r['move']} {r['p']:.0%}" for r in row["strategy"])
        print("  " + ngettext("answer to {count} card at castle {castle}: {mix}",
                              "answer to {count} cards at castle {castle}: {mix}", row["cards"]).format(
            count=row["cards"], castle=castle_number(row["castle"]), mix=mix))
    for e in result.exploitability:
        got = "-" if e.responder_value is None else f"{e.responder_value:.4f}"
        shown = None if e.gap is None else (e.gap if abs(e.gap) >= 5e-5 else 0.0)
        line = _("best response to {policy} playing {side}: {value}").format(
            policy=_(e.policy) if e.policy in ("uniform", "heuristic", "strong", "search") else e.policy,
            side=side_word(e.policy_side), value=got)
        if shown is not None:
            line += " " + _("({gap} over the equilibrium {equilibrium})").format(
                gap=f"{shown:+.4f}", equilibrium=f"{e.equilibrium_value:.4f}")
        print(f"  {line} {e.note}".rstrip())
    st = result.stats
    print(_("solved {states} round starts ({leaves} leaves): {subgames} subgame LPs (largest {variables} variables x "
            "{constraints} constraints, {nonzeros} payoff non-zeros) in {calls} HiGHS calls, {saddle} saddle points "
            "and {pruned} subgames that cannot win skipped; {seconds} s").format(
        states=plain_count(st.states), leaves=plain_count(st.leaves), subgames=plain_count(st.subgames_solved),
        variables=plain_count(st.largest_variables), constraints=plain_count(st.largest_constraints),
        nonzeros=plain_count(st.largest_nonzeros), calls=st.lp_calls, saddle=plain_count(st.saddle), pruned=plain_count(st.pruned),
        seconds=f"{result.seconds:.2f}"))
    return EXIT_OK
