"""The language switch of the explorer and the teaching game, and the relabelling it does.

A panel builds its widgets with English texts.  :func:`relabel` walks a
widget tree and shows each fixed text (a button's or field's description, a
placeholder, a tooltip, a tab's or accordion's title, a heading, a choice's label) in the
chosen language, looked up in the gettext catalogue by its English original,
which it keeps on the widget so that switching back and forth never
translates a translation.  Texts a panel writes as it works (statuses, counts,
explanations) are written with ``_()`` in the current language; a switch
redraws them (each panel's ``refresh``).

:data:`LABELS` lists the English fixed texts of the panels so that Babel
extracts them with the rest (``tests/test_i18n.py`` opens an explorer and a
teaching game and fails on any fixed text the catalogue does not translate, so
a new label cannot be forgotten).  Only labels change: values, option values
and the ``data-*`` attributes tests and pages read stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, current_language, gettext, set_language


class Saying:
    """Words a panel writes into a widget's text ``attribute`` as it works (a download, a refusal, a file opened),
    kept as a function of the language so that :meth:`refresh` writes them again after a switch, unless something
    else has replaced them since."""

    def __init__(self, widget: Any, attribute: str = "value") -> None:
        self.widget, self.attribute = widget, attribute
        #: the words last said, as a function of the language, and the text they gave
        self.said: tuple[Callable[[], str], str] | None = None

    def say(self, words: Callable[[], str]) -> None:
        """Write ``words()`` (HTML, escaped by the caller) and keep ``words`` for a language switch."""
        text = words()
        setattr(self.widget, self.attribute, text)
        self.said = (words, text)

    def clear(self) -> None:
        setattr(self.widget, self.attribute, "")
        self.said = None

    def refresh(self) -> None:
        """After a language switch: the words said last, in the new language."""
        if self.said is not None and getattr(self.widget, self.attribute) == self.said[1]:
            self.say(self.said[0])


class SaidLine(w.HTML):
    """A line of HTML whose words follow a language switch (a :class:`Saying` of its value)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.saying = Saying(self)

    def say(self, words: Callable[[], str]) -> None:
        """Write ``words()`` (HTML, escaped by the caller) and keep ``words`` for a language switch."""
        self.saying.say(words)

    def clear(self) -> None:
        self.saying.clear()

    def refresh(self) -> None:
        """After a language switch: the words said last, in the new language."""
        self.saying.refresh()


