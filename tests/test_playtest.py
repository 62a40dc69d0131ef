"""Playtests read against the bots (issue 44, points 3 to 6): players of known behaviour read as they play, a
player who never bluffs, luck taken out of uniform against uniform, a persona recovering known weights, the
command line over a folder with a bad record, and persona@FILE as a level.  Tiny budgets and few games."""

import csv
import io
import json
import random

import numpy as np
import pytest

from guyenne_explore.analysis import Cancelled, PolicySpec, analyse
from guyenne_explore.analysis.playtest import fit_persona
from guyenne_explore.analysis.compiled.rollout import traced_game
from guyenne_explore.analysis.compiled.policy_codes import FEATURES
from guyenne_explore.analysis.optimal.round import round_start
from guyenne_explore.analysis.optimal.solver import OptimalSolver
from guyenne_explore.analysis.playtest.people import players
from guyenne_explore.analysis.playtest.persona import _Stacked, placements
from guyenne_explore.analysis.playtest.reading import band, read_games
from guyenne_explore.analysis.playtest.report import playtest_report
from guyenne_explore.analysis.policies import weights as files
from guyenne_explore.analysis.policies.heuristic import Heuristic
from guyenne_explore.analysis.policies.strong import Strong
from guyenne_explore.engine.cards import Cards
from guyenne_explore.cli import main
from guyenne_explore.engine.policy import UNIFORM
from guyenne_explore.engine.position import Position
from guyenne_explore.engine.record import Event, GameRecord, RecordHeader, Seat, play_game
from guyenne_explore.engine.rules import Rules
from guyenne_explore.engine.state import FRENCH, OPEN_FIRST, OPEN_SECOND

ADVANCED = Rules.preset("advanced")
START = Position.start(ADVANCED)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    """Readings kept in a folder of the test's own, never the user's cache."""
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path / "cache"))


def headed(record: GameRecord, names: tuple[str, str] = ("Alice", "Bob")) -> GameRecord:
    """``record`` with a header: two people by name."""
    seats = [Seat("english", 0, "person", name=names[0]), Seat("french", 0, "person", name=names[1])]
    record.header = RecordHeader.new(record.start.rules, seats)
    return record


def games(policy, count: int, seed: int = 0) -> list[tuple[str, GameRecord]]:
    return [(f"g{i}", headed(play_game(START, seed + i, policy))) for i in range(count)]


def test_bots_own_games_read_as_playing_like_themselves():
    for policy, level in ((Heuristic(), "heuristic"), (Strong(), "strong")):
        named = games(policy, 4)
        readings = read_games(named, budget=4)
        found = players(readings, [r for _n, r in named], ["uniform", "heuristic", "strong"])
        group = next(p for p in found if p.name == "group")
        assert group.plays_like == level, (level, group.fits)
        assert all(f.held_out for f in group.fits)


class NeverBluffs:
    """Opens with two cards or more wherever it can (a bluff is one card), else as uniform play."""

    name, exact = "never-bluffs", False

    def choose(self, view, rng: random.Random):
        moves = list(view.legal_moves)
        if view.to_play in (OPEN_FIRST, OPEN_SECOND):
            big = [m for m in moves if m.cards.size >= 2]
            return rng.choice(big or moves)
        return UNIFORM.choose(view, rng)

    def distribution(self, view):
        raise NotImplementedError


def test_a_player_who_never_bluffs_shows_no_bluff():
    named = [(f"g{i}", headed(play_game(START, i, (NeverBluffs(), Heuristic())))) for i in range(4)]
    found = players(read_games(named, budget=2), [r for _n, r in named], ["heuristic"])
    alice = next(p for p in found if p.name == "Alice")
    bob = next(p for p in found if p.name == "Bob")
    assert alice.style.bluffs.trials > 0 and alice.style.bluffs.hits == 0
    assert bob.style.bluffs.trials > 0


def test_uniform_against_uniform_is_even_once_luck_is_taken_out():
    report = playtest_report(games(UNIFORM, 8, seed=100), ["uniform", "heuristic"], budget=16, bot_games=20)
    value, low, high = report.luck_adjusted()
    assert low <= 0.5 <= high, (value, low, high)
    data = report.to_json()
    assert {"name", "decisions", "accuracy", "mean_loss", "plays_like", "likelihoods"} <= set(data["players"][0])
    assert {"low", "high"} <= set(data["players"][0]["accuracy"])
    assert all({"result", "luck_adjusted"} <= set(g) for g in data["games"])
    assert data["sentences"]["fr"] and data["sentences"]["en"] != data["sentences"]["fr"]


