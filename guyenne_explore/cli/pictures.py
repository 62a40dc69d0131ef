"""Commands that draw: ``diagram`` (a position), ``storyboard`` (a game record, step by step) and ``rulebook``
(a rule set's rulebook with every example replayed under it)."""

from __future__ import annotations

import argparse
import json
import sys

from ..engine import SIDES
from ..i18n import current_language, ngettext
from ..i18n import gettext as _
from .common import Refused, read_position, read_record, rules_arg

def cmd_diagram(args: argparse.Namespace) -> int:
    """A position drawn as SVG, PNG or PDF (its seating with ``--seating``)."""
    from ..render.seating import seating_svg
    from ..render.svg import caption_problem, diagram

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


def cmd_storyboard(args: argparse.Namespace) -> int:
    """A game record drawn step by step, as one side saw it with ``--player``."""
    from ..render.storyboard import storyboard, write_storyboard

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
    from ..analysis.rulebook import build_rulebook
    from ..render.rulebook import write_rulebook

    if not args.output and not args.json:
        raise Refused(_("rulebook: give -o FILE.pdf, FILE.html or DIR/, or --json"))
    book = build_rulebook(rules_arg(args.rules), current_language())
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

