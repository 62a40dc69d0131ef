"""The people beside the bots: each player's and the group's accuracy, style, "plays like", the first side's advantage.

- **Accuracy**: the mean loss of the player's decisions read (:mod:`.reading`) with its Student t 95% interval,
  and the accuracy of each end on the curve ``100 exp(-K mean loss)`` (:func:`.reading.accuracy`).  Decisions
  of one game are not independent, so the interval is somewhat too narrow.
- **Style**: :mod:`..style`'s measures (bluffs, cards at an opening, hero timing, defences conceded, castles
  chosen) of the player's own decisions, beside each level's own games under the same rules.
- **Plays like**: each level that gives moves probabilities (uniform, heuristic, strong, strong@FILE,
  persona@FILE), at each temperature of :data:`TEMPERATURES` (times the level's own), is scored by the log
  likelihood of the player's moves, each mixed with :data:`MIX` of a uniform choice so that a move a level never
  plays costs ``log(MIX / n)`` rather than minus infinity.  The temperature is chosen on half the games (even
  ones) and scored on the other half, and the other way round: the *held-out* mean log-likelihood a decision.
  The player "plays like" the level of the highest.  With a single game the temperature is chosen and scored on
  the same decisions (``held_out`` false).
- **First side's advantage**: the score of the side that opens round 1 (``first_side``) in the games where every
  seat is a person, with its Wilson interval, beside each level's against itself under the same rules.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ...engine import GameRecord, Position, Rules
from ...i18n import translator
from ..intervals import mean_interval, wilson
from ..policies import Policy
from ..policies.heuristic import Heuristic
from ..policies.spec import PolicySpec
from ..policies.strong import Strong
from ..studies.skill import level_name
from ..studies.style import LevelStyle, PlayStyle, decisions_style, percent, play_style, separated
from .reading import GameReading, PlaytestError, Step, accuracy, band, seat_at, seats_of, steps

#: the temperatures tried for a level, as multiples of its own
TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)
#: the share of a uniform choice mixed into a level's move probabilities when people's moves are scored
MIX = 0.01
#: who "the group" is: every person of the records
GROUP = "group"


def tempered(level: str, factor: float) -> Policy:
    """The policy ``level`` at ``factor`` times its temperature (uniform has none); a PlaytestError for a level
    that gives its moves no probabilities (a search)."""
    policy = PolicySpec.parse(level).policy()
    if isinstance(policy, Strong):
        return policy.tempered(factor)
    if isinstance(policy, Heuristic):
        return Heuristic(temperature=policy.temperature * factor)
    if not policy.exact:
        raise PlaytestError(translator().gettext(
            "{level} gives its moves no probabilities: a playtest compares people with uniform, heuristic, strong, "
            "strong@FILE or persona@FILE").format(level=repr(level)))
    return policy


def log_likelihoods(step: Step, policies: Sequence[Policy]) -> list[float]:
    """The log-probability of the move played under each policy, mixed with :data:`MIX` of a uniform choice."""
    n = step.choices
    out = []
    for policy in policies:
        p = float(dict(policy.distribution(step.view)).get(step.move, 0))
        out.append(math.log((1 - MIX) * p + MIX / n))
    return out


# ---------------------------------------------------------------------- one player's numbers
@dataclass(frozen=True)
class Likelihood:
    """A level's fit to a player's moves: the held-out mean log-likelihood a decision, the temperature chosen."""

    level: str
    mean: float
    factor: float
    held_out: bool


@dataclass(frozen=True)
class Player:
    """One player (or the group) beside the bots."""

    name: str
    person: bool
    games: int
    decisions: int
    read: int
    mean_loss: tuple[float, float, float] | None
    bands: dict[str, int]
    fits: tuple[Likelihood, ...]
    style: LevelStyle

    @property
    def accuracy(self) -> tuple[float, float, float] | None:
        """The accuracy with its interval (the loss's interval through the curve, ends swapped)."""
        if self.mean_loss is None:
            return None
        m, low, high = self.mean_loss
        return accuracy(m), accuracy(high), accuracy(low)

    @property
    def plays_like(self) -> str | None:
        return max(self.fits, key=lambda f: f.mean).level if self.fits else None

    def to_json(self) -> dict[str, Any]:
        acc, loss = self.accuracy, self.mean_loss
        return {"name": self.name, "kind": "person" if self.person else "bot", "games": self.games,
                "decisions": self.decisions, "read": self.read,
                "accuracy": None if acc is None else {"value": acc[0], "low": acc[1], "high": acc[2]},
                "mean_loss": None if loss is None else {"value": loss[0], "low": loss[1], "high": loss[2]},
                "bands": self.bands, "plays_like": self.plays_like,
                "likelihoods": {f.level: f.mean for f in self.fits},
                "temperatures": {f.level: f.factor for f in self.fits},
                "held_out": all(f.held_out for f in self.fits), "style": self.style.to_json()}


@dataclass
class _Gathered:
    """What one player's decisions add up to, game by game."""

    games: list = field(default_factory=list)
    decisions: int = 0
    losses: list = field(default_factory=list)
    bands: Counter = field(default_factory=Counter)
    #: per decision: its game's fold (0 even, 1 odd) and the log-likelihoods by level and temperature
    scored: list = field(default_factory=list)


def _gather(readings: Sequence[GameReading], records: Sequence[GameRecord],
            levels: Sequence[str], on_game: Callable[[int], None] | None) -> dict[tuple[str, bool], _Gathered]:
    """Every player's decisions (and the group's: every person's), read and scored by each level."""
    policies = [tempered(level, f) for level in levels for f in TEMPERATURES]
    out: dict[tuple[str, bool], _Gathered] = {}
    for g, (reading, record) in enumerate(zip(readings, records)):
        seats = seats_of(record)
        keys = {(s.name, s.person): {t.side for t in seats if t.name == s.name} for s in seats}
        if any(s.person for s in seats):
            keys[(GROUP, True)] = {s.side for s in seats if s.person}
        for key, sides in keys.items():
            out.setdefault(key, _Gathered()).games.append((record, tuple(sorted(sides))))
        read = {d.index: d for d in reading.decisions}
        for step in steps(record):
            seat = seat_at(seats, step.view.side, step.view.member)
            scored = (g % 2, log_likelihoods(step, policies))
            loss = read[step.index].loss if step.index in read else None
            for key in ((seat.name, seat.person), (GROUP, True)) if seat.person else ((seat.name, False),):
                gathered = out[key]
                gathered.decisions += 1
                gathered.scored.append(scored)
                if loss is not None:
                    gathered.losses.append(loss)
                    gathered.bands[band(loss) or "good"] += 1
        if on_game is not None:
            on_game(g)
    return out


def _best(rows: list[list[float]], columns: range) -> int:
    """The column (a level at a temperature) of the highest summed log-likelihood over ``rows``."""
    return max(columns, key=lambda c: sum(r[c] for r in rows))


def _fits(scored: list[tuple[int, list[float]]], levels: Sequence[str]) -> tuple[Likelihood, ...]:
    """Each level's held-out mean log-likelihood a decision (see the module's words)."""
    k = len(TEMPERATURES)
    folds = [[s for fold, s in scored if fold == f] for f in (0, 1)]
    held_out = all(folds)
    out = []
    for i, level in enumerate(levels):
        columns = range(i * k, (i + 1) * k)
        if held_out:  # each fold scored at the temperature the other chose
            chosen = [_best(folds[1 - f], columns) for f in (0, 1)]
            total = sum(r[chosen[f]] for f in (0, 1) for r in folds[f])
        else:
            total = sum(r[_best(folds[0] or folds[1], columns)] for r in folds[0] or folds[1])
        factor = TEMPERATURES[_best(folds[0] + folds[1], columns) - i * k]
        out.append(Likelihood(level, total / max(1, len(scored)), factor, held_out))
    return tuple(out)


def players(readings: Sequence[GameReading], records: Sequence[GameRecord], levels: Sequence[str],
            on_game: Callable[[int], None] | None = None) -> list[Player]:
    """Each player of the records, people first, then the group of every person (where there is more than one)."""
    gathered = _gather(readings, records, levels, on_game)
    out = []
    for (name, person), g in gathered.items():
        if name == GROUP and sum(1 for (n, p) in gathered if p and n != GROUP) < 2:
            continue
        loss = mean_interval(g.losses) if g.losses else None
        style = decisions_style(name, g.games, "people" if person else "bot")
        out.append(Player(name, person, len(g.games), g.decisions, len(g.losses),
                          None if loss is None else (max(0.0, loss[0]), max(0.0, loss[1]), loss[2]),
                          dict(g.bands), _fits(g.scored, levels), style))
    return sorted(out, key=lambda p: (not p.person, p.name == GROUP, p.name))


# ---------------------------------------------------------------------- beside the bots
@dataclass(frozen=True)
class Advantage:
    """The first side's score (win 1, draw 1/2) over some games, with its Wilson interval."""

    who: str
    score: float
    games: int

    @property
    def value(self) -> float | None:
        return self.score / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.score, self.games) if self.games else None

    def to_json(self) -> dict[str, Any]:
        ci = self.interval
        return {"who": self.who, "value": self.value, "low": ci[0] if ci else None, "high": ci[1] if ci else None,
                "games": self.games}


