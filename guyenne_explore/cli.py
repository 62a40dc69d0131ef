"""The command line: ``guyenne-explore moves | check | play | analyse | diagram | storyboard``.

Every command reads positions through the engine's loader, so a bad file gets
the same problems as in the panels, each on its own line, field first.

Exit codes (also in ``--help`` and README's command-line section):

- 0: done (``check``: the position is valid);
- 1: invalid input (a position, rules or move with problems, an option's number in another form than
  :mod:`.numbers` reads or outside its bounds) or a refused request (an exact analysis out of reach
  without ``--force``);
- 2: usage (unknown command or option, from argparse);
- 3: internal error: a one-line ``internal error: ...`` message (the traceback only
  with ``GUYENNE_DEBUG=1`` in the environment);
- 130: cancelled with Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import stat
import sys
import threading
from typing import Any, Callable, Sequence

from . import numbers
from .i18n import LANGUAGES, castle_number, current_language, set_language, side_noun
from .i18n import gettext as _
from .i18n import N_, ngettext, plain_count, plain_duration, plain_estimate
from .analysis import TooLong
from .engine import IllegalMove
from .engine import Position
from .engine import MAX_TEXT, PositionError, load_position, parse_json, position_from_json
from .engine import ProblemsError
from .engine import RecordHeader, Seat, play_game, seats_for, weights_fingerprint
from .engine import SIDES, Rules, RulesError

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL, EXIT_CANCELLED = 0, 1, 2, 3, 130


#: the skill levels of ``skill``, ``depth`` and ``balance`` by default: the analysis's ladder
#: (``analysis.default_ladder``, whose policy registry is too heavy to import for building the parser; a test
#: keeps the two equal)
DEFAULT_LADDER = "uniform,heuristic,strong,search:100"


def exit_codes() -> str:
    """The exit codes as ``--help`` lists them, in the current language."""
    return _("exit codes:\n"
             "  {ok}    done (check: the position is valid)\n"
             "  {invalid}    invalid input (each problem on its own line, field first) or a refused request\n"
             "  {usage}    usage error (unknown command or option)\n"
             "  {internal}    internal error (one line; GUYENNE_DEBUG=1 prints the traceback)\n"
             "  {cancelled}  cancelled with Ctrl-C or kill (SIGTERM)").format(ok=EXIT_OK, invalid=EXIT_INVALID, usage=EXIT_USAGE,
                                                           internal=EXIT_INTERNAL, cancelled=EXIT_CANCELLED)


class Refused(Exception):
    """A request the command line declines with a one-line reason (exit code 1)."""


def _rules_arg(text: str) -> Rules:
    """The one reader of a rules argument: a preset name or rules JSON (``{"preset": "advanced", ...}``)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return Rules.from_json(parse_json(text, "rules"))
        except PositionError as exc:
            raise RulesError(exc.problems) from None
    return Rules.from_json(text)


def _rules_list(text: str) -> list[Rules]:
    """Rule sets separated by commas, each read by :func:`_rules_arg` (commas inside rules JSON do not
    separate); at least one."""
    items, depth, quoted, escaped, start = [], 0, False, False, 0
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif quoted:
            escaped, quoted = ch == "\\", ch != '"'
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth <= 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    rule_sets = [_rules_arg(item) for item in items if item.strip()]
    if not rule_sets:
        raise Refused(_("--rules names no rule set: give presets or rules JSON, separated by commas"))
    return rule_sets


def _regular_file(path: str) -> None:
    """Refuse a path that names a named pipe, a device or a folder: reading one could wait forever.
    A path that does not exist passes, for the reader to say so."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(mode):
        raise Refused(_("{path} is not a regular file (a named pipe, a device or a folder): give a file, "
                        "or - for standard input").format(path=path))


def read_position(arg: str) -> Position:
    """A position from a file of JSON or of the one-line notation, or from standard input with ``-``."""
    if arg == "-":
        text = sys.stdin.read(MAX_TEXT + 1)
    elif not arg.strip():  # "" from an unset shell variable: not "no position", which is no argument at all
        raise Refused(_("the position file name is empty: give a file, or - for standard input"))
    else:
        _regular_file(arg)
        try:
            return load_position(arg)
        except PositionError:
            text = _notation_file(arg)
            if text is None:
                raise
    if not text.lstrip().startswith(("{", "[")) and "\n" not in text.strip():
        return Position.from_notation(text)
    return position_from_json(text)


def _notation_file(path: str) -> str | None:
    """The text of a file that holds one line of notation rather than JSON, else None."""
    try:
        with open(path, "rb") as fh:
            text = fh.read(MAX_TEXT + 1).decode("utf-8")
    except (OSError, ValueError):
        return None
    stripped = text.strip()
    if not stripped or stripped.startswith(("{", "[")) or "\n" in stripped:
        return None
    return stripped


def _start(args: argparse.Namespace) -> Position:
    """The position a command starts from: its file when one is named (an empty name too: refused by name),
    else the start of ``--rules``."""
    if getattr(args, "position", None) is not None:
        return read_position(args.position)
    return Position.start(_rules_arg(args.rules or "base"))


def cmd_moves(args: argparse.Namespace) -> int:
    p = read_position(args.position)
    moves = list(p.legal_moves)
    side = p.side_to_play
    if args.json:
        print(json.dumps({"to_play": p.to_play, "side": None if side is None else SIDES[side],
                          "count": len(moves), "moves": [{"text": m.text(), **m.to_json()} for m in moves]}))
    else:
        text = (_("{point}: nobody (chance or end) to play, {count} legal moves") if side is None
                else _("{point}: {side} to play, {count} legal moves"))
        print(text.format(point=p.to_play, side=SIDES[side] if side is not None and current_language() == "en"
                          else side_noun(SIDES[side]) if side is not None else "", count=len(moves)))
        for m in moves:
            print(" ", m.text())
    return EXIT_OK


def _side(name: str) -> str:
    """A side in a sentence: the notation's word in English (``english``), the rulebook's in French (``les Anglais``)."""
    return name if current_language() == "en" else side_noun(name)


def cmd_check(args: argparse.Namespace) -> int:
    """Validate a position: every problem on its own line, field first; ``--json`` as data."""
    try:
        p = read_position(args.position)
    except ProblemsError as exc:
        if args.json:
            print(json.dumps({"valid": False, **exc.to_json()}, indent=1))
        else:
            print(_("{path}: invalid position").format(path=args.position), file=sys.stderr)
            for line in exc.lines():
                print(f"  {line}", file=sys.stderr)
            for w in exc.warnings:
                print("  " + _("warning: {field}: {message}").format(field=w.field, message=w), file=sys.stderr)
        return EXIT_INVALID
    warnings = p.warnings()
    if args.json:
        print(json.dumps({"valid": True, "notation": p.notation(), "problems": [],
                          "warnings": [w.to_json() for w in warnings]}, indent=1))
    else:
        print(_("{path}: valid ({point}, round {round})").format(path=args.position, point=p.to_play, round=p.round))
        for w in warnings:
            print("  " + _("warning: {field}: {message}").format(field=w.field, message=w))
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from .analysis import policy_named

    start = _start(args)
    names = _policy_pair(args.policies)
    policies = (policy_named(names[0]), policy_named(names[1]))
    seats = [Seat(side, member, "bot", policy=names[SIDES.index(side)],
                 weights_fingerprint=_weights_fingerprint(policies[SIDES.index(side)], start.rules))
             for side, member in seats_for(start.rules)]
    record = play_game(start, args.seed, policies, header=RecordHeader.new(start.rules, seats, seed=args.seed))
    data = record.to_json()
    if args.record:
        _write(args.record, json.dumps(data, indent=1).encode("utf-8"))
    if args.json:  # a whole game record: `storyboard` reads it
        print(json.dumps({"start": data["start"], "moves": data["moves"], "result": data["result"],
                          "rounds": data["rounds"]}))
    else:
        for e in data["moves"]:
            if e.get("chance"):
                print("  " + _("{point}: English draws {english}, French draws {french}").format(
                    point=e["to_play"], english="".join(e["english"]) or "-", french="".join(e["french"]) or "-"))
            else:
                print("  " + _("{point}: {side} plays {move}").format(point=e["to_play"], side=_side(e["side"]),
                                                                      move=e["move"]))
        r = record.final.result()
        verdict = {"draw": _("draw"), "english": _("english wins"), "french": _("french wins")}[r.winner]
        print(_("english {english} - french {french}: {verdict} after {rounds} rounds").format(
            english=r.english, french=r.french, verdict=verdict, rounds=data["rounds"]))
    return 0


def _weights_fingerprint(policy: Any, rules: Rules) -> str | None:
    """The fingerprint of the weights a learned policy plays under ``rules`` (a record says which network played),
    None for a policy without weights."""
    model_for = getattr(policy, "model_for", None)
    return weights_fingerprint(model_for(rules)) if model_for is not None else None


def _policy(name: str) -> None:
    """Refuse a policy name the registry does not know (or a search budget it cannot read), naming it."""
    from .analysis import policy_named

    try:
        policy_named(name)
    except ValueError as exc:
        raise Refused(str(exc)) from None


def _policy_pair(text: str) -> tuple[str, str]:
    """``--policies``: one policy for both sides, ``english,french``, or ``english=P,french=Q``."""
    parts = [x.strip() for x in text.split(",") if x.strip()]
    if parts and all("=" in x for x in parts):
        named = dict(x.split("=", 1) for x in parts)
        bad = set(named) - {"english", "french"}
        if bad:
            raise Refused(f"--policies names sides english and french, not {', '.join(sorted(bad))}")
        parts = [named.get("english", "uniform"), named.get("french", "uniform")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise Refused("--policies names one policy, two separated by a comma (english,french), "
                      "or english=P,french=Q")
    for name in parts:
        _policy(name)
    return parts[0], parts[1]


def _scheduler(address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or a refusal naming the address and why not."""
    from dask.distributed import Client

    try:
        return Client(address)
    except (OSError, ValueError, TypeError) as exc:  # a malformed address, or no scheduler answers there
        raise Refused(_("cannot reach the scheduler {address}: {error}").format(address=address, error=exc)) from None


