"""The rules editor: one field per rules parameter, generated from the engine's :data:`PARAMETERS`.

The builder's rules and the variant lab's variant are edited with this one widget, so a new
parameter appears in both with its label, its choices and its bounds as the engine states them.
It holds no rule: it shows a rule set's JSON values (``Rules.describe()``) and reads back the
JSON values a person typed, and the engine (``Rules.from_json``) judges them and names every
problem.  Numbers and card counts are text boxes, so what a person types stays and a typo is
named under its field (the field marked) rather than silently reverted; each field is read on its
own, so every mistake is named at once.  Card counts not typed keep the preset's (RULES.md 10), and
the box then shows the counts that run.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from html import escape
from itertools import product
from typing import Any

import ipywidgets as w

from ..analysis.studies.variants import choice_label
from ..engine import CHOICE, COUNTS, FLAG, NUMBER, PARAMETERS, PARAMETERS_BY_NAME, Parameter, Problem, Rules, as_problem
from ..i18n import gettext
from ..numbers import quoted
from ..render.report import card_counts_text
from .forms import INVALID, WIDE, messages_html, number_box, read_whole
from .language import name_options


#: How wide a label's characters are, in ems: the narrow ones, and any other, a little above their advances in
#: DejaVu Sans (the widest of the sans fonts a browser shows the labels in), so the column fits the longest label
#: whole ("reconstitution de la pioche" is 13.4 em in DejaVu Sans, 13.9 em by this count)
NARROW, EM_NARROW, EM_OTHER = frozenset(" ijlrtfI.,:;'’()"), 0.34, 0.64
#: The engine's field path of the rules (a problem at ``rules.hand_size`` is the hand size's)
RULES_FIELD = "rules"


def _short(value: Any) -> str:
    """A value from a file as a note shows it: short, whatever its size; text in the language's quotes."""
    if isinstance(value, str):
        return quoted(value)
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


def players_label(key: str, lang: str | None = None) -> str:
    """A set of players per side as the menu shows it (``1 v 2`` is "1 contre 2" in French); its value stays
    the key :func:`counts_by_key` names it by (what sessions keep)."""
    counts = key.split(" v ")
    label = counts[0]
    for count in counts[1:]:
        label = gettext("{one} v {other}", lang).format(one=label, other=count)
    return label


def counts_by_key(parameter: Parameter) -> dict[str, dict[str, int]]:
    """Every set of counts of a parameter counted by named keys (``members``: players per side), by the key
    its menu's value is (``2 v 1``: the keys' counts in order), from the parameter's keys and bounds."""
    low, high = parameter.bounds or (0, 0)
    return {" v ".join(map(str, counts)): dict(zip(parameter.choices, counts))
            for counts in product(range(low, high + 1), repeat=len(parameter.choices))}


def parameter_of(problem: Problem) -> str | None:
    """The parameter a problem is about, read from its field path (``rules.card_counts.5`` is the card counts'),
    or None for a problem of the rules as a whole (an unknown preset)."""
    parts = problem.field.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == RULES_FIELD and parts[1] in PARAMETERS_BY_NAME else None


