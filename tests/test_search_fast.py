"""The compiled search on top of ``strong``: the model's weights it reads, how it weighs its deals,
what it sees (its own view; a team member's own hand, never its partner's)."""

import dataclasses
import random
from fractions import Fraction

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled import heuristic_kernel as heuristic, policy_codes as sides
from guyenne_explore.analysis.compiled.heuristic_kernel import MAX_MOVES
from guyenne_explore.analysis.compiled.search_kernel import _split_chance, move_weights
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.search import MIX, ISMCTS, _CompiledSearch
from guyenne_explore.analysis.policies.strong import Strong
from guyenne_explore.engine import OPEN_FIRST, PLACEMENTS, Cards, Placed, determinise
from guyenne_explore.engine.record import play_game
from guyenne_explore.engine.rules import Rules
from guyenne_explore.engine.state import evolve
from guyenne_explore.engine.turn import member_battle

import numpy as np
import pytest


def _placements(preset: str, seed: int, count: int) -> list[Position]:
    """Positions at placements of a game ``strong`` plays against itself."""
    rng, p, out, strong = random.Random(seed), Position.start(preset), [], Strong()
    while not p.is_over and len(out) < count:
        if p.is_chance:
            p = p.apply_outcome(p.sample_outcome(rng))
            continue
        view = p.view(p.side_to_play)
        if view.to_play in PLACEMENTS:
            out.append(p)
        p = p.apply(strong.choose(view, rng))
    return out


@pytest.mark.parametrize("preset", ["advanced", "team", "team3"])
def test_compiled_move_weights_are_strongs_own(preset):
    # the search reads the compiled decision's weights: move for move the Python policy's (a team member's
    # from its own hand)
    strong = Strong()
    for p in _placements(preset, 4, 12):
        moves, wts, scores = compiled_move_weights(p, strong)
        assert {m: w for m, w in zip(moves, wts) if w > 0} == dict(strong.weights(p.view(p.side_to_play)))
        python = dict(strong.scored(p.view(p.side_to_play)))
        assert all(abs(python[m] - s) <= 1e-9 * (1 + abs(s)) for m, s in zip(moves, scores))


def compiled_move_weights(p: Position, strong: Strong) -> tuple[list, list[int], list[float]]:
    """The search's compiled reading of ``strong``'s decision at ``p``: each legal placement (as the engine's move)
    with its whole-number weight and its score."""
    sp = (strong.compiled(p.rules),) * 2  # (the weights strong plays under these rules)
    reason, e = heuristic.checked(p, scores=True)
    assert reason is None and e is not None
    castles, rows, wts = (np.zeros(MAX_MOVES, np.int64) for _ in range(3))
    scores = np.zeros(MAX_MOVES, np.float64)
    n = move_weights(e.zones, e.placed, e.castles, e.scalars, e.rules, e.values, tuple(e.options), e.points,
                     sides.codes(sp), sides.params(sp), heuristic.tables(p, e, sp[0]), p.side_to_play, castles,
                     rows, wts, scores)
    search = _CompiledSearch(ISMCTS(), p.view(p.side_to_play), 1)
    search.kinds = e.kinds
    moves = [search._move(int(castles[i]), e.options.cards[rows[i]]) for i in range(n)]
    return moves, [int(w) for w in wts[:n]], [float(s) for s in scores[:n]]


def _opener(w: Position, opponent: int) -> int:
    """The opponent's member who opened X (0 for a lone side)."""
    s = w.sides[opponent]
    return member_battle(s.order or 0, 0) if s.is_team else 0


def _undone(w: Position, opponent: int) -> Position:
    """World ``w`` (the opponent opened castle X this round, nothing else placed) before that opening."""
    s, member = w.sides[opponent], _opener(w, opponent)
    hands = tuple(h + w.placed.at(opponent, 0) if i == member else h for i, h in enumerate(s.hands))
    back = dataclasses.replace(s, hands=hands)
    return evolve(w, sides=tuple(back if i == opponent else w.sides[i] for i in (0, 1)), placed=Placed(),
                  to_play=OPEN_FIRST)