#: Worker processes a command may start, to each local core: more only wait their turn, each holding
#: the engine and its compiled games in memory, so a mistyped huge --workers is refused, not started.
WORKERS_PER_CORE = 4


def _workers(text: str) -> int:
    """``--workers``: from 1 to :data:`WORKERS_PER_CORE` times the local cores (each option's help says so)."""
    return _number_option(numbers.whole, "--workers", 1, WORKERS_PER_CORE * (os.cpu_count() or 1))(text)


def _prepare_fast_path() -> None:
    """Compile the fast path first where numba's cache lacks a part of it (a first run), each part said on stderr
    as the panels say it: a first run's minutes of compiling, before its cost is measured or its games start, are
    never silent."""
    from .analysis import needs_compiling, prepare, preparing_message

    if needs_compiling():
        prepare(lambda step, done, total: print(preparing_message(step, done, total), file=sys.stderr, flush=True))


def cmd_analyse(args: argparse.Namespace) -> int:
    from .analysis import ExactOutOfReach, NotExact, TooLong, check_games, execute, plan, sampling_seconds

    p = _start(args)
    policies = _policy_pair(args.policies)
    method = "exact" if args.exact else ("sample" if args.samples else "auto")
    try:
        chosen = plan(p, policies, method, games=args.samples or 2000, force=args.force,
                      arithmetic="float" if args.float else None)
        # games the engine plays (a search) are slow: spread over the cores by default; compiled games (uniform,
        # the heuristic) play thousands a second here, sooner than worker processes start and load them
        workers = args.workers or ((os.cpu_count() or 1) if chosen.spread else 1)
        if not args.scheduler:  # past half an hour of games on these cores: refused unless --force confirms it
            check_games(p, chosen, workers, args.force)
        if chosen.method == "sample":  # compiled games, or a search's compiled rollouts
            _prepare_fast_path()
        if chosen.spread:  # the engine's games take minutes where compiled ones take a second: said first
            print(_("{games} games played by the engine: {duration} on one core (Ctrl-C stops)").format(
                games=plain_count(chosen.games), duration=plain_duration(sampling_seconds(p, policies, chosen.games))),
                file=sys.stderr)
        if args.scheduler:  # a Dask cluster: the same games as here, spread over its workers
            with _scheduler(args.scheduler) as client:
                result = execute(p, chosen, args.seed, executor=client.get_executor())
        elif workers > 1 and chosen.method == "sample":
            from .analysis import process_pool  # started safely after compiled games (see there)

            with process_pool(workers) as pool:
                result = execute(p, chosen, args.seed, executor=pool)
        else:
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
        from .render.report import analysis_report

        _write(args.report, analysis_report(p, {str(p.rules): result}, seed=None if result.exact else args.seed)
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


def cmd_diagram(args: argparse.Namespace) -> int:
    from .render.seating import seating_svg
    from .render.svg import caption_problem, diagram

    p = read_position(args.position)
    problem = caption_problem(args.caption) if args.caption is not None else None
    if problem is not None:  # the diagram export's one check, whatever the format
        raise Refused(problem)
    if args.seating:
        picture = seating_svg(p, show_hands=not args.hide_hands, caption=args.caption)
    else:
        picture = diagram(p, show_hands=not args.hide_hands, caption=args.caption, show_winners=args.winners)
    try:
        picture.save(args.output, scale=args.scale)
    except (ValueError, OSError) as exc:
        raise Refused(f"{args.output}: {exc}") from None
    print(_("wrote {path}").format(path=args.output))
    return 0


def _write(path: str, data: bytes) -> None:
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise Refused(_("cannot write {path}: {error}").format(path=path, error=exc.strerror or exc)) from None


def read_record(path: str) -> Any:
    """The game record of a file (``play --record``), or a :class:`Refused` naming the file and the field."""
    from .engine import GameRecord

    _regular_file(path)
    try:
        with open(path, encoding="utf-8") as fh:
            return GameRecord.from_json(fh.read(MAX_TEXT * 64))
    except OSError as exc:
        raise Refused(_("cannot read {path}: {error}").format(path=path, error=exc.strerror or exc)) from None
    except (ValueError, KeyError, TypeError, IllegalMove) as exc:
        what = _("missing field {field}").format(field=exc) if isinstance(exc, KeyError) else str(exc)
        raise Refused(_("{path} is not a game record (the JSON of `play --record` or `play --json`): {error}").format(
            path=path, error=what)) from None


def cmd_storyboard(args: argparse.Namespace) -> int:
    from .render.storyboard import storyboard, write_storyboard

    record = read_record(args.record)
    try:
        viewer = None if args.player is None else SIDES.index(args.player)
        written = write_storyboard(storyboard(record, viewer=viewer), args.output)
    except (ValueError, OSError) as exc:
        raise Refused(f"{args.output}: {exc}") from None
    where = args.output if len(written) == 1 else ngettext("{count} SVG file in {folder}", "{count} SVG files in {folder}",
                                                            len(written)).format(count=len(written), folder=args.output)
    print(_("wrote {path}").format(path=where))
    return 0


def cmd_rulebook(args: argparse.Namespace) -> int:
    """The rulebook of a rule set, every example replayed under it, and its diff against the preset."""
    from .analysis import build_rulebook
    from .render.rulebook import write_rulebook

    if not args.output and not args.json:
        raise Refused(_("rulebook: give -o FILE.pdf, FILE.html or DIR/, or --json"))
    book = build_rulebook(_rules_arg(args.rules), current_language())
    out = sys.stderr if args.json else sys.stdout
    if args.json:
        data = book.to_json()
        print(json.dumps({"sections": data["sections"], "diff": data["diff"]}, ensure_ascii=False, indent=1))
    else:
        for entry in book.diff:
            row = entry.to_json(book.lang)
            print(_("changed: {section}, {example}: {before} → {after}").format(**row))
    if args.output:
        try:
            written = write_rulebook(book, args.output, args.paper)
        except (ValueError, OSError) as exc:
            raise Refused(f"{args.output}: {exc}") from None
        print(_("wrote {path}").format(path=", ".join(map(str, written))), file=out)
    return 0


def cmd_skill(args: argparse.Namespace) -> int:
    """Rule sets by skill level from the opening: metrics with intervals, and the conclusions that change."""
    from .analysis import Metric
    from .analysis import Cancelled, cost_line, level_games, level_name, skill_cost, skill_levels

    rule_sets = _rules_list(args.rules)
    presets = [str(r) for r in rule_sets]
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    if not levels:
        raise Refused(_("--levels names no level: give policies separated by commas, like uniform,heuristic,search:100"))
    for name in levels:
        _policy(name)
    games = {lv: level_games(lv, args.games) for lv in levels}
    start = Position.start(rule_sets[0])
    _prepare_fast_path()
    for level, n, seconds in skill_cost(start, rule_sets, games):
        print(cost_line(level, n, len(rule_sets), seconds), file=sys.stderr)
    bar = _Bar()

    def on_games(done: int, total: int) -> None:
        bar(_("{done} of {total} games").format(done=plain_count(done), total=plain_count(total)))

    workers = args.workers or os.cpu_count() or 1
    try:
        if workers > 1:
            from .analysis import process_pool  # started safely after compiled games (see there)

            with process_pool(workers) as pool:
                table = skill_levels(start, rule_sets, presets, levels, games=games, seed=args.seed, executor=pool,
                                     on_games=on_games, force=args.force)
        else:
            table = skill_levels(start, rule_sets, presets, levels, games=games, seed=args.seed, on_games=on_games,
                                 force=args.force)
    except Cancelled:
        raise KeyboardInterrupt from None
    if args.json:
        print(json.dumps({"rows": table.rows(), "changes": table.changes()}, indent=1))
        return EXIT_OK
    for c in table.cells:
        m = c.metric  # its name as the game spells it, its verdict against what it is read against
        print(f"{c.label:14s} {level_name(c.level):12s} {Metric.label_of(m.name):22s} {m.value:8.3f} "
              f"[{m.low:.3f}, {m.high:.3f}]  {table.verdict_words(c)}")
    print(_("conclusions that change with skill:") if table.changes() else _("no conclusion changes with skill"))
    for line in table.changes():
        print("  " + line)
    return EXIT_OK


def _executor_for(args: argparse.Namespace, engine_played: bool) -> Any:
    """Where a balance search or a ladder spreads the games the engine plays: a Dask cluster (``--scheduler``),
    the local cores (``--workers``, by default all of them when the engine plays), else this process (None).
    A context manager in every case."""
    import contextlib

    if args.scheduler:
        return _ClientExecutor(_scheduler(args.scheduler))
    workers = args.workers or ((os.cpu_count() or 1) if engine_played else 1)
    if workers > 1:
        from .analysis import process_pool  # started safely after compiled games (see there)

        return process_pool(workers)
    return contextlib.nullcontext(None)


class _ClientExecutor:
    """A Dask client as a context manager that yields its executor and closes the client after."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def __enter__(self) -> Any:
        return self.client.get_executor()

    def __exit__(self, *exc: object) -> None:
        self.client.close()


class _Bar:
    """Progress on standard error with the time left, at most every :attr:`every` seconds."""

    def __init__(self, every: float = 2.0) -> None:
        import time

        self.clock, self.every, self.last = time.monotonic, every, -every

    def __call__(self, line: str) -> None:
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            print(line, file=sys.stderr, flush=True)


def _ladder(text: str) -> list[str]:
    levels = [x.strip() for x in text.split(",") if x.strip()]
    for name in levels:
        _policy(name)
    if len(levels) < 2:
        raise Refused(_("--levels needs at least two levels, weakest first: uniform,heuristic"))
    return levels


def _shown_metric(m: Any) -> str:
    """``0.510 [0.461, 0.559]`` (in the language's decimals)."""
    return "-" if m is None else plain_estimate(m.value, m.low, m.high)


def cmd_balance(args: argparse.Namespace) -> int:
    """Search rules parameters for settings that meet targets; the best and the alternatives, fewest changes first."""
    from .analysis import (Space, SpaceError, TargetError, balance_search, default_ladder, engine_plays, estimate_search,
                           parse_targets)

    preset = _rules_arg(args.rules)
    try:
        space = Space.parse(preset, args.vary or [])
        targets = parse_targets(args.target or [])
    except (SpaceError, TargetError) as exc:
        raise Refused(str(exc)) from None
    policies = _policy_pair(args.policies)
    precision = args.precision
    ladder = _ladder(args.levels) if args.levels else list(default_ladder())
    depth = any(t.name == "depth" for t in targets)
    _prepare_fast_path()
    cost = estimate_search(space, targets, policies, args.games, args.trials, ladder if depth else ())
    print(_("at most {candidates} candidates of {size} x {each} games = {games} games, {duration} on one core "
            "(racing stops most poor candidates after a quarter of their games)").format(
        candidates=cost.candidates, size=space.size, each=plain_count(cost.games_each), games=plain_count(cost.games),
        duration=plain_duration(cost.seconds)), file=sys.stderr)
    bar = _Bar()

    def progress(p: Any) -> None:
        left = p.seconds_left
        bar(_("candidate {number} of {count} ({label}): {played} of at most {planned} games, {left} left").format(
            number=p.candidate, count=p.candidates, label=p.label, played=plain_count(p.played), planned=plain_count(p.planned),
            left=plain_duration(left) if left is not None else "?"))

    engine_played = engine_plays((*policies, *(ladder if depth else ())))
    try:
        with _executor_for(args, engine_played) as executor:
            result = balance_search(space, targets, policies, args.games, args.trials, args.seed, args.store, executor,
                             ladder if depth else (), progress, precision, force=args.force)
    except OSError as exc:
        raise Refused(_("cannot use the store {path}: {error}").format(path=args.store, error=exc.strerror or exc)) \
            from None
    except KeyboardInterrupt:
        if args.store:
            print(_("the finished candidates are kept in {path}: the same command continues the search").format(
                path=args.store), file=sys.stderr)
        raise
    if args.csv:
        _write_csv(args.csv, result.rows())
    if args.report:
        from .render.balance_report import balance_report

        _write(args.report, balance_report(result, alternatives=args.show).encode("utf-8"))
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
        print(f"    {t.name:12s} {_shown_metric(m):28s} {t}  {mark}")


def _write_csv(path: str, rows: list[dict[str, Any]]) -> None:
    import csv
    import io

    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    _write(path, out.getvalue().encode("utf-8"))


def cmd_depth(args: argparse.Namespace) -> int:
    """A rule set's skill ladder: each level against the one below in both seats, the chain, weaker wins, luck."""
    from .analysis import Cancelled, default_ladder, engine_plays, ladder_cost, skill_depth

    rules = _rules_arg(args.rules)
    ladder = _ladder(args.levels) if args.levels else list(default_ladder())
    _prepare_fast_path()
    for weaker, stronger, games, seconds in ladder_cost(ladder, args.games, rules):
        print(_("{stronger} against {weaker}: {games} games (both seats), {duration} on one core").format(
            stronger=stronger, weaker=weaker, games=plain_count(games), duration=plain_duration(seconds)), file=sys.stderr)
    bar = _Bar()

    def progress(done: int, total: int) -> None:
        bar(_("{done} of {total} games").format(done=plain_count(done), total=plain_count(total)))

    engine_played = engine_plays(ladder)
    try:
        with _executor_for(args, engine_played) as executor:
            depth = skill_depth(rules, ladder, args.games, args.seed, executor, progress, force=args.force)
    except Cancelled:
        raise KeyboardInterrupt from None
    if args.json:
        print(json.dumps(depth.to_json(), indent=1))
        return EXIT_OK
    print(_("{rules}: ladder {levels}, a level beats the one below at a score of {beats} or more").format(
        rules=rules, levels=" < ".join(ladder), beats=0.55))
    for m in depth.matches:
        print("  " + _("{stronger} against {weaker}: score {score}, the weaker wins {wins}, luck share {luck}").format(
            stronger=m.stronger, weaker=m.weaker, score=_shown_metric(m.score),
            wins=_shown_metric(m.weaker_wins), luck=_shown_metric(m.luck)))
    print(depth.chain_text())
    print(_("the weaker level wins {wins} of the games; luck share {luck}").format(
        wins=_shown_metric(depth.weaker_wins), luck=_shown_metric(depth.luck)))
    return EXIT_OK


def _trained_rules(args: argparse.Namespace, resumed: Any) -> Rules:
    """The rules ``train`` trains for: ``--rules`` (else the resumed run's) with each ``--vary name=value``."""
    from .analysis import Space, SpaceError

    if args.rules:
        rules = _rules_arg(args.rules)
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


def _weights_run(args: argparse.Namespace, read: Any) -> tuple[Any, Rules, dict[str, float] | None]:
    """What ``train`` and ``improve`` start from: the run ``--resume`` names (read by ``read``), the rules it is
    for and ``--start``'s weights by feature; bad input refused in one line naming it."""
    from pathlib import Path

    from .analysis import weights_by_feature

    try:
        resumed = read(Path(args.resume)) if args.resume else None
        return resumed, _trained_rules(args, resumed), weights_by_feature(Path(args.start)) if args.start else None
    except ValueError as exc:
        raise Refused(str(exc)) from None


def cmd_train(args: argparse.Namespace) -> int:
    """Train the learned policy's weights for a rule set: the cost first, progress with the time left, a state saved
    after every generation (``--resume`` continues it), the weights file last."""
    from pathlib import Path

    from .analysis import TRAIN_DEFAULTS, cache_file, check_training, estimate_training, read_state, train, write_weights

    resumed, rules, start_from = _weights_run(args, read_state)
    saved = resumed.settings if resumed is not None else None
    seed = args.seed if args.seed is not None else saved.seed if saved else int(TRAIN_DEFAULTS["seed"])
    games = args.games or (saved.games if saved else int(TRAIN_DEFAULTS["games"]))
    popsize = args.popsize or (saved.popsize if saved else int(TRAIN_DEFAULTS["popsize"]))
    minutes = args.minutes if args.minutes is not None or args.generations else TRAIN_DEFAULTS["minutes"]
    seconds = None if minutes is None else minutes * 60
    out = Path(args.out) if args.out else cache_file(rules)
    state = Path(args.resume) if args.resume else out.with_name(out.name + ".state")
    shown_rules = rules.to_json() if isinstance(rules.to_json(), str) else json.dumps(rules.to_json(), separators=(",", ":"))
    try:
        check_training(rules, seed, seconds, args.generations, games, popsize, start_from=start_from, resume=resumed)
        _prepare_fast_path()  # before the pace is measured
        cost = estimate_training(rules, games, popsize, seconds, args.generations, args.workers or 1)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    print(ngettext("training strong for {rules}: {generations} generation of {games} games (measured here: {rate} "
                   "games a second), {duration} at that pace",
                   "training strong for {rules}: {generations} generations of {games} games (measured here: {rate} "
                   "games a second), {duration} at that pace", cost.generations).format(
        rules=shown_rules, generations=plain_count(cost.generations), games=plain_count(cost.games_a_generation),
        rate=plain_count(round(cost.games_per_second)), duration=plain_duration(cost.seconds)), file=sys.stderr)
    bar = _Bar()

    def progress(p: Any) -> None:  # until a generation is timed, the pace measured before the start
        left = p.seconds_left if p.seconds_left is not None else max(0.0, cost.seconds - p.seconds)
        bar(_("generation {number} of {planned} (candidate {candidate} of {popsize}): best {best:.3f} against the "
              "heuristic and the starting weights, {left} left").format(
            number=p.generation + 1, planned=p.generations if p.generations is not None else cost.generations,
            candidate=p.candidate, popsize=p.popsize, best=p.best, left=plain_duration(left)))

    try:
        with _executor_for(args, args.workers is not None and args.workers > 1) as executor:
            result = train(rules, seed, seconds, games, popsize, generations=args.generations, start_from=start_from,
                           executor=executor, progress=progress, state=state, resume=resumed)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    except KeyboardInterrupt:
        print(_("the run is saved after each generation in {state}: --resume {state} continues it").format(state=state)
              if state.exists() else _("stopped before its first generation: nothing to resume"), file=sys.stderr)
        raise
    write_weights(out, result, shown_rules, seed, games, Path(args.start) if args.start else None, popsize)
    policy = f"strong@{out}"
    if args.json:
        print(json.dumps({"weights_file": str(out), "state": str(state), "policy": policy, "rules": rules.to_json(),
                          "seed": seed, "generations": result.generations,
                          "validation_score": result.score,
                          "weights": json.loads(out.read_text(encoding="utf-8"))["weights"]}, indent=1))
    else:
        print(_("wrote {path}: {generations} generations, validation score {score:.3f} against the heuristic and the "
                "starting weights; play it with --policies {policy}").format(
            path=out, generations=result.generations, score=result.score, policy=policy))
    return EXIT_OK


def cmd_improve(args: argparse.Namespace) -> int:
    """Improve the learned policy's weights by its own search (expert iteration): the cost first, progress with
    the time left, the run saved after every iteration (``--resume`` continues it), the weights file last."""
    from pathlib import Path

    from .analysis import (IMPROVE_DEFAULTS, ImproveRun, cache_file, check_improve, estimate_improve, improve,
                           write_improved)

    resumed, rules, start_from = _weights_run(args, ImproveRun.read)
    saved = resumed.settings if resumed is not None else None
    seed = args.seed if args.seed is not None else saved.seed if saved else int(IMPROVE_DEFAULTS["seed"])
    games = args.games or (saved.games if saved else int(IMPROVE_DEFAULTS["games"]))
    iterations = args.iterations or int(IMPROVE_DEFAULTS["iterations"])
    out = Path(args.out) if args.out else cache_file(rules)
    state = Path(args.resume) if args.resume else out.with_name(out.name + ".improve")
    shown_rules = rules.to_json() if isinstance(rules.to_json(), str) else json.dumps(rules.to_json(), separators=(",", ":"))
    try:
        check_improve(rules, seed, iterations, games, start_from)
        _prepare_fast_path()  # before the pace is measured
        done = resumed.iteration if resumed is not None else 0
        seconds = estimate_improve(rules, iterations - done, games, args.workers or 1)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    print(_("improving strong for {rules}: {iterations} iterations of {games} self-play games, each placement valued "
            "by the search; {duration} at the pace measured here").format(
        rules=shown_rules, iterations=iterations, games=plain_count(games), duration=plain_duration(seconds)), file=sys.stderr)
    bar = _Bar()

    def progress(p: Any) -> None:
        left = p.seconds_left if p.seconds_left is not None else max(0.0, seconds - p.seconds)
        bar(_("iteration {number} of {planned} (game {game} of {games}): best {best:.3f} against the heuristic and "
              "the starting weights, {left} left").format(
            number=p.iteration + 1, planned=p.iterations, game=p.game, games=plain_count(p.games), best=p.best,
            left=plain_duration(left)))

    try:
        with _executor_for(args, args.workers is not None and args.workers > 1) as executor:
            result = improve(rules, seed, iterations, games, start_from=start_from, executor=executor,
                             progress=progress, state=state, resume=resumed,
                             start_name=Path(args.start).name if args.start else None)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    except KeyboardInterrupt:
        print(_("the run is saved after each iteration in {state}: --resume {state} continues it").format(state=state)
              if state.exists() else _("stopped before its first iteration: nothing to resume"), file=sys.stderr)
        raise
    # a resumed run names the file its first part started from, which its state keeps
    start = args.start or (resumed.start if resumed is not None else None)
    write_improved(out, result, shown_rules, seed, games, iterations, Path(start) if start else None)
    policy = f"strong@{out}"
    if args.json:
        print(json.dumps({"weights_file": str(out), "state": str(state), "policy": policy, "rules": rules.to_json(),
                          "seed": seed, "iteration": result.generations, "validation_score": result.score,
                          "weights": json.loads(out.read_text(encoding="utf-8"))["weights"]}, indent=1))
    else:
        print(_("wrote {path}: the weights of iteration {iteration}, validation score {score:.3f} against the heuristic "
                "and the starting weights; play it with --policies {policy}").format(
            path=out, iteration=result.generations, score=result.score, policy=policy))
    return EXIT_OK


def cmd_style(args: argparse.Namespace) -> int:
    """How each skill level plays a rule set: bluffs, cards at an opening, hero timing, conceding, castles chosen."""
    from .analysis import Cancelled, cost_line, play_styles, style_cost
    from .render.style import style_csv, style_rows

    rule_sets = _rules_list(args.rules)
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    if not levels:
        raise Refused(_("--levels names no level: give policies separated by commas, like uniform,heuristic,search:100"))
    for name in levels:
        _policy(name)
    _prepare_fast_path()
    for level, games, seconds in style_cost(levels, args.games, rule_sets):
        print(cost_line(level, games, len(rule_sets), seconds), file=sys.stderr)
    bar = _Bar()

    def progress(done: int, total: int) -> None:
        bar(_("{done} of {total} games").format(done=plain_count(done), total=plain_count(total)))

    try:
        styles = play_styles(rule_sets, levels, args.games, args.seed, progress, force=args.force)
    except Cancelled:
        raise KeyboardInterrupt from None
    if args.csv:
        _write(args.csv, style_csv(styles).encode("utf-8"))
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


def _playtest_records(paths: list[str]) -> tuple[list[tuple[str, Any]], list[tuple[str, str]]]:
    """The records of ``paths`` (files and folders) and the bad ones, each named on standard error with its
    problem while the rest are kept.  A Refused when none can be read."""
    from .engine import read_records

    good, bad = read_records(paths)
    for name, problem in bad:
        print(_("skipped {file}: {problem}").format(file=name, problem=problem), file=sys.stderr)
    if not good:
        raise Refused(_("no game record could be read from {paths}").format(paths=", ".join(paths)))
    return good, bad


def cmd_playtest_report(args: argparse.Namespace) -> int:
    """People's recorded games read against the bots: each decision's loss, each draw's luck, the players."""
    from .analysis import Cancelled, PlaytestError, budget_of, playtest_report, reading_cost

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
    bar, started = _Bar(), time.monotonic()

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
        _write_csv(args.csv, report.rows())
    if args.report:
        from .render.playtest_report import playtest_html

        _write(args.report, playtest_html(report).encode("utf-8"))
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
        return EXIT_OK
    for sentence in report.sentences():
        print("- " + sentence)
    return EXIT_OK


def cmd_playtest_persona(args: argparse.Namespace) -> int:
    """``strong``'s weights fitted to people's recorded placements, written as a weights file (``persona@FILE``)."""
    import pathlib

    from .analysis import PlaytestError, fit_persona

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


def cmd_solve(args: argparse.Namespace) -> int:
    """Equilibrium of an open-hand endgame: value, first-decision mix, policies' exploitability, size."""
    from .analysis import policy_named
    from .analysis import OptimalSolver, exploitability, solve_position, why_not_solvable

    p = read_position(args.position)
    names = [n.strip() for n in args.policies.split(",") if n.strip() and n.strip() != "none"]
    for name in names:
        _policy(name)
    reason = why_not_solvable(p)
    if reason:
        raise Refused(reason)
    solver = OptimalSolver(p.rules, args.objective)
    result = solve_position(p, args.objective, solver)
    if names and p.to_play == "open_first":
        result.exploitability = exploitability(p, {n: policy_named(n) for n in names}, solver,
                                               budget_seconds=args.budget)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return EXIT_OK
    what = _("P(win), a draw counting half") if args.objective == "win" else _("expected score difference")
    print(_("{rules}, round {round}, {point}: value ({what}) of {scope}").format(
        rules=p.rules, round=p.round, point=p.to_play, what=what, scope=_(result.scope)))
    print("  " + _("English {english}   French {french}").format(english=f"{result.side_value(0):.4f}",
                                                                  french=f"{result.side_value(1):.4f}"))
    print(_("equilibrium mix of {side} at {point}:").format(side=_side(result.side_to_play), point=p.to_play))
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
            side=_side(e.policy_side), value=got)
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


def cmd_puzzles(args: argparse.Namespace) -> int:
    """Puzzles from game records and seeded bot games: each verified, its solution a storyboard in every language.
    A record that cannot be read is named on stderr (file and field) and the others are still read (exit 1)."""
    import pathlib

    from .analysis import PuzzleFinder, puzzles_from_bot_games
    from .render.storyboard import storyboard, write_storyboard

    if not args.records and args.from_games is None:
        raise Refused(_("give game records (the JSON of `play --record`), or --from-games to play them"))
    if args.wanted is not None and args.from_games is None:
        raise Refused(_("--wanted counts the puzzles of bot games: give --from-games too"))
    records, failed = [], 0
    for path in args.records:
        try:
            records.append((path, read_record(path)))
        except Refused as exc:
            print(_("skipped: {reason}").format(reason=exc), file=sys.stderr)
            failed += 1
    finder = PuzzleFinder(args.margin, args.games, args.seed)
    found = [pz for name, record in records for pz in finder.find(record, name)]
    if args.from_games is not None:  # 0: --from-games without N, the analysis' cap
        given = {"wanted": args.wanted, "most": args.from_games or None}
        bots, played = puzzles_from_bot_games(_rules_arg(args.rules or "advanced"), seed=args.seed, finder=finder,
                                              **{k: v for k, v in given.items() if v is not None})
        found += bots
        print(ngettext("{count} bot game played", "{count} bot games played", played).format(
            count=plain_count(played)), file=sys.stderr)
    out = pathlib.Path(args.output)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for k, pz in enumerate(found, start=1):
            for lang in LANGUAGES:
                write_storyboard(storyboard(pz.record(), lang=lang), out / f"puzzle-{k:03d}" / lang)
        data = [pz.to_json() for pz in found]
        (out / "puzzles.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    except OSError as exc:
        raise Refused(_("cannot write {path}: {error}").format(path=out, error=exc.strerror or exc)) from None
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        for k, pz in enumerate(found, start=1):
            print(_("{number}. {source}: {side} at {point}, round {round}: {move} ({tags}; {method})").format(
                number=k, source=pz.source, side=_side(SIDES[pz.side]), point=pz.position.to_play,
                round=pz.position.round, move=pz.solution.text(), tags=", ".join(pz.tags),
                method=_("exact") if pz.method == "exact" else _("search")))
        print(ngettext("{count} puzzle, storyboards and puzzles.json in {folder}",
                       "{count} puzzles, storyboards and puzzles.json in {folder}", len(found)).format(
            count=len(found), folder=out))
    return EXIT_INVALID if failed else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="guyenne-explore", description=_("Explore the rules of Guyenne."),
                                 epilog=_("A POSITION is a file of JSON (RULES.md section 10) or of the one-line "
                                          "notation, or - for standard input.") + "\n\n" + exit_codes(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", choices=LANGUAGES, help=_("the language of messages, diagrams and storyboards: "
                                                      "en or fr (default: the locale's if French, else English)"))
    sub = ap.add_subparsers(dest="command", required=True)
    # measured (guyenne-explore depth --levels strong,search:400, one core): 0.25 s a game in advanced, 0.5 in classic2021
    search_cost = _("a search game takes about 0.1 to 0.5 s, at search:100 to search:400")
    m = sub.add_parser("moves", help=_("list the legal moves of a position"))
    m.add_argument("position")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_moves)
    c = sub.add_parser("check", help=_("validate a position and name every problem (exit 1 when invalid)"),
                       epilog=exit_codes(), formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("position")
    c.add_argument("--json", action="store_true", help=_("print the problems as data: code, field, message"))
    c.set_defaults(func=cmd_check)
    for name, func, help_ in (("play", cmd_play, _("play a seeded game, uniform-random unless --policies says")),
                              ("analyse", cmd_analyse, _("outcome distribution, exact or sampled"))):
        s = sub.add_parser(name, help=help_)
        s.add_argument("position", nargs="?")
        s.add_argument("--rules", help=_("preset name or rules JSON, when no position is given"))
        s.add_argument("--seed", type=_seed, default=0)
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)
        if name == "play":
            s.add_argument("--record", metavar="FILE", help=_("write the game record as JSON (read by `storyboard`)"))
            s.add_argument("--policies", default="uniform,uniform",
                           help=_("the bots: one policy, english,french, or english=heuristic,french=strong "
                                  "(uniform, heuristic, strong, strong@FILE, search:N); the record's header names them"))
        if name == "analyse":
            s.add_argument("--exact", action="store_true")
            s.add_argument("--force", action="store_true",
                           help=_("enumerate exactly even when the estimate says it will take long (Ctrl-C stops it)"))
            s.add_argument("--float", action="store_true",
                           help=_("sum endgames in float64: the same distribution to rounding, much sooner, no p_exact"))
            s.add_argument("--samples", type=_number_option(numbers.whole, "--samples", 1, MAX_GAMES),
                           help=_("sample this many games (1 to 10,000,000)"))
            s.add_argument("--policies", default="uniform,uniform",
                           help=_("one policy, english,french, or english=search:200,french=heuristic "
                                "(uniform, heuristic, strong, strong@FILE, search[:ROLLOUTS | :MSms])"))
            _parallel_options(s, _("processes for sampled games (default: the local cores for the search; "
                                   "at most {per} to a local core)"))
            s.add_argument("--report", metavar="FILE.html",
                           help=_("also write a one-file HTML report: position, rules, figures, metrics"))
    d = sub.add_parser("diagram", help=_("draw a position as SVG, PNG or PDF (no system library needed)"))
    d.add_argument("position")
    d.add_argument("-o", "--output", required=True)
    d.add_argument("--hide-hands", action="store_true", help=_("draw hidden cards as backs (a public view)"))
    d.add_argument("--caption")
    d.add_argument("--winners", action="store_true", help=_("mark the winner of each battle the diagram shows"))
    d.add_argument("--seating", action="store_true", help=_("draw where the players sit (the team game)"))
    d.add_argument("--scale", type=_scale, default=1.0, help=_("size factor of a PNG or PDF output"))
    d.set_defaults(func=cmd_diagram)
    sb = sub.add_parser("storyboard", help=_("a game record as pictures: a PDF, a .zip of SVGs or a folder of SVGs"),
                        description=_("One diagram per step that matters (placements face down, the reveal, battle "
                                    "winners, removals, draws), each captioned with what happened and the section "
                                    "of RULES.md that applies."))
    sb.add_argument("record", help=_("a game record: the JSON of `play --record FILE` or `play --json`"))
    sb.add_argument("-o", "--output", required=True, help=_("FILE.pdf, FILE.zip, or a folder (DIR/) for SVG files"))
    sb.add_argument("--player", choices=SIDES, help=_("draw the game as this side saw it: the other side's hand and "
                                                   "unrevealed cards stay face down (default: every card face up)"))
    sb.set_defaults(func=cmd_storyboard)
    rb = sub.add_parser("rulebook", help=_("the rulebook of a rule set: its text with the variant's numbers, every "
                                           "example replayed by the engine, and what changes from the preset"))
    rb.add_argument("--rules", default="base", help=_("preset name or rules JSON"))
    rb.add_argument("--lang", choices=LANGUAGES, help=_("the rulebook's language: en or fr"))
    rb.add_argument("-o", "--output", help=_("FILE.pdf, FILE.html, or a folder (DIR/) for both"))
    rb.add_argument("--paper", choices=("a4", "letter"), default="a4", help=_("the PDF's paper size"))
    rb.add_argument("--json", action="store_true", help=_("print the sections and the diff as JSON"))
    rb.set_defaults(func=cmd_rulebook)
    so = sub.add_parser("solve", help=_("optimal play in an open-hand endgame (no side can draw again)"))
    so.add_argument("position")
    so.add_argument("--json", action="store_true")
    so.add_argument("--objective", choices=("win", "score"), default="win",
                    help=_("win: P(win) with a draw counting half; score: expected score difference"))
    so.add_argument("--policies", default="uniform,heuristic",
                    help=_("policies whose best response is measured (comma-separated, or none)"))
    so.add_argument("--budget", type=_number_option(numbers.decimal, "--budget", 0.1, 86_400), default=60.0,
                    help=_("seconds allowed for each best response (0.1 to 86,400: a day)"))
    so.set_defaults(func=cmd_solve)
    pz = sub.add_parser("puzzles", help=_("puzzles from game records: positions where one move is clearly best, "
                                          "verified by the open-hand solver or the search"))
    pz.add_argument("records", nargs="*", help=_("game records: the JSON of `play --record FILE`"))
    pz.add_argument("-o", "--output", required=True, help=_("a folder for puzzles.json and each puzzle's storyboards"))
    pz.add_argument("--from-games", type=_number_option(numbers.whole, "--from-games", 1, 10_000), metavar="N",
                    nargs="?", const=0,
                    help=_("also play seeded games, the heuristic against strong, one at a time until --wanted puzzles "
                           "are found or N games are played (1 to 10,000; without N, as many as a preset needs for 50 "
                           "puzzles, within a cap)"))
    pz.add_argument("--wanted", type=_number_option(numbers.whole, "--wanted", 1, 10_000),
                    help=_("the puzzles --from-games plays for (1 to 10,000; default 50)"))
    pz.add_argument("--rules", help=_("preset name or rules JSON of --from-games (default advanced)"))
    pz.add_argument("--seed", type=_seed, default=0)
    pz.add_argument("--margin", type=_number_option(numbers.decimal, "--margin", 0, 1), default=0.05,
                    help=_("how far the best move's 95%% interval must lie above every other's (0 to 1)"))
    pz.add_argument("--games", type=_number_option(numbers.whole, "--games", 20, 100_000), default=400,
                    help=_("the search's rollouts for each candidate move (20 to 100,000)"))
    pz.add_argument("--json", action="store_true")
    pz.set_defaults(func=cmd_puzzles)
    sk = sub.add_parser("skill", help=_("rule sets by skill level (uniform, heuristic, strong, search) from the opening"))
    sk.add_argument("--rules", default="base,advanced", help=_("presets or rules JSON, comma-separated; the first is "
                    "the reference"))
    sk.add_argument("--levels", default=DEFAULT_LADDER, help=_("skill levels, weakest first ({search_cost})").format(
        search_cost=search_cost))
    sk.add_argument("--games", type=_games, default=400, help=_("games a rule set and level (a tenth for search)"))
    sk.add_argument("--seed", type=_seed, default=0)
    sk.add_argument("--workers", type=_workers, metavar="N",
                    help=_("processes (default: the local cores; at most {per} to a local core)").format(
                        per=WORKERS_PER_CORE))
    sk.add_argument("--json", action="store_true")
    sk.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    sk.set_defaults(func=cmd_skill)
    ba = sub.add_parser("balance", help=_("search rules parameters for settings that meet targets (optuna, racing, "
                                          "common random numbers)"))
    ba.add_argument("--rules", default="base", help=_("the preset or rules JSON the search starts from"))
    ba.add_argument("--vary", action="append", metavar="PARAM=LOW:HIGH",
                    help=_("a parameter to vary: hand_size=5:7, removal=none,advanced, or removal for every choice "
                           "(repeat for several)"))
    ba.add_argument("--target", action="append", metavar="NAME=LOW:HIGH",
                    help=_("a wanted range: advantage=0.48:0.52, draws=:0.05, rounds=6:10, sweeps=:0.1, depth=2: "
                           "(repeat for several)"))
    ba.add_argument("--policies", default="uniform", help=_("the level of play: uniform, heuristic, strong, search:N, "
                                                             "or english,french"))
    ba.add_argument("--levels", help=_("the ladder a depth target is read on, weakest first (default: {ladder})")
                    .format(ladder=DEFAULT_LADDER))
    ba.add_argument("--games", type=_games, default=400, help=_("games a candidate at most (the same deals for all)"))
    ba.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    ba.add_argument("--trials", type=_number_option(numbers.whole, "--trials", 1, 10_000), default=30,
                    help=_("candidates to try (every one when the space is no larger)"))
    ba.add_argument("--seed", type=_seed, default=0)
    ba.add_argument("--store", metavar="FILE", help=_("keep the trials in this file; the same command continues "
                                                    "the search"))
    ba.add_argument("--show", type=_number_option(numbers.whole, "--show", 0, 1000), default=5,
                    help=_("alternatives shown"))
    ba.add_argument("--csv", metavar="FILE", help=_("also write every candidate tried as CSV"))
    ba.add_argument("--report", metavar="FILE", help=_("also write a one-page HTML report: the question, the best "
                                                     "settings with their intervals, the trade-off figure, the "
                                                     "command that reproduces it"))
    _parallel_options(ba, _("processes for games the engine plays (default: the local cores when the engine plays; "
                                "at most {per} to a local core)"))
    ba.add_argument("--precision", type=_number_option(numbers.decimal, "--precision", 0.001, 0.5), metavar="HALF_WIDTH",
                    help=_("after the search, play the best candidate on (the same deals for all) until each "
                           "target's 95-percent interval is this narrow either side, e.g. 0.02"))
    ba.add_argument("--json", action="store_true")
    ba.set_defaults(func=cmd_balance)
    de = sub.add_parser("depth", help=_("skill depth and luck: a ladder of skill levels, each against the one below "
                                        "in both seats"))
    de.add_argument("--rules", default="base", help=_("preset name or rules JSON"))
    de.add_argument("--levels", help=_("the ladder, weakest first (default: {ladder}; {search_cost})").format(
        ladder=DEFAULT_LADDER, search_cost=search_cost))
    de.add_argument("--games", type=_games, default=200, help=_("deals a match, each played in both seats (a tenth "
                                                               "where a search plays)"))
    de.add_argument("--seed", type=_seed, default=0)
    _parallel_options(de, _("processes for games the engine plays (default: the local cores when the engine plays; "
                                "at most {per} to a local core)"))
    de.add_argument("--json", action="store_true")
    de.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    de.set_defaults(func=cmd_depth)
    st = sub.add_parser("style", help=_("how each skill level plays: bluffs, cards at an opening, hero timing, "
                                        "conceding, castles chosen"))
    st.add_argument("--rules", default="advanced", help=_("preset names or rules JSON, separated by commas"))
    st.add_argument("--levels", default="uniform,heuristic,strong",
                    help=_("skill levels, weakest first ({search_cost})").format(search_cost=search_cost))
    st.add_argument("--games", type=_games, default=400, help=_("games a level, each level against itself"))
    st.add_argument("--seed", type=_seed, default=0)
    st.add_argument("--csv", metavar="FILE", help=_("also write every measure as CSV"))
    st.add_argument("--json", action="store_true")
    st.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    st.set_defaults(func=cmd_style)
    tr = sub.add_parser("train", help=_("train the learned policy strong for a rule set (CMA-ES; cancellable, resumable)"))
    tr.add_argument("--rules", help=_("the preset or rules JSON to train for (default with --resume: the run's)"))
    _vary_option(tr)
    tr.add_argument("--seed", type=_seed, help=_("the seed: the same seed and generations give the same weights "
                                               "(default 1)"))
    budget = tr.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=_number_option(numbers.decimal, "--minutes", 0.1, 10_080),
                        help=_("train this long (default 10)"))
    budget.add_argument("--generations", type=_number_option(numbers.whole, "--generations", 1, 1_000_000),
                        help=_("train this many generations (counted from the run's start)"))
    tr.add_argument("--games", type=_games, help=_("games a seat for each candidate and opponent (default 200)"))
    tr.add_argument("--popsize", type=_number_option(numbers.whole, "--popsize", 2, 1000),
                    help=_("candidates a generation (default 12)"))
    _weights_files(tr)
    tr.add_argument("--resume", metavar="STATE", help=_("continue the run saved in STATE (written beside the weights "
                                                      "file after each generation)"))
    _parallel_options(tr, _("processes that score a generation's candidates (default: this one; at most {per} to a "
                            "local core)"), _("a Dask scheduler (tcp://host:8786): score the candidates on its workers"))
    tr.add_argument("--json", action="store_true")
    tr.set_defaults(func=cmd_train)
    im = sub.add_parser("improve", help=_("improve strong's weights by its own search: self-play whose placements the "
                                          "search values, then a fit (cancellable, resumable)"))
    im.add_argument("--rules", help=_("the preset or rules JSON to improve for (default with --resume: the run's)"))
    _vary_option(im)
    im.add_argument("--seed", type=_seed, help=_("the seed: the same seed and iterations give the same weights "
                                               "(default 1)"))
    im.add_argument("--iterations", type=_number_option(numbers.whole, "--iterations", 1, 1000),
                    help=_("iterations, counted from the run's start (default 1)"))
    im.add_argument("--games", type=_games, help=_("self-play games an iteration (default 200)"))
    _weights_files(im)
    im.add_argument("--resume", metavar="STATE", help=_("continue the run saved in STATE (written beside the weights "
                                                      "file after each iteration)"))
    _parallel_options(im, _("processes that play an iteration's games (default: this one; at most {per} to a "
                            "local core)"), _("a Dask scheduler (tcp://host:8786): play the games on its workers"))
    im.add_argument("--json", action="store_true")
    im.set_defaults(func=cmd_improve)
    pt = sub.add_parser("playtest", help=_("people's recorded games read against the bots"))
    pt_sub = pt.add_subparsers(dest="playtest", required=True)
    pr = pt_sub.add_parser("report", help=_("each decision's loss, each draw's luck, the players beside the bots"))
    pr.add_argument("records", nargs="+", help=_("game records: files, or folders of *.json"))
    pr.add_argument("--levels", default="heuristic,strong", help=_("the levels to compare the players with, weakest "
                                                                   "first (levels with move probabilities)"))
    pr.add_argument("--budget", default="search:400", help=_("the search's rollouts a decision: search:400"))
    pr.add_argument("--bot-games", type=_games, default=200, help=_("games each level plays against itself"))
    pr.add_argument("--seed", type=_seed, default=0)
    pr.add_argument("--csv", metavar="FILE", help=_("also write one row a decision and a draw as CSV"))
    pr.add_argument("--report", metavar="FILE.html", help=_("also write the report as one HTML file"))
    pr.add_argument("--json", action="store_true")
    pr.set_defaults(func=cmd_playtest_report)
    pp = pt_sub.add_parser("persona", help=_("fit strong's weights to the players' moves: a level persona@FILE"))
    pp.add_argument("records", nargs="+", help=_("game records: files, or folders of *.json"))
    pp.add_argument("--out", required=True, metavar="FILE", help=_("the weights file to write"))
    pp.set_defaults(func=cmd_playtest_persona)
    return ap


