"""Starting positions for the builder, the chooser that loads them, and the words naming what a panel analyses.

The engine's start of a game is a chance point: the deal (after the expert setup discards),
before any card is drawn (``Position.start``).  Analysing it weighs every deal by its
probability: that is "the game", and the chooser starts there by default.  A dealt opening
is one deal of that chance point, played from a seed: a named choice, with "Deal again"
dealing the next seed.  Every start is made by the engine from a seed (the deal and the
moves are the engine's own), so the same choice always gives the same position.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as w

from ..i18n import N_, gettext, point_name
from ..engine import Position
from ..engine import uniform_choice
from ..engine import Rules
from .forms import NumberField, messages_html
from .guard import guarded
from .language import name_options

BEFORE_DEAL = "before the deal"
DEALT = "a dealt opening"
#: the names shown in the builder's "start from" choice, the default first
STARTS = (BEFORE_DEAL, DEALT, "rulebook example", "random mid-game")
#: each start's name in words (the names above are the choice's values: tests and pages set them)
START_NAMES = {BEFORE_DEAL: N_("before the deal"), DEALT: N_("a dealt opening"),
               "rulebook example": N_("rulebook example"), "random mid-game": N_("random mid-game")}
#: the starts a seed chooses (the others are one position each)
SEEDED = (DEALT, "random mid-game")


def before_deal(rules: Rules | str = "advanced") -> Position:
    """The game before the deal: the engine's start, a chance point (after the expert setup discards)."""
    return Position.start(rules)


def is_before_deal(p: Position) -> bool:
    """True for the engine's start of a game under ``p``'s rules: nothing dealt, nothing discarded."""
    return p == Position.start(p.rules)


def opening(rules: Rules | str = "advanced", seed: int = 1) -> Position:
    """The first decision of a game: the deal (and any expert or team setup) played from ``seed``."""
    p = Position.start(rules)
    rng = random.Random(seed)
    while p.is_chance or p.to_play in ("setup_discard", "team_split", "team_order"):
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(uniform_choice(p, rng))
    return p


def rulebook_example() -> Position:
    """The rulebook's siege: the French attack English castle 2 with 5 3; the English must answer.

    Built as in notebooks/rule_examples.ipynb, figure (c): the base deal of seed 1,
    round 2, castle 2 English, the French first.
    """
    data = opening("base", 1).to_json()
    data.update(round=2, first="french")
    data["castles"][2] = "english"
    return Position.from_json(data).apply("2:53")


def midgame(rules: Rules | str = "advanced", seed: int = 1, rounds: int = 4) -> Position:
    """A position at the start of a later round, reached by seeded uniform-random play.

    Stops at the first placement of round ``1 + rounds`` (or earlier if the game ends first,
    then at the last decision before the end).
    """
    p = opening(rules, seed)
    rng = random.Random(seed)
    last_decision = p
    while not p.is_over:
        if not p.is_chance:
            if p.round > rounds and p.to_play == "open_first":
                return p
            last_decision = p
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(uniform_choice(p, rng))
    return last_decision


def start_position(name: str, rules: Rules | str = "advanced", seed: int = 1) -> Position:
    """The start called ``name`` (one of :data:`STARTS`)."""
    if name == BEFORE_DEAL:
        return before_deal(rules)
    if name == DEALT:
        return opening(rules, seed)
    if name == "rulebook example":
        return rulebook_example()
    if name == "random mid-game":
        return midgame(rules, seed)
    raise ValueError(f"unknown start {name!r}: one of {', '.join(STARTS)}")


@dataclass(frozen=True)
class Start:
    """A start the chooser loaded: its name, its seed and the position it gave (to name it while it is shown)."""

    name: str
    seed: int
    position: Position


def subject(p: Position, start: Start | None = None, lang: str | None = None) -> str:
    """What a panel analyses from ``p``, in words: the game before the deal, a dealt opening (with its seed,
    when ``start`` dealt ``p``), or the position on the table (its round and decision point)."""
    if is_before_deal(p):
        return gettext("the game before the deal: every deal counts by its probability", lang)
    if start is not None and start.name == DEALT and start.position == p:
        return gettext("a dealt opening (seed {seed}): this one deal only, not the game before the deal",
                       lang).format(seed=start.seed)
    if p.is_over:
        return gettext("the position on the table: the game is over", lang)
    text = gettext("the position on the table: round {round}, {point}", lang).format(
        round=p.round, point=point_name(p.to_play, lang))
    if p.to_play == "deal":  # a deal point with cards already in hand: the engine only fills the hands up
        text += " " + gettext("(the hands are already dealt: this deal only fills them up to {size} cards; "
                              "choose 'before the deal' under 'start from' for a new deal)", lang).format(
            size=p.rules.hand_size)
    return text


def subject_html(p: Position | None, start: Start | None = None, lang: str | None = None) -> str:
    """The line at the top of an analysing panel: "Position analysed: ..." (nothing while no position is valid)."""
    if p is None:
        return ""
    return ("<div class='guyenne-subject'><b>" + escape(gettext("Position analysed:", lang)) + "</b> "
            + escape(subject(p, start, lang)) + "</div>")


def _start_name(name: str, lang: str) -> str:
    return gettext(START_NAMES.get(name, name), lang)


