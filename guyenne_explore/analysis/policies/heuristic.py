"""A heuristic policy that plays like a reasonable person, from its own view only, by the rules in force.

Each legal move gets a score: what the castle at stake is worth times a
guessed chance of winning it, minus what the cards cost (spent now, and removed
for good where the rules remove them).  Every rule it needs comes from the
engine, never from a constant of its own:

- what a castle is worth is the engine's scoring of the table with the castle
  won against the table with it lost (so 2021 or 2022 scoring, runs on a line
  or a ring, the sweep and the tie-break on unspent cards all count);
- what a battle removes is asked of the engine by playing the battle out on a
  small table (so ``advanced``, ``classic2021``, the neutral loser's choice and
  no removal at all are each what the engine does);
- the strength of cards the opponent has not shown is guessed from the cards it
  has not shown (so ``card_counts`` and the hero option count);
- battles are won as the engine's :func:`~guyenne_explore.engine.flow.battle_winner` says.

Its moves are *mixed*: a move's probability grows with its score (a softmax at
:data:`TEMPERATURE`, in whole-number weights so that the distribution is exact),
and at an opening it bluffs at :data:`BLUFF_RATE`: half of that it opens with one
weak card, the size of a hero opening, and half it hides the hero with a weak card.  So the size of
its bets no longer tells its hand.  It keeps no memory (a view's record is not
read), so it is the same policy in exact enumeration, where positions reached by
different histories are merged, as in sampled games.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ...engine import (CONCEDE_CHOICE, EMPTY, ENGLISH, FRENCH, HERO, NEUTRAL, OPEN_FIRST, OPEN_SECOND,
                          REMOVE_CHOICE, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT, Cards, Move,
                          Placed, Position, Rules, Side, SideView, battle_of, battle_winner, concede_move,
                          side_score, table_result, value_of)
from ..compiled.policy_codes import (HEURISTIC, N_HEURISTIC, P_BLUFF_DEN, P_BLUFF_NUM, P_HERO_USE, P_REMOVAL, P_RESOLUTION,
                                     P_SPEND, P_TEMPERATURE, P_WIN_WEIGHT, SidePolicy)

#: how much a castle's swing in the final outcome (win 1, draw 1/2) weighs against its swing in points
WIN_WEIGHT = 3.0
#: the share of a card's worth lost by spending it (it goes to the discard, back only after a reshuffle)
SPEND = 0.25
#: the share of a removed card's worth that counts against a move (the game rarely lasts long
#: enough for every card to matter again)
REMOVAL = 0.3
#: the softmax temperature over move scores: lower plays the best move more often
TEMPERATURE = 0.1
#: how often an opening is a bluff (one weak card, or the hero hidden among others)
BLUFF_RATE = Fraction(1, 8)
#: whole-number resolution of the move weights (the distribution is exact in these units)
RESOLUTION = 1000
#: the hero's worth as a resource, in strongest valued cards
HERO_WORTH = 2.0
#: the guessed chance that an opponent still holding its hero plays it at a given battle
HERO_USE = 0.3


# ---------------------------------------------------------------------- what the rules give
@lru_cache(maxsize=1 << 10)
def card_worth(rules: Rules, kind: int) -> float:
    """A card's worth in value points: its face value; the hero, which beats any sum but is one
    card, :data:`HERO_WORTH` of the strongest valued card."""
    if kind == HERO:
        top = max(k for k in range(HERO) if rules.valued[k])
        return HERO_WORTH * value_of(top)
    return float(value_of(kind))


@lru_cache(maxsize=1 << 16)
def worth(rules: Rules, cards: Cards) -> float:
    return sum(card_worth(rules, k) for k in cards.kinds())


def _utility(castles: tuple[int, ...], me: int, rules: Rules, unspent: tuple[int, int]) -> float:
    r = table_result(castles, unspent[0], unspent[1], rules)
    margin = (r.english - r.french) * (1 if me == ENGLISH else -1)
    return margin + WIN_WEIGHT * side_score(r.winner, me)


@lru_cache(maxsize=1 << 16)
def castle_stake(castles: tuple[int, ...], castle: int, me: int, rules: Rules, unspent: tuple[int, int]) -> float:
    """What winning ``castle`` is worth to ``me`` against losing it, by the engine's scoring of both tables."""
    won = castles[:castle] + (me,) + castles[castle + 1:]
    lost = castles[:castle] + (1 - me,) + castles[castle + 1:]
    return _utility(won, me, rules, unspent) - _utility(lost, me, rules, unspent)