def _vary_option(command: argparse.ArgumentParser) -> None:
    """``--vary NAME=VALUE``: the variant of ``--rules`` that ``train`` and ``improve`` adapt strong to."""
    command.add_argument("--vary", action="append", metavar="NAME=VALUE",
                         help=_("a parameter changed from those rules: hand_size=7 (repeat for several)"))


def _weights_files(command: argparse.ArgumentParser) -> None:
    """``--start FILE`` and ``--out FILE``: the weights ``train`` and ``improve`` start from and write."""
    command.add_argument("--start", metavar="FILE",
                         help=_("a weights file to start from (default: the package's weights of the rules' preset)"))
    command.add_argument("--out", metavar="FILE", help=_("the weights file to write (default: the user's cache, under "
                                                       "the rules' fingerprint, where the panels find it)"))


def _parallel_options(command: argparse.ArgumentParser, workers: str,
                      scheduler: str = N_("a Dask scheduler (tcp://host:8786): spread sampled games over its workers")) -> None:
    """``--workers N`` and ``--scheduler ADDRESS``, said the same way by every command that spreads its work
    (``workers``: what the processes do, with ``{per}`` for the most a local core takes)."""
    command.add_argument("--workers", type=_workers, metavar="N", help=workers.format(per=WORKERS_PER_CORE))
    command.add_argument("--scheduler", metavar="ADDRESS", help=_(scheduler))