def people_advantage(readings: Sequence[GameReading]) -> Advantage:
    """The first side's score in the finished games where every seat is a person."""
    games = [r for r in readings if r.result is not None and all(s.person for s in r.seats)]
    score = sum(r.result if r.first == 0 else 1 - r.result for r in games if r.result is not None)
    return Advantage("people", score, len(games))


def bots_beside(rules: Rules, levels: Sequence[str], games: int, seed: int) -> tuple[PlayStyle, list[Advantage]]:
    """Each level against itself under ``rules``: its style, and the first side's advantage from the deal."""
    from ..api import analyse
    from ..studies.variants import first_player_advantage

    style = play_style(rules, levels, games, seed)
    start = Position.start(rules)
    advantages = []
    for level in levels:
        metric = first_player_advantage(analyse(start, (level, level), method="sample", games=games, seed=seed))
        advantages.append(Advantage(level, metric.value * games, games))
    return style, advantages


# ---------------------------------------------------------------------- sentences
def display_name(player: Player, lang: str | None = None) -> str:
    """A player as a page names them: a person by their pseudonym, a bot by its level's name in ``lang``
    ("heuristique"), the group of every person in words (a French page said "strong joue surtout comme forte")."""
    if player.name == GROUP and player.person:
        return translator(lang).gettext("the group (every person)")
    return player.name if player.person else level_name(player.name, lang)


