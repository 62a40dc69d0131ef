"""Open-hand endgames under optimal play: the round solver against the engine and independent solvers."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import numpy as np
import pytest

from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.optimal.solver import (BestResponse, OptimalSolver, english_payoff, exploitability,
                                              round_key, solve_position, why_not_solvable)
from guyenne_explore.analysis.optimal.round import build_round, canonical, reflect, round_start
from guyenne_explore.analysis.optimal.tree import (build_tree, leaves, normal_form, solve_matrix, solve_tree,
                                                   to_efg)
from guyenne_explore.analysis.policies import Uniform
from guyenne_explore.engine.cards import Cards
from guyenne_explore.cli import main
from guyenne_explore.engine.position import END, ENGLISH, FRENCH, OPEN_FIRST, PLACEMENTS, REMOVE_CHOICE, Position
from guyenne_explore.engine.positions_io import load_position
from guyenne_explore.engine.rules import Rules

from .conftest import positions_folder

SHARED = str(positions_folder())

# (rules, castles at the round start, first player, english hand, french hand)
TINY = [
    (Rules.preset("base", castles=3), (-1, 0, 1), ENGLISH, "H2", "52"),
    (Rules.preset("advanced", castles=3), (-1, -1, 1), FRENCH, "53", "H2"),
    (Rules.preset("classic2021", castles=3), (-1, 0, 1), ENGLISH, "53", "H2"),
    (Rules.preset("advanced", castles=3, adjacency="ring"), (0, -1, 1), FRENCH, "32", "42"),
    (Rules.preset("base", castles=3, hero=False), (-1, -1, -1), ENGLISH, "32", "42"),
]
# hands of 3 or 4 cards: several rounds, mixed equilibria
SMALL = [
    (Rules.preset("advanced", castles=3), (-1, -1, 1), FRENCH, "H32", "532"),
    (Rules.preset("advanced", castles=4), (1, -1, 0, 1), FRENCH, "H32", "532"),
    (Rules.preset("classic2021", castles=3), (1, 0, 0), ENGLISH, "H32", "532"),
    (Rules.preset("base", castles=3), (0, 1, -1), FRENCH, "5322", "H432"),
]


def key_of(case) -> tuple:
    rules, castles, first, he, hf = case
    return rules, (castles, first, Cards.parse(he), Cards.parse(hf))


def round_leaves(p: Position):
    """Every way the four placements of a round can go, by the engine: (X, a, b, Y, c, d, position after)."""
    f, s = p.first, 1 - p.first
    for m1 in p.legal_moves:
        p1 = p.apply(m1)
        for m2 in p1.legal_moves:
            p2 = p1.apply(m2)
            for m3 in p2.legal_moves:
                p3 = p2.apply(m3)
                for m4 in p3.legal_moves:
                    yield m1, m2, m3, m4, p3.apply(m4), (f, s)


def after_removals(q: Position) -> set:
    """The next round start (or final table) after every possible removal choice, by the engine."""
    if q.to_play == REMOVE_CHOICE:
        return set().union(*(after_removals(q.apply(m)) for m in q.legal_moves))
    while q.is_chance:
        (outcome, _), = q.chance_outcomes()
        q = q.apply_outcome(outcome)
    if q.to_play == END:
        return {("end", q.castles, q.sides[0].unspent, q.sides[1].unspent)}
    return {round_key(q)}


@pytest.mark.parametrize("case", TINY + SMALL[:3])
def test_round_model_leads_where_the_engine_leads(case):
    """Every leaf of the compact round model equals the engine's own play, removal choices included."""
    rules, key = key_of(case)
    p = round_start(rules, key)
    model = build_round(rules, key)
    block = {xy: k for k, xy in enumerate(model.blocks)}
    count = 0
    for m1, m2, m3, m4, q, _ in round_leaves(p):
        fp = next(i for i in range(len(model.f_a)) if model.opens[model.f_a[i]] == m1.cards and model.f_d[i] == m4.cards)
        sp = next(j for j in range(len(model.s_b)) if model.answers[model.s_b[j]] == m2.cards and model.s_c[j] == m3.cards)
        target = model.children[model.child[block[(m1.castle, m3.castle)], fp, sp]]
        assert after_removals(q) == {target}
        count += 1
    assert count == model.leaves


