"""What a side knows with its history: the public record, and determinisations drawn from it."""

import random

import pytest

from guyenne_explore import Position
from guyenne_explore.cards import HERO, Cards
from guyenne_explore.determinise import determinise
from guyenne_explore.moves import Move
from guyenne_explore.position import DRAW, Draw
from guyenne_explore.record import play_game
from guyenne_explore.view import DECK, DISCARD, HAND, PublicRecord, SideView, fold_record


def _history(preset: str, seed: int, **overrides):
    rules = preset if not overrides else {"preset": preset, **overrides}
    from guyenne_explore.rules import Rules

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
    view = SideView(q, 0, record=record)
    assert view.opponent_hidden[HERO] == 0  # english knows where the french hero is: not in hand
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
            view = SideView(q, side, record=record)
            d = determinise(view, rng)
            assert d.cards_of(0) == q.cards_of(0) and d.cards_of(1) == q.cards_of(1)
            assert d.sides[side].hands[view.member] == q.sides[side].hands[view.member]
            assert record.shown_discard[1 - side].issubset(d.sides[1 - side].discard)
            assert len(d.legal_moves) == len(q.legal_moves)
            seen = SideView(d, side, view.member, record)  # the deal looks the same from this side
            assert (seen.opponent, seen.opponent_placed, seen.hand, seen.castles) == \
                (view.opponent, view.opponent_placed, view.hand, view.castles)
        record = record.after(q, positions[i + 1], moves[i])
