"""The designer's studies of rule sets by skill level (``analysis.studies``): ``skill`` (the metrics and the
conclusions that change with skill), ``style`` (how each level plays) and ``depth`` (a ladder of levels, each
against the one below)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from concurrent.futures import Executor

from ..engine import Position
from ..i18n import plain_count, plain_duration
from ..i18n import gettext as _
from .common import EXIT_OK, Refused, ladder, policy_names, prepare_fast_path, rules_arg, rules_list, shown_metric
from .common import write_file
from .long_run import Bar, games_done, long_run

def cmd_skill(args: argparse.Namespace) -> int:
    """Rule sets by skill level from the opening: metrics with intervals, and the conclusions that change."""
    from ..analysis import Cancelled, Metric, level_name
    from ..analysis.studies.depth import level_games
    from ..analysis.studies.exploit import check_verdicts, check_verdicts_seconds, pairs_below
    from ..analysis.studies.skill import cost_line, skill_cost, skill_levels

    rule_sets = rules_list(args.rules)
    presets = [str(r) for r in rule_sets]
    levels = policy_names(args.levels)
    if not levels:
        raise Refused(_("--levels names no level: give policies separated by commas, like uniform,heuristic,search:100"))
    games = {lv: level_games(lv, args.games) for lv in levels}
    start = Position.start(rule_sets[0])
    prepare_fast_path(levels)
    for level, n, seconds in skill_cost(start, rule_sets, games):
        print(cost_line(level, n, len(rule_sets), seconds), file=sys.stderr)
    pairs, counter_games = pairs_below(levels), 2 * args.games  # under the first rule set, from the deal
    if args.counter_check and pairs:
        print(_("then every counter-strategy against each level above the lowest, and each against the one below: "
                "{games} games each, {duration} on one core").format(games=plain_count(counter_games), duration=(
                    plain_duration(check_verdicts_seconds(start, pairs, counter_games)))), file=sys.stderr)
    bar = Bar()

    def on_games(done: int, total: int) -> None:
        bar(games_done(done, total))

    workers = args.workers or os.cpu_count() or 1
    try:
        if workers > 1:
            from ..analysis.workers import process_pool  # started safely after compiled games (see there)

            with process_pool(workers) as pool:
                table = skill_levels(start, rule_sets, presets, levels, games=games, seed=args.seed, executor=pool,
                                     on_games=on_games, force=args.force, cores=workers)
        else:
            table = skill_levels(start, rule_sets, presets, levels, games=games, seed=args.seed, on_games=on_games,
                                 force=args.force)
        checks = check_verdicts(start, pairs, counter_games, args.seed, progress=on_games)[0] \
            if args.counter_check else ()
    except Cancelled:
        raise KeyboardInterrupt from None
    if args.json:
        print(json.dumps({**table.to_json(), **(
            {"counter_check": [c.to_json() for c in checks]} if args.counter_check else {})}, indent=1))
        return EXIT_OK
    for c in table.cells:
        m = c.metric  # its name as the game spells it, its verdict against what it is read against
        print(f"{c.label:14s} {level_name(c.level):12s} {Metric.label_of(m.name):22s} {m.value:8.3f} "
              f"[{m.low:.3f}, {m.high:.3f}]  {table.verdict_words(c)}")
    print(_("conclusions that change with skill:") if table.changes() else _("no conclusion changes with skill"))
    for line in table.changes():
        print("  " + line)
    if checks:
        print(_("{rules}, each level against the one below, checked against a counter-strategy:").format(
            rules=presets[0]))
    for check in checks:
        print("  " + check.sentence(level=level_name(check.level), opponent=level_name(check.opponent)))
    return EXIT_OK


def cmd_style(args: argparse.Namespace) -> int:
    """How each skill level plays a rule set: bluffs, cards at an opening, hero timing, conceding, castles chosen."""
    from ..analysis import Cancelled
    from ..analysis.studies.skill import cost_line
    from ..analysis.studies.style import play_styles, style_cost
    from ..render.style import style_csv, style_rows

    rule_sets = rules_list(args.rules)
    levels = policy_names(args.levels)
    if not levels:
        raise Refused(_("--levels names no level: give policies separated by commas, like uniform,heuristic,search:100"))
    prepare_fast_path(levels)
    for level, games, seconds in style_cost(levels, args.games, rule_sets):
        print(cost_line(level, games, len(rule_sets), seconds), file=sys.stderr)
    bar = Bar()

    def progress(done: int, total: int) -> None:
        bar(games_done(done, total))

    try:
        styles = play_styles(rule_sets, levels, args.games, args.seed, progress, force=args.force)
    except Cancelled:
        raise KeyboardInterrupt from None
    if args.csv:
        write_file(args.csv, style_csv(styles).encode("utf-8"))
    if args.json:
        print(json.dumps([s.to_json() for s in styles], indent=1))
        return EXIT_OK
    for style in styles:
        for row in style_rows([style]):
            (_rules, rules), (_level, level), *measures = row.items()
            print(f"{rules}, {level}:")
            for name, value in measures:
                print(f"  {name:32s} {value}")
        for sentence in style.sentences():
            print("- " + sentence)
    return EXIT_OK


def cmd_depth(args: argparse.Namespace) -> int:
    """A rule set's skill ladder: each level against the one below in both seats, the chain, weaker wins, luck; with
    ``--counter-check``, each rung's verdict checked against the best counter-strategy to its stronger level."""
    from ..analysis.planning import engine_plays
    from ..analysis.studies.depth import BEATS, Depth, default_ladder, ladder_cost, skill_depth
    from ..analysis.studies.exploit import CounterCheck, check_verdicts, exploit_seconds

    rules = rules_arg(args.rules)
    levels = ladder(args.levels) if args.levels else list(default_ladder())
    prepare_fast_path(levels)
    cost = "\n".join(_("{stronger} against {weaker}: {games} games (both seats), {duration} on one core").format(
        stronger=stronger, weaker=weaker, games=plain_count(games), duration=plain_duration(seconds))
        for weaker, stronger, games, seconds in ladder_cost(levels, args.games, rules))
    start, counter_games = Position.start(rules), 2 * args.games  # a counter-strategy plays a match's games
    if args.counter_check:
        cost += "\n" + _("then every counter-strategy against each level above the lowest: {games} games each, "
                         "{duration} on one core").format(games=plain_count(counter_games), duration=plain_duration(
                             sum(exploit_seconds(start, level, counter_games) for level in levels[1:])))

    def work(executor: Executor | None, progress: Callable[[int, int], None]) -> tuple[Depth, tuple[CounterCheck, ...]]:
        depth = skill_depth(rules, levels, args.games, args.seed, executor, progress, force=args.force)
        if not args.counter_check:
            return depth, ()
        return depth, check_verdicts(start, depth.rungs(), counter_games, args.seed, BEATS, progress=progress)[0]

    depth, checks = long_run(args, cost, games_done, work, engine_played=engine_plays(levels))
    if args.json:
        print(json.dumps({**depth.to_json(), **({"counter_check": [c.to_json() for c in checks]}
                                                if args.counter_check else {})}, indent=1))
        return EXIT_OK
    print(_("{rules}: ladder {levels}, a level beats the one below at a score of {beats} or more").format(
        rules=rules, levels=" < ".join(levels), beats=0.55))
    for m in depth.matches:
        print("  " + _("{stronger} against {weaker}: score {score}, the weaker wins {wins}, luck share {luck}").format(
            stronger=m.stronger, weaker=m.weaker, score=shown_metric(m.score),
            wins=shown_metric(m.weaker_wins), luck=shown_metric(m.luck)))
    print(depth.chain_text())
    print(_("the weaker level wins {wins} of the games; luck share {luck}").format(
        wins=shown_metric(depth.weaker_wins), luck=shown_metric(depth.luck)))
    for check in checks:
        print("  " + check.sentence())
    return EXIT_OK