def sentences(player: Player, bots: PlayStyle | None, lang: str | None = None) -> list[str]:
    """What the numbers say of a player, in ``lang``, where the intervals allow it."""
    tr = translator(lang)
    out = []
    name = display_name(player, lang)
    acc = player.accuracy
    if acc is not None:
        out.append(tr.gettext("{name}: accuracy {accuracy} [{low}, {high}] out of 100 over {count} decisions read.").format(
            name=name, accuracy=round(acc[0]), low=round(acc[1]), high=round(acc[2]), count=player.read))
    # a bot found to play like its own level says nothing ("heuristic plays most like heuristic", a review)
    if player.plays_like is not None and (player.person or player.plays_like != player.name):
        out.append(tr.gettext("{name} plays most like {level} (the likeliest moves on held-out games).").format(
            name=name, level=level_name(player.plays_like, lang)))
    bluffs = player.style.bluffs
    if bots is not None and bluffs.trials:
        strongest = bots.levels[-1]
        ci = bluffs.interval
        assert ci is not None
        said = tr.gettext("{name} bluffs at {share} [{low}, {high}] of openings; {level} at {other}.").format(
            name=name, share=percent(bluffs.value, lang), low=percent(ci[0], lang),
            high=percent(ci[1], lang), level=level_name(strongest.level, lang),
            other=percent(strongest.bluffs.value, lang))
        if separated(ci, strongest.bluffs.interval):
            out.append(said)
        else:
            out.append(tr.gettext("{name} bluffs about as often as {level}: their intervals (95%) overlap.").format(
                name=name, level=level_name(strongest.level, lang)))
    return out
