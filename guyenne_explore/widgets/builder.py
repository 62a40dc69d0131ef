"""Position builder: a form for every part of a position, checked live by the engine.

The form assembles a RULES.md section 10 JSON object and asks
``Position.from_json`` for the position; every problem of the resulting
``PositionError`` is shown in words beside the part of the form it is about,
and ``position`` stays None until the form describes a valid position, so an
invalid one never reaches the other panels.

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import ipywidgets as w
import traitlets

from ..cards import EMPTY, CardError, Cards
from ..i18n import gettext
from ..i18n import gettext as _
from ..i18n import N_, castle_number, current_language, ngettext, point_name, side_title
from ..position import BATTLES, POINTS, Position
from ..problems import Problem, as_problem
from ..render.colors import CONTROL_COLOR
from ..positions_io import PositionError
from ..rules import PRESETS, SIDES, Rules, RulesError
from .files import MAX_UPLOAD_BYTES, Download, Upload, inside_workspace, read_workspace_text
from .forms import (
    SECTIONS,
    CountsRow,
    RulesParameters,
    TotalsRow,
    kinds_shown,
    messages_html,
    number_box,
    read_whole,
    symbols,
)
from .guard import guarded
from .language import name_options, relabel
from .scroll import ScrollTo
from .starts import BEFORE_DEAL, StartChooser

CONTROLS = ("neutral", "english", "french")
#: rows of a side's card grid after its hand(s)
ZONE_ROWS = ("deck", "discard", "removed", "X", "Y")
ZONE_LABELS = {"deck": "deck", "discard": "discard", "removed": "removed", "X": "placed at X", "Y": "placed at Y"}
#: a zone's name in the note that points at its counts (a click on the table's stack)
FOCUS_ZONES = {"hand": N_("hand"), "deck": N_("deck"), "discard": N_("discard"), "removed": N_("removed"),
               "placed-X": N_("placed at X"), "placed-Y": N_("placed at Y")}
#: problems of a refused load listed beside its control (the rest are counted)
LISTED = 12
#: problems of the form repeated in the header, at the top of the builder (all stay beside their fields)
HEADER_LISTED = 4
#: form states the builder's Undo goes back through
UNDO_DEPTH = 200
#: the builder's fixed texts of undo and the totals, for extraction (relabelled like every fixed label)
UNDO_LABELS = (N_("↶ Undo"), N_("Redo ↷"), N_("undo the last change of the form (valid or not)"),
               N_("redo the change undone"))


#: The form section of each field path's first part (``sides.<side>...`` goes to that side's section).
SECTION_OF_FIELD = {"rules": "rules", "castles": "castles", "round": "game", "first": "game", "to_play": "game",
                    "placed": "placed", "remove_choice": "placed", "concede_choice": "placed"}


def section_of(problem: Problem) -> str:
    """The part of the form a problem is about, read from its field path (never from its words)."""
    parts = problem.field.split(".")
    if problem.section == "sides" and len(parts) > 1 and parts[1] in SIDES:
        return parts[1]
    return SECTION_OF_FIELD.get(problem.section, "general")


def _row_field(key: tuple[int, str]) -> str:
    """The field path of a card row of the form (``(side, zone)``)."""
    side, zone = SIDES[key[0]], key[1]
    if zone in BATTLES:
        return f"placed.{side}.{zone}"
    if zone.startswith("hand"):
        return f"sides.{side}.hand"
    return f"sides.{side}.{zone}"


class Builder(w.VBox):
    """Build a position by hand, from an uploaded file, JSON, notation or a starting preset.

    ``position`` (a traitlet, observe it) is the valid position the form
    describes, or None; ``problems`` and ``warnings`` are the engine's words.
    ``refused`` is the words of the last refused load while it stands (the
    header says so, and the form keeps the position it had).
    """

    position = traitlets.Any(None, allow_none=True)
    problems = traitlets.List(traitlets.Instance(Problem))
    warnings = traitlets.List(traitlets.Instance(Problem))

    def __init__(self, position: Position | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._quiet = 1  # no check until the form is complete
        self._castles: list[str] = []
        self._cards: dict[tuple[int, str], Cards] = {}
        self._rows: dict[tuple[int, str], CountsRow] = {}
        self._layout_key: tuple[Any, ...] | None = None
        self.errors = {name: w.HTML() for name in SECTIONS}
        self.summary = w.HTML(layout=w.Layout(flex="1 1 auto", min_width="0"))
        self.summary.add_class("guyenne-builder-summary")
        self.refused = ""
        self._refused_json: dict[str, Any] | None = None
        self.fill_notes = w.HTML()  # what a loaded file held that no field can show
        self._totals: list[TotalsRow | None] = [None, None]  # each side's cards per value against the rules
        # every state the form has been in, valid or not, to go back and forth through (Undo, Redo)
        self._history: list[FormState] = []
        self._at = -1
        self._restoring = False
        self.undo_button = w.Button(description="↶ Undo", tooltip="undo the last change of the form (valid or not)",
                                    layout=w.Layout(width="auto"), disabled=True)
        self.redo_button = w.Button(description="Redo ↷", tooltip="redo the change undone",
                                    layout=w.Layout(width="auto"), disabled=True)
        self.undo_button.on_click(lambda _b: guarded(self.errors["general"])(self.undo)())
        self.redo_button.on_click(lambda _b: guarded(self.errors["general"])(self.redo)())

        # rules
        self.preset = w.Dropdown(options=list(PRESETS), value="advanced", description="rules preset")
        self.preset.observe(guarded(self.errors["rules"])(self._on_preset), names="value")
        self.parameters = RulesParameters(self._changed_in("rules"))
        self.parameters.set(Rules.preset("advanced").describe())
        # castles
        self.castle_row = w.HBox()
        # game
        style = {"description_width": "90px"}
        self.round = number_box(1, width="170px", description="round", style=style)
        self.first = name_options(w.Dropdown(options=SIDES, description="first player", style=style,
                                             layout=w.Layout(width="220px")), side_title)
        self.to_play = name_options(w.Dropdown(options=POINTS, value="open_first", description="decision",
                                               style=style, layout=w.Layout(width="450px")), point_name)
        # placed
        self.x = w.Dropdown(description="castle X", style=style, layout=w.Layout(width="170px"))
        self.y = w.Dropdown(description="castle Y", style=style, layout=w.Layout(width="170px"))
        self.pending = w.Dropdown(options=BATTLES, description="pending battle", style={"description_width": "110px"},
                                  layout=w.Layout(width="200px"),
                                  tooltip="the battle whose loser still chooses the cards removed, or to reveal or concede")
        # per side
        self.exhaustions = [number_box(0, width="170px", description="exhaustions", style=style) for _ in SIDES]
        self.drawer = [w.Dropdown(options=[0, 1], description="drawer", style=style,
                                  layout=w.Layout(width="150px")) for _ in SIDES]
        self.order = [w.Dropdown(options=[("undecided", None), ("0 first", 0), ("1 first", 1)], description="order",
                                 style=style, layout=w.Layout(width="180px")) for _ in SIDES]
        self.grids = [w.VBox() for _ in SIDES]
        self.focus_note = w.HTML()
        self.scroll = ScrollTo(layout=w.Layout(height="0px"))
        for widget, section in ((self.round, "game"), (self.first, "game"), (self.to_play, "game"),
                                (self.x, "placed"), (self.y, "placed"), (self.pending, "placed"),
                                *((box, SIDES[i]) for i, boxes in enumerate(zip(self.exhaustions, self.drawer,
                                                                                   self.order)) for box in boxes)):
            widget.observe(self._changed_in(section), names="value")

        # load, save, starts: uploads and browser downloads only, never a server path
        self.upload = Upload("Upload position (JSON or notation)", accept=".json,.txt,application/json,text/plain")
        self.upload.on_text(guarded(self.upload, "message")(self._load_uploaded))
        self.notation_text = w.Text(placeholder="one-line notation", layout=w.Layout(flex="1 1 auto"))
        self.notation_message = w.HTML()
        self.json_text = w.Textarea(placeholder="position JSON (RULES.md section 10)",
                                    layout=w.Layout(width="100%", height="90px"))
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
            w.HTML("<h4>Rules</h4>"), self.preset,
            w.GridBox(list(self.parameters.widgets.values()),
                      layout=w.Layout(grid_template_columns="repeat(auto-fill, minmax(300px, 1fr))")),
            self.errors["rules"],
            w.HTML("<h4>Castles</h4> <small>click to cycle neutral → English → French</small>"),
            self.castle_row, self.errors["castles"],
            w.HTML("<h4>Game</h4>"), w.HBox([self.round, self.first, self.to_play]), self.errors["game"],
            *[w.VBox([w.HTML(f"<h4>{name.capitalize()}</h4>"),
                      w.HBox([self.exhaustions[i], self.drawer[i], self.order[i]]),
                      self.errors[name], self.grids[i]]) for i, name in enumerate(SIDES)],
            self.focus_note,
            w.HTML("<h4>Placed this round</h4>"), w.HBox([self.x, self.y, self.pending]), self.errors["placed"],
            self.scroll,
        ]
        self._quiet = 0
        if position is not None:
            self.load_position(position)
        else:
            self.start_from(BEFORE_DEAL, 1)

    # ------------------------------------------------------------------ public
    def load_position(self, position: Position) -> None:
        """Show ``position`` in the form (and so make it the built position)."""
        self._fill(position.to_json())

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

    def _load_start(self, position: Position) -> None:
        self.load_position(position)
        self._set_refused("")

    def cycle_castle(self, index: int) -> None:
        """Give castle ``index`` to the next controller: neutral, english, french, neutral..."""
        if 0 <= index < len(self._castles):
            self._castles[index] = CONTROLS[(CONTROLS.index(self._castles[index]) + 1) % 3]
            self._draw_castles()
            self._changed()

    def focus_zone(self, side: str, zone: str, member: int = 0) -> None:
        """Point at the counts of one zone (a click on the table's stack): mark its row, scroll to it, focus it."""
        if side not in SIDES:
            return
        key = {"hand": f"hand{member}", "placed-X": "X", "placed-Y": "Y"}.get(zone, zone)
        row = self._rows.get((SIDES.index(side), key))
        for r in self._rows.values():
            r.label.remove_class("guyenne-focus")
        if row is None:
            return
        row.label.add_class("guyenne-focus")
        note = gettext("Editing the {side} {zone} counts.").format(
            side=side_title(side), zone=gettext(FOCUS_ZONES.get(zone, zone)))
        self.focus_note.value = f"<i>{html.escape(note)}</i>"
        self.scroll.to(".guyenne-focus")

    def form_json(self) -> dict[str, Any]:
        """The position the form describes, as RULES.md section 10 JSON (valid or not)."""
        return self._assemble()[0]

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

    def _fields(self) -> dict[str, w.ValueWidget]:
        """Every field of the form but the castles and the card counts, by a stable name, in the order
        a restore sets them (the preset before the parameters it resets, the castles' count before X and Y)."""
        fields: dict[str, w.ValueWidget] = {"preset": self.preset}
        fields.update({f"rules.{key}": box for key, box in self.parameters.widgets.items()})
        fields.update({"round": self.round, "first": self.first, "to_play": self.to_play, "x": self.x, "y": self.y,
                       "pending": self.pending})
        for i, name in enumerate(SIDES):
            fields.update({f"{name}.exhaustions": self.exhaustions[i], f"{name}.drawer": self.drawer[i],
                           f"{name}.order": self.order[i]})
        return fields

    def _state(self) -> FormState:
        """The form as it stands: every field's value or text, the castles, the counts and their typed texts."""
        return FormState(
            fields=tuple((name, box.value) for name, box in self._fields().items()),
            castles=tuple(self._castles),
            cards=tuple(sorted(self._cards.items())),
            texts=tuple(sorted((key, tuple(b.value for b in row.boxes)) for key, row in self._rows.items())))

    def _remember(self) -> None:
        """Keep the form's new state for Undo (a change undone and not redone is forgotten)."""
        if self._restoring:
            return
        state = self._state()
        if self._history and self._history[self._at] == state:
            self._show_undo()
            return
        self._history = self._history[:self._at + 1][-(UNDO_DEPTH - 1):] + [state]
        self._at = len(self._history) - 1
        self._show_undo()

    def _restore(self, state: FormState) -> None:
        """Set every field from ``state`` and check the form once (the restored state is not remembered again)."""
        self._restoring = True
        try:
            with self._batch():
                fields = self._fields()
                values = dict(state.fields)
                self.preset.value = values["preset"]
                for name, box in fields.items():
                    if name.startswith("rules."):
                        box.value = values[name]
                self._castles = list(state.castles)
                self._cards = dict(state.cards)
                self._rows, self._layout_key = {}, None  # rebuilt from the restored counts
                self._sync_layout()
                for name, box in fields.items():
                    if name != "preset" and not name.startswith("rules."):
                        box.value = values[name]
                for key, texts in state.texts:
                    row = self._rows.get(key)
                    for box, text in zip(row.boxes if row is not None else (), texts):
                        box.value = text
        finally:
            self._restoring = False
        self._show_undo()

    def _show_undo(self) -> None:
        self.undo_button.disabled = self._at <= 0
        self.redo_button.disabled = self._at >= len(self._history) - 1

    # ------------------------------------------------------------------ filling
    @contextmanager
    def _batch(self) -> Iterator[None]:
        """Set many fields, then check the position once."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1
        self._changed()

    def _fill(self, data: dict[str, Any]) -> None:
        """Show a position's JSON in the form, valid or not; what no field can show becomes a note."""
        notes: list[str] = []
        with self._batch():
            rules = data.get("rules", "base")
            preset = rules if isinstance(rules, str) else rules.get("preset", "base") if isinstance(rules, dict) else ""
            if not isinstance(preset, str) or preset not in PRESETS:
                notes.append(gettext("unknown rules preset {preset}: kept {kept}").format(
                    preset=repr(str(preset)[:40]), kept=self.preset.value))
                preset = self.preset.value
            self.preset.value = preset
            # the engine lays the file's overrides over the preset: a partial card_counts shows in full
            described = Rules.preset(preset).describe_variant(rules if isinstance(rules, dict) else {})
            notes += self.parameters.set(described)
            castles = data.get("castles")
            if isinstance(castles, list):
                self._castles = [c if isinstance(c, str) and c in CONTROLS else "neutral" for c in castles[:100]]
            self.round.value = self._number_text(data.get("round", 1), "1")
            self.first.value = data.get("first") if _choice(data.get("first"), SIDES) else "english"
            self.to_play.value = data.get("to_play") if _choice(data.get("to_play"), POINTS) else "open_first"
            sides = data.get("sides") if isinstance(data.get("sides"), dict) else {}
            for i, name in enumerate(SIDES):
                s = sides.get(name) if isinstance(sides.get(name), dict) else {}
                members = s.get("members")
                hands = ([m.get("hand") if isinstance(m, dict) else None for m in members]
                         if isinstance(members, list) and members else [s.get("hand")])
                for m in range(2):
                    self._cards[(i, f"hand{m}")] = self._read(hands[m] if m < len(hands) else [], notes)
                for zone in ("deck", "discard", "removed"):
                    self._cards[(i, zone)] = self._read(s.get(zone), notes)
                self.exhaustions[i].value = self._number_text(s.get("exhaustions", 0), "0")
                self.drawer[i].value = s.get("drawer") if s.get("drawer") in (0, 1) else 0
                self.order[i].value = s.get("order") if s.get("order") in (0, 1) else None
                if s.get("stacked"):
                    notes.append(gettext("{side}'s deck order is not kept: the builder treats every deck as "
                                         "shuffled").format(side=side_title(name)))
            placed = data.get("placed") if isinstance(data.get("placed"), dict) else {}
            for i, name in enumerate(SIDES):
                at = placed.get(name) if isinstance(placed.get(name), dict) else {}
                for b in BATTLES:
                    self._cards[(i, b)] = self._read(at.get(b), notes)
            pending = data.get("remove_choice") or data.get("concede_choice")
            if isinstance(pending, dict) and _choice(pending.get("castle"), BATTLES):
                self.pending.value = pending["castle"]
            self._rows, self._layout_key = {}, None  # rebuild the grids with the loaded cards
            self._sync_layout()
            for box, value in ((self.x, placed.get("X")), (self.y, placed.get("Y"))):
                box.value = value if type(value) is int and value in [v for _, v in box.options] else None
        self.fill_notes.value = messages_html([], [gettext("not shown in the form: {note}").format(note=n) for n in notes])

    @staticmethod
    def _number_text(value: Any, default: str) -> str:
        """A number from a file as its box shows it: numbers and short text as written, else the default."""
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value) if value.bit_length() < 64 else gettext("a huge number")
        return value[:40] if isinstance(value, str) else default

    @staticmethod
    def _read(cards: Any, notes: list[str]) -> Cards:
        if not isinstance(cards, list):
            return EMPTY
        try:
            return Cards.of(cards)
        except (CardError, TypeError, ValueError) as exc:
            notes.append(str(exc))
            return EMPTY

    # ------------------------------------------------------------------ live check
    def _on_preset(self, change: dict[str, Any]) -> None:
        with self._batch():
            self.parameters.set(Rules.preset(change["new"]).describe())

    def _changed_in(self, section: str) -> Callable[..., None]:
        """The live check as a field's observer: an unexpected error shows in that field's section."""
        return guarded(self.errors[section])(lambda *_: self._changed())

    def _changed(self) -> None:
        if self._quiet:
            return
        self._sync_layout()
        data, problems = self._assemble()
        blocked = [as_problem(p, _row_field(key)) for key, row in self._rows.items()
                   for p in row.problems]  # shown beside their rows
        position, warnings = None, []
        if not problems and not blocked:
            try:
                position = Position.from_json(data)
                warnings = position.warnings()
            except PositionError as exc:
                problems, warnings = exc.problems, exc.warnings
        by_section: dict[str, list[Problem]] = {name: [] for name in SECTIONS}
        for problem in problems:
            by_section[section_of(problem)].append(problem)
        for name, widget in self.errors.items():
            widget.value = messages_html(by_section[name], warnings if name == "general" else [])
        self._show_totals()
        self.problems, self.warnings = [*problems, *blocked], warnings
        self.position = position
        self._show_summary()
        self._remember()

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

    def _rules(self) -> Rules | None:
        try:
            return Rules.from_json(self._rules_json()[0])
        except RulesError:
            return None

    def _rules_json(self) -> tuple[str | dict[str, Any], list[Problem]]:
        preset = self.preset.value
        values, unread = self.parameters.read()
        base = Rules.preset(preset).describe()
        overrides = {k: v for k, v in values.items() if v != base.get(k)}
        return ({"preset": preset, **overrides} if overrides else preset), [as_problem(p, "rules") for p in unread]

    def _assemble(self) -> tuple[dict[str, Any], list[Problem]]:
        rules, problems = self._rules_json()
        r = self._rules()
        sides: dict[str, Any] = {}
        for i, name in enumerate(SIDES):
            team = r is not None and r.members[i] == 2
            hands = [self._cards[(i, "hand0")], self._cards[(i, "hand1")]]
            s: dict[str, Any] = {}
            if team:
                s["members"] = [{"hand": h.symbols()} for h in hands]
                s["drawer"], s["order"] = self.drawer[i].value, self.order[i].value
            else:
                s["hand"] = (hands[0] + hands[1]).symbols()
            for zone in ("deck", "discard", "removed"):
                s[zone] = self._cards[(i, zone)].symbols()
            s["exhaustions"], bad = read_whole(self.exhaustions[i].value, f"{name} exhaustions", low=-(10**9))
            problems += [as_problem(bad, f"sides.{name}.exhaustions")] if bad else []
            sides[name] = s
        round_number, bad = read_whole(self.round.value, N_("the round"), low=-(10**9))
        problems += [as_problem(bad, "round")] if bad else []
        data: dict[str, Any] = {"rules": rules, "castles": list(self._castles), "round": round_number,
                                "first": self.first.value, "to_play": self.to_play.value, "sides": sides}
        xy = (self.x.value, self.y.value)
        if xy != (None, None) or any(self._cards[(i, b)].size for i in (0, 1) for b in BATTLES):
            data["placed"] = {"X": xy[0], "Y": xy[1],
                              **{name: {b: self._cards[(i, b)].symbols() for b in BATTLES}
                                 for i, name in enumerate(SIDES)}}
        if self.to_play.value in ("remove_choice", "concede_choice"):
            data[self.to_play.value] = {"castle": self.pending.value}
        return data, problems

    # ------------------------------------------------------------------ layout
    def _sync_layout(self) -> None:
        """Resize the castle row and the card grids to the rules (castles, teams, card kinds)."""
        r = self._rules()
        n = r.castles if r is not None else len(self._castles)
        self._castles = (self._castles + ["neutral"] * n)[:n]
        members = r.members if r is not None else (1, 1)
        for key, row in self._rows.items():
            self._cards[key] = row.cards
        full = r.card_set if r is not None else EMPTY
        kinds = kinds_shown(full, *self._cards.values())
        key = (n, members, kinds)
        if key == self._layout_key:
            return
        self._layout_key = key
        self._quiet += 1
        try:
            self._draw_castles()
            choices = [("—", None)] + [(str(castle_number(c)), c) for c in range(n)]
            for box in (self.x, self.y):
                keep = box.value
                box.options = choices
                box.value = keep if keep in range(n) else None
            self._rows = {}
            header = [w.HTML("", layout=w.Layout(width="120px"))] + [
                w.HTML(f"<b>{s}</b>", layout=w.Layout(width="52px")) for s in symbols(kinds)]
            for i in (0, 1):
                team = members[i] == 2
                if not team:  # a solo side has one hand: fold a former second hand into it
                    self._cards[(i, "hand0")] = self._cards[(i, "hand0")] + self._cards[(i, "hand1")]
                    self._cards[(i, "hand1")] = EMPTY
                rows = [(f"hand{m}", f"member {m} hand" if team else "hand") for m in range(2 if team else 1)]
                rows += [(z, ZONE_LABELS[z]) for z in ZONE_ROWS]
                totals = self._totals[i] = TotalsRow(kinds)
                lines = [w.HBox(header), w.HBox(totals.widgets())]
                for zone, label in rows:
                    row = CountsRow(label, kinds, self._cards[(i, zone)], self._changed)
                    self._rows[(i, zone)] = row
                    lines.append(w.HBox(row.widgets()))
                self.grids[i].children = lines
                relabel(self.grids[i], current_language())  # built in English, shown in the page's language
                self.drawer[i].layout.display = self.order[i].layout.display = None if team else "none"
        finally:
            self._quiet -= 1

    def _show_totals(self) -> None:
        """Each side's cards per value over its zones against the rules' count (when the rules can be read)."""
        r = self._rules()
        for i, totals in enumerate(self._totals):
            if totals is None:
                continue
            counted = sum((self._cards[(i, z)] for z in ("hand0", "hand1", *ZONE_ROWS)), EMPTY)
            totals.show(counted, r.card_set if r is not None else None)

    def _draw_castles(self) -> None:
        buttons = []
        for i, control in enumerate(self._castles):
            # the table's colours (render.colors): one red and one blue everywhere
            # written in English ("3: English", castles counted from 1 as in the rulebook; the notation's
            # index is i); the language switch translates it like any fixed label
            b = w.Button(description=f"{i + 1}: {side_title(control, 'en')}", layout=w.Layout(width="105px"),
                         style={"button_color": CONTROL_COLOR[control],
                                "text_color": "#222222" if control == "neutral" else "#ffffff"})
            b.on_click(lambda _b, i=i: guarded(self.errors["castles"])(self.cycle_castle)(i))
            buttons.append(b)
        self.castle_row.children = buttons
        relabel(self.castle_row, current_language())  # "3: English" shown in the page's language

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
        self.load_position(position)
        setattr(where, attribute, "")
        return True

    def _set_refused(self, words: str) -> None:
        self.refused = words
        self.edit_refused.layout.display = None if words and self._refused_json is not None else "none"
        self._show_summary()

    def _refuse_invalid_save(self) -> bool:
        if self.position is None:
            self.save_message.value = messages_html([gettext("the position is invalid: fix the problems before saving")])
            return True
        return False


@dataclass(frozen=True)
class FormState:
    """One state of the builder's form, valid or not, exactly as a person left it: each field's value
    (the text of a number box as typed), the castles, each zone's counts and the text of each count box."""

    fields: tuple[tuple[str, Any], ...]
    castles: tuple[str, ...]
    cards: tuple[tuple[tuple[int, str], Cards], ...]
    texts: tuple[tuple[tuple[int, str], tuple[str, ...]], ...]


def _choice(value: Any, choices: tuple[Any, ...]) -> bool:
    """Whether a value read from a file is one of ``choices`` (a list or an object never is)."""
    return isinstance(value, (str, int)) and value in choices


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
