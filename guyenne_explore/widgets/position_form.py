"""The builder's form: a field for every part of a position, read into RULES.md section 10 JSON and checked
by the engine, with each problem beside the field it is about.

Reading: the form assembles the JSON and asks ``Position.from_json``; ``position`` is the valid
position the form describes, or None, and every problem of the ``PositionError`` is shown beside
its part of the form.  Writing: a position's JSON fills the fields (:meth:`PositionForm.fill_position`
checks what it filled, :meth:`PositionForm.show` shows a position known valid without reading it
back).  The buttons around the form (loads, saves, undo, the starts) are the builder's
(:mod:`.builder`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

import ipywidgets as w
import traitlets

from ..engine import EMPTY, HERO, KINDS, CardError, Cards, kind_of, value_of
from ..i18n import gettext
from ..i18n import N_, castle_number, current_language, ngettext, point_name, side_title
from ..engine import BATTLES, POINTS, Position
from ..engine import PositionError
from ..engine import Problem, as_problem
from ..render.colors import CONTROL_COLOR
from ..engine import PRESETS, SIDES, Rules, RulesError
from .forms import (
    SECTIONS,
    WIDE,
    CountsRow,
    TotalsRow,
    kinds_shown,
    messages_html,
    number_box,
    read_whole,
    symbols,
)
from .guard import guarded
from .language import name_options, relabel
from .rules_editor import RulesEditor
from .scroll import ScrollTo

CONTROLS = ("neutral", "english", "french")
#: rows of a side's card grid after its hand(s)
ZONE_ROWS = ("deck", "discard", "removed", "X", "Y")
ZONE_LABELS = {"deck": "deck", "discard": "discard", "removed": "removed", "X": "placed at X", "Y": "placed at Y"}
#: a zone's name in the note that points at its counts (a click on the table's stack)
FOCUS_ZONES = {"hand": N_("hand"), "deck": N_("deck"), "discard": N_("discard"), "removed": N_("removed"),
               "placed-X": N_("placed at X"), "placed-Y": N_("placed at Y")}
#: the zones of a side whose cards "Rest to deck" leaves where they are (a hand per team member, then the rest)
NOT_DECK = ("hand0", "hand1", *(z for z in ZONE_ROWS if z != "deck"))
#: the form's fixed texts of the zones typed as cards and of "Rest to deck", for extraction (relabelled like
#: every fixed label)
TYPED_LABELS = (N_("cards, e.g. H54322"), N_("<b>as cards</b>"), N_("Rest to deck"),
                N_("put the rest of this side's cards in its deck: its full set under the rules less what its other "
                   "zones hold"))


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



def cards_words(card_set: Cards) -> str:
    """The cards a side has under the rules, as a person types them: "H for the hero and 2 to 5"."""
    values = [value_of(k) for k in range(HERO) if card_set[k]]
    runs = (gettext("{low} to {high}").format(low=values[0], high=values[-1])
            if len(values) > 2 and values[-1] - values[0] == len(values) - 1 else ", ".join(map(str, values)))
    if not card_set[HERO]:
        return runs
    return gettext("H for the hero and {values}").format(values=runs) if values else gettext("H for the hero")


def read_typed_cards(text: str, card_set: Cards | None) -> tuple[Cards | None, str | None]:
    """A zone typed as cards (``H54322``: the notation's card letters, in any order, spaces allowed; nothing or
    ``-`` for none), or None and the problem in words: each letter must be a card of ``card_set`` (a side's set
    under the rules; None while the rules cannot be read: any card)."""
    allowed = card_set if card_set is not None else Cards([1] * KINDS)
    counts = [0] * KINDS
    letters = [ch for ch in text if not ch.isspace()]
    for ch in letters if letters != ["-"] else []:
        try:
            kind: int | None = kind_of(ch)
        except CardError:
            kind = None
        if kind is None or not allowed[kind]:
            words = (gettext("{symbol} is not a card: write {cards}") if kind is None
                     else gettext("{symbol} is not a card of these rules: write {cards}"))
            return None, words.format(symbol=ch, cards=cards_words(allowed))
        counts[kind] += 1
    return Cards(counts), None


class TypedCards:
    """A zone typed as cards beside its counts: the box shows the zone's cards as the counts stand, and what is
    typed sets the counts; what is not cards is refused beside the box (the box keeps it, to be fixed), and
    holds the form back like a count box that holds no count."""

    def __init__(self, on_typed: Callable[[], None]) -> None:
        # wide enough for a whole side's 22 cards ("H555444333322222222222"): at 120 px a full deck was cut
        self.box = w.Text(placeholder="cards, e.g. H54322", continuous_update=False, layout=w.Layout(width="180px"))
        self.box.add_class("guyenne-typed-cards")  # for pages and tests to find it among the count boxes
        self.message = w.HTML()
        self.message.add_class("guyenne-row-message")
        self.problem: str | None = None
        self.box.observe(lambda _change: on_typed(), names="value")

    def show(self, cards: Cards) -> None:
        """The zone's cards in the box, unless a refused text stands there (it stays until fixed)."""
        if self.problem is None:
            self.box.value = "".join(cards.symbols())

    def read(self, card_set: Cards | None) -> Cards | None:
        """The cards typed, or None with the problem written beside the box."""
        cards, self.problem = read_typed_cards(self.box.value, card_set)
        self.message.value = messages_html([self.problem] if self.problem else [])
        return cards


