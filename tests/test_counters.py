"""The counter-policies of the gauntlet: each plays its idea legally and sees only its own view."""

import random

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.policies.counters import (COUNTERS, CallerBully, Lookahead, ModelExploiter, ModelReader,
                                                        StrongLookahead)
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.engine.cards import HERO, value_of
from guyenne_explore.engine.determinisation import determinise
from guyenne_explore.engine.game_loop import play
from guyenne_explore.engine.record import play_game
from guyenne_explore.engine.rules import Rules

PLACEMENTS = ("open_first", "respond_first", "open_second", "respond_second")
SEARCHING = ("lookahead", "model-reader", "exploiter", "strong-lookahead")


def small(name):
    """A counter-policy; the searching ones with a tiny budget (the idea, not the strength, is tested)."""
    if name in SEARCHING:
        return COUNTERS[name](deals=2, candidates=2, rollouts=2)
    return COUNTERS[name]()


@pytest.mark.parametrize("name", ["caller", "tell-reader", *SEARCHING])
@pytest.mark.parametrize("rules", ["advanced", "classic2021", "team", "team3"])
def test_new_counters_play_legal_games(name, rules):
    start = Position.start(Rules.from_json(rules))
    for seat in range(2):
        pols = (small(name), Heuristic()) if seat == 0 else (Heuristic(), small(name))
        end = play(start, random.Random(seat), pols, check_moves=True)
        assert end.is_over


def views_with_other_hidden_cards(games=3):
    """Placement positions of seeded games, each with another deal behind the same view."""
    start = Position.start(Rules.from_json("advanced"))
    for game in range(games):
        for q in play_game(start, game).positions():
            if q.is_chance or q.is_over or q.to_play not in PLACEMENTS:
                continue
            side = q.side_to_play
            other = determinise(q.view(side), random.Random(7))
            assert other.view(side) == q.view(side)
            yield q, other, side


@pytest.mark.parametrize("name", ["caller", "tell-reader", *SEARCHING])
def test_new_counters_see_only_their_view(name):
    pol = small(name)
    differ = 0
    for q, other, side in views_with_other_hidden_cards():
        differ += other.sides[1 - side] != q.sides[1 - side]
        assert pol.choose(q.view(side), random.Random(5)) == pol.choose(other.view(side), random.Random(5))
    assert differ > 5


def test_caller_bully_opens_big_and_calls_small_openings():
    start = Position.start(Rules.from_json("advanced"))
    caller = CallerBully()
    opened = called = 0
    for game in range(6):
        for q in play_game(start, game).positions():
            if q.is_chance or q.is_over or q.to_play not in PLACEMENTS:
                continue
            view = q.view(q.side_to_play)
            move = caller._idea(view, list(view.legal_moves))
            if q.to_play in ("open_first", "open_second") and move is not None:
                valued = sorted((k for k in view.hand.kinds() if k != HERO), reverse=True)
                assert move.cards.size in (3, 4) and list(move.cards.kinds())[::-1] == valued[:move.cards.size]
                opened += 1
            battle = 0 if q.to_play == "respond_first" else 1
            if q.to_play in ("respond_first", "respond_second") and 0 < view.opponent_placed_sizes[battle] <= 2:
                unseen = max(k for k in view.opponent.unseen.kinds() if k != HERO)
                if move is not None:
                    assert not move.cards[HERO] and move.cards.total > value_of(unseen) * view.opponent_placed_sizes[battle]
                    called += 1
    assert opened > 5 and called > 2


def _answers(rules: str):
    """The first answer at X of seeded games of ``rules`` (the opponent's opening face down), with the side to answer."""
    start = Position.start(Rules.from_json(rules))
    for game in range(10):
        q = next((q for q in play_game(start, game).positions() if q.to_play == "respond_first"), None)
        if q is not None:
            yield q, q.side_to_play


def test_the_lookahead_weighs_deals_by_the_opponents_placements():
    """A deal where the opponent's opening was unlikely under its model weighs less than one where
    it was likely: the exploiter reads the learned policy's opening by that policy's own distribution."""
    for q, side in _answers("advanced"):
        for pol in (Lookahead(), ModelReader(), ModelExploiter()):
            view = q.view(side)
            weights = {pol._likelihood(determinise(view, random.Random(r)), 1 - side, view.record) for r in range(12)}
            assert all(0 <= w <= 1 for w in weights)
            if len(weights) > 1:
                return
    pytest.fail("every deal weighed the same")



def test_the_exploiter_models_the_weights_strong_plays_under_the_rules():
    # its rollouts play strong as strong plays there: under expert, expert's weights, not advanced's
    from guyenne_explore.analysis.policies.strong import Strong

    exploiter = ModelExploiter()
    for preset in ("advanced", "expert"):
        rules = Rules.preset(preset)
        assert exploiter._model(rules)[1].params == Strong().compiled(rules).params
    assert exploiter._model(Rules.preset("expert"))[1].params != exploiter._model(Rules.preset("advanced"))[1].params


def test_the_exploiter_searches_only_at_the_points_it_is_given():
    # elsewhere it plays strong's move, drawn from the same stream: where its edge is, point by point
    from guyenne_explore.analysis.policies.strong import Strong

    only_first = ModelExploiter(deals=2, candidates=4, rollouts=4, points=("open_first",))
    everywhere = ModelExploiter(deals=2, candidates=4, rollouts=4)
    differs = {point: False for point in PLACEMENTS}
    for g in range(6):
        for p, side in _placements(g):
            view = p.view(side)
            mine = only_first.choose(view, random.Random(g))
            if view.to_play != "open_first":
                assert mine == Strong().choose(view, random.Random(g))
            differs[view.to_play] |= mine != everywhere.choose(view, random.Random(g))
    assert not differs["open_first"] and any(differs[point] for point in PLACEMENTS[1:])


