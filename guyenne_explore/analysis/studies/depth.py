"""Skill depth and luck of a rule set: a ladder of head-to-head matches between skill levels.

Each pair of neighbouring levels on the ladder (weakest first) plays the same seeded deals twice, the
stronger level English in the first game and French in the second, so neither the seat nor the deal
favours either level.  From the pairs of games:

- the stronger level's *score* (a win 1, a draw ½), with its 95% interval over the pairs; a level
  *beats* the one below when its score is at least :data:`BEATS` (0.55);
- the *skill chain*: the longest run of neighbouring levels each beating the one below, counted in
  steps, the levels that beat their neighbour (uniform against uniform: 0; three levels each beating the
  one below: 2); its interval counts the links whose interval's low end, and high end, reaches :data:`BEATS`;
- how often the *weaker level wins* a game;
- the *luck share*: how much of the outcome the deal decides rather than the decisions, read on the
  same deal with the levels swapped: 1 when the swap leaves the outcome as it was (for the English
  side), ½ when it turns a win into a draw, 0 when it turns a win into a loss; averaged over the pairs.
  A rule set where decisions cannot matter has a luck share of 1.

Both games of a pair are the same deals, whatever the levels decide: the engine's game loop and the
compiled one draw chance from a stream of its own, derived from ``(seed, game index)`` like the
decisions' stream but apart from it, and each side draws from the top of a pile ordered when it is
formed (``drawing.Piles``, ``compiled.kernel._draw_side``).  So both games deal the same opening and
each side then draws the same cards in the same order (a level that spends more cards draws more of
them sooner); only a reshuffle can part them, where the levels' choices left different cards in a
discard, and the new pile orders the cards of each discard by the same random permutation when the
discards hold the same cards.  What is left to chance is the deal's, so the luck share measures the
deal against the decisions, not the stream's drift.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Callable, Sequence

from ...engine import Position, Rules, side_score
from ...i18n import gettext, ngettext, plain_count, translator
from ..api import execute
from ..intervals import mean_interval, wilson
from ..limits import check_duration
from ..metrics import Metric
from ..outcomes import Game
from ..planning import plan
from ..policies.spec import POLICIES, PolicySpec
from .exploit import Pairing, ResponderScore

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["BEATS", "Depth", "default_ladder", "ladder_cost", "level_games", "skill_depth"]

#: the score at which a level beats the one below it
BEATS = 0.55
#: the levels of the default ladder, weakest first, as far as the built-in levels go
LADDER_WISH = ("uniform", "heuristic", "strong", "search:100")
#: a search level plays this share of the games (a search game costs about a hundred of strong's)
SEARCH_SHARE = 10
OnGames = Callable[[int, int], "bool | None"]

#: the depth metric's name (a balance target too)
DEPTH = "Skill depth"


def default_ladder() -> tuple[str, ...]:
    """The levels of :data:`LADDER_WISH` that are built-in levels (``strong`` joins when it is added)."""
    return tuple(level for level in LADDER_WISH if PolicySpec.parse(level).kind in POLICIES)


def check_ladder(levels: Sequence[str]) -> tuple[str, ...]:
    """The levels, each a policy its :class:`PolicySpec` builds (its ValueError names the one it cannot); at least
    two."""
    for level in levels:
        PolicySpec.parse(level).policy()
    if len(levels) < 2:
        raise ValueError(gettext("a ladder needs at least two levels, weakest first (uniform,heuristic)"))
    return tuple(levels)


def level_games(level: str, games: int) -> int:
    """The games ``level`` plays where the others play ``games``: a :data:`SEARCH_SHARE`-th for a search."""
    return max(1, games // SEARCH_SHARE) if PolicySpec.parse(level).searches else games


def match_games(weaker: str, stronger: str, games: int) -> int:
    """Deals a match plays: ``games``, a :data:`SEARCH_SHARE`-th where a search level plays."""
    return min(level_games(weaker, games), level_games(stronger, games))


def ladder_cost(levels: Sequence[str], games: int, rules: Rules, fast: bool = True) -> list[tuple[str, str, int, float]]:
    """Each match's weaker and stronger level, its games (both seats) and its rough seconds on one core
    under ``rules`` (from the deal, where the ladder plays; ``fast=False``: the engine plays them)."""
    start = Position.start(rules)
    out = []
    for weaker, stronger in zip(levels, levels[1:]):
        n = 2 * match_games(weaker, stronger, games)
        out.append((weaker, stronger, n, plan(start, (weaker, stronger), "sample", games=n, fast=fast).cost or 0.0))
    return out


def _mean(name: str, values: Sequence[float], unit: str = "probability") -> Metric:
    value, low, high = mean_interval(values)
    return Metric(name, value, max(0.0, low), min(1.0, high), unit, len(values))


@dataclass(frozen=True)
class Match:
    """Two neighbouring levels over the same deals, each level in each seat."""

    weaker: str
    stronger: str
    #: the stronger level's score over the pairs of games (a win 1, a draw ½)
    score: Metric
    #: the share of games the weaker level won
    weaker_wins: Metric
    #: the outcome's agreement over the two seats of each deal (1: the deal alone decided it)
    luck: Metric

    @property
    def beats(self) -> bool:
        return self.score.value >= BEATS

    @classmethod
    def from_games(cls, weaker: str, stronger: str, first: Sequence[Game], second: Sequence[Game]) -> "Match":
        """``first``: the stronger level English; ``second``: the same deals with the levels swapped."""
        pairs = list(zip(first, second))
        scores = [(side_score(a.winner, "english") + side_score(b.winner, "french")) / 2 for a, b in pairs]
        agreement = [1 - abs(side_score(a.winner, "english") - side_score(b.winner, "english")) for a, b in pairs]
        lost = sum(a.winner == "french" for a, _ in pairs) + sum(b.winner == "english" for _, b in pairs)
        low, high = wilson(lost, 2 * len(pairs))
        return cls(weaker, stronger, _mean("Score of the stronger level", scores),
                   Metric("Weaker level wins", lost / (2 * len(pairs)), low, high, games=2 * len(pairs)),
                   _mean("Luck share", agreement))

    def to_json(self) -> dict[str, object]:
        return {"weaker": self.weaker, "stronger": self.stronger, "beats": self.beats,
                "score": self.score.to_json(), "weaker_wins": self.weaker_wins.to_json(), "luck": self.luck.to_json()}


def _chain(links: Sequence[bool]) -> int:
    """The longest run of consecutive links that hold."""
    best = run = 0
    for holds in links:
        run = run + 1 if holds else 0
        best = max(best, run)
    return best


@dataclass(frozen=True)
class Depth:
    """A rule set's ladder: its matches, the skill chain with its interval, the weaker level's wins, the luck."""

    rules: str
    levels: tuple[str, ...]
    matches: tuple[Match, ...]
    #: the chain counted on the scores, on their intervals' low ends, and on their high ends
    chain: int
    chain_low: int
    chain_high: int
    weaker_wins: Metric
    luck: Metric

    @classmethod
    def from_matches(cls, rules: str, levels: Sequence[str], matches: Sequence[Match],
                     pairs: Sequence[tuple[Sequence[Game], Sequence[Game]]]) -> "Depth":
        first = [g for a, _ in pairs for g in a]
        second = [g for _, b in pairs for g in b]
        pooled = Match.from_games("", "", first, second)  # every match's games together
        return cls(rules, tuple(levels), tuple(matches), _chain([m.score.value >= BEATS for m in matches]),
                   _chain([(m.score.low or 0.0) >= BEATS for m in matches]),
                   _chain([(m.score.high or 0.0) >= BEATS for m in matches]), pooled.weaker_wins, pooled.luck)

    def chain_text(self, lang: str | None = None) -> str:
        """The skill chain with its interval as a sentence (the command line, the Balance tab and the report
        say it alike).  Said in steps, not levels: a ladder of three levels each beating the one below is a
        chain of 2, which "2 levels" would misread as the two bottom levels."""
        return translator(lang).ngettext(
            "skill chain: {chain} step, a level beating the one below (95% interval {low} to {high})",
            "skill chain: {chain} steps, each a level beating the one below (95% interval {low} to {high})",
            self.chain).format(
            chain=self.chain, low=self.chain_low, high=self.chain_high)

    def metric(self) -> Metric:
        """The chain as a metric (a target of the balance search): its length with its interval, in steps."""
        return Metric(DEPTH, float(self.chain), float(self.chain_low), float(self.chain_high), "steps",
                      min((m.score.games or 0) for m in self.matches))

    def rungs(self) -> list[Pairing]:
        """Each rung's verdict as :func:`.exploit.check_verdicts` checks it against a counter-strategy (read against
        :data:`BEATS`): the stronger level, the weaker, and the stronger level's score against it over both seats,
        with its interval over the pairs of games."""
        def scored(m: Match) -> ResponderScore:
            s = m.score
            return ResponderScore(m.weaker, s.value, s.value if s.low is None else s.low,
                                  s.value if s.high is None else s.high, m.weaker_wins.games or 0)
        return [(m.stronger, m.weaker, scored(m)) for m in self.matches]

    def to_json(self) -> dict[str, object]:
        return {"rules": self.rules, "levels": list(self.levels), "beats_at": BEATS,
                "chain": self.chain, "chain_ci95": [self.chain_low, self.chain_high],
                "weaker_wins": self.weaker_wins.to_json(), "luck_share": self.luck.to_json(),
                "matches": [m.to_json() for m in self.matches]}


def play_seats(rules: Rules, weaker: str, stronger: str, games: int, seed: int,
               executor: Executor | None = None, on_games: Callable[[int], "bool | None"] | None = None,
               fast: bool = True) -> tuple[list[Game], list[Game]]:
    """The same ``games`` seeded deals twice: the stronger level English, then French.  ``on_games(done)``
    counts the two halves' games together and stops the match by returning False; ``fast=False``: the engine
    plays them (as while the fast simulator compiles)."""
    start = Position.start(rules)
    halves: list[list[Game]] = []
    for policies in ((stronger, weaker), (weaker, stronger)):
        chosen = plan(start, policies, "sample", games=games, fast=fast, executor=executor)
        step = None
        if on_games is not None:
            def step(done: int, of: int, before: int = len(halves) * games) -> bool | None:
                return on_games(before + done)
        halves.append(execute(start, chosen, seed, step).samples)
    return halves[0], halves[1]


def skill_depth(rules: Rules, levels: Sequence[str] | None = None, games: int = 200, seed: int = 0,
                executor: Executor | None = None, on_games: OnGames | None = None, force: bool = False,
                fast: bool = True) -> Depth:
    """The ladder of ``levels`` (default: :func:`default_ladder`) from the deal under ``rules``: ``games`` deals a
    match (a tenth where a search plays), each in both seats.  ``on_games(done, total)`` counts the whole run's
    games and cancels it by returning False (:class:`..cancel.Cancelled`).  Refused (:class:`..limits.TooLong`)
    where the ladder's cost (:func:`ladder_cost`, on one core) is past :data:`..limits.RUN_SECONDS`, unless
    ``force``; ``fast=False``: the engine plays every game (the first answer while the fast simulator compiles)."""
    levels = check_ladder(default_ladder() if levels is None else levels)
    costs = ladder_cost(levels, games, rules)
    total = sum(n for _w, _s, n, _t in costs)
    check_duration(sum(seconds for _w, _s, _n, seconds in costs),
                   ngettext("{count} game", "{count} games", total).format(count=plain_count(total)), force)
    matches, pairs, before = [], [], 0
    for weaker, stronger in zip(levels, levels[1:]):
        n = match_games(weaker, stronger, games)
        tick = None
        if on_games is not None:
            def tick(done: int, before: int = before) -> bool | None:
                return on_games(before + done, total)
        first, second = play_seats(rules, weaker, stronger, n, seed, executor, tick, fast)
        before += 2 * n
        matches.append(Match.from_games(weaker, stronger, first, second))
        pairs.append((first, second))
    return Depth.from_matches(str(rules), levels, matches, pairs)
