"""What strong play does: how each skill level plays a rule set, read from its games' decisions.

Each level plays ``games`` seeded games against itself (both sides at that level); every game is an
engine :class:`GameRecord`, replayed through the engine, and each side's decisions are read from the
position it decided at and, where the measure is about hidden cards, from its own view.  Per level:

- **bluffs**: the share of openings (``open_first``, ``open_second``: the opponent answers seeing only
  how many cards lie face down) that are a *bluff*: one valued card, the size of a lone hero opening,
  while the opponent cannot rule out that the card is the hero (the side's hero is neither removed, nor
  shown into its discard, nor anywhere but in hand by the public record), and that cannot take or keep
  the castle even against the weakest answer the opponent may hold (one card of the lowest kind among
  the cards the side does not see of it, by the engine's battle rule).  It can only win by the fear of
  the hero: that is the bluff the rules offer, and each part of the test is what the side itself knows.
  A strong single card (a lone 5 facing 2s) is no bluff; nor is the hero hidden with a weak card (its
  strength is real).  A rule set without a hero has no bluff by this definition.
- **opening sizes**: how many cards each opening puts at its castle, and their mean.
- **hero timing**: the round (of the game, the first counted 1) in which a side first places its
  hero, or kept to the end (never placed); from it the share of sides that first play it in round 1,
  in the last :data:`LATE_ROUNDS` rounds of their game, and never.
- **conceding**: the share of defences (battles at a castle the defender controlled when the round
  began) that the defender conceded.  Where the rules make conceding a decision
  (``concede_as_decision``) the defender's ``concede`` moves are counted; otherwise every built-in level
  follows the built-in rule (RULES.md 4: reveal when the defence holds, concede when it falls), so the
  conceded defences are the ones that fall.
- **castles chosen**: the castle of each opening, and the *rank of its stake* among the castles the
  opener could choose (1: the most at stake; equal stakes share a rank).  A castle's stake is what
  winning it rather than losing it changes in the final score and outcome were the game to end on that
  table (the heuristic's ``castle_stake``, by the engine's scoring), read from the opener's view.  The
  share of openings at the top stake counts only openings where the stakes differ.

Every share has its Wilson 95% interval and the mean its Student t interval (:mod:`.intervals`).  The
decisions of one game are not independent, so an interval over decisions (bluffs, openings, defences)
is somewhat too narrow; hero timing has one value per side and game.  Game ``i`` of a level is
game ``i`` of the seed's batch (the compiled loop's stream; the engine's ``seed:i`` stream for levels
it plays), so the same seed gives the same result.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterator, Sequence

from ...engine import (CONCEDE_CHOICE, ENGLISH, HERO, KINDS, NEUTRAL, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, RESPOND_SECOND,
                       Cards, Draw, Event, GameRecord, Hooks, Move, Position, PublicRecord, Rules, SideView, apply_legal,
                       battle_winner, defence_holds, play)
from ...i18n import current_language, ngettext, plain_count, plain_percent, translator
from ..cancel import Cancelled, Stoppable, Throttled
from ..capabilities import capabilities
from ..compiled.rollout import traced_game
from ..intervals import mean_interval, wilson
from ..limits import check_duration
from ..planning import plan
from ..policies.heuristic import castle_stake, facts
from ..policies.spec import PolicySpec
from ..policies.sides import compiled_sides
from ..sampling.sample import game_rng
from .skill import level_name

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["LATE_ROUNDS", "STYLE_LEVELS", "LevelStyle", "PlayStyle", "play_style", "play_styles", "style_cost"]

#: the levels a style run plays by default, weakest first
STYLE_LEVELS = ("uniform", "heuristic", "strong")
#: a hero first played in the last this many rounds of its game is "kept for the end"
LATE_ROUNDS = 3
#: rough seconds of reading one game's decisions (replay, views, stakes), on top of playing it.  Measured on two
#: cores (``play_style`` of uniform, heuristic and strong, 400 games each, warm): 6.5 s in advanced, 8.9 s in
#: team, 12.1 s in expert, 5 to 10 ms a game in all, where 0.03 promised 39 s; so the cost said errs long by
#: less than twice, not six times
SECONDS_TO_READ = 0.008
#: where a hero can be while out of sight, as the public record names it (``view.HAND``)
IN_HAND = "hand"

OnGames = Callable[[int, int], "bool | None"]


# ---------------------------------------------------------------------- numbers with intervals
@dataclass(frozen=True)
class Share:
    """``hits`` of ``trials``, with its Wilson 95% interval (no value without a trial)."""

    hits: int
    trials: int

    @property
    def value(self) -> float | None:
        return self.hits / self.trials if self.trials else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.hits, self.trials) if self.trials else None

    def to_json(self) -> dict[str, Any]:
        ci = self.interval
        return {"value": self.value, "ci95": list(ci) if ci else None, "count": self.hits, "of": self.trials}


@dataclass(frozen=True)
class Mean:
    """A mean with its Student t 95% interval, over ``n`` values."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of_counts(cls, counts: dict[int, int]) -> "Mean":
        """The mean of values given as value -> how many times it occurs."""
        values = [v for v, c in counts.items() if c]
        if not values:
            return cls(None, None, None, 0)
        value, low, high = mean_interval(values, counts=[counts[v] for v in values])
        return cls(value, low, high, sum(counts[v] for v in values))

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": None if self.low is None else [self.low, self.high], "of": self.n}


