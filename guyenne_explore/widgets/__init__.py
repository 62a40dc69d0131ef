"""ipywidgets panels of the explorer, built on the engine, the analysis and the renderer.

Each panel works alone (``Builder()``, ``MovesPanel(p)``, ``Table(p)``,
``AnalysisPanel(p)``, ``VariantLab(p)``); :class:`Explorer` puts them together.
"""

from .builder import Builder
from .explorer import Explorer
from .moves_panel import MovesPanel
from .table import Table

__all__ = ["Builder", "Explorer", "MovesPanel", "Table"]