def test_a_game_reads_the_same_whenever_it_was_recorded():
    """The reading's random stream follows what was played, not the header's date: a game saved twice (another
    date, other names) reads the same at the same seed."""
    import dataclasses

    record = headed(play_game(START, 7, UNIFORM))
    again = headed(play_game(START, 7, UNIFORM), ("Carol", "Dave"))
    again.header = dataclasses.replace(again.header, date="1999-01-01T00:00:00Z")
    first, second = read_games([("a", record), ("b", again)], budget=8, cache=False)
    assert first.fingerprint != second.fingerprint  # two records (the cache keeps each)
    assert [d.to_json() for d in first.draws] == [d.to_json() for d in second.draws]
    assert [(d.value, d.best) for d in first.decisions] == [(d.value, d.best) for d in second.decisions]


def test_bands_follow_the_stated_thresholds():
    assert [band(x) for x in (None, 0.0, 0.029, 0.03, 0.08, 0.2)] == [None, "", "", "inaccuracy", "mistake", "blunder"]


def test_cancel_stops_the_reading():
    with pytest.raises(Cancelled):
        read_games(games(UNIFORM, 1), budget=2, on_step=lambda done, total: False)


def mean_distance(stacked: _Stacked, a, b) -> float:
    """The mean total variation distance between two weights' move probabilities over the stacked decisions."""
    gap = np.abs(stacked.probabilities(np.array(a)) - stacked.probabilities(np.array(b)))
    return float(np.add.reduceat(gap, stacked.starts).mean() / 2)


def test_a_persona_fitted_to_games_of_known_weights_recovers_them():
    """Tolerance: over games the fit did not see, the fitted weights' move probabilities lie within 0.02 (mean total
    variation distance) of the true ones', and under half as far as the starting (package) weights'."""
    start = files.shipped(files.preset_file(ADVANCED, linear=True))  # a persona fits a linear score
    true = tuple(np.array(start) + np.random.default_rng(0).normal(0, 0.5, len(FEATURES)))
    sides = (Strong(true).compiled(ADVANCED),) * 2
    seen = [traced_game(START, 5, i, sides)[0] for i in range(12)]
    unseen = [traced_game(START, 6, i, sides)[0] for i in range(4)]
    persona = fit_persona(seen)
    held = _Stacked.of(placements(unseen))
    fitted = mean_distance(held, persona.weights, true)
    assert fitted < 0.02 and fitted < mean_distance(held, start, true) / 2
    assert persona.fitted_likelihood > persona.start_likelihood


def test_persona_file_plays_as_a_level(tmp_path):
    file = tmp_path / "mine.json"
    fit_persona([traced_game(START, 5, i, (Strong().compiled(ADVANCED),) * 2)[0] for i in range(2)]).write(file)
    assert isinstance(PolicySpec.parse(f"persona@{file}").policy(), Strong)
    result = analyse(START, (f"persona@{file}", "strong"), method="sample", games=20)
    assert result.plan.sampler.name == "COMPILED"
    with pytest.raises(ValueError, match="persona@FILE"):
        PolicySpec.parse("persona@").policy()


