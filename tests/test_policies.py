"""Policies see only their side's view; the heuristic plays sensibly; metrics are consistent."""

import random
from fractions import Fraction

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.api import analyse
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.metrics import designer_metrics
from guyenne_explore.analysis.sampling.sample import Game
from guyenne_explore.analysis.policies.search import determinise
from guyenne_explore.engine.record import play_game

from .conftest import position_path


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
    dist = Heuristic().distribution(q.view(q.side_to_play))
    cheapest = min(m.cards.total for m in q.legal_moves if not m.cards.has_hero)
    likeliest = max(dist, key=lambda mp: mp[1])[0]
    assert likeliest.cards.size == 1 and not likeliest.cards.has_hero and likeliest.cards.total == cheapest
    assert sum(pm for m, pm in dist if m.cards.size == 1 and not m.cards.has_hero) > Fraction(1, 2)


def test_heuristic_is_exact_capable():
    p = Position.from_json(position_path("base-endgame-3v3.json").read_text())
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


@pytest.mark.parametrize("preset", ["base", "expert", "team"])
def test_search_policy_plays_legal_moves(preset):
    """Every move the search picks is one the engine lists at its point, for each side it plays, and
    each drawn card set one the engine lists with a positive probability, to the game's end."""
    from guyenne_explore.analysis.policies.search import ISMCTS
    from guyenne_explore.engine.policy import Uniform

    for search_side, seed in ((0, 1), (1, 2)):
        pair = (ISMCTS(40), Uniform()) if search_side == 0 else (Uniform(), ISMCTS(40))
        record = play_game(Position.start(preset), seed, pair)
        p, searched = record.start, 0
        for event in record.events:
            if event.move is not None:
                assert event.move in p.legal_moves, (preset, p.to_play, event.move)
                searched += event.side == search_side
                p = p.apply(event.move)
            else:
                assert event.draw in dict(p.chance_outcomes()), (preset, p.to_play)
                p = p.apply_outcome(event.draw)
        assert p.is_over and searched > 0


def test_exact_refuses_a_sampling_policy():
    with pytest.raises(ValueError, match="no exact move distribution"):
        analyse(Position.start("base"), ("search", "uniform"), "exact")


def test_metrics():
    games = [Game(5, 3, "english", 8, 4, (True, False), "exhausted"), Game(2, 6, "french", 9, 9, (True, True), "exhausted"),
             Game(4, 4, "draw", 10, 10, (False, True), "exhausted"), Game(12, 0, "english", 5, 1, (True, True), "sweep")]
    m = {x.name: x for x in designer_metrics(games)}
    assert m["Decisiveness"].value == pytest.approx((4 / 8 + 1 + 1 / 5) / 3)
    assert m["Hero value (english)"].value == pytest.approx(2 / 3 - 0)
    assert m["Advantage (english)"].value == 0.625 and m["Drawishness"].value == 0.25  # a score: the draw a half
    assert m["Duration (rounds)"].value == 8 and m["Sweep"].value == 0.25
    assert m["Advantage (english)"].low < 0.625 < m["Advantage (english)"].high


def test_sampling_on_an_executor_is_identical():
    from concurrent.futures import ProcessPoolExecutor

    p = Position.start("advanced")
    alone = analyse(p, ("heuristic", "uniform"), "sample", games=60, seed=9)
    with ProcessPoolExecutor(2) as pool:
        spread = analyse(p, ("heuristic", "uniform"), "sample", games=60, seed=9, executor=pool)
    assert spread.samples == alone.samples


def test_sampling_can_be_cancelled():
    from guyenne_explore.analysis.exact.distribution import Cancelled

    seen = []

    def stop(done, total):
        seen.append(done)
        return False

    with pytest.raises(Cancelled):
        analyse(Position.start("base"), method="sample", games=500, seed=1, progress=stop, fast=False)
    assert seen == [0]  # the engine's games ask while they play (a search takes seconds a game): stopped in the first
    seen.clear()
    with pytest.raises(Cancelled):  # the compiled games report between chunks
        analyse(Position.start("base"), method="sample", games=100_000, seed=1, progress=stop)
    assert seen == [20_000]


# ---------------------------------------------------------------- skilled play reads the rules
def test_castle_stakes_come_from_the_engine_scoring():
    from guyenne_explore.analysis.policies.heuristic import castle_stake
    from guyenne_explore.engine.rules import Rules

    line, ring = Rules.preset("advanced"), Rules.preset("advanced", adjacency="ring")
    table = (0, 0, -1, -1, -1, -1)  # english holds castles 0 and 1
    # castle 5 extends english's run only when castles wrap round
    assert castle_stake(table, 5, 0, ring, (10, 10)) > castle_stake(table, 5, 0, line, (10, 10))
    # the last castle of a sweep is worth the whole game under any scoring
    almost = (0, 0, 0, 0, 0, -1)
    for rules in (line, Rules.preset("classic2021")):
        assert castle_stake(almost, 5, 0, rules, (10, 10)) >= castle_stake(table, 2, 0, rules, (10, 10))