class StartChooser(w.VBox):
    """The builder's "start from" row: a start, its seed where it has one, Start, and "Deal again" for a dealt
    opening (the next seed: a new deal each time).  ``start`` is the last start loaded."""

    def __init__(self, rules: Callable[[], Rules | str], load: Callable[[Position], Any], **kwargs: Any) -> None:
        self._rules = rules
        self._load = load
        # wide enough for the longest start's name (French: "milieu de partie au hasard") beside its label
        self.choice = name_options(w.Dropdown(options=STARTS, value=BEFORE_DEAL, description="start from",
                                              layout=w.Layout(width="340px")), _start_name)
        self.seed = NumberField("seed", 1, 0, 999_999_999, width="150px")
        self.button = w.Button(description="Start", button_style="primary")
        self.deal_again = w.Button(description=N_("Deal again"), icon="refresh", layout=w.Layout(width="auto"),
                                   tooltip=N_("deal a new opening: the next seed"))
        self.message = w.HTML()
        self.start: Start | None = None
        self.button.on_click(guarded(self.message)(lambda _b: self.clicked()))
        self.deal_again.on_click(guarded(self.message)(lambda _b: self.deal_next()))
        self.choice.observe(guarded(self.message)(lambda _ch: self._show_fields()), names="value")
        super().__init__([w.HBox([self.choice, self.seed, self.button, self.deal_again],
                                 layout=w.Layout(flex_flow="row wrap")), self.message], **kwargs)
        self.add_class("guyenne-start")
        self._show_fields()

    def _show_fields(self) -> None:
        """The seed only for a start it chooses; "Deal again" only for a dealt opening."""
        self.seed.layout.display = None if self.choice.value in SEEDED else "none"
        self.deal_again.layout.display = None if self.choice.value == DEALT else "none"

    def start_from(self, name: str, seed: int = 1) -> Start:
        """Load the start ``name`` under the form's rules (see :func:`start_position`)."""
        start = Start(name, seed, start_position(name, self._rules(), seed))
        self.start = start
        self._load(start.position)
        self.message.value = ""
        return start

    def clicked(self) -> None:
        """The Start button: refused beside the seed while a seeded start's seed is not a seed."""
        name = self.choice.value
        if name in SEEDED and self.seed.problem is not None:
            self.message.value = messages_html([gettext("not started: {problem}").format(problem=self.seed.problem)])
            return
        self.start_from(name, self.seed.value if name in SEEDED else 1)

    def deal_next(self) -> None:
        """Deal again: a dealt opening of the next seed (seed 1 when the box holds no seed)."""
        seed = self.seed.value + 1 if self.seed.problem is None and self.seed.value < self.seed.high else 1
        self.seed.value = seed
        self.choice.value = DEALT
        self.start_from(DEALT, seed)


class Subject:
    """What a panel analyses, named at its top, and whether the figures it shows are still for it.

    ``line`` goes at the top of the panel, ``stale_note`` over its figures; while the figures are for another
    position than the one now built (``ran`` records theirs), or for other settings than the panel's fields now ask
    (``settings``, the panel's reading of its fields, compared with its value when the run was asked), the note says
    which, and ``dimmed`` (the figures, the metrics) take the ``guyenne-stale`` class (static/plot_view.css): a
    figure that stayed bright after a field changed read as the answer to the new settings.
    """

    def __init__(self, *dimmed: w.Widget) -> None:
        self.line = w.HTML()
        self.stale_note = w.HTML()
        self.dimmed = dimmed
        self.position: Position | None = None
        self.start: Start | None = None
        self.analysed: tuple[Position, Start | None] | None = None
        self._settings: Callable[[], object] | None = None  # the fields' reading the figures answer, and its value
        self._asked: object = None

    def set_position(self, position: Position | None, start: Start | None = None) -> None:
        self.position, self.start = position, start
        self.draw()

    def ran(self, position: Position, start: Start | None, settings: Callable[[], object] | None = None,
            asked: object = None) -> None:
        """The figures now shown are for ``position``, and for what ``settings()`` read when the run was asked
        (``asked``; None: what it reads now, as when a saved session's fields and results are set back together)."""
        self.analysed = (position, start)
        self._settings = settings
        self._asked = settings() if settings is not None and asked is None else asked
        self.draw()

    @property
    def stale(self) -> bool:
        return self.moved or self.other_settings

    @property
    def moved(self) -> bool:
        """The figures are for another position than the one built."""
        return self.analysed is not None and self.analysed[0] != self.position

    @property
    def other_settings(self) -> bool:
        """The figures are for other settings than the fields ask now."""
        return self.analysed is not None and self._settings is not None and self._settings() != self._asked

    def draw(self) -> None:
        """Both lines in the current language (a language switch, and a field changed, call this again)."""
        self.line.value = subject_html(self.position, self.start)
        if self.moved:
            assert self.analysed is not None
            note = gettext("These figures are for the previous position ({subject}); run again to update them.").format(
                subject=subject(*self.analysed))
        elif self.other_settings:
            note = gettext("These figures are for the settings of the last run, not those above; run again to update them.")
        else:
            note = ""
        self.stale_note.value = f"<div class='guyenne-stale-note'>{escape(note)}</div>" if note else ""
        for x in self.dimmed:
            (x.add_class if self.stale else x.remove_class)("guyenne-stale")
