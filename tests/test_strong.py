"""The learned policy: the compiled and Python versions are one policy, move for move, from the view only."""

import random

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled.rollout import traced
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.strong import Strong, checked_weights, load_weights
from guyenne_explore.engine.determinisation import determinise
from guyenne_explore.engine.record import play_game
from guyenne_explore.engine.rules import Rules
from tests.replaying import replay_trace

#: weights that use every feature (the shipped ones may leave some at zero)
EVERY = (1.1, 0.05, 0.4, -0.2, -0.35, -0.03, 0.2, -0.1, 0.15, 0.1, 0.07, 0.3, 0.12, -0.08, 0.06, -0.25, 0.09, 0.11,
         -0.06, 0.13, 0.05, 0.17, 0.45)


def policy(name: str):
    return Strong(EVERY) if name == "strong" else Heuristic() if name == "heuristic" else None


def sides(names):
    from guyenne_explore.analysis.compiled.policy_codes import UNIFORM_SIDE
    return tuple(UNIFORM_SIDE if n == "uniform" else policy(n).compiled() for n in names)


def replay(start: Position, names, seed: int, index: int) -> int:
    """Replay a compiled game through the engine, checking every decision of a scoring policy; returns
    how many decisions of the learned policy were checked."""
    rows, kinds, out = traced(start, seed, index, sides(names))
    twins = [policy(name) for name in names]
    return sum(names[side] == "strong" for side in replay_trace(start, rows, kinds, out, lambda side: twins[side]))


@pytest.mark.parametrize("rules", ["base", "advanced", "classic2021", "expert",
                                   {"preset": "advanced", "adjacency": "ring"},
                                   {"preset": "advanced", "hero": False, "castles": 7},
                                   {"preset": "advanced", "reshuffle": "immediate", "removal": "classic2021"},
                                   "team", "team3", {"preset": "classic2021", "concede_as_decision": True},
                                   {"preset": "team3", "concede_as_decision": True}])
@pytest.mark.parametrize("names", [("strong", "strong"), ("heuristic", "strong"), ("strong", "uniform")])
def test_compiled_strong_is_the_python_strong(rules, names):
    start = Position.start(Rules.from_json(rules))
    assert sum(replay(start, names, 11, index) for index in range(2)) > 10


def test_the_shipped_model_is_the_python_and_compiled_policy():
    start = Position.start(Rules.from_json("advanced"))
    global EVERY
    saved, EVERY = EVERY, load_weights()
    try:
        assert replay(start, ("strong", "heuristic"), 3, 0) > 5
    finally:
        EVERY = saved


@pytest.mark.parametrize("rules", ["advanced", "team"])
def test_the_decision_is_the_same_whatever_the_hidden_cards(rules):
    """Positions dealt differently behind one view (a team member's: its partner's hand and face-down
    cards dealt again too): the compiled policy draws the same move with the same weights from the
    same random stream (its trace's first decision row is the same)."""
    start = Position.start(Rules.from_json(rules))
    checked = 0
    for game in range(4):
        for q in play_game(start, game).positions():
            if q.is_chance or q.is_over or q.to_play not in ("open_first", "respond_first", "open_second", "respond_second"):
                continue
            view = q.view(q.side_to_play)
            rows = set()
            for r in range(3):
                deal = determinise(view, random.Random(r))
                assert deal.view(q.side_to_play) == view
                names = ("strong", "uniform") if q.side_to_play == 0 else ("uniform", "strong")
                rows.add(tuple(traced(deal, 5, 0, sides(names))[0][0]))
            assert len(rows) == 1, (game, q.to_play)
            checked += 1
    assert checked > 10


def test_bad_weights_are_refused_with_the_field():
    n = len(EVERY)
    with pytest.raises(ValueError, match=f"{n} numbers"):
        checked_weights(None, [1.0, 2.0])
    with pytest.raises(ValueError, match="weight of stake must be a finite number"):
        checked_weights(None, [1.0, float("nan")] + [0.0] * (n - 2))
    with pytest.raises(ValueError, match="retrain"):
        checked_weights(["gain"], [1.0] * n)


def test_fast_games_play_the_scoring_policies_under_expert_from_the_start():
    """Heuristic and learned policy games from the expert setup discard are played by the compiled
    loop (no longer left to the engine), each the game its index gives alone."""
    from guyenne_explore.analysis.compiled.rollout import fast_games, traced_game
    from guyenne_explore.analysis.policies.sides import compiled_sides

    start = Position.start(Rules.from_json("expert"))
    for names in (("heuristic", "strong"), ("strong", "strong")):
        games = fast_games(start, 6, 4, sides=compiled_sides(names, start.rules))
        assert len(games) == 6
        for index, game in enumerate(games):
            record, alone = traced_game(start, 4, index, compiled_sides(names, start.rules))
            assert alone == game
            assert record.events[0].to_play == "setup_discard"


def _placements_after_the_heros_battle(rules: str, games: int):
    """Placement decisions (with the views of the game, their public record folded) at which the deciding side's
    opponent showed its hero in a battle and that hero lies in its discard, not yet reshuffled."""
    from guyenne_explore.engine import HERO, PLACEMENTS, PublicRecord, side_view
    from guyenne_explore.analysis.policies.heuristic import Heuristic as H

    for game in range(games):
        record = play_game(Position.start(Rules.from_json(rules)), game, (H(), H()))
        positions = record.positions()
        public = PublicRecord.assumed(positions[0])
        for before, after, event in zip(positions, positions[1:], record.events):
            side = before.side_to_play
            if event.move is not None and before.to_play in PLACEMENTS and public.shown_discard[1 - side][HERO]:
                yield side_view(before, side, record=public)
            public = public.after(before, after, event.move)


