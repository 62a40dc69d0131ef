"""The one colour of each side, shared by diagrams, plots and widget buttons.

English red, French blue, as on the rulebook's figures; a widget that marks a
side (a castle button in the builder, a bar in a plot) takes its colour from
here, so the table and the controls beside it never disagree.
"""

from __future__ import annotations

from ..engine import ENGLISH, FRENCH, NEUTRAL

ENGLISH_COLOR = "#b22222"
FRENCH_COLOR = "#1f4e9c"
NEUTRAL_COLOR = "#555555"
SIDE_COLOR = {ENGLISH: ENGLISH_COLOR, FRENCH: FRENCH_COLOR}
#: by the control names the widgets use ("english", "french", "neutral"); neutral castles are light grey
CONTROL_COLOR = {"english": ENGLISH_COLOR, "french": FRENCH_COLOR, "neutral": "#d0d0d0"}
#: light tints of the side colours for areas behind cards
TINT = {ENGLISH: "#f6dede", FRENCH: "#dde6f5", NEUTRAL: "#e6e6e6"}