@lru_cache(maxsize=1 << 16)
def removal_loss(rules: Rules, control: int, cards: Cards, won: bool) -> float:
    """The worth of the cards the engine removes from ``cards`` (placed by english at a castle of
    ``control``) when english wins or loses that battle; the neutral loser removes what costs least."""
    weakest = next(k for k in range(HERO) if rules.valued[k])
    w = EMPTY.add_kind(weakest, 1)
    if won:
        theirs = EMPTY
    else:
        theirs = EMPTY.add_kind(HERO, 1) if rules.hero else cards.add_kind(weakest, 1)
        if cards[HERO] or battle_winner(control, cards, theirs) != FRENCH:
            return 0.0
    castles = (control,) + (NEUTRAL,) * (rules.castles - 1)
    hands = (Side((cards + w,)), Side((theirs + w + w,)))  # hands that hold what the table needs
    placed = Placed(0, 1, ((cards, w), (theirs, EMPTY)))
    p = Position(rules, castles, 1, FRENCH, RESPOND_SECOND, (hands[0], hands[1]), placed)
    p = p.apply(Move(cards=w))
    if p.to_play == CONCEDE_CHOICE:  # (concede_as_decision) the built-in rule, which every policy plays
        defender = p.side_to_play
        assert defender is not None
        p = p.apply(concede_move(p.view(defender)))
    if p.to_play == REMOVE_CHOICE and p.side_to_play == ENGLISH:  # (french's own choice removes nothing of ours)
        p = p.apply(min(p.legal_moves, key=lambda m: worth(rules, m.cards)))
    return worth(rules, p.sides[ENGLISH].removed)


# ---------------------------------------------------------------------- guesses
def _pool_stats(view: SideView) -> tuple[float, float, bool]:
    """Mean and spread of the opponent's unseen valued cards, and whether it may hold its hero."""
    hidden = view.opponent.unseen
    values = [value_of(k) for k in hidden.kinds() if k != HERO]
    if not values:
        return 0.0, 1.0, bool(hidden[HERO])
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    return mean, max(1.0, math.sqrt(var)), bool(hidden[HERO])


class Facts(NamedTuple):
    """What every move's score reads of a view, worked out once per view rather than once per move
    (an opening at 20 castles has over a thousand moves): the opponent's unseen cards
    (:func:`_pool_stats`), the unspent cards of english and french, the opponent's placed cards."""

    pool: tuple[float, float, bool]
    unspent: tuple[int, int]
    opponent_placed: tuple[Cards | None, Cards | None]
    opponent_placed_sizes: tuple[int, int]


def facts(view: SideView) -> Facts:
    return Facts(_pool_stats(view), view.unspent, view.opponent_placed, view.opponent_placed_sizes)


def win_chance(view: SideView, mine: Cards, battle: int, control: int, known: Facts | None = None) -> float:
    """A guess of the chance that ``mine`` wins the battle (a tie counts as a win for a defender).
    ``known``: the view's :func:`facts`, when the caller has them."""
    known = known or facts(view)
    me = view.side
    shown = known.opponent_placed[battle]
    if shown is not None and shown.size:
        pair = (mine, shown) if me == ENGLISH else (shown, mine)
        w = battle_winner(control, *pair)
        return 1.0 if w == me or (w is None and control == me) else 0.0
    mean, spread, hero = known.pool
    count = known.opponent_placed_sizes[battle]
    hero_here = HERO_USE if hero else 0.0
    if count:  # placed face down: one of them may be the hero
        hero_here = min(1.0, hero_here * count) if hero else 0.0
    else:
        count = 2  # not placed yet: a typical answer
    if mine[HERO]:
        return 1.0 - (0.0 if control == me else hero_here)
    edge = mine.total - count * mean + (0.5 if control == me else -0.5 if control != NEUTRAL else 0.0)
    return (1.0 - hero_here) / (1.0 + math.exp(-edge / (spread * math.sqrt(count))))


def score(view: SideView, move: Move, known: Facts | None = None) -> float:
    """How good a move looks to this side (higher is better).  ``known``: the view's :func:`facts`."""
    rules, point = view.rules, view.to_play
    if point == REMOVE_CHOICE:  # lose as little as the rule allows
        return -(worth(rules, move.cards) + 0.1 * move.cards.size)
    if point == SETUP_DISCARD:  # set the weakest cards aside
        return -worth(rules, move.cards)
    if point == TEAM_SPLIT:  # share evenly: both members must place
        return -abs((view.hand.size - move.cards.size) - move.cards.size) - 0.01 * worth(rules, move.cards)
    if point == TEAM_ORDER:  # the partner opens; the drawer, who knows its own hand, answers later
        return 0.0 if move.first_member == view.member else 0.1
    t = battle_terms(view, move, known or facts(view))
    return t.stake * t.chance - SPEND * worth(rules, move.cards) - REMOVAL * t.loss


class Terms(NamedTuple):
    """What a placement's score reads of its battle: the castle's stake, the guessed chance to win
    it, the castle's control for the side (ENGLISH its own, FRENCH the other's, or NEUTRAL) and the
    worth the battle is expected to remove."""

    battle: int
    stake: float
    chance: float
    rel: int
    loss: float


