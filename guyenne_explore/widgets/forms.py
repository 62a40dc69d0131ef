"""Small form pieces of the builder: card counts per value, number boxes, problems in words (the rules'
parameters are :mod:`.rules_editor`'s).

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

from .. import numbers
from ..engine import HERO, KINDS, SYMBOLS, Cards
from ..i18n import gettext, ngettext, number_separators
from .guard import guarded
from .messages import messages_html  # noqa: F401 (panels import it from here)

#: the class of a field whose value has a problem: a red border on its box (static/explorer.css), as well as its words
INVALID = "guyenne-field-invalid"


def kinds_shown(*cards: Cards) -> tuple[int, ...]:
    """Kinds present in any of ``cards``, strongest first (the hero before the values)."""
    present = {k for c in cards for k in range(KINDS) if c[k]}
    return tuple(sorted(present, key=lambda k: 100 if k == HERO else k, reverse=True))


#: most cards of one kind a count box takes (the rules allow far fewer; this keeps a typo from
#: building a zone of a billion cards before the engine can say so)
MAX_COUNT = 999


#: the widest a whole-number box reads when the engine judges the value (a rules parameter, a round): what
#: the engine then says names its own bounds
WIDE = 10**9


def read_whole(text: str, label: str, low: int = 0, high: int = WIDE) -> tuple[int | None, str | None]:
    """The whole number typed in a box, or None and the words saying why it is not one.

    The box keeps what was typed (a person fixes a typo, the form does not revert it), so every reader
    of a number box goes through here and shows the words beside the box; the words are the one reader's
    (:func:`guyenne_explore.numbers.whole`), as the command line says them.
    """
    try:
        return numbers.whole(text, gettext(label), low, high), None  # the field as its box shows it
    except numbers.NumberError as exc:
        return None, str(exc)


def read_decimal(text: str, label: str, low: float, high: float) -> tuple[float | None, str | None]:
    """The decimal number typed in a box (``2``, ``1.5``, ``.25``, ``1,5``), or None and the words saying why not:
    the companion of :func:`read_whole` for the few settings that are not counts (a picture's scale, a time
    budget), read by :func:`guyenne_explore.numbers.decimal`."""
    try:
        return numbers.decimal(text, gettext(label), low, high), None
    except numbers.NumberError as exc:
        return None, str(exc)


def number_box(value: int | str = 0, width: str = "52px", **kwargs: Any) -> w.Text:
    """A text box for a whole number: letters typed stay in it and are named beside it (see read_whole)."""
    return w.Text(value=str(value), layout=w.Layout(width=width), continuous_update=False, **kwargs)


def in_language_decimals(text: str) -> str:
    """A decimal as typed (``0.48`` or ``0,48``) with the current language's decimal symbol (``0,48`` in French),
    its digits kept; anything else as it stands (its problem is said beside its row)."""
    typed = text.strip()
    if not numbers.DECIMAL.fullmatch(typed):
        return text
    return re.sub("[.,]", number_separators()[0], typed)  # the language's decimal symbol, then its grouping one


class NumberField(w.HBox):
    """A number setting of a panel (games, seed, a scale...): a :func:`number_box` with its problem beside it.

    What is typed stays in the box; ``value`` is the last number the box held that
    could be read (so a typo never changes a setting behind the person's back),
    ``problem`` the words while the text is not a number in range.  A panel refuses
    to act on a field while its problem stands.  Setting ``value`` writes the number
    into the box (scripts and tests set it as they would a number widget).
    """

    def __init__(self, description: str, value: float, low: float, high: float, whole: bool = True,
                 width: str = "160px", **kwargs: Any) -> None:

        self.low, self.high, self.whole = low, high, whole
        self.box = number_box(value, width=width, description=description, **kwargs)
        self.message = w.HTML()
        self.message.add_class("guyenne-field-message")
        self.problem: str | None = None
        self._value = value
        super().__init__([self.box, self.message], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.box.observe(guarded(self.message)(lambda _c: self._read()), names="value")
        self.show_decimals()

    @property
    def value(self) -> Any:
        """The last number read from the box (an int for a whole-number field)."""
        return self._value

    @value.setter
    def value(self, number: float) -> None:
        self.box.value = str(number) if self.whole else in_language_decimals(str(number))

    def show_decimals(self) -> None:
        """A decimal field's number in the current language's decimals (after a switch too: "0.02" stood in a French
        page beside "0,45"); the box reads both forms.  A whole-number field has none to change."""
        if not self.whole:
            self.box.value = in_language_decimals(self.box.value)

    @property
    def disabled(self) -> bool:
        return bool(self.box.disabled)

    @disabled.setter
    def disabled(self, off: bool) -> None:
        self.box.disabled = off

    def _read(self) -> None:
        label = self.box.description
        number, self.problem = (read_whole(self.box.value, label, int(self.low), int(self.high)) if self.whole
                                else read_decimal(self.box.value, label, self.low, self.high))
        if number is not None:
            self._value = number
        self.message.value = messages_html([self.problem] if self.problem else [])
        (self.add_class if self.problem else self.remove_class)(INVALID)  # outlined, as the rules editor's fields


def unreadable(*fields: NumberField) -> list[str]:
    """The problems of the fields whose text is not a number in range (empty when all can be used)."""
    return [f.problem for f in fields if f.problem is not None]


class CountsRow:
    """One zone as counts per card kind (a number box per value), with its size and its problems beside it.

    ``cards`` holds the last counts that could be read; ``problems`` names each box
    whose text is not a count, so the builder can refuse the form while it stands.
    """

    def __init__(self, label: str, kinds: tuple[int, ...], cards: Cards, on_change: Callable[[], None]) -> None:
        self.kinds = kinds
        self.name = label
        self.label = w.HTML(f"<b>{html.escape(label)}</b>", layout=w.Layout(width="120px"))
        self.boxes = [number_box(cards[k]) for k in kinds]
        self.total = w.HTML(layout=w.Layout(width="40px"))
        self.message = w.HTML()
        self.message.add_class("guyenne-row-message")
        self.problems: list[str] = []
        self._counts = list(cards)
        self._read()

        for box in self.boxes:
            box.observe(guarded(self.message)(lambda _c: (self._read(), on_change())), names="value")

    @property
    def cards(self) -> Cards:
        return Cards(self._counts)

    def widgets(self) -> list[w.Widget]:
        return [self.label, *self.boxes, self.total, self.message]

    def set(self, cards: Cards) -> None:
        """Show ``cards`` in the row's boxes (only the boxes whose count changes are written)."""
        self._counts = list(cards)
        for k, box in zip(self.kinds, self.boxes):
            box.value = str(cards[k])
        self._read()

    def _read(self) -> None:
        self.problems = []
        for k, box in zip(self.kinds, self.boxes):
            n, problem = read_whole(box.value, f"{self.name}, {SYMBOLS[k]}s", 0, MAX_COUNT)
            if problem is not None:
                self.problems.append(problem)
            else:
                self._counts[k] = n
        self.total.value = f"= {self.cards.size}"
        self.message.value = messages_html(self.problems)


class TotalsRow:
    """A side's cards of each value over all its zones (hands, deck, discard, removed, placed) against
    the rules' count of that value: RULES.md 1 partitions a side's cards among its zones, so a
    miscount shows at the value it is about (red), beside the rows that make it up.
    """

    def __init__(self, kinds: tuple[int, ...]) -> None:
        self.kinds = kinds
        self.label = w.HTML(layout=w.Layout(width="120px"))
        self.label.add_class("guyenne-totals-label")
        self.cells = [w.HTML(layout=w.Layout(width="52px")) for _ in kinds]
        self.total = w.HTML(layout=w.Layout(width="70px"))
        self.mismatched: list[str] = []  # the symbols whose count differs from the rules'

    def widgets(self) -> list[w.Widget]:
        return [self.label, *self.cells, self.total]

    def show(self, counted: Cards, expected: Cards | None) -> None:
        """Write ``counted`` per value against ``expected`` (the rules' card set; None while the rules are invalid)."""
        self.label.value = "<b>" + html.escape(gettext("total / rules")) + "</b>"
        self.mismatched = []
        for k, cell in zip(self.kinds, self.cells):
            n, want = counted[k], (expected[k] if expected is not None else None)
            ok = want is None or n == want
            if not ok:
                self.mismatched.append(SYMBOLS[k])
            tip = (ngettext("{count} card of {symbol} in all zones; the rules give each side {rules}",
                            "{count} cards of {symbol} in all zones; the rules give each side {rules}", n).format(
                count=n, symbol=SYMBOLS[k], rules=want) if want is not None else "")
            shown = f"{n}/{want}" if want is not None else str(n)
            look = "color:#1d6b2f" if ok else "color:#9b1c1c;background:#fde2e2;outline:1px solid #9b1c1c"
            cell.value = (f'<span class="guyenne-total" data-kind="{SYMBOLS[k]}" data-ok="{str(ok).lower()}" '
                          f'title="{html.escape(tip)}" style="{look};font-weight:bold;padding:0 2px">{shown}</span>')
        size = f"{counted.size}/{expected.size}" if expected is not None else str(counted.size)
        self.total.value = f"= {size}"


# ---------------------------------------------------------------------- problems
#: sections of the builder form, in display order
SECTIONS = ("general", "rules", "castles", "game", "english", "french", "placed")


def symbols(kinds: tuple[int, ...]) -> list[str]:
    return [SYMBOLS[k] for k in kinds]