def separated(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    """Whether two 95% intervals do not overlap (the only difference the sentences state)."""
    return a is not None and b is not None and (a[1] < b[0] or b[1] < a[0])


# ---------------------------------------------------------------------- reading one game
@dataclass
class _Counts:
    """What the decisions of a level's games add up to (filled game by game, then frozen in :class:`LevelStyle`)."""

    sides: int = 0
    openings: int = 0
    bluffs: int = 0
    sizes: Counter = field(default_factory=Counter)
    castles: Counter = field(default_factory=Counter)
    ranks: Counter = field(default_factory=Counter)
    ranked: int = 0
    #: the round a side first placed its hero (0: never), and how many of those were in its game's last rounds
    hero_rounds: Counter = field(default_factory=Counter)
    hero_sides: int = 0
    hero_late: int = 0
    defences: int = 0
    conceded: int = 0

    def add(self, record: GameRecord, sides: Collection[int] = (0, 1)) -> None:
        """Read every decision of one game by ``sides`` (both by default; a playtest's player: the sides that
        person held), each side's from where it decided."""
        positions = replayed(record)
        start, final = positions[0], positions[-1]
        public = PublicRecord.assumed(start)
        first_hero: list[int | None] = [None, None]
        decides_concede = start.rules.concede_as_decision
        for before, after, event in zip(positions, positions[1:], record.events):
            side, move = event.side, event.move
            if side is not None and move is not None:
                point = before.to_play
                if point == RESPOND_SECOND and not decides_concede:  # the defences of sides, whoever answers last
                    self._defences(before, side, move, sides)
                if side in sides and point in PLACEMENTS:
                    if move.cards[HERO] and first_hero[side] is None:
                        first_hero[side] = before.round - start.round + 1
                    if point in (OPEN_FIRST, OPEN_SECOND):
                        self._opening(before, side, move, public)
                elif side in sides and point == CONCEDE_CHOICE:
                    self.defences += 1
                    self.conceded += bool(move.concede)
            public = public.after(before, after, move)
        rounds = final.round - start.round + 1
        self.sides += len(sides)
        if start.rules.hero:
            for played in (first_hero[side] for side in sides):
                self.hero_sides += 1
                self.hero_rounds[played or 0] += 1
                self.hero_late += played is not None and played > rounds - LATE_ROUNDS

    def _opening(self, p: Position, side: int, move: Move, public: PublicRecord) -> None:
        """An opening's size, castle, stake rank and whether it is a bluff."""
        castle = move.castle
        assert castle is not None
        self.openings += 1
        self.sizes[move.cards.size] += 1
        self.castles[castle] += 1
        view = p.view(side)
        self.bluffs += is_bluff(view, move, public)
        rank = stake_rank(view, castle)
        if rank is not None:
            self.ranked += 1
            self.ranks[rank] += 1

    def _defences(self, p: Position, first: int, move: Move, sides: Collection[int]) -> None:
        """The round's two battles as the built-in rule resolves them, at the round's last placement
        (``first`` answers at Y with ``move``): a defence of ``sides`` falls where the engine's rule concedes it."""
        for battle in (0, 1):
            castle = p.placed.castle(battle)
            assert castle is not None
            defender = p.castles[castle]
            if defender == NEUTRAL or defender not in sides:
                continue
            cards = [p.placed.at(s, battle) for s in (0, 1)]
            if battle == 1:
                cards[first] = cards[first] + move.cards
            self.defences += 1
            self.conceded += not defence_holds(defender, cards[0], cards[1])


def decisions_style(name: str, games: Sequence[tuple[GameRecord, Collection[int]]], played_by: str) -> LevelStyle:
    """The measures of the decisions of the given sides in each game (a playtest's player: the sides a person held
    in each record), named ``name``; the castles counted are those of the first game's table."""
    counts = _Counts()
    for record, sides in games:
        counts.add(record, sides)
    castles = len(games[0][0].start.castles) if games else 0
    return LevelStyle.from_counts(name, len(games), played_by, counts, castles)


def replayed(record: GameRecord) -> list[Position]:
    """Every position of a record's game, the start included.  Its moves were chosen among the legal ones by
    the engine's game loop or the compiled one (whose games the tests replay through the engine move by
    move), so they are applied without checking them again: checking took half the time of a style run."""
    out = [record.start]
    for e in record.events:
        p = out[-1]
        out.append(p.apply_outcome(e.draw) if e.draw is not None else apply_legal(p, e.move))  # type: ignore[arg-type]
    return out


def is_bluff(view: SideView, move: Move, public: PublicRecord) -> bool:
    """Whether an opening is a bluff (see the module's words): one valued card that may pass for the hero
    and that cannot take or keep the castle against the weakest answer the opponent may hold, from the
    opener's ``view`` and the public record."""
    if not view.rules.hero or move.cards.size != 1 or move.cards[HERO] or move.castle is None:
        return False
    side = view.side
    passes_for_hero = (not view.removed[HERO] and not public.shown_discard[side][HERO]
                       and public.hero_may_be(side, IN_HAND))
    weakest = next((k for k in range(KINDS) if k != HERO and view.opponent.unseen[k]), None)
    if not passes_for_hero or weakest is None:
        return False
    answer = Cards().add_kind(weakest, 1)
    control = view.castles[move.castle]
    pair = (move.cards, answer) if side == ENGLISH else (answer, move.cards)
    winner = battle_winner(control, *pair)
    return not (winner == side or (winner is None and control == side))


def stake_rank(view: SideView, castle: int) -> int | None:
    """The rank of ``castle``'s stake among the castles the opener could choose (1: the most at stake; equal
    stakes share a rank), from its ``view``; None where every choice is at the same stake."""
    unspent = facts(view).unspent
    choice = [c for c in range(len(view.castles)) if c != view.x]
    stakes = {c: round(castle_stake(view.castles, c, view.side, view.rules, unspent), 9) for c in choice}
    if len(set(stakes.values())) < 2:
        return None
    return 1 + sum(s > stakes[castle] for s in stakes.values())


# ---------------------------------------------------------------------- a level's style
@dataclass(frozen=True)
class LevelStyle:
    """How one level plays a rule set: every measure of the module's words, as counts with their intervals."""

    level: str
    games: int
    #: who played the games: "compiled" (the compiled game loop) or "engine"
    played_by: str
    bluffs: Share
    #: openings by how many cards they put at the castle: ((size, count), ...)
    opening_sizes: tuple[tuple[int, int], ...]
    opening_mean: Mean
    #: sides by the round they first placed the hero, 0 for never: ((round, count), ...)
    hero_rounds: tuple[tuple[int, int], ...]
    hero_first_round: Share
    hero_late: Share
    hero_kept: Share
    conceded: Share
    #: openings by castle index, and by rank of stake (where the stakes differ)
    castles: tuple[tuple[int, int], ...]
    stake_ranks: tuple[tuple[int, int], ...]
    top_stake: Share

    @classmethod
    def from_counts(cls, level: str, games: int, played_by: str, c: _Counts, castles: int) -> "LevelStyle":
        return cls(level, games, played_by, Share(c.bluffs, c.openings),
                   tuple(sorted(c.sizes.items())), Mean.of_counts(dict(c.sizes)),
                   tuple(sorted(c.hero_rounds.items())), Share(c.hero_rounds[1], c.hero_sides),
                   Share(c.hero_late, c.hero_sides), Share(c.hero_rounds[0], c.hero_sides),
                   Share(c.conceded, c.defences), tuple((i, c.castles[i]) for i in range(castles)),
                   tuple(sorted(c.ranks.items())), Share(c.ranks[1], c.ranked))

    @property
    def openings(self) -> int:
        return self.bluffs.trials

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "games": self.games, "played_by": self.played_by,
                "bluffs": self.bluffs.to_json(),
                "opening_sizes": {str(k): n for k, n in self.opening_sizes}, "opening_mean": self.opening_mean.to_json(),
                "hero_rounds": {("kept" if k == 0 else str(k)): n for k, n in self.hero_rounds},
                "hero_round_1": self.hero_first_round.to_json(), "hero_late": self.hero_late.to_json(),
                "hero_kept": self.hero_kept.to_json(), "conceded": self.conceded.to_json(),
                "castles": {str(k + 1): n for k, n in self.castles},
                "stake_ranks": {str(k): n for k, n in self.stake_ranks}, "top_stake": self.top_stake.to_json()}

    def rows(self) -> Iterator[dict[str, Any]]:
        """Tidy rows: one a measure (and a key within it), the value, its interval, the count and of how many."""
        def share(measure: str, key: str, s: Share) -> dict[str, Any]:
            ci = s.interval
            return {"level": self.level, "measure": measure, "key": key, "value": s.value,
                    "low": ci[0] if ci else None, "high": ci[1] if ci else None, "count": s.hits, "of": s.trials}

        yield share("bluff", "", self.bluffs)
        yield from (share("opening_size", str(k), Share(n, self.openings)) for k, n in self.opening_sizes)
        m = self.opening_mean
        yield {"level": self.level, "measure": "opening_mean", "key": "", "value": m.value, "low": m.low,
               "high": m.high, "count": None, "of": m.n}
        sides = self.hero_kept.trials
        yield from (share("hero_round", "kept" if k == 0 else str(k), Share(n, sides)) for k, n in self.hero_rounds)
        yield share("hero_round_1", "", self.hero_first_round)
        yield share("hero_late", str(LATE_ROUNDS), self.hero_late)
        yield share("hero_kept", "", self.hero_kept)
        yield share("conceded", "", self.conceded)
        yield from (share("castle", str(k + 1), Share(n, self.openings)) for k, n in self.castles)
        ranked = self.top_stake.trials
        yield from (share("stake_rank", str(k), Share(n, ranked)) for k, n in self.stake_ranks)
        yield share("top_stake", "", self.top_stake)