class PositionForm(w.VBox):
    """A field for every part of a position, checked live by the engine (the builder's form).

    ``position`` (a traitlet, observe it) is the valid position the form describes, or None;
    ``problems`` and ``warnings`` are the engine's words, each shown beside its part of the form.
    A change of a field checks the form and calls :meth:`_edited`; :meth:`show` fills the form
    from a valid position and calls :meth:`_shown` (the builder around the form overrides both).
    """

    position = traitlets.Any(None, allow_none=True)
    problems = traitlets.List(traitlets.Instance(Problem))
    warnings = traitlets.List(traitlets.Instance(Problem))
    #: the position the form describes as read while it is not valid, problems and all (``PositionError.draft``),
    #: to draw as it is built; None while the form is valid or cannot be read that far
    draft: Position | None = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._quiet = 1  # no check until the form is complete
        self._castles: list[str] = []
        self._cards: dict[tuple[int, str], Cards] = {}
        self._rows: dict[tuple[int, str], CountsRow] = {}
        self._typed: dict[tuple[int, str], TypedCards] = {}  # each row's zone typed as cards
        self._layout_key: tuple[Any, ...] | None = None
        self.errors = {name: w.HTML() for name in SECTIONS}
        self.fill_notes = w.HTML()  # what a loaded file held that no field can show
        self._totals: list[TotalsRow | None] = [None, None]  # each side's cards per value against the rules
        self._problems_shown: tuple[list[Problem], list[Problem]] = ([], [])  # the engine's, the count boxes'
        # rules
        self.preset = w.Dropdown(options=list(PRESETS), value="advanced", description="rules preset")
        self.preset.observe(guarded(self.errors["rules"])(self._on_preset), names="value")
        self.parameters = RulesEditor(self._changed_in("rules"))
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
        self.rest_buttons = [w.Button(description="Rest to deck", icon="inbox", layout=w.Layout(width="auto"),
                                      tooltip="put the rest of this side's cards in its deck: its full set under "
                                              "the rules less what its other zones hold") for _ in SIDES]
        self.rest_messages = [w.HTML() for _ in SIDES]
        for i, button in enumerate(self.rest_buttons):
            button.on_click(lambda _b, i=i: guarded(self.rest_messages[i])(self.rest_to_deck)(i))
        self.focus_note = w.HTML()
        self.scroll = ScrollTo(layout=w.Layout(height="0px"))
        for widget, section in ((self.round, "game"), (self.first, "game"), (self.to_play, "game"),
                                (self.x, "placed"), (self.y, "placed"), (self.pending, "placed"),
                                *((box, SIDES[i]) for i, boxes in enumerate(zip(self.exhaustions, self.drawer,
                                                                                   self.order)) for box in boxes)):
            widget.observe(self._changed_in(section), names="value")
        # the form's parts top to bottom (the builder puts its own controls above them)
        self.sections = [
            w.HTML("<h4>Rules</h4>"), self.preset,
            w.GridBox(self.parameters.fields,  # each field with its problems under it
                      layout=w.Layout(grid_template_columns="repeat(auto-fill, minmax(300px, 1fr))")),
            self.errors["rules"],
            w.HTML("<h4>Castles</h4> <small>click to cycle neutral → English → French</small>"),
            self.castle_row, self.errors["castles"],
            w.HTML("<h4>Game</h4>"), w.HBox([self.round, self.first, self.to_play]), self.errors["game"],
            *[w.VBox([w.HTML(f"<h4>{name.capitalize()}</h4>"),
                      w.HBox([self.exhaustions[i], self.drawer[i], self.order[i]]),
                      self.errors[name], self.grids[i],
                      w.HBox([self.rest_buttons[i], self.rest_messages[i]], layout=w.Layout(align_items="center"))])
              for i, name in enumerate(SIDES)],
            self.focus_note,
            w.HTML("<h4>Placed this round</h4>"), w.HBox([self.x, self.y, self.pending]), self.errors["placed"],
            self.scroll,
        ]
        self.children = [self.fill_notes, self.errors["general"], *self.sections]
        self._quiet = 0

    # ------------------------------------------------------------------ public
    def load_position(self, position: Position) -> None:
        """Fill the form with ``position`` and check it (so the form's position is what the form reads back)."""
        with self._batch():
            self._fill(position.to_json())

    def show(self, position: Position) -> None:
        """Show a valid position in the form (a move played, a step of the game) without reading it back:
        ``position`` stays exactly the one given, a stacked deck's order included, until a field is edited."""
        self.draft = None
        self._fill(position.to_json(), order_kept=True)
        self._show_check(position, [], [], position.warnings())
        self._shown()

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

    def type_cards(self, side: int, zone: str, text: str) -> None:
        """Type a zone's cards (``zone``: hand0, hand1 for a team's second member, deck, discard, removed, X, Y),
        as a person types them in the zone's box beside its counts."""
        self._typed[(side, zone)].box.value = text

    def rest_to_deck(self, side: int) -> None:
        """Put the rest of ``side``'s cards in its deck: its full set under the rules (:attr:`.Rules.card_set`) less
        what its hands, discard, removed and placed cards hold.  Refused beside the button, naming the cards
        over, while those zones hold more than the set, or while the rules cannot be read."""
        self._sync_layout()  # the counts as last typed
        r = self._rules()
        if r is None:
            self.rest_messages[side].value = messages_html([gettext(
                "the deck was not filled: the rules cannot be read, fix them first")])
            return
        held = sum((self._cards[(side, zone)] for zone in NOT_DECK), EMPTY)
        over = Cards(max(0, n - most) for n, most in zip(held, r.card_set))
        if over.size:
            self.rest_messages[side].value = messages_html([ngettext(
                "the deck was not filled: the other zones hold {count} card more than the rules give the side ({cards})",
                "the deck was not filled: the other zones hold {count} cards more than the rules give the side ({cards})",
                over.size).format(count=over.size, cards=over)])
            return
        self.rest_messages[side].value = ""
        with self._batch():
            self._rows[(side, "deck")].set(r.card_set - held)

    def form_json(self) -> dict[str, Any]:
        """The position the form describes, as RULES.md section 10 JSON (valid or not)."""
        return self._assemble()[0]

    # ------------------------------------------------------------------ the form as a value (for undo)
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

    def _form_state(self) -> FormState:
        """The form as it stands: every field's value or text, the castles, the counts and their typed texts."""
        return FormState(
            fields=tuple((name, box.value) for name, box in self._fields().items()),
            castles=tuple(self._castles),
            cards=tuple(sorted(self._cards.items())),
            texts=tuple(sorted((key, tuple(b.value for b in row.boxes)) for key, row in self._rows.items())),
            typed=tuple(sorted((key, typed.box.value) for key, typed in self._typed.items())))


    def _restore_form(self, state: FormState) -> None:
        """Set every field from ``state`` and check the form once."""
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
            for key, text in state.typed:
                if key in self._typed:
                    self._typed[key].box.value = text

    # ------------------------------------------------------------------ filling
    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Set many fields without checking the form."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    @contextmanager
    def _batch(self) -> Iterator[None]:
        """Set many fields, then check the position once."""
        with self._quietly():
            yield
        self._changed()

    def _fill(self, data: dict[str, Any], order_kept: bool = False) -> None:
        """Put a position's JSON in the fields, valid or not, unchecked; what no field can show becomes a note
        (``order_kept``: the position shown keeps a stacked deck's order, which no field shows)."""
        notes: list[str] = []
        castles_shown = list(self._castles)
        with self._quietly():
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
                    notes.append((gettext("{side}'s deck order: the position on the table keeps it until a field is "
                                          "edited (the form treats every deck as shuffled)") if order_kept else
                                  gettext("{side}'s deck order is not kept: the builder treats every deck as "
                                          "shuffled")).format(side=side_title(name)))
            placed = data.get("placed") if isinstance(data.get("placed"), dict) else {}
            for i, name in enumerate(SIDES):
                at = placed.get(name) if isinstance(placed.get(name), dict) else {}
                for b in BATTLES:
                    self._cards[(i, b)] = self._read(at.get(b), notes)
            pending = data.get("remove_choice") or data.get("concede_choice")
            if isinstance(pending, dict) and _choice(pending.get("castle"), BATTLES):
                self.pending.value = pending["castle"]
            self._show_cards(castles_shown)
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
        blocked += [as_problem(typed.problem, _row_field(key)) for key, typed in self._typed.items() if typed.problem]
        position, warnings = None, []
        try:
            read = Position.from_json(data)
        except PositionError as exc:  # the draft: every Position is made by the engine's new_position
            self.draft = cast("Position | None", exc.draft)
            if not problems and not blocked:
                problems, warnings = exc.problems, exc.warnings
            else:  # the rules' problems too, as the engine says them: every field's problem at once
                problems += [p for p in exc.problems if p.section == "rules" and p not in problems]
        else:
            self.draft = None if not problems and not blocked else read
            if self.draft is None:
                position, warnings = read, read.warnings()
        self._show_check(position, problems, blocked, warnings)
        self._edited()

    def _on_typed(self, key: tuple[int, str]) -> None:
        """A zone typed as cards: its counts set from them and the form checked once, or the refusal beside its
        box (the form checked again as it stands or ends); the box written to show the counts is no edit."""
        typed, row = self._typed[key], self._rows[key]
        was = typed.problem
        r = self._rules()
        cards = typed.read(r.card_set if r is not None else None)
        if cards is not None and cards != row.cards:
            with self._batch():
                row.set(cards)
        elif typed.problem != was:
            self._changed()

    def _show_check(self, position: Position | None, problems: list[Problem], blocked: list[Problem],
                    warnings: list[Problem]) -> None:
        """The engine's problems beside their parts of the form (``blocked``, count boxes that hold no count,
        are beside their rows already), the totals, and the traits."""
        by_section: dict[str, list[Problem]] = {name: [] for name in SECTIONS}
        for problem in problems:
            by_section[section_of(problem)].append(problem)
        by_section["rules"] = self.parameters.show(by_section["rules"])  # beside their fields; the rest under them
        for name, widget in self.errors.items():
            widget.value = messages_html(by_section[name], warnings if name == "general" else [])
        self._show_totals()
        for key, typed in self._typed.items():
            typed.show(self._cards[key])
        self._problems_shown = (problems, blocked)
        self.problems, self.warnings = [*problems, *blocked], warnings
        self.position = position

    def refresh(self) -> None:
        """Write the problems beside the fields again, in the current language (after a language switch),
        without reading the form again: a position shown stays exactly the one given."""
        self._show_check(self.position, *self._problems_shown, self.warnings)

    def _edited(self) -> None:
        """A field was edited and the form checked: the builder around the form takes it from here."""

    def _shown(self) -> None:
        """A position was shown in the form (not read back from it): the builder takes it from here."""

    def _rules(self) -> Rules | None:
        try:
            return Rules.from_json(self._rules_json()[0])
        except RulesError:
            return None

    def _rules_json(self) -> tuple[str | dict[str, Any], list[Problem]]:
        preset = self.preset.value
        values, unread = self.parameters.read(Rules.preset(preset))
        base = Rules.preset(preset).describe()
        overrides = {k: v for k, v in values.items() if v != base.get(k)}
        return ({"preset": preset, **overrides} if overrides else preset), unread

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
            s["exhaustions"], bad = read_whole(self.exhaustions[i].value, f"{name} exhaustions", low=-WIDE)
            problems += [as_problem(bad, f"sides.{name}.exhaustions")] if bad else []
            sides[name] = s
        round_number, bad = read_whole(self.round.value, N_("the round"), low=-WIDE)
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
    def _show_cards(self, castles_shown: list[str]) -> None:
        """Put the filled counts in the grids and the castles in their row: the grids keep their boxes
        while their layout stays (only the counts change, as after a move), else they are rebuilt."""
        if self._layout(self._rules()) == self._layout_key:
            for key, row in self._rows.items():
                row.set(self._cards[key])
            self._sync_layout()
            if self._castles != castles_shown:
                self._draw_castles()
        else:
            self._rows, self._layout_key = {}, None
            self._sync_layout()

    def _layout(self, r: Rules | None) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The grids' layout for rules ``r`` and the counts held: castles, members of each side, card kinds."""
        n = r.castles if r is not None else len(self._castles)
        members = r.members if r is not None else (1, 1)
        return n, members, kinds_shown(r.card_set if r is not None else EMPTY, *self._cards.values())

    def _sync_layout(self) -> None:
        """Resize the castle row and the card grids to the rules (castles, teams, card kinds)."""
        r = self._rules()
        for at, row in self._rows.items():
            self._cards[at] = row.cards
        layout = self._layout(r)
        n, members, kinds = layout
        self._castles = (self._castles + ["neutral"] * n)[:n]
        if layout == self._layout_key:
            return
        self._layout_key = layout
        self._quiet += 1
        try:
            self._draw_castles()
            choices = [("—", None)] + [(str(castle_number(c)), c) for c in range(n)]
            for box in (self.x, self.y):
                keep = box.value
                box.options = choices
                box.value = keep if keep in range(n) else None
            self._rows, self._typed = {}, {}
            header = [w.HTML("", layout=w.Layout(width="120px"))] + [
                w.HTML(f"<b>{s}</b>", layout=w.Layout(width="52px")) for s in symbols(kinds)] + [
                w.HTML("", layout=w.Layout(width="40px")), w.HTML("<b>as cards</b>")]
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
                    typed = TypedCards(guarded(self.errors[SIDES[i]])(lambda key=(i, zone): self._on_typed(key)))
                    self._rows[(i, zone)], self._typed[(i, zone)] = row, typed
                    typed.show(row.cards)
                    lines.append(w.HBox([row.label, *row.boxes, row.total, typed.box, row.message, typed.message]))
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



@dataclass(frozen=True)
class FormState:
    """One state of the builder's form, valid or not, exactly as a person left it: each field's value
    (the text of a number box as typed), the castles, each zone's counts, the text of each count box and of
    each zone typed as cards."""

    fields: tuple[tuple[str, Any], ...]
    castles: tuple[str, ...]
    cards: tuple[tuple[tuple[int, str], Cards], ...]
    texts: tuple[tuple[tuple[int, str], tuple[str, ...]], ...]
    typed: tuple[tuple[tuple[int, str], str], ...]


def _choice(value: Any, choices: tuple[Any, ...]) -> bool:
    """Whether a value read from a file is one of ``choices`` (a list or an object never is)."""
    return isinstance(value, (str, int)) and value in choices

