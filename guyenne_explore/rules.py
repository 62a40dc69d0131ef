"""The rules as data: one frozen object per rule set, and the named presets.

A designer makes a variant by overriding fields of a preset
(``Rules.preset("advanced", hand_size=7)``); the object checks itself when it is
built, so an inconsistent variant fails at once with every problem named,
never later from deep inside a game.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from .cards import HERO, Cards, CardError, kind_of

SIDES = ("english", "french")
REMOVALS = ("none", "advanced", "classic2021")
SCORINGS = ("2022", "2021")
RESHUFFLES = ("on_draw", "immediate")
ADJACENCIES = ("line", "ring")


class RulesError(ValueError):
    """An inconsistent or unreadable rule set; ``problems`` lists every one found."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Rules:
    """Every parameter of a Guyenne rule set (RULES.md sections 7-9)."""

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

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesError(problems)

    # ------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Every inconsistency of this rule set, in plain words."""
        p: list[str] = []
        if self.removal not in REMOVALS:
            p.append(f"removal must be one of {', '.join(REMOVALS)}, not {self.removal!r}")
        if self.scoring not in SCORINGS:
            p.append(f"scoring must be one of {', '.join(SCORINGS)}, not {self.scoring!r}")
        if self.reshuffle not in RESHUFFLES:
            p.append(f"reshuffle must be one of {', '.join(RESHUFFLES)}, not {self.reshuffle!r}")
        if self.adjacency not in ADJACENCIES:
            p.append(f"adjacency must be one of {', '.join(ADJACENCIES)}, not {self.adjacency!r}")
        if self.first_side not in SIDES:
            p.append(f"first_side must be english or french, not {self.first_side!r}")
        if not isinstance(self.exhaustion_limit, int) or self.exhaustion_limit < 1:
            p.append(f"the exhaustion limit L must be a whole number of at least 1, not {self.exhaustion_limit!r}")
        if not isinstance(self.castles, int) or self.castles < 2:
            p.append(f"there must be at least 2 castles (two are fought over each round), not {self.castles!r}")
        if not isinstance(self.max_at_castle, int) or self.max_at_castle < 1:
            p.append(f"max_at_castle must be at least 1, not {self.max_at_castle!r}")
        if not isinstance(self.hand_size, int) or self.hand_size < 2:
            p.append(f"the hand size must be at least 2 (a side places at two castles), not {self.hand_size!r}")
        if not isinstance(self.pre_discard, int) or self.pre_discard < 0:
            p.append(f"pre_discard must be 0 or more, not {self.pre_discard!r}")
        if self.valued[HERO]:
            p.append("card_counts lists valued cards only; the hero is the separate 'hero' parameter")
        if self.valued.size == 0:
            p.append("card_counts leaves a side without any valued card")
        if tuple(self.members) not in ((1, 1), (2, 1), (1, 2), (2, 2)):
            p.append(f"members must give 1 or 2 players per side, not {self.members!r}")
        if not p:
            deck = self.valued.size - self.pre_discard
            if self.pre_discard > self.valued.size:
                p.append(f"pre_discard {self.pre_discard} is more than the {self.valued.size} valued cards of a side")
            elif self.hand_size - int(self.hero) > deck:
                p.append(
                    f"a hand of {self.hand_size} cannot be dealt: a side has {self.card_set.size} cards"
                    + (f" of which {self.pre_discard} go to the discard at setup" if self.pre_discard else "")
                )
        return p

    # ------------------------------------------------------------------
    @property
    def card_set(self) -> Cards:
        """The full card set of one side (valued cards plus its hero)."""
        return self.valued.add_kind(HERO, 1) if self.hero else self.valued

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
        """A variant of these rules (keys as in :meth:`from_json` or as field names)."""
        return replace(self, **_normalise(overrides))

    # presets -----------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> "Rules":
        """A named preset (base, advanced, expert, team, team3, classic2021), optionally varied."""
        if name not in PRESETS:
            raise RulesError([f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"])
        return PRESETS[name].replace(**overrides) if overrides else PRESETS[name]

    # JSON --------------------------------------------------------------
    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> "Rules":
        """From a preset name or ``{"preset": ..., overrides}`` (RULES.md section 10)."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError([f"rules must be a preset name or an object, not {type(data).__name__}"])
        data = dict(data)
        name = data.pop("preset", "base")
        if not isinstance(name, str):
            raise RulesError([f"the rules preset must be a name, not {name!r}"])
        base = cls.preset(name)
        return base.replace(**data)

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
                out[_JSON_NAME.get(f.name, f.name)] = _to_json_value(f.name, mine)
        return out

    def describe(self) -> dict[str, Any]:
        """Every parameter, for result files and tables."""
        out: dict[str, Any] = {"preset": self.preset_name}
        for f in fields(self):
            if f.name != "preset_name":
                out[_JSON_NAME.get(f.name, f.name)] = _to_json_value(f.name, getattr(self, f.name))
        return out

    def __str__(self) -> str:
        spec = self.to_json()
        if isinstance(spec, str):
            return spec
        return spec["preset"] + "(" + ", ".join(f"{k}={v}" for k, v in spec.items() if k != "preset") + ")"


_JSON_NAME = {"valued": "card_counts"}
_ALIASES = {"L": "exhaustion_limit", "card_counts": "valued", "preset": "preset_name"}


def _to_json_value(name: str, value: Any) -> Any:
    if name == "valued":
        return {str(k + 1): n for k, n in enumerate(value) if n and k != HERO}
    if name == "members":
        return {"english": value[0], "french": value[1]}
    return value


def _normalise(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Turn JSON-style override keys and values into field values, naming every bad one."""
    known = {f.name for f in fields(Rules)}
    out: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in overrides.items():
        name = _ALIASES.get(key, key)
        if name not in known:
            problems.append(f"unknown rules parameter {key!r}")
            continue
        try:
            out[name] = _coerce(name, value)
        except (CardError, TypeError, ValueError) as exc:
            problems.append(f"rules parameter {key!r}: {exc}")
    if problems:
        raise RulesError(problems)
    return out


_INT_FIELDS = {"exhaustion_limit", "hand_size", "castles", "max_at_castle", "pre_discard"}
_BOOL_FIELDS = {"hero", "concede_as_decision"}


def _coerce(name: str, value: Any) -> Any:
    if name == "valued":
        if isinstance(value, Cards):
            return value
        if not isinstance(value, Mapping):
            raise TypeError("card_counts must be an object like {\"2\": 12, \"3\": 4}")
        counts = [0] * 10
        for v, n in value.items():
            k = kind_of(v)
            if k == HERO:
                raise ValueError("the hero is set by 'hero', not card_counts")
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ValueError(f"the count of {v} cards must be a whole number >= 0, not {n!r}")
            counts[k] = n
        return Cards(counts)
    if name == "members":
        if isinstance(value, Mapping):
            bad = set(value) - set(SIDES)
            if bad:
                raise ValueError(f"members names sides english and french, not {sorted(bad)}")
            return (int(value.get("english", 1)), int(value.get("french", 1)))
        return tuple(int(v) for v in value)
    if name in _INT_FIELDS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"must be a whole number, not {value!r}")
        return value
    if name in _BOOL_FIELDS:
        if not isinstance(value, bool):
            raise TypeError(f"must be true or false, not {value!r}")
        return value
    if name in ("scoring",) and isinstance(value, int):
        return str(value)
    return value


PRESETS: dict[str, Rules] = {}
PRESETS["base"] = Rules()
PRESETS["advanced"] = Rules(preset_name="advanced", removal="advanced")
PRESETS["expert"] = Rules(preset_name="expert", removal="advanced", exhaustion_limit=3, pre_discard=5)
PRESETS["team"] = Rules(preset_name="team", members=(2, 2))
PRESETS["team3"] = Rules(preset_name="team3", members=(2, 1))
PRESETS["classic2021"] = Rules(preset_name="classic2021", removal="classic2021", scoring="2021")