@pytest.mark.parametrize("objective", ["win", "score"])
@pytest.mark.parametrize("case", TINY)
def test_tiny_endgames_equal_the_brute_force_normal_form(case, objective):
    rules, key = key_of(case)
    p = round_start(rules, key)
    tree = build_tree(p, objective)
    matrix = normal_form(tree)
    assert matrix.shape[0] * matrix.shape[1] > 1
    value = OptimalSolver(rules, objective).value_of(key)
    assert value == pytest.approx(solve_matrix(matrix), abs=1e-7)
    assert value == pytest.approx(solve_tree(tree), abs=1e-7)


@pytest.mark.parametrize("objective", ["win", "score"])
@pytest.mark.parametrize("case", SMALL)
def test_rounds_solved_backward_equal_the_whole_game_lp(case, objective):
    """Several rounds: one LP over the engine's whole tree gives the value solved round by round."""
    rules, key = key_of(case)
    tree = build_tree(round_start(rules, key), objective)
    solver = OptimalSolver(rules, objective)
    value = solver.value_of(key)
    assert value == pytest.approx(solve_tree(tree), abs=1e-6)
    outcomes = [leaf.value for leaf in leaves(tree)]
    assert min(outcomes) - 1e-9 <= value <= max(outcomes) + 1e-9


def test_some_endgames_need_a_mixed_strategy():
    """A case where no pure opening is optimal: the value lies strictly between the outcomes."""
    rules, key = key_of(SMALL[0])
    solver = OptimalSolver(rules)
    assert solver.value_of(key) == pytest.approx(2 / 3, abs=1e-7)
    moves, reached = solver.strategy(round_start(rules, key))
    assert reached and len(moves) >= 2
    assert sum(w for _, w in moves) == pytest.approx(1.0)


class EquilibriumResponse(BestResponse):
    """The best response to the solver's own strategy (a test device: the strategy reads the
    position itself, which both sides know by counting cards in an open-hand endgame, where a
    policy is shown only its side's view)."""

    def _distribution(self, p):
        moves, reached = self.solver.strategy(p)
        if not reached:  # unreached: any legal move, it has probability 0 anyway
            return [(next(iter(p.legal_moves)), 1.0)]
        return moves


@pytest.mark.parametrize("objective", ["win", "score"])
@pytest.mark.parametrize("case", SMALL[:3])
def test_the_equilibrium_cannot_be_exploited_and_uniform_can(case, objective):
    rules, key = key_of(case)
    solver = OptimalSolver(rules, objective)
    value = solver.value_of(key)
    for side in (ENGLISH, FRENCH):
        br = EquilibriumResponse(solver, Uniform(), side).value_of(key)
        assert br == pytest.approx(value, abs=1e-6)
        vs_uniform = BestResponse(solver, Uniform(), side).value_of(key)
        # the responder (the other side) does at least as well as the equilibrium gives it
        assert (vs_uniform >= value - 1e-9) if side == FRENCH else (vs_uniform <= value + 1e-9)


def test_exploitability_report_for_uniform_and_heuristic():
    rules, key = key_of(SMALL[1])
    solver = OptimalSolver(rules)
    rows = exploitability(round_start(rules, key), {"uniform": Uniform(), "heuristic": Heuristic()}, solver)
    assert len(rows) == 4
    for row in rows:
        assert row.gap is not None and row.gap >= -1e-9
        assert 0 <= row.responder_value <= 1


def test_mirror_images_have_the_same_value():
    rules, key = key_of(SMALL[1])
    mirror = reflect(key)
    assert mirror != key and canonical(mirror)[0] == canonical(key)[0]
    a = OptimalSolver(rules).value_of(key)
    b = solve_tree(build_tree(round_start(rules, mirror), "win"))
    assert a == pytest.approx(b, abs=1e-7)