# ---------------------------------------------------------------------- the sentences
def percent(value: float | None, lang: str | None) -> str:
    """A share as the language writes it ("70%", "70 %"): whole percents, one decimal under 10%."""
    share = value or 0.0
    return plain_percent(share, lang, decimals=1 if share < 0.1 else 0, zeros=False)


def _decimal(value: float, lang: str | None) -> str:
    """A mean with one decimal as the language writes it ("1.8", "1,8")."""
    from babel.numbers import format_decimal

    return format_decimal(round(value, 1), "#,##0.0", locale=lang or current_language())


@dataclass(frozen=True)
class PlayStyle:
    """A rule set's style of play by level, weakest first."""

    rules: str
    games: int
    seed: int
    levels: tuple[LevelStyle, ...]

    def level(self, name: str) -> LevelStyle:
        return next(s for s in self.levels if s.level == name)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "games": self.games, "seed": self.seed, "late_rounds": LATE_ROUNDS,
                "levels": [s.to_json() for s in self.levels]}

    def rows(self) -> list[dict[str, Any]]:
        """Every measure of every level as tidy rows (the CSV export), the rule set in each."""
        return [{"rules": self.rules, **row} for s in self.levels for row in s.rows()]

    def sentences(self, lang: str | None = None) -> list[str]:
        """What a designer can read from the numbers, in ``lang``: the weakest and the strongest level compared
        where their 95% intervals do not overlap, and said to be indistinguishable where they do."""
        if len(self.levels) < 2:
            return [translator(lang).gettext("Choose two levels or more to compare how they play.")]
        weak, strong = self.levels[0], self.levels[-1]
        out = [_games_sentence(self, lang)]
        for words in (_hero_sentence, _bluff_sentence, _size_sentence, _stake_sentence, _concede_sentence):
            sentence = words(weak, strong, lang)
            if sentence:
                out.append(sentence)
        return out


