"""Scroll the page to a part of a panel: a pile clicked on the table opens its row in the builder.

ipywidgets' ``focus()`` reaches an input only when it is already visible; the row
of a pile sits far down the builder, in a tab that was hidden a moment before,
so a tiny view of our own scrolls to it once the tab is shown (static/scroll.js).
"""

from __future__ import annotations

import pathlib

import anywidget

STATIC = pathlib.Path(__file__).parent / "static"


class ScrollTo(anywidget.AnyWidget):
    """An invisible view that scrolls the page to the first element matching a CSS selector."""

    _esm = STATIC / "scroll.js"

    def to(self, selector: str) -> None:
        """Scroll to (and focus the first input of the row of) the element matching ``selector``."""
        self.send({"type": "scroll", "selector": selector})
