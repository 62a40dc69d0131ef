"""The table: a live diagram of a position, as an anywidget view.

The browser side (static/table.js, static/table.css) only shows the SVG drawn
by the render layer and reports clicks; Python keeps the position, so the
engine stays the one place where rules live.  Synced state is small: the
notation, the SVG text, the highlighted move and a status line.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..i18n import FIRST_CASTLE, castle_number, gettext, side_title
from ..engine import IllegalMove, Move
from ..engine import Position
from ..render.svg import position_svg

STATIC = pathlib.Path(__file__).parent / "static"

CastleHandler = Callable[[int], None]
StackHandler = Callable[[str, str, int], None]


class Table(anywidget.AnyWidget):
    """The diagram made live: click a castle or a card stack; a highlighted move is outlined.

    ``position`` is the position drawn (None before any); ``set_position(None)``
    keeps the last diagram, dimmed, with ``stale_reason`` written under it (a
    new reason replaces the old one while the table stays dimmed); ``set_draft``
    draws a position being built that is not valid yet, its problems under it.
    ``show_hands`` draws every hidden card face up (the designer's view); without
    it only ``viewer``'s own cards are (ENGLISH or FRENCH: a player's view), or
    none when ``viewer`` is None; ``viewer_member`` narrows a team side's view
    to that member's own cards (RULES.md 8: not its partner's hand).
    """

    _esm = STATIC / "table.js"
    _css = STATIC / "table.css"

    notation = traitlets.Unicode("").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    highlight = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    #: whether the picture is a position being built that is not valid yet (drawn undimmed, ``status`` under it)
    draft = traitlets.Bool(False).tag(sync=True)
    #: each castle's tooltip, in words: castles numbered 1 to n as in the rulebook (``data-castle`` keeps the index)
    castle_titles = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, position: Position | None = None, *, show_hands: bool = True, viewer: int | None = None,
                 viewer_member: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.position: Position | None = None
        self.show_hands = show_hands
        self.viewer = viewer
        self.viewer_member = viewer_member
        self._castle_handlers: list[CastleHandler] = []
        self._stack_handlers: list[StackHandler] = []
        self.on_msg(self._on_click)
        self.observe(self._redraw, names="highlight")
        if position is not None:
            self.set_position(position)

    def set_position(self, position: Position | None, stale_reason: str = "") -> None:
        """Draw ``position``; None keeps the last picture, dimmed, with the reason under it."""
        self.draft = False
        if position is None:
            self.status = stale_reason or gettext("the position is invalid")
            return
        same = position == self.position
        self.position = position
        with self.hold_sync():
            self.status = ""
            if not same:
                self.highlight = ""
            # the notation writes every hidden card: a player's view (show_hands off) must not send it to the page
            self.notation = position.notation() if self.show_hands else ""
            self._draw()

    def set_draft(self, draft: Position, problems: str) -> None:
        """Draw a position being built that is not valid yet (the builder's, as read), ``problems`` under it and
        the picture not dimmed, so the table follows every edit; the status says it is no position to use (the
        diagram export refuses it).  A draft the diagram cannot draw (marked over while no end check holds, so
        it has no score to show) keeps the last picture, dimmed, with the same words."""
        last = self.position
        with self.hold_sync():
            self.highlight = ""  # a move previewed belongs to the position left
            self.position = draft
            try:
                self._draw()
                self.notation = draft.notation()
            except ValueError:
                self.position = last
                self.set_position(None, problems)
                return
            self.draft = True
            self.status = problems

    def on_castle_click(self, handler: CastleHandler) -> None:
        """Call ``handler(castle_index)`` when a castle is clicked (the castles' tooltips say so from now on)."""
        self._castle_handlers.append(handler)
        self._redraw()

    def on_stack_click(self, handler: StackHandler) -> None:
        """Call ``handler(side, zone, member)`` when a card stack is clicked.

        ``zone`` is hand, deck, discard, removed, placed-X or placed-Y (the
        renderer's ``data-zone``); ``member`` is the team member of a hand, else 0.
        """
        self._stack_handlers.append(handler)

    # ---------------------------------------------------------------- internals
    def _on_click(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        kind = content.get("type")
        if kind == "castle" and isinstance(content.get("index"), int):
            for castle_handler in self._castle_handlers:
                castle_handler(content["index"])
        elif kind == "stack" and content.get("side") in ("english", "french"):
            for stack_handler in self._stack_handlers:
                member = content.get("member")
                stack_handler(content["side"], str(content.get("zone", "")), member if isinstance(member, int) else 0)

    def _redraw(self, _change: Any = None) -> None:
        if self.position is not None:
            self._draw()

    def highlighted_move(self) -> Move | None:
        """The move outlined on the table (the one hovered or selected in a move list), if legal here."""
        p = self.position
        if p is None or not self.highlight or p.is_chance or p.is_over:
            return None
        try:
            return p.parse_move(self.highlight, FIRST_CASTLE)
        except IllegalMove:
            return None

    def _draw(self) -> None:
        p = self.position
        assert p is not None
        self.svg = position_svg(p, show_hands=self.show_hands, viewer=self.viewer, viewer_member=self.viewer_member,
                                highlight_move=self.highlighted_move())
        self.castle_titles = [self._castle_title(i, p.control(i)) for i in range(len(p.castles))]

    def _castle_title(self, index: int, control: str) -> str:
        """A castle's tooltip: its number as the rulebook counts (from 1), who holds it, what a click does."""
        title = gettext("castle {number}: {control}").format(number=castle_number(index), control=side_title(control))
        if self._castle_handlers:
            title += " · " + gettext("click to cycle neutral → English → French")
        return title
