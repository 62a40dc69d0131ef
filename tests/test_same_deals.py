"""Chance apart from decisions: the same seed draws the same cards in the same order whatever the sides
decide (each side's pile is ordered when it is formed and drawn from the top), in the engine's game loop
and in the compiled one, and the draws stay the uniform ones of RULES.md 5 step 3."""

from __future__ import annotations

from collections import Counter

import pytest

from guyenne_explore.analysis.compiled.rollout import traced_game
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.sides import compiled_sides
from guyenne_explore.engine.cards import EMPTY
from guyenne_explore.engine.drawing import Piles, draw_side
from guyenne_explore.engine import Cards, GameRecord, Position, Rules, side_outcomes
from guyenne_explore.engine.policy import UNIFORM
from guyenne_explore.engine.record import play_game
from guyenne_explore.engine.state import Side, evolve

#: rule sets whose games start at the deal (the expert setup's discards, chosen by the policies, make the decks
#: of the deal differ where the policies choose differently; the compiled loop plays expert games uniformly only)
DEALT = ("base", "advanced")


def _first_pile_prefixes(record: GameRecord, side: int) -> list[tuple[int, Cards]]:
    """The side's cards drawn so far after each of its draws, as (how many, which), for the cards of
    its first pile: the deck it holds at its first draw (a later pile is a reshuffled discard)."""
    prefixes, drawn, p, deck = [], EMPTY, record.start, None
    for event in record.events:
        if event.draw is not None:
            if deck is None:
                deck = p.sides[side].deck.size
            got = event.draw[side]
            if drawn.size + got.size > deck:
                break
            drawn = drawn + got
            if got.size:
                prefixes.append((drawn.size, drawn))
            p = p.apply_outcome(event.draw)
        else:
            assert event.move is not None
            p = p.apply(event.move)
    return prefixes


def _same_order(a: list[tuple[int, Cards]], b: list[tuple[int, Cards]]) -> None:
    """Both lists read the cards of one pile from its top: the first n cards drawn are the same cards in
    both games whenever both drew n, and one game's first cards lie within the other's longer run."""
    for n, cards in a:
        for m, other in b:
            short, long = (cards, other) if n <= m else (other, cards)
            assert short.issubset(long), (a, b)


def _moves(record: GameRecord) -> list[object]:
    return [e.move for e in record.events if e.move is not None]


def _draws_beyond_the_deal(record: GameRecord) -> int:
    return sum(e.draw is not None for e in record.events) - 1


@pytest.mark.parametrize("preset", DEALT)
def test_the_engine_loop_draws_the_same_cards_whatever_the_policies(preset):
    """Uniform play against the heuristic on both sides: the same seed, different moves, the same
    cards from each side's first pile in the same order."""
    start = Position.start(Rules.preset(preset))
    compared = 0
    for seed in range(6):
        uniform = play_game(start, seed, UNIFORM)
        heuristic = play_game(start, seed, (Heuristic(), Heuristic()))
        assert _moves(uniform) != _moves(heuristic)
        for side in (0, 1):
            a, b = _first_pile_prefixes(uniform, side), _first_pile_prefixes(heuristic, side)
            _same_order(a, b)
            compared += min(len(a), len(b)) - 1
        assert min(_draws_beyond_the_deal(uniform), _draws_beyond_the_deal(heuristic)) > 0
    assert compared > 6  # draws after the deal were compared, not only the deal


@pytest.mark.parametrize("preset", DEALT)
def test_the_compiled_loop_draws_the_same_cards_whatever_the_policies(preset):
    start = Position.start(Rules.preset(preset))
    compared = 0
    for index in range(12):
        uniform, _ = traced_game(start, 3, index, compiled_sides(("uniform", "uniform")))
        heuristic, _ = traced_game(start, 3, index, compiled_sides(("heuristic", "strong")))
        assert _moves(uniform) != _moves(heuristic)
        for side in (0, 1):
            a, b = _first_pile_prefixes(uniform, side), _first_pile_prefixes(heuristic, side)
            _same_order(a, b)
            compared += min(len(a), len(b)) - 1
    assert compared > 12


def _spent(side: Side) -> Side:
    """The side with its hand placed and gone to its discard (a round's cards spent)."""
    return evolve(side.with_hand(0, EMPTY), discard=side.discard + side.hand)


@pytest.mark.parametrize("taken", [[], ["2", "5"], ["2", "2", "5"]])
def test_pile_draws_keep_the_engines_probabilities(taken):
    """A pile formed from six cards, ``taken`` then chosen out of the deck (as the expert setup's discards),
    then two draws with the first draw's cards spent between them: each pair of draws comes as often as the
    engine's hypergeometric draws say (over 6000 keys, within 0.02 of each exact probability).  Taking the
    topmost copies of a kind out would fail here: it leaves the other kinds nearer the top."""
    rules = Rules.preset("base", hand_size=2)
    full = Cards.of(["2", "2", "3", "4", "5", "5"])
    side = Side(hands=(EMPTY,), deck=full - Cards.of(taken))
    exact = {}
    for first, p_first in side_outcomes(side, rules):
        after = _spent(draw_side(side, first, rules))
        for second, p_second in side_outcomes(after, rules):
            exact[first, second] = p_first * p_second
    seen: Counter = Counter()
    keys = 6000
    for key in range(keys):
        piles = Piles(key)._new(0, full)
        first, piles = piles._draw_side(0, side, rules)
        second, piles = piles._draw_side(0, _spent(draw_side(side, first, rules)), rules)
        seen[first, second] += 1
    assert set(seen) <= set(exact) and sum(exact.values()) == 1
    for pair, probability in exact.items():
        assert abs(seen[pair] / keys - float(probability)) < 0.02, pair
