"""The rules parameters as data: one :class:`Parameter` per rules field, and :data:`PARAMETERS` in order.

Which parameters a rule set has, what values each takes and when a change of it reaches a game under
way is said here once: the rules' validation reads the bounds and choices, the editors are generated
from the list, the variant lab and the balance space vary what it lists, and :meth:`Position.under
<guyenne_explore.engine.position.Position.under>` refuses what it says cannot change once a game is
dealt.  A new parameter is one entry here (and its field on :class:`~guyenne_explore.engine.rules.Rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..i18n import N_

SIDES = ("english", "french")
REMOVALS = ("none", "advanced", "classic2021")
SCORINGS = ("2022", "2021")
RESHUFFLES = ("on_draw", "immediate")
ADJACENCIES = ("line", "ring")

#: The kinds of parameter: a whole number within bounds, one of named choices, true or false, or whole
#: numbers by key (``card_counts`` by card value, ``members`` by side).
NUMBER, CHOICE, FLAG, COUNTS = "number", "choice", "flag", "counts"
KINDS = (NUMBER, CHOICE, FLAG, COUNTS)


class When(str, Enum):
    """When a parameter changed on a game already dealt takes effect (RULES.md 2-6).

    Placements and battles (3, 4) read the next decision's rules at once; the draws at the end of a
    round (5) read the hand size, the reshuffle rule and L; the scoring (6) reads the scoring and the
    adjacency; the setup (2) reads what a dealt game is past; and the castles, the cards and the players
    on the table were set at the setup, so another count cannot apply to them.  The values are the words
    saved sessions carry."""

    NOW = "now"  #: the next placement or battle
    NEXT_DRAW = "next draw"  #: the draw at the end of the round: the cards now in hand stay
    AT_SCORING = "scoring"  #: when the game is scored
    PAST = "past"  #: at the setup, which a dealt game is past: no effect
    REFUSED = "refused"  #: set at the setup and on the table: cannot change in a game under way

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Parameter:
    """One rules parameter: its RULES.md 10 name, its kind and values, its label and when it takes effect.

    ``bounds`` are a number's lowest and highest values, or each count's for ``counts``; ``why`` says why
    each bound is where it is (said with a refusal).  ``choices`` are a choice's values, or a ``counts``
    parameter's keys (empty: any card value).  ``label`` is the name a form shows (English, translated
    where shown); ``noun`` the name the engine's problems give it, where it differs from ``name``."""

    name: str
    kind: str
    label: str
    takes_effect: When
    bounds: tuple[int, int] | None = None
    why: tuple[str, str] = ("", "")
    choices: tuple[Any, ...] = ()
    field: str = ""
    noun: str = ""

    def __post_init__(self) -> None:
        """Refuse an entry the rules could not check, where it is written: an unknown kind, a number or counts
        without bounds, a choice without choices."""
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind in (NUMBER, COUNTS) and self.bounds is None:
            raise ValueError(f"parameter {self.name}: a {self.kind} parameter needs its bounds")
        if self.kind == CHOICE and not self.choices:
            raise ValueError(f"parameter {self.name}: a choice parameter needs its choices")

    @property
    def attribute(self) -> str:
        """The :class:`~guyenne_explore.engine.rules.Rules` field that holds it (``valued`` for ``card_counts``)."""
        return self.field or self.name

    @property
    def said(self) -> str:
        """How the engine's problems name it (``the hand size``; else its name)."""
        return self.noun or self.name


#: Most cards of one value, and most valued cards in all, that a side may have.
MAX_PER_VALUE = 30
MAX_VALUED_CARDS = 60

#: Every rules parameter, in the order of RULES.md section 10.  The highest numbers keep a game short
#: enough to play and a move list short enough to list (a hand of 12 at 20 castles offers at most about
#: 80,000 openings); the exact analysis estimates its own cost below them.
PARAMETERS: tuple[Parameter, ...] = (
    Parameter("removal", CHOICE, N_("removal"), When.NOW, choices=REMOVALS),
    Parameter("scoring", CHOICE, N_("scoring"), When.AT_SCORING, choices=SCORINGS),
    Parameter("exhaustion_limit", NUMBER, N_("exhaustion limit L"), When.NEXT_DRAW, bounds=(1, 10),
              why=("", " (each exhaustion adds a cycle through the deck)"), noun="the exhaustion limit L"),
    Parameter("reshuffle", CHOICE, N_("reshuffle"), When.NEXT_DRAW, choices=RESHUFFLES),
    Parameter("adjacency", CHOICE, N_("adjacency"), When.AT_SCORING, choices=ADJACENCIES),
    Parameter("card_counts", COUNTS, N_("card counts"), When.REFUSED, bounds=(0, MAX_PER_VALUE), field="valued"),
    Parameter("hero", FLAG, N_("hero"), When.REFUSED),
    Parameter("hand_size", NUMBER, N_("hand size"), When.NEXT_DRAW, bounds=(2, 12),
              why=(" (a side places at two castles)", " (the moves of a hand grow as 2 to its size)"),
              noun="the hand size"),
    Parameter("castles", NUMBER, N_("castles"), When.REFUSED, bounds=(2, 20),
              why=(" (two are fought over each round)", ""), noun="the number of castles"),
    Parameter("max_at_castle", NUMBER, N_("max at a castle"), When.NOW, bounds=(1, 12)),
    Parameter("pre_discard", NUMBER, N_("setup discard"), When.PAST, bounds=(0, 40)),
    Parameter("first_side", CHOICE, N_("first side"), When.PAST, choices=SIDES),
    Parameter("concede_as_decision", FLAG, N_("concede as decision"), When.NOW),
    Parameter("members", COUNTS, N_("players"), When.REFUSED, bounds=(1, 2), choices=SIDES),
)
#: The parameters by name.
PARAMETERS_BY_NAME: dict[str, Parameter] = {p.name: p for p in PARAMETERS}