@pytest.mark.parametrize("preset", ["advanced", "team"])
def test_deals_are_weighed_by_the_models_chance_of_the_opponents_opening(preset):
    # the opponent opened X face down: each deal weighs strong's chance of that opening from the hand
    # the deal gives it (a team's opening member's own hand), mixed with MIX of a uniform choice, over the
    # deal's chance of those cards there
    p = next(q for q in _placements(preset, 2, 40) if q.to_play == "respond_first")
    me, opponent = p.side_to_play, 1 - p.side_to_play
    view = p.view(me)
    assert view.opponent_placed[0] is None  # face down
    search = ISMCTS(40)
    run = _CompiledSearch(search, view, 9)
    assert run.best() is not None
    weights = search.likelihoods
    assert weights is not None and len(set(weights.round(12))) > 1  # not uniform within the public facts
    strong = Strong()
    for w, got in list(zip(run.worlds, weights))[:12]:
        before = _undone(w, opponent)
        dist = dict(strong.distribution(before.view(opponent)))
        opening = next(m for m in before.legal_moves if m.castle == p.placed.x and m.cards == w.placed.at(opponent, 0))
        chance = float(dist.get(opening, Fraction(0)))
        hand = np.array(list(before.sides[opponent].hands[_opener(w, opponent)]), np.int64)
        split = _split_chance(hand, np.array(list(w.placed.at(opponent, 0)), np.int64))
        expected = ((1 - MIX) * chance + MIX / len(before.legal_moves)) / split
        assert abs(got - expected) <= 1e-9 * expected
    # a deal where strong would not have opened that way weighs far less than one where it would
    chances = [float(dict(strong.distribution(_undone(w, opponent).view(opponent))).get(
        next(m for m in _undone(w, opponent).legal_moves if m.castle == p.placed.x
             and m.cards == w.placed.at(opponent, 0)), 0)) for w in run.worlds]
    unlikely, likely = int(np.argmin(chances)), int(np.argmax(chances))
    assert chances[likely] > 0.1 and weights[unlikely] < weights[likely]


def test_search_on_strong_sees_only_its_view():
    # two positions that the side cannot tell apart: the same decision for the same seed, at every
    # placement of a game
    for p in _placements("advanced", 6, 8):
        side = p.side_to_play
        other = determinise(p.view(side), random.Random(11))
        assert other.view(side) == p.view(side)
        assert ISMCTS(120).choose(p.view(side), random.Random(3)) == ISMCTS(120).choose(other.view(side),
                                                                                        random.Random(3))


def test_a_team_members_search_does_not_see_its_partners_hand():
    # the partner's hand, its face-down cards and the team's deck dealt again from the member's view: the same view, the
    # same decision, at placements and at the team's split and order
    rng, p, strong, pairs = random.Random(1), Position.start("team"), Strong(), 0
    while pairs < 5 and not p.is_over:
        if p.is_chance:
            p = p.apply_outcome(p.sample_outcome(rng))
            continue
        side = p.side_to_play
        view = p.view(side)
        deal = determinise(view, random.Random(100 + pairs))
        # its own side as dealt: hands, deck and its partner's face-down cards; the opponent's as they are
        cards = tuple(deal.placed.cards[i] if i == side else p.placed.cards[i] for i in (0, 1))
        other = evolve(p, sides=tuple(deal.sides[i] if i == side else p.sides[i] for i in (0, 1)),
                       placed=Placed(p.placed.x, p.placed.y, cards))
        if other.sides[side] != p.sides[side]:
            assert other.view(side) == view
            assert ISMCTS(30).choose(view, random.Random(7)) == ISMCTS(30).choose(other.view(side), random.Random(7))
            pairs += 1
        p = p.apply(strong.choose(view, rng))
    assert pairs == 5


def test_every_decision_point_is_answered():
    # expert (setup discard) and team games (split, order, placements by the tree): legal moves throughout
    for preset in ("expert", "team3"):
        record = play_game(Position.start(preset), 3, policies=(ISMCTS(8), ISMCTS(8)))
        assert record.positions()[-1].is_over


