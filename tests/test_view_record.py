"""What a side knows with its history: the public record, and determinisations drawn from it."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guyenne_explore.engine import Position
from guyenne_explore.engine.cards import EMPTY, HERO, Cards
from guyenne_explore.engine.determinisation import determinise
from guyenne_explore.engine.moves import Move
from guyenne_explore.engine.position import DRAW, Draw
from guyenne_explore.engine.record import play_game
from guyenne_explore.engine.validation import position_problems
from guyenne_explore.engine.view import DECK, DISCARD, HAND, PublicRecord, SideView, fold_record, side_view

from .conftest import position_path


def _history(preset: str, seed: int, **overrides):
    rules = preset if not overrides else {"preset": preset, **overrides}
    from guyenne_explore.engine.rules import Rules

    start = Position.start(Rules.from_json(rules))
    game = play_game(start, seed)
    return game.positions(), [e.move for e in game.events]


def _hero_zone(p: Position, side: int, record: PublicRecord) -> str | None:
    """Where the hero of ``side`` truly is, as a record zone (None: in sight or gone)."""
    s = p.sides[side]
    if s.hand[HERO] or any(p.placed.at(side, b)[HERO] for b in (0, 1)):
        placed_shown = any(p.placed.at(side, b)[HERO] and p.view(1 - side).opponent_placed[b] is not None
                           for b in (0, 1))
        return None if placed_shown else HAND
    if s.deck[HERO]:
        return DECK
    if s.discard[HERO]:
        return None if record.shown_discard[side][HERO] else DISCARD
    return None


@pytest.mark.parametrize("preset,overrides", [("advanced", {}), ("base", {}), ("classic2021", {}),
                                              ("expert", {}), ("team", {}), ("advanced", {"reshuffle": "immediate"}),
                                              ("advanced", {"concede_as_decision": True})])
def test_the_record_never_contradicts_the_game(preset, overrides):
    # every fact of the record holds in the real game at every step, through reshuffles and concessions
    for seed in range(4):
        positions, moves = _history(preset, seed, **overrides)
        record = PublicRecord.assumed(positions[0])
        for before, after, move in zip(positions, positions[1:], moves):
            record = record.after(before, after, move)
            for side in (0, 1):
                assert record.shown_discard[side].issubset(after.sides[side].discard)
                zone = _hero_zone(after, side, record)
                assert zone is None or record.hero_may_be(side, zone), (before.round, side, zone, record)
                assert _reshuffle_facts_hold(after, side, record), (before.round, side, record)


def test_a_hero_shown_in_battle_is_remembered_in_the_discard():
    p = Position.start("base")
    p = p.apply_outcome(Draw(Cards.parse("43222"), Cards.parse("53222")))
    history = [p]
    moves = [Move(Cards.parse("2"), castle=0), Move(Cards.parse("H")), Move(Cards.parse("2"), castle=1),
             Move(Cards.parse("2"))]
    for m in moves:
        history.append(history[-1].apply(m))
    assert history[-1].to_play == DRAW
    record = fold_record(history, moves)
    assert record.shown_discard == (Cards.parse("22"), Cards.parse("H2"))
    q = history[-1].apply_outcome(Draw(Cards.parse("22"), Cards.parse("22")))
    record = record.after(history[-1], q)
    view = side_view(q, 0, record=record)
    assert view.opponent_hidden[HERO] == 0  # english knows where the french hero is: not in hand
    assert view.opponent_face_down_discard == 0 and view.opponent.discard_size == 2
    rng = random.Random(3)
    for _ in range(200):
        d = determinise(view, rng)
        assert d.sides[1].discard[HERO] == 1 and d.sides[1].hand[HERO] == 0 and d.sides[1].deck[HERO] == 0
    # the same position without its history: the hero could be anywhere hidden
    blind = q.view(0)
    assert blind.opponent_hidden[HERO] == 1
    assert any(determinise(blind, rng).sides[1].hand[HERO] for _ in range(200))


@pytest.mark.parametrize("preset", ["base", "advanced", "expert", "team3"])
def test_in_round_one_the_opponent_hero_is_always_in_hand(preset):
    rng = random.Random(7)
    positions, _ = _history(preset, 5)
    for q in positions:
        if q.round > 1:
            break
        if q.is_chance or q.is_over:
            continue
        side = q.side_to_play
        other = 1 - side
        for _ in range(50):
            d = determinise(q.view(side), rng)
            on_table = sum(d.placed.at(other, b)[HERO] for b in (0, 1))  # face down, or shown there
            assert d.sides[other].hand[HERO] + on_table + d.sides[other].removed[HERO] == 1
            assert d.sides[other].deck[HERO] == 0 and d.sides[other].discard[HERO] == 0


def test_after_a_reshuffle_the_shown_discard_is_forgotten():
    positions, moves = _history("base", 2)
    record = PublicRecord.assumed(positions[0])
    seen_reshuffle = False
    for before, after, move in zip(positions, positions[1:], moves):
        new = record.after(before, after, move)
        for side in (0, 1):
            if move is None and before.sides[side].discard.size and not after.sides[side].discard.size:
                seen_reshuffle = True
                assert new.shown_discard[side].size == 0
                if record.shown_discard[side][HERO]:
                    assert new.hero_may_be(side, DECK) and not new.hero_may_be(side, DISCARD)
        record = new
    assert seen_reshuffle


@pytest.mark.parametrize("preset", ["advanced", "team", "team3", "expert"])
def test_determinisations_keep_every_public_fact(preset):
    rng = random.Random(1)
    positions, moves = _history(preset, 2)
    record = PublicRecord.assumed(positions[0])
    for i, q in enumerate(positions[:-1]):
        if not q.is_chance and not q.is_over:
            side = q.side_to_play
            view = side_view(q, side, record=record)
            d = determinise(view, rng)
            assert d.cards_of(0) == q.cards_of(0) and d.cards_of(1) == q.cards_of(1)
            assert d.sides[side].hands[view.member] == q.sides[side].hands[view.member]
            assert record.shown_discard[1 - side].issubset(d.sides[1 - side].discard)
            assert len(d.legal_moves) == len(q.legal_moves)
            seen = side_view(d, side, view.member, record)  # the deal looks the same from this side
            assert (seen.opponent, seen.opponent_placed, seen.hand, seen.castles) == \
                (view.opponent, view.opponent_placed, view.hand, view.castles)
        record = record.after(q, positions[i + 1], moves[i])


# ---------------------------------------------------------------------- reshuffles
def _minus(a: Cards, b: Cards) -> Cards:
    return Cards(max(0, x - y) for x, y in zip(a, b))


def _reshuffle_facts_hold(p: Position, side: int, record: PublicRecord) -> bool:
    """Necessary conditions on ``side``'s zones in ``p`` from its last reshuffle: the known cards
    out of the deck were drawn since (at most ``drawn``), and those that cannot be among the cards
    played since (discard, table, removed since) are in hands that drew at least as many."""
    fact = record.reshuffles[side]
    if fact is None:
        return True
    s = p.sides[side]
    out = _minus(fact.known, s.deck)
    if out.size > fact.drawn:
        return False
    played = s.discard + p.placed.side_total(side) + _minus(s.removed, fact.removed)
    in_hands = _minus(out, played)
    if in_hands.size > sum(fact.fresh):
        return False
    for m in range(len(s.hands)):  # what the partner's hand cannot hold is in this one
        if _minus(in_hands, s.hands[1 - m] if s.is_team else EMPTY).size > fact.fresh[m]:
            return False
    return True


def _public_facts(view: SideView) -> tuple:
    """Everything a side's view shows: two positions with equal tuples look the same to it."""
    return (view.castles, view.round, view.first, view.to_play, view.x, view.y, view.battle, view.member,
            view.hand, view.partner_hand_size, view.own_unseen, view.deck_size, view.discard, view.removed,
            view.exhaustions, view.own_placed, view.opponent, view.opponent_placed, view.opponent_placed_sizes,
            view.roles(0), view.roles(1), view.opponent_hidden, view.partner_face_down, tuple(view.legal_moves))


