"""Policies see only their side's view; the heuristic plays sensibly; metrics are consistent."""

import random

import pytest

from guyenne_explore import Position
from guyenne_explore.analysis.api import analyse
from guyenne_explore.analysis.heuristic import Heuristic
from guyenne_explore.analysis.metrics import designer_metrics
from guyenne_explore.analysis.sample import Game
from guyenne_explore.analysis.search import determinise
from guyenne_explore.record import play_game


def test_heuristic_beats_uniform():
    r = analyse(Position.start("advanced"), ("heuristic", "uniform"), "sample", games=300, seed=3)
    lo, _ = r.win_interval()["english"]
    assert lo > 0.5


def test_heuristic_never_wastes_good_cards_on_a_lost_cause():
    # english opened castle 0 with five face-down cards: the french answer with their cheapest card
    p = play_game(Position.start("base"), 1).positions()[1]  # after the deal
    big = max((m for m in p.legal_moves if m.castle == 0 and not m.cards.has_hero), key=lambda m: m.cards.size)
    assert big.cards.size == 5
    q = p.apply(big)
    move = Heuristic().choose(q.view(q.side_to_play), random.Random(0))
    cheapest = min(m.cards.total for m in q.legal_moves if not m.cards.has_hero)
    assert move.cards.size == 1 and not move.cards.has_hero and move.cards.total == cheapest


def test_heuristic_is_exact_capable():
    p = Position.from_json(open("tests/positions/base-endgame-3v3.json").read())
    r = analyse(p, ("heuristic", "heuristic"), "exact")
    assert sum(r.win.values()) == 1


@pytest.mark.parametrize("preset", ["advanced", "team", "team3"])
def test_determinisation_is_consistent_with_the_view(preset):
    rng = random.Random(1)
    for q in play_game(Position.start(preset), 2).positions()[:40]:
        if q.is_chance or q.is_over:
            continue
        side = q.side_to_play
        view = q.view(side)
        d = determinise(view, rng)
        assert d.cards_of(0) == q.cards_of(0) and d.cards_of(1) == q.cards_of(1)
        assert d.sides[side].hands[view.member] == q.sides[side].hands[view.member]
        assert len(d.legal_moves) == len(q.legal_moves)


def test_search_policy_plays_legal_moves():
    r = analyse(Position.start("base"), ("search", "uniform"), "sample", games=4, seed=1)
    assert r.games == 4


def test_exact_refuses_a_sampling_policy():
    with pytest.raises(ValueError, match="no exact move distribution"):
        analyse(Position.start("base"), ("search", "uniform"), "exact")


def test_metrics():
    games = [Game(5, 3, "english", 8, 4, (True, False), "exhausted"), Game(2, 6, "french", 9, 9, (True, True), "exhausted"),
             Game(4, 4, "draw", 10, 10, (False, True), "exhausted"), Game(12, 0, "english", 5, 1, (True, True), "sweep")]
    m = {x.name: x for x in designer_metrics(games)}
    assert m["Decisiveness"].value == pytest.approx((4 / 8 + 1 + 1 / 5) / 3)
    assert m["Hero value (english)"].value == pytest.approx(2 / 3 - 0)
    assert m["Advantage (english)"].value == 0.5 and m["Drawishness"].value == 0.25
    assert m["Duration (rounds)"].value == 8 and m["Sweep"].value == 0.25
    assert m["Advantage (english)"].low < 0.5 < m["Advantage (english)"].high


def test_sampling_on_an_executor_is_identical():
    from concurrent.futures import ProcessPoolExecutor

    p = Position.start("advanced")
    alone = analyse(p, ("heuristic", "uniform"), "sample", games=60, seed=9)
    with ProcessPoolExecutor(2) as pool:
        spread = analyse(p, ("heuristic", "uniform"), "sample", games=60, seed=9, executor=pool)
    assert spread.samples == alone.samples


def test_sampling_can_be_cancelled():
    from guyenne_explore.analysis.exact import Cancelled

    seen = []

    def stop(done, total):
        seen.append(done)
        return False

    with pytest.raises(Cancelled):
        analyse(Position.start("base"), method="sample", games=500, seed=1, progress=stop, fast=False)
    assert seen == [50]
    seen.clear()
    with pytest.raises(Cancelled):  # the compiled games report between chunks
        analyse(Position.start("base"), method="sample", games=100_000, seed=1, progress=stop)
    assert seen == [20_000]
