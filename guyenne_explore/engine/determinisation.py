"""Determinisations: full positions drawn from what one side knows (OpenSpiel's resample).

A searching side cannot see the other side's hand, deck order and face-down
cards, nor its own deck order, a team partner's hand or the cards that partner placed
face down this round.  A determinisation
deals those hidden cards at random into their zones, consistently with every
public fact of the view and its :class:`~guyenne_explore.engine.view.PublicRecord`:
every zone keeps its size, the cards a side showed and that lie in its discard
stay there, its removed and face-up cards stay where they are, its hero goes
only where the record says it can be (in round 1, always the hand or the cards
placed face down this round), and after a reshuffle (:class:`~guyenne_explore.engine.view.Reshuffle`)
the shown cards it put into the deck are still in the deck or among the cards
drawn since: those out of the deck number at most the cards drawn since, and
those in a hand at most the hand's cards drawn since; the rest may have been
played (face down, or shown and so already in sight).

How a deal is drawn, and where it differs from the true posterior:

- Which known reshuffled cards were drawn follows the draws' own law: the cards
  drawn since are a uniformly random subset of the reshuffled deck, so the number
  of known cards among them is hypergeometric, conditioned on what the position
  still allows (the zones' cards, the hands' room for drawn cards, the hero's
  places).  A known card of a kind also shown since the reshuffle is taken to be
  that shown card first, which asks the least of the hidden zones.
- The known cards left in the deck go there; the drawn ones still hidden are
  dealt uniformly over the places that may hold a drawn card; every other hidden
  card is dealt uniformly over the places left (the hero only where it may be).
- The true posterior also weighs how likely each hand made the moves it made
  (a policy's bets tell about its hand), what the face-down part of the
  reshuffled discard was, and the facts of reshuffles before the last one,
  which the record forgets.  A determinisation weighs none of these.

A record that does not fit the position (a hand-built or stacked position, a
record from another game) cannot be honoured; its reshuffle facts are then
ignored, and a hero with no place the record allows goes anywhere hidden.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from functools import lru_cache
from itertools import product
from math import comb

from .cards import EMPTY, HERO, KINDS, Cards
from .position import Placed, Position, Side
from .view import DECK, DISCARD, HAND, Reshuffle, SideView


def _counts(kinds: list[int]) -> Cards:
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    return Cards(counts)


def _minus(a: Cards, b: Cards) -> Cards:
    """``a`` less ``b``, kind by kind, never below zero."""
    return a - b if b.issubset(a) else Cards(max(0, x - y) for x, y in zip(a, b))


def _pick_zone(free: list[int], zones: list[int], rng: random.Random) -> int:
    """A zone among ``zones``, in proportion to its free places (all have some)."""
    pick = rng.randrange(sum(free[z] for z in zones))
    for z in zones:
        if pick < free[z]:
            return z
        pick -= free[z]
    raise AssertionError("unreachable")


def deal_hidden(pool: Cards, slots: list[int], hero_slots: list[int], rng: random.Random) -> list[Cards]:
    """Deal ``pool`` into zones of ``slots[i]`` cards, the hero (if in the pool) only into one
    of the zones listed in ``hero_slots`` (chosen in proportion to their free places)."""
    if pool.size != sum(slots):
        raise ValueError(f"{pool.size} hidden cards for {sum(slots)} hidden places: the record "
                         "does not fit this position")
    free = list(slots)
    out: list[list[int]] = [[] for _ in slots]
    _deal_free(pool, free, out, hero_slots, rng)
    return [_counts(kinds) for kinds in out]


def _deal_free(pool: Cards, free: list[int], out: list[list[int]], hero_slots: list[int],
               rng: random.Random) -> None:
    """Deal ``pool`` uniformly over the ``free`` places left (filling them), the hero first."""
    rest = list(pool.kinds())
    if pool[HERO]:
        places = [z for z in hero_slots if free[z] > 0]
        if not places:  # a hand-built position that contradicts the record: anywhere hidden
            places = [z for z in range(len(free)) if free[z] > 0]
        z = _pick_zone(free, places, rng)
        out[z].append(HERO)
        free[z] -= 1
        rest.remove(HERO)
    rng.shuffle(rest)
    start = 0
    for z, n in enumerate(free):
        out[z].extend(rest[start:start + n])
        start += n


@lru_cache(maxsize=4096)
def _drawn_known(known: Cards, seen: Cards, pool: Cards, drawn: int, unknown: int, room: int,
                 hero_room: bool) -> tuple[tuple[Cards, ...], tuple[int, ...]]:
    """Each multiset of ``known`` reshuffled cards that may be among the ``drawn`` cards, with its
    weight under the draws' law (``drawn`` of the ``known.size + unknown`` reshuffled cards,
    uniformly) as running totals, for a draw by bisection.  A multiset is kept only when the
    position allows it: the known cards left in the deck and the drawn ones not ``seen`` since
    are all hidden (in ``pool``), and the latter fit the ``room`` of the places that may hold a
    drawn card (``hero_room``: one of them may hold the hero)."""
    present = [k for k in range(KINDS) if known[k]]
    choices: list[Cards] = []
    weights: list[int] = []
    for pick in product(*(range(known[k] + 1) for k in present)):
        rest = drawn - sum(pick)
        if rest < 0 or rest > unknown:
            continue
        counts = [0] * KINDS
        for k, c in zip(present, pick):
            counts[k] = c
        taken = Cards(counts)
        hidden = _minus(taken, seen)
        if not (known - taken + hidden).issubset(pool) or hidden.size > room:
            continue
        if hidden[HERO] and not hero_room:
            continue
        weight = comb(unknown, rest)
        for k, c in zip(present, pick):
            weight *= comb(known[k], c)
        choices.append(taken)
        weights.append(weight + (weights[-1] if weights else 0))
    return tuple(choices), tuple(weights)


def _deal_after_reshuffle(pool: Cards, slots: list[int], deck: int, room: list[int], hero_slots: list[int],
                          fact: Reshuffle, seen: Cards, rng: random.Random) -> list[Cards] | None:
    """Deal ``pool`` into ``slots`` keeping a reshuffle's facts (see the module docstring):
    zone ``deck`` is the deck, ``room[z]`` how many drawn cards zone ``z`` may hold, ``seen``
    the side's cards in sight that may have been drawn since.  None when the facts do not fit."""
    if pool.size != sum(slots):
        return None
    unknown = slots[deck] + fact.drawn - fact.known.size  # the face-down part of the reshuffled discard
    if unknown < 0:
        return None
    room = [min(r, s) for r, s in zip(room, slots)]
    hero_room = any(room[z] for z in hero_slots)
    choices, weights = _drawn_known(fact.known, seen, pool, fact.drawn, unknown, sum(room), hero_room)
    if not choices:
        return None
    taken = choices[bisect_right(weights, rng.randrange(weights[-1]))]
    in_deck = fact.known - taken
    hidden = _minus(taken, seen)
    free = list(slots)
    out: list[list[int]] = [[] for _ in slots]
    out[deck].extend(in_deck.kinds())
    free[deck] -= in_deck.size
    left = list(hidden.kinds())
    if hidden[HERO]:
        z = _pick_zone(room, [z for z in hero_slots if room[z]], rng)
        out[z].append(HERO)
        room[z] -= 1
        free[z] -= 1
        left.remove(HERO)
    places = [z for z, r in enumerate(room) for _ in range(r)]
    for k, z in zip(left, rng.sample(places, len(left))):
        out[z].append(k)
        free[z] -= 1
    _deal_free(pool - in_deck - hidden, free, out, hero_slots, rng)
    return [_counts(kinds) for kinds in out]