@pytest.mark.parametrize("preset,control,won,cards,lost", [
    ("base", 1, True, "52", 0), ("advanced", 1, False, "52", 5), ("advanced", 1, True, "H2", None),
    ("advanced", -1, False, "522", 5), ("advanced", -1, True, "522", 0), ("classic2021", 1, True, "52", 5),
    ("classic2021", 1, False, "52", 0), ("classic2021", -1, False, "52", 0)])
def test_removal_losses_are_what_the_engine_removes(preset, control, won, cards, lost):
    from guyenne_explore.analysis.policies.heuristic import card_worth, removal_loss
    from guyenne_explore.engine.cards import HERO, Cards
    from guyenne_explore.engine.rules import Rules

    rules = Rules.preset(preset)
    expected = card_worth(rules, HERO) if lost is None else lost
    assert removal_loss(rules, control, Cards.parse(cards), won) == expected


def test_the_heuristic_distribution_is_what_it_plays():
    p = play_game(Position.start("advanced"), 4).positions()[1]
    view = p.view(p.side_to_play)
    h = Heuristic()
    dist = dict(h.distribution(view))
    assert sum(dist.values()) == 1
    rng = random.Random(5)
    counts: dict = {}
    for _ in range(3000):
        m = h.choose(view, rng)
        counts[m] = counts.get(m, 0) + 1
    assert set(counts) <= set(dist)
    top = max(dist, key=dist.get)
    assert abs(counts.get(top, 0) / 3000 - float(dist[top])) < 0.05


def test_the_heuristic_mixes_and_bluffs_at_its_rate():
    from guyenne_explore.analysis.policies.heuristic import BLUFF_RATE
    from guyenne_explore.engine.cards import HERO

    p = play_game(Position.start("advanced"), 4).positions()[1]
    view = p.view(p.side_to_play)
    hand = view.hand
    weakest = next(k for k in range(HERO) if hand[k])
    dist = Heuristic().distribution(view)
    bluff = sum(pm for m, pm in dist if (m.cards.size == 1 and m.cards[weakest])
                or (m.cards[HERO] and m.cards.size == 2 and m.cards[weakest]))
    assert bluff >= BLUFF_RATE
    assert len({m.cards.size for m, pm in dist if pm > Fraction(1, 100)}) >= 2  # mixed bet sizes
    assert Heuristic(bluff_rate=Fraction(0)).distribution(view) != dist


@pytest.mark.parametrize("rules", ["base", "advanced", "expert", "team", "team3", "classic2021",
                                   {"preset": "advanced", "adjacency": "ring"},
                                   {"preset": "base", "card_counts": {"1": 6, "3": 6, "6": 3}, "hand_size": 7},
                                   {"preset": "advanced", "hero": False, "castles": 7},
                                   {"preset": "team", "removal": "advanced"}])
def test_skilled_policies_play_every_preset_and_variant(rules):
    from guyenne_explore.analysis.policies.counters import COUNTERS
    from guyenne_explore.analysis.sampling.sample import sample_games
    from guyenne_explore.analysis.policies.search import ISMCTS
    from guyenne_explore.engine.rules import Rules

    p = Position.start(Rules.from_json(rules))
    games = sample_games(p, (Heuristic(), ISMCTS(16, candidates=3, rollouts_per_leaf=2)), 1, 1)
    games += sample_games(p, (COUNTERS["reader"](), Heuristic()), 1, 2)
    assert all(g.winner in ("english", "french", "draw") for g in games)


def test_search_sees_only_its_view():
    # two positions that english cannot tell apart: the same decision for the same seed
    from guyenne_explore.analysis.policies.search import ISMCTS

    p = play_game(Position.start("advanced"), 6).positions()[1]
    side = p.side_to_play
    other = determinise(p.view(side), random.Random(11))
    assert other.sides[1 - side] != p.sides[1 - side]  # a different hidden hand and deck
    search = ISMCTS(120)
    assert search.choose(p.view(side), random.Random(3)) == search.choose(other.view(side), random.Random(3))


