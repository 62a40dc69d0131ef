"""``playtest report`` and ``playtest persona``: people's recorded games read against the bots, and strong's
weights fitted to their placements."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n import plain_count, plain_duration, plain_estimate
from ..i18n import gettext as _
from .common import EXIT_OK, Refused, write_csv, write_file
from .long_run import Bar

def _playtest_records(paths: list[str]) -> tuple[list[tuple[str, Any]], list[tuple[str, str]]]:
    """The records of ``paths`` (files and folders) and the bad ones, each named on standard error with its
    problem while the rest are kept.  A Refused when none can be read."""
    from ..engine import read_records

    good, bad = read_records(paths)
    for name, problem in bad:
        print(_("skipped {file}: {problem}").format(file=name, problem=problem), file=sys.stderr)
    if not good:
        raise Refused(_("no game record could be read from {paths}").format(paths=", ".join(paths)))
    return good, bad


def cmd_playtest_report(args: argparse.Namespace) -> int:
    """People's recorded games read against the bots: each decision's loss, each draw's luck, the players."""
    from ..analysis import Cancelled
    from ..analysis.playtest import PlaytestError, budget_of, playtest_report, reading_cost

    import time

    named, bad = _playtest_records(args.records)
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    try:
        budget = budget_of(args.budget)
        decisions, draws, cached, seconds = reading_cost([r for _n, r in named], budget, args.seed)
    except PlaytestError as exc:
        raise Refused(str(exc)) from None
    print(_("{games} games ({cached} read before): {decisions} decisions and {draws} draws to read at {budget}, "
            "{time}").format(games=plain_count(len(named)), cached=plain_count(cached),
                             decisions=plain_count(decisions), draws=plain_count(draws), budget=args.budget,
                             time=plain_duration(seconds)), file=sys.stderr)
    bar, started = Bar(), time.monotonic()

    def progress(done: int, total: int) -> None:
        left = (time.monotonic() - started) / done * (total - done) if done else seconds
        bar(_("{done} of {total} events read, {time} left").format(
            done=plain_count(done), total=plain_count(total), time=plain_duration(left)))

    try:
        report = playtest_report(named, levels, budget, args.seed, args.bot_games, bad, progress)
    except Cancelled:
        raise KeyboardInterrupt from None
    except PlaytestError as exc:
        raise Refused(str(exc)) from None
    if args.csv:
        write_csv(args.csv, report.rows())
    if args.report:
        from ..render.playtest_report import playtest_html

        write_file(args.report, playtest_html(report, records=dict(named)).encode("utf-8"))
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
        return EXIT_OK
    for sentence in report.sentences():
        print("- " + sentence)
    return EXIT_OK


def cmd_playtest_persona(args: argparse.Namespace) -> int:
    """``strong``'s weights fitted to people's recorded placements, written as a weights file (``persona@FILE``)."""
    import pathlib

    from ..analysis.playtest import PlaytestError, fit_persona

    named = _playtest_records(args.records)[0]
    try:
        persona = fit_persona([r for _n, r in named])
    except PlaytestError as exc:
        raise Refused(str(exc)) from None
    persona.write(pathlib.Path(args.out))
    print(_("fitted to {decisions} placements of {games} games: mean log-likelihood {fitted} (strong's: {start}); "
            "play it as persona@{file}").format(decisions=plain_count(persona.decisions), games=plain_count(persona.games),
                                                fitted=plain_estimate(persona.fitted_likelihood),
                                                start=plain_estimate(persona.start_likelihood), file=args.out))
    return EXIT_OK
