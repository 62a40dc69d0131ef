"""Drawing positions: standalone SVG diagrams in the style of the rulebook, and the team seating."""

from .seating import seating_svg
from .svg import Diagram, diagram, position_svg

__all__ = ["Diagram", "diagram", "position_svg", "seating_svg"]