def test_strategies_at_later_decisions_are_legal_mixes():
    rules, key = key_of(SMALL[0])
    solver = OptimalSolver(rules)
    p = round_start(rules, key)
    moves, _ = solver.strategy(p)
    q = p.apply(moves[0][0])
    for _ in range(3):
        mix, reached = solver.strategy(q)
        assert reached
        assert sum(w for _, w in mix) == pytest.approx(1.0)
        assert all(q.why_illegal(mv) is None for mv, _ in mix)
        q = q.apply(mix[0][0])


@pytest.mark.parametrize("name", ["advanced-endgame-4v4", "classic2021-endgame-4v4", "base-endgame-3v3"])
def test_shared_endgames_solve(name):
    p = load_position(f"{SHARED}/{name}.json")
    result = solve_position(p)
    assert 0 <= result.value <= 1
    assert sum(w for _, w in result.moves) == pytest.approx(1.0)
    assert result.stats.states >= 1 and result.stats.leaves > 0


def test_positions_the_solver_does_not_cover_say_why():
    live = why_not_solvable(load_position(f"{SHARED}/base-live-decks.json"))
    assert live.startswith(("the English can still draw (cards in the deck: ", "the French can still draw")), live
    assert "team" in why_not_solvable(Position.start("team"))
    rules, key = key_of(TINY[0])
    p = round_start(rules.replace(concede_as_decision=True), key)
    assert "concede" in why_not_solvable(p)
    q = load_position(f"{SHARED}/advanced-remove-choice.json")
    assert why_not_solvable(q) is not None


