"""Puzzles from game records: verified by the open-hand solver or the search, tagged by what their solution shows."""

from __future__ import annotations

import json
import re
import random

import pytest

from guyenne_explore.analysis.puzzles import PuzzleFinder, bot_games, judge, puzzles_from_bot_games, puzzles_from_json
from guyenne_explore.analysis.optimal.round import round_start
from guyenne_explore.analysis.optimal.solver import OptimalSolver, solve_position
from guyenne_explore.analysis.puzzles import EXACT, EXACT_MARGIN, SECTION_OF, Puzzle, PuzzleError, tags_of
from guyenne_explore.engine.cards import Cards
from guyenne_explore.cli import main
from guyenne_explore.engine.position import FRENCH, PLACEMENTS, Position
from guyenne_explore.engine.record import Event, GameRecord
from guyenne_explore.render.storyboard import frames_of
from guyenne_explore.engine.rules import Rules
from guyenne_explore.rulebook import SECTION_IDS


def equilibrium_game(p, seed: int = 0) -> GameRecord:
    """A game from an open-hand endgame where both sides play the equilibrium (its mix drawn from ``seed``)."""
    rng = random.Random(seed)
    solver = OptimalSolver(p.rules, "score")
    record = GameRecord(p)
    while not p.is_over:
        if p.is_chance:
            draw = p.chance_outcomes()[0][0]
            record.events.append(Event(p.to_play, None, draw=draw))
            p = p.apply_outcome(draw)
            continue
        if p.to_play in PLACEMENTS:
            mix = solver.strategy(p)[0]
            move = rng.choices([m for m, _ in mix], [w for _, w in mix])[0]
        else:
            move = next(iter(p.legal_moves))
        record.events.append(Event(p.to_play, p.side_to_play, move=move))
        p = p.apply(move)
    return record


@pytest.fixture(scope="module")
def endgame() -> GameRecord:
    """Four castles, both decks spent: English holds H32, French 532 and opens; the other cards are discarded."""
    key = ((1, -1, 0, 1), FRENCH, Cards.of(list("H32")), Cards.of(list("532")))
    data = round_start(Rules.preset("advanced", castles=4), key).to_json()
    every = Cards.of(["H"] + ["5"] * 2 + ["4"] * 3 + ["3"] * 4 + ["2"] * 12)
    for side in data["sides"].values():
        side["discard"] = (every - Cards.of(side["hand"])).symbols()
    return equilibrium_game(Position.from_json(data))


@pytest.fixture(scope="module")
def exact(endgame) -> list[Puzzle]:
    return PuzzleFinder().find(endgame, "endgame")


@pytest.fixture(scope="module")
def searched() -> list[Puzzle]:
    finder = PuzzleFinder(games=200)
    return [pz for k, g in enumerate(bot_games("advanced", 2, seed=0)) for pz in finder.find(g, f"g{k}")]


def test_exact_puzzles_are_the_solvers_answer(exact):
    assert exact and all(pz.method == EXACT for pz in exact)
    for pz in exact:
        again = solve_position(pz.position, "score")  # a fresh solver
        assert [(m, round(w, 6)) for m, w in again.moves] == [(pz.solution, 1.0)]
        assert pz.values[0][0] == pz.solution and pz.values[0][1] - pz.values[1][1] >= EXACT_MARGIN


def test_searched_puzzles_beat_every_other_candidate_by_their_intervals(searched):
    from guyenne_explore.analysis import wilson

    assert searched
    for pz in searched:
        low = wilson(pz.best_value * pz.games, pz.games)[0]
        assert all(low - wilson(v * pz.games, pz.games)[1] >= pz.margin for _, v in pz.values[1:])


def _shown(record: GameRecord) -> set[str]:
    """What a solution's storyboard shows, read from its frames and zones (not from tags_of)."""
    frames = frames_of(record, lang="en")
    ps = record.positions()
    shown = set()
    if any("hero wins whatever the sums" in f.caption for f in frames if f.kind == "battle"):
        shown.add("hero")
    if any(f.kind in ("removal", "remove_choice") for f in frames):
        shown.add("removal")
    if any(q.sides[s].exhaustions > p.sides[s].exhaustions for p, q in zip(ps, ps[1:]) for s in (0, 1)):
        shown.add("exhaustion")
    if any(p.to_play == "draw" and q.sides[s].discard.size < p.sides[s].discard.size
           for p, q in zip(ps, ps[1:]) for s in (0, 1)):
        shown.add("reshuffle")
    final = ps[-1]
    if final.is_over:
        shown.add("sweep" if final.result().ending.reason == "sweep" else "exhaustion")
    return shown


def test_each_tag_is_what_the_solution_shows(exact, searched):
    for pz in exact + searched:
        assert pz.tags and set(pz.tags) == _shown(pz.record()), pz.source
        assert pz.line[0].move == pz.solution
        assert tags_of(pz.position, pz.line) == pz.tags