#: The panels' fixed texts (their English originals), for extraction; see the module docstring.
LABELS = (
    # explorer, builder
    N_("Builder"), N_("Analysis"), N_("Variant lab"), N_("Rulebook"), N_("Learn"), N_("a4"), N_("letter"),
    N_("<h4>Legal moves</h4>"),
    N_("Edit the refused position in the form"),
    N_("fill the form with what the refused load holds, problems beside fields"), N_("start from"), N_("opening"),
    N_("rulebook example"), N_("random mid-game"), N_("seed"), N_("Start"), N_("<h4>Load and save</h4>"),
    N_("Upload position (JSON or notation)"), N_("one-line notation"), N_("Load notation"),
    N_("position JSON, as Show JSON writes it"), N_("Load JSON"), N_("Show JSON"), N_("Download JSON"),
    N_("Download notation"), N_("<h4>Rules</h4>"), N_("rules preset"), N_("removal"), N_("scoring"),
    N_("exhaustion limit L"), N_("reshuffle"), N_("adjacency"), N_("card counts"), N_("hero"), N_("hand size"),
    N_("castles"), N_("max at a castle"), N_("setup discard"), N_("first side"), N_("concede as decision"),
    N_("players"), N_("<h4>Castles</h4> <small>click to cycle neutral → English → French</small>"), N_("<h4>Game</h4>"),
    N_("round"), N_("first player"), N_("decision"), N_("<h4>English</h4>"), N_("<h4>French</h4>"), N_("exhaustions"),
    N_("drawer"), N_("order"), N_("undecided"), N_("0 first"), N_("1 first"), N_("<b>hand</b>"), N_("<b>deck</b>"),
    N_("<b>discard</b>"), N_("<b>removed</b>"), N_("<b>placed at X</b>"), N_("<b>placed at Y</b>"),
    N_("<h4>Placed this round</h4>"), N_("castle X"), N_("castle Y"), N_("pending battle"),
    N_("the battle whose loser still chooses the cards removed, or to reveal or concede"), N_("neutral"),
    # the table's exports
    N_("caption written above the table (optional)"), N_("outline the previewed move"), N_("mark battle winners"),
    N_("hidden cards face up"), N_("where the players sit"),
    N_("a top view of the table with each player's seat (made for the team game)"), N_("PNG scale"),
    N_("Download diagram"), N_("Export the diagram (SVG, PNG, PDF)"), N_("Storyboard PDF"),
    N_("the game so far, one captioned diagram per step that matters"),
    N_("Storyboard SVGs (zip)"),
    # moves
    N_("◀ Back"), N_("Forward ▶"), N_("Apply selected"), N_("Sample chance"), N_("Play out (heuristic)"),
    N_("a move, e.g. 3:H52 or 22 or reveal"),
    # analysis, optimal play, variant lab, downloads
    N_("Rule sets"), N_("English"), N_("French"), N_("Method"), N_("auto"), N_("exact"), N_("sample"),
    N_("optimal play"), N_("uniform"), N_("heuristic"), N_("strong-linear"), N_("strong"), N_("search"),
    N_("force exact (no size limit)"),
    N_("enumerate even when the estimate says it would take very long"), N_("Games"), N_("Seed"),
    N_("run anyway (past the time limit)"), N_("play the games even when they would take more than half an hour"),
    N_("Run analysis"), N_("Cancel"), N_("Download:"), N_("download the figures as html"),
    N_("download the figures as svg"), N_("download the figures as png"), N_("download the results as json"),
    N_("download the results as csv"), N_("<h4>Optimal play (open-hand endgame)</h4>"), N_("Objective"),
    N_("P(win), a draw counting half"), N_("expected score difference"), N_("Exploit"), N_("Budget (s)"),
    N_("seconds allowed for each best response (search is slow)"), N_("Solve: optimal play"),
    N_("<b>Variant</b>: a preset and any parameter changed"), N_("preset"),
    N_("English players"), N_("French players"), N_("Search rollouts"),
    N_("sweep"), N_("from"), N_("to"), N_("metric"), N_("Compare with preset"), N_("Run sweep"),
    # skill levels
    N_("Skill levels"), N_("<b>Skill levels</b> (both sides at each level)"),
    N_("uniform (random legal moves)"), N_("search (built on strong)"), N_("CSV (every metric)"),
    N_("download every metric of every rule set and level as CSV"), N_("download the skill table as JSON"),
    N_("Search games"), N_("Metric"),
    N_("Run skill levels"),
    # the teaching game
    N_("<h4>Rules as they come up</h4>"), N_("show the other side's cards"), N_("your move, e.g. 3:H52"), N_("Play"),
    N_("New game"), N_("<h4>What happened</h4>"),
)
#: Labels made from a number and words: the words are translated, the number kept.
PATTERNS = (
    (re.compile(r"(?P<castle>\d+): (?P<control>neutral|English|French)"), N_("{castle}: {control}")),
    (re.compile(r"(?P<value>\d+) cards"), N_("{value} cards")),
)
_TEXT = ("description", "placeholder", "tooltip")
_KEEP = "_guyenne_english"  # per widget: {attribute: (English original, text shown)}
_NAMER = "_guyenne_option_names"  # per selection widget: the function naming its option values in a language


def name_options(widget: w.Widget, name: Callable[[Any, str], str]) -> w.Widget:
    """Show each option value of a selection widget as ``name(value, lang)`` (a side's title, a decision point's
    rulebook name), now and after each language switch; returns the widget.

    The values (what the panel reads and tests set) stay the engine's keys.  A label
    found by its value, not by looking its English word up, keeps apart words the
    catalogue has twice: the decision point ``draw`` is the end-of-turn draw, not a tie.
    A panel that assigns new ``options`` calls this again.
    """
    setattr(widget, _NAMER, name)
    _name_options(widget, current_language())
    return widget


def _name_options(widget: w.Widget, lang: str) -> None:
    shown = tuple(getattr(widget, _NAMER)(value, lang) for value in widget._options_values)
    if shown != tuple(widget._options_labels):
        widget.set_trait("_options_labels", shown)


