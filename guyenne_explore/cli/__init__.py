"""The command line: ``guyenne-explore moves | check | play | analyse | solve | diagram | storyboard | rulebook |
puzzles | skill | style | depth | balance | train | improve | playtest``.

Every command reads positions through the engine's loader, so a bad file gets
the same problems as in the panels, each on its own line, field first.

Exit codes (also in ``--help`` and README's command-line section):

- 0: done (``check``: the position is valid);
- 1: invalid input (a position, rules or move with problems, an option's number in another form than
  :mod:`guyenne_explore.numbers` reads or outside its bounds) or a refused request (an exact analysis out of reach
  without ``--force``);
- 2: usage (unknown command or option, from argparse);
- 3: internal error: a one-line ``internal error: ...`` message (the traceback only
  with ``GUYENNE_DEBUG=1`` in the environment);
- 130: cancelled with Ctrl-C.

The package: :mod:`.parser` (the argparse tree), :mod:`.common` (the exit codes, the one refusal, the readers of
inputs and writers of files), :mod:`.long_run` (how a long command says its cost and progress and stops its
workers), and one module a group of commands: :mod:`.positions`, :mod:`.analyse`, :mod:`.pictures`, :mod:`.puzzles`,
:mod:`.studies`, :mod:`.balance`, :mod:`.training`, :mod:`.playtest`.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Sequence

from ..analysis import TooLong
from ..engine import IllegalMove, ProblemsError, RulesError
from ..i18n import LANGUAGES, set_language
from ..i18n import gettext as _
from .common import EXIT_CANCELLED, EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, EXIT_USAGE, Refused
from .long_run import stop_on_terminate
from .parser import build_parser

__all__ = ["main"]


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
    except Refused as exc:  # an option's number refused by the one reader (see common.number_option)
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