class RulesEditor:
    """One widget per rules parameter (:data:`PARAMETERS`, RULES.md 10's keys), read and written as JSON values.

    A number is a text box read by :func:`read_whole`; a choice a menu of its choices in words; a flag a
    checkbox; the card counts a text of ``value:count`` pairs (any card value); counts by named keys (the
    players per side) a menu of every set within the bounds.  ``widgets`` are keyed by the parameters' names;
    ``fields`` are what a form lays out: each widget with its problems under it (``messages``), the card counts
    with the note saying what a value not typed keeps.
    """

    def __init__(self, on_change: Callable[[], None]) -> None:
        self.widgets: dict[str, w.Widget] = {p.name: _widget(p) for p in PARAMETERS}
        self.messages: dict[str, w.HTML] = {name: w.HTML() for name in self.widgets}
        for message in self.messages.values():
            message.add_class("guyenne-field-message")
        self.counts_note = w.HTML()  # what a card value not typed keeps, and what was kept from the preset
        self._kept: dict[str, int] = {}  # the counts kept from the preset, said in the note while the box shows them
        self._written = ""  # the counts the box was last given by the editor (not typed)
        self._filling = False  # the box being written with the counts that run: no edit of the person's
        self.fields: list[w.Widget] = [
            w.VBox([widget, self.messages[name], *([self.counts_note] if name == "card_counts" else [])],
                   layout=w.Layout(min_width="0"))
            for name, widget in self.widgets.items()]
        for field in self.fields:
            field.add_class("guyenne-rules-field")  # what the browser tests find
        for widget in self.widgets.values():
            widget.observe(lambda _c: self._filling or on_change(), names="value")
        self.show([])

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

    def read(self, preset: Rules) -> tuple[dict[str, Any], list[Problem]]:
        """The JSON values of every parameter that can be read, and a problem at each field that cannot
        (``rules.hand_size``...): every field is read on its own, so two mistakes are two problems.

        The card counts read are laid over ``preset``'s as the engine lays them (RULES.md 10: a value not
        named keeps the preset's count), and the box then shows the counts that run, ``5:0`` included."""
        out: dict[str, Any] = {}
        problems: list[Problem] = []
        for name, widget in self.widgets.items():
            value, problem = _read(PARAMETERS_BY_NAME[name], widget.value)
            if problem is not None:
                problems.append(as_problem(problem, f"{RULES_FIELD}.{name}"))
            else:
                out[name] = value
        if "card_counts" in out:
            out["card_counts"] = self._fill_counts(preset, out["card_counts"])
        return out, problems

    def _fill_counts(self, preset: Rules, typed: dict[str, int]) -> dict[str, int]:
        """``typed`` laid over ``preset``'s counts (the engine's :meth:`Rules.describe_variant`), written in the box
        without counting as an edit; the counts kept from the preset are remembered for the note."""
        counts: dict[str, int] = preset.describe_variant({"card_counts": typed})["card_counts"]
        box = self.widgets["card_counts"]
        if box.value == self._written:  # as the editor wrote it: the counts kept then are still the preset's
            return counts
        self._kept = {v: n for v, n in counts.items() if v not in typed}
        if typed != counts:  # the box shows what runs
            self._written = card_counts_text(counts)
            self._filling = True
            try:
                box.value = self._written
            finally:
                self._filling = False
        return counts

    def show(self, problems: Sequence[Problem]) -> list[Problem]:
        """Each problem under its field, the field marked (a red border), the card counts' note and the labels'
        column fitted to the current language; returns the problems of no field, for the form's own line.

        Called at each check and after a language switch: the words are written in the current language."""
        beside: dict[str, list[Problem]] = {name: [] for name in self.widgets}
        elsewhere: list[Problem] = []
        for problem in problems:
            name = parameter_of(problem)
            (beside[name] if name is not None else elsewhere).append(problem)
        for name, widget in self.widgets.items():
            self.messages[name].value = messages_html(beside[name])
            (widget.add_class if beside[name] else widget.remove_class)(INVALID)
        kept = gettext("Kept from the preset: {counts}.").format(counts=card_counts_text(self._kept)) + " " \
            if self._kept else ""
        self.counts_note.value = "<div style='font-size:smaller;line-height:1.3'>" + escape(kept + gettext(
            "A value not typed keeps the preset's count; 5:0 removes the 5s.")) + "</div>"
        self.fit_labels()
        return elsewhere

    def fit_labels(self) -> None:
        """One width for every label, the longest label's in the current language, so the fields line up
        beside a column their labels fit (the French "reconstitution de la pioche" is twice "reshuffle");
        the flags' boxes are indented by it and line up with the fields."""
        width = label_width(gettext(p.label) for p in PARAMETERS if p.kind != FLAG)
        for widget in self.widgets.values():
            if widget.style.description_width != width:
                widget.style.description_width = width


def label_width(labels: Iterable[str]) -> str:
    """The CSS width of a column that holds the longest of ``labels`` (see :data:`NARROW`), to the half em above.

    A count of the characters, not a measure: the server does not know the browser's font.  A label wider than
    the count still shows whole (static/explorer.css gives a label its text's width), only out of line."""
    widest = max(sum(EM_NARROW if c in NARROW else EM_OTHER for c in label) for label in labels)
    return f"{math.ceil(widest * 2) / 2:g}em"


def _read(parameter: Parameter, text: Any) -> tuple[Any, str | None]:
    """The JSON value a parameter's widget holds, or None and the words saying why it cannot be read."""
    if parameter.kind == NUMBER:
        return read_whole(text, parameter.label, low=-WIDE)
    if parameter.kind == COUNTS and not parameter.choices:
        try:
            return parse_card_counts(text), None
        except ValueError as exc:
            return None, str(exc)
    if parameter.kind == COUNTS:
        return counts_by_key(parameter)[text], None
    return text, None


def _widget(parameter: Parameter) -> w.Widget:
    """The field of one parameter, labelled with its name as the forms say it (the language switch translates it;
    :meth:`RulesEditor.fit_labels` sets the labels' width)."""
    layout = w.Layout(width="auto")  # each fills its column of a grid
    if parameter.kind == NUMBER:
        return number_box(0, width="auto", description=parameter.label)
    if parameter.kind == CHOICE:  # its choices in words (sides, reshuffle rules...)
        return name_options(w.Dropdown(options=parameter.choices, description=parameter.label, layout=layout),
                            choice_label)
    if parameter.kind == FLAG:  # indented by the labels' column: its box lines up with the fields
        return w.Checkbox(description=parameter.label, indent=True, layout=layout)
    if parameter.choices:  # players per side: "1 v 1", "1 contre 1" in French
        return name_options(w.Dropdown(options=list(counts_by_key(parameter)), description=parameter.label,
                                       layout=layout), players_label)
    return w.Text(description=parameter.label, layout=layout, continuous_update=False)


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
        return card_counts_text(value), None
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