def translate(text: str, lang: str) -> str:
    """A fixed English text in ``lang``; a text the catalogue does not know is returned unchanged."""
    if lang == "en" or not text:
        return text
    out = gettext(text, lang)
    if out != text:
        return out
    for pattern, template in PATTERNS:
        m = pattern.fullmatch(text)
        if m:
            return gettext(template, lang).format(**{k: gettext(v, lang) for k, v in m.groupdict().items()})
    return text


def _english(widget: Any, attr: str, current: Any) -> Any:
    """The English original of what ``attr`` shows: kept from the last relabelling unless the panel wrote anew."""
    kept = getattr(widget, _KEEP, {}).get(attr)
    return kept[0] if kept is not None and kept[1] == current else current


def _show(widget: Any, attr: str, english: Any, shown: Any) -> None:
    if not hasattr(widget, _KEEP):
        setattr(widget, _KEEP, {})
    getattr(widget, _KEEP)[attr] = (english, shown)


def _relabel_one(x: w.Widget, lang: str) -> None:
    if isinstance(x, LanguageSwitch):  # each language keeps its own name
        return
    for attr in _TEXT:
        current = getattr(x, attr, None)
        if isinstance(current, str) and current:
            english = _english(x, attr, current)
            shown = translate(english, lang)
            if shown != current:
                setattr(x, attr, shown)
            _show(x, attr, english, shown)
    if isinstance(x, (w.HTML, w.Label)) and isinstance(x.value, str) and x.value and "<style" not in x.value:
        english = _english(x, "value", x.value)
        shown = translate(english, lang)
        if shown != x.value:
            x.value = shown
        _show(x, "value", english, shown)
    if isinstance(x, (w.Tab, w.Accordion, w.Stack)):
        english = _english(x, "titles", tuple(x.titles))
        shown = tuple(translate(t, lang) for t in english)
        if shown != tuple(x.titles):
            x.titles = shown
        _show(x, "titles", english, shown)
    labels = getattr(x, "_options_labels", None)
    if labels and hasattr(x, _NAMER):
        _name_options(x, lang)
    elif labels:
        # only the labels shown change: the values, the index and the observers of the value are untouched
        english = _english(x, "_options_labels", tuple(labels))
        shown = tuple(translate(t, lang) for t in english)
        if shown != tuple(labels):
            x.set_trait("_options_labels", shown)
        _show(x, "_options_labels", english, shown)
    decimals = getattr(x, "show_decimals", None)  # a decimal field shows its number as the new language writes it
    if callable(decimals):
        decimals()


def widgets_of(root: w.Widget) -> list[w.Widget]:
    """Every widget under ``root`` (children of boxes, tabs and accordions), once each."""
    out, seen, todo = [], set(), [root]
    while todo:
        x = todo.pop()
        if id(x) in seen or not isinstance(x, w.Widget):
            continue
        seen.add(id(x))
        out.append(x)
        todo.extend(reversed(list(getattr(x, "children", ()) or ())))
    return out


def relabel(root: w.Widget, lang: str) -> None:
    """Show every fixed text under ``root`` in ``lang`` (see the module docstring)."""
    for x in widgets_of(root):
        _relabel_one(x, lang)


class LanguageSwitch(w.ToggleButtons):
    """English / Français: sets the process's language and calls ``on_change(lang)`` (the owner redraws)."""

    def __init__(self, on_change: Callable[[str], None], lang: str | None = None, **kwargs: Any) -> None:
        super().__init__(options=[(LANGUAGE_NAMES[code], code) for code in LANGUAGES], value=lang or current_language(),
                         style={"button_width": "96px"}, icons=["globe"] * len(LANGUAGES),
                         # the globe: the language of the page, not a side of the table (English, French)
                         tooltips=["Language: English", "Langue\u00a0: français"], **kwargs)
        self.add_class("guyenne-language")
        self._on_change = on_change
        self.observe(lambda change: self._switch(change["new"]), names="value")

    def _switch(self, lang: str) -> None:
        set_language(lang)
        self._on_change(lang)


__all__ = ["LABELS", "LanguageSwitch", "SaidLine", "Saying", "name_options", "relabel", "translate", "widgets_of"]
