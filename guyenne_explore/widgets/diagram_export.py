"""Pictures for a rulebook from the page: the table's diagram (SVG, PNG, PDF) and a game's storyboard.

:class:`DiagramExport` draws the position a table shows with the options
chosen (caption, the previewed move outlined, battle winners marked, hidden
cards face up or not, the seating view, PNG scale); :class:`StoryboardExport` turns a history of
positions (the moves panel's) into a storyboard, as a PDF or a zip of SVGs.
Both are drawn by the render layer and handed to the browser as downloads
(:class:`~.files.Download`): no server path is involved.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from ..i18n import gettext
from ..engine import Position
from ..render.seating import seating_svg
from ..render.storyboard import record_from_positions, storyboard, storyboard_pdf, storyboard_zip
from ..render.export import SCALES
from ..render.svg import Diagram, caption_problem, diagram
from .files import Download
from .forms import NumberField, messages_html
from .guard import guarded
from .table import Table

FORMATS = ("PNG", "SVG", "PDF")


class DiagramExport(w.Accordion):
    """A folded row under a :class:`Table`: options and a button that downloads its diagram."""

    def __init__(self, table: Table, **kwargs: Any) -> None:
        self.table = table
        self.format = w.ToggleButtons(options=FORMATS, value="PNG", style={"button_width": "52px"},
                                      layout=w.Layout(width="auto"))
        self.caption = w.Text(placeholder="caption written above the table (optional)",
                              layout=w.Layout(flex="1 1 240px", min_width="160px"))
        self.caption_message = w.HTML()  # beside the box: a caption too long to draw
        self.caption_message.add_class("guyenne-field-message")
        self.caption.observe(lambda _c: self._check_caption(), names="value")
        self.with_move = w.Checkbox(value=True, description="outline the previewed move", indent=False,
                                    layout=w.Layout(width="auto"))
        self.winners = w.Checkbox(value=False, description="mark battle winners", indent=False,
                                  layout=w.Layout(width="auto"))
        self.face_up = w.Checkbox(value=table.show_hands, description="hidden cards face up", indent=False,
                                  layout=w.Layout(width="auto"))
        self.seating = w.Checkbox(value=False, description="where the players sit", indent=False,
                                  layout=w.Layout(width="auto"),
                                  tooltip="a top view of the table with each player's seat (made for the team game)")
        self.scale = NumberField("PNG scale", 2.0, *SCALES, whole=False, width="140px",
                                 style={"description_width": "70px"})
        self.button = w.Button(description="Download diagram", icon="download", button_style="primary",
                               layout=w.Layout(width="auto"))
        self.file = Download()
        self.message = w.HTML()
        self.button.on_click(guarded(self.message)(lambda _b: self.download()))
        def row(*children: w.Widget) -> w.HBox:
            return w.HBox(list(children), layout=w.Layout(flex_flow="row wrap", align_items="center"))
        body = w.VBox([row(self.caption, self.caption_message), row(self.with_move, self.winners, self.face_up, self.seating),
                       row(self.format, self.scale, self.button, self.file), self.message])
        super().__init__(children=[body], **kwargs)
        self.set_title(0, "Export the diagram (SVG, PNG, PDF)")
        self.selected_index = None
        self.add_class("guyenne-diagram-export")

    def refresh(self) -> None:
        """After a language switch: the words beside the caption and the scale, and the last refusal, written again."""
        self.message.value = ""
        self._check_caption()
        self.scale._read()
        self.file.refresh()  # the download link's size in the new language's words

    def _check_caption(self) -> str | None:
        """The caption's problem, also written beside its box (nothing when it fits)."""
        problem = caption_problem(self.caption.value)
        self.caption_message.value = messages_html([problem] if problem else [])
        return problem

    def picture(self) -> Diagram | None:
        """The diagram with the chosen options, or None (and a message) when the table shows no valid position."""
        p = self.table.position
        if p is None or self.table.status:
            words = gettext("No valid position to draw: fix the problems shown in the builder first.")
            self.message.value = f'<span style="color:#9b1c1c">{words}</span>'
            return None
        problem = self._check_caption()
        if problem is not None:  # the words also stand beside the box
            self.message.value = messages_html([gettext("not drawn: {problem}").format(problem=problem)])
            return None
        if self.seating.value:
            return seating_svg(p, show_hands=self.face_up.value, caption=self.caption.value.strip() or None)
        return diagram(p, show_hands=self.face_up.value, viewer=self.table.viewer,
                       caption=self.caption.value.strip() or None, show_winners=self.winners.value,
                       highlight_move=self.table.highlighted_move() if self.with_move.value else None)

    def download(self) -> bool:
        """Build the file in the chosen format and hand it to the browser; False with a message on a problem."""
        picture = self.picture()
        if picture is None:
            return False
        p = self.table.position
        assert p is not None
        fmt = self.format.value
        if fmt == "PNG" and self.scale.problem is not None:  # the words also stand beside the box
            self.message.value = messages_html([gettext("not drawn: {problem}").format(problem=self.scale.problem)])
            return False
        name = f"guyenne-{'seating-' if self.seating.value else ''}round{p.round}-{p.to_play}.{fmt.lower()}"
        try:
            data = {"SVG": lambda: str(picture).encode("utf-8"), "PNG": lambda: picture.png(self.scale.value),
                    "PDF": picture.pdf}[fmt]()
        except ValueError as exc:
            self.message.value = f'<span style="color:#9b1c1c">{html.escape(str(exc))}</span>'
            return False
        self.file.offer(name, data)
        self.message.value = ""
        return True


