"""Position builder: a form for every part of a position, checked live by the engine.

The form assembles a RULES.md section 10 JSON object and asks
``Position.from_json`` for the position; every problem of the resulting
``PositionError`` is shown in words beside the part of the form it is about,
and ``position`` stays None until the form describes a valid position, so an
invalid one never reaches the other panels.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as w
import traitlets

from ..cards import EMPTY, CardError, Cards
from ..position import BATTLES, POINTS, Position
from ..positions_io import PositionError, load_position, save_position
from ..rules import PRESETS, SIDES, Rules, RulesError
from .forms import (
    SECTIONS,
    CountsRow,
    RulesParameters,
    kinds_shown,
    messages_html,
    section_of,
    symbols,
)
from .starts import STARTS, start_position

CONTROLS = ("neutral", "english", "french")
CASTLE_STYLE = {"neutral": "", "english": "danger", "french": "info"}  # red English, blue French
#: rows of a side's card grid after its hand(s)
ZONE_ROWS = ("deck", "discard", "removed", "X", "Y")
ZONE_LABELS = {"deck": "deck", "discard": "discard", "removed": "removed", "X": "placed at X", "Y": "placed at Y"}


class Builder(w.VBox):
    """Build a position by hand, from a file, from notation or from a starting preset.

    ``position`` (a traitlet, observe it) is the valid position the form
    describes, or None; ``problems`` and ``warnings`` are the engine's words.
    """

    position = traitlets.Any(None, allow_none=True)
    problems = traitlets.List(traitlets.Unicode())
    warnings = traitlets.List(traitlets.Unicode())

    def __init__(self, position: Position | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._quiet = 1  # no check until the form is complete
        self._castles: list[str] = []
        self._cards: dict[tuple[int, str], Cards] = {}
        self._rows: dict[tuple[int, str], CountsRow] = {}
        self._layout_key: tuple[Any, ...] | None = None
        self.errors = {name: w.HTML() for name in SECTIONS}
        self.summary = w.HTML()

        # rules
        self.preset = w.Dropdown(options=list(PRESETS), value="advanced", description="rules preset")
        self.preset.observe(self._on_preset, names="value")
        self.parameters = RulesParameters(self._changed)
        self.parameters.set(Rules.preset("advanced").describe())
        # castles
        self.castle_row = w.HBox()
        # game
        style = {"description_width": "90px"}
        self.round = w.BoundedIntText(value=1, min=0, max=999, description="round", style=style,
                                      layout=w.Layout(width="170px"))
        self.first = w.Dropdown(options=SIDES, description="first player", style=style,
                                layout=w.Layout(width="220px"))
        self.to_play = w.Dropdown(options=POINTS, value="open_first", description="decision", style=style,
                                  layout=w.Layout(width="260px"))
        # placed
        self.x = w.Dropdown(description="castle X", style=style, layout=w.Layout(width="170px"))
        self.y = w.Dropdown(description="castle Y", style=style, layout=w.Layout(width="170px"))
        self.pending = w.Dropdown(options=BATTLES, description="pending battle", style={"description_width": "110px"},
                                  layout=w.Layout(width="200px"),
                                  tooltip="the battle waiting for remove_choice or concede_choice")
        # per side
        self.exhaustions = [w.BoundedIntText(value=0, min=0, max=9, description="exhaustions", style=style,
                                             layout=w.Layout(width="170px")) for _ in SIDES]
        self.drawer = [w.Dropdown(options=[0, 1], description="drawer", style=style,
                                  layout=w.Layout(width="150px")) for _ in SIDES]
        self.order = [w.Dropdown(options=[("undecided", None), ("0 first", 0), ("1 first", 1)], description="order",
                                 style=style, layout=w.Layout(width="180px")) for _ in SIDES]
        self.grids = [w.VBox() for _ in SIDES]
        self.focus_note = w.HTML()
        for widget in (self.round, self.first, self.to_play, self.x, self.y, self.pending, *self.exhaustions,
                       *self.drawer, *self.order):
            widget.observe(lambda _c: self._changed(), names="value")

        # load, save, starts
        self.json_text = w.Textarea(placeholder="position JSON (RULES.md section 10)",
                                    layout=w.Layout(width="100%", height="120px"))
        self.notation_text = w.Text(placeholder="one-line notation", layout=w.Layout(width="100%"))
        self.path = w.Text(value="position.json", description="file", layout=w.Layout(width="320px"))
        self.io_message = w.HTML()
        buttons = [("Load JSON", self._load_json_text), ("Show JSON", self._show_json),
                   ("Load notation", self._load_notation_text), ("Load file", self._load_file),
                   ("Save file", self._save_file)]
        self.io_buttons = {name: w.Button(description=name) for name, _ in buttons}
        for name, handler in buttons:
            self.io_buttons[name].on_click(lambda _b, h=handler: h())
        self.start_choice = w.Dropdown(options=STARTS, description="start from")
        self.seed = w.IntText(value=1, description="seed", layout=w.Layout(width="150px"))
        self.start_button = w.Button(description="Start", button_style="primary")
        self.start_button.on_click(lambda _b: self.start_from(self.start_choice.value, self.seed.value))

        self.children = [
            self.summary, self.errors["general"],
            w.HBox([self.start_choice, self.seed, self.start_button]),
            w.HTML("<h4>Rules</h4>"), self.preset,
            w.GridBox(list(self.parameters.widgets.values()),
                      layout=w.Layout(grid_template_columns="repeat(auto-fill, minmax(255px, 1fr))")),
            self.errors["rules"],
            w.HTML("<h4>Castles</h4> <small>click to cycle neutral → english → french</small>"),
            self.castle_row, self.errors["castles"],
            w.HTML("<h4>Game</h4>"), w.HBox([self.round, self.first, self.to_play]), self.errors["game"],
            *[w.VBox([w.HTML(f"<h4>{name.capitalize()}</h4>"),
                      w.HBox([self.exhaustions[i], self.drawer[i], self.order[i]]),
                      self.grids[i], self.errors[name]]) for i, name in enumerate(SIDES)],
            self.focus_note,
            w.HTML("<h4>Placed this round</h4>"), w.HBox([self.x, self.y, self.pending]), self.errors["placed"],
            w.HTML("<h4>Load and save</h4>"), self.notation_text, self.json_text,
            w.HBox([*self.io_buttons.values(), self.path]), self.io_message,
        ]
        self._quiet = 0
        if position is not None:
            self.load_position(position)
        else:
            self.start_from("opening", 1)

    # ------------------------------------------------------------------ public
    def load_position(self, position: Position) -> None:
        """Show ``position`` in the form (and so make it the built position)."""
        self._fill(position.to_json())

    def load_json(self, data: str | dict[str, Any]) -> None:
        """Fill the form from a position's JSON; what does not make a valid position is shown as problems."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                self.io_message.value = messages_html([f"not valid JSON: {exc.msg} at line {exc.lineno}"])
                return
        if not isinstance(data, dict):
            self.io_message.value = messages_html(["a position is a JSON object"])
            return
        self._fill(data)

    def load_notation(self, text: str) -> None:
        """Fill the form from the one-line notation; a notation that cannot be read says why."""
        try:
            position = Position.from_notation(text)
        except (PositionError, RulesError, ValueError) as exc:
            self.io_message.value = messages_html(getattr(exc, "problems", [str(exc)]))
            return
        self.load_position(position)

    def start_from(self, name: str, seed: int = 1) -> None:
        """Load a starting preset (see :mod:`.starts`) under the form's rules, or its preset when invalid."""
        rules: Rules | str = self.position.rules if self.position is not None else self.preset.value
        self.load_position(start_position(name, rules, seed))

    def cycle_castle(self, index: int) -> None:
        """Give castle ``index`` to the next controller: neutral, english, french, neutral..."""
        if 0 <= index < len(self._castles):
            self._castles[index] = CONTROLS[(CONTROLS.index(self._castles[index]) + 1) % 3]
            self._draw_castles()
            self._changed()

    def focus_zone(self, side: str, zone: str, member: int = 0) -> None:
        """Point at the counts of one zone (a click on the table's stack): mark its row and focus it."""
        key = {"hand": f"hand{member}", "placed-X": "X", "placed-Y": "Y"}.get(zone, zone)
        row = self._rows.get((SIDES.index(side), key))
        for r in self._rows.values():
            r.label.remove_class("guyenne-focus")
        if row is None:
            return
        row.label.add_class("guyenne-focus")
        self.focus_note.value = f"<i>Editing the {side} {zone.replace('-', ' at ')} counts.</i>"
        if row.boxes:
            row.boxes[0].focus()

    def form_json(self) -> dict[str, Any]:
        """The position the form describes, as RULES.md section 10 JSON (valid or not)."""
        return self._assemble()[0]

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
        notes: list[str] = []
        with self._batch():
            rules = data.get("rules", "base")
            preset = rules if isinstance(rules, str) else rules.get("preset", "base") if isinstance(rules, dict) else ""
            if preset not in PRESETS:
                notes.append(f"unknown rules preset {preset!r}: kept {self.preset.value}")
                preset = self.preset.value
            self.preset.value = preset
            described = Rules.preset(preset).describe()
            if isinstance(rules, dict):
                described.update({k: v for k, v in rules.items() if k != "preset"})
            self.parameters.set(described)
            castles = data.get("castles")
            if isinstance(castles, list):
                self._castles = [c if c in CONTROLS else "neutral" for c in castles]
            self.round.value = data.get("round", 1) if isinstance(data.get("round"), int) else 1
            self.first.value = data.get("first") if data.get("first") in SIDES else "english"
            self.to_play.value = data.get("to_play") if data.get("to_play") in POINTS else "open_first"
            sides = data.get("sides") if isinstance(data.get("sides"), dict) else {}
            for i, name in enumerate(SIDES):
                s = sides.get(name) if isinstance(sides.get(name), dict) else {}
                members = s.get("members")
                hands = [m.get("hand") for m in members] if isinstance(members, list) and members else [s.get("hand")]
                for m in range(2):
                    self._cards[(i, f"hand{m}")] = self._read(hands[m] if m < len(hands) else [], notes)
                for zone in ("deck", "discard", "removed"):
                    self._cards[(i, zone)] = self._read(s.get(zone), notes)
                self.exhaustions[i].value = s.get("exhaustions", 0) if isinstance(s.get("exhaustions"), int) else 0
                self.drawer[i].value = s.get("drawer") if s.get("drawer") in (0, 1) else 0
                self.order[i].value = s.get("order") if s.get("order") in (0, 1) else None
                if s.get("stacked"):
                    notes.append(f"{name}'s deck order is not kept: the builder treats every deck as shuffled")
            placed = data.get("placed") if isinstance(data.get("placed"), dict) else {}
            for i, name in enumerate(SIDES):
                at = placed.get(name) if isinstance(placed.get(name), dict) else {}
                for b in BATTLES:
                    self._cards[(i, b)] = self._read(at.get(b), notes)
            pending = data.get("remove_choice") or data.get("concede_choice")
            if isinstance(pending, dict) and pending.get("castle") in BATTLES:
                self.pending.value = pending["castle"]
            self._rows, self._layout_key = {}, None  # rebuild the grids with the loaded cards
            self._sync_layout()
            for box, value in ((self.x, placed.get("X")), (self.y, placed.get("Y"))):
                box.value = value if value in [v for _, v in box.options] else None
        self.io_message.value = messages_html(notes)

    @staticmethod
    def _read(cards: Any, notes: list[str]) -> Cards:
        if not isinstance(cards, list):
            return EMPTY
        try:
            return Cards.of(cards)
        except CardError as exc:
            notes.append(str(exc))
            return EMPTY

    # ------------------------------------------------------------------ live check
    def _on_preset(self, change: dict[str, Any]) -> None:
        with self._batch():
            self.parameters.set(Rules.preset(change["new"]).describe())

    def _changed(self) -> None:
        if self._quiet:
            return
        self._sync_layout()
        data, problems = self._assemble()
        position, warnings = None, []
        if not problems:
            try:
                position = Position.from_json(data)
                warnings = position.warnings()
            except PositionError as exc:
                problems, warnings = exc.problems, exc.warnings
        by_section: dict[str, list[str]] = {name: [] for name in SECTIONS}
        for problem in problems:
            by_section[section_of(problem)].append(problem)
        for name, widget in self.errors.items():
            widget.value = messages_html(by_section[name], warnings if name == "general" else [])
        if position is None:
            self.summary.value = (f'<b style="color:#9b1c1c">✗ not a valid position: {len(problems)} '
                                  f'problem{"s" if len(problems) != 1 else ""}, shown beside the fields</b>')
        else:
            self.summary.value = f'<b style="color:#1d6b2f">✓ valid position</b> <code>{position.notation()}</code>'
            self.notation_text.value = position.notation()
        self.problems, self.warnings = problems, warnings
        self.position = position

    def _rules(self) -> Rules | None:
        try:
            return Rules.from_json(self._rules_json()[0])
        except RulesError:
            return None

    def _rules_json(self) -> tuple[str | dict[str, Any], list[str]]:
        preset = self.preset.value
        values, problems = self.parameters.read()
        base = Rules.preset(preset).describe()
        overrides = {k: v for k, v in values.items() if v != base.get(k)}
        return ({"preset": preset, **overrides} if overrides else preset), problems

    def _assemble(self) -> tuple[dict[str, Any], list[str]]:
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
            s["exhaustions"] = self.exhaustions[i].value
            sides[name] = s
        data: dict[str, Any] = {"rules": rules, "castles": list(self._castles), "round": self.round.value,
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
            choices = [("—", None)] + [(str(c), c) for c in range(n)]
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
                lines = [w.HBox(header)]
                for zone, label in rows:
                    row = CountsRow(label, kinds, self._cards[(i, zone)], self._changed)
                    self._rows[(i, zone)] = row
                    lines.append(w.HBox(row.widgets()))
                self.grids[i].children = lines
                self.drawer[i].layout.display = self.order[i].layout.display = None if team else "none"
        finally:
            self._quiet -= 1

    def _draw_castles(self) -> None:
        buttons = []
        for i, control in enumerate(self._castles):
            b = w.Button(description=f"{i}: {control}", button_style=CASTLE_STYLE[control],
                         layout=w.Layout(width="105px"))
            b.on_click(lambda _b, i=i: self.cycle_castle(i))
            buttons.append(b)
        self.castle_row.children = buttons

    # ------------------------------------------------------------------ load / save buttons
    def _load_json_text(self) -> None:
        self.load_json(self.json_text.value)

    def _show_json(self) -> None:
        data = self.position.to_json() if self.position is not None else self.form_json()
        self.json_text.value = json.dumps(data, indent=1)

    def _load_notation_text(self) -> None:
        self.load_notation(self.notation_text.value)

    def _load_file(self) -> None:
        try:
            self.load_position(load_position(self.path.value))
            self.io_message.value = f"loaded {self.path.value}"
        except PositionError as exc:
            try:
                with open(self.path.value, encoding="utf-8") as fh:
                    self.load_json(fh.read())
            except OSError:
                self.io_message.value = messages_html(exc.problems)

    def _save_file(self) -> None:
        if self.position is None:
            self.io_message.value = messages_html(["the position is invalid: fix the problems before saving"])
            return
        try:
            save_position(self.position, self.path.value)
        except OSError as exc:
            self.io_message.value = messages_html([f"cannot write {self.path.value}: {exc.strerror}"])
            return
        self.io_message.value = f"saved {self.path.value}"
