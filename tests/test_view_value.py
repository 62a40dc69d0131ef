"""A side's view is a value: what the side may see and nothing it may not.

Positions come from seeded uniform play under several rule sets; a second position is the first
with the opponent's hidden cards dealt otherwise (one card swapped between two of its hidden zones:
a hand, its shuffled deck, a battle's face-down cards).  The side cannot tell them apart, so its
views must be equal, hash equally and pickle to the same bytes, and no field of the view may lead
back to a position or a side's zones.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from guyenne_explore.engine import Position, Rules
from guyenne_explore.engine.cards import KINDS, Cards
from guyenne_explore.engine.state import Placed, Side, State, evolve, replace_side
from guyenne_explore.engine.view import SideView, revealed, side_view
from tests.conftest import uniform_step

RULE_SETS = [Rules.preset(n) for n in ("base", "advanced", "expert", "classic2021", "team", "team3")]


def play(rules: Rules, seed: int, steps: int) -> Position:
    """The position after up to ``steps`` seeded uniform steps from the start."""
    rng = random.Random(seed)
    p = Position.start(rules)
    for _ in range(steps):
        if p.is_over:
            break
        p = uniform_step(p, rng)
    return p


def hidden_zones(p: State, viewer: int) -> list[tuple[str, int]]:
    """The opponent's zones ``viewer`` sees only the size of: hands, a shuffled deck, face-down battles."""
    o = p.sides[1 - viewer]
    zones = [("hand", m) for m in range(len(o.hands))]
    if o.deck_order is None:
        zones.append(("deck", 0))
    zones += [("placed", b) for b in (0, 1) if not revealed(p, b, viewer)]
    return zones


def cards_at(p: State, side: int, zone: tuple[str, int]) -> Cards:
    kind, i = zone
    s = p.sides[side]
    return s.hands[i] if kind == "hand" else s.deck if kind == "deck" else p.placed.at(side, i)


def with_cards(p: State, side: int, zone: tuple[str, int], cards: Cards) -> State:
    kind, i = zone
    s: Side = p.sides[side]
    if kind == "hand":
        return evolve(p, sides=replace_side(p, side, s.with_hand(i, cards)))
    if kind == "deck":
        return evolve(p, sides=replace_side(p, side, evolve(s, deck=cards)))
    placed: Placed = p.placed.put(side, i, cards)
    return evolve(p, placed=placed)


def one_card(kind: int) -> Cards:
    return Cards(tuple(int(k == kind) for k in range(KINDS)))


def reshuffled_opponent(p: State, viewer: int, pick: st.DrawFn) -> State | None:
    """``p`` with one card of the opponent's swapped for another kind between two hidden zones."""
    o = 1 - viewer
    zones = hidden_zones(p, viewer)
    pairs = [(a, b, ka, kb) for a in zones for b in zones if a < b
             for ka in sorted(set(cards_at(p, o, a).kinds())) for kb in sorted(set(cards_at(p, o, b).kinds()))
             if ka != kb]
    if not pairs:
        return None
    a, b, ka, kb = pick(st.sampled_from(pairs))
    one_a, one_b = one_card(ka), one_card(kb)
    q = with_cards(p, o, a, cards_at(p, o, a) - one_a + one_b)
    return with_cards(q, o, b, cards_at(q, o, b) - one_b + one_a)


def reachable(value: object, seen: set[int] | None = None) -> list[object]:
    """Every value reachable from ``value`` through dataclass fields, tuples and sets."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += reachable(getattr(value, f.name), seen)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            found += reachable(item, seen)
    if hasattr(value, "__dict__") and not dataclasses.is_dataclass(value):
        for item in vars(value).values():
            found += reachable(item, seen)
    return found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULE_SETS), st.integers(0, 2**32 - 1), st.integers(0, 90), st.sampled_from([0, 1]),
       st.data())
def test_the_opponents_hidden_cards_do_not_change_a_sides_view(rules, seed, steps, viewer, data):
    p = play(rules, seed, steps)
    q = reshuffled_opponent(p, viewer, data.draw)
    assume(q is not None)
    assert q != p
    members = range(len(p.sides[viewer].hands))
    for member in members:
        seen_p, seen_q = side_view(p, viewer, member), side_view(q, viewer, member)
        assert seen_p == seen_q and hash(seen_p) == hash(seen_q)
        assert pickle.dumps(seen_p) == pickle.dumps(seen_q)
        assert list(seen_p.legal_moves) == list(seen_q.legal_moves)


def partner_hidden_zones(p: State, side: int, member: int) -> list[tuple[str, int]]:
    """A team member's own side's zones it sees only the size of: its partner's hand, the shuffled
    deck, and the battle where its partner placed face down while that battle is not shown."""
    s = p.sides[side]
    zones = [("hand", 1 - member)] + ([("deck", 0)] if s.deck_order is None else [])
    if s.order is not None:
        b = 0 if 1 - member == s.order else 1
        if not revealed(p, b, 1 - side):
            zones.append(("placed", b))
    return zones


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["team", "team3"]), st.integers(0, 2**32 - 1), st.integers(0, 60), st.data())
def test_a_partners_hidden_cards_do_not_change_a_members_view(preset, seed, steps, data):
    # RULES.md 8: members may not tell each other their cards, placed face down ("faces cachées")
    p = play(Rules.preset(preset), seed, steps)
    teams = [s for s in (0, 1) if p.sides[s].is_team]
    side, member = data.draw(st.sampled_from(teams)), data.draw(st.sampled_from([0, 1]))
    zones = partner_hidden_zones(p, side, member)
    pairs = [(a, b, ka, kb) for a in zones for b in zones if a < b
             for ka in sorted(set(cards_at(p, side, a).kinds())) for kb in sorted(set(cards_at(p, side, b).kinds()))
             if ka != kb]
    assume(pairs)
    a, b, ka, kb = data.draw(st.sampled_from(pairs))
    q = with_cards(p, side, a, cards_at(p, side, a) - one_card(ka) + one_card(kb))
    q = with_cards(q, side, b, cards_at(q, side, b) - one_card(kb) + one_card(ka))
    seen_p, seen_q = side_view(p, side, member), side_view(q, side, member)
    assert seen_p == seen_q and hash(seen_p) == hash(seen_q)
    assert list(seen_p.legal_moves) == list(seen_q.legal_moves)
    if "placed" in (a[0], b[0]):  # what it sees: its own placed cards, its partner's as a count
        assert sum(seen_p.partner_face_down) == p.placed.at(side, (a if a[0] == "placed" else b)[1]).size


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULE_SETS), st.integers(0, 2**32 - 1), st.integers(0, 90), st.sampled_from([0, 1]))
def test_a_view_holds_no_path_to_a_position_or_a_sides_zones(rules, seed, steps, viewer):
    p = play(rules, seed, steps)
    view = p.view(viewer)
    assert isinstance(view, SideView)
    assert len(list(view.legal_moves)) == len(view.legal_moves)  # its lazy facts worked out too
    assert view.opponent_hidden.size <= view.opponent.unseen.size
    leaks = [v for v in reachable(view) if isinstance(v, (State, Side, Placed))]
    assert not leaks, leaks
    assert dataclasses.is_dataclass(view) and view.__dataclass_params__.frozen