def _first_after_reshuffle(preset: str, seed: int, side: int) -> tuple[Position, PublicRecord]:
    """The first decision after ``side``'s first reshuffle of a real game, with its record."""
    positions, moves = _history(preset, seed)
    record = PublicRecord.assumed(positions[0])
    reshuffled = False
    for before, after, move in zip(positions, positions[1:], moves):
        record = record.after(before, after, move)
        reshuffled = reshuffled or record.reshuffles[side] is not None
        if reshuffled and not after.is_chance and not after.is_over:
            return after, record
    raise AssertionError("no reshuffle in this game")


def test_known_reshuffled_cards_stay_in_the_deck_or_among_the_cards_drawn_since():
    # base, seed 4: french reshuffles its 17 shown cards into its deck and draws 1 card after it,
    # so 16 of them are its deck and its hand holds the 5 other cards and one of them
    q, record = _first_after_reshuffle("base", 4, 1)
    fact = record.reshuffles[1]
    assert fact is not None and fact.known.size == 17 and fact.drawn == 1 and fact.fresh == (1,)
    assert _reshuffle_facts_hold(q, 1, record)
    view = side_view(q, 0, record=record)
    rng = random.Random(5)
    old = view.opponent_hidden - fact.known  # the cards it held before the reshuffle
    assert old.size == 5
    hands = set()
    for _ in range(300):
        d = determinise(view, rng)
        assert _minus(fact.known, d.sides[1].deck).size <= 1
        assert d.sides[1].deck.size == q.sides[1].deck.size and d.sides[1].hand.size == q.sides[1].hand.size
        assert _reshuffle_facts_hold(d, 1, record)
        assert old.issubset(d.sides[1].hand)
        hands.add(d.sides[1].hand - old)
    assert hands == {Cards().add_kind(k) for k in fact.known.kinds()}  # the drawn card: any known one