def test_search_budget_in_milliseconds_and_legal_moves():
    from guyenne_explore.analysis.policies.search import ISMCTS

    p = play_game(Position.start("advanced"), 6).positions()[1]
    view = p.view(p.side_to_play)
    move = ISMCTS(milliseconds=50).choose(view, random.Random(1))
    assert move in p.legal_moves
    with pytest.raises(ValueError, match="at least 1 simulation"):
        ISMCTS(0)


def test_search_is_a_tree_over_information_sets():
    # the tree search (where the compiled loop does not play, or asked): french answers at X, then
    # opens Y itself: that later decision of its own is a node of the tree, visited again and again
    # (so chosen by UCB, not by a rollout), and shared by the worlds
    from guyenne_explore.analysis.policies.search import ISMCTS
    from guyenne_explore.engine import OPEN_SECOND, RESPOND_FIRST

    p = play_game(Position.start("advanced"), 6).positions()[1]
    p = p.apply(next(m for m in p.legal_moves if m.cards.size == 2))
    assert p.to_play == RESPOND_FIRST
    side = p.side_to_play
    search = ISMCTS(400, rollouts_per_leaf=2, compiled=False)
    move = search.choose(p.view(side), random.Random(5))
    assert move in p.legal_moves
    q = p.apply(move)
    assert q.to_play == OPEN_SECOND and q.side_to_play == side
    own = search.nodes.get(q.view(side))
    assert own is not None and own.visits >= 5
    assert sum(e[0] for e in own.edges.values()) == own.visits and sum(e[0] > 0 for e in own.edges.values()) >= 2
    # nodes are keyed by what the side sees, its SideView: a world with other hidden cards finds the same node
    other = determinise(q.view(side), random.Random(11))
    assert other.sides[1 - side] != q.sides[1 - side] and other.view(side) in search.nodes
    # deeper still: its decisions of the next round, after the opponent's answer and the draws, are nodes
    assert any(key.round == p.round + 1 for key in search.nodes)
    assert all(key.side == side for key in search.nodes)  # the opponent's moves come from its own model
    flat = ISMCTS(400, rollouts_per_leaf=2, expand_after=10**9, compiled=False)
    flat.choose(p.view(side), random.Random(5))
    assert not flat.nodes


