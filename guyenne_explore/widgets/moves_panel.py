"""Legal moves: the moves at the decision point, grouped by castle, and a game record to step through.

The list, the count and every explanation come from the engine
(``legal_moves``, ``why_illegal``, ``apply``); the game played is the explorer's
state (:mod:`.state`): a move sets it, Back and Forward step through it, and the
panel shows whatever position the state holds.
"""

from __future__ import annotations

import html
import pathlib
import random
import warnings
from collections.abc import Callable
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ..analysis import Heuristic
from ..i18n import castle_number, ngettext, point_name, side_noun
from ..i18n import gettext as _
from ..moves import Move
from ..position import ENGLISH, FRENCH, Position
from ..record import play_game
from ..rules import SIDES
from ..scoring import LONGEST_RUN, longest_runs, tie_break
from .diagram_export import StoryboardExport
from .guard import guarded
from .state import ExplorerState

STATIC = pathlib.Path(__file__).parent / "static"
#: more moves than this are counted but not all listed (a variant can have thousands)
MAX_LISTED = 400


class MoveList(anywidget.AnyWidget):
    """Chips of moves in groups: hover previews (``hovered``), click selects (``selected``)."""

    _esm = STATIC / "moves.js"
    _css = STATIC / "moves.css"

    groups = traitlets.List(traitlets.Dict()).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    hovered = traitlets.Unicode("").tag(sync=True)


def group_moves(position: Position, limit: int = MAX_LISTED) -> list[dict[str, Any]]:
    """The first ``limit`` legal moves as ``[{"label", "moves": [[text, short], ...]}]``, by castle."""
    groups: dict[str, list[list[str]]] = {}
    for move, _n in zip(position.legal_moves, range(limit)):
        if move.castle is not None:  # in words castles count from 1 (the rulebook); typed moves keep the notation's index
            label, short = _("castle {number} (typed {index}:)").format(number=castle_number(move.castle), index=move.castle), \
                str(move.cards)
        else:
            label, short = point_name(position.to_play), move.text()
        groups.setdefault(label, []).append([move.text(), short])
    return [{"label": label, "moves": moves} for label, moves in groups.items()]