def _placements(game):
    """The placements of a seeded heuristic game in advanced: each position and the side to play."""
    out = []

    class Watch:
        def decision(self, p, side, move):
            if p.to_play in PLACEMENTS:
                out.append((p, side))

        def chance(self, p, draw):
            pass

        def end(self, p):
            pass

    play(Position.start(Rules.preset("advanced")), random.Random(game), (Heuristic(), Heuristic()), hooks=(Watch(),))
    return out


def test_the_counters_built_on_strong_know_the_weights_they_are_given():
    """Benchmarking other weights (``bench_strong.py --weights FILE``): the exploiter reads and plays
    those weights, the model reader reads them, the control plays them as its own and models its
    opponent as the heuristic; by default the package's weights."""
    from guyenne_explore.analysis.compiled.policy_codes import FEATURES
    from guyenne_explore.analysis.policies.strong import Strong

    rules = Rules.preset("advanced")
    shipped = Strong().compiled(rules)
    model = Strong().model_for(rules)
    n = len(FEATURES)
    other = Strong(weights=[0.2 * w for w in model[:n]] + list(model[n:]))  # its linear weights scaled, its network kept
    assert other.compiled(rules).params != shipped.params
    exploiter, reader, control = ModelExploiter(model=other), ModelReader(model=other), StrongLookahead(model=other)
    assert exploiter._model(rules)[1].params == exploiter._own(rules)[1].params == other.compiled(rules).params
    assert control._own(rules)[1].params == other.compiled(rules).params
    assert control._model(rules)[1].params == Heuristic().compiled().params
    assert StrongLookahead()._own(rules)[1].params == shipped.params
    views = [q.view(side) for q, _, side in views_with_other_hidden_cards(1)]
    assert all(reader._reading(rules)(view) == other.weights(view) for view in views)
    assert any(other.weights(view) != Strong().weights(view) for view in views)


def test_the_searching_counters_play_team_sides():
    """A team member's lookahead: its deals weighed by the opposing member's opening (undone into that
    member's own hand), its move searched rather than left to the heuristic."""
    for q, side in _answers("team"):
        view = q.view(side)
        for pol in map(small, SEARCHING):
            pol._seed = 1
            move = pol._idea(view, list(view.legal_moves))
            assert move is not None and move in view.legal_moves
        weights = {ModelExploiter()._likelihood(determinise(view, random.Random(r)), 1 - side, view.record)
                   for r in range(12)}
        assert all(0 < w <= 1 for w in weights)
        if len(weights) > 1:
            return
    pytest.fail("every deal weighed the same")


def test_the_model_reader_reads_by_strongs_model_and_plays_the_heuristic():
    """Its deals weigh what the exploiter's weigh (the learned policy's exact bets), not the heuristic's;
    its candidates and rollouts are the heuristic's, so it measures the reading alone."""
    reader, exploiter, lookahead = ModelReader(), ModelExploiter(), Lookahead()
    rules = Rules.preset("advanced")
    assert reader._model(rules)[1].params == Heuristic().compiled().params
    differ = 0
    for q, side in _answers("advanced"):
        for r in range(6):
            view = q.view(side)
            deal = determinise(view, random.Random(r))
            assert reader._likelihood(deal, 1 - side, view.record) == exploiter._likelihood(deal, 1 - side, view.record)
            differ += reader._likelihood(deal, 1 - side, view.record) != lookahead._likelihood(deal, 1 - side, view.record)
    assert differ > 0


def test_the_tell_reader_reads_small_bets_as_the_hero_until_the_record_shows_it_in_the_discard():
    """A bet of one face-down card is read as the hero (answered with the cheapest card) while the hero may be in
    the opponent's hand; once the public record shows that hero in the discard, the same bet is valued cards and
    is fought (a set beating one card at the unseen cards' mean, or its own hero)."""
    from guyenne_explore.engine import PublicRecord, side_view
    from guyenne_explore.analysis.policies.counters import TellReader

    reader, read, fought = TellReader(), 0, 0
    for game in range(30):
        record = play_game(Position.start(Rules.from_json("advanced")), game, (Heuristic(), Heuristic()))
        positions = record.positions()
        public = PublicRecord.assumed(positions[0])
        for before, after, event in zip(positions, positions[1:], record.events):
            side = before.side_to_play
            if before.to_play in ("respond_first", "respond_second") and event.move is not None:
                view = side_view(before, side, record=public)
                battle = 0 if before.to_play == "respond_first" else 1
                if view.opponent_placed_sizes[battle] == 1:
                    move = reader.choose(view, random.Random(0))
                    cheapest = min(m.cards.total + 100 * m.cards[HERO] for m in view.legal_moves)
                    if view.opponent_hidden[HERO]:
                        assert move.cards.total + 100 * move.cards[HERO] == cheapest
                        read += 1
                    else:
                        hidden = view.opponent_hidden
                        mean = sum(value_of(k) for k in hidden.kinds() if k != HERO) / (hidden.size - hidden[HERO])
                        if any(not m.cards[HERO] and m.cards.total > mean for m in view.legal_moves):
                            assert move.cards[HERO] or move.cards.total >= mean
                            fought += 1
            public = public.after(before, after, event.move)
    assert read > 5 and fought > 2
