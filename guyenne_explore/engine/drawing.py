"""Draws between rounds as chance outcomes with exact probabilities (RULES.md section 5).

Drawing k cards from a shuffled deck gives a uniformly random sub-multiset
(multivariate hypergeometric).  A draw that empties the deck takes all of it
and goes on in the reshuffled discard, so each side's draw has at most one
random segment, always the last: its total drawn multiset determines the next
state.  The same plan serves exact enumeration and seeded sampling.

A sampled game draws from :class:`Piles`: each side's deck in an order fixed when the deck is
formed (shuffled when the game starts, and again at each reshuffle) and drawn from the top, from a
chance stream of its own.  The order is hidden from every decision, so each draw is still the
uniformly random sub-multiset above; and the same stream gives the same cards in the same order
whatever the sides decide, until a reshuffle shuffles a discard that their decisions made different.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb
from typing import TYPE_CHECKING

from .cards import EMPTY, KINDS, SYMBOLS, Cards
from .scoring import EXHAUSTED, SWEEP, sweeper
from .state import DRAW, Draw, evolve
from .rules import Rules

if TYPE_CHECKING:  # pragma: no cover
    from .state import State
    from .state import Side


class NotDrawable(ValueError):
    """A multiset of cards that a side cannot draw at this point (no listed outcome gives it)."""


@dataclass(frozen=True)
class _DrawPlan:
    """A side's draw: cards drawn for sure, then ``random_count`` cards from ``random_source``."""

    fixed: Cards
    random_source: Cards
    random_count: int
    #: whether the random segment comes from a deck this draw formed by reshuffling the discard
    reshuffled: bool = False


def _cards_needed(side: "Side", rules: Rules) -> int:
    return max(0, rules.hand_size - side.hand.size)


def cannot_reshuffle_again(side: "Side", rules: Rules) -> bool:
    """Whether the side can never reshuffle again (RULES.md 5 step 3): it has exhausted its deck L
    times, or L-1 times with cards left in the deck (drawing that deck dry is its L-th exhaustion,
    after which it draws nothing more).  Its discard and removed cards are then out of the game for
    good, which is what lets the endgame solvers drop them."""
    limit = rules.exhaustion_limit
    return side.exhaustions >= limit or (side.exhaustions == limit - 1 and side.deck.size > 0)


def hand_size_after_draw(side: "Side", rules: Rules) -> int:
    """How many cards the side holds after its draw at the end of a round (RULES.md 5 step 3),
    whichever cards come: the draw's size is known before its cards.  Read from the engine's own
    walk of the draw (:func:`_run`), reshuffles and exhaustions included."""
    plan = _draw_plan(side, rules)
    return side.hand.size + plan.fixed.size + plan.random_count


def ending_without_reshuffle(castles: tuple[int, ...]) -> str:
    """How a game in which no side can reshuffle again (:func:`cannot_reshuffle_again`) ends when it
    stops on the final table ``castles``, as :func:`.scoring.ending` says it: a sweep when one side
    controls every castle (RULES.md 5 step 1), else a side holds at most one card after drawing
    (step 4), which such a side reaches only by drawing its deck dry for the last time: exhausted."""
    return SWEEP if sweeper(castles) is not None else EXHAUSTED


