"""The language of every user-facing text: English (the messages as written) or French.

The standard gettext machinery: the code writes its English sentences inside
``_("...")`` (or ``N_("...")`` where a table defines a message that is
translated later), Babel extracts them into ``locale/guyenne_explore.pot``
and the French catalogue ``locale/fr/LC_MESSAGES/guyenne_explore.po``, and
compiles that to the ``.mo`` file read here with the standard library's
:mod:`gettext` (README "Languages" gives the commands).  Messages carry named
parameters, ``_("{side} holds {count} cards").format(side=..., count=...)``,
so a translation may reorder them; no sentence is assembled from fragments.

The compiled ``.mo`` is committed beside its ``.po``: the package then works
from a fresh clone, an editable install or a wheel with no build step (Babel at
run time only words durations, counts and sizes); ``tests/test_i18n.py`` fails when the ``.mo`` is
not the compilation of the ``.po`` or the ``.po`` is not in step with the code.

The language is ``en`` or ``fr``.  A call names it (``lang="fr"``) or takes the
process's current language: :func:`set_language` (the command line's
``--lang``, the explorer's switch), else the locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG`` starting with ``fr``), else English.

This module is a leaf of the engine: it imports only the standard library (and Babel, on the first
plain duration, count or size it words).
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from functools import lru_cache
from pathlib import Path

DOMAIN = "guyenne_explore"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "fr")
#: The languages' names as the switch shows them (each in its own language).
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}

_current: str | None = None


class LanguageError(ValueError):
    """A language other than those offered."""


def check_language(lang: str) -> str:
    """``lang`` itself when offered (``en``, ``fr``; case and a region such as ``fr_FR`` are ignored)."""
    if isinstance(lang, str):
        short = lang.strip().lower().replace("-", "_").split("_", 1)[0]
        if short in LANGUAGES:
            return short
    raise LanguageError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")


def locale_language(environ: dict[str, str] | None = None) -> str:
    """The locale's language: French when the first set of LC_ALL, LC_MESSAGES, LANG starts with ``fr``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def set_language(lang: str | None) -> str | None:
    """Make ``lang`` the process's current language (None: follow the locale again); returns the previous
    setting (None where it followed the locale), so that a caller can put it back."""
    global _current
    previous = _current
    _current = None if lang is None else check_language(lang)
    return previous


def current_language() -> str:
    """The language of texts that name none: the one set by :func:`set_language`, else the locale's."""
    return _current or locale_language()


