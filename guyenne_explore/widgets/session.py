"""Save and open a whole explorer session as one JSON file, through browser downloads and uploads.

A session file holds the whole workspace: the explorer's position, the game played (as a game record from its
first position, so the engine replays and checks every step on the way back in), the step shown (Back and Forward
go on from it), the analysis settings, and every tab's fields and last results (the analysis and its optimal-play
section's solve, the variant lab's variant, comparison and sweep, the skill levels and how they play, the Balance tab's
search and depth, the Play tab's rules, seed and undo, the rulebook's rules and paper, built again when it was).
Results are kept as summaries (a sampled result's distinct games with their counts, never one row a game) that the
panels draw their figures from again on opening, as after a language switch: nothing is played again.  Version 1
files (the position, the history and the analysis settings, with a list of the last results) still open.

Opening a file reads and checks all of it before anything changes, as every loader reads untrusted input: a file
larger than :data:`MAX_SESSION_BYTES` is refused, each field is checked against its widget's choices and bounds
and each result against its type (:func:`..analysis.from_saved`), and a bad file is refused beside the button with
the field named, the explorer keeping what it showed.  No path from the file is ever opened, and none is named
(see :mod:`.files`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..analysis import POLICIES, SavedError, from_saved, to_saved
from ..i18n import N_, gettext, ngettext, plain_count, plain_estimate
from ..engine import IllegalMove
from ..engine import Position
from ..engine import ProblemsError
from ..engine import GameRecord
from ..render.storyboard import record_from_positions
from ..engine import Rules
from .analysis_panel import METHODS, OPTIMAL, rule_set_options
from .files import Download, Upload
from .forms import NumberField, messages_html
from .guard import guarded
from .language import SaidLine, Saying
from .state import AnalysisSettings

if TYPE_CHECKING:  # pragma: no cover
    from .workspace import Workspace

#: what a session file says it is, and the version of its layout
KIND = "guyenne-explore session"
VERSION = 2
#: the versions this explorer opens: 1 kept the position, the history and the analysis settings only
READ_VERSIONS = (1, 2)
#: largest session file opened: every tab's results (a balance search's candidates above all) take more room than
#: a position; the JSON reader holds about ten times a file's size while it reads it
MAX_SESSION_BYTES = 8_000_000
#: longest text a saved text box may hold (a ladder of levels, a range of values)
MAX_FIELD_TEXT = 1000
#: a note on opening a session, as a function of the language (written again after a switch)
Note = Callable[[], str]


class SessionError(ValueError):
    """A session file that cannot be opened, with the reason in words."""


@dataclass(frozen=True)
class Session:
    """A session as read from a file, every part checked."""

    position: Position
    history: tuple[Position, ...]
    index: int
    settings: AnalysisSettings
    #: version 1's results, as RULES.md section 10 writes them (listed on opening; version 2 keeps them in ``tabs``)
    results: dict[str, Any]
    #: each tab's fields (widget, value) and results by :func:`_tabs`'s name, checked (version 2)
    tabs: dict[str, tuple[list[tuple[w.Widget, Any]], dict[str, Any]]]


# ---------------------------------------------------------------------- to a file
def session_data(explorer: Workspace) -> dict[str, Any]:
    """The explorer's session as JSON data (refused while the builder's position is not valid)."""
    p, played = explorer.state.position, explorer.state.history
    if p is None:
        raise SessionError(gettext("the built position is not valid: fix its problems before saving the session"))
    history, index = played.positions, played.index
    settings = explorer.state.analysis.to_json()
    tabs = {name: {"fields": {key: to_saved(_value(field)) for key, field in tab.saved_fields().items()},
                   "results": tab.saved_results()} for name, tab in _tabs(explorer).items()}
    return {"kind": KIND, "version": VERSION, "position": p.to_json(),
            "history": record_from_positions(history).to_json(), "step": index, "analysis": settings, "tabs": tabs}


def _tabs(explorer: Workspace) -> dict[str, Any]:
    """Each part of the workspace a session keeps besides the analysis settings, by its name in the file, in the
    order it is opened (the lab before the Balance tab, which may start from the lab's variant).  Each has
    ``saved_fields()`` (its fields by name, in the order they are set back), ``SAVED`` (each result's name and the
    type it is read back as), ``saved_results()`` and ``show_saved(checked)``."""
    return {"lab": explorer.lab, "skill": explorer.skill, "style": explorer.skill.how_they_play,
            "balance": explorer.balance, "play": explorer.play, "rulebook": explorer.rulebook,
            "analysis": explorer.analysis, "optimal": explorer.analysis.optimal, "learn": explorer.learn}


def _value(field: w.Widget) -> Any:
    """A field's value as a session keeps it (a multiple choice as a list)."""
    return list(field.value) if isinstance(field, w.SelectMultiple) else field.value


# ---------------------------------------------------------------------- from a file
def _whole(settings: dict[str, Any], name: str, low: int, high: int) -> int:
    value = settings.get(name)
    if type(value) is not int or not low <= value <= high:
        raise SessionError(gettext("the analysis setting {name} must be a whole number from {low} to {high}, "
                                   "not {value}").format(name=name, low=plain_count(low), high=plain_count(high),
                                                         value=repr(value)[:40]))
    return value


def _choice(settings: dict[str, Any], name: str, choices: tuple[str, ...]) -> str:
    value = settings.get(name)
    if value not in choices:
        raise SessionError(gettext("the analysis setting {name} must be one of {choices}, not {value}").format(
            name=name, choices=", ".join(choices), value=repr(value)[:40]))
    return str(value)


def _settings(data: Any) -> AnalysisSettings:
    """The analysis settings of a file, checked against what the analysis offers (its policies, methods, bounds)."""
    if not isinstance(data, dict):
        raise SessionError(gettext("the analysis settings must be an object"))
    bounds = AnalysisSettings.BOUNDS
    rule_sets = data.get("rule_sets")
    if not isinstance(rule_sets, list) or not rule_sets:
        raise SessionError(gettext("the analysis settings name no rule set"))
    try:
        rules = [Rules.from_json(r) for r in rule_sets]
    except (ProblemsError, ValueError, TypeError) as exc:
        raise SessionError(gettext("a rule set of the analysis settings is not valid: {error}").format(error=exc)) from None
    force = data.get("force_exact", False)
    if not isinstance(force, bool):
        raise SessionError(gettext("the analysis setting force_exact must be true or false"))
    return AnalysisSettings(tuple(rules), english_policy=_choice(data, "english_policy", tuple(POLICIES)),
                            french_policy=_choice(data, "french_policy", tuple(POLICIES)),
                            search_budget=_whole(data, "search_budget", *bounds["search_budget"]),
                            method=_choice(data, "method", (*METHODS, OPTIMAL)),
                            games=_whole(data, "games", *bounds["games"]), seed=_whole(data, "seed", *bounds["seed"]),
                            force_exact=force)


def _option(field: w.Widget, data: Any, where: str) -> Any:
    """One of a choice's options as the file names it; a rule set the field does not offer (yet: the options follow
    the position, opened first) is kept as rules, and left out with a note if still not offered."""
    offered = [value for _label, value in field.options] if field.options and isinstance(
        field.options[0], tuple) else list(field.options)
    for value in offered:
        if to_saved(value) == data:
            return value
    if isinstance(data, (dict, str)) and any(isinstance(v, Rules) for v in offered):
        return from_saved(Rules, data, where)
    raise SessionError(gettext("the field {name} must be one of {choices}, not {value}").format(
        name=where, choices=", ".join(str(to_saved(v)) for v in offered)[:300], value=repr(data)[:40]))


def _field(field: w.Widget, data: Any, where: str) -> Any:
    """A field's saved value, checked against what the field offers: a number within its bounds, one of its choices,
    true or false, a text of at most :data:`MAX_FIELD_TEXT` characters."""
    if isinstance(field, NumberField):
        whole = type(data) is int
        if not (whole or (not field.whole and type(data) is float)) or not field.low <= data <= field.high:
            raise SessionError(gettext("the field {name} must be a number from {low} to {high}, not {value}").format(
                name=where, low=field.low, high=field.high, value=repr(data)[:40]))
        return data
    if isinstance(field, w.SelectMultiple):
        if not isinstance(data, list) or len(data) > len(field.options) + 20:
            raise SessionError(gettext("the field {name} must be a list of its choices").format(name=where))
        return tuple(_option(field, x, f"{where}[{i}]") for i, x in enumerate(data))
    if isinstance(field, w.Dropdown):
        return _option(field, data, where)
    if isinstance(field, w.Checkbox):
        if not isinstance(data, bool):
            raise SessionError(gettext("the field {name} must be true or false").format(name=where))
        return data
    if not isinstance(data, str) or len(data) > MAX_FIELD_TEXT:
        raise SessionError(gettext("the field {name} must be a text of at most {count} characters").format(
            name=where, count=MAX_FIELD_TEXT))
    return data


def _tab(tab: Any, data: Any, where: str) -> tuple[list[tuple[w.Widget, Any]], dict[str, Any]]:
    """A tab's fields (each with its checked value, in the order they are set back) and results (each read back as
    the type the tab names in ``SAVED``)."""
    if not isinstance(data, dict) or not isinstance(data.get("fields", {}), dict) or not isinstance(
            data.get("results", {}), dict):
        raise SessionError(gettext("{name} must be an object of fields and results").format(name=where))
    fields, results, known = data.get("fields", {}), data.get("results", {}), tab.saved_fields()
    unknown = sorted(set(fields) - set(known)) + sorted(set(results) - set(tab.SAVED))
    if unknown:
        raise SessionError(gettext("{name} has an unknown field {field}").format(name=where, field=repr(unknown[0])[:60]))
    values = [(field, _field(field, fields[key], f"{where}.fields.{key}")) for key, field in known.items() if key in fields]
    try:
        checked = {key: from_saved(kind, results[key], f"{where}.results.{key}") for key, kind in tab.SAVED.items()
                   if key in results}
    except SavedError as exc:
        raise SessionError(str(exc)) from None
    return values, checked


def read_session(text: str, explorer: Workspace) -> Session:
    """The session a file's text holds, every part checked by the engine; a SessionError says what is wrong."""
    if len(text) > MAX_SESSION_BYTES:
        raise SessionError(gettext("the file is too large for a session"))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:  # where, in the page's language (Python's own words are English)
        raise SessionError(gettext("the file is not JSON (line {line}, column {column})").format(
            line=exc.lineno, column=exc.colno)) from None
    except (ValueError, RecursionError):
        raise SessionError(gettext("the file is not JSON a session can hold (nested too deep, or a number too "
                                   "long)")) from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise SessionError(gettext("the file is not a saved session (its kind is not {kind})").format(kind=repr(KIND)))
    if data.get("version") not in READ_VERSIONS:
        raise SessionError(gettext("the session's version {version} is not one this explorer reads ({known})").format(
            version=repr(data.get("version"))[:20], known=", ".join(map(str, READ_VERSIONS))))
    if not isinstance(data.get("position"), dict):
        raise SessionError(gettext("the session holds no position"))
    try:
        position = Position.from_json(data["position"])
    except ProblemsError as exc:
        raise SessionError(gettext("the session's position is not valid: {problems}").format(
            problems="; ".join(exc.lines()[:3]))) from None
    try:
        history = tuple(GameRecord.from_json(data.get("history")).positions())
    except (ValueError, KeyError, TypeError, IllegalMove, ProblemsError) as exc:
        raise SessionError(gettext("the session's history is not a game the engine can replay: {error}").format(
            error=str(exc)[:200])) from None
    index = data.get("step")
    if type(index) is not int or not 0 <= index < len(history) or history[index] != position:
        raise SessionError(gettext("the session's step does not lead its history to its position"))
    results = data.get("results", {}) if data["version"] == 1 else {}
    if not isinstance(results, dict):
        raise SessionError(gettext("the session's results must be an object"))
    saved = data.get("tabs", {}) if data["version"] > 1 else {}
    if not isinstance(saved, dict):
        raise SessionError(gettext("the session's tabs must be an object"))
    tabs = _tabs(explorer)
    unknown = sorted(set(saved) - set(tabs))
    if unknown:
        raise SessionError(gettext("the session has an unknown tab {name}").format(name=repr(unknown[0])[:60]))
    checked = {name: _tab(tab, saved[name], f"tabs.{name}") for name, tab in tabs.items() if name in saved}
    return Session(position, history, index, _settings(data.get("analysis")), results, checked)


def open_session(explorer: Workspace, session: Session) -> list[Note]:
    """Show ``session`` in the explorer: the position, the history and its step, the analysis settings.
    Returns notes on what could not be restored (a rule set the panel does not offer for this position)."""
    explorer.state.follow(session.history, session.index)  # its position is the session's (read_session checks)
    explorer.state.analysis = session.settings  # the analysis panel shows them, leaving out a rule set it does not offer
    offered = [rules for _label, rules in rule_set_options(session.position)]
    notes = [_left_out(r) for r in session.settings.rule_sets if r not in offered]
    tabs = _tabs(explorer)
    for name, (values, results) in session.tabs.items():
        for field, value in values:
            notes += _set(field, value)
        if results:
            tabs[name].show_saved(results)
    return notes


def _set(field: w.Widget, value: Any) -> list[Note]:
    """Set a field to its checked value; a rule set it does not offer for this position is left out, said in a note."""
    if not isinstance(field, (w.Dropdown, w.SelectMultiple)):
        field.value = value
        return []
    offered = [v for _label, v in field.options] if field.options and isinstance(field.options[0], tuple) \
        else list(field.options)
    chosen = value if isinstance(field, w.SelectMultiple) else (value,)
    kept = tuple(v for v in chosen if v in offered)
    if isinstance(field, w.SelectMultiple):
        field.value = kept
    elif kept:
        field.value = kept[0]
    return [_left_out(r) for r in chosen if r not in offered]


def _left_out(rules: Rules) -> Note:
    """The note that ``rules`` was left out, in the language shown when it is read (it is read again after a
    language switch)."""
    return lambda: gettext("the rule set {rules} is not offered for this position: left out").format(rules=rules)


def results_summary_html(results: dict[str, Any]) -> str:
    """One line per saved result: who wins how often, and how it was computed (the results are not run again)."""
    lines = []
    for label, r in results.items():
        win = r.get("win", {}) if isinstance(r, dict) else {}
        try:
            games = int(r.get("games", 0))
            how = gettext("exact") if r.get("exact") else ngettext("{count} game", "{count} games", games).format(
                count=plain_count(games))
            line = gettext("{label}: English {english}, French {french}, draw {draw} ({how})").format(
                label=label, english=plain_estimate(float(win.get("english", 0))),
                french=plain_estimate(float(win.get("french", 0))), draw=plain_estimate(float(win.get("draw", 0))),
                how=how)
        except (TypeError, ValueError, AttributeError):
            line = gettext("{label}: a result this explorer cannot read").format(label=label)
        lines.append(f"<li>{escape(line)}</li>")
    if not lines:
        return ""
    return "<div>" + escape(gettext("The last results saved with the session (run again to see their figures):")) + \
        "<ul>" + "".join(lines) + "</ul></div>"


# ---------------------------------------------------------------------- the controls
class SessionControls(w.VBox):
    """"Save session" (a browser download) and "Open session" (an upload), with their words beside them."""

    def __init__(self, explorer: Workspace, **kwargs: Any) -> None:
        self.explorer = explorer
        self.save_button = w.Button(description=N_("Save session"), icon="download", layout=w.Layout(width="auto"),
                                    tooltip=N_("one JSON file: the position, the rules, the moves, and every tab's "
                                               "settings and last results"))
        self.file = Download()
        self.upload = Upload(N_("Open session"), accept=".json,application/json", max_bytes=MAX_SESSION_BYTES)
        self.upload.on_text(guarded(self.upload, "message")(self._opened))
        # what was opened, and the notes on it, follow a language switch (see refresh)
        self.message = SaidLine()
        self.message.add_class("guyenne-session-message")
        self.opened = Saying(self.upload, "message")
        self.save_button.on_click(guarded(self.message)(lambda _b: self.save()))
        super().__init__([w.HBox([self.save_button, self.upload, self.file],
                                 layout=w.Layout(flex_flow="row wrap", align_items="center")), self.message], **kwargs)
        self.add_class("guyenne-session")

    def save(self) -> bool:
        """Hand the session to the browser as ``guyenne-session-….json``; False with the reason when refused."""
        try:
            data = session_data(self.explorer)
        except SessionError as exc:
            self.message.value = messages_html([str(exc)])
            return False
        p = self.explorer.state.position
        assert p is not None
        self.file.offer(f"guyenne-session-{p.rules.preset_name}-round{p.round}.json", json.dumps(data))
        self.message.clear()
        return True

    def open_text(self, name: str, text: str) -> bool:
        """Open a session file's text; a bad file is refused beside the button and nothing changes."""
        try:
            session = read_session(text, self.explorer)
        except SessionError as exc:
            self.upload.message = messages_html([gettext("{name} was not opened: {reason}").format(
                name=name[:80], reason=exc)])
            return False
        notes = open_session(self.explorer, session)
        self.opened.say(lambda: escape(gettext("opened {name}").format(name=name[:80])))
        self.message.say(lambda: messages_html([note() for note in notes]) + results_summary_html(session.results))
        return True

    def refresh(self) -> None:
        """After a language switch: what was opened and the notes on it, in the new language."""
        self.opened.refresh()
        self.message.refresh()

    def _opened(self, name: str, text: str) -> None:
        self.open_text(name, text)
