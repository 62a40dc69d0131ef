"""The rules editor: one field per rules parameter, generated from the engine's :data:`PARAMETERS`.

The builder's rules and the variant lab's variant are edited with this one widget, so a new
parameter appears in both with its label, its choices and its bounds as the engine states them.
It holds no rule: it shows a rule set's JSON values (``Rules.describe()``) and reads back the
JSON values a person typed, and the engine (``Rules.from_json``) judges them and names every
problem.  Numbers and card counts are text boxes, so what a person types stays and a typo is
named beside the form rather than silently reverted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import product
from typing import Any

import ipywidgets as w

from ..analysis import choice_label
from ..engine import CHOICE, COUNTS, FLAG, NUMBER, PARAMETERS, PARAMETERS_BY_NAME, Parameter
from ..i18n import gettext
from .forms import WIDE, number_box, read_whole
from .language import name_options


def _short(value: Any) -> str:
    """A value from a file as a note shows it: short, whatever its size."""
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else gettext("a huge number")
    return text if len(text) <= 40 else text[:37] + "..."


def parse_card_counts(text: str) -> dict[str, int]:
    """``"2:12 3:4 4:3 5:2"`` as ``{"2": 12, ...}``; a ValueError says what cannot be read."""
    pairs = re.findall(r"([0-9])\s*[:x×]\s*([0-9]+)", text)  # the digits 0-9, as every number is read
    rest = re.sub(r"([0-9])\s*[:x×]\s*([0-9]+)|[\s,;]", "", text)
    if rest or not pairs:
        raise ValueError(gettext("write card counts as value:count pairs like 2:12 3:4 4:3 5:2, not {text}").format(
            text=_short(text)))
    if any(len(n) > 6 for _, n in pairs):
        raise ValueError(gettext("a card count of {digits} digits is no count of cards").format(
            digits=max(len(n) for _, n in pairs)))
    return {v: int(n) for v, n in pairs}


def format_card_counts(counts: dict[str, int]) -> str:
    return " ".join(f"{v}:{n}" for v, n in sorted(counts.items()))


def counts_by_key(parameter: Parameter) -> dict[str, dict[str, int]]:
    """Every set of counts of a parameter counted by named keys (``members``: players per side), by the label
    its menu shows (``2 v 1``: the keys' counts in order), from the parameter's keys and bounds."""
    low, high = parameter.bounds or (0, 0)
    return {" v ".join(map(str, counts)): dict(zip(parameter.choices, counts))
            for counts in product(range(low, high + 1), repeat=len(parameter.choices))}


class RulesEditor:
    """One widget per rules parameter (:data:`PARAMETERS`, RULES.md 10's keys), read and written as JSON values.

    A number is a text box read by :func:`read_whole`; a choice a menu of its choices in words; a flag a
    checkbox; the card counts a text of ``value:count`` pairs (any card value); counts by named keys (the
    players per side) a menu of every set within the bounds.  ``widgets`` are keyed by the parameters' names.
    """

    def __init__(self, on_change: Callable[[], None], label_width: str = "130px") -> None:
        self.widgets: dict[str, w.Widget] = {p.name: _widget(p, {"description_width": label_width}) for p in PARAMETERS}
        for widget in self.widgets.values():
            widget.observe(lambda _c: on_change(), names="value")

    def set(self, described: dict[str, Any]) -> list[str]:
        """Show the values of ``Rules.describe()`` (or of a preset plus overrides from a file).

        A value no field can show (a list for ``members``, a flag that is not true or
        false...) leaves the field as it was and comes back as a note in words; a number
        field shows any text or number as written, and says beside it if it is not one.
        """
        notes: list[str] = []
        for name, widget in self.widgets.items():
            if name in described:
                shown, note = _shown(PARAMETERS_BY_NAME[name], widget, described[name])
                if note is not None:
                    notes.append(note)
                else:
                    widget.value = shown
        return notes

    def read(self) -> tuple[dict[str, Any], list[str]]:
        """The JSON values of every parameter, and the problems of the ones that cannot be read."""
        out: dict[str, Any] = {}
        problems: list[str] = []
        for name, widget in self.widgets.items():
            parameter = PARAMETERS_BY_NAME[name]
            value: Any
            problem: str | None
            if parameter.kind == NUMBER:
                value, problem = read_whole(widget.value, parameter.label, low=-WIDE)
            elif parameter.kind == COUNTS and not parameter.choices:
                try:
                    value, problem = parse_card_counts(widget.value), None
                except ValueError as exc:
                    value, problem = None, str(exc)
            elif parameter.kind == COUNTS:
                value, problem = counts_by_key(parameter)[widget.value], None
            else:
                value, problem = widget.value, None
            if problem is not None:
                problems.append(problem)
            else:
                out[name] = value
        return out, problems


def _widget(parameter: Parameter, style: dict[str, str]) -> w.Widget:
    """The field of one parameter, labelled with its name as the forms say it (the language switch translates it)."""
    layout = w.Layout(width="auto")  # each fills its column of a grid: room for the French labels
    if parameter.kind == NUMBER:
        return number_box(0, width="auto", description=parameter.label, style=style)
    if parameter.kind == CHOICE:  # its choices in words (sides, reshuffle rules...)
        return name_options(w.Dropdown(options=parameter.choices, description=parameter.label, layout=layout,
                                       style=style), choice_label)
    if parameter.kind == FLAG:  # not indented: the French "perdre sans montrer : une décision" fills its column
        return w.Checkbox(description=parameter.label, indent=False, layout=layout)
    if parameter.choices:
        return w.Dropdown(options=list(counts_by_key(parameter)), description=parameter.label, layout=layout,
                          style=style)
    return w.Text(description=parameter.label, layout=layout, style=style, continuous_update=False)


def _shown(parameter: Parameter, widget: w.Widget, value: Any) -> tuple[Any, str | None]:
    """What ``widget`` shows for a parameter's JSON ``value``, or the note saying why it cannot show it."""
    shown_value = _short(value)
    if parameter.kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            return None, gettext("rules: {key} {value} is not a whole number: kept {kept}").format(
                key=parameter.name, value=shown_value, kept=widget.value)
        return (value[:40] if isinstance(value, str) else str(value) if value.bit_length() < 64
                else gettext("a number too large")), None
    if parameter.kind == COUNTS and not parameter.choices:
        if not isinstance(value, dict) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                  for n in value.values()):
            return None, gettext("rules: card_counts {value} is not value:count pairs: kept {kept}").format(
                value=shown_value, kept=widget.value)
        return format_card_counts(value), None
    if parameter.kind == COUNTS:
        sets = counts_by_key(parameter)
        found = next((label for label, counts in sets.items() if counts == value), None)
        if found is None:
            return None, gettext("rules: {key} {value} is not one of {choices}: kept {kept}").format(
                key=parameter.name, value=shown_value, choices=", ".join(sets), kept=widget.value)
        return found, None
    if parameter.kind == FLAG and not isinstance(value, bool):
        return None, gettext("rules: {key} {value} is not true or false: kept {kept}").format(
            key=parameter.name, value=shown_value, kept=widget.value)
    if parameter.kind == CHOICE and (not isinstance(value, str) or value not in parameter.choices):
        return None, gettext("rules: {key} {value} is not one of {choices}: kept {kept}").format(
            key=parameter.name, value=shown_value, choices=", ".join(widget.options), kept=widget.value)
    return value, None
