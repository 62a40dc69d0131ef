"""The position builder: the form (:mod:`.position_form`) with the controls around it.

Around the form: Undo and Redo through every state the form has been in, the header that
says whether the form holds a valid position, the start chooser, and loads and saves.  The
builder writes the explorer's state (:mod:`.state`) on its own edits only, a valid position or
the problems of an invalid one; a position the state gets elsewhere (a move, Back, Forward) is
shown in the form without being read back from it.

Positions come in by upload, pasted JSON or notation, and go out as browser
downloads: nothing in the page names a server path (see :mod:`.files`).  A load
that is not a valid position is refused beside the control that was used and
leaves the form, and so the last valid position, as it was; the refused position
can still be opened in the form on request, to fix its problems field by field.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..i18n import gettext
from ..i18n import gettext as _
from ..i18n import N_, ngettext
from ..engine import Position
from ..engine import PositionError
from .files import MAX_UPLOAD_BYTES, Download, Upload, inside_workspace, read_workspace_text
from .forms import messages_html
from .guard import guarded
from .position_form import FormState, PositionForm
from .starts import BEFORE_DEAL, DEALT, StartChooser, is_before_deal
from .state import ExplorerState, History

#: problems of a refused load listed beside its control (the rest are counted)
LISTED = 12
#: problems of the form repeated in the header, at the top of the builder (all stay beside their fields)
HEADER_LISTED = 4
#: form states the builder's Undo goes back through
UNDO_DEPTH = 200
#: the builder's fixed texts of undo and the totals, for extraction (relabelled like every fixed label)
UNDO_LABELS = (N_("↶ Undo"), N_("Redo ↷"), N_("undo the last change of the form (valid or not)"),
               N_("redo the change undone"))



class Builder(PositionForm):
    """Build a position by hand, from an uploaded file, JSON, notation or a starting preset.

    ``position`` (a traitlet, observe it) is the valid position the form holds, or None;
    ``problems`` and ``warnings`` are the engine's words (see :class:`.position_form.PositionForm`).
    ``refused`` is the words of the last refused load while it stands (the header says so, and
    the form keeps the position it had).  ``state`` is the explorer's state the builder writes on
    its own edits and shows when it changes elsewhere (one of its own when none is given).
    """

    def __init__(self, position: Position | None = None, state: ExplorerState | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = state if state is not None else ExplorerState()
        self.summary = w.HTML(layout=w.Layout(flex="1 1 auto", min_width="0"))
        self.summary.add_class("guyenne-builder-summary")
        self.refused = ""
        self._refused_json: dict[str, Any] | None = None
        # every state the form has been in, valid or not, to go back and forth through (Undo, Redo)
        # each with the game it was in (a move played keeps its game: Undo steps back through it)
        self._history: list[tuple[FormState, History]] = []
        self._at = -1
        self._restoring = False
        self.undo_button = w.Button(description="↶ Undo", tooltip="undo the last change of the form (valid or not)",
                                    layout=w.Layout(width="auto"), disabled=True)
        self.redo_button = w.Button(description="Redo ↷", tooltip="redo the change undone",
                                    layout=w.Layout(width="auto"), disabled=True)
        self.undo_button.on_click(lambda _b: guarded(self.errors["general"])(self.undo)())
        self.redo_button.on_click(lambda _b: guarded(self.errors["general"])(self.redo)())

        # load, save, starts: uploads and browser downloads only, never a server path
        self.upload = Upload("Upload position (JSON or notation)", accept=".json,.txt,application/json,text/plain")
        self.upload.on_text(guarded(self.upload, "message")(self._load_uploaded))
        self.notation_text = w.Text(placeholder="one-line notation", layout=w.Layout(flex="1 1 auto"))
        self.notation_message = w.HTML()
        # width auto: it fills the panel within its margins (at 100% it overflowed the builder's box by them)
        self.json_text = w.Textarea(placeholder="position JSON, as Show JSON writes it",
                                    layout=w.Layout(width="auto", height="90px"))
        self.json_message = w.HTML()
        self.save_message = w.HTML()
        self.download = Download()
        buttons: list[tuple[str, Callable[[], Any], w.HTML]] = [
            ("Load notation", self._load_notation_text, self.notation_message),
            ("Load JSON", self._load_json_text, self.json_message),
            ("Show JSON", self._show_json, self.json_message),
            ("Download JSON", self.download_json, self.save_message),
            ("Download notation", self.download_notation, self.save_message)]
        self.io_buttons = {name: w.Button(description=name) for name, _, _ in buttons}
        for name, handler, where in buttons:
            self.io_buttons[name].on_click(guarded(where)(lambda _b, h=handler: h()))
        self.edit_refused = w.Button(description="Edit the refused position in the form", icon="pencil",
                                     layout=w.Layout(width="auto", display="none"),
                                     tooltip="fill the form with what the refused load holds, problems beside fields")
        self.edit_refused.on_click(lambda _b: guarded(self.errors["general"])(self.edit_refused_position)())
        # the game before the deal by default; a dealt opening (its seed, Deal again), the rulebook's example...
        self.starts = StartChooser(lambda: self.position.rules if self.position is not None else self.preset.value,
                                   self._load_start)
        self.start_choice, self.seed = self.starts.choice, self.starts.seed
        self.start_button, self.start_message = self.starts.button, self.starts.message

        self.children = [
            w.HBox([self.undo_button, self.redo_button, self.summary], layout=w.Layout(align_items="baseline")),
            w.HBox([self.edit_refused]), self.fill_notes, self.errors["general"],
            self.starts,
            w.HTML("<h4>Load and save</h4>"), self.upload,
            w.HBox([self.notation_text, self.io_buttons["Load notation"]]), self.notation_message,
            self.json_text,
            w.HBox([self.io_buttons["Load JSON"], self.io_buttons["Show JSON"]]), self.json_message,
            w.HBox([self.io_buttons["Download JSON"], self.io_buttons["Download notation"], self.download]),
            self.save_message,
            *self.sections,
        ]
        # a position the state gets elsewhere (a move, Back, Forward, a session) is shown, never read back
        self.state.observe(lambda change: self._follow(change["new"]), names="position")
        if position is not None:
            self.load_position(position)
        elif self.state.position is not None:
            self.show(self.state.position)
        else:
            self.start_from(BEFORE_DEAL, 1)

    # ------------------------------------------------------------------ public
    def load_json(self, data: str | dict[str, Any]) -> bool:
        """Load a position's JSON; anything but a valid position is refused beside the JSON box.

        A refused load leaves the form (and the built position) as it was; when it is
        a JSON object, :meth:`edit_refused_position` can still open it in the form.
        """
        return self._load(lambda: Position.from_json(data), self.json_message, N_("the JSON"), data)

    def load_notation(self, text: str) -> bool:
        """Load a position from the one-line notation; a notation that is refused says why beside its box."""
        return self._load(lambda: Position.from_notation(text), self.notation_message, N_("the notation"), None)

    def edit_refused_position(self) -> None:
        """Fill the form with what the last refused JSON holds, so each problem shows beside its field."""
        data = self._refused_json
        if data is None:
            return
        self._refused_json = None
        self._set_refused("")
        with self._batch():
            self._fill(data)

    def download_json(self) -> None:
        """The built position as a JSON file, through the browser's download."""
        if self._refuse_invalid_save():
            return
        assert self.position is not None
        self.download.offer("position.json", json.dumps(self.position.to_json(), indent=1) + "\n")
        self.save_message.value = ""

    def download_notation(self) -> None:
        """The built position's one-line notation as a text file, through the browser's download."""
        if self._refuse_invalid_save():
            return
        assert self.position is not None
        self.download.offer("position.txt", self.position.notation() + "\n")
        self.save_message.value = ""

    def load_file(self, path: str | os.PathLike[str]) -> bool:
        """Load a position file (JSON or notation) from inside the workspace folder (JupyterLab use).

        Paths outside the workspace (see :mod:`.files`), devices and files over the
        upload limit are refused with words, like any other refused load.
        """
        text = read_workspace_text(path, MAX_UPLOAD_BYTES)
        return self._load_text(text, self.json_message)

    def save_file(self, path: str | os.PathLike[str]) -> None:
        """Write the built position as JSON to a path inside the workspace folder (JupyterLab use)."""
        if self.position is None:
            raise PositionError([gettext("the position is invalid: fix the problems before saving")])
        inside_workspace(path).write_text(json.dumps(self.position.to_json(), indent=1) + "\n", encoding="utf-8")

    def start_from(self, name: str, seed: int = 1) -> None:
        """Load a starting preset (see :mod:`.starts`) under the form's rules, or its preset when invalid."""
        self.starts.start_from(name, seed)

    def cycle_castle(self, index: int) -> None:
        """Give castle ``index`` to the next controller; from the game before the deal, in a dealt opening to edit
        (see :meth:`deal_to_edit`)."""
        self.deal_to_edit()
        super().cycle_castle(index)

    def focus_zone(self, side: str, zone: str, member: int = 0) -> None:
        """Point at a zone's counts; from the game before the deal, in a dealt opening to edit."""
        self.deal_to_edit()
        super().focus_zone(side, zone, member)

    def deal_to_edit(self) -> None:
        """Before the deal no castle is held and no card is dealt, so an edit there is no position of a game:
        the engine deals an opening (the start chooser's seed, else 1) and the edit goes to that, said under
        the start chooser."""
        if self.position is None or not is_before_deal(self.position):
            return
        seed = self.seed.value if self.seed.problem is None else 1
        self.start_choice.value = DEALT  # its seed and Deal again shown: another deal is a click away
        self.start_from(DEALT, seed)
        note = gettext("The game before the deal cannot be edited: the engine dealt an opening (seed {seed}) "
                       "to edit.").format(seed=seed)
        self.start_message.value = f"<i>{html.escape(note)}</i>"

    def _load_start(self, position: Position) -> None:
        self.load_position(position)
        self._set_refused("")

    # ------------------------------------------------------------------ the state
    def _edited(self) -> None:
        """A field was edited: the header, Undo, and the explorer's state (an unexpected error there shows
        in the builder's general messages)."""
        self._show_summary()
        self._remember()
        guarded(self.errors["general"])(self.state.build)(self.position, self.problems, self.starts.start, self.draft)

    def _shown(self) -> None:
        self._show_summary()
        self._remember()

    def refresh(self) -> None:
        """The problems beside the fields and the header, written again in the current language."""
        super().refresh()
        self._show_summary()

    def _follow(self, position: Position | None) -> None:
        """Show the state's new position unless it is the form's own (None: the form's invalid edit)."""
        if position is not None and position != self.position:
            self.show(position)

    # ------------------------------------------------------------------ undo
    def undo(self) -> None:
        """Put the form back as it was before its last change (the texts typed, valid or not)."""
        if self._at > 0:
            self._at -= 1
            self._restore(self._history[self._at])

    def redo(self) -> None:
        """Make again the change the last Undo took back."""
        if self._at < len(self._history) - 1:
            self._at += 1
            self._restore(self._history[self._at])

    def _remember(self) -> None:
        """Keep the form's new state for Undo (a change undone and not redone is forgotten)."""
        if self._restoring:
            return
        state = self._form_state()
        if self._history and self._history[self._at][0] == state:
            self._show_undo()
            return
        self._history = self._history[:self._at + 1][-(UNDO_DEPTH - 1):] + [(state, self.state.history)]
        self._at = len(self._history) - 1
        self._show_undo()

    def _restore(self, entry: tuple[FormState, History]) -> None:
        """Set every field from the entry's form state and check the form once (the restored state is not
        remembered again); where the form then holds the position of the entry's game, that game is the
        explorer's again, so undoing a move steps back in the game rather than starting a new one there."""
        state, game = entry
        self._restoring = True
        try:
            self._restore_form(state)
            if game.current is not None and game.current == self.position:
                self.state.resume(game)
        finally:
            self._restoring = False
        self._show_undo()

    def _show_undo(self) -> None:
        self.undo_button.disabled = self._at <= 0
        self.redo_button.disabled = self._at >= len(self._history) - 1

    def _show_summary(self) -> None:
        """The header: the form's state, and first of all a refused load while it stands."""
        lines = []
        if self.refused:
            lines.append(f'<b style="color:#9b1c1c">✗ {html.escape(self.refused)}</b>')
        if self.position is None:
            n = len(self.problems)
            text = ngettext("not a valid position: {count} problem, shown beside the fields",
                            "not a valid position: {count} problems, shown beside the fields", n).format(count=n)
            lines.append(f'<b style="color:#9b1c1c">✗ {text}</b>')
            # the first ones here too, in view without scrolling down the form
            more = [gettext("... and {count} more").format(count=n - HEADER_LISTED)] if n > HEADER_LISTED else []
            lines.append(messages_html([*self.problems[:HEADER_LISTED], *more]))
        elif self.refused:
            lines.append(_("the form holds {notation}").format(notation=f"<code>{self.position.notation()}</code>"))
        else:
            valid = _("valid position")
            lines.append(f'<b style="color:#1d6b2f">✓ {valid}</b> <code>{self.position.notation()}</code>')
        self.summary.value = "<br>".join(lines)

    # ------------------------------------------------------------------ load / save
    def _load_json_text(self) -> None:
        self.load_json(self.json_text.value)

    def _show_json(self) -> None:
        data = self.position.to_json() if self.position is not None else self.form_json()
        self.json_text.value = json.dumps(data, indent=1)
        self.json_message.value = ""

    def _load_notation_text(self) -> None:
        self.load_notation(self.notation_text.value)

    def _load_uploaded(self, name: str, text: str) -> None:
        if self._load_text(text, self.upload, "message", f"{name}"):
            loaded = gettext("loaded {name}").format(name=html.escape(name))
            self.upload.message = f"✓ {loaded}"

    def _load_text(self, text: str, where: Any, attribute: str = "value", what: str = N_("the file")) -> bool:
        """A file's text: JSON when it starts with ``{``, else the one-line notation."""
        if text.lstrip().startswith("{"):
            return self._load(lambda: Position.from_json(text), where, what, text, attribute)
        line = text.strip()
        return self._load(lambda: Position.from_notation(line), where, what, None, attribute)

    def _load(self, read: Callable[[], Position], where: Any, what: str, raw: str | dict[str, Any] | None,
              attribute: str = "value") -> bool:
        """Load the position ``read`` returns, or refuse it beside its control (``where``) and keep the form."""
        try:
            position = read()
        except ValueError as exc:  # PositionError, RulesError: the engine's problems, each with its field
            problems = list(getattr(exc, "problems", None) or [str(exc)])
            listed = [f"{p.field}: {p}" if getattr(p, "field", "") else str(p) for p in problems[:LISTED]]
            what = gettext(what)  # the notation, the JSON, the file (or a file's name, kept)
            more = [gettext("... and {count} more").format(count=len(problems) - LISTED)] if len(problems) > LISTED else []
            setattr(where, attribute, messages_html([gettext("{what} was not loaded:").format(what=what), *listed, *more]))
            self._refused_json = _json_object(raw)
            self._set_refused(ngettext("{what} was refused ({count} problem shown beside it) and did not change the form",
                                       "{what} was refused ({count} problems shown beside it) and did not change the form",
                                       len(problems)).format(what=what, count=len(problems)))
            return False
        self._refused_json = None
        self._set_refused("")
        self._take(position)
        setattr(where, attribute, "")
        return True

    def _take(self, position: Position) -> None:
        """A loaded position, exactly as read (a stacked deck's order included): shown in the form without
        reading it back, and a new game in the explorer's state."""
        self.show(position)
        guarded(self.errors["general"])(self.state.build)(position, [], self.starts.start)

    def _set_refused(self, words: str) -> None:
        self.refused = words
        self.edit_refused.layout.display = None if words and self._refused_json is not None else "none"
        self._show_summary()

    def _refuse_invalid_save(self) -> bool:
        if self.position is None:
            self.save_message.value = messages_html([gettext("the position is invalid: fix the problems before saving")])
            return True
        return False


def _json_object(raw: str | dict[str, Any] | None) -> dict[str, Any] | None:
    """A refused load's JSON object, for opening it in the form; None when it is no readable object."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str) or len(raw) > MAX_UPLOAD_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and _depth(data) <= 8 else None


def _depth(value: Any, limit: int = 8) -> int:
    """How deeply a JSON value nests (counting stops past ``limit``): a position nests 5 deep."""
    depth, level = 0, [value]
    while level and depth <= limit:
        level = [v for x in level for v in (x.values() if isinstance(x, dict) else x if isinstance(x, list) else ())]
        depth += 1
    return depth

