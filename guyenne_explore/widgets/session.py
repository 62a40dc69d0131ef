"""Save and open a whole explorer session as one JSON file, through browser downloads and uploads.

A session file holds the explorer's position, the game played (as a
game record from its first position, so the engine replays and checks every
step on the way back in), the step shown, the analysis settings and a summary
of the last results (each result as RULES.md section 10 writes it).  Opening a
file reads and checks all of it before anything changes: a bad file is refused
with the reason beside the button, and the explorer keeps what it showed.
No server path is ever named (see :mod:`.files`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..analysis import POLICIES
from ..i18n import N_, gettext, ngettext, plain_count
from ..moves import IllegalMove
from ..position import Position
from ..problems import ProblemsError
from ..record import GameRecord
from ..render.storyboard import record_from_positions
from ..rules import Rules
from .analysis_panel import METHODS, OPTIMAL
from .files import MAX_UPLOAD_BYTES, Download, Upload
from .forms import messages_html
from .guard import guarded

if TYPE_CHECKING:  # pragma: no cover
    from .explorer import Explorer

#: what a session file says it is, and the version of its layout
KIND = "guyenne-explore session"
VERSION = 1


class SessionError(ValueError):
    """A session file that cannot be opened, with the reason in words."""


@dataclass(frozen=True)
class Session:
    """A session as read from a file, every part checked."""

    position: Position
    history: tuple[Position, ...]
    index: int
    settings: dict[str, Any]
    results: dict[str, Any]


# ---------------------------------------------------------------------- to a file
def session_data(explorer: Explorer) -> dict[str, Any]:
    """The explorer's session as JSON data (refused while the builder's position is not valid)."""
    p, played = explorer.state.position, explorer.state.history
    if p is None:
        raise SessionError(gettext("the built position is not valid: fix its problems before saving the session"))
    panel = explorer.analysis
    history, index = played.positions, played.index
    settings = {"rule_sets": [r.to_json() for r in panel.rule_sets.value],
                "english_policy": panel.english_policy.value, "french_policy": panel.french_policy.value,
                "search_budget": panel.search_budget.value, "method": panel.method.value,
                "games": panel.games.value, "seed": panel.seed.value, "force_exact": panel.force_exact.value}
    return {"kind": KIND, "version": VERSION, "position": p.to_json(),
            "history": record_from_positions(history).to_json(), "step": index, "analysis": settings,
            "results": {label: r.to_json() for label, r in panel.results.items()}}


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


def _settings(data: Any, explorer: Explorer) -> dict[str, Any]:
    """The analysis settings of a file, checked against what the panel offers."""
    if not isinstance(data, dict):
        raise SessionError(gettext("the analysis settings must be an object"))
    panel = explorer.analysis
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
    return {"rule_sets": rules, "english_policy": _choice(data, "english_policy", tuple(POLICIES)),
            "french_policy": _choice(data, "french_policy", tuple(POLICIES)),
            "search_budget": _whole(data, "search_budget", int(panel.search_budget.low), int(panel.search_budget.high)),
            "method": _choice(data, "method", (*METHODS, OPTIMAL)),
            "games": _whole(data, "games", int(panel.games.low), int(panel.games.high)),
            "seed": _whole(data, "seed", int(panel.seed.low), int(panel.seed.high)), "force_exact": force}


def read_session(text: str, explorer: Explorer) -> Session:
    """The session a file's text holds, every part checked by the engine; a SessionError says what is wrong."""
    if len(text) > MAX_UPLOAD_BYTES:
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
    if data.get("version") != VERSION:
        raise SessionError(gettext("the session's version {version} is not one this explorer reads ({known})").format(
            version=repr(data.get("version"))[:20], known=VERSION))
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
    results = data.get("results", {})
    if not isinstance(results, dict):
        raise SessionError(gettext("the session's results must be an object"))
    return Session(position, history, index, _settings(data.get("analysis"), explorer), results)


def open_session(explorer: Explorer, session: Session) -> list[str]:
    """Show ``session`` in the explorer: the position, the history and its step, the analysis settings.
    Returns notes on what could not be restored (a rule set the panel does not offer for this position)."""
    explorer.state.follow(session.history, session.index)  # its position is the session's (read_session checks)
    panel, s = explorer.analysis, session.settings
    offered = [rules for _label, rules in panel.rule_sets.options]
    chosen = [r for r in s["rule_sets"] if r in offered]
    panel.rule_sets.value = tuple(chosen) or (session.position.rules,)
    panel.english_policy.value, panel.french_policy.value = s["english_policy"], s["french_policy"]
    panel.method.value = s["method"]
    panel.force_exact.value = s["force_exact"]
    panel.search_budget.value, panel.games.value, panel.seed.value = s["search_budget"], s["games"], s["seed"]
    return [gettext("the rule set {rules} is not offered for this position: left out").format(rules=r)
            for r in s["rule_sets"] if r not in offered]


def results_summary_html(results: dict[str, Any]) -> str:
    """One line per saved result: who wins how often, and how it was computed (the results are not run again)."""
    lines = []
    for label, r in results.items():
        win = r.get("win", {}) if isinstance(r, dict) else {}
        try:
            games = int(r.get("games", 0))
            how = gettext("exact") if r.get("exact") else ngettext("{count} game", "{count} games", games).format(count=games)
            line = gettext("{label}: English {english:.3f}, French {french:.3f}, draw {draw:.3f} ({how})").format(
                label=label, english=float(win.get("english", 0)), french=float(win.get("french", 0)),
                draw=float(win.get("draw", 0)), how=how)
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

    def __init__(self, explorer: Explorer, **kwargs: Any) -> None:
        self.explorer = explorer
        self.save_button = w.Button(description=N_("Save session"), icon="download", layout=w.Layout(width="auto"),
                                    tooltip=N_("one JSON file: the position, the rules, the moves, the analysis "
                                               "settings and the last results"))
        self.file = Download()
        self.upload = Upload(N_("Open session"), accept=".json,application/json")
        self.upload.on_text(guarded(self.upload, "message")(self._opened))
        self.message = w.HTML()
        self.message.add_class("guyenne-session-message")
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
        self.file.offer(f"guyenne-session-{p.rules.preset_name}-round{p.round}.json", json.dumps(data, indent=1))
        self.message.value = ""
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
        self.upload.message = escape(gettext("opened {name}").format(name=name[:80]))
        self.message.value = messages_html(notes) + results_summary_html(session.results)
        return True

    def _opened(self, name: str, text: str) -> None:
        self.open_text(name, text)
