"""Exact requests that would outgrow the machine's memory, or take too long, are refused with a plain sentence.

An endgame right after the last reshuffle (no side can reshuffle again, but many cards are left in
the decks) has far too many pairs of side states for the forward passes: the request must be refused
before the arrays are allocated, forced or not, in fractions and in floats, and never as a
``MemoryError`` from inside numpy (or a machine out of memory)."""

from __future__ import annotations

import itertools
import json
import pathlib
import random
import resource
import subprocess
import sys

import pytest

from guyenne_explore.analysis.compiled.policy_codes import IDEAS
from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis import NotExact, api, planning
from guyenne_explore.analysis.exact import distribution
from guyenne_explore.analysis.api import ExactOutOfReach, analyse
from guyenne_explore.analysis.planning import Sampler, Solver, estimate_exact_cost, estimate_tree_size, in_endgame, plan
from guyenne_explore.analysis.limits import check_memory
from guyenne_explore.i18n import plain_size
from guyenne_explore.cli import main
from guyenne_explore.analysis.exact.forward import ForwardEndgame
from guyenne_explore.engine import OPEN_FIRST, TEAM_SPLIT, apply_legal, cannot_reshuffle_again
from guyenne_explore.engine.record import play_game


def _endgame_with_full_decks() -> Position:
    rules = Rules.preset("base")
    for q in play_game(Position.start(rules), 0).positions():
        if q.to_play == "open_first" and all(cannot_reshuffle_again(s, rules) for s in q.sides) \
                and sum(s.deck.size for s in q.sides) >= 12:
            return q
    raise AssertionError("seed 0 no longer reaches such an endgame: pick another seed")


@pytest.mark.parametrize("arithmetic", ["fraction", "float"])
@pytest.mark.parametrize("force", [False, True])
def test_an_endgame_with_full_decks_is_refused_for_memory(arithmetic: str, force: bool) -> None:
    p = _endgame_with_full_decks()
    with pytest.raises(ExactOutOfReach) as caught:
        analyse(p, method="exact", arithmetic=arithmetic, force=force)
    assert "of memory" in str(caught.value) and not caught.value.forceable


def test_auto_samples_such_an_endgame() -> None:
    result = analyse(_endgame_with_full_decks(), games=200, seed=1)
    assert not result.exact and result.games == 200


def test_the_command_line_refuses_it_in_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(_endgame_with_full_decks().to_json()))
    assert main(["analyse", str(path), "--exact", "--force"]) == 1
    err = capsys.readouterr().err
    assert "of memory" in err and "Traceback" not in err and "--force" not in err


def test_check_memory_names_the_size() -> None:
    check_memory((1000, 1000))  # 8 MB: fine
    with pytest.raises(ExactOutOfReach, match="about 8 GB"):
        check_memory((1000, 1000, 1000))
    assert plain_size(3 * 10**6, "en") == "3 MB"


def _late(rules: Rules, seed: int, unspent: int, min_deck: int) -> Position:
    """The first round start of a seeded uniform game with at most ``unspent`` cards in hands and
    decks and at least ``min_deck`` in the decks (as ``benchmarks/bench_exact.py`` builds them)."""
    rng = random.Random(seed)
    while True:
        p = Position.start(rules)
        while not p.is_over:
            if p.to_play == OPEN_FIRST and sum(s.hand.size + s.deck.size for s in p.sides) <= unspent \
                    and sum(s.deck.size for s in p.sides) >= min_deck:
                return p
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_legal(p, rng.choice(list(p.legal_moves)))


def _stacked() -> Position:
    """A dealt advanced opening whose english deck order is fixed (stacked): the engine's to play."""
    rng, p = random.Random(1), Position.start("advanced")
    while p.is_chance:
        p = p.apply_outcome(p.sample_outcome(rng))
    data = p.to_json()
    data["sides"]["english"]["stacked"] = True
    q = Position.from_json(data)
    assert q.sides[0].deck_order is not None
    return q


def _endgame() -> Position:
    """The first round start of a seeded uniform base game from which no side can reshuffle, with at
    most four cards in the decks (an endgame "auto" solves exactly)."""
    rng = random.Random(3)
    while True:
        p = Position.start("base")
        while not p.is_over:
            if p.to_play == OPEN_FIRST and in_endgame(p, ("uniform", "uniform")) \
                    and sum(s.deck.size for s in p.sides) <= planning.ENDGAME_DECKS_AUTO:
                return p
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_legal(p, rng.choice(list(p.legal_moves)))