def _deal(pool: Cards, slots: list[int], deck: int, room: list[int], hero_slots: list[int],
          fact: Reshuffle | None, seen: Cards, rng: random.Random) -> list[Cards]:
    """The deal of one side's hidden cards: with its reshuffle's facts when they fit, else as
    without them."""
    if fact is not None and fact.known.size:  # no known card reshuffled: nothing to keep
        parts = _deal_after_reshuffle(pool, slots, deck, room, hero_slots, fact, seen, rng)
        if parts is not None:
            return parts
    return deal_hidden(pool, slots, hero_slots, rng)


def determinise(view: SideView, rng: random.Random) -> Position:
    """A full position consistent with everything ``view`` shows and remembers."""
    me, other = view.side, 1 - view.side
    opp, record = view.opponent, view.record
    shown = view.opponent_shown_discard
    hidden_at = [view.opponent_placed[b] is None for b in (0, 1)]
    nh = len(opp.hand_sizes)
    # zones: hands..., deck, face-down discard, face-down at X, face-down at Y
    slots = list(opp.hand_sizes) + [opp.deck_size, view.opponent_face_down_discard] + \
        [view.opponent_placed_sizes[b] if hidden_at[b] else 0 for b in (0, 1)]
    hero_slots: list[int] = []
    if record.hero_may_be(other, HAND):
        hero_slots += list(range(nh)) + [nh + 2, nh + 3]
    if record.hero_may_be(other, DECK):
        hero_slots.append(nh)
    if record.hero_may_be(other, DISCARD):
        hero_slots.append(nh + 1)
    fact = record.reshuffles[other]
    if fact is not None and len(fact.fresh) != nh:
        fact = None
    # a drawn card may be in a hand (as many as it drew), played face down, or played face up
    room = list(fact.fresh) + [0] + slots[nh + 1:] if fact is not None else []
    face_up = sum((c for c in view.opponent_placed if c is not None), EMPTY)
    seen = shown + face_up + (_minus(opp.removed, fact.removed) if fact is not None else EMPTY)
    parts = _deal(view.opponent_hidden, slots, nh, room, hero_slots, fact, seen, rng)
    opp_placed = [parts[nh + 2 + b] if hidden_at[b] else view.opponent_placed[b] for b in (0, 1)]
    drawer, order = view.roles(other)
    opp_side = Side(tuple(parts[:nh]), parts[nh], parts[nh + 1] + shown, opp.removed, opp.exhaustions,
                    None, drawer, order)
    my_drawer, my_order = view.roles(me)
    own_placed = view.own_placed
    if view.partner_hand_size is None:
        hands: tuple[Cards, ...] = (view.hand,)
        deck = view.own_unseen
    else:
        partner = 1 - view.member
        own = record.reshuffles[me]
        if own is not None and len(own.fresh) != 2:
            own = None
        # the member's own hand, discard, removed and placed cards are in its sight
        mine = view.hand + view.discard + view.own_placed[0] + view.own_placed[1] + \
            (_minus(view.removed, own.removed) if own is not None else EMPTY)
        # its own discard is in its sight: its hero, if hidden, is in its partner's hand or the deck
        own_hero = [z for z, zone in enumerate((HAND, DECK)) if record.hero_may_be(me, zone)]
        # the partner's face-down cards of the round came from its hand: dealt with it (any of them may
        # have been drawn since a reshuffle, as the hand's own), then as many of them, drawn uniformly,
        # go down where it placed
        down = sum(view.partner_face_down)
        partner_hand, deck = _deal(view.own_unseen, [view.partner_hand_size + down, view.deck_size], 1,
                                   [own.fresh[partner] + down, 0] if own is not None else [], own_hero, own, mine,
                                   rng)
        if down:
            put = _counts(rng.sample(list(partner_hand.kinds()), down))
            partner_hand = partner_hand - put
            b = 0 if view.partner_face_down[0] else 1
            own_placed = (put, own_placed[1]) if b == 0 else (own_placed[0], put)
        hands = (view.hand, partner_hand) if view.member == 0 else (partner_hand, view.hand)
    my_side = Side(hands, deck, view.discard, view.removed, view.exhaustions, None, my_drawer, my_order)
    sides = (my_side, opp_side) if me == 0 else (opp_side, my_side)
    theirs = (opp_placed[0] or EMPTY, opp_placed[1] or EMPTY)
    cards = ((own_placed[0], own_placed[1]), theirs) if me == 0 else (theirs, (own_placed[0], own_placed[1]))
    placed = Placed(view.x, view.y, cards) if (view.x is not None or any(c.size for r in cards for c in r)) \
        else Placed()
    return Position(view.rules, view.castles, view.round, view.first, view.to_play, sides, placed, view.battle)