def test_the_opponents_hero_shown_in_its_discard_is_not_counted_as_out_of_sight():
    """Issue 47: the learned policy read the opponent's hero as unseen while the public record showed it in the
    discard.  Its hero estimate now reads the record: a hero of its own is then safe (``hero_safe``) and every
    set's chance is no longer discounted for the other's hero; the same view with nothing remembered still
    fears it."""
    from dataclasses import replace

    from guyenne_explore.engine import HERO, PublicRecord
    from guyenne_explore.analysis.compiled.policy_codes import F_CHANCE, F_HERO_SAFE
    from guyenne_explore.analysis.policies.strong import features, seen_facts

    views = list(_placements_after_the_heros_battle("advanced", 12))
    assert len(views) > 5
    for view in views:
        assert view.opponent.unseen[HERO]  # in its discard: out of sight as far as the position alone tells
        forgot = replace(view, record=PublicRecord())
        seen = [features(view, m, seen_facts(view)) for m in view.legal_moves]
        unseen = [features(forgot, m, seen_facts(forgot)) for m in view.legal_moves]
        for move, a, b in zip(view.legal_moves, seen, unseen):
            if move.cards[HERO]:
                assert (a[F_HERO_SAFE], b[F_HERO_SAFE]) == (1.0, 0.0)
            assert a[F_CHANCE] >= b[F_CHANCE]
        assert any(a[F_CHANCE] > b[F_CHANCE] for a, b in zip(seen, unseen))


def test_the_hero_in_a_set_of_three_or_more_cards_is_a_feature_of_its_own():
    """Issue 47's tell: with the hero among extra cards scored only by their cost, strong's openings of three to
    five cards never held its hero; ``hero_set`` lets a weight pay for hiding it there."""
    from guyenne_explore.engine import HERO
    from guyenne_explore.analysis.compiled.policy_codes import F_HERO_SET
    from guyenne_explore.analysis.policies.strong import features, seen_facts

    start = Position.start(Rules.from_json("advanced"))
    opening = next(q for q in play_game(start, 0).positions() if q.to_play == "open_first")
    view = opening.view(opening.side_to_play)
    flags = {(m.cards[HERO] > 0, m.cards.size): features(view, m, seen_facts(view))[F_HERO_SET]
             for m in view.legal_moves}
    assert flags[(True, 3)] == flags[(True, 5)] == 1.0
    assert flags[(True, 1)] == flags[(True, 2)] == flags[(False, 3)] == flags[(False, 5)] == 0.0


def test_a_weights_file_written_before_hero_set_reads_its_weight_as_zero(tmp_path):
    import json

    from guyenne_explore.analysis.compiled.policy_codes import FEATURES
    from guyenne_explore.analysis.policies import weights as files

    named = {name: 0.25 * i for i, name in enumerate(FEATURES) if name not in files.ADDED}
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"weights": named}))
    assert files.read_model(old).weights == tuple(named.get(name, 0.0) for name in FEATURES)
    assert files.read_model(old).weights[FEATURES.index("hero_set")] == 0.0
    del named["gain"]  # a feature every file must name: still refused
    old.write_text(json.dumps({"weights": named}))
    with pytest.raises(ValueError, match="missing gain.*retrain"):
        files.read_model(old)


def test_the_counted_chance_is_the_share_of_the_opponents_hidden_sets_a_set_beats():
    """At an answer, every set of as many of the opponent's hidden cards as lie face down there, taken card by card
    (itertools.combinations), is what ``counted`` weighs: its share of them that the set beats, ties held where it
    defends; and the table's sets add up to all of them."""
    from itertools import combinations
    from math import comb

    from guyenne_explore.analysis.policies.heuristic import battle_winner
    from guyenne_explore.analysis.policies.strong import count_table, counted
    from guyenne_explore.engine import RESPOND_FIRST, RESPOND_SECOND, Cards, play
    from guyenne_explore.engine.cards import KINDS

    answers = []

    class Watching(Strong):
        def choose(self, view, rng):
            if view.to_play in (RESPOND_FIRST, RESPOND_SECOND):
                answers.append(view)
            return super().choose(view, rng)

    for rules, seed in (("advanced", 1), ("classic2021", 2), ("team3", 3)):
        play(Position.start(Rules.from_json(rules)), random.Random(seed), (Watching(), Watching()))
    assert len(answers) >= 24
    answers = answers[::max(1, len(answers) // 30)]
    for view in answers:
        battle = 0 if view.to_play == RESPOND_FIRST else 1
        m = view.opponent_placed_sizes[battle]
        cards = [k for k in range(KINDS) for _ in range(view.opponent_hidden[k])]
        by_total, hero_sets, all_sets = count_table(view.opponent_hidden, m)
        assert sum(by_total) + hero_sets == all_sets == comb(len(cards), m)
        castle = (view.x, view.y)[battle]
        control = view.castles[castle]
        for move in list(view.legal_moves)[:6]:
            won = 0
            for pick in combinations(cards, m):
                theirs = Cards([pick.count(k) for k in range(KINDS)])
                pair = (move.cards, theirs) if view.side == 0 else (theirs, move.cards)
                w = battle_winner(control, *pair)
                won += w == view.side or (w is None and control == view.side)
            assert counted(view, move.cards, battle, control == view.side) == won / all_sets