def _stacked_decks() -> Position:
    """A base position with both decks stacked, whose whole game tree reads as minutes of enumeration
    but whose endgames (every round start after the stacked draws) the endgame solver takes at once."""
    data = _late(Rules.preset("base"), 4, 12, 1).to_json()
    rng = random.Random(4)
    for side in data["sides"].values():
        deck = list(side["deck"])
        rng.shuffle(deck)
        side["deck"] = deck
        if deck:  # an empty deck is no stacked deck (a position that says so is refused)
            side["stacked"] = True
    return Position.from_json(data)


def test_a_position_near_its_endgames_is_no_longer_refused(monkeypatch) -> None:
    p = _stacked_decks()
    assert estimate_tree_size(p) > 60 * 300_000  # the whole tree: over the old limit of a minute at 300,000 nodes a second
    nodes, seconds = estimate_exact_cost(p)
    assert nodes < estimate_tree_size(p) / 10 and seconds < planning.EXACT_SECONDS
    solved = []
    # the run's solve (with its budget), not the small run that measures the cost first
    monkeypatch.setattr(distribution, "exact_distribution", lambda q, *a, **k: "budget" in k and solved.append(q) or ({}, 0))
    monkeypatch.setattr(api, "exact_result", lambda *a, **k: None)
    analyse(p, method="exact")
    assert solved == [p]


def test_endgames_with_many_cards_below_a_position_are_charged_their_cost() -> None:
    """The probes stop at the first endgame round start, but an endgame whose decks were just
    reshuffled is far beyond an exact analysis: the refusal says so, and forcing is offered."""
    p = _late(Rules.preset("base"), 4, 14, 2)
    assert not in_endgame(p, ("uniform", "uniform"))
    with pytest.raises(ExactOutOfReach, match="out of reach") as caught:
        analyse(p, method="exact")
    assert caught.value.forceable


def test_auto_solves_exactly_what_the_cost_estimate_puts_within_a_second(monkeypatch) -> None:
    """"auto" reads the same cost estimate as the refusal: exact at up to AUTO_SECONDS, sampled above;
    the plan says which and why, and analyse runs what the plan says."""
    p = _stacked_decks()
    assert not in_endgame(p, ("uniform", "uniform"))
    chosen: list[str] = []
    monkeypatch.setattr(distribution, "exact_distribution", lambda q, *a, **k: chosen.append("exact") or ({}, 0))
    monkeypatch.setattr(api, "exact_result", lambda *a, **k: None)
    monkeypatch.setattr(api, "play_games", lambda *a, **k: chosen.append("sample") or [])
    monkeypatch.setattr(api, "sampled_result", lambda *a, **k: None)
    for seconds, exact in ((planning.AUTO_SECONDS / 2, True), (planning.AUTO_SECONDS * 2, False)):
        monkeypatch.setattr(planning, "estimate_exact_cost", lambda *a, seconds=seconds, **k: (1.0, seconds))
        chosen.clear()
        analyse(p)
        assert chosen == ["exact" if exact else "sample"]
        decided = plan(p)
        assert decided.method == ("exact" if exact else "sample")
        # stacked decks: the compiled loop does not play them, so the engine does, spread over processes
        assert (decided.solver, decided.sampler) == ((Solver.ENUMERATION, None) if exact else (None, Sampler.ENGINE))
        assert decided.spread is not exact
        assert ("enumerated" if exact else "exact enumeration would take") in decided.reason
        assert exact or "stacked decks are played by the engine" in decided.reason


def test_the_cost_said_before_sampled_games_follows_who_plays_them() -> None:
    """Strong's games from a deal are costed at the compiled loop's figure, the same from stacked decks (the
    engine's to play) at the engine's, and a level of the engine's alone at the engine's; before, every game
    of strong was costed alike, 30 times too long where the compiled loop plays it, 20 times too short where not."""
    from guyenne_explore.analysis.studies.depth import ladder_cost

    compiled = planning.seconds_a_game(Position.start("advanced"), ("strong", "uniform"))
    engine = planning.seconds_a_game(_stacked(), ("strong", "uniform"))
    assert compiled == planning.SECONDS_A_GAME[Sampler.COMPILED]["strong"]
    assert engine == planning.SECONDS_A_GAME[Sampler.ENGINE]["strong"] > 100 * compiled
    assert planning.seconds_a_game(_stacked(), ("uniform", "uniform")) == planning.SECONDS_A_GAME[Sampler.ENGINE]["uniform"]
    # a ladder's match costs its costlier level's games, a search's by its budget
    (_w, _s, games, strong), (_w2, _s2, searched, search) = ladder_cost(("uniform", "strong", "search:100"), 400,
                                                                  Rules.preset("advanced"))
    assert games == 800 and strong == 800 * compiled and search / searched > 100 * compiled