def _names(weak: LevelStyle, strong: LevelStyle, lang: str | None) -> dict[str, str]:
    return {"weak": level_name(weak.level, lang), "strong": level_name(strong.level, lang)}


def _games_sentence(style: PlayStyle, lang: str | None) -> str:
    tr = translator(lang)
    return tr.ngettext("{rules}: {count} game a level, each level against itself.",
                       "{rules}: {count} games a level, each level against itself.", style.games).format(
        rules=style.rules, count=plain_count(style.games, lang))


def _compared(a: Share, b: Share) -> bool:
    return separated(a.interval, b.interval)


def _hero_sentence(weak: LevelStyle, strong: LevelStyle, lang: str | None) -> str | None:
    """When the hero is first played: the first of "in the last rounds", "in round 1", "kept to the end" whose
    shares differ between the levels, and each level's most frequent round where it stands out."""
    tr = translator(lang)
    if not weak.hero_kept.trials or not strong.hero_kept.trials:
        return None
    names = _names(weak, strong, lang)
    late = tr.ngettext("in the last round of the game", "in the last {count} rounds of the game",
                       LATE_ROUNDS).format(count=LATE_ROUNDS)
    # each claim with the round it is about (-1: the last rounds, 0: kept), not repeated as a level's most frequent
    claims = ((weak.hero_late, strong.hero_late, tr.gettext("first played {late}").format(late=late), -1),
              (weak.hero_first_round, strong.hero_first_round, tr.gettext("first played in round 1"), 1),
              (weak.hero_kept, strong.hero_kept, tr.gettext("kept to the end"), 0))
    told = next(((a, b, when, key) for a, b, when, key in claims if _compared(a, b)), None)
    if told is None:
        parts = [tr.gettext("The {weak} and {strong} levels time the hero alike: their intervals (95%) overlap "
                            "(round 1, {late}, kept to the end).").format(late=late, **names)]
    else:
        a, b, when, said = told
        parts = [tr.gettext("At the {strong} level the hero is {when} about {share} of the time; at the {weak} "
                            "level about {other}.").format(when=when, share=percent(b.value, lang),
                                                           other=percent(a.value, lang), **names)]
    for style in (weak, strong):
        mode = _most_often(style)
        if mode is None or (told is not None and mode == said):
            continue
        share = percent(dict(style.hero_rounds)[mode] / style.hero_kept.trials, lang)
        level = level_name(style.level, lang)
        parts.append(tr.gettext("At the {level} level the hero is most often kept to the end ({share}).").format(
            level=level, share=share) if mode == 0 else
            tr.gettext("At the {level} level the hero is most often first played in round {round} ({share}).").format(
            level=level, round=mode, share=share))
    return " ".join(parts)


