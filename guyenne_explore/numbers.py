"""The one reading of a number a person types: a panel's box, a command-line option, a policy's budget
(``search:200``), a balance range (``hand_size=5:7``, ``draws=:0,05``).

Python's ``int`` and ``float`` read more than a person means by a number: the digits of any script
(``'１０'``, ``'٣'``, but not a superscript ``'²'``), underscores (``1_000``), exponents (``1e3``), ``inf``
and ``nan``.  Where one box read such a text and another refused it, the same text meant a number in one
place and nothing in the next, and ``1e9`` at the end of a range asked for a list of a billion values.
So every place that reads a typed number reads it here, and reads the same forms:

- a whole number: the digits 0-9, after a minus sign where one is typed (``-3``: its bounds then say
  whether it may be below zero);
- a decimal: the same with one decimal point or one decimal comma (``0.45``, ``0,45``, ``.5``), the comma
  as a French designer types it.

Space around the text is ignored.  Every other text is refused with a :class:`NumberError` that names
the field, quotes what was typed and says the form accepted, and a number outside its bounds with one that
names the bound it crosses: the same words wherever the text was typed.  The standard library and the
package's words only, so that every layer may read numbers here.
"""

from __future__ import annotations

import re
from typing import NoReturn

from .i18n import gettext, pgettext, plain_count

#: a whole number as typed: ASCII digits after an optional minus sign (re.ASCII: ``[0-9]`` only)
WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
#: a decimal as typed: a whole number with one decimal point or comma, either side of it may be bare
DECIMAL = re.compile(r"-?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)", re.ASCII)
#: more digits than any bound has (a bound is a count, a seed below 2**63 or a size): such a number is out
#: of bounds whatever they are, and is never converted (Python refuses to convert 4,300 digits or more)
MAX_DIGITS = 40
#: the longest text quoted whole in a refusal (a pasted page is quoted by its start)
QUOTED = 20


class NumberError(ValueError):
    """A typed number refused: its message names the field, quotes the text and says why (its form or its
    bound); ``field`` and ``typed`` keep them for a caller that shows them apart."""

    def __init__(self, message: str, field: str, typed: str) -> None:
        super().__init__(message)
        self.field, self.typed = field, typed


def quoted(typed: str) -> str:
    """What was typed as a refusal quotes it: in the language's quotes ('x' in English, « x » in French), control
    characters escaped, its start when long."""
    inside = repr(typed if len(typed) <= QUOTED else typed[:QUOTED - 3] + "...")[1:-1]
    return pgettext("quoted text", "'{text}'").format(text=inside)


def whole(text: str, field: str, low: int, high: int) -> int:
    """The whole number typed in ``text``, from ``low`` to ``high``; a :class:`NumberError` otherwise.

    ``field`` is the field's name as the person sees it (an option, a box's label), already in their
    language: every refusal starts with it."""
    typed = text.strip()
    if not typed:
        raise NumberError(gettext("{label} is empty: type a whole number").format(label=field), field, typed)
    if not WHOLE.fullmatch(typed):
        raise NumberError(gettext("{label} must be a whole number written with the digits 0-9, not {value}").format(
            label=field, value=quoted(typed)), field, typed)
    if len(typed.lstrip("-").lstrip("0")) > MAX_DIGITS:
        _out_of_bounds(typed.startswith("-"), field, typed, low, high)
    value = int(typed)
    if not low <= value <= high:
        _out_of_bounds(value < low, field, typed, low, high)
    return value


def decimal(text: str, field: str, low: float, high: float) -> float:
    """The decimal number typed in ``text`` (``2``, ``1.5``, ``.25``, ``1,5``), from ``low`` to ``high``; a
    :class:`NumberError` otherwise (``field`` as for :func:`whole`)."""
    typed = text.strip()
    if not typed:
        raise NumberError(gettext("{label} is empty: type a number").format(label=field), field, typed)
    if not DECIMAL.fullmatch(typed):
        raise NumberError(gettext("{label} must be a number written with the digits 0-9 and at most one decimal "
                                  "point or comma (0.45 or 0,45), not {value}").format(label=field, value=quoted(typed)),
                          field, typed)
    value = float(typed.replace(",", "."))  # the form is checked: many digits read as infinity, never fail
    if not low <= value <= high:
        _out_of_bounds(value < low, field, typed, low, high)
    return value


def _out_of_bounds(below: bool, field: str, typed: str, low: float, high: float) -> NoReturn:
    """Refuse a well-written number outside its bounds, naming the bound it crosses (in the language's digits)
    and the number as typed."""
    shown = typed if len(typed) <= QUOTED else typed[:QUOTED - 3] + "..."
    if below:
        message = gettext("{label} must be at least {low}, not {value}").format(label=field, low=plain_count(low),
                                                                                value=shown)
    else:
        message = gettext("{label} must be at most {high}, not {value}").format(label=field, high=plain_count(high),
                                                                               value=shown)
    raise NumberError(message, field, typed)