@lru_cache(maxsize=None)
def _catalogue(lang: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def translator(lang: str | None = None) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (default: the current language); English is the messages as written."""
    return _catalogue(current_language() if lang is None else check_language(lang))


def gettext(message: str, lang: str | None = None) -> str:
    """``message`` in ``lang`` (default: the current language)."""
    return translator(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """The singular or plural form for ``n``, in ``lang``."""
    return translator(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined (a table); it is translated where it is shown."""
    return message


#: The sides as nouns, as the French rules name them ("les Anglais", "les Français").
_SIDE_NOUNS = {"english": N_("the English"), "french": N_("the French"), "nobody": N_("nobody"),
               "draw": N_("a draw")}
#: The sides as adjectives / titles ("Anglais", "Français"), for labels.
_SIDE_TITLES = {"english": N_("English"), "french": N_("French"), "neutral": N_("neutral")}


def side_noun(name: str, lang: str | None = None, capital: bool = False) -> str:
    """A side's name in a sentence: ``the English`` / ``les Anglais``; other words are returned as given."""
    key = name.lower() if isinstance(name, str) else name
    text = gettext(_SIDE_NOUNS[key], lang) if key in _SIDE_NOUNS else str(name)
    return capitalised(text) if capital else text


def side_title(name: str, lang: str | None = None) -> str:
    """A side's name as a label: ``English`` / ``Anglais`` (``neutral`` / ``neutre``)."""
    key = name.lower() if isinstance(name, str) else name
    return gettext(_SIDE_TITLES[key], lang) if key in _SIDE_TITLES else str(name)


#: the number a person reads and types for the first castle: the rulebook and the table number castles 1 to n, while
#: RULES.md's file format, the notation's files and ``data-castle`` attributes keep the 0-based index.  A move a
#: person types or reads in the explorer is written so (``Move.text(FIRST_CASTLE)``, ``parse_move(..., FIRST_CASTLE)``):
#: a person typed ``3:32`` for the table's castle 3 and opened castle 4 while typed moves kept the index
FIRST_CASTLE = 1


def castle_number(index: int) -> int:
    """Castle ``index`` as a reader counts it (:data:`FIRST_CASTLE`). Every label and sentence a person reads says a
    castle through this, so the two counts never meet in one text by accident."""
    return index + FIRST_CASTLE


def pgettext(context: str, message: str, lang: str | None = None) -> str:
    """``message`` in ``lang`` where the same English word means different things (``context`` tells which)."""
    return translator(lang).pgettext(context, message)


#: The decision points and chance events, by their notation names (RULES.md section 10).
POINTS_CONTEXT = "decision point"


def point_name(point: str, lang: str | None = None) -> str:
    """A decision point as a reader sees it, in the rulebook's words (``the opening at the first castle (X)``,
    ``attaque ou défense du premier château (X)``) rather than the notation's key, which only files and the command line's
    machine output keep; an unknown name is returned as given."""
    name = _POINTS.get(point) if isinstance(point, str) else None
    return point if name is None else pgettext(POINTS_CONTEXT, name, lang)


def NP_(context: str, message: str) -> str:
    """Mark a message and its context for extraction where a table defines it (see :func:`N_`)."""
    return message


#: The engine's decision points (a copy: this module imports nothing of the engine; pinned by tests/test_i18n.py)
#: and their names in English; the context keeps "draw" apart from the outcome "draw".
_POINTS = {
    "setup_discard": NP_("decision point", "the setup discard"),
    "team_split": NP_("decision point", "the sharing of the team's cards"),
    "team_order": NP_("decision point", "the team's order of play"),
    "open_first": NP_("decision point", "the opening at the first castle (X)"),
    "respond_first": NP_("decision point", "the answer at the first castle (X)"),
    "open_second": NP_("decision point", "the opening at the second castle (Y)"),
    "respond_second": NP_("decision point", "the answer at the second castle (Y)"),
    "concede_choice": NP_("decision point", "the choice to reveal or concede"),
    "remove_choice": NP_("decision point", "the choice of the cards removed"),
    "deal": NP_("decision point", "the deal"),
    "draw": NP_("decision point", "the end-of-turn draw"),
    "end": NP_("decision point", "the end of the game"),
}


def capitalised(text: str) -> str:
    """The sentence with its first letter in capitals (a translated sentence may start with a parameter)."""
    return text[:1].upper() + text[1:]


__all__ = ["DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "LOCALE_DIR", "LanguageError", "NP_", "N_", "capitalised",
           "check_language", "current_language", "gettext", "locale_language", "ngettext", "pgettext", "point_name",
           "percent_sign", "plain_count", "plain_duration", "plain_number", "plain_percent", "plain_size", "set_language",
           "side_noun", "side_title", "translator"]


# Plain durations, counts and sizes, worded by Babel (CLDR) in the language asked for.  Babel is
# imported on first use, so that importing the engine stays light.

#: A year in seconds: an estimate beyond it reads "more than a year", not a number of years.
_YEAR = 365 * 86400


def plain_duration(seconds: float, lang: str | None = None) -> str:
    """A duration as a person says it: "about 40 seconds", "about 2 minutes", "more than a year".

    One unit, rounded by Babel (59.6 s reads "about 1 minute"), so an estimate never reads more
    precise than it is."""
    from datetime import timedelta

    from babel.dates import format_timedelta

    if not seconds == seconds or seconds >= _YEAR:  # NaN or beyond a year
        return gettext("more than a year", lang)
    if seconds < 1:
        return gettext("under a second", lang)
    lang = lang or current_language()
    return gettext("about {duration}", lang).format(duration=format_timedelta(timedelta(seconds=seconds), locale=lang))


def plain_count(n: float, lang: str | None = None) -> str:
    """A count in full with the language's digit grouping: "1,234,567", "1 234 567"."""
    from babel.numbers import format_decimal

    return format_decimal(n, locale=lang or current_language())


def number_separators(lang: str | None = None) -> str:
    """The language's decimal and digit-group symbols, as plotly's ``layout.separators`` takes them (".," in
    English, ",\u202f" in French), so that a figure's axes and hover read as the tables around them."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    lang = lang or current_language()
    return get_decimal_symbol(lang) + get_group_symbol(lang)


def percent_sign(lang: str | None = None) -> str:
    """What the language writes after a percentage's digits ("%", "\u00a0%"), for a figure's axis and hover: plotly's
    ``.0%`` format writes "20%" in every language, beside text that says "16\u00a0%" in French."""
    return re.sub(r"^[\d.,\s\u202f]*\d", "", plain_percent(0.5, lang))


def plain_percent(share: float, lang: str | None = None, decimals: int = 0, zeros: bool = True) -> str:
    """A share of a whole in percent with ``decimals`` decimals (``zeros`` False: at most, "5\u00a0%" not "5,0\u00a0%"),
    as the language writes it: "40%", "40\u00a0%", "12,5\u00a0%" (the locale's own pattern, its decimals widened: a
    pattern of ours would drop French's space)."""
    from babel import Locale
    from babel.numbers import format_percent

    lang = lang or current_language()
    pattern = Locale.parse(lang).percent_formats[None].pattern
    if decimals:
        pattern = re.sub(r"0(?=[^0#,]*$)", "0." + ("0" if zeros else "#") * decimals, pattern, count=1)
    return format_percent(share, format=pattern, locale=lang)


def plain_number(value: float, decimals: int | None, lang: str | None = None, signed: bool = False) -> str:
    """A number to ``decimals`` decimals (None: as few as it needs, at most 3) in the language's decimals ("0,5" in
    French), with its "+" when ``signed`` and not negative: a gap or a score difference written with Python's "."
    read as English in a French page."""
    from babel.numbers import format_decimal

    digits = "0.###" if decimals is None else "0." + "0" * decimals if decimals else "0"
    return format_decimal(value, format=f"+{digits};-{digits}" if signed else digits, locale=lang or current_language())


def plain_estimate(value: float, low: float | None = None, high: float | None = None, lang: str | None = None) -> str:
    """A measured value to three decimals with its 95% interval where it has one, in the language's decimals, as
    the tables and the command line show it: "0.510 [0.461, 0.559]"; in French "0,510 [0,461 ; 0,559]" (a comma
    between the bounds would read as a decimal one)."""
    from babel.numbers import format_decimal, get_decimal_symbol

    lang = lang or current_language()

    def shown(x: float) -> str:
        return format_decimal(x, format="0.000", locale=lang)

    if low is None or high is None:
        return shown(value)
    # where the decimal symbol is a comma, the bounds are parted by a semicolon (no-break space before it, as French
    # typography wants): the language's symbol is Babel's, not a list of languages kept here
    between = "\u00a0; " if get_decimal_symbol(lang) == "," else ", "
    return f"{shown(value)} [{shown(low)}{between}{shown(high)}]"


#: Babel's (CLDR's) units of digital size, largest first, with their size in bytes.
_SIZES = ((10**12, "digital-terabyte"), (10**9, "digital-gigabyte"), (10**6, "digital-megabyte"),
          (10**3, "digital-kilobyte"))


def plain_size(n_bytes: float, lang: str | None = None) -> str:
    """A size in the language's short units, one decimal at most: "812 byte", "7.4 GB", "7,4 Go"."""
    from babel.units import format_unit

    lang = lang or current_language()
    for size, unit in _SIZES:
        if n_bytes >= size:
            return format_unit(n_bytes / size, unit, length="short", format="#,##0.#", locale=lang)
    return format_unit(n_bytes, "digital-byte", length="short", format="#,##0", locale=lang)