def _most_often(style: LevelStyle) -> int | None:
    """The round the hero is most often first played (0: kept), where its interval clears every other's."""
    sides = style.hero_kept.trials
    ranked = sorted(style.hero_rounds, key=lambda kv: -kv[1])
    if not sides or not ranked:
        return None
    top = Share(ranked[0][1], sides).interval
    if len(ranked) > 1 and not separated(top, Share(ranked[1][1], sides).interval):
        return None
    return ranked[0][0]


def _bluff_sentence(weak: LevelStyle, strong: LevelStyle, lang: str | None) -> str | None:
    tr = translator(lang)
    if not weak.openings or not strong.openings:
        return None
    names = _names(weak, strong, lang)
    if _compared(weak.bluffs, strong.bluffs):
        return tr.gettext("At the {strong} level about {share} of openings are bluffs (one low card that may pass "
                          "for the hero); at the {weak} level about {other}.").format(
            share=percent(strong.bluffs.value, lang), other=percent(weak.bluffs.value, lang), **names)
    return tr.gettext("The {weak} and {strong} levels bluff about as often (about {share} of openings): their intervals "
                      "(95%) overlap.").format(share=percent(strong.bluffs.value, lang), **names)


def _size_sentence(weak: LevelStyle, strong: LevelStyle, lang: str | None) -> str | None:
    tr = translator(lang)
    a, b = weak.opening_mean, strong.opening_mean
    if a.value is None or b.value is None:
        return None
    names = _names(weak, strong, lang)
    shown = {"cards": _decimal(b.value, lang), "other": _decimal(a.value, lang)}
    if separated((a.low or a.value, a.high or a.value), (b.low or b.value, b.high or b.value)):
        return tr.gettext("At the {strong} level an opening puts about {cards} cards at its castle; at the {weak} "
                          "level about {other}.").format(**shown, **names)
    return tr.gettext("The {weak} and {strong} levels open with about as many cards ({cards} and {other}).").format(
        **shown, **names)


