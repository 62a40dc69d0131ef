"""What every command shares: the exit codes, the one refusal, the readers of positions, rules, records and
options' numbers, and the writers of files.

Each reader says a bad input in one line naming the input (a :class:`Refused`, exit 1), never a traceback:
:func:`guyenne_explore.cli.main` turns it into ``refused: ...``.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import Any, Callable, Iterable

from .. import numbers
from ..engine import MAX_TEXT, IllegalMove, Policy, Position, PositionError, Rules, RulesError, parse_json
from ..i18n import current_language, plain_estimate, side_noun
from ..i18n import gettext as _

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL, EXIT_CANCELLED = 0, 1, 2, 3, 130


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


def rules_arg(text: str) -> Rules:
    """The one reader of a rules argument: a preset name or rules JSON (``{"preset": "advanced", ...}``)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return Rules.from_json(parse_json(text, "rules"))
        except PositionError as exc:
            raise RulesError(exc.problems) from None
    return Rules.from_json(text)


def rules_list(text: str) -> list[Rules]:
    """Rule sets separated by commas, each read by :func:`rules_arg` (commas inside rules JSON do not
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
    rule_sets = [rules_arg(item) for item in items if item.strip()]
    if not rule_sets:
        raise Refused(_("--rules names no rule set: give presets or rules JSON, separated by commas"))
    return rule_sets


def regular_file(path: str) -> None:
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
        regular_file(arg)
        try:
            return Position.load(arg)
        except PositionError:
            text = _notation_file(arg)
            if text is None:
                raise
    if not text.lstrip().startswith(("{", "[")) and "\n" not in text.strip():
        return Position.from_notation(text)
    return Position.from_json(text)


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


def start_position(args: argparse.Namespace) -> Position:
    """The position a command starts from: its file when one is named (an empty name too: refused by name),
    else the start of ``--rules``."""
    if getattr(args, "position", None) is not None:
        return read_position(args.position)
    return Position.start(rules_arg(args.rules or "base"))


def read_record(path: str) -> Any:
    """The game record of a file (``play --record``), or a :class:`Refused` naming the file and the field."""
    from ..engine import GameRecord

    regular_file(path)
    try:
        with open(path, encoding="utf-8") as fh:
            return GameRecord.from_json(fh.read(MAX_TEXT * 64))
    except OSError as exc:
        raise Refused(_("cannot read {path}: {error}").format(path=path, error=exc.strerror or exc)) from None
    except (ValueError, KeyError, TypeError, IllegalMove) as exc:
        what = _("missing field {field}").format(field=exc) if isinstance(exc, KeyError) else str(exc)
        raise Refused(_("{path} is not a game record (the JSON of `play --record` or `play --json`): {error}").format(
            path=path, error=what)) from None


def write_file(path: str, data: bytes) -> None:
    """Write ``data`` to ``path``, or a :class:`Refused` naming the file and why not."""
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise Refused(_("cannot write {path}: {error}").format(path=path, error=exc.strerror or exc)) from None


def write_csv(path: str, rows: list[dict[str, Any]]) -> None:
    """Rows of the same keys as a CSV file with a header (an empty file for no rows)."""
    import csv
    import io

    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    write_file(path, out.getvalue().encode("utf-8"))


def side_word(name: str) -> str:
    """A side in a sentence: the notation's word in English (``english``), the rulebook's in French (``les Anglais``)."""
    return name if current_language() == "en" else side_noun(name)


def shown_metric(m: Any) -> str:
    """``0.510 [0.461, 0.559]`` (in the language's decimals)."""
    return "-" if m is None else plain_estimate(m.value, m.low, m.high)


def policy_of(name: str) -> Policy:
    """The policy a level's name names, read as everywhere (:class:`~guyenne_explore.analysis.PolicySpec`); a name
    it refuses (unknown, a search budget out of bounds, a weights file that is not one) refused here, naming it."""
    from ..analysis import PolicySpec

    try:
        return PolicySpec.parse(name).policy()
    except ValueError as exc:
        raise Refused(str(exc)) from None


def policy_names(text: str) -> list[str]:
    """Levels separated by commas, each one :func:`policy_of` reads (the first it refuses named)."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    for name in names:
        policy_of(name)
    return names


def policy_pair(text: str) -> tuple[str, str]:
    """``--policies``: one policy for both sides, ``english,french``, or ``english=P,french=Q``."""
    parts = [x.strip() for x in text.split(",") if x.strip()]
    if parts and all("=" in x for x in parts):
        named = dict(x.split("=", 1) for x in parts)
        bad = set(named) - {"english", "french"}
        if bad:
            raise Refused(_("--policies names sides english and french, not {sides}").format(sides=", ".join(sorted(bad))))
        parts = [named.get("english", "uniform"), named.get("french", "uniform")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise Refused(_("--policies names one policy, two separated by a comma (english,french), "
                        "or english=P,french=Q"))
    for name in parts:
        policy_of(name)
    return parts[0], parts[1]


def ladder(text: str) -> list[str]:
    """``--levels`` of a ladder: at least two policies, weakest first, each one the registry knows."""
    levels = policy_names(text)
    if len(levels) < 2:
        raise Refused(_("--levels needs at least two levels, weakest first: uniform,heuristic"))
    return levels


def prepare_fast_path(levels: Iterable[str] | None = None) -> None:
    """Compile the fast simulator first where numba's cache lacks a part of it (a first run), each part said on stderr
    as the panels say it: a first run's minutes of compiling, before its cost is measured or its games start, are
    never silent.  ``levels``: the policies the run plays, whose parts alone are checked (None: every part)."""
    from ..analysis.sampling.warm import EVERY_GAME, games_of, needs_compiling, prepare, preparing_message

    games = EVERY_GAME if levels is None else games_of(levels)
    if needs_compiling(games):
        prepare(lambda step, done, total: print(preparing_message(step, done, total), file=sys.stderr, flush=True),
                games)


def scheduler(address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or a refusal naming the address and why not."""
    from dask.distributed import Client

    try:
        return Client(address)
    except (OSError, ValueError, TypeError) as exc:  # a malformed address, or no scheduler answers there
        raise Refused(_("cannot reach the scheduler {address}: {error}").format(address=address, error=exc)) from None


def number_option(read: Callable[[str, str, Any, Any], Any], option: str, low: float, high: float
                  ) -> Callable[[str], Any]:
    """An option's ``type=``: its value read by ``read`` (:func:`.numbers.whole` or :func:`.numbers.decimal`)
    from ``low`` to ``high``, as a panel's box reads it.  A value refused is a :class:`Refused` in the reader's
    words (exit 1), not argparse's usage error: argparse turns only a ValueError or a TypeError raised here
    into its own, and :func:`guyenne_explore.cli.main` says a Refused from the parser as any other."""
    def parse(text: str) -> Any:
        try:
            return read(text, option, low, high)
        except numbers.NumberError as exc:
            raise Refused(str(exc)) from None
    return parse


#: Worker processes a command may start, to each local core: more only wait their turn, each holding
#: the engine and its compiled games in memory, so a mistyped huge --workers is refused, not started.
WORKERS_PER_CORE = 4

#: the most games a command plays for one answer (a rule set, a level, a candidate)
MAX_GAMES = 10_000_000
read_games = number_option(numbers.whole, "--games", 1, MAX_GAMES)
read_seed = number_option(numbers.whole, "--seed", 0, 2**63 - 1)


def read_workers(text: str) -> int:
    """``--workers``: from 1 to :data:`WORKERS_PER_CORE` times the local cores (each option's help says so)."""
    return number_option(numbers.whole, "--workers", 1, WORKERS_PER_CORE * (os.cpu_count() or 1))(text)


def read_scale(text: str) -> float:
    """``diagram --scale``: within the render's bounds of a PNG's scale, those of the diagram export's box
    (imported here: the render is loaded only by a command that draws)."""
    from ..render.export import SCALES

    return number_option(numbers.decimal, "--scale", *SCALES)(text)