def test_cli_solve(capsys, tmp_path):
    assert main(["solve", f"{SHARED}/advanced-endgame-4v4.json", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"]["english"] + data["value"]["french"] == pytest.approx(1.0)
    assert data["strategy"] and data["size"]["states"] > 1
    assert main(["solve", f"{SHARED}/base-live-decks.json"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "can still draw" in err[0]
    assert main(["solve", f"{SHARED}/base-endgame-3v3.json", "--objective", "score"]) == 0
    assert "score" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("case", [SMALL[0], TINY[1]])
def test_openspiel_cfr_plus_agrees(case):
    """OpenSpiel's CFR+ on the engine's tree (written as a Gambit EFG file) finds the same value."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, expected_game_score
    from open_spiel.python.algorithms import exploitability as expl

    rules, key = key_of(case)
    tree = build_tree(round_start(rules, key), "win")
    game = pyspiel.load_efg_game(to_efg(tree))
    cfr_plus = cfr.CFRPlusSolver(game)
    for _ in range(200):
        cfr_plus.evaluate_and_update_policy()
    average = cfr_plus.average_policy()
    centred = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
    assert expl.nash_conv(game, average) < 0.01
    assert centred + 0.5 == pytest.approx(OptimalSolver(rules).value_of(key), abs=0.01)
    assert np.isfinite(centred)


def test_describe_reads_like_a_teacher():
    from guyenne_explore.analysis.optimal.solver import describe

    rules, key = key_of(SMALL[0])
    p = round_start(rules, key)
    solver = OptimalSolver(rules)
    result = solve_position(p, solver=solver)
    result.exploitability = exploitability(p, {"uniform": Uniform()}, solver)
    text = describe(result)
    assert "66.7% for the English" in text and "times in" in text
    assert "The English playing uniform lose" in text and "english" not in text


def test_optimal_panel_says_why_not_and_shows_the_mix():
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.analysis_panel import OPTIMAL, AnalysisPanel

    panel = AnalysisPanel(load_position(f"{SHARED}/base-live-decks.json"))
    assert panel.optimal.run_button.disabled
    assert "does not apply here" in panel.optimal.status.value and "can still draw" in panel.optimal.status.value
    # Run analysis with Method optimal play says why not beside it, where before it did nothing
    panel.method.value = OPTIMAL
    panel.run(block=True)
    assert "does not apply here" in panel.controls.status.value and "can still draw" in panel.controls.status.value
    panel.set_position(load_position(f"{SHARED}/base-endgame-3v3.json"))
    assert not panel.optimal.run_button.disabled
    panel.optimal.against.value = ("uniform",)
    panel.run(block=True)
    assert "optimal-play section below" in panel.controls.status.value
    html = panel.optimal.output.value
    assert "<svg" in html and "probability" in html and "best response gets" in html
    assert panel.optimal.result is not None and panel.optimal.result.exploitability


def test_a_later_decision_is_valued_by_its_subgame():
    """After the opening, X and the number of cards are public: the value of the subgame that the
    equilibrium's opening enters is the round's value; another opening is worth at most that."""
    rules, key = key_of(SMALL[1])
    p = round_start(rules, key)
    solver = OptimalSolver(rules)
    whole = solve_position(p, solver=solver)
    best = whole.moves[0][0]
    after = solve_position(p.apply(best), solver=solver)
    assert after.value == pytest.approx(whole.value, abs=1e-7) and "subgame" in after.scope
    worse = [mv for mv in p.legal_moves if (mv.castle, mv.cards.size) != (best.castle, best.cards.size)][0]
    other = solve_position(p.apply(worse), solver=solver).value
    # french opens here (SMALL[1]): a worse opening for french is worth at least as much to english
    assert other >= whole.value - 1e-7
    assert sum(w for _, w in after.moves) == pytest.approx(1.0)


def test_the_equilibrium_mix_names_castles_as_the_rulebook_numbers_them():
    """The mix on the castle line labels castles 1 to n, and the move table's castle column says the
    opened castle the same way (the move's notation, beside it, keeps its 0-based index)."""
    from guyenne_explore.render.optimal_svg import mix_svg
    from guyenne_explore.widgets.optimal_panel import result_html

    p = load_position(f"{SHARED}/base-endgame-3v3.json")
    result = solve_position(p)
    assert re.findall(r">castle (\d+)<", mix_svg(p, result)) == [str(c) for c in range(1, p.rules.castles + 1)]
    cells = re.findall(r"<tr><td>([^<]*)</td><td>(\d*)</td>", result_html(p, result))
    opened = [(text, castle) for text, castle in cells if castle]
    assert opened and all(castle == text.split(":")[0] for text, castle in opened)  # typed as numbered


def test_cli_solve_names_the_answered_castle_as_the_rulebook_numbers_it(capsys):
    """Every sentence says a castle 1 to n; the notation's 0-based index stands only in brackets beside it."""
    assert main(["solve", f"{SHARED}/base-endgame-3v3.json"]) == 0
    out = capsys.readouterr().out
    [(said, index)] = re.findall(r"^\s+100\.00%\s+\S+ at castle (\d+)\s+\[(\d+):", out, re.M)
    assert int(said) == int(index) + 1
    assert re.findall(r"answer to \d+ cards? at castle (\d+):", out) == [said]


def after_round(q: Position, solver: OptimalSolver) -> float:
    """English value once a round's placements are made, by the engine: the game's end, or the solver's value of
    the next round start (every removal choice leads there alike)."""
    while not q.is_over and q.to_play != OPEN_FIRST:
        if q.is_chance:
            (outcome, _), = q.chance_outcomes()
            q = q.apply_outcome(outcome)
        else:
            q = q.apply(next(iter(q.legal_moves)))
    return english_payoff(q.result(), solver.objective) if q.is_over else solver.value_of(round_key(q))


def brute_force_move_values(p: Position, solver: OptimalSolver) -> dict | None:
    """Each legal move's value for the side to play at placement ``p``, by the engine: every way the round went
    that the side cannot tell from ``p`` and every way it goes on, the other side's placements weighed by its
    equilibrium mix (``solver.strategy``), the side's own later placement the best for what it has seen then.
    None where the other side's mix never leads to ``p``."""
    side, k = p.side_to_play, PLACEMENTS.index(p.to_play)
    pl, s = p.placed, 1 - p.first
    before = [(pl.x, pl.at(p.first, 0)), (None, pl.at(s, 0)), (pl.y, pl.at(s, 1))][:k]
    totals: dict = defaultdict(float)   # (move, what the side saw at its later placement, that placement)
    reach = [0.0]

    def walk(q: Position, j: int, weight: float, seen: tuple, move, later) -> None:
        if j == len(PLACEMENTS):
            english = after_round(q, solver)
            totals[(move, later)] += weight * (english if side == ENGLISH else 1 - english)
            return
        if j == k:
            reach[0] += weight
            for m in q.legal_moves:
                walk(q.apply(m), j + 1, weight, seen, m, later)
            return
        if q.side_to_play == side:
            if j < k:   # the side's own placement before p, as it was
                options = [(m, None) for m in q.legal_moves if (m.castle, m.cards) == before[j]]
            else:       # its later placement: each, told apart by what it has seen
                options = [(m, (seen, m)) for m in q.legal_moves]
            for m, then in options:
                walk(q.apply(m), j + 1, weight, seen, move, later if then is None else then)
            return
        castle, cards = before[j] if j < k else (None, None)
        mix = solver.strategy(q, public=(castle, cards.size))[0] if j == 0 and j < k else solver.strategy(q)[0]
        for m, w in mix:   # the other side's placements: before p only those that look as they did
            if j >= k or (m.castle == castle and m.cards.size == cards.size):
                walk(q.apply(m), j + 1, weight * w, seen + ((m.castle, m.cards.size),), move, later)

    walk(round_start(p.rules, round_key(p)), 0, 1.0, (), None, None)
    if reach[0] <= 1e-9:
        return None
    best: dict = defaultdict(lambda: defaultdict(lambda: -np.inf))
    for (move, later), total in totals.items():
        seen = None if later is None else later[0]
        best[move][seen] = max(best[move][seen], total)
    return {move: sum(by_seen.values()) / reach[0] for move, by_seen in best.items()}


@pytest.mark.parametrize("case", [SMALL[0], TINY[3]])
def test_move_values_equal_a_brute_force_over_the_other_sides_mix(case):
    """At every placement of several rounds (the equilibrium's moves and others), each move's value against the
    other side's equilibrium mix is what the engine's enumeration of that mix gives."""
    rules, key = key_of(case)
    solver = OptimalSolver(rules)
    checked = unreached = 0
    for path in range(6):
        q = round_start(rules, key)
        while not q.is_over:
            if q.to_play not in PLACEMENTS or q.is_chance:
                q = q.apply_outcome(q.chance_outcomes()[0][0]) if q.is_chance else q.apply(next(iter(q.legal_moves)))
                continue
            values = solver.move_values(q)
            expected = brute_force_move_values(q, solver)
            if values is None:
                assert expected is None
                unreached += 1
                break
            assert expected is not None and set(expected) == {mv for mv, _ in values}
            for mv, v in values:
                assert v == pytest.approx(expected[mv], abs=1e-7), (q.notation(), mv.text())
            checked += 1
            moves = list(q.legal_moves)
            q = q.apply(moves[(path * 7 + checked * 3) % len(moves)])
    assert checked >= 12


def test_a_move_loses_what_the_solver_values_say():
    """French opens and wins for sure; the equilibrium's one opening loses nothing, and an opening it never plays
    loses the value of the subgame that opening's castle and number of cards enter (it is in that subgame's mix)."""
    rules, key = key_of(SMALL[3])
    solver = OptimalSolver(rules)
    p = round_start(rules, key)
    values = dict(solver.move_values(p))
    best = max(values.values())
    [(certain, weight)] = solver.strategy(p)[0]
    assert weight == 1.0 and best - values[certain] == pytest.approx(0.0, abs=1e-9)
    losses = set()
    for public in {(mv.castle, mv.cards.size) for mv in p.legal_moves}:
        subgame = solver.subgame_value(key, *public)      # for english: french loses what english gains
        for mv, _ in solver.strategy(p, public=public)[0]:
            loss = best - values[mv]
            assert loss == pytest.approx(subgame - solver.value_of(key), abs=1e-7)
            losses.add(round(loss, 6))
        for mv in p.legal_moves:
            if (mv.castle, mv.cards.size) == public:       # worth at most its subgame's value
                assert values[mv] <= 1 - subgame + 1e-7
    assert {0.5, round(1 / 3, 6)} <= losses