def test_a_team_keeps_its_reshuffle_facts_over_both_hands():
    for seed in range(6):
        positions, moves = _history("team", seed)
        record = PublicRecord.assumed(positions[0])
        checked = 0
        rng = random.Random(seed)
        for before, after, move in zip(positions, positions[1:], moves):
            record = record.after(before, after, move)
            if after.is_chance or after.is_over or all(r is None for r in record.reshuffles):
                continue
            for side in (0, 1):
                assert _reshuffle_facts_hold(after, side, record)
                for member in (0, 1):
                    view = side_view(after, side, member, record)
                    for _ in range(5):
                        d = determinise(view, rng)
                        assert _reshuffle_facts_hold(d, 0, record) and _reshuffle_facts_hold(d, 1, record)
                        checked += 1
        assert checked


def test_a_record_that_does_not_fit_the_position_falls_back():
    # the record of one game over the position of another, and positions without a history
    _, record = _first_after_reshuffle("base", 0, 1)
    q, _ = _first_after_reshuffle("advanced", 3, 0)
    rng = random.Random(2)
    for side in (0, 1):
        d = determinise(side_view(q, side, record=record), rng)
        assert position_problems(d) == []
        assert tuple(s.deck.size for s in d.sides) == tuple(s.deck.size for s in q.sides)
    for name in ("expert-third-cycle", "base-live-decks", "advanced-remove-choice"):
        p = Position.from_json(position_path(f"{name}.json").read_text(encoding="utf-8"))
        for side in (0, 1):
            d = determinise(p.view(side), rng)
            assert position_problems(d) == []
            assert _public_facts(side_view(d, side, p.view(side).member)) == _public_facts(p.view(side))


_PRESETS = ["base", "advanced", "expert", "team", "team3", "classic2021", {"preset": "advanced", "reshuffle": "immediate"},
            {"preset": "advanced", "concede_as_decision": True}, {"preset": "team", "removal": "advanced"}]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(_PRESETS), seed=st.integers(0, 10_000))
def test_every_determinisation_along_a_game_is_a_valid_position_that_looks_the_same(preset, seed):
    from guyenne_explore.engine.rules import Rules

    game = play_game(Position.start(Rules.from_json(preset)), seed)
    positions, moves = game.positions(), [e.move for e in game.events]
    record = PublicRecord.assumed(positions[0])
    rng = random.Random(seed)
    for i, q in enumerate(positions):
        if not q.is_chance and not q.is_over:
            for side in (0, 1):
                assert _reshuffle_facts_hold(q, side, record)  # the true game keeps the facts
                view = side_view(q, side, record=record)
                d = determinise(view, rng)
                assert position_problems(d) == []
                assert _public_facts(side_view(d, side, view.member, record)) == _public_facts(view)
                assert _reshuffle_facts_hold(d, 0, record) and _reshuffle_facts_hold(d, 1, record)
                for s in (0, 1):  # a team member's own hero too: its partner's hand or the deck
                    zone = _hero_zone(d, s, record)
                    assert zone is None or record.hero_may_be(s, zone), (s, zone)
        if i < len(moves):
            record = record.after(q, positions[i + 1], moves[i])


@pytest.mark.parametrize("preset", ["base", {"preset": "advanced", "concede_as_decision": True},
                                    {"preset": "team", "removal": "advanced"}])
def test_the_reshuffle_facts_of_a_real_game_always_fit_its_positions(preset, monkeypatch):
    # a determinisation falls back (ignores the facts) only for records that contradict the position
    from guyenne_explore.engine import determinisation as module
    from guyenne_explore.engine.rules import Rules

    kept = []

    def keeping(*args):
        parts = deal(*args)
        kept.append(parts is not None)
        return parts

    deal = module._deal_after_reshuffle
    monkeypatch.setattr(module, "_deal_after_reshuffle", keeping)
    rng = random.Random(4)
    for seed in range(3):
        game = play_game(Position.start(Rules.from_json(preset)), seed)
        positions, moves = game.positions(), [e.move for e in game.events]
        record = PublicRecord.assumed(positions[0])
        for i, q in enumerate(positions[:-1]):
            if not q.is_chance:
                for side in (0, 1):
                    for member in (0, 1) if q.sides[side].is_team else (None,):
                        determinise(side_view(q, side, member, record), rng)
            record = record.after(q, positions[i + 1], moves[i])
    assert kept and all(kept)
