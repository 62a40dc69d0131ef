"""The captions of the rulebook figures rebuilt in ``notebooks/rule_examples.ipynb``, in English or French.

The notebook draws each figure with ``caption=caption(key)``; the sentences
live here, marked for extraction, so that Babel puts them in the catalogue
with every other message and a French rulebook gets its figures captioned in
the rulebook's words (``LANG = "fr"`` at the top of the notebook).
"""

from __future__ import annotations

from ..i18n import N_, gettext

CAPTIONS = {
    "setup": N_("Setup: six neutral castles, a hand of six cards each, the rest in the decks"),
    "neutral": N_("A neutral castle: both sides attack; the stronger takes it, a tie leaves it neutral"),
    "siege": N_("An English castle: the French attack, the English defend; a tie goes to the defender"),
    "classic2021": N_("Scoring example under classic2021: English 6, French 7"),
    "scoring2022": N_("Scoring example under the 2022 rules: English 5, French 6"),
    "expert": N_("Expert setup: five cards in each discard, then a hand of six"),
    "seating": N_("The 4-player seating: each team on its side of the castles"),
}


def caption(key: str, lang: str | None = None) -> str:
    """The caption of the figure ``key`` in ``lang`` (default: the current language)."""
    return gettext(CAPTIONS[key], lang)


__all__ = ["CAPTIONS", "caption"]
