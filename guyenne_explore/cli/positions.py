"""Commands on one position: ``moves`` (its legal moves), ``check`` (its problems) and ``play`` (a seeded game
from it, written as a record)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..engine import SIDES, ProblemsError, RecordHeader, Rules, Seat, play_game, seats_for, weights_fingerprint
from ..i18n import current_language, side_noun
from ..i18n import gettext as _
from .common import EXIT_INVALID, EXIT_OK, policy_of, policy_pair, read_position, side_word, start_position, write_file

def cmd_moves(args: argparse.Namespace) -> int:
    """The legal moves of a position, with whose turn it is; ``--json`` as data."""
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
    """A seeded game from a position (or a preset's start) between ``--policies``, written as a record."""
    start = start_position(args)
    names = policy_pair(args.policies)
    policies = (policy_of(names[0]), policy_of(names[1]))
    seats = [Seat(side, member, "bot", policy=names[SIDES.index(side)],
                 weights_fingerprint=_weights_fingerprint(policies[SIDES.index(side)], start.rules))
             for side, member in seats_for(start.rules)]
    record = play_game(start, args.seed, policies, header=RecordHeader.new(start.rules, seats, seed=args.seed))
    data = record.to_json()
    if args.record:
        write_file(args.record, json.dumps(data, indent=1).encode("utf-8"))
    if args.json:  # a whole game record: `storyboard` reads it
        print(json.dumps({"start": data["start"], "moves": data["moves"], "result": data["result"],
                          "rounds": data["rounds"]}))
    else:
        for e in data["moves"]:
            if e.get("chance"):
                print("  " + _("{point}: English draws {english}, French draws {french}").format(
                    point=e["to_play"], english="".join(e["english"]) or "-", french="".join(e["french"]) or "-"))
            else:
                print("  " + _("{point}: {side} plays {move}").format(point=e["to_play"], side=side_word(e["side"]),
                                                                      move=e["move"]))
        r = record.final.result()
        verdict = {"draw": _("draw"), "english": _("english wins"), "french": _("french wins")}[r.winner]
        print(_("english {english} - french {french}: {verdict} after {rounds} rounds").format(
            english=r.english, french=r.french, verdict=verdict, rounds=data["rounds"]))
    return 0


def _weights_fingerprint(policy: Any, rules: Rules) -> str | None:
    """The fingerprint of the weights a learned policy plays under ``rules`` (a record says which network played),
    None for a policy without weights."""
    played = getattr(policy, "played", None)
    return weights_fingerprint(played(rules).flat()) if played is not None else None

