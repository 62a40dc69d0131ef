"""The command line: ``guyenne-explore moves | check | play | analyse``.

Every command reads positions through the engine's loader, so a bad file gets
the same plain-words problems as in the panels, and a non-zero exit.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .position import Position
from .positions_io import PositionError, load_position
from .record import play_game
from .rules import SIDES, Rules, RulesError


def _rules_arg(text: str) -> Rules:
    text = text.strip()
    return Rules.from_json(json.loads(text) if text.startswith("{") else text)


def _start(args: argparse.Namespace) -> Position:
    if getattr(args, "position", None):
        return load_position(args.position)
    return Position.start(_rules_arg(args.rules or "base"))


def cmd_moves(args: argparse.Namespace) -> int:
    p = load_position(args.position)
    moves = list(p.legal_moves)
    side = p.side_to_play
    if args.json:
        print(json.dumps({"to_play": p.to_play, "side": None if side is None else SIDES[side],
                          "count": len(moves), "moves": [{"text": m.text(), **m.to_json()} for m in moves]}))
    else:
        who = "nobody (chance or end)" if side is None else SIDES[side]
        print(f"{p.to_play}: {who} to play, {len(moves)} legal moves")
        for m in moves:
            print(" ", m.text())
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    try:
        p = load_position(args.position)
    except PositionError as exc:
        print(f"{args.position}: invalid position", file=sys.stderr)
        for problem in exc.problems:
            print(f"  problem: {problem}", file=sys.stderr)
        for w in exc.warnings:
            print(f"  warning: {w}", file=sys.stderr)
        return 1
    print(f"{args.position}: valid ({p.to_play}, round {p.round})")
    for w in p.warnings():
        print(f"  warning: {w}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    record = play_game(_start(args), args.seed)
    data = record.to_json()
    if args.json:
        print(json.dumps({"moves": data["moves"], "result": data["result"], "rounds": data["rounds"]}))
    else:
        for e in data["moves"]:
            if e.get("chance"):
                print(f"  {e['to_play']}: english draws {''.join(e['english']) or '-'}, "
                      f"french draws {''.join(e['french']) or '-'}")
            else:
                print(f"  {e['to_play']}: {e['side']} plays {e['move']}")
        print(record.final.result(), f"after {data['rounds']} rounds")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from .analysis.api import analyse

    p = _start(args)
    policies = tuple(args.policies.split(","))
    if len(policies) == 1:
        policies = policies * 2
    method = "exact" if args.exact else ("sample" if args.samples else "auto")
    result = analyse(p, policies, method, games=args.samples or 2000, seed=args.seed,  # type: ignore[arg-type]
                     force=args.force, arithmetic="float" if args.float else None)
    data = result.to_json()
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        kind = (f"exact, {result.arithmetic}s" if result.exact else f"{result.games} sampled games")
        print(f"{p.rules} from {p.to_play}, round {p.round} ({kind})")
        for w, v in data["win"].items():
            print(f"  {w:8s} {v:.4f}")
        print("  rounds:", ", ".join(f"{k}: {v:.4f}" for k, v in data["rounds"].items()))
    return 0


def cmd_diagram(args: argparse.Namespace) -> int:
    from .render.seating import seating_svg
    from .render.svg import diagram

    p = load_position(args.position)
    if args.seating:
        picture = seating_svg(p, show_hands=not args.hide_hands, caption=args.caption)
    else:
        picture = diagram(p, show_hands=not args.hide_hands, caption=args.caption, show_winners=args.winners)
    picture.save(args.output, scale=args.scale)
    print(f"wrote {args.output}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="guyenne-explore", description="Explore the rules of Guyenne.")
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("moves", help="list the legal moves of a position")
    m.add_argument("position")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_moves)
    c = sub.add_parser("check", help="validate a position and name every problem")
    c.add_argument("position")
    c.set_defaults(func=cmd_check)
    for name, func, help_ in (("play", cmd_play, "play a seeded uniform-random game"),
                              ("analyse", cmd_analyse, "outcome distribution, exact or sampled")):
        s = sub.add_parser(name, help=help_)
        s.add_argument("position", nargs="?")
        s.add_argument("--rules", help="preset name or rules JSON, when no position is given")
        s.add_argument("--seed", type=int, default=0)
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)
        if name == "analyse":
            s.add_argument("--exact", action="store_true")
            s.add_argument("--force", action="store_true", help="enumerate exactly even when it will take long")
            s.add_argument("--float", action="store_true",
                           help="sum endgames in float64: the same distribution to rounding, much sooner, no p_exact")
            s.add_argument("--samples", type=int)
            s.add_argument("--policies", default="uniform,uniform")
    d = sub.add_parser("diagram", help="draw a position as SVG or PNG")
    d.add_argument("position")
    d.add_argument("-o", "--output", required=True)
    d.add_argument("--hide-hands", action="store_true", help="draw hidden cards as backs (a public view)")
    d.add_argument("--caption")
    d.add_argument("--winners", action="store_true", help="mark the winner of each battle the diagram shows")
    d.add_argument("--seating", action="store_true", help="draw where the players sit (the team game)")
    d.add_argument("--scale", type=float, default=1.0, help="size factor of a PNG or PDF output")
    d.set_defaults(func=cmd_diagram)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except PositionError as exc:
        print("invalid position:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  problem: {problem}", file=sys.stderr)
        return 1
    except (RulesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
