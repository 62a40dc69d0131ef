"""A playtest's report: every record read (:mod:`.reading`), its players beside the bots (:mod:`.people`).

The bots are compared under the rules most of the records were played under (the first record's where they tie);
a record under other rules is still read decision by decision and counted in its players' accuracy.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ...engine import SIDES, GameRecord, Rules
from ...i18n import plain_estimate, translator
from ..policies.spec import PolicySpec
from ..studies.skill import level_name
from ..studies.style import PlayStyle
from .people import GROUP, Advantage, Player, bots_beside, people_advantage, players, sentences, tempered
from .reading import ACCURACY_K, BANDS, DecisionReading, GameReading, OnStep, Seat, band, read_games

#: the levels a report compares people with by default
LEVELS = ("heuristic", "strong")
#: games each level plays against itself for the bots' style and first side's advantage
BOT_GAMES = 200


@dataclass(frozen=True)
class Costly:
    """A decision that lost win chance to the bots' best move: where a player's game is worth looking at again
    (the position before it, the move played, the move the bots prefer)."""

    game: GameReading
    decision: DecisionReading


@dataclass(frozen=True)
class PlaytestReport:
    """Every record read, its players and the group beside the levels, and the records that could not be read."""

    budget: int
    seed: int
    levels: tuple[str, ...]
    rules: str
    games: tuple[GameReading, ...]
    players: tuple[Player, ...]
    bots: PlayStyle | None
    people_first: Advantage
    bots_first: tuple[Advantage, ...]
    bad: tuple[tuple[str, str], ...] = ()

    def luck_adjusted(self) -> tuple[float, float, float] | None:
        """The mean luck-adjusted result of the finished games for the English, with its Student t interval."""
        from ..intervals import mean_interval

        values = [g.luck_adjusted for g in self.games if g.luck_adjusted is not None]
        return mean_interval(values) if values else None

    def sentences(self, lang: str | None = None) -> list[str]:
        """What the report says in words, in ``lang``: each player's lines, then the first side's advantage."""
        out = [line for p in self.players for line in sentences(p, self.bots, lang)]
        tr = translator(lang)
        people = self.people_first
        if people.games and people.interval is not None:
            low, high = people.interval
            value = people.value
            assert value is not None
            bots = "; ".join(f"{level_name(a.who, lang)} {_estimate(a, lang)}" for a in self.bots_first)
            out.append(tr.gettext("The side that opens round 1 scores {score} in the games among people; among the "
                                  "bots: {bots}.").format(score=plain_estimate(value, low, high, lang), bots=bots))
        return out

    def to_json(self) -> dict[str, Any]:
        adjusted = self.luck_adjusted()
        return {
            "budget": str(PolicySpec("search", rollouts=self.budget)), "seed": self.seed, "levels": list(self.levels),
            "rules": self.rules,
            "bands": {name: limit for limit, name in BANDS},
            "accuracy_curve": f"100*exp(-{ACCURACY_K:g}*mean_loss)",
            "players": [p.to_json() for p in self.players],
            "games": [g.to_json() for g in self.games],
            "luck_adjusted": None if adjusted is None else dict(zip(("value", "low", "high"), adjusted)),
            "first_side": {"people": self.people_first.to_json(), "bots": [a.to_json() for a in self.bots_first]},
            "bots": None if self.bots is None else self.bots.to_json(),
            "bad_records": [{"file": name, "problem": problem} for name, problem in self.bad],
            "sentences": {"en": self.sentences("en"), "fr": self.sentences("fr")},
        }

    def costliest(self, player: Player) -> list[Costly]:
        """``player``'s decisions in a band of loss (an inaccuracy or worse, :data:`.reading.BANDS`), the costliest
        first (then in game order): an accuracy says how much a player loses, these say where.  The group of every
        person (:data:`.people.GROUP`) has every person's."""
        def theirs(seat: Seat) -> bool:
            return seat.person if (player.name, player.person) == (GROUP, True) else \
                (seat.name, seat.person) == (player.name, player.person)

        found = [Costly(g, d) for g in self.games for d in g.decisions if band(d.loss) and theirs(g.player(d))]
        order = {g.name: i for i, g in enumerate(self.games)}
        return sorted(found, key=lambda c: (-(c.decision.loss or 0.0), order[c.game.name], c.decision.index))

    def rows(self) -> list[dict[str, Any]]:
        """One row a decision and one a draw, in game order (the CSV: pandas reads it as it is)."""
        out = []
        for g in self.games:
            luck = {d.index: d for d in g.draws}
            read = {d.index: d for d in g.decisions}
            for index in sorted(luck.keys() | read.keys()):
                row: dict[str, Any] = {"game": g.name, "event": index, "kind": "", "round": None, "seat": "",
                                       "player": "", "point": "", "move": "", "legal_moves": None, "think_ms": None,
                                       "loss": None, "best_move": "", "valued_by": "", "band": "", "luck": None}
                if index in read:
                    d = read[index]
                    row.update(kind="decision", round=d.round, seat=SIDES[d.side], player=g.player(d).name,
                               point=d.point, move=d.move, legal_moves=d.choices, think_ms=d.think_ms, loss=d.loss,
                               best_move=d.best_move or "", valued_by=d.valued_by, band=band(d.loss) or "")
                else:
                    draw = luck[index]
                    row.update(kind="draw", round=draw.round, point=draw.point, luck=draw.luck)
                out.append(row)
        return out


def _estimate(advantage: Advantage, lang: str | None) -> str:
    """An advantage with its interval, in the language's decimals."""
    low, high = advantage.interval or (None, None)
    return plain_estimate(advantage.value or 0.0, low, high, lang)


def common_rules(records: Sequence[GameRecord]) -> Rules:
    """The rules most of the records were played under (the first record's on a tie)."""
    counts = Counter(r.start.rules for r in records)
    top = max(counts.values())
    return next(r.start.rules for r in records if counts[r.start.rules] == top)


def playtest_report(named: Sequence[tuple[str, GameRecord]], levels: Sequence[str] = LEVELS, budget: int = 400,
                    seed: int = 0, bot_games: int = BOT_GAMES, bad: Sequence[tuple[str, str]] = (),
                    on_step: OnStep | None = None, on_game: Callable[[int], None] | None = None,
                    cache: bool = True) -> PlaytestReport:
    """The report of ``named`` records (file name, record) against ``levels``: each decision read at ``budget``
    rollouts (:func:`.reading.read_games`, cached, ``on_step`` its progress and Cancel), then the players, and
    each level's own ``bot_games`` games under the records' common rules (0: none).  ``bad``: the records that
    could not be read, named in the report."""
    for level in levels:
        tempered(level, 1.0)  # a level with no move probabilities is refused before anything is read
    readings = read_games(named, budget, seed, on_step, cache)
    records = [record for _name, record in named]
    found = players(readings, records, levels, on_game)
    rules = common_rules(records) if records else None
    bots, first = (bots_beside(rules, levels, bot_games, seed) if rules is not None and bot_games else (None, []))
    return PlaytestReport(budget, seed, tuple(levels), "" if rules is None else str(rules), tuple(readings),
                          tuple(found), bots, people_advantage(readings), tuple(first), tuple(bad))