def _share_sentence(weak: Share, strong: Share, names: dict[str, str], differ: str, alike: str,
                    lang: str | None) -> str | None:
    """``differ`` (with each level's share) where the two levels' intervals are apart, else ``alike``; None
    where either level met no such decision."""
    if not weak.trials or not strong.trials:
        return None
    if _compared(weak, strong):
        return differ.format(share=percent(strong.value, lang), other=percent(weak.value, lang), **names)
    return alike.format(**names)


def _stake_sentence(weak: LevelStyle, strong: LevelStyle, lang: str | None) -> str | None:
    tr = translator(lang)
    return _share_sentence(
        weak.top_stake, strong.top_stake, _names(weak, strong, lang),
        tr.gettext("At the {strong} level about {share} of openings go to the castle with the most at stake; at the "
                   "{weak} level about {other}."),
        tr.gettext("The {weak} and {strong} levels open at the castle with the most at stake about as often: their "
                   "intervals (95%) overlap."), lang)


def _concede_sentence(weak: LevelStyle, strong: LevelStyle, lang: str | None) -> str | None:
    tr = translator(lang)
    return _share_sentence(
        weak.conceded, strong.conceded, _names(weak, strong, lang),
        tr.gettext("At the {strong} level defenders concede about {share} of their defences; at the {weak} level "
                   "about {other}."),
        tr.gettext("The {weak} and {strong} levels concede about as many defences: their intervals (95%) overlap."),
        lang)


# ---------------------------------------------------------------------- playing the games
class _Recorder(Hooks):
    """Writes every event of an engine game into a record (as the engine's own recorder does)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record

    def decision(self, p: Position, side: int, move: Move) -> None:
        self.record.events.append(Event(p.to_play, side, move=move))

    def chance(self, p: Position, draw: Draw) -> None:
        self.record.events.append(Event(p.to_play, None, draw=draw))


def style_cost(levels: Sequence[str], games: int, rule_sets: Sequence[Rules],
               fast: bool = True) -> list[tuple[str, int, float]]:
    """Each level's games under all ``rule_sets`` and their rough seconds on one core (playing them from each
    rule set's deal, by who plays them there, and reading their decisions; ``fast=False``: the engine plays them)."""
    starts = [Position.start(rules) for rules in rule_sets]
    return [(level, games * len(starts), sum((plan(start, (level, level), "sample", games=games, fast=fast).cost or 0.0)
                                             + games * SECONDS_TO_READ for start in starts))
            for level in levels]


