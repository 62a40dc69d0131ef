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


class _ReadsTheRecord:
    """A test policy whose move depends on the public record alone: its last legal move once a card has been shown
    in a discard, its first before (one path through the tree: the test's brute force stays small)."""

    name = "record-reader"
    exact = True
    remembers = True

    def distribution(self, view):
        from fractions import Fraction

        from guyenne_explore.engine import CONCEDE_CHOICE, concede_move

        if view.to_play == CONCEDE_CHOICE:
            return [(concede_move(view), Fraction(1))]
        moves = list(view.legal_moves)
        return [(moves[-1] if any(cards.size for cards in view.record.shown_discard) else moves[0], Fraction(1))]

    def choose(self, view, rng):
        raise NotImplementedError


def _by_record(p, record, policies, remember=True):
    """The outcome distribution by brute force over the game tree, the record folded along each path as the game
    loop folds it (or, ``remember=False``, every view built from its position alone)."""
    from collections import defaultdict
    from fractions import Fraction

    from guyenne_explore.engine import side_view

    if p.is_over:
        r = p.result()
        return {(r.english, r.french, r.winner): Fraction(1)}
    out = defaultdict(Fraction)
    if p.is_chance:
        steps = [(p.apply_outcome(draw), None, pd) for draw, pd in p.chance_outcomes()]
    else:
        side = p.side_to_play
        view = side_view(p, side, record=record) if remember else p.view(side)
        steps = [(p.apply(move), move, pm) for move, pm in policies[side].distribution(view)]
    for child, move, pr in steps:
        for outcome, q in _by_record(child, record.after(p, child, move), policies, remember).items():
            out[outcome] += pr * q
    return out


def test_an_exact_enumeration_carries_the_record_to_a_policy_that_remembers():
    """strong reads the public record (an opponent's hero shown in the discard is seen): an exact enumeration gave
    it views built from positions alone, so its exact answer was another policy's than its sampled games'.  A policy
    that remembers now gets, along each path, the record the game loop folds."""
    from collections import defaultdict

    from guyenne_explore.analysis.exact.distribution import exact_distribution
    from guyenne_explore.engine import PublicRecord
    from tests.conftest import position_path

    p = Position.from_json(position_path("advanced-endgame-4v4.json").read_text())
    pols = (_ReadsTheRecord(), _ReadsTheRecord())
    truth = _by_record(p, PublicRecord.assumed(p), pols)
    assert truth != _by_record(p, PublicRecord.assumed(p), pols, remember=False)  # the record matters here
    exact, _ = exact_distribution(p, pols)
    summed = defaultdict(int)
    for (english, french, winner, _ending, _rounds), q in exact.items():
        summed[(english, french, winner)] += q
    assert dict(summed) == dict(truth)


def test_every_studys_cost_line_is_the_sum_of_its_plans_costs(monkeypatch):
    """The cost said before a run is the plan's (issue 43): the analysis, the variant lab, skill levels, how they
    play, the depth ladder and the balance search add up the costs of the plans their games are played by, and the
    command line refuses a run by its plan's cost."""
    from guyenne_explore.analysis import api, planning
    from guyenne_explore.analysis.studies import depth, exploit, skill, style, variants
    from guyenne_explore.analysis.studies.balance import optimise
    from guyenne_explore.analysis.studies.balance.space import Space
    from guyenne_explore.analysis.studies.balance.targets import parse_targets
    from guyenne_explore.engine import Rules

    made: list[float] = []
    real = planning.plan

    def counted(*args, **kwargs):
        chosen = real(*args, **kwargs)
        made.append(chosen.cost or 0.0)
        return chosen

    for module in (planning, variants, depth, style, exploit, optimise, api):
        monkeypatch.setattr(module, "plan", counted, raising=False)
    start, rules = Position.start("advanced"), [Rules.preset("advanced"), Rules.preset("base")]

    def said(seconds: float) -> float:
        spent = sum(made)
        made.clear()
        return seconds - spent

    assert said(variants.sampling_cost(start, rules, ("search:5", "strong"), 40, cores=2)) == pytest.approx(0)
    assert said(sum(s for _lv, _n, s in skill.skill_cost(start, rules, {"uniform": 100, "search:5": 4}))) == \
        pytest.approx(0)
    assert said(sum(s for _w, _s, _n, s in depth.ladder_cost(("uniform", "heuristic", "strong"), 50, rules[0]))) == \
        pytest.approx(0)
    reading = 2 * 30 * style.SECONDS_TO_READ  # how they play also reads each game's decisions
    assert said(sum(s for _lv, _n, s in style.style_cost(["uniform"], 30, rules))) == pytest.approx(reading)
    estimate = optimise.estimate_search(Space.parse(Rules.preset("advanced"), ["hand_size=5:7"]),
                                        parse_targets(["advantage=0.45:0.55"]), ("heuristic", "heuristic"), 100, 3)
    assert len(made) == 1 and estimate.seconds == pytest.approx(estimate.candidates * made[0])  # a candidate's plan
