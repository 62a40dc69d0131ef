"""``puzzles``: positions where one move is clearly best, from game records and seeded bot games, each verified
and its solution drawn as a storyboard in every language."""

from __future__ import annotations

import argparse
import json
import sys

from ..engine import SIDES
from ..i18n import LANGUAGES, ngettext, plain_count
from ..i18n import gettext as _
from .common import EXIT_INVALID, EXIT_OK, Refused, read_record, rules_arg, side_word

def cmd_puzzles(args: argparse.Namespace) -> int:
    """Puzzles from game records and seeded bot games: each verified, its solution a storyboard in every language.
    A record that cannot be read is named on stderr (file and field) and the others are still read (exit 1)."""
    import pathlib

    from ..analysis.puzzles import PuzzleFinder, puzzles_from_bot_games
    from ..render.storyboard import storyboard, write_storyboard

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
        bots, played = puzzles_from_bot_games(rules_arg(args.rules or "advanced"), seed=args.seed, finder=finder,
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
                number=k, source=pz.source, side=side_word(SIDES[pz.side]), point=pz.position.to_play,
                round=pz.position.round, move=pz.solution.text(), tags=", ".join(pz.tags),
                method=_("exact") if pz.method == "exact" else _("search")))
        print(ngettext("{count} puzzle, storyboards and puzzles.json in {folder}",
                       "{count} puzzles, storyboards and puzzles.json in {folder}", len(found)).format(
            count=len(found), folder=out))
    return EXIT_INVALID if failed else EXIT_OK
