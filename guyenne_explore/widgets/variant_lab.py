"""Variant lab: a rule variant against its preset from the same position (placeholder, being built)."""

from __future__ import annotations

import ipywidgets as w

from ..position import Position


class VariantLab(w.VBox):
    """Compares a rules variant with its preset and sweeps one parameter."""

    def __init__(self, position: Position | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.position = position

    def set_position(self, position: Position | None) -> None:
        """Called by the explorer whenever the built position changes (None when invalid)."""
        self.position = position