def test_command_line_reports_a_folder_and_names_its_bad_record(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    for name, record in games(UNIFORM, 2):
        (folder / f"{name}.json").write_text(json.dumps(record.to_json()), encoding="utf-8")
    (folder / "broken.json").write_text("{not json", encoding="utf-8")
    table, page = tmp_path / "decisions.csv", tmp_path / "report.html"
    code = main(["playtest", "report", str(folder), "--budget", "search:2", "--bot-games", "4", "--levels",
                 "uniform,heuristic", "--json", "--csv", str(table), "--report", str(page)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "broken.json" in err
    data = json.loads(out)
    assert [b["file"].rsplit("/", 1)[-1] for b in data["bad_records"]] == ["broken.json"]
    assert {p["name"] for p in data["players"]} >= {"Alice", "Bob"}
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"))))
    decisions = [r for r in rows if r["kind"] == "decision"]
    assert decisions and all(int(r["legal_moves"]) > 1 for r in decisions)
    assert "search:2" in {r["valued_by"] for r in decisions} <= {"exact", "search:2"}
    assert all(float(r["luck"]) == float(r["luck"]) for r in rows if r["kind"] == "draw" and r["luck"])
    page_text = page.read_text(encoding="utf-8")
    assert "broken.json" in page_text
    # where each person lost: the costliest decisions with the bots' move, in words (castles counted from 1)
    assert "Decisions to look at: Alice" in page_text and "Decisions to look at: Bob" in page_text
    assert "the bots&#x27; move (its value)" in page_text and "castle " in page_text
    lost = [r for r in decisions if r["band"]]
    assert lost and all(r["best_move"] and r["best_move"] != r["move"] for r in lost)
    assert main(["playtest", "persona", str(folder), "--out", str(tmp_path / "p.json")]) == 0
    assert main(["playtest", "report", str(folder), "--budget", "rollouts"]) == 1


def recorded(start: Position, *moves) -> GameRecord:
    """A record of ``moves`` played from ``start``."""
    record, p = GameRecord(start), start
    for mv in moves:
        record.append(Event(p.to_play, p.side_to_play, move=mv))
        p = p.apply(mv)
    return record


def test_endgame_decisions_are_valued_exactly_by_the_open_hand_solver():
    """In an open-hand endgame (French opens and wins for sure) the opening the equilibrium always plays loses 0
    and one it never plays loses what the solver's values say: its subgame's value below the round's; both exact,
    with no interval, and said so in the JSON and the CSV."""
    rules = Rules.preset("base", castles=3)
    key = ((0, 1, -1), FRENCH, Cards.parse("5322"), Cards.parse("H432"))
    solver = OptimalSolver(rules)
    start = round_start(rules, key)
    [(certain, weight)] = solver.strategy(start)[0]
    reply = solver.strategy(start.apply(certain))[0][0][0]
    other = next(mv for mv in start.legal_moves if (mv.castle, mv.cards.size) != (certain.castle, certain.cards.size))
    never = solver.strategy(start, public=(other.castle, other.cards.size))[0][0][0]
    loss = solver.subgame_value(key, never.castle, never.cards.size) - solver.value_of(key)  # french loses english's gain
    assert weight == 1.0 and loss > 0.1
    named = [("certain", recorded(start, certain, reply)), ("never", recorded(start, never))]
    good, bad = read_games(named, budget=2)
    assert [(d.move, d.valued_by, d.loss) for d in good.decisions] == [(certain.text(), "exact", 0.0),
                                                                        (reply.text(), "exact", 0.0)]
    [read] = bad.decisions
    assert read.valued_by == "exact" and read.loss == pytest.approx(loss, abs=1e-7)
    assert read.loss_interval(2) is None and read.to_json()["valued_by"] == "exact"
    rows = playtest_report(named, ["uniform"], budget=2, bot_games=0).rows()
    assert [r["valued_by"] for r in rows] == ["exact"] * 3


def test_a_players_costliest_decisions_come_first_each_theirs_and_in_a_band_and_the_group_has_every_persons():
    """Where a player lost, not only how much: the report's list for Alice holds every decision of hers in a band of
    loss, the costliest first, and the group's holds Alice's and Bob's; each says what the bots prefer in words."""
    from guyenne_explore.render.playtest_report import costly_parts

    named = games(UNIFORM, 2)
    report = playtest_report(named, ["uniform"], budget=2, bot_games=0)
    alice, bob, group = (next(p for p in report.players if p.name == n) for n in ("Alice", "Bob", "group"))
    costly = report.costliest(alice)
    theirs = [d for g in report.games for d in g.decisions if g.player(d).name == "Alice" and band(d.loss)]
    assert costly and len(costly) == len(theirs)
    losses = [c.decision.loss for c in costly]
    assert losses == sorted(losses, reverse=True) and min(losses) >= 0.03
    assert {c.game.player(c.decision).name for c in costly} == {"Alice"}
    assert len(report.costliest(group)) == len(costly) + len(report.costliest(bob))
    from guyenne_explore.render.playtest_report import players_table

    assert "A bot's decisions" not in players_table(report, "en")  # people alone: no bot's row to explain
    records = dict(named)
    opening = next(c for c in costly if c.decision.point in (OPEN_FIRST, OPEN_SECOND))
    position = records[opening.game.name].positions()[opening.decision.index]
    move = position.parse_move(opening.decision.move)
    parts = costly_parts(opening, position, report.budget)
    assert parts["played"].startswith(f"castle {move.castle + 1}: {move.cards} (")
    assert parts["when"].startswith(f"round {opening.decision.round}, the opening at the")
    assert parts["band"] in ("inaccuracy", "mistake", "blunder")


@pytest.mark.parametrize("value, best, games", [(0.0, 1.0, 400), (0.5, 0.5, 400), (0.25, 0.75, 40), (0.9, 1.0, 100)])
def test_a_loss_interval_never_shrinks_to_a_point_and_holds_its_loss(value, best, games):
    """The normal bound said "1.000 [1.000, 1.000]" where every rollout won for the best move and lost for the one
    played: Newcombe's interval of a difference of proportions keeps a width however one-sided the rollouts."""
    from guyenne_explore.analysis.intervals import wilson
    from guyenne_explore.analysis.playtest.reading import DecisionReading

    d = DecisionReading(0, 1, 0, 0, "open_first", "0:H", 30, None, value, best, "1:H", f"search:{games}")
    low, high = d.loss_interval(games)
    assert 0.0 <= low <= d.loss <= high <= 1.0 and high - low > 0.01
    if (value, best) == (0.0, 1.0):  # all won against all lost: the two Wilson ends' distances, added in quadrature
        assert low == pytest.approx(1 - ((1 - wilson(games, games)[0]) ** 2 + wilson(0, games)[1] ** 2) ** 0.5)
        assert high == 1.0
    wider = d.loss_interval(games // 4)
    assert wider[1] - wider[0] > high - low  # fewer rollouts, a wider interval