def on_enter(box: w.Text, submit: Callable[[], None]) -> None:
    """Call ``submit`` when Enter is pressed in ``box`` (and only then: leaving the box submits nothing).

    ipywidgets 8 marks ``on_submit`` deprecated in favour of ``continuous_update=False``, but that
    also syncs when the box loses focus, so a click on the box's own button would submit twice;
    the Enter event is still sent by the page, and only ``on_submit`` hears it.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        box.on_submit(lambda _box: submit())


def game_over_words(p: Position) -> str:
    """Who won a finished game and the score; on equal scores, which tie-break of RULES.md 6 decided
    (the engine's :func:`~guyenne_explore.scoring.tie_break`) and by how much."""
    r = p.result()
    score = _("English {english} – French {french}").format(english=r.english, french=r.french)
    if r.winner == "draw":
        return (_("a draw, {score}: equal scores, and no tie-break separates the sides") if r.english == r.french
                else _("a draw, {score}")).format(score=score)
    winner = side_noun(r.winner)
    decided = tie_break(p)
    if decided is None:
        return _("{winner} win, {score}").format(winner=winner, score=score)
    won, lost = (ENGLISH, FRENCH) if r.winner == "english" else (FRENCH, ENGLISH)
    if decided == LONGEST_RUN:
        runs = longest_runs(p)
        return _("{winner} win on the tie-break, {score}: equal scores, so the longer longest run of castles "
                 "wins, {won} against {lost}").format(winner=winner, score=score, won=runs[won], lost=runs[lost])
    return _("{winner} win on the tie-break, {score}: equal scores, so more unspent cards (hand and deck) win, "
             "{won} against {lost}").format(winner=winner, score=score, won=p.sides[won].unspent,
                                            lost=p.sides[lost].unspent)


def heuristic_choice(position: Position, rng: random.Random) -> Move:
    """The heuristic policy's move, from what the side to play can see."""
    side = position.side_to_play
    assert side is not None
    return Heuristic().choose(position.view(side), rng)


class MovesPanel(w.VBox):
    """The legal moves of a position, a move typed by hand, and a history to step through.

    ``state`` (an :class:`~.state.ExplorerState`, the explorer's, else one of the panel's own) holds the
    position shown and the game played: a move or chance outcome applied, Back and Forward set it, and
    the panel shows each change of it.  The move to preview on the table (the hovered one, else the
    selected one) goes to the state's ``highlight``.
    """

    def __init__(self, position: Position | None = None, seed: int = 0, state: ExplorerState | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = state if state is not None else ExplorerState(position)
        self.seed = seed
        self.count = w.HTML()
        self.list = MoveList()
        self.explain = w.HTML()
        self.list.observe(guarded(self.explain)(self._on_pick), names=["selected", "hovered"])
        # "Apply selected" is live only while a move of the list (a legal one) is selected
        self.list.observe(guarded(self.explain)(lambda ch: setattr(self.buttons["Apply selected"], "disabled",
                                                                   not ch["new"])), names="selected")
        self.list.on_msg(guarded(self.explain)(self._on_list_msg))
        self.typed = w.Text(placeholder="a move, e.g. 3:H52 or 22 or reveal", layout=w.Layout(width="260px"))
        on_enter(self.typed, guarded(self.explain)(lambda: self.try_move(self.typed.value)))
        self.buttons = {name: w.Button(description=name) for name in
                        ("◀ Back", "Forward ▶", "Apply selected", "Try typed move", "Sample chance",
                         "Play out (heuristic)")}
        actions: dict[str, Callable[[], None]] = {
            "◀ Back": lambda: self.step(-1), "Forward ▶": lambda: self.step(1),
            "Apply selected": lambda: self.try_move(self.list.selected),
            "Try typed move": lambda: self.try_move(self.typed.value),
            "Sample chance": self.sample_chance, "Play out (heuristic)": self.play_out}
        for name, action in actions.items():  # an unexpected error shows beside the typed move, never raised
            self.buttons[name].on_click(guarded(self.explain)(lambda _b, a=action: a()))
        self.step_label = w.HTML(layout=w.Layout(width="90px"))
        # the history stepped through, as a storyboard download (the whole history, not only up to the step shown)
        self.storyboard = StoryboardExport(lambda: self.history)
        self.state.observe(guarded(self.explain)(lambda _change: self._show()), names="history")
        self.children = [
            self.count,
            w.HBox([self.buttons["◀ Back"], self.step_label, self.buttons["Forward ▶"],
                    self.buttons["Apply selected"], self.buttons["Sample chance"],
                    self.buttons["Play out (heuristic)"]]),
            w.HBox([self.typed, self.buttons["Try typed move"]]), self.explain, self.list,
            self.storyboard,
        ]
        self._show()

    # ------------------------------------------------------------------ public
    @property
    def position(self) -> Position | None:
        """The position shown: the state's, at the step of the game shown."""
        return self.state.position

    @property
    def history(self) -> list[Position]:
        """The positions of the game played, first to last (the state's)."""
        return list(self.state.history.positions)

    @property
    def index(self) -> int:
        """The step of :attr:`history` shown."""
        return self.state.history.index

    @property
    def highlight(self) -> str:
        """The move previewed on the table (the state's ``highlight``)."""
        return self.state.highlight

    def set_position(self, position: Position | None) -> None:
        """Show ``position``, a new game from it (the game played is kept when it is the position shown)."""
        self.state.build(position)

    def try_move(self, text: str) -> bool:
        """Apply a move typed or picked by hand, or show the engine's reason it is illegal."""
        p = self.position
        if p is None:
            return False
        reason = p.why_illegal(text) if text.strip() else _("type a move first, e.g. 3:H52")
        if reason is not None:
            shown = text if len(text) <= 40 else text[:37] + "..."
            said = f"{shown}: {reason}" if text.strip() else str(reason)  # an empty box is not named
            self.explain.value = (f'<span class="guyenne-illegal" style="color:#9b1c1c">✗ '
                                  f'{html.escape(said)}</span>')
            return False
        self.state.play(p.apply(text))
        self.explain.value = f'<span style="color:#1d6b2f">✓ {html.escape(_("played {move}").format(move=text.strip()))}</span>'
        return True

    def refresh(self) -> None:
        """Write the panel's texts again (in the current language, after a language switch)."""
        self.explain.value = ""
        self._show()
        self.storyboard.file.refresh()  # the last storyboard's download link, its size in the new language's words

    def step(self, delta: int) -> None:
        """Move ``delta`` steps along the history (back is negative)."""
        self._forget_typed()
        self.state.step(delta)

    def sample_chance(self) -> None:
        """At a chance point, draw an outcome (seeded by the panel's seed and the step)."""
        p = self.position
        if p is not None and p.is_chance:
            self.state.play(p.apply_outcome(p.sample_outcome(random.Random(self.seed * 100003 + self.index))))

    def play_out(self) -> None:
        """Play the rest of the game with the heuristic policy; step back through it afterwards."""
        p = self.position
        if p is None or p.is_over:
            return
        record = play_game(p, self.seed + self.index, Heuristic())
        positions = self.history[:self.index] + record.positions()
        self._forget_typed()
        self.state.follow(positions, len(positions) - 1)

    # ------------------------------------------------------------------ internals
    def _forget_typed(self) -> None:
        """The last "✓ played …" and the typed move belong to the position left behind: clear them."""
        self.explain.value = self.typed.value = ""

    def _on_pick(self, _change: Any) -> None:
        self.state.highlight = self.list.hovered or self.list.selected

    def _on_list_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if content.get("type") == "apply" and isinstance(content.get("move"), str):
            self.try_move(content["move"])

    def _show(self) -> None:
        """The state's position and where the game stands: the list, the count, which buttons are live."""
        history = self.state.history
        p, index, count = history.current, history.index, len(history.positions)
        self.step_label.value = _("step {index} / {count}").format(index=index + 1, count=count) if count else ""
        with self.list.hold_sync():
            self.list.selected = self.list.hovered = ""
            self.list.groups = group_moves(p) if p is not None and not p.is_chance and not p.is_over else []
        self.count.value = self._count_html(p)
        self.buttons["Sample chance"].disabled = p is None or not p.is_chance
        self.buttons["Play out (heuristic)"].disabled = p is None or p.is_over
        self.buttons["Apply selected"].disabled = True  # the selection was just cleared
        self.buttons["◀ Back"].disabled = index == 0
        self.buttons["Forward ▶"].disabled = index >= count - 1
        # no position (the builder's is invalid): a typed move has nothing to be played on
        self.buttons["Try typed move"].disabled = self.typed.disabled = p is None

    @staticmethod
    def _count_html(p: Position | None) -> str:
        if p is None:
            text = _("no valid position: see the builder")
            return f'<span class="guyenne-move-count" data-count="0">{text}</span>'
        if p.is_over:
            text = _("Game over: {result}.").format(result=game_over_words(p))
        elif p.is_chance:
            text = _("a chance point ({point}): sample an outcome to go on").format(point=point_name(p.to_play))
        else:
            n = len(p.legal_moves)
            who = side_noun(SIDES[p.side_to_play]) if p.side_to_play is not None else ""  # "the English"
            text = (ngettext("<b>{count}</b> legal move for {side} at {point} (the first {listed} listed)",
                             "<b>{count}</b> legal moves for {side} at {point} (the first {listed} listed)", n)
                    if n > MAX_LISTED else
                    ngettext("<b>{count}</b> legal move for {side} at {point}",
                             "<b>{count}</b> legal moves for {side} at {point}", n)).format(
                count=n, side=who, point=point_name(p.to_play), listed=MAX_LISTED)
            return f'<span class="guyenne-move-count" data-count="{n}">{text}</span>'
        return f'<span class="guyenne-move-count" data-count="0">{html.escape(text)}</span>'