def _partner_swapped(p: Position, side: int, b: int) -> Position | None:
    """``p`` with one of the partner's face-down cards at battle ``b`` swapped for another kind from its hand."""
    view = p.view(side)
    partner = 1 - view.member
    own = p.sides[side]
    down, hand = p.placed.at(side, b), own.hands[partner]
    pair = next(((k, j) for k in range(len(down)) if down[k] for j in range(len(hand)) if hand[j] and j != k), None)
    if pair is None:
        return None
    k, j = pair
    gone, back = (Cards([1 if i == kind else 0 for i in range(len(down))]) for kind in (k, j))
    hands = tuple(hand - back + gone if m == partner else h for m, h in enumerate(own.hands))
    sides = tuple(dataclasses.replace(own, hands=hands) if i == side else p.sides[i] for i in (0, 1))
    row = tuple(down - gone + back if battle == b else c for battle, c in enumerate(p.placed.cards[side]))
    cards = tuple(row if i == side else p.placed.cards[i] for i in (0, 1))
    return evolve(p, sides=sides, placed=Placed(p.placed.x, p.placed.y, cards))


def test_a_team_members_search_does_not_see_its_partners_face_down_cards():
    # the partner's cards went down face down: two positions that differ only there look the same to the
    # member and give it the same decision (before the view hid them, a search dealing from the view as it
    # was decided otherwise in 4 of these 9 pairs)
    rng, p, strong, pairs = random.Random(3), Position.start("team"), Strong(), 0
    while pairs < 3:
        if p.is_over:  # (a game with too few such placements: the next one)
            p = Position.start("team")
        if p.is_chance:
            p = p.apply_outcome(p.sample_outcome(rng))
            continue
        side = p.side_to_play
        view = p.view(side)
        b = next((b for b in (0, 1) if view.partner_face_down[b]), None)
        other = _partner_swapped(p, side, b) if b is not None else None
        if other is not None:
            seen = other.view(side)
            assert other.placed.at(side, b) != p.placed.at(side, b) and seen == view
            for seed in range(3):
                assert ISMCTS(30).choose(view, random.Random(seed)) == ISMCTS(30).choose(seen, random.Random(seed))
            pairs += 1
        p = p.apply(strong.choose(view, rng))
    assert pairs == 3


def test_the_search_models_the_weights_strong_plays_under_the_rules():
    # its model of the opponent and its rollouts are strong as strong plays there: a preset's own weights
    # (before, every rule set's search modelled advanced's)
    search, strong = ISMCTS(), Strong()
    for preset in ("advanced", "expert", "team"):
        rules = Rules.preset(preset)
        assert search.sides_for(rules)[0].params == strong.compiled(rules).params
    assert search.sides_for(Rules.preset("expert"))[0].params != search.sides_for(Rules.preset("advanced"))[0].params


class _Asked(Heuristic):
    """The heuristic, noting the side of every view it is asked to weigh."""

    def __init__(self) -> None:
        super().__init__()
        self.sides: set[int] = set()

    def weights(self, view):
        self.sides.add(view.side)
        return super().weights(view)


def test_the_tree_search_builds_on_the_model_it_is_given():
    # the heuristic as the model (the search as it was before strong, benchmarks/bench_strong.py's baseline): its
    # root candidates are the heuristic's likeliest moves, not strong's, and the opponent's moves in the tree are
    # drawn from it too (it is asked for the opponent's views)
    differ, opponent = 0, 0
    for p in _placements("advanced", 4, 12):
        side = p.side_to_play
        view = p.view(side)
        model = _Asked()
        search = ISMCTS(400, compiled=False, model=model, rollout=Heuristic())
        assert search.candidates_for(view) == Heuristic().ranked(view)[: search.candidates]
        differ += search.candidates_for(view) != ISMCTS().candidates_for(view)
        move = search.choose(view, random.Random(2))
        assert move in search.candidates_for(view)
        opponent += 1 - side in model.sides
    # (late in a game the opponent often has one legal move: no choice, nothing asked)
    assert differ > 0 and opponent >= 8
