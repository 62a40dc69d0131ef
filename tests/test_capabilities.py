"""The capabilities value: what answers for a position and its policies, asked once and read by the plan."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guyenne_explore.analysis.capabilities import capabilities
from guyenne_explore.analysis.exact.distribution import NotExact, require_exact
from guyenne_explore.analysis.planning import Sampler, plan
from guyenne_explore.analysis.policies.spec import PolicySpec
from guyenne_explore.analysis.sampling.sample import play_games
from guyenne_explore.engine import OPEN_FIRST, PRESETS, Position
from tests.test_exact_fast import six_against_six

LEVELS = ("uniform", "heuristic", "strong", "search:4", "reader")


def test_the_capabilities_of_the_openings_and_an_endgame():
    opening = Position.start("advanced")
    uniform = capabilities(opening, ("uniform", "uniform"))
    assert uniform.compiled and uniform.exact and not uniform.endgame
    scoring = capabilities(opening, ("heuristic", "strong"))
    assert scoring.compiled and not scoring.endgame
    search = capabilities(opening, ("search:4", "uniform"))
    assert not search.compiled and "engine plays them" in search.not_compiled and not search.exact
    endgame = six_against_six()
    assert capabilities(endgame, ("uniform", "uniform")).endgame
    assert not capabilities(endgame, ("heuristic", "uniform")).endgame  # the endgame solver models uniform play


def test_a_stacked_deck_is_the_engines_to_play():
    data = Position.start("base").to_json()
    p = Position.from_json(data)
    rng = random.Random(1)
    while p.is_chance:
        p = p.apply_outcome(p.sample_outcome(rng))
    data = p.to_json()
    for side in data["sides"].values():
        side["stacked"] = True
    stacked = Position.from_json(data)
    assert "stacked decks" in capabilities(stacked, ("uniform", "uniform")).not_compiled


@st.composite
def positions_and_levels(draw):
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rng = random.Random(draw(st.integers(0, 10_000)))
    p = Position.start(preset)
    for _ in range(draw(st.integers(0, 120))):
        if p.is_over:
            break
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(rng.choice(list(p.legal_moves)))
    return p, (draw(st.sampled_from(LEVELS)), draw(st.sampled_from(LEVELS)))


@settings(max_examples=40, deadline=None)
@given(positions_and_levels())
def test_the_plan_and_the_machinery_do_what_the_capabilities_say(case):
    """Over positions of every preset and pairs of levels: the plan samples on the compiled loop exactly where the
    value says it plays them, an exact request is refused exactly where a level has no exact move distribution,
    and an endgame the value names is one the endgame solver takes at its round starts."""
    p, levels = case
    if p.is_over:
        return
    can = capabilities(p, levels)
    assert (plan(p, levels, "sample", games=10).sampler is Sampler.COMPILED) == can.compiled
    pols = tuple(PolicySpec.parse(level).policy() for level in levels)
    if can.exact:
        require_exact(pols)
    else:
        with pytest.raises(NotExact):
            require_exact(pols)
    if can.endgame and p.to_play == OPEN_FIRST:
        assert plan(p, levels, "exact").solver.value == "endgame"
    if can.compiled:  # the loop really plays them: a game, compiled
        assert len(play_games(p, levels, 1, 0, sampler=Sampler.COMPILED)) == 1