def test_sections_are_the_rulebooks():
    assert set(SECTION_OF.values()) <= set(SECTION_IDS)


def test_a_wrong_move_gets_the_reason(exact, searched):
    pz = exact[0]
    illegal = judge(pz, "1:HHH", lang="en")
    assert not illegal.legal and "not allowed" in illegal.reason and pz.position.why_illegal("0:HHH") in illegal.reason
    worse = next(m for m, _ in pz.values[1:])
    verdict = judge(pz, worse.text(1), lang="en")  # as typed: castles as the table numbers them
    assert verdict.legal and not verdict.correct and verdict.loss >= EXACT_MARGIN
    assert "legal but worse" in verdict.reason and pz.solution.text(1) in verdict.reason
    assert judge(pz, pz.solution.text(1), lang="en").correct
    s = searched[0]
    # a move the search did not value, valued on the same rollouts when asked (or the runner-up)
    other = next((m for m in s.position.legal_moves if m not in dict(s.values)), s.values[1][0])
    v = judge(s, other.text(), lang="fr")
    assert v.legal and not v.correct and s.solution.text() in v.reason
    # its shares of games won as French writes them ("40 %"; it said "40%")
    assert re.search(r"\d\u00a0%", v.reason) and not re.search(r"\d%", v.reason), v.reason
    french_exact = judge(pz, worse.text(), lang="fr").reason
    assert not re.search(r"\d\.\d", french_exact), french_exact  # its points in French decimals ("1,5")


def test_puzzles_read_back_from_json(exact, searched):
    data = json.loads(json.dumps([pz.to_json() for pz in exact + searched]))
    assert puzzles_from_json(data) == exact + searched
    data[0]["line"][0]["side"] = "nobody"
    with pytest.raises(PuzzleError, match=r"puzzles\[0\]\.line\[0\]\.side"):
        puzzles_from_json(data)


def test_cli_names_a_bad_record_and_reads_the_others(endgame, tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(endgame.to_json()))
    bad = tmp_path / "bad.json"
    data = endgame.to_json()
    data["moves"][1]["side"] = "nobody"
    bad.write_text(json.dumps(data))
    out = tmp_path / "out"
    assert main(["puzzles", str(bad), str(good), "-o", str(out), "--json"]) == 1
    said = capsys.readouterr()
    assert "bad.json" in said.err and "moves[1].side" in said.err and "Traceback" not in said.err
    written = json.loads((out / "puzzles.json").read_text())
    assert written == json.loads(said.out) and len(written) >= 1 and written[0]["method"] == "exact"
    for lang in ("en", "fr"):
        assert list((out / "puzzle-001" / lang).glob("step-*.svg"))


@pytest.mark.parametrize("preset", ["base", "advanced", "expert", "classic2021"])
def test_bot_games_give_puzzles_under_each_preset(preset):
    """Games are played one at a time and the run stops at the first that gives the puzzles wanted: every puzzle
    comes from the last game played, none from an earlier one (the seeds are not pinned: the bots' games change
    whenever strong does)."""
    found, played = puzzles_from_bot_games(preset, wanted=1, most=8, seed=0, finder=PuzzleFinder(games=100))
    assert found and 1 <= played <= 8
    assert all(pz.source.startswith(f"{preset}-seed-{played - 1}#") and pz.tags for pz in found)
    assert {pz.position.rules.preset_name for pz in found} == {preset}


def test_bot_games_stop_at_the_most_games():
    """Fewer puzzles than wanted in the games allowed: the run stops at the most games, with what it found."""
    found, played = puzzles_from_bot_games("base", wanted=50, most=1, seed=0, finder=PuzzleFinder(games=100))
    assert played == 1 and len(found) < 50


def test_cli_plays_bot_games_until_the_puzzles_wanted(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["puzzles", "--from-games", "--wanted", "1", "--rules", "expert", "--games", "100", "-o", str(out),
                 "--json"]) == 0
    said = capsys.readouterr()
    sources = [pz["source"] for pz in json.loads(said.out)]
    last = int(sources[0].split("-seed-")[1].split("#")[0])  # the game that gave them: the last one played
    assert sources and all(s.startswith(f"expert-seed-{last}#") for s in sources)
    assert f"{last + 1} bot game" in said.err


def test_cli_refuses_wanted_without_bot_games(endgame, tmp_path, capsys):
    record = tmp_path / "game.json"
    record.write_text(json.dumps(endgame.to_json()))
    assert main(["puzzles", str(record), "--wanted", "5", "-o", str(tmp_path / "out")]) != 0
    said = capsys.readouterr()
    assert "--wanted" in said.err and "--from-games" in said.err and "Traceback" not in said.err