def _run(side: "Side", rules: Rules, chosen: Cards | None) -> tuple["Side", _DrawPlan]:
    """Walk the draw segment by segment (RULES.md 5.3 and the reshuffle option).

    With ``chosen`` None it stops at the random segment and returns the plan;
    given the total drawn multiset it returns the side after that draw.
    """
    need = _cards_needed(side, rules)
    deck, discard, exh, order = side.deck, side.discard, side.exhaustions, side.deck_order
    limit, immediate = rules.exhaustion_limit, rules.reshuffle == "immediate"
    fixed = EMPTY
    got = EMPTY
    plan: _DrawPlan | None = None
    reshuffled = False
    while need > 0:
        if deck.size == 0:
            if exh < limit and discard.size > 0:
                deck, discard, order, reshuffled = discard, EMPTY, None, True
            else:
                break
        take = min(need, deck.size)
        if order is not None:  # a stacked deck: the top cards, known
            part = Cards.of(SYMBOLS[k] for k in order[:take])
            order = order[take:] or None
            fixed += part
        elif take == deck.size:
            part = deck
            fixed += part
        else:  # the random segment: always the last one
            plan = _DrawPlan(fixed, deck, take, reshuffled)
            if chosen is None:
                break
            part = chosen - got if got.issubset(chosen) else EMPTY
            if part.size != take or not part.issubset(deck):
                raise NotDrawable(f"{chosen} cannot be drawn here")
        got += part
        deck -= part
        need -= take
        if deck.size == 0:
            if exh < limit:
                exh += 1
            if immediate and exh < limit and discard.size > 0:
                deck, discard, order, reshuffled = discard, EMPTY, None, True
    if chosen is not None and got != chosen:
        raise NotDrawable(f"{chosen} cannot be drawn here (the draw takes {got})")
    member = side.drawer if side.is_team else 0
    new = evolve(side.with_hand(member, side.hands[member] + got), deck=deck, discard=discard,
                  exhaustions=exh, deck_order=order, order=None)
    return new, plan or _DrawPlan(fixed, EMPTY, 0)


def _draw_plan(side: "Side", rules: Rules) -> _DrawPlan:
    return _run(side, rules, None)[1]


def draw_side(side: "Side", drawn: Cards, rules: Rules) -> "Side":
    """The side after drawing exactly ``drawn``; :class:`NotDrawable` when it is none of its possible draws."""
    return _run(side, rules, drawn)[0]


def side_outcomes(side: "Side", rules: Rules) -> list[tuple[Cards, Fraction]]:
    """Each multiset the side can draw, with its hypergeometric probability."""
    plan = _draw_plan(side, rules)
    if plan.random_count == 0:
        return [(plan.fixed, Fraction(1))]
    src, n = plan.random_source, plan.random_count
    total = comb(src.size, n)
    present = [k for k in range(KINDS) if src[k]]
    out = []
    for pick in product(*(range(min(src[k], n) + 1) for k in present)):
        if sum(pick) != n:
            continue
        ways = 1
        counts = [0] * KINDS
        for k, c in zip(present, pick):
            ways *= comb(src[k], c)
            counts[k] = c
        out.append((plan.fixed + Cards(counts), Fraction(ways, total)))
    return out


def side_draws(p: "State") -> tuple[list[tuple[Cards, Fraction]], list[tuple[Cards, Fraction]]]:
    """Each side's draws at this chance point with their probabilities (none where there is no draw).
    The two sides draw from their own decks, independently: a chance outcome is one draw of each, so a
    sampler can take them one side at a time instead of listing every pair (hundreds at the deal)."""
    if not p.is_chance:
        return [], []
    sides = _drawing_sides(p)
    return side_outcomes(sides[0], p.rules), side_outcomes(sides[1], p.rules)


def chance_outcomes(p: "State") -> list[tuple["Draw", Fraction]]:
    eng, fr = side_draws(p)
    return [(Draw(a, b), pa * pb) for a, pa in eng for b, pb in fr]


def sample_outcome(p: "State", rng: random.Random) -> "Draw":
    if not p.is_chance:
        raise ValueError(f"no chance outcome at {p.to_play}")
    drawn = []
    for s in _drawing_sides(p):
        plan = _draw_plan(s, p.rules)
        cards = plan.fixed
        if plan.random_count:
            pool = list(plan.random_source.kinds())
            counts = list(cards)
            for k in rng.sample(pool, plan.random_count):
                counts[k] += 1
            cards = Cards(counts)
        drawn.append(cards)
    return Draw(drawn[0], drawn[1])


def _counted(pile: tuple[int, ...]) -> Cards:
    """The multiset of cards of a pile (each card its kind and its copy's label, :meth:`Piles._shuffled`)."""
    counts = [0] * KINDS
    for card in pile:
        counts[card % KINDS] += 1
    return Cards(counts)


