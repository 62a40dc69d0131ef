"""Drawing positions: standalone SVG diagrams in the style of the rulebook."""

from .svg import Diagram, diagram, position_svg

__all__ = ["Diagram", "diagram", "position_svg"]