def battle_terms(view: SideView, move: Move, known: Facts) -> Terms:
    """:class:`Terms` of a placement: the one reading of a battle that every scoring policy shares
    (the heuristic's score and the learned policy's features)."""
    battle = battle_of(view.to_play)
    assert battle is not None
    castle = move.castle if move.castle is not None else (view.x, view.y)[battle]
    assert castle is not None
    me, control, rules = view.side, view.castles[castle], view.rules
    stake = castle_stake(view.castles, castle, me, rules, known.unspent)
    p = win_chance(view, move.cards, battle, control, known)
    rel = NEUTRAL if control == NEUTRAL else ENGLISH if control == me else FRENCH
    loss = p * removal_loss(rules, rel, move.cards, True) + (1 - p) * removal_loss(rules, rel, move.cards, False)
    return Terms(battle, stake, p, rel, loss)


def _bluffs(view: SideView, moves: list[Move]) -> list[list[int]]:
    """The bluffing openings, by kind: one weakest card (the size of a lone hero), and the hero hidden
    with one weakest card; each kind as the indexes of its moves (one a castle), empty kinds left out."""
    hand = view.hand
    weakest = next((k for k in range(HERO) if hand[k]), None)
    if weakest is None:
        return []
    lone = [i for i, m in enumerate(moves) if m.cards.size == 1 and m.cards[weakest]]
    hidden = [i for i, m in enumerate(moves) if m.cards.size == 2 and m.cards[HERO] and m.cards[weakest]]
    return [kind for kind in (lone, hidden) if kind]


class Heuristic:
    """Mixed play: a softmax over move scores, plus bluffed openings at a fixed rate.

    The distribution is exact (fractions of whole-number weights) and :meth:`choose`
    draws from exactly that distribution with one ``randrange`` of its total.
    """

    name = "heuristic"
    exact = True

    def __init__(self, temperature: float = TEMPERATURE, bluff_rate: Fraction = BLUFF_RATE):
        self.temperature = temperature
        self.bluff_rate = Fraction(bluff_rate)

    def weights(self, view: SideView) -> list[tuple[Move, int]]:
        """Each legal move with its whole-number weight (the move's probability is its share)."""
        moves = list(view.legal_moves)
        known = facts(view)  # once, not once a move
        scores = [score(view, m, known) for m in moves]
        top = max(scores)
        soft = [math.floor(RESOLUTION * math.exp((s - top) / self.temperature) + 0.5) for s in scores]
        if view.to_play in (OPEN_FIRST, OPEN_SECOND) and self.bluff_rate:
            kinds = _bluffs(view, moves)
            if kinds:
                # the bluff mass is shared equally by the kinds, and within a kind by its best-scoring
                # half (the first on ties); the rest of the mass is the softmax's.  In whole numbers:
                # every weight is scaled by q = kinds x picks of each kind.
                picks = [sorted(kind, key=lambda i: -scores[i])[:max(1, len(kind) // 2)] for kind in kinds]
                q = len(picks)
                for chosen in picks:
                    q *= len(chosen)
                num, den = self.bluff_rate.numerator, self.bluff_rate.denominator
                total = sum(soft)
                soft = [w * (den - num) * q for w in soft]
                for chosen in picks:
                    for i in chosen:
                        soft[i] += total * num * (q // (len(picks) * len(chosen)))
        return [(m, w) for m, w in zip(moves, soft) if w > 0]

    def ranked(self, view: SideView) -> list[Move]:
        """The moves it may play, likeliest first, ties in the engine's move order (a search's order of
        candidates; moves of no weight left out)."""
        return [m for m, _ in sorted(self.weights(view), key=lambda mw: -mw[1])]

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        if view.to_play == CONCEDE_CHOICE:
            return [(concede_move(view), Fraction(1))]
        weighted = self.weights(view)
        total = sum(w for _, w in weighted)
        return [(m, Fraction(w, total)) for m, w in weighted]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        weighted = self.weights(view)
        return pick(weighted, rng.randrange(sum(w for _, w in weighted)))

    def compiled(self, rules: Rules | None = None) -> SidePolicy:
        """This policy as the compiled game loop plays it: its numbers in the loop's layout
        (:mod:`..compiled.policy_codes`) and its worth of a card and of a removal, so that the Python policy
        and the compiled one keep one source of them.  The same under any ``rules`` (taken so that it
        can stand where the learned policy, which keeps weights a rule set, is asked: a search's model)."""
        numbers = [0.0] * N_HEURISTIC
        for i, value in ((P_TEMPERATURE, self.temperature), (P_RESOLUTION, RESOLUTION), (P_SPEND, SPEND),
                         (P_REMOVAL, REMOVAL), (P_WIN_WEIGHT, WIN_WEIGHT), (P_HERO_USE, HERO_USE),
                         (P_BLUFF_NUM, self.bluff_rate.numerator), (P_BLUFF_DEN, self.bluff_rate.denominator)):
            numbers[i] = float(value)
        return SidePolicy(HEURISTIC, tuple(numbers), card_worth, removal_loss)


def pick(weighted: list[tuple[Move, int]], index: int) -> Move:
    """The move whose share of the weights holds ``index`` (0 <= index < total), in move order: how
    both this policy and its compiled twin (:mod:`..compiled.heuristic_kernel`) turn one random number into a move."""
    for m, w in weighted:
        if index < w:
            return m
        index -= w
    raise ValueError("the index is beyond the total weight")
