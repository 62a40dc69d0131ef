"""Determinisations: full positions drawn from what one side knows (OpenSpiel's resample).

A searching side cannot see the other side's hand, deck order and face-down
cards, nor its own deck order or a team partner's hand.  A determinisation
deals those hidden cards at random into their zones, consistently with every
public fact of the view and its :class:`~guyenne_explore.view.PublicRecord`:
the cards a side showed and that lie in its discard stay there, its removed and
face-up cards stay where they are, and its hero goes only where the record says
it can be (in round 1, always the hand or the cards placed face down this round).

Within those facts the hidden cards are dealt uniformly over the free slots.
The record does not keep which cards of a hand were drawn before a reshuffle
and which after it, so after a reshuffle the valued cards mix freely between
the hand and the deck; the hero's whereabouts, the shown discard and every zone
size are always kept.
"""

from __future__ import annotations

import random

from .cards import EMPTY, HERO, KINDS, Cards
from .position import Placed, Position, Side
from .view import DECK, DISCARD, HAND, SideView


def _counts(kinds: list[int]) -> Cards:
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    return Cards(counts)


def deal_hidden(pool: Cards, slots: list[int], hero_slots: list[int], rng: random.Random) -> list[Cards]:
    """Deal ``pool`` into zones of ``slots[i]`` cards, the hero (if in the pool) only into one
    of the zones listed in ``hero_slots`` (chosen in proportion to their free places)."""
    if pool.size != sum(slots):
        raise ValueError(f"{pool.size} hidden cards for {sum(slots)} hidden places: the record "
                         "does not fit this position")
    free = list(slots)
    out: list[list[int]] = [[] for _ in slots]
    rest = list(pool.kinds())
    if pool[HERO]:
        places = [z for z in hero_slots if free[z] > 0]
        if not places:  # a hand-built position that contradicts the record: anywhere hidden
            places = [z for z in range(len(slots)) if free[z] > 0]
        pick = rng.randrange(sum(free[z] for z in places))
        for z in places:
            if pick < free[z]:
                out[z].append(HERO)
                free[z] -= 1
                break
            pick -= free[z]
        rest.remove(HERO)
    rng.shuffle(rest)
    start = 0
    for z, n in enumerate(free):
        out[z].extend(rest[start:start + n])
        start += n
    return [_counts(kinds) for kinds in out]


def determinise(view: SideView, rng: random.Random) -> Position:
    """A full position consistent with everything ``view`` shows and remembers."""
    me, other = view.side, 1 - view.side
    opp, record = view.opponent, view.record
    shown = record.shown_discard[other]
    hidden_at = [view.opponent_placed[b] is None for b in (0, 1)]
    nh = len(opp.hand_sizes)
    # zones: hands..., deck, face-down discard, face-down at X, face-down at Y
    slots = list(opp.hand_sizes) + [opp.deck_size, opp.discard_size - shown.size] + \
        [view.opponent_placed_sizes[b] if hidden_at[b] else 0 for b in (0, 1)]
    hero_slots: list[int] = []
    if record.hero_may_be(other, HAND):
        hero_slots += list(range(nh)) + [nh + 2, nh + 3]
    if record.hero_may_be(other, DECK):
        hero_slots.append(nh)
    if record.hero_may_be(other, DISCARD):
        hero_slots.append(nh + 1)
    parts = deal_hidden(view.opponent_hidden, slots, hero_slots, rng)
    opp_placed = [parts[nh + 2 + b] if hidden_at[b] else view.opponent_placed[b] for b in (0, 1)]
    drawer, order = view.roles(other)
    opp_side = Side(tuple(parts[:nh]), parts[nh], parts[nh + 1] + shown, opp.removed, opp.exhaustions,
                    None, drawer, order)
    my_drawer, my_order = view.roles(me)
    if view.partner_hand_size is None:
        hands: tuple[Cards, ...] = (view.hand,)
        deck = view.own_unseen
    else:
        partner, deck = deal_hidden(view.own_unseen, [view.partner_hand_size, view.deck_size], [0, 1], rng)
        hands = (view.hand, partner) if view.member == 0 else (partner, view.hand)
    my_side = Side(hands, deck, view.discard, view.removed, view.exhaustions, None, my_drawer, my_order)
    sides = (my_side, opp_side) if me == 0 else (opp_side, my_side)
    own = view.own_placed
    theirs = (opp_placed[0] or EMPTY, opp_placed[1] or EMPTY)
    cards = ((own[0], own[1]), theirs) if me == 0 else (theirs, (own[0], own[1]))
    placed = Placed(view.x, view.y, cards) if (view.x is not None or any(c.size for r in cards for c in r)) \
        else Placed()
    return Position(view.rules, view.castles, view.round, view.first, view.to_play, sides, placed, view.battle)