@pytest.mark.parametrize("pair", [("strong", "heuristic"), ("uniform", "uniform"), ("strong@weights.json", "uniform"),
                                  ("search:100", "strong"), ("strong", "exploiter"), ("heuristic", "reader"),
                                  ("lookahead", "tell-reader")])
def test_whether_the_engine_plays_a_pairing_is_the_planners_answer_for_a_deal(pair: tuple[str, str]) -> None:
    """A run over many rule sets or candidates (the depth ladder, the balance search) asks before it knows
    their positions whether the engine plays its games, to spread them over processes: the planner's answer
    for a deal of the compiled loop's, not a list of policy names of its own (the command line and the
    Balance tab each kept one, and one took only searches for the engine's)."""
    deal = Position.start("advanced")
    assert planning.engine_plays(pair) == (planning.sampler_for(deal, pair)[0] is Sampler.ENGINE)
    compiled = ("uniform", "heuristic", "strong", *IDEAS)  # the counters that read the table alone are compiled
    assert planning.engine_plays(pair) == any(name.partition("@")[0] not in compiled for name in pair)


@pytest.mark.parametrize("case", ["endgame", "search", "team", "heuristic", "plain", "asked"])
def test_the_plan_names_the_machinery_that_answers_and_why(case: str) -> None:
    """One function decides: the endgame solver for an endgame, the engine for a search or conceding as
    a decision (spread over processes), the compiled loop for the heuristic and team sides; the reason says
    why in words."""
    start = Position.start("advanced")
    if case == "endgame":
        decided = plan(_endgame())
        assert (decided.method, decided.solver, decided.spread) == ("exact", Solver.ENDGAME, False)
        assert "no side can reshuffle" in decided.reason
    elif case == "search":
        decided = plan(start, ("search:10", "uniform"))
        assert (decided.method, decided.sampler, decided.spread) == ("sample", Sampler.ENGINE, True)
        assert "search:10 has no exact move distribution" in decided.reason
    elif case == "team":
        decided = plan(Position.start("team"), ("strong", "heuristic"), method="sample", games=10)
        assert (decided.sampler, decided.spread) == (Sampler.COMPILED, False)
        assert "played by the compiled game loop" in decided.reason and "10 games" in decided.reason
        conceding = plan(Position.start(Rules.preset("base", concede_as_decision=True)), method="sample", games=10)
        assert (conceding.sampler, conceding.spread) == (Sampler.COMPILED, False)
        stacked = plan(_stacked(), method="sample", games=10)
        assert (stacked.sampler, stacked.spread) == (Sampler.ENGINE, True)
        assert "stacked decks are played by the engine" in stacked.reason
    elif case == "heuristic":
        decided = plan(start, ("heuristic", "uniform"), method="sample")
        assert (decided.sampler, decided.spread) == (Sampler.COMPILED, False)
        assert "sampled as asked" in decided.reason and "played by the compiled game loop" in decided.reason
    elif case == "plain":
        decided = plan(_endgame(), method="exact", fast=False)
        assert decided.solver is Solver.PLAIN
        assert plan(start, method="sample", fast=False).sampler is Sampler.ENGINE
    else:
        with pytest.raises(ValueError, match="method must be auto, exact or sample"):
            plan(start, method="guess")
        with pytest.raises(NotExact, match="no exact move"):
            plan(start, ("search:10", "uniform"), method="exact")


def test_analyse_runs_the_plan_and_keeps_it_on_the_result() -> None:
    """The result carries the plan that produced it, so panels and reports say what answered."""
    p = _endgame()
    result = analyse(p)
    assert result.plan == plan(p) and result.plan.solver is Solver.ENDGAME
    sampled = analyse(Position.start("advanced"), method="sample", games=30, seed=2)
    assert sampled.plan is not None and sampled.plan.sampler is Sampler.COMPILED and sampled.games == 30


