"""``balance``: search rules parameters for settings that meet targets (``analysis.studies.balance``), the best
and the alternatives, fewest changes first."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..i18n import ngettext, plain_count, plain_duration
from ..i18n import gettext as _
from .common import EXIT_OK, Refused, ladder, policy_pair, prepare_fast_path, rules_arg, shown_metric, write_csv
from .common import write_file
from .long_run import long_run

def cmd_balance(args: argparse.Namespace) -> int:
    """Search rules parameters for settings that meet targets; the best and the alternatives, fewest changes first."""
    from ..analysis.planning import engine_plays
    from ..analysis.studies.balance import (Space, SpaceError, TargetError, balance_search, estimate_search,
                                            parse_targets)
    from ..analysis.studies.depth import default_ladder

    preset = rules_arg(args.rules)
    try:
        space = Space.parse(preset, args.vary or [])
        targets = parse_targets(args.target or [])
    except (SpaceError, TargetError) as exc:
        raise Refused(str(exc)) from None
    policies = policy_pair(args.policies)
    levels = ladder(args.levels) if args.levels else list(default_ladder())
    read_on = levels if any(t.name == "depth" for t in targets) else ()  # the ladder a depth target is read on
    prepare_fast_path([*policies, *read_on])
    cost = estimate_search(space, targets, policies, args.games, args.trials, read_on)
    said = _("at most {candidates} candidates of {size} x {each} games = {games} games, {duration} on one core "
             "(racing stops most poor candidates after a quarter of their games)").format(
        candidates=cost.candidates, size=space.size, each=plain_count(cost.games_each), games=plain_count(cost.games),
        duration=plain_duration(cost.seconds))

    def line(p: Any) -> str:
        return _("candidate {number} of {count} ({label}): {played} of at most {planned} games, {left} left").format(
            number=p.candidate, count=p.candidates, label=p.label, played=plain_count(p.played),
            planned=plain_count(p.planned), left=plain_duration(p.seconds_left) if p.seconds_left is not None else "?")

    def stopped() -> str | None:
        return _("the finished candidates are kept in {path}: the same command continues the search").format(
            path=args.store) if args.store else None

    try:
        result = long_run(args, said, line, lambda executor, progress: balance_search(
            space, targets, policies, args.games, args.trials, args.seed, args.store, executor, read_on, progress,
            args.precision, force=args.force), engine_played=engine_plays((*policies, *read_on)), stopped=stopped)
    except OSError as exc:
        raise Refused(_("cannot use the store {path}: {error}").format(path=args.store, error=exc.strerror or exc)) \
            from None
    if args.csv:
        write_csv(args.csv, result.rows())
    if args.report:
        from ..render.balance_report import balance_report

        write_file(args.report, balance_report(result, alternatives=args.show).encode("utf-8"))
    if args.json:
        print(json.dumps(result.to_json(args.show), indent=1))
        return EXIT_OK
    print(_("{rules}, {vary}; targets {targets}; {policies}, {games} games a candidate, seed {seed}").format(
        rules=preset, vary=", ".join(str(v) for v in space.varied), targets=", ".join(str(t) for t in targets),
        policies=" / ".join(policies), games=args.games, seed=args.seed))
    print(_("{count} candidates tried ({resumed} from the store), {played} games in {seconds} s").format(
        count=len(result.candidates), resumed=result.resumed, played=plain_count(result.played),
        seconds=plain_count(round(result.seconds, 1))))
    ranked = result.ranked()
    best = result.best()
    if best is None:
        print(_("no candidate could be played: the rules refused every one"))
        return EXIT_OK
    print(_("best:") if ranked else _("no candidate meets every target; the closest:"))
    _print_candidate(best, targets, space)
    if result.precision is not None:
        print("  " + (_("known to +-{precision} (its 95-percent intervals) after {games} games") if best.precise else
                      _("not known to +-{precision} after {games} games: the most a refinement plays")).format(
            precision=f"{result.precision:g}", games=plain_count(best.games)))
    if len(ranked) > 1:
        print(_("alternatives that meet the targets, fewest changes first:"))
        for c in ranked[1:1 + args.show]:
            _print_candidate(c, targets, space)
    front = [c for c in result.front() if c is not best] if len(targets) > 1 and not ranked else []
    if front:
        print(_("the trade-off front (no other candidate is closer to every target at once):"))
        for c in sorted(front, key=lambda c: (len(c.changes), c.objective or 0.0, c.number))[:args.show]:
            _print_candidate(c, targets, space)
    return EXIT_OK


def _print_candidate(c: Any, targets: Any, space: Any) -> None:
    print("  " + ngettext("{label} ({count} change, {games} games)", "{label} ({count} changes, {games} games)",
                          len(c.changes)).format(label=space.label(c.assignment), count=len(c.changes),
                                                 games=c.games))
    for t in targets:
        m = c.metrics.get(t.metric)
        mark = t.verdict(m).words() if m is not None else _("not read")
        print(f"    {t.name:12s} {shown_metric(m):28s} {t}  {mark}")