def _number_option(read: Callable[[str, str, Any, Any], Any], option: str, low: float, high: float
                   ) -> Callable[[str], Any]:
    """An option's ``type=``: its value read by ``read`` (:func:`.numbers.whole` or :func:`.numbers.decimal`)
    from ``low`` to ``high``, as a panel's box reads it.  A value refused is a :class:`Refused` in the reader's
    words (exit 1), not argparse's usage error: argparse turns only a ValueError or a TypeError raised here
    into its own, and :func:`main` says a Refused from the parser as any other."""
    def parse(text: str) -> Any:
        try:
            return read(text, option, low, high)
        except numbers.NumberError as exc:
            raise Refused(str(exc)) from None
    return parse


def _scale(text: str) -> float:
    """``diagram --scale``: within the render's bounds of a PNG's scale, those of the diagram export's box
    (imported here: the render is loaded only by a command that draws)."""
    from .render.export import SCALES

    return _number_option(numbers.decimal, "--scale", *SCALES)(text)


#: the most games a command plays for one answer (a rule set, a level, a candidate)
MAX_GAMES = 10_000_000
_games = _number_option(numbers.whole, "--games", 1, MAX_GAMES)
_seed = _number_option(numbers.whole, "--seed", 0, 2**63 - 1)


def _language_asked(argv: list[str]) -> str | None:
    """The language ``--lang`` names before the command (read ahead so that the parser's own texts follow it);
    None when absent or not offered (the parser then names the choices)."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[7:] if arg.startswith("--lang=") else None
        if value is not None:
            return value if value in LANGUAGES else None
        if not arg.startswith("-"):
            return None  # the command: --lang is a global option, written before it
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code (see :func:`exit_codes`) and never lets an exception out."""
    asked = _language_asked(list(sys.argv[1:] if argv is None else argv))
    previous = set_language(asked) if asked else None  # --help and usage errors in that language too
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2): argparse has printed why
        if asked:
            set_language(previous)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except Refused as exc:  # an option's number refused by the one reader (see _number_option)
        print(_("refused: {reason}").format(reason=exc), file=sys.stderr)
        if asked:
            set_language(previous)
        return EXIT_INVALID
    if args.lang and not asked:
        previous = set_language(args.lang)
    terminate = stop_on_terminate()
    try:
        return args.func(args)
    except ProblemsError as exc:
        if getattr(args, "json", False):  # asked for data: the problems as data too
            print(json.dumps({"valid": False, **exc.to_json()}, indent=1))
        print(_("invalid rules:") if isinstance(exc, RulesError) else _("invalid position:"), file=sys.stderr)
        for line in exc.lines():
            print(f"  {line}", file=sys.stderr)
        return EXIT_INVALID
    except IllegalMove as exc:
        print(_("illegal move: {reason}").format(reason=exc), file=sys.stderr)
        return EXIT_INVALID
    except Refused as exc:
        print(_("refused: {reason}").format(reason=exc), file=sys.stderr)
        return EXIT_INVALID
    except TooLong as exc:  # a run past the time limit (analysis.limits), said before it starts: --force confirms it
        print(_("refused: {reason}").format(reason=_("{error} with --force (Ctrl-C stops it)").format(error=exc)),
              file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        print(_("cancelled"), file=sys.stderr)
        return EXIT_CANCELLED
    except BrokenPipeError:  # the reader of our output went away (| head): nothing more to say
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        if os.environ.get("GUYENNE_DEBUG"):
            raise
        words = str(exc).splitlines()[0][:200] if str(exc) else ""
        print(_("internal error: {kind}: {error} (set GUYENNE_DEBUG=1 for the traceback)").format(
            kind=type(exc).__name__, error=words), file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if terminate is not None:
            signal.signal(signal.SIGTERM, terminate)
        if args.lang or asked:
            set_language(previous)


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM as Ctrl-C: the command's own clean-up runs (its workers stopped) before it exits."""
    raise KeyboardInterrupt


def stop_on_terminate() -> Any:
    """Make ``kill`` (SIGTERM, sent to the command alone) stop a command as Ctrl-C does; the handler it
    replaces, to put back (None where signals cannot be handled here: not the main thread).  By default
    SIGTERM ends the process at once and leaves its workers playing their games to the end.  The
    benchmarks' pools (``benchmarks/pools.py``) stop theirs by it too."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _terminated)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
