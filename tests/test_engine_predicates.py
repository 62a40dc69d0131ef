"""The engine's derived rules, each asked directly: rulebook cases, then Hypothesis properties over
positions reached by seeded play (the end checks, reshuffles and draws the solvers ask instead of
restating them).

- :func:`sweeper` (RULES.md 5 step 1) and :func:`holds_too_few` / :func:`cannot_play_on` (step 4):
  a game stops exactly where they say, and :func:`ending` names what they name;
- :func:`cannot_reshuffle_again` (step 3): such a side's discard never comes back, and it stays so;
- :func:`hand_size_after_draw` (step 3): every listed draw leaves the hand that size;
- :func:`ending_without_reshuffle`: the engine's ending of every game once no side can reshuffle;
- :func:`placement_choice` (RULES.md 3 and 8): the legal moves at every placement point.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guyenne_explore.engine import Position, Rules
from guyenne_explore.engine.cards import Cards
from guyenne_explore.engine import (DRAW, END, ENGLISH, EXHAUSTED, FRENCH, NEUTRAL, OPEN_FIRST, OPEN_SECOND,
                                        PLACEMENTS, RESPOND_FIRST, RESPOND_SECOND, SWEEP, Side, cannot_play_on,
                                        cannot_reshuffle_again, ending, ending_without_reshuffle, hand_size_after_draw,
                                        holds_too_few, placement_choice, sweeper)
from tests.conftest import uniform_step

PRESETS = ["base", "advanced", "expert", "classic2021", "team", "team3"]
E, F, N = ENGLISH, FRENCH, NEUTRAL


def game(preset: str, seed: int, **changes: object) -> list[Position]:
    """Every position of one seeded uniform game, the final one included."""
    rules = Rules.preset(preset, **changes)
    rng = random.Random(seed)
    out = [Position.start(rules)]
    while not out[-1].is_over:
        out.append(uniform_step(out[-1], rng))
    return out


games = st.builds(game, st.sampled_from(PRESETS), st.integers(0, 2**32 - 1),
                  castles=st.integers(2, 8), adjacency=st.sampled_from(["line", "ring"]))
SETTINGS = settings(max_examples=30, deadline=None)


# ---------------------------------------------------------------------- the sweep (5 step 1)
@pytest.mark.parametrize("castles, side", [
    ((E,) * 6, E), ((F,) * 6, F), ((N,) * 6, None), ((E,) * 5 + (N,), None), ((E,) * 5 + (F,), None),
    ((F, F), F), ((E,) * 10, E), ((N, E, E, E, E, E, E), None),
])
def test_the_sweeper_holds_every_castle(castles, side):
    assert sweeper(castles) == side


@SETTINGS
@given(games)
def test_a_game_stops_on_a_sweep_exactly_where_the_sweeper_names_a_side(positions):
    """RULES.md 5 step 1: after the battles of a round, a table one side holds ends the game before
    the draw; no position before that holds such a table at a round start."""
    for p in positions[:-1]:
        if p.to_play in (OPEN_FIRST, DRAW):
            assert sweeper(p.castles) is None, p
    final = positions[-1]
    assert (ending(final).reason == SWEEP) == (sweeper(final.castles) is not None)
    if sweeper(final.castles) is not None:
        assert ending(final).sides == (sweeper(final.castles),)


# ---------------------------------------------------------------------- one card after the draw (5 step 4)
@pytest.mark.parametrize("size, short", [(0, True), (1, True), (2, False), (6, False), (12, False)])
def test_at_most_one_card_cannot_play_on(size, short):
    assert holds_too_few(size) is short


@pytest.mark.parametrize("hands, sides", [((6, 6), ()), ((1, 6), (E,)), ((6, 0), (F,)), ((1, 1), (E, F)),
                                          ((2, 2), ())])
def test_cannot_play_on_names_each_side_left_with_at_most_one_card(hands, sides):
    assert cannot_play_on(hands) == sides


@SETTINGS
@given(games)
def test_a_draw_ends_the_game_exactly_when_a_side_holds_too_few(positions):
    for p, q in zip(positions, positions[1:]):
        if p.is_chance:
            short = cannot_play_on((q.sides[E].hand.size, q.sides[F].hand.size))
            assert (q.to_play == END) == bool(short), (p, q)
            if short:
                assert ending(q).sides == short


# ---------------------------------------------------------------------- reshuffles (5 step 3)
def _side(hand: str, deck: str = "", discard: str = "", exhaustions: int = 0) -> Side:
    return Side(hands=(Cards.parse(hand),), deck=Cards.parse(deck), discard=Cards.parse(discard), exhaustions=exhaustions)


BASE = Rules.preset("base")  # L = 2, hands of 6


@pytest.mark.parametrize("side, never", [
    (_side("12", "345", "678", exhaustions=2), True),   # L exhaustions: draws nothing more
    (_side("12", "345", "678", exhaustions=1), True),   # its deck's last card makes the L-th
    (_side("12", "", "678", exhaustions=1), False),     # deck empty at L-1: the discard is reshuffled
    (_side("12", "345", "678", exhaustions=0), False),
])
def test_cannot_reshuffle_again_after_the_last_exhaustion(side, never):
    assert cannot_reshuffle_again(side, BASE) is never


def test_cannot_reshuffle_again_counts_the_expert_limit():
    assert not cannot_reshuffle_again(_side("12", "", "678", exhaustions=2), Rules.preset("expert"))  # L = 3


@SETTINGS
@given(games)
def test_a_side_that_cannot_reshuffle_again_never_sees_its_discard_again(positions):
    for p, q in zip(positions, positions[1:]):
        for i in (E, F):
            if cannot_reshuffle_again(p.sides[i], p.rules):
                assert cannot_reshuffle_again(q.sides[i], q.rules), (p, q)  # for good
                if p.is_chance:  # the draw takes nothing from the discard
                    assert q.sides[i].discard == p.sides[i].discard, (p, q)


# ---------------------------------------------------------------------- the hand after the draw (5 step 3)
@pytest.mark.parametrize("side, size", [
    (_side("12", "3456789"), 6),                                # fills up to the hand size
    (_side("12", "345", exhaustions=2), 5),                    # a spent deck: what is left
    (_side("12", "", "3456789", exhaustions=0), 6),             # a reshuffle fills it
    (_side("12", "", "3456789", exhaustions=2), 2),             # nothing to reshuffle: no card
    (_side("12", "34", "56789", exhaustions=1), 4),             # the L-th exhaustion stops the draw
    (_side("1234567"), 7),                                     # a hand above the size draws nothing
    (_side("1", "", "", exhaustions=0), 1),                    # deck and discard both empty
])
def test_the_hand_after_the_draw(side, size):
    assert hand_size_after_draw(side, BASE) == size


@SETTINGS
@given(games)
def test_every_listed_draw_leaves_the_hand_its_size_after_the_draw(positions):
    for p in positions:
        if p.is_chance:
            sizes = [hand_size_after_draw(s, p.rules) for s in p.sides]
            for outcome, _ in p.chance_outcomes():
                q = p.apply_outcome(outcome)
                assert [s.hand.size for s in q.sides] == sizes, (p, outcome)


# ---------------------------------------------------------------------- endgames (5 steps 1, 3, 4)
@pytest.mark.parametrize("castles, reason", [((E,) * 6, SWEEP), ((F,) * 7, SWEEP), ((E,) * 5 + (F,), EXHAUSTED),
                                             ((N,) * 6, EXHAUSTED)])
def test_an_endgame_ends_by_a_sweep_or_exhausted(castles, reason):
    assert ending_without_reshuffle(castles) == reason


@settings(max_examples=60, deadline=None)
@given(games)
def test_once_no_side_can_reshuffle_the_game_ends_as_ending_without_reshuffle_says(positions):
    final = positions[-1]
    if any(all(cannot_reshuffle_again(s, p.rules) for s in p.sides) for p in positions):
        assert ending(final).reason == ending_without_reshuffle(final.castles), final


# ---------------------------------------------------------------------- placements (RULES.md 3 and 8)
@pytest.mark.parametrize("point, hand, max_at, sizes", [
    (OPEN_FIRST, "123456", 5, {1, 2, 3, 4, 5}),   # one card kept back for Y
    (RESPOND_FIRST, "12", 5, {1}),
    (OPEN_SECOND, "123", 5, {1, 2, 3}),           # Y takes what is left, up to max_at_castle
    (RESPOND_SECOND, "123456", 2, {1, 2}),
])
def test_a_placement_takes_one_to_max_at_castle_cards(point, hand, max_at, sizes):
    choice = placement_choice(point, E, Cards.parse(hand), Rules.preset("base", max_at_castle=max_at))
    assert {c.size for c in choice.card_sets()} == sizes
    assert all(c.issubset(Cards.parse(hand)) for c in choice.card_sets())


def test_a_team_member_keeps_no_card_back_and_y_is_another_castle():
    rules = Rules.preset("base")
    assert {c.size for c in placement_choice(OPEN_FIRST, E, Cards.parse("12"), rules, team=True).card_sets()} == {1, 2}
    assert placement_choice(OPEN_SECOND, E, Cards.parse("12"), rules, first_castle=2).castles == (0, 1, 3, 4, 5)


@SETTINGS
@given(games)
def test_the_legal_placements_are_the_placement_choice(positions):
    for p in positions:
        if p.to_play in PLACEMENTS:
            acting = p.legal_moves.choice
            side, member = acting.side, acting.member
            s = p.sides[side]
            choice = placement_choice(p.to_play, side, s.hands[member], p.rules, member=member, team=s.is_team,
                                      first_castle=p.placed.x if p.to_play == OPEN_SECOND else None)
            assert set(choice.moves()) == set(p.legal_moves), p


@pytest.mark.parametrize("winner, english, french", [("english", 1.0, 0.0), ("french", 0.0, 1.0), ("draw", 0.5, 0.5)])
def test_a_sides_score_is_a_win_one_a_draw_a_half_a_loss_nothing(winner, english, french):
    from guyenne_explore.engine import side_score

    assert (side_score(winner, ENGLISH), side_score(winner, FRENCH)) == (english, french)
    assert (side_score(winner, "english"), side_score(winner, "french")) == (english, french)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_two_sides_scores_of_a_finished_game_add_up_to_one_and_follow_its_result(preset):
    from guyenne_explore.engine import play_game, side_score

    for seed in range(6):
        r = play_game(Position.start(preset), seed).positions()[-1].result()
        scores = side_score(r.winner, ENGLISH), side_score(r.winner, FRENCH)
        assert sum(scores) == 1.0
        assert scores[ENGLISH] == (0.5 if r.winner == "draw" else 1.0 if r.winner == "english" else 0.0)
