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
from ..i18n import N_, FIRST_CASTLE, castle_number, ngettext, point_name, side_noun
from ..i18n import gettext as _
from ..engine import Move
from ..engine import ENGLISH, FRENCH, Position
from ..engine import play_game
from ..engine import SIDES
from ..engine import LONGEST_RUN, RUN, SWEEP, UNSPENT, ScoreTerm, longest_runs, score_terms, tie_break
from .diagram_export import StoryboardExport
from .guard import guarded
from .state import ExplorerState

STATIC = pathlib.Path(__file__).parent / "static"
#: more moves than this are counted but not all listed (a variant can have thousands)
MAX_LISTED = 400
#: the jumps beside Back and Forward, with their tooltips (fixed texts, relabelled like every label)
JUMPS = {"◀◀ Start": N_("to the first position of the game played"),
         "End ▶▶": N_("to the last position of the game played")}
#: the fixed texts of the jumps and the typed move's buttons, for extraction
JUMP_LABELS = (N_("◀◀ Start"), N_("End ▶▶"), N_("Check typed move"), N_("Play typed move"))


class MoveList(anywidget.AnyWidget):
    """Chips of moves in groups: hover previews (``hovered``), click selects (``selected``), a double click
    applies (the handlers of :meth:`on_apply`).

    The browser reports each hover, click and double click as a message tagged with the list it was made on
    (``revision``, one more at each :meth:`show`), and a message from a list no longer shown is ignored: the
    browser keeps sending for a moment after a double click (the pointer over chips drawn again), and such a late
    hover, arriving once the move is played, previewed the old list's move on the new position, for the side now
    to play (after the English open ``0:H``, a French hero at castle 0).  Only the kernel writes ``selected``
    (the browser draws it) and ``hovered`` (the browser has no use for it).
    """

    _esm = STATIC / "moves.js"
    _css = STATIC / "moves.css"

    groups = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: the list shown, counted: a pick from the browser names it, and one from an older list is ignored
    revision = traitlets.Int(0).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    hovered = traitlets.Unicode("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._apply_handlers: list[Callable[[str], object]] = []
        self.on_msg(self._on_pick)

    def show(self, groups: list[dict[str, Any]]) -> None:
        """List a new position's moves (:func:`group_moves`), forgetting the move hovered or selected in the list
        before: a move just played, or one of the position left behind, is never previewed on the new one (where
        the same text may be the other side's move: after the English open ``2:H``, a French hero at castle 3)."""
        with self.hold_sync():
            self.selected = self.hovered = ""
            self.revision += 1
            self.groups = groups

    def on_apply(self, handler: Callable[[str], object]) -> None:
        """Call ``handler(move)`` when a move of the list shown is double-clicked."""
        self._apply_handlers.append(handler)

    def _on_pick(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A hover (``move`` "" when the pointer left the list), click or double click in the browser, if made on
        the list shown."""
        if not isinstance(content, dict) or content.get("list") != self.revision \
                or not isinstance(content.get("move"), str):
            return
        kind, move = content.get("type"), content["move"]
        if kind == "hover":
            self.hovered = move
        elif kind == "select":
            self.selected = move
        elif kind == "apply":
            for handler in self._apply_handlers:
                handler(move)


def group_moves(position: Position, limit: int = MAX_LISTED) -> list[dict[str, Any]]:
    """The first ``limit`` legal moves as ``[{"label", "moves": [[text, short], ...]}]``, by castle."""
    groups: dict[str, list[list[str]]] = {}
    for move, _n in zip(position.legal_moves, range(limit)):
        if move.castle is not None:  # castles as the table numbers them, in words and typed (FIRST_CASTLE)
            label, short = _("castle {number}").format(number=castle_number(move.castle)), str(move.cards)
        else:
            label, short = point_name(position.to_play), move.text()
        groups.setdefault(label, []).append([move.text(FIRST_CASTLE), short])
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
    (the engine's :func:`~guyenne_explore.engine.scoring.tie_break`) and by how much."""
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


def _castles_words(castles: tuple[int, ...]) -> str:
    """Castles as a reader counts them: "castle 3", or a run "castles 5, 6, 1" in its order round a ring."""
    numbers = [castle_number(c) for c in castles]
    if len(numbers) == 1:
        return _("castle {number}").format(number=numbers[0])
    return _("castles {numbers}").format(numbers=", ".join(str(n) for n in numbers))


def _term_words(term: ScoreTerm) -> str:
    """One term of a final score in words, with its points in brackets."""
    points = ngettext("{count} point", "{count} points", term.points).format(count=term.points)
    if term.kind == SWEEP:
        return _("every castle ({points})").format(points=points)
    if term.kind == UNSPENT:
        return ngettext("{count} unspent card ({points})", "{count} unspent cards ({points})", term.points).format(
            count=term.points, points=points)
    if term.kind == LONGEST_RUN:
        return _("the longest run, {castles} ({points})").format(castles=_castles_words(term.castles), points=points)
    assert term.kind == RUN
    if len(term.castles) == 1:
        return _("{castles} alone ({points})").format(castles=_castles_words(term.castles), points=points)
    return _("{castles} in a run ({points})").format(castles=_castles_words(term.castles), points=points)


def score_explained(p: Position) -> list[tuple[str, list[str], int]]:
    """A final score castle by castle (the engine's :func:`~guyenne_explore.engine.scoring.score_terms`): for each side,
    its name, each term in words and its total."""
    out = []
    for side, name in ((ENGLISH, "english"), (FRENCH, "french")):
        terms = score_terms(p, side)
        lines = [_term_words(t) for t in terms if t.points or t.kind == SWEEP] or [_("no castle")]
        out.append((side_noun(name, capital=True), lines, sum(t.points for t in terms)))
    return out


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
        self.list.on_apply(guarded(self.explain)(self.try_move))
        self.typed = w.Text(placeholder="a move, e.g. 3:H52 or 22 or reveal", layout=w.Layout(width="260px"))
        on_enter(self.typed, guarded(self.explain)(lambda: self.try_move(self.typed.value)))
        self.buttons = {name: w.Button(description=name, tooltip=JUMPS.get(name, ""),
                                       layout=w.Layout(width="auto") if name in JUMP_LABELS else w.Layout())
                        for name in
                        ("◀◀ Start", "◀ Back", "Forward ▶", "End ▶▶", "Apply selected", "Check typed move",
                         "Play typed move", "Sample chance", "Play out (heuristic)")}
        actions: dict[str, Callable[[], None]] = {
            "◀◀ Start": lambda: self.jump(end=False), "◀ Back": lambda: self.step(-1),
            "Forward ▶": lambda: self.step(1), "End ▶▶": lambda: self.jump(end=True),
            "Apply selected": lambda: self.try_move(self.list.selected),
            "Check typed move": lambda: self.check_move(self.typed.value),
            "Play typed move": lambda: self.try_move(self.typed.value),
            "Sample chance": self.sample_chance, "Play out (heuristic)": self.play_out}
        for name, action in actions.items():  # an unexpected error shows beside the typed move, never raised
            self.buttons[name].on_click(guarded(self.explain)(lambda _b, a=action: a()))
        self.step_label = w.HTML(layout=w.Layout(width="90px"))
        # the history stepped through, as a storyboard download (the whole history, not only up to the step shown)
        self.storyboard = StoryboardExport(lambda: self.history)
        self.state.observe(guarded(self.explain)(lambda _change: self._show()), names="history")
        self.children = [
            self.count,
            w.HBox([self.buttons["◀◀ Start"], self.buttons["◀ Back"], self.step_label, self.buttons["Forward ▶"],
                    self.buttons["End ▶▶"], self.buttons["Apply selected"], self.buttons["Sample chance"],
                    self.buttons["Play out (heuristic)"]], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.typed, self.buttons["Check typed move"], self.buttons["Play typed move"]],
                   layout=w.Layout(flex_flow="row wrap")), self.explain, self.list,
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
        if p is None or self._refused(p, text):
            return False
        self.state.play(p.apply(p.parse_move(text, FIRST_CASTLE)))
        self.explain.value = f'<span style="color:#1d6b2f">✓ {html.escape(_("played {move}").format(move=text.strip()))}</span>'
        return True

    def check_move(self, text: str) -> bool:
        """Say whether a typed move is legal here, or the engine's reason it is not, without playing it."""
        p = self.position
        if p is None or self._refused(p, text):
            return False
        said = _("{move} is legal here: Play typed move plays it").format(move=text.strip())
        self.explain.value = f'<span class="guyenne-legal" style="color:#1d6b2f">✓ {html.escape(said)}</span>'
        return True

    def _refused(self, p: Position, text: str) -> bool:
        """Write beside the box the engine's reason ``text`` is no legal move at ``p`` (True), if it is not one."""
        reason = p.why_illegal(text, FIRST_CASTLE) if text.strip() else _("type a move first, e.g. 3:H52")
        if reason is None:
            return False
        shown = text if len(text) <= 40 else text[:37] + "..."
        said = f"{shown}: {reason}" if text.strip() else str(reason)  # an empty box is not named
        self.explain.value = f'<span class="guyenne-illegal" style="color:#9b1c1c">✗ {html.escape(said)}</span>'
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

    def jump(self, end: bool) -> None:
        """To the first position of the game played, or (``end``) its last."""
        self.step(len(self.history) - 1 - self.index if end else -self.index)

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

    def _show(self) -> None:
        """The state's position and where the game stands: the list, the count, which buttons are live."""
        history = self.state.history
        p, index, count = history.current, history.index, len(history.positions)
        self.step_label.value = _("step {index} / {count}").format(index=index + 1, count=count) if count else ""
        self.list.show(group_moves(p) if p is not None and not p.is_chance and not p.is_over else [])
        self.count.value = self._count_html(p)
        self.buttons["Sample chance"].disabled = p is None or not p.is_chance
        self.buttons["Play out (heuristic)"].disabled = p is None or p.is_over
        self.buttons["Apply selected"].disabled = True  # the selection was just cleared
        self.buttons["◀ Back"].disabled = self.buttons["◀◀ Start"].disabled = index == 0
        self.buttons["Forward ▶"].disabled = self.buttons["End ▶▶"].disabled = index >= count - 1
        # no position (the builder's is invalid): a typed move has nothing to be played on
        self.buttons["Check typed move"].disabled = self.buttons["Play typed move"].disabled = p is None
        self.typed.disabled = p is None

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