def level_records(start: Position, level: str, games: int, seed: int,
                  on_game: Callable[[int], "bool | None"] | None = None, fast: bool = True) -> Iterator[GameRecord]:
    """The level's ``games`` games against itself as engine records, in order: game ``i`` of batch ``seed``.
    ``on_game(done)`` after each (and, for the engine's games, within a game) cancels by returning False;
    ``fast=False``: the engine plays them (as while the fast simulator compiles)."""
    if fast and capabilities(start, (level, level)).compiled:
        sides = compiled_sides((level, level), start.rules)  # strong: the weights for these rules
        for i in range(games):
            if on_game is not None and on_game(i) is False:
                raise Cancelled()
            yield traced_game(start, seed, i, sides)[0]
        return
    def asked_to_stop(done: int) -> Callable[[], bool]:
        return lambda: on_game is not None and on_game(done) is False

    for i in range(games):
        signal = Throttled(asked_to_stop(i))
        spec = PolicySpec.parse(level)
        policies = (Stoppable(spec.policy(), signal), Stoppable(spec.policy(), signal))
        record = GameRecord(start)
        play(start, game_rng(seed, i), policies, (_Recorder(record),))
        yield record


def play_style(rules: Rules, levels: Sequence[str] = STYLE_LEVELS, games: int = 400, seed: int = 0,
               on_games: OnGames | None = None, fast: bool = True) -> PlayStyle:
    """How each of ``levels`` (weakest first; each a level :class:`~..policies.spec.PolicySpec` reads) plays ``rules`` from the deal,
    against itself, over ``games`` seeded games a level.  ``on_games(done, total)`` counts the run's games and
    cancels it by returning False (:class:`Cancelled`); a ValueError names an unknown level.  ``fast=False``: the
    engine plays every game (:func:`level_records`)."""
    for level in levels:
        PolicySpec.parse(level).policy()
    if games < 1:
        raise ValueError("games must be at least 1")
    start = Position.start(rules)
    total = games * len(levels)
    out = []
    for n, level in enumerate(levels):
        counts = _Counts()
        tick = None
        if on_games is not None:
            def tick(done: int, before: int = n * games) -> bool | None:
                return on_games(before + done, total)
        for record in level_records(start, level, games, seed, tick, fast):
            counts.add(record)
        if on_games is not None and on_games((n + 1) * games, total) is False:
            raise Cancelled()
        played_by = "compiled" if fast and capabilities(start, (level, level)).compiled else "engine"
        out.append(LevelStyle.from_counts(level, games, played_by, counts, len(start.castles)))
    return PlayStyle(str(rules), games, seed, tuple(out))


def play_styles(rule_sets: Sequence[Rules], levels: Sequence[str] = STYLE_LEVELS, games: int = 400, seed: int = 0,
                on_games: OnGames | None = None, force: bool = False, fast: bool = True) -> list[PlayStyle]:
    """:func:`play_style` for several rule sets side by side, one count of games over them all; refused
    (:class:`.limits.TooLong`) where their cost (:func:`style_cost`) is past :data:`.limits.RUN_SECONDS`, unless
    ``force``; ``fast=False``: the engine plays every game."""
    total = games * len(levels) * len(rule_sets)
    check_duration(sum(seconds for _level, _n, seconds in style_cost(levels, games, rule_sets)),
                   ngettext("{count} game", "{count} games", total).format(count=plain_count(total)), force)
    out = []
    for n, rules in enumerate(rule_sets):
        step = None
        if on_games is not None:
            def step(done: int, of: int, before: int = n * games * len(levels)) -> bool | None:
                return on_games(before + done, total)
        out.append(play_style(rules, levels, games, seed, step, fast))
    return out