class StoryboardExport(w.HBox):
    """Buttons that download the storyboard of a history of positions: one captioned diagram per step that
    matters (see :mod:`guyenne_explore.render.storyboard`), as a PDF or as a zip of SVG files; every card face
    up, or as ``viewer`` (ENGLISH or FRENCH) saw the game."""

    def __init__(self, history: Callable[[], Sequence[Position]], viewer: int | None = None, **kwargs: Any) -> None:
        self.history = history
        self.viewer = viewer
        self.pdf_button = w.Button(description="Storyboard PDF", icon="file-pdf-o", layout=w.Layout(width="auto"),
                                   tooltip="the game so far, one captioned diagram per step that matters")
        self.zip_button = w.Button(description="Storyboard SVGs (zip)", icon="file-archive-o",
                                   layout=w.Layout(width="auto"))
        self.file = Download()
        self.message = w.HTML()
        self.pdf_button.on_click(guarded(self.message)(lambda _b: self.download("pdf")))
        self.zip_button.on_click(guarded(self.message)(lambda _b: self.download("zip")))
        super().__init__([self.pdf_button, self.zip_button, self.file, self.message],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"), **kwargs)
        self.add_class("guyenne-storyboard-export")

    def download(self, fmt: str) -> bool:
        """Build the storyboard of the history (``pdf`` or ``zip``) and hand it to the browser."""
        positions = list(self.history())
        if not positions:
            words = gettext("No game to draw: the position is not valid.")
            self.message.value = f'<span style="color:#9b1c1c">{words}</span>'
            return False
        self.message.value = gettext("drawing {count} steps...").format(count=len(positions))
        try:
            pictures = storyboard(record_from_positions(positions), viewer=self.viewer)
            data = storyboard_pdf(pictures) if fmt == "pdf" else storyboard_zip(pictures)
        except ValueError as exc:
            self.message.value = f'<span style="color:#9b1c1c">{html.escape(str(exc))}</span>'
            return False
        p = positions[0]
        self.file.offer(f"guyenne-storyboard-{p.rules.preset_name}-round{p.round}.{fmt}", data)
        self.message.value = gettext("{count} pictures").format(count=len(pictures))
        return True