def test_the_plans_reason_is_said_in_french_with_french_digit_grouping() -> None:
    """What the panel shows of a plan follows the language, numbers included."""
    from guyenne_explore.i18n import current_language, set_language

    before = current_language()
    set_language("fr")
    try:
        decided = plan(_stacked(), method="sample")
        assert decided.reason == ("Échantillonné\u00a0: 2\u202f000 parties (échantillonné comme demandé)\u00a0; "
                                  "les pioches ordonnées sont jouées par le moteur.")
        assert plan(Position.start("advanced"), method="sample", games=30).short == "30 parties, simulateur rapide"
    finally:
        set_language(before)


def test_the_memory_refusal_speaks_the_language_chosen():
    from guyenne_explore.analysis.limits import ExactOutOfReach, check_memory
    from guyenne_explore.i18n import set_language

    previous = set_language("fr")
    try:
        with pytest.raises(ExactOutOfReach, match="hors de portée.*Go") as refused:
            check_memory((2**20, 2**10), budget=2**30)
    finally:
        set_language(previous)
    assert not refused.value.forceable


def _capped(*args: str) -> subprocess.CompletedProcess:
    """The command line in a child process that cannot take more than 3 GB (a test never eats the machine)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))

    return subprocess.run([sys.executable, "-m", "guyenne_explore", *args], capture_output=True, text=True,
                          timeout=120, preexec_fn=cap, cwd=pathlib.Path(__file__).resolve().parent.parent)


def test_the_cost_of_sixteen_castles_is_estimated_without_their_tables() -> None:
    """The estimate built the forward pass's 3^castles tables (a MemoryError at 16 castles, exit 3): it needs none,
    and "auto" samples what the estimate puts out of reach."""
    done = _capped("analyse", "--rules", '{"preset": "base", "castles": 16}', "--json")
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and json.loads(done.stdout)["games"] == 2000


def test_the_forward_pass_refuses_tables_beyond_the_budget_before_making_them() -> None:
    """At 16 castles a pass's tables would take tens of GB: asked for, they are refused in words, and the
    enumeration hands its endgames to the memoised solver instead, which holds only the tables it meets."""
    forward = ForwardEndgame(Rules.preset("base", castles=16))
    assert not ForwardEndgame.fits(forward.rules) and ForwardEndgame.fits(Rules.preset("base"))
    with pytest.raises(ExactOutOfReach, match="of memory") as refused:
        _ = forward.digits
    assert not refused.value.forceable
    small = ForwardEndgame(Rules.preset("base", castles=3))
    assert small.digits.tolist() == [list(t) for t in itertools.product(range(3), repeat=3)]


def test_a_forced_run_whose_memos_outgrow_the_budget_is_stopped_in_words(monkeypatch, capsys) -> None:
    """Forcing accepts a long wait, not a machine out of memory: the memos are counted as they grow."""
    from guyenne_explore.analysis import limits

    monkeypatch.setattr(limits, "MEMORY_BUDGET", 100 * limits.BYTES_A_STATE)
    p = _late_team()
    with pytest.raises(ExactOutOfReach, match="of memory") as stopped:
        analyse(p, method="exact", force=True)
    assert not stopped.value.forceable


def test_a_run_far_past_its_estimate_is_stopped_and_forcing_lifts_the_limit(monkeypatch) -> None:
    """An unforced run may take :data:`.limits.OVERRUN` times its estimate (of a second at least), not hours."""
    monkeypatch.setattr(api, "AUTO_SECONDS", 1e-4)
    monkeypatch.setattr(planning, "estimate_exact_cost", lambda *a, **k: (1.0, 1e-4))
    p = _late_team()
    with pytest.raises(ExactOutOfReach, match="stopped after") as stopped:
        analyse(p, method="exact")
    assert stopped.value.forceable
    assert analyse(p, method="exact", force=True).exact


def test_running_out_of_memory_is_a_refusal_in_words(monkeypatch) -> None:
    """A MemoryError the budget did not foresee still ends as the project's refusal, never a crash."""
    from guyenne_explore.analysis.exact import reference

    def exhausted(self, p):
        raise MemoryError()

    monkeypatch.setattr(reference.Reference, "value", exhausted)
    with pytest.raises(ExactOutOfReach, match="out of memory") as refused:
        analyse(_late_team(), method="exact", force=True)
    assert not refused.value.forceable


def _late_team() -> Position:
    """A team position of a seeded uniform game with 10 cards left (about 20,000 states, a second or two)."""
    rng = random.Random(1)
    while True:
        p = Position.start("team")
        while not p.is_over:
            if p.to_play == TEAM_SPLIT and sum(s.hand.size + s.deck.size for s in p.sides) <= 10:
                return p
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_legal(p, rng.choice(list(p.legal_moves)))
