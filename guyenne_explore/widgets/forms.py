"""Small form pieces of the builder: card counts per value, rule parameters, problems in words.

They hold no rule: the card kinds come from the rules' card set, the choices
from the engine's constants, and every check is the engine's (the builder
only routes each problem message to the part of the form it is about).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..cards import HERO, KINDS, SYMBOLS, Cards
from ..rules import ADJACENCIES, REMOVALS, RESHUFFLES, SCORINGS, SIDES

#: team set-ups offered for the ``members`` parameter
MEMBERS = {"1 v 1": (1, 1), "2 v 2": (2, 2), "2 v 1": (2, 1), "1 v 2": (1, 2)}


def kinds_shown(*cards: Cards) -> tuple[int, ...]:
    """Kinds present in any of ``cards``, strongest first (the hero before the values)."""
    present = {k for c in cards for k in range(KINDS) if c[k]}
    return tuple(sorted(present, key=lambda k: 100 if k == HERO else k, reverse=True))


class CountsRow:
    """One zone as counts per card kind (an integer box per value), with its size."""

    def __init__(self, label: str, kinds: tuple[int, ...], cards: Cards, on_change: Callable[[], None]) -> None:
        self.kinds = kinds
        self.label = w.HTML(f"<b>{html.escape(label)}</b>", layout=w.Layout(width="120px"))
        self.boxes = [w.BoundedIntText(value=cards[k], min=0, max=99, layout=w.Layout(width="52px"))
                      for k in kinds]
        self.total = w.HTML(layout=w.Layout(width="40px"))
        self._extra = Cards([0 if k in kinds else cards[k] for k in range(KINDS)])
        self._show_total()
        for box in self.boxes:
            box.observe(lambda _c: (self._show_total(), on_change()), names="value")

    @property
    def cards(self) -> Cards:
        counts = list(self._extra)
        for k, box in zip(self.kinds, self.boxes):
            counts[k] = int(box.value or 0)
        return Cards(counts)

    def widgets(self) -> list[w.Widget]:
        return [self.label, *self.boxes, self.total]

    def _show_total(self) -> None:
        self.total.value = f"= {self.cards.size}"


def parse_card_counts(text: str) -> dict[str, int]:
    """``"2:12 3:4 4:3 5:2"`` as ``{"2": 12, ...}``; a ValueError says what cannot be read."""
    pairs = re.findall(r"(\d)\s*[:x×]\s*(\d+)", text)
    rest = re.sub(r"(\d)\s*[:x×]\s*(\d+)|[\s,;]", "", text)
    if rest or not pairs:
        raise ValueError(f"write card counts as value:count pairs like 2:12 3:4 4:3 5:2, not {text!r}")
    return {v: int(n) for v, n in pairs}


def format_card_counts(counts: dict[str, int]) -> str:
    return " ".join(f"{v}:{n}" for v, n in sorted(counts.items()))


class RulesParameters:
    """One widget per rules parameter (RULES.md 10 override keys), read and written as JSON values."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        lay = w.Layout(width="250px")
        style = {"description_width": "130px"}
        choice = lambda name, opts: w.Dropdown(options=opts, description=name, layout=lay, style=style)
        number = lambda name: w.IntText(description=name, layout=lay, style=style)
        flag = lambda name: w.Checkbox(description=name, indent=False, layout=lay)
        self.widgets: dict[str, w.Widget] = {
            "removal": choice("removal", REMOVALS),
            "scoring": choice("scoring", SCORINGS),
            "exhaustion_limit": number("exhaustion limit L"),
            "reshuffle": choice("reshuffle", RESHUFFLES),
            "adjacency": choice("adjacency", ADJACENCIES),
            "card_counts": w.Text(description="card counts", layout=lay, style=style),
            "hero": flag("hero"),
            "hand_size": number("hand size"),
            "castles": number("castles"),
            "max_at_castle": number("max at a castle"),
            "pre_discard": number("setup discard"),
            "first_side": choice("first side", SIDES),
            "concede_as_decision": flag("concede as decision"),
            "members": w.Dropdown(options=list(MEMBERS), description="players", layout=lay, style=style),
        }
        for widget in self.widgets.values():
            widget.observe(lambda _c: on_change(), names="value")

    def set(self, described: dict[str, Any]) -> None:
        """Show the values of ``Rules.describe()`` (or of a preset plus overrides)."""
        for key, widget in self.widgets.items():
            if key not in described:
                continue
            value = described[key]
            if key == "card_counts":
                value = format_card_counts(value)
            elif key == "members":
                pair = (value.get("english", 1), value.get("french", 1))
                value = next((k for k, v in MEMBERS.items() if v == pair), "1 v 1")
            widget.value = value

    def read(self) -> tuple[dict[str, Any], list[str]]:
        """The JSON values of every parameter, and the problems of the ones that cannot be read."""
        out: dict[str, Any] = {}
        problems: list[str] = []
        for key, widget in self.widgets.items():
            value = widget.value
            if key == "card_counts":
                try:
                    value = parse_card_counts(value)
                except ValueError as exc:
                    problems.append(f"rules: {exc}")
                    continue
            elif key == "members":
                value = dict(zip(SIDES, MEMBERS[value]))
            out[key] = value
        return out, problems


# ---------------------------------------------------------------------- problems
#: sections of the builder form, in display order
SECTIONS = ("general", "rules", "castles", "game", "english", "french", "placed")


def section_of(problem: str) -> str:
    """The part of the form a problem message of the engine is about."""
    text = problem.lower()
    if text.startswith("rules"):
        return "rules"
    if re.search(r"castles? [xy]\b|placed|remove_choice|concede_choice|castles x and y", text):
        return "placed"
    if text.startswith("the game is already over") or "has no legal move" in text:
        return "game"
    for name in SIDES:
        if re.match(rf"(sides\.)?{name}\b", text) or f"{name}'s" in text:
            return name
    if re.search(r"\bround\b|\bfirst\b|to_play|decision point|happens only|nothing can be placed", text):
        return "game"
    if "castle" in text:
        return "castles"
    return "general"


def messages_html(problems: list[str], warnings: list[str] = ()) -> str:  # type: ignore[assignment]
    """Problems in red and warnings in amber, one line each, as HTML."""
    lines = [f'<div class="guyenne-problem" style="color:#9b1c1c">✗ {html.escape(p)}</div>' for p in problems]
    lines += [f'<div class="guyenne-warning" style="color:#8a5a00">⚠ {html.escape(m)}</div>' for m in warnings]
    return "".join(lines)


def symbols(kinds: tuple[int, ...]) -> list[str]:
    return [SYMBOLS[k] for k in kinds]