def _without(pile: tuple[int, ...], gone: Cards) -> tuple[int, ...]:
    """The pile less ``gone``, the copies of each kind with the highest labels: which copies go is fixed
    by labels the pile's order does not know (never by their places in it), so the cards left lie in a
    uniformly random order still, the order they had."""
    out = list(pile)
    for k in range(KINDS):
        for _ in range(gone[k]):
            out.remove(max(card for card in out if card % KINDS == k))
    return tuple(out)


@dataclass(frozen=True)
class Piles:
    """Both sides' draw piles of a sampled game, each in order, top card first: its chance, apart from
    the decisions.

    A side's pile is formed (its deck's cards, each copy of a kind labelled, shuffled from the stream
    ``(key, side, n)`` of its n-th forming) when the game starts (:meth:`formed`), and again whenever a
    draw reshuffles the discard into a new deck or finds the deck holding cards the pile does not; a draw
    takes the top cards.  Cards a decision takes from the deck (the expert setup's discards, RULES.md 2)
    leave the pile by their labels (:func:`_without`).  So two games with one key draw the same cards in
    the same order, whatever their decisions, as long as each side's n-th pile is formed from the same
    cards; the setup's different discards leave the other cards in the order they had.  A stacked deck
    (``deck_order``) keeps its known order; the pile orders only its shuffled cards.
    """

    key: int
    orders: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    formed: tuple[int, int] = (0, 0)

    @classmethod
    def seeded(cls, chance: random.Random) -> "Piles":
        """Piles not yet formed, their orders to come from ``chance``."""
        return cls(chance.getrandbits(64))

    def dealt(self, p: "State") -> "Piles":
        """The piles of each side's deck at ``p`` (a game's start)."""
        piles = self
        for index, side in enumerate(p.sides):
            if side.deck.size:
                piles = piles._new(index, side.deck)
        return piles

    def _new(self, index: int, cards: Cards) -> "Piles":
        """Side ``index``'s pile formed anew from ``cards``."""
        labelled = [copy * KINDS + k for k in range(KINDS) for copy in range(cards[k])]
        random.Random(f"{self.key}:{index}:{self.formed[index]}").shuffle(labelled)
        formed = (self.formed[0] + 1, self.formed[1]) if index == 0 else (self.formed[0], self.formed[1] + 1)
        return evolve(self._with(index, tuple(labelled)), formed=formed)

    def _draw_side(self, index: int, side: "Side", rules: Rules) -> tuple[Cards, "Piles"]:
        """The cards side ``index`` draws (the engine's walk of the draw, :func:`_run`) and the piles after."""
        plan = _draw_plan(side, rules)
        if plan.random_count == 0:  # nothing drawn, or whole decks and stacked cards: known cards
            return plan.fixed, self if plan.fixed.size == 0 else self._with(index, ())
        piles, held = self, _counted(self.orders[index])
        if plan.reshuffled or not plan.random_source.issubset(held):
            piles = self._new(index, plan.random_source)
        elif held != plan.random_source:  # cards a decision took from the deck
            piles = self._with(index, _without(self.orders[index], held - plan.random_source))
        pile = piles.orders[index]
        return (plan.fixed + _counted(pile[:plan.random_count]),
                piles._with(index, pile[plan.random_count:]))

    def _with(self, index: int, pile: tuple[int, ...]) -> "Piles":
        orders = (pile, self.orders[1]) if index == 0 else (self.orders[0], pile)
        return evolve(self, orders=orders)

    def draw(self, p: "State") -> tuple["Draw", "Piles"]:
        """The chance outcome at ``p`` drawn from the piles, and the piles after it."""
        if not p.is_chance:
            raise ValueError(f"no chance outcome at {p.to_play}")
        piles, drawn = self, []
        for index, side in enumerate(_drawing_sides(p)):
            cards, piles = piles._draw_side(index, side, p.rules)
            drawn.append(cards)
        return Draw(drawn[0], drawn[1]), piles


def _drawing_sides(p: "State") -> list["Side"]:
    """The sides as they draw: at the end of a round a team's other member becomes the drawer."""
    return [evolve(s, drawer=1 - s.drawer) if s.is_team and p.to_play == DRAW else s for s in p.sides]
