"""The rules as data: one frozen object per rule set, and the named presets.

A designer makes a variant by overriding fields of a preset
(``Rules.preset("advanced", hand_size=7)``); the object checks itself when it is
built, so an inconsistent variant fails at once with every problem named,
never later from deep inside a game.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from .cards import HERO, Cards, CardError, count_sub_multisets, kind_of
from .parameters import (ADJACENCIES, CHOICE, FLAG, MAX_PER_VALUE, MAX_VALUED_CARDS, NUMBER, PARAMETERS,
                         PARAMETERS_BY_NAME, REMOVALS, RESHUFFLES, SCORINGS, SIDES, Parameter)
from .problems import Problem, ProblemsError, problem, shown

__all__ = ["ADJACENCIES", "BOUNDS", "MAX_DRAWS_PER_SIDE", "MAX_PER_VALUE", "MAX_VALUED_CARDS", "PRESETS", "PRESET_NAMES",
           "REMOVALS", "RESHUFFLES", "SCORINGS", "SIDES", "Rules", "RulesError", "whole_number_problem"]

#: Bounds of the numeric parameters, as :data:`.parameters.PARAMETERS` gives them:
#: ``name: (lowest, highest, why the lowest, why the highest)``.  README's engine section shows the same table.
BOUNDS: dict[str, tuple[int, int, str, str]] = {
    p.name: (*p.bounds, *p.why) for p in PARAMETERS if p.kind == NUMBER and p.bounds is not None}
#: Most different sets of cards one side's draw may give (a hand's worth from its card set): a
#: chance point lists the pairs of both sides' draws, so this keeps it within a million outcomes.
#: The base game has 50; nine values of three cards with a hand of 6 would have 2,598.
MAX_DRAWS_PER_SIDE = 1000
_NUMBERS = tuple(p for p in PARAMETERS if p.kind == NUMBER)
_CHOICES = tuple(p for p in PARAMETERS if p.kind == CHOICE)
_FLAGS = tuple(p for p in PARAMETERS if p.kind == FLAG)


class RulesError(ProblemsError):
    """An inconsistent or unreadable rule set; ``problems`` lists every one found (as :class:`Problem`)."""


def _field(name: str) -> str:
    return "rules." + _JSON_NAME.get(name, name)


def whole_number_problem(value: Any, field: str, label: str, low: int, high: int,
                         why_low: str = "", why_high: str = "") -> Problem | None:
    """The problem of a value that should be a whole number from ``low`` to ``high``, if any."""
    if isinstance(value, bool) or not isinstance(value, int):
        return problem("value.not_whole", field, label=label, value=value)
    if value < low:
        return problem("value.too_small", field, label=label, low=low, why=why_low, value=value)
    if value > high:
        return problem("value.too_large", field, label=label, high=high, why=why_high, value=value)
    return None


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every parameter of a Guyenne rule set (RULES.md sections 7-9), given by name.

    Numeric parameters have bounds (:data:`BOUNDS`, :data:`MAX_PER_VALUE`,
    :data:`MAX_VALUED_CARDS`): beyond them a game could not be played or
    listed within memory, so a :class:`RulesError` names the bound.
    """

    preset_name: str = "base"
    removal: str = "none"
    scoring: str = "2022"
    exhaustion_limit: int = 2
    reshuffle: str = "on_draw"
    adjacency: str = "line"
    valued: Cards = Cards.from_values({2: 12, 3: 4, 4: 3, 5: 2})
    hero: bool = True
    hand_size: int = 6
    castles: int = 6
    max_at_castle: int = 5
    pre_discard: int = 0
    first_side: str = "english"
    concede_as_decision: bool = False
    members: tuple[int, int] = (1, 1)

    def __new__(cls, *args: Any, **kwargs: Any) -> "Rules":
        """Refuse a call the dataclass's ``__init__`` could not take as a :class:`RulesError` naming
        each bad argument (an unknown name, a value given by position), not Python's ``TypeError``:
        ``Rules(foo=1)`` is a bad input like ``Rules(hand_size=99)``, and both are named at once.
        ``__init__`` then sets the fields and :meth:`__post_init__` checks their values."""
        known = {f.name for f in fields(cls)}
        problems = [problem("rules.unknown_parameter", f"rules.{shown(key)}", key=key)
                    for key in kwargs if key not in known]
        if args:
            problems.insert(0, problem("value.not_object", "rules", label="rules",
                                       example="Rules(removal='advanced', hand_size=7)", value=args))
        if problems:
            try:  # the named fields' own problems too: every problem at once
                cls(**{key: value for key, value in kwargs.items() if key in known})
            except RulesError as exc:
                problems += exc.problems
            raise RulesError(problems)
        return super().__new__(cls)

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesError(problems)

    # ------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Every inconsistency of this rule set, as problems naming their field (``rules.hand_size``...)."""
        p: list[Problem] = []
        if not isinstance(self.preset_name, str) or self.preset_name not in PRESET_NAMES:
            p.append(problem("rules.unknown_preset", "rules.preset", value=self.preset_name,
                             choices=", ".join(PRESET_NAMES)))
        for parameter in (*_CHOICES, *_NUMBERS, *_FLAGS):
            bad = _value_problem(parameter, getattr(self, parameter.attribute))
            if bad:
                p.append(bad)
        valued_ok = isinstance(self.valued, Cards)
        if not valued_ok:
            p.append(problem("value.not_object", "rules.card_counts", label="card_counts",
                             example='{"2": 12, "3": 4}', value=self.valued))
        else:
            if self.valued[HERO]:
                p.append(problem("rules.hero_in_counts", "rules.card_counts"))
            if self.valued.size == 0:
                p.append(problem("rules.no_valued_cards", "rules.card_counts"))
            for k, n in enumerate(self.valued):
                if k != HERO and n > _COUNT_HIGH:
                    p.append(problem("value.too_large", f"rules.card_counts.{k + 1}", label=f"the count of {k + 1}s",
                                     high=_COUNT_HIGH, why="", value=n))
            if self.valued.size > MAX_VALUED_CARDS:
                p.append(problem("rules.too_many_cards", "rules.card_counts", high=MAX_VALUED_CARDS,
                                 value=self.valued.size))
        if not (isinstance(self.members, tuple) and len(self.members) == 2
                and all(_is_members(m) for m in self.members)):
            p.append(problem("rules.members", "rules.members", value=self.members))
        if not p:
            deck = self.valued.size - self.pre_discard
            if self.pre_discard > self.valued.size:
                p.append(problem("rules.pre_discard_exceeds", "rules.pre_discard", value=self.pre_discard,
                                 size=self.valued.size))
            elif self.hand_size - int(self.hero) > deck:
                p.append(problem("rules.cannot_deal", "rules.hand_size", hand=self.hand_size,
                                 size=self.card_set.size,
                                 discarded=f" of which {self.pre_discard} go to the discard at setup"
                                 if self.pre_discard else ""))
            else:
                draws = self.draws_per_side()
                if draws > MAX_DRAWS_PER_SIDE:
                    p.append(problem("rules.too_many_draws", "rules.card_counts", count=draws, hand=self.hand_size,
                                     high=MAX_DRAWS_PER_SIDE))
        return p

    # ------------------------------------------------------------------
    @property
    def card_set(self) -> Cards:
        """The full card set of one side (valued cards plus its hero)."""
        return self.valued.add_kind(HERO, 1) if self.hero else self.valued

    def draws_per_side(self) -> int:
        """The most different sets of cards one draw of a side can give (up to a hand's worth)."""
        return max(count_sub_multisets(self.card_set, k, k) for k in range(1, self.hand_size + 1))

    @property
    def is_team(self) -> bool:
        return max(self.members) == 2

    def team(self, side: int) -> bool:
        """Whether side 0 (english) or 1 (french) is a team of two members."""
        return self.members[side] == 2

    @property
    def card_counts(self) -> dict[int, int]:
        """Valued card counts as ``{value: count}``."""
        return {k + 1: n for k, n in enumerate(self.valued) if n and k != HERO}

    def replace(self, **overrides: Any) -> "Rules":
        """A variant of these rules (keys as in :meth:`from_json` or as field names); a ``card_counts``
        mapping changes the values it names and keeps these rules' count of every other value, and a
        ``members`` mapping the sides it names."""
        return replace(self, **_normalise(overrides, self))

    # presets -----------------------------------------------------------
    @classmethod
    def preset(cls, name: str, /, **overrides: Any) -> "Rules":
        """A named preset (base, advanced, expert, team, team3, classic2021), optionally varied."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError([problem("rules.unknown_preset", "rules.preset", value=name,
                                      choices=", ".join(PRESET_NAMES))])
        return PRESETS[name].replace(**overrides) if overrides else PRESETS[name]

    # JSON --------------------------------------------------------------
    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> "Rules":
        """From a preset name or ``{"preset": ..., overrides}`` (RULES.md section 10)."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError([problem("value.not_object", "rules", label="rules",
                                      example='"advanced" or {"preset": "advanced", "hand_size": 7}', value=data)])
        data = dict(data)
        name = data.pop("preset", "base")
        try:
            base = cls.preset(name)
        except RulesError as exc:
            problems = exc.problems
            try:
                _normalise(data, PRESETS["base"])
            except RulesError as more:
                problems += more.problems
            raise RulesError(problems) from None
        return replace(base, **_normalise(data, base))  # not replace(**data): JSON's keys need not be names

    def to_json(self) -> str | dict[str, Any]:
        """The preset name when unchanged, else the preset plus the overrides that differ."""
        base = PRESETS[self.preset_name]
        if self == base:
            return self.preset_name
        out: dict[str, Any] = {"preset": self.preset_name}
        for f in fields(self):
            if f.name == "preset_name":
                continue
            mine, theirs = getattr(self, f.name), getattr(base, f.name)
            if mine != theirs:
                out[_JSON_NAME.get(f.name, f.name)] = _to_json_value(f.name, mine, base)
        return out

    def describe(self) -> dict[str, Any]:
        """Every parameter, for result files and tables."""
        out: dict[str, Any] = {"preset": self.preset_name}
        base = PRESETS[self.preset_name]
        for f in fields(self):
            if f.name != "preset_name":
                out[_JSON_NAME.get(f.name, f.name)] = _to_json_value(f.name, getattr(self, f.name), base)
        return out

    def describe_variant(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`describe` with ``overrides`` laid over it as :meth:`replace` lays them, but unchecked:
        a form shows a refused rules object value by value, each problem beside its field, and a
        partial ``card_counts`` or ``members`` in full, as the reader would fill it in (RULES.md 10)."""
        out = self.describe()
        for key, value in overrides.items():
            name = _ALIASES.get(key, key) if isinstance(key, str) else key
            if name in _FIXED:
                continue
            if name in _PARTIAL and isinstance(value, Mapping):
                value = {str(k): n for k, n in _laid_over(name, value, self).items()}
            out[_JSON_NAME.get(name, name) if isinstance(name, str) else key] = value
        return out

    def __str__(self) -> str:
        spec = self.to_json()
        if isinstance(spec, str):
            return spec
        return spec["preset"] + "(" + ", ".join(f"{k}={v}" for k, v in spec.items() if k != "preset") + ")"


_JSON_NAME = {"valued": "card_counts"}
_ALIASES = {"L": "exhaustion_limit", "card_counts": "valued"}
#: Names a designer cannot override: the preset name follows from "preset" alone.
_FIXED = {"preset", "preset_name"}


def _to_json_value(name: str, value: Any, base: Rules) -> Any:
    """A field's JSON value; ``card_counts`` names every value these rules or ``base`` (their preset)
    have, a 0 included, since a value it leaves out keeps the preset's count when read back."""
    if name == "valued":
        return {str(k + 1): n for k, n in enumerate(value) if (n or base.valued[k]) and k != HERO}
    if name == "members":
        return {"english": value[0], "french": value[1]}
    return value


#: The fields whose JSON mapping may be partial: what it does not name keeps the preset's (RULES.md 10).
_PARTIAL = ("valued", "members")


def _laid_over(name: str, given: Mapping[Any, Any], base: Rules) -> dict[Any, Any]:
    """A ``card_counts`` or ``members`` mapping with what it does not name taken from ``base``: RULES.md 10
    reads ``{"5": 3}`` as three 5s and the rest as usual, and ``{"english": 2}`` as two English members
    and the French as the preset has them.  Card values are spelled ``"5"``; a key that names no value
    stays as written, for the reader to refuse."""
    if name == "members":
        return {"english": base.members[0], "french": base.members[1], **given}
    counts: dict[Any, Any] = {str(k + 1): n for k, n in enumerate(base.valued) if n and k != HERO}
    for key, n in given.items():
        try:
            kind = kind_of(key)
        except CardError:
            kind = HERO
        counts[str(kind + 1) if kind != HERO else key] = n
    return counts


def _normalise(overrides: Mapping[str, Any], base: Rules) -> dict[str, Any]:
    """Turn JSON-style override keys and values into field values of a variant of ``base``, naming every bad one."""
    known = {f.name for f in fields(Rules)} - _FIXED
    out: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, value in overrides.items():
        if key in _FIXED:
            problems.append(problem("rules.not_a_field", f"rules.{key}", key=key))
            continue
        name = _ALIASES.get(key, key) if isinstance(key, str) else None
        if name not in known:
            problems.append(problem("rules.unknown_parameter", f"rules.{shown(key)}", key=key))
            continue
        problems += _coerce(name, value, out, base)
    if problems:
        raise RulesError(problems)
    return out


def _bounds(name: str) -> tuple[int, int]:
    """A counts parameter's bounds (each count's lowest and highest), as its :class:`.Parameter` gives them."""
    bounds = PARAMETERS_BY_NAME[name].bounds
    assert bounds is not None, name  # every counts parameter has them (.parameters.PARAMETERS)
    return bounds


_SCORING_YEARS = frozenset(int(year) for year in SCORINGS)
_COUNT_LOW, _COUNT_HIGH = _bounds("card_counts")
_MEMBERS_LOW, _MEMBERS_HIGH = _bounds("members")


def _is_members(m: Any) -> bool:
    """Whether ``m`` is a side's number of players within the ``members`` parameter's bounds."""
    return type(m) is int and _MEMBERS_LOW <= m <= _MEMBERS_HIGH


def _value_problem(parameter: Parameter, value: Any) -> Problem | None:
    """The problem of a number, choice or flag parameter's value, read from its :class:`.Parameter`, if any."""
    field = _field(parameter.attribute)
    if parameter.kind == NUMBER and parameter.bounds is not None:
        return whole_number_problem(value, field, parameter.said, *parameter.bounds, *parameter.why)
    if parameter.kind == FLAG and not isinstance(value, bool):
        return problem("value.not_bool", field, label=parameter.said, value=value)
    if parameter.kind == CHOICE and (not isinstance(value, str) or value not in parameter.choices):
        return problem("value.choice", field, label=parameter.said, choices=", ".join(parameter.choices), value=value)
    return None


def _coerce(name: str, value: Any, out: dict[str, Any], base: Rules) -> list[Problem]:
    """Store the field value of a JSON value in ``out``, or return why it cannot be read.

    Nothing is converted silently: ``"22"`` or ``2.5`` where a count is asked is refused.  A
    ``card_counts`` mapping names the counts it changes: a value it does not name keeps ``base``'s
    count (RULES.md section 10: ``{"5": 3}`` is three 5s and the rest as usual), and a ``members``
    mapping that names one side keeps ``base``'s members of the other."""
    field = _field(name)
    if name == "valued":
        if isinstance(value, Cards):
            out[name] = value
            return []
        if not isinstance(value, Mapping):
            return [problem("value.not_object", field, label="card_counts", example='{"2": 12, "3": 4}',
                            value=value)]
        found: list[Problem] = []
        for v, n in value.items():
            try:
                k = kind_of(v)
            except CardError:
                found.append(problem("cards.unknown", field, value=v))
                continue
            if k == HERO:
                found.append(problem("rules.hero_in_counts", field))
                continue
            bad = whole_number_problem(n, f"{field}.{k + 1}", f"the count of {k + 1}s", _COUNT_LOW, _COUNT_HIGH)
            if bad:
                found.append(bad)
        if not found:
            out[name] = Cards.from_values({int(v): n for v, n in _laid_over(name, value, base).items()})
        return found
    if name == "members":
        if isinstance(value, Mapping):
            bad_keys = [k for k in value if k not in SIDES]
            if bad_keys:
                return [problem("value.choice", f"{field}.{shown(k)}", label="a side of members",
                                choices=", ".join(SIDES), value=k) for k in bad_keys]
            full = _laid_over(name, value, base)
            pair = (full["english"], full["french"])
        elif isinstance(value, (list, tuple)) and len(value) == 2:
            pair = tuple(value)
        else:
            return [problem("rules.members", field, value=value)]
        found = [problem("rules.members", f"{field}.{side}", value=m)
                 for side, m in zip(SIDES, pair) if not _is_members(m)]
        if not found:
            out[name] = pair
        return found
    if name == "scoring" and type(value) is int and value in _SCORING_YEARS:  # a year read as JSON's number
        value = str(value)
    bad = _value_problem(PARAMETERS_BY_NAME[name], value)
    if bad:
        return [bad]
    out[name] = value
    return []


PRESET_NAMES = ("base", "advanced", "expert", "team", "team3", "classic2021")
PRESETS: dict[str, Rules] = {}
PRESETS["base"] = Rules()
PRESETS["advanced"] = Rules(preset_name="advanced", removal="advanced")
PRESETS["expert"] = Rules(preset_name="expert", removal="advanced", exhaustion_limit=3, pre_discard=5)
PRESETS["team"] = Rules(preset_name="team", members=(2, 2))
PRESETS["team3"] = Rules(preset_name="team3", members=(2, 1))
PRESETS["classic2021"] = Rules(preset_name="classic2021", removal="classic2021", scoring="2021")