def test_command_line_chooses_each_side_policy_and_spreads_games_identically():
    import json
    import subprocess
    import sys

    def run(*extra):
        r = subprocess.run([sys.executable, "-m", "guyenne_explore", "analyse", "--rules", "advanced", "--json",
                            "--policies", "english=search:24,french=heuristic", "--samples", "4", "--seed", "5",
                            *extra], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    alone, spread = run("--workers", "1"), run("--workers", "2")
    assert alone["outcomes"] == spread["outcomes"] and alone["games"] == 4
    bad = subprocess.run([sys.executable, "-m", "guyenne_explore", "analyse", "--rules", "base", "--policies",
                          "english=search:0"], capture_output=True, text=True)
    assert bad.returncode != 0 and "search budget" in bad.stderr + bad.stdout


def test_skill_levels_read_verdicts_and_say_where_a_conclusion_changes():
    from guyenne_explore.analysis.metrics import Metric
    from guyenne_explore.analysis.studies.skill import ABOVE, BELOW, EVEN, _verdict, skill_levels
    from guyenne_explore.engine.rules import Rules

    adv = Metric("Advantage (english)", 0.6, 0.55, 0.65)
    assert _verdict(adv, None) == ABOVE and _verdict(Metric("Advantage (english)", 0.5, 0.45, 0.55), None) == EVEN
    assert _verdict(Metric("Duration (rounds)", 7.0, 6.9, 7.1, "rounds"), Metric("Duration (rounds)", 8.0, 7.9, 8.1)) == BELOW
    table = skill_levels(Position.start("base"), [Rules.preset("base"), Rules.preset("advanced")], ["base", "advanced"],
                         levels=("uniform", "heuristic"), games=60, seed=2)
    assert {(c.label, c.level) for c in table.cells} == {(r, lv) for r in ("base", "advanced")
                                                         for lv in ("uniform", "heuristic")}
    assert all(c.verdict == EVEN for c in table.cells if c.label == "base" and not c.metric.name.startswith("Adv"))
    for sentence in table.changes():
        assert "under uniform" in sentence and "under heuristic" in sentence
        assert sentence.split(":")[0] in ("base", "advanced") and sentence.endswith(
            ("a difference appears with skill", "the conclusion reverses with skill", "is not confirmed"))


def test_skill_command_prints_levels_and_changes():
    import json
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "guyenne_explore", "skill", "--rules", "base,advanced", "--levels",
                        "uniform,heuristic", "--games", "40", "--workers", "1", "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert {row["level"] for row in data["rows"]} == {"uniform", "heuristic"} and isinstance(data["changes"], list)
    # its cost before it starts (a level's games over both rule sets), then its progress
    assert "uniform: 80 games against itself" in r.stderr and "heuristic: 80 games against itself" in r.stderr
    assert " of 160 games" in r.stderr
    bad = subprocess.run([sys.executable, "-m", "guyenne_explore", "skill", "--levels", "uniform,expert"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown level 'expert'" in bad.stderr + bad.stdout


def test_command_line_on_a_dask_scheduler_gives_the_same_games():
    import json
    import subprocess
    import sys

    from distributed import LocalCluster

    def run(*extra):
        r = subprocess.run([sys.executable, "-m", "guyenne_explore", "analyse", "--rules", "advanced", "--json",
                            "--policies", "english=search:16,french=uniform", "--samples", "3", "--seed", "4",
                            *extra], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    alone = run("--workers", "1")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        spread = run("--scheduler", cluster.scheduler_address)
    assert spread["outcomes"] == alone["outcomes"] and spread["games"] == 3


def test_the_local_pool_starts_safely_after_compiled_games_and_plays_the_same_games():
    """A panel's process has usually run the uniform kernel (numba's thread pool started) before
    skilled games are asked for; a worker forked from it would die.  The pool of the panels and the
    command line starts its workers from a clean process, and gives the games of one process."""
    from guyenne_explore.analysis.compiled.rollout import play_summaries
    from guyenne_explore.analysis import plan
    from guyenne_explore.analysis.planning import Where
    from guyenne_explore.analysis.workers import process_pool

    p = Position.start("advanced")
    play_summaries(p, 2000, 1)  # the parallel uniform kernel, in this process
    for compiled in (("uniform", "uniform"), ("heuristic", "uniform")):  # faster here than a worker starts
        assert plan(p, compiled, "sample", cores=2).where is Where.THIS_PROCESS
    assert plan(p, ("search:6", "uniform"), cores=2).where is Where.LOCAL_CORES
    assert plan(p, ("search:6", "uniform"), cores=1).where is Where.THIS_PROCESS
    assert "on 2 local cores" in plan(p, ("search:6", "uniform"), cores=2).reason
    names = ("search:6", "uniform")
    assert plan(p, names).spread
    alone = analyse(p, names, "sample", games=4, seed=3)
    with process_pool(2) as pool:
        spread = analyse(p, names, "sample", games=4, seed=3, executor=pool)
        compiled = analyse(p, ("uniform", "uniform"), "sample", games=300, seed=3, executor=pool)
    assert spread.samples == alone.samples
    assert compiled.samples == analyse(p, ("uniform", "uniform"), "sample", games=300, seed=3).samples


@pytest.mark.parametrize("preset", ["advanced", "team", "team3"])
def test_the_heuristics_unspent_cards_are_the_scorings(preset):
    # the tie-break counts a team's two hands and its deck (RULES.md 6, 8): a member's facts count its
    # partner's hand too (they counted its own hand alone)
    from guyenne_explore.analysis.policies.heuristic import facts

    rng, p, checked = random.Random(5), Position.start(preset), 0
    while not p.is_over:
        if p.is_chance:
            p = p.apply_outcome(p.sample_outcome(rng))
            continue
        for side in (0, 1):
            assert facts(p.view(side)).unspent == (p.sides[0].unspent, p.sides[1].unspent)
            checked += 1
        moves = list(p.legal_moves)
        p = p.apply(moves[rng.randrange(len(moves))])
    assert checked


def test_a_sampled_win_rate_of_every_game_is_exactly_one():
    # six games, all won by french over four outcomes: their 1/6 shares added one by one gave 0.9999999999999999
    from guyenne_explore.analysis.results import AnalysisResult

    outcomes = {(0, 6, "french"): 1 / 6, (0, 9, "french"): 1 / 6, (1, 1, "french"): 1 / 6, (1, 5, "french"): 0.5}
    result = AnalysisResult(Position.start("advanced"), ("strong", "search"), False, outcomes, {8: 1.0}, games=6)
    assert result.win == {"english": 0.0, "french": 1.0, "draw": 0.0}


def test_the_command_lines_default_ladder_is_the_analysis_one():
    # skill, depth and balance say and play the analysis's ladder (the parser keeps it as text, to stay light)
    from guyenne_explore.analysis.studies.depth import default_ladder
    from guyenne_explore.cli.parser import DEFAULT_LADDER, build_parser

    assert DEFAULT_LADDER == ",".join(default_ladder())
    assert build_parser().parse_args(["skill"]).levels == DEFAULT_LADDER
