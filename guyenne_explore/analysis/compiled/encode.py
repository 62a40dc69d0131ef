"""Engine positions as the fast simulator's arrays, and the cases the fast simulator does not cover.

The fast simulator plays games under the uniform policy from any point of a round, team sides and
the defender's concede choice included.  Whatever it does not model (stacked decks, other
policies) is named by :func:`unsupported`, and the analysis then uses the engine: the
answer is the same, only slower.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ...i18n import N_
from ...engine import (EMPTY, ENDINGS, HERO, KINDS, Cards, Position, PublicRecord, Rules, Side, ending,
                           points_rows, value_of)
from . import layout as kn
from .options import OptionTables, option_tables

#: keyed by the point as a position holds it (a ``Point`` equals and hashes as its string)
_PHASE: dict[str, int] = {point: code for code, point in enumerate(kn.POINTS)}
POINT_NAMES = dict(enumerate(kn.POINTS))
_REMOVAL = {"none": kn.REMOVAL_NONE, "advanced": kn.REMOVAL_ADVANCED, "classic2021": kn.REMOVAL_CLASSIC}


class Encoded(NamedTuple):
    """A position as arrays: zones[side, zone, kind], placed[side, battle, kind], castles, scalars.

    Kinds are those present in the game (``kinds`` lists their engine kinds, weakest first,
    ``values`` their values, 0 for the hero)."""

    kinds: list[int]
    values: np.ndarray
    zones: np.ndarray
    placed: np.ndarray
    castles: np.ndarray
    scalars: np.ndarray
    rules: np.ndarray
    max_rounds: int
    ways_width: int
    options: OptionTables
    #: the engine's castle points per table (:func:`~guyenne_explore.engine.scoring.points_rows`), or no rows
    points: np.ndarray


def unsupported(p: Position) -> str | None:
    """Why the compiled loop cannot play uniform games from ``p``, or None when it can (which levels it plays is
    :attr:`~..policies.spec.PolicySpec.compiles`; all of it for a position and its policies:
    :func:`..capabilities.capabilities`)."""
    if any(s.deck_order is not None for s in p.sides):
        return N_("stacked decks are played by the engine")
    return None


def rules_array(r: Rules, hero_kind: int) -> np.ndarray:
    a = np.zeros(kn.N_RULES, np.int64)
    a[kn.HAND_SIZE] = r.hand_size
    a[kn.N_CASTLES] = r.castles
    a[kn.MAX_AT] = r.max_at_castle
    a[kn.LIMIT] = r.exhaustion_limit
    a[kn.IMMEDIATE] = r.reshuffle == "immediate"
    a[kn.REMOVAL] = _REMOVAL[r.removal]
    a[kn.SCORING] = 0 if r.scoring == "2022" else 1
    a[kn.RING] = r.adjacency == "ring"
    a[kn.PRE_DISCARD] = r.pre_discard
    a[kn.HERO_KIND] = hero_kind
    for side in (0, 1):
        a[kn.TEAM + side] = r.team(side)
    a[kn.CONCEDE_AS_DECISION] = r.concede_as_decision
    return a


@lru_cache(maxsize=16)
def points_array(castles: int, scoring: str, ring: bool) -> np.ndarray:
    """The engine's castle points table as the kernel reads it (no rows past ``MAX_TABLED_CASTLES``).

    Read-only with or without rows: numba types a read-only array apart from a writable one, so
    an empty writable table made every rule set of more than ``MAX_TABLED_CASTLES`` castles a
    signature of its own, compiled again (a minute) instead of read from the cache."""
    if castles > kn.MAX_TABLED_CASTLES:
        table = np.zeros((0, 5), np.int64)
    else:
        table = np.array(points_rows(castles, scoring, ring), np.int64)
    table.setflags(write=False)
    return table


def side_zones(s: Side) -> tuple[Cards, Cards, Cards, Cards, Cards]:
    """A side's cards zone by zone in the loop's order (:data:`.layout.N_ZONES`): its hand (a team's both
    members' together), deck, discard, removed, and a team's member 1's own hand (empty for a lone side)."""
    return s.hand, s.deck, s.discard, s.removed, s.hands[1] if s.is_team else EMPTY


def encode(p: Position) -> Encoded:
    """The arrays of ``p`` (call :func:`unsupported` first)."""
    kinds = [k for k in range(KINDS) if p.cards_of(0)[k] or p.cards_of(1)[k]]
    values = np.array([0 if k == HERO else value_of(k) for k in kinds], np.int64)
    zones = np.zeros((2, kn.N_ZONES, len(kinds)), np.int64)
    placed = np.zeros((2, 2, len(kinds)), np.int64)
    scalars = np.full(kn.N_SCALARS, -1, np.int64)
    scalars[kn.SHOWN:] = 0  # (a position alone shows nothing of its discard: PublicRecord.assumed)
    for i, s in enumerate(p.sides):
        for z, cards in enumerate(side_zones(s)):
            zones[i, z] = [cards[k] for k in kinds]
        if s.is_team:
            scalars[kn.DRAWER + i] = s.drawer
            scalars[kn.ORDER + i] = -1 if s.order is None else s.order
        for b in (0, 1):
            placed[i, b] = [p.placed.at(i, b)[k] for k in kinds]
        scalars[kn.EXH + i] = s.exhaustions
    scalars[kn.PHASE] = _PHASE[p.to_play]
    scalars[kn.FIRST] = p.first
    scalars[kn.ROUND] = p.round
    scalars[kn.CASTLE_X] = -1 if p.placed.x is None else p.placed.x
    scalars[kn.CASTLE_Y] = -1 if p.placed.y is None else p.placed.y
    scalars[kn.BATTLE] = -1 if p.battle is None else p.battle
    ended = ending(p)
    if ended is not None:
        scalars[kn.ENDING] = ENDINGS.index(ended.reason)
    r = p.rules
    in_play = sum(p.cards_of(0)) + sum(p.cards_of(1))
    # every round spends at least two cards of a side's hand; a deck cycles at most L + 1 times
    max_rounds = (r.exhaustion_limit + 2) * max(in_play, 1) + 8
    width = max(r.hand_size, r.max_at_castle, r.pre_discard, *(s.hand.size for s in p.sides)) + 2
    hero = kinds.index(HERO) if HERO in kinds else -1
    largest = max(r.hand_size, *(s.hand.size for s in p.sides))
    caps = tuple(min(largest, max(p.cards_of(0)[k], p.cards_of(1)[k])) for k in kinds)
    return Encoded(kinds, values, zones, placed, np.array(p.castles, np.int64), scalars, rules_array(r, hero),
                   max_rounds, width, option_tables(tuple(kinds), caps, largest, r.max_at_castle),
                   points_array(r.castles, r.scoring, r.adjacency == "ring"))


def shown_cards(e: Encoded, record: PublicRecord) -> Encoded:
    """``e`` with the cards each side showed that ``record`` says lie face up in its discard (:data:`.layout.SHOWN`):
    a position alone shows none (:func:`encode`'s default, as ``PublicRecord.assumed``), a game's history may; what a
    search or a counter dealing worlds from a view gives its rollouts, so that a policy reads there the record it
    reads in the game (``record`` should be the history of ``e``'s position: a side's shown cards that do not fit it,
    more than its discard holds or cards it does not hold, are taken as none, as ``SideView.opponent_shown_discard``
    takes them)."""
    for s in (0, 1):
        shown = record.shown_discard[s]
        held = e.zones[s, kn.HAND] + e.zones[s, kn.DECK] + e.zones[s, kn.DISCARD] + e.placed[s].sum(axis=0)
        fits = (shown.size <= int(e.zones[s, kn.DISCARD].sum()) and shown.size == sum(shown[k] for k in e.kinds)
                and all(shown[k] <= held[i] for i, k in enumerate(e.kinds)))
        for i, k in enumerate(e.kinds):
            e.scalars[kn.SHOWN + s * KINDS + i] = shown[k] if fits else 0
    return e


def seed_u64(seed: int) -> np.uint64:
    """Any Python integer seed as the kernel's 64-bit seed (a hash, so nearby seeds are unrelated)."""
    digest = hashlib.blake2b(str(int(seed)).encode(), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "little"))
