"""Drawing positions: standalone SVG diagrams in the style of the rulebook, and the team seating."""

from ..engine import set_svg_renderer
from .seating import seating_svg
from .svg import Diagram, diagram, position_svg

# Jupyter shows a position as its diagram once the render layer is loaded (the engine never imports it)
set_svg_renderer(position_svg)

__all__ = ["Diagram", "diagram", "position_svg", "seating_svg"]
