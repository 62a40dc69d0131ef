"""Analysis results as data: RULES.md section 10 JSON and a tidy table.

Exact results keep fractions (``p_exact``); sampled ones carry 95% confidence
intervals (Wilson for the win/draw/loss probabilities, Student t for mean scores).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from fractions import Fraction
from typing import Any

from ..engine import Move, Position, Problem, Rules
from ..i18n import gettext
from .exact.distribution import Distribution
from .intervals import mean_interval, wilson
from .metrics import Metric, Outcome, Weight, weighted_metrics
from .outcomes import Game
from .planning import Plan

WINNERS = ("english", "french", "draw")


@dataclass
class AnalysisResult:
    """Outcome probabilities of a position under a rule set and a pair of policies."""

    position: Position
    policies: tuple[str, str]
    exact: bool
    #: (english score, french score, winner) -> probability (Fraction when exact)
    outcomes: dict[tuple[int, int, str], Any]
    #: rounds played from the position, the current round counted as 1 -> probability
    rounds: dict[int, Any]
    games: int = 0
    states: int = 0
    #: per sampled game
    samples: list[Game] = field(default_factory=list)
    #: why the position could not arise in real play (the engine's warnings; JSON as `check --json` writes them)
    warnings: list[Problem] = field(default_factory=list)
    #: how an exact result was summed: "fraction" (exact, with ``p_exact``) or "float" (float64, to rounding)
    arithmetic: str = "fraction"
    #: exact: (english score, french score, winner, how the game ended, rounds played) -> probability: the
    #: joint of the two above with the engine's ending (one of ``scoring.ENDINGS``)
    joint: dict[tuple[int, int, str, str, int], Any] = field(default_factory=dict)
    #: what answered and why (:func:`.planning.plan`); None for a result built by hand
    plan: Plan | None = None

    def weighted(self) -> list[tuple[Outcome, Weight]]:
        """The outcomes with their weights: each sampled game counted once, or each exact outcome
        with its probability (what :func:`.metrics.weighted_metrics` reads)."""
        if not self.exact:
            return list(self.sample_counts.items())  # type: ignore[arg-type]
        return [(Outcome(e, f, w, n, end), q) for (e, f, w, end, n), q in sorted(self.joint.items())]

    @cached_property
    def sample_counts(self) -> Counter[Game]:
        """Each distinct sampled game with how many games it stands for: what the metrics and intervals
        read (a few thousand rows for a million games, counted once per result)."""
        return Counter(self.samples)

    def metrics(self) -> list[Metric]:
        """The designer metrics of this result, by the same computation for exact and sampled results."""
        return weighted_metrics(self.weighted(), counted=not self.exact)

    def endings(self) -> dict[str, Any]:
        """How the games end (one of ``scoring.ENDINGS``) -> probability (Fraction when exact)."""
        out: dict[str, Any] = defaultdict(Fraction if self.exact else float)
        for outcome, weight in self.weighted():
            out[outcome.ending] += weight
        total = 1 if self.exact else max(1, self.games)
        return {end: q / total for end, q in out.items()}

    @property
    def win(self) -> dict[str, Any]:
        """Each winner's probability: exact, or summed without rounding error (six games of one winner
        give 1.0, where adding their 1/6 shares one by one gave 0.9999999999999999)."""
        shares: dict[str, list[Any]] = {w: [] for w in WINNERS}
        for (_, _, w), p in self.outcomes.items():
            shares[w].append(p)
        return {w: sum(ps, Fraction(0)) if self.exact else math.fsum(ps) for w, ps in shares.items()}

    def win_interval(self, alpha: float = 0.05) -> dict[str, tuple[float, float]]:
        """Wilson intervals on win/draw probabilities (degenerate for exact results)."""
        if self.exact:
            return {w: (float(p), float(p)) for w, p in self.win.items()}
        counts: Counter[str] = Counter()
        for g, n in self.sample_counts.items():
            counts[g[2]] += n
        return {w: wilson(counts[w], self.games, 1 - alpha) for w in WINNERS}

    def mean_scores(self) -> dict[str, float]:
        e = sum(float(p) * k[0] for k, p in self.outcomes.items())
        f = sum(float(p) * k[1] for k, p in self.outcomes.items())
        return {"english": e, "french": f}

    def mean_score_interval(self, alpha: float = 0.05) -> dict[str, tuple[float, float]]:
        out = {}
        counts = self.sample_counts
        scores = {"english": [g.english for g in counts], "french": [g.french for g in counts]}
        for name, xs in scores.items():
            if self.exact or self.games < 2:
                m = self.mean_scores()[name]
                out[name] = (m, m)
                continue
            _, low, high = mean_interval(xs, 1 - alpha, counts=list(counts.values()))
            out[name] = (low, high)
        return out

    def to_json(self) -> dict[str, Any]:
        r = self.position.rules
        out: dict[str, Any] = {
            "rules": r.describe(),
            "policies": {"english": self.policies[0], "french": self.policies[1]},
            "exact": self.exact,
            "to_play": self.position.to_play,
            "round": self.position.round,
        }
        if not self.exact:
            out["games"] = self.games
        outcomes = []
        for (e, f, w), p in sorted(self.outcomes.items()):
            item: dict[str, Any] = {"english": e, "french": f, "winner": w, "p": float(p)}
            if self.exact and self.arithmetic == "fraction":
                item["p_exact"] = str(p)
            outcomes.append(item)
        out["outcomes"] = outcomes
        win = self.win
        out["win"] = {w: float(p) for w, p in win.items()}
        if self.exact:
            out["arithmetic"] = self.arithmetic
            if self.arithmetic == "fraction":
                out["win_exact"] = {w: str(p) for w, p in win.items()}
        else:
            out["win_ci95"] = {w: list(ci) for w, ci in self.win_interval().items()}
            out["mean_scores"] = self.mean_scores()
            out["mean_scores_ci95"] = {k: list(v) for k, v in self.mean_score_interval().items()}
        out["endings"] = {end: float(q) for end, q in sorted(self.endings().items())}
        out["metrics"] = [m.to_json() for m in self.metrics()]
        out["rounds"] = {str(k): float(v) for k, v in sorted(self.rounds.items())}
        if self.exact:
            if self.arithmetic == "fraction":
                out["rounds_exact"] = {str(k): str(v) for k, v in sorted(self.rounds.items())}
            out["states"] = self.states
        out["warnings"] = [w.to_json() for w in self.warnings]
        return out

    def table(self) -> list[dict[str, Any]]:
        """Tidy rows: one per outcome (exact) or one per game (sampled)."""
        if self.exact:
            return [{"english": e, "french": f, "winner": w, "difference": e - f, "p": float(p)}
                    for (e, f, w), p in sorted(self.outcomes.items())]
        return [{"game": i, "english": g.english, "french": g.french, "winner": g.winner,
                 "difference": g.english - g.french, "rounds": g.rounds, "decided": g.decided,
                 "english_hero_kept": g.hero_kept[0], "french_hero_kept": g.hero_kept[1]}
                for i, g in enumerate(self.samples)]


def exact_result(p: Position, policies: tuple[str, str], dist: Distribution, states: int,
                 arithmetic: str = "fraction", plan: Plan | None = None) -> AnalysisResult:
    outcomes: dict[tuple[int, int, str], Fraction] = defaultdict(Fraction)
    rounds: dict[int, Fraction] = defaultdict(Fraction)
    joint: dict[tuple[int, int, str, str, int], Fraction] = defaultdict(Fraction)
    for (e, f, w, end, n), q in dist.items():
        outcomes[(e, f, w)] += q
        rounds[n + 1] += q
        joint[(e, f, w, end, n + 1)] += q
    return AnalysisResult(p, policies, True, dict(outcomes), dict(rounds), states=states, warnings=p.warnings(),
                          arithmetic=arithmetic, joint=dict(joint), plan=plan)


def sampled_result(p: Position, policies: tuple[str, str], samples: list[Game], plan: Plan | None = None) -> AnalysisResult:
    n = len(samples)
    outcomes: Counter[tuple[int, int, str]] = Counter()
    rounds: Counter[int] = Counter()
    result = AnalysisResult(p, policies, False, {}, {}, games=n, samples=samples, warnings=p.warnings(), plan=plan)
    for g, count in result.sample_counts.items():  # the distinct games, not every game
        outcomes[(g.english, g.french, g.winner)] += count
        rounds[g.rounds] += count
    result.outcomes = {k: v / n for k, v in outcomes.items()}
    result.rounds = {k: v / n for k, v in rounds.items()}
    return result


# ---------------------------------------------------------------------- results kept in a saved session
#: most rows one saved list or table holds, and most games one saved sampled result stands for (the analysis
#: panel's largest run): a session file is untrusted input, and a count of games is expanded when read
MAX_SAVED_ITEMS = 100_000
MAX_SAVED_GAMES = 10_000_000


class SavedError(ValueError):
    """Saved data that cannot be read back, with the field it concerns and what is wrong with it."""


def to_saved(value: Any) -> Any:
    """A result (any of the analysis' result dataclasses, and what they hold) as JSON data that :func:`from_saved`
    reads back into an equal value: dataclasses as objects of their fields, named tuples and tuples as lists,
    dictionaries as lists of [key, value] pairs (their keys need not be strings), fractions as text, rules,
    positions and moves as their own JSON, enumerations by their value.  A sampled result keeps its distinct games with
    their counts (:func:`saved_result`), never one row a game."""
    if isinstance(value, AnalysisResult):
        return saved_result(value)
    if isinstance(value, (Rules, Position, Move)):
        return value.to_json()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_saved(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, dict):
        return [[to_saved(k), to_saved(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [to_saved(v) for v in value]
    return value


def from_saved(kind: Any, data: Any, where: str) -> Any:
    """``data`` (JSON as :func:`to_saved` writes it) read as a value of the type ``kind``, every part checked
    against the type hints of the dataclasses it holds; a :class:`SavedError` names the field (``where``, then
    the path into it) and what is wrong.  Nothing is evaluated and no file is named or opened."""
    if kind is AnalysisResult:
        return result_from_saved(data, where)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is typing.Literal:
        if data not in args or type(data) is not type(next(a for a in args if a == data)):
            raise _wrong(where, gettext("one of {choices}").format(choices=", ".join(map(str, args))[:300]), data)
        return data
    if kind is Any:
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        raise _wrong(where, gettext("a number, a text, true, false or null"), data)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        last: SavedError | None = None
        for option in (a for a in args if a is not type(None)):
            try:
                return from_saved(option, data, where)
            except SavedError as exc:
                last = exc
        assert last is not None
        raise last
    if kind is type(None):
        if data is not None:
            raise _wrong(where, "null", data)
        return None
    if kind in (Rules, Position, Move):
        try:
            return kind.from_json(data)
        except (ValueError, TypeError, KeyError) as exc:
            raise SavedError(gettext("{field}: not valid: {problem}").format(field=where, problem=str(exc)[:200])) from None
    if kind is Fraction:
        if isinstance(data, str) and len(data) <= 200:
            try:
                return Fraction(data)
            except (ValueError, ZeroDivisionError):
                pass
        raise _wrong(where, gettext("a fraction written as text"), data)
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(data)
        except ValueError:
            raise _wrong(where, gettext("one of {choices}").format(choices=", ".join(str(e.value) for e in kind)),
                         data) from None
    if kind is bool:
        if not isinstance(data, bool):
            raise _wrong(where, gettext("true or false"), data)
        return data
    if kind is int:
        if type(data) is not int:
            raise _wrong(where, gettext("a whole number"), data)
        return data
    if kind is float:
        if type(data) not in (int, float):
            raise _wrong(where, gettext("a number"), data)
        return float(data)
    if kind is str:
        if not isinstance(data, str):
            raise _wrong(where, gettext("a text"), data)
        return data
    if typing.is_typeddict(kind):
        return _saved_typed_dict(kind, data, where)
    if origin in (list, tuple, dict, Counter) or (isinstance(kind, type) and issubclass(kind, tuple)):
        return _saved_collection(kind, origin, args, data, where)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _saved_dataclass(kind, data, where)
    raise SavedError(gettext("{field}: this explorer cannot read a saved {kind}").format(field=where, kind=kind))


def _items(data: Any, where: str) -> list[Any]:
    """``data`` as a list of at most :data:`MAX_SAVED_ITEMS` items."""
    if not isinstance(data, list):
        raise _wrong(where, gettext("a list"), data)
    if len(data) > MAX_SAVED_ITEMS:
        raise SavedError(gettext("{field}: more than {count} items").format(field=where, count=MAX_SAVED_ITEMS))
    return data


def _saved_collection(kind: Any, origin: Any, args: tuple[Any, ...], data: Any, where: str) -> Any:
    """A list, a tuple (of one type, of fixed types, or a named tuple) or a dictionary (saved as pairs)."""
    items = _items(data, where)
    if origin in (dict, Counter):
        out = {}
        for i, pair in enumerate(items):
            if not isinstance(pair, list) or len(pair) != 2:
                raise _wrong(f"{where}[{i}]", gettext("a [key, value] pair"), pair)
            out[from_saved(args[0], pair[0], f"{where}[{i}]")] = from_saved(args[1], pair[1], f"{where}[{i}]")
        return out
    if origin is list:
        return [from_saved(args[0], x, f"{where}[{i}]") for i, x in enumerate(items)]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return tuple(from_saved(args[0], x, f"{where}[{i}]") for i, x in enumerate(items))
    hints = list(typing.get_type_hints(kind).values()) if origin is None else list(args)
    if len(items) != len(hints):
        raise SavedError(gettext("{field}: {count} items, where {expected} are expected").format(
            field=where, count=len(items), expected=len(hints)))
    values = [from_saved(h, x, f"{where}[{i}]") for i, (h, x) in enumerate(zip(hints, items))]
    return kind(*values) if origin is None else tuple(values)


def _saved_typed_dict(kind: Any, data: Any, where: str) -> dict[str, Any]:
    """A typed dictionary from its [key, value] pairs (as :func:`to_saved` writes every dictionary): each key one of
    its own, each value read as its type hint says, none missing."""
    hints = typing.get_type_hints(kind)
    out: dict[str, Any] = {}
    for i, pair in enumerate(_items(data, where)):
        if not isinstance(pair, list) or len(pair) != 2:
            raise _wrong(f"{where}[{i}]", gettext("a [key, value] pair"), pair)
        if pair[0] not in hints:
            raise SavedError(gettext("{field}: unknown field {name}").format(field=where, name=repr(pair[0])[:60]))
        out[pair[0]] = from_saved(hints[pair[0]], pair[1], f"{where}.{pair[0]}")
    missing = [name for name in hints if name not in out]
    if missing:
        raise SavedError(gettext("{field}: the field {name} is missing").format(field=where, name=missing[0]))
    return out


def _saved_dataclass(kind: type, data: Any, where: str) -> Any:
    """A dataclass from the object of its fields: each one read as its type hint says, none missing or unknown."""
    if not isinstance(data, dict):
        raise _wrong(where, gettext("an object"), data)
    hints = typing.get_type_hints(kind)
    fields = {f.name: f for f in dataclasses.fields(kind) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise SavedError(gettext("{field}: unknown field {name}").format(field=where, name=repr(unknown[0])[:60]))
    values = {}
    for name, f in fields.items():
        if name in data:
            values[name] = from_saved(hints[name], data[name], f"{where}.{name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise SavedError(gettext("{field}: the field {name} is missing").format(field=where, name=name))
    try:
        return kind(**values)
    except (ValueError, TypeError) as exc:  # a dataclass's own check of its fields
        raise SavedError(gettext("{field}: not valid: {problem}").format(field=where, problem=str(exc)[:200])) from None


def _wrong(where: str, expected: str, data: Any) -> SavedError:
    return SavedError(gettext("{field} must be {expected}, not {value}").format(
        field=where, expected=expected, value=repr(data)[:40]))


def saved_result(result: AnalysisResult) -> dict[str, Any]:
    """An analysis result as session data: its position and every field the figures, metrics and exports read,
    a sampled result's games as each distinct game with how many games it stands for (a summary: a few thousand
    rows for a million games)."""
    fields = {f.name: to_saved(getattr(result, f.name)) for f in dataclasses.fields(result)
              if f.name not in ("samples", "warnings")}
    fields["samples"] = [[to_saved(game), count] for game, count in result.sample_counts.items()]
    return fields


def result_from_saved(data: Any, where: str) -> AnalysisResult:
    """An analysis result from :func:`saved_result`'s data, checked field by field; its sampled games are the saved
    distinct games repeated by their counts (at most :data:`MAX_SAVED_GAMES` in all, and as many as ``games``)."""
    if not isinstance(data, dict):
        raise _wrong(where, gettext("an object"), data)
    counts = from_saved(list[tuple[Game, int]], data.get("samples", []), f"{where}.samples")
    total = sum(count for _game, count in counts)
    if any(count < 1 for _game, count in counts) or total > MAX_SAVED_GAMES:
        raise SavedError(gettext("{field}: each count must be at least 1, and at most {count} games in all").format(
            field=f"{where}.samples", count=MAX_SAVED_GAMES))
    result = from_saved(_SavedResult, {k: v for k, v in data.items() if k != "samples"}, where)
    if not result.exact and total != result.games:
        raise SavedError(gettext("{field}: the games counted ({count}) are not the result's {games}").format(
            field=f"{where}.samples", count=total, games=result.games))
    return AnalysisResult(**{f.name: getattr(result, f.name) for f in dataclasses.fields(result)},
                          samples=[game for game, count in counts for _ in range(count)],
                          warnings=result.position.warnings())  # the engine's, not the file's


@dataclass
class _SavedResult:
    """The fields of an :class:`AnalysisResult` but its games and its warnings (the engine's, read again from the
    position), as their types are read back from a session."""

    position: Position
    policies: tuple[str, str]
    exact: bool
    outcomes: dict[tuple[int, int, str], Fraction | float]
    rounds: dict[int, Fraction | float]
    games: int = 0
    states: int = 0
    arithmetic: str = "fraction"
    joint: dict[tuple[int, int, str, str, int], Fraction | float] = field(default_factory=dict)
    plan: Plan | None = None
