"""The space a balance search explores: which rules parameters vary, over which values, and the rule set of
each candidate.

A parameter is varied as ``name=low:high`` (a whole number, every value between, both ends included),
``name=a,b,c`` (those values) or ``name`` alone (every choice of a parameter with choices, e.g.
``removal``).  Any parameter a sweep can vary may be varied (:data:`..variants.SWEEPABLE`), and each value is
read within the engine's bounds of the parameter (its :class:`Parameter`), so a range that leaves them
is refused at its end, never built, and each value is checked by the engine against the preset, so a
value that does not fit it is refused with the engine's own words before any game is played.  A candidate
is an assignment of one value to each varied parameter; its rule set is the preset with those values, and
its *changes* are the parameters whose value differs from the preset's (the report ranks the fewest first).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Any, Mapping, Sequence

from .... import numbers
from ....engine import PARAMETERS_BY_NAME, Rules, RulesError
from ....i18n import gettext
from ..variants import SWEEPABLE, choice_label, parameter_label, swept_value, vary

Assignment = Mapping[str, Any]


class SpaceError(ValueError):
    """A ``--vary`` that cannot be read or that the rules refuse; the message names it and why."""


@dataclass(frozen=True)
class Varied:
    """One varied parameter and its values, in order (a range: every whole number from low to high)."""

    parameter: str
    values: tuple[Any, ...]
    #: a range of whole numbers (the optimiser may read neighbouring values as near)
    ordered: bool

    def __str__(self) -> str:
        if self.ordered:
            return f"{self.parameter}={self.values[0]}:{self.values[-1]}"
        return f"{self.parameter}=" + ",".join(str(v) for v in self.values)


def _value(parameter: str, text: str, whole: str) -> Any:
    """One value of a ``--vary``: a whole number within the engine's bounds of the parameter (read as every
    typed number is, :func:`guyenne_explore.numbers.whole`), or one of its choices."""
    choices = SWEEPABLE[parameter]
    if choices is None:
        try:
            return numbers.whole(text, parameter_label(parameter), *_bounds(parameter))
        except numbers.NumberError as exc:
            raise SpaceError(gettext("--vary {text}: {problem}").format(text=repr(whole), problem=exc)) from None
    for choice in choices:
        if str(choice).lower() == text.strip().lower():
            return choice
    raise SpaceError(gettext("--vary {text}: {value} is not one of {choices}").format(
        text=repr(whole), value=repr(text), choices=", ".join(str(c) for c in choices)))


def _bounds(parameter: str) -> tuple[int, int]:
    """The engine's bounds of a whole-number parameter (``count:V``: each card count's), so that a range is
    refused at its ends in words, never built value by value (``hand_size=2:999999999``)."""
    bounds = PARAMETERS_BY_NAME["card_counts" if parameter.startswith("count:") else parameter].bounds
    assert bounds is not None, parameter  # SWEEPABLE gives a whole number only for a parameter with bounds
    return bounds


def parse_varied(text: str, preset: Rules) -> Varied:
    """A ``--vary`` as a value, each of its values checked by the engine against ``preset``."""
    parameter, eq, spec = (x.strip() for x in text.partition("="))
    if parameter not in SWEEPABLE:
        raise SpaceError(gettext("--vary {text}: unknown parameter {name}: choose one of {choices}").format(
            text=repr(text), name=repr(parameter), choices=", ".join(SWEEPABLE)))
    choices = SWEEPABLE[parameter]
    ordered = False
    if not eq or not spec:
        if choices is None:
            raise SpaceError(gettext("--vary {text}: give the range of a whole number, {name}=low:high").format(
                text=repr(text), name=parameter))
        values: tuple[Any, ...] = tuple(choices)
    elif ":" in spec:
        low_text, _colon, high_text = spec.partition(":")
        if choices is not None:
            raise SpaceError(gettext("--vary {text}: {name} has choices, not a range: {name}={values}").format(
                text=repr(text), name=parameter, values=",".join(str(c) for c in choices)))
        low, high = _value(parameter, low_text, text), _value(parameter, high_text, text)
        if low > high:
            raise SpaceError(gettext("--vary {text}: the low end {low} is above the high end {high}").format(
                text=repr(text), low=low, high=high))
        values, ordered = tuple(range(low, high + 1)), True
    else:
        values = tuple(dict.fromkeys(_value(parameter, v, text) for v in spec.split(",") if v.strip()))
    for v in values:
        try:
            vary(preset, parameter, v)
        except RulesError as exc:
            raise SpaceError(gettext("--vary {text}: {problem}").format(
                text=repr(text), problem="; ".join(str(x) for x in exc.problems))) from None
    return Varied(parameter, values, ordered)


@dataclass(frozen=True)
class Space:
    """The preset and the varied parameters: every candidate a search may try."""

    preset: Rules
    varied: tuple[Varied, ...]

    @classmethod
    def parse(cls, preset: Rules, texts: Sequence[str]) -> "Space":
        varied = [parse_varied(t, preset) for t in texts]
        if not varied:
            raise SpaceError(gettext("give at least one --vary parameter=low:high (hand_size=5:7)"))
        names = [v.parameter for v in varied]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise SpaceError(gettext("--vary {name} is given twice: one range a parameter").format(name=twice[0]))
        return cls(preset, tuple(varied))

    @property
    def size(self) -> int:
        """How many candidates there are (every parameter's values multiplied)."""
        return prod(len(v.values) for v in self.varied)

    def rules(self, assignment: Assignment) -> Rules:
        """The candidate's rule set: the preset with each varied value (RulesError when they do not fit
        together, e.g. a hand larger than the cards)."""
        rules = self.preset
        for v in self.varied:
            rules = vary(rules, v.parameter, assignment[v.parameter])
        return rules

    def own(self, parameter: str) -> Any:
        """The preset's own value of a parameter (``count:V``: its count of value-V cards)."""
        return swept_value(self.preset, parameter)

    def changes(self, assignment: Assignment) -> list[str]:
        """The varied parameters whose value differs from the preset's."""
        return [v.parameter for v in self.varied if assignment[v.parameter] != self.own(v.parameter)]

    def label(self, assignment: Assignment, lang: str | None = None) -> str:
        """``hand size 7, castles 5``."""
        return ", ".join(f"{parameter_label(v.parameter, lang)} {choice_label(assignment[v.parameter], lang)}"
                         for v in self.varied)
