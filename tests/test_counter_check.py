"""Verdicts checked against a counter-strategy (issue 47, point 5): a level's score against an opponent beside its
score against the best counter-strategy to it, in the analysis, the Skill levels tab and the depth ladder.  The
counter-strategies are stubbed where the check itself is tested (finding them is tests/test_exploit.py's); the
games of a level against another are real, a few hundred of the quickest levels."""

import html
import threading

import pytest

from guyenne_explore.analysis import Cancelled, Metric
from guyenne_explore.analysis.studies.depth import BEATS, Depth
from guyenne_explore.analysis.studies.exploit import (TOO_WIDE, Exploitability, ResponderScore, check_verdicts,
                                                      check_verdicts_games, check_verdicts_seconds, counter_check,
                                                      telling_games)
from guyenne_explore.analysis.studies.depth import Match
from guyenne_explore.engine import Position
from guyenne_explore.engine.rules import Rules
from guyenne_explore.i18n import set_language

START = Position.start(Rules.from_json("advanced"))


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language(None)


def _found(level: str, score: float, low: float, high: float, games: int = 40) -> Exploitability:
    """``level``'s counter-strategies as :func:`exploit` finds them: the best, the folder, scoring ``score``."""
    return Exploitability(level, "advanced", (ResponderScore("reader", 0.1, 0.05, 0.15, games),
                                              ResponderScore("folder", score, low, high, games)))


def test_a_measured_score_is_read_beside_the_best_counter_strategys_without_playing_again():
    versus = ResponderScore("uniform", 0.9, 0.85, 0.94, 400)
    pairs = [("heuristic", "uniform", versus)]
    assert check_verdicts_games(pairs, 40, found=["heuristic"]) == 0 == check_verdicts_seconds(START, pairs, 40, ["heuristic"])
    told = []
    checks, found = check_verdicts(START, pairs, 40, found=[_found("heuristic", 0.8, 0.7, 0.9)],
                                   progress=lambda done, total: told.append(done))
    (check,) = checks
    assert told == [] and check.against_opponent is versus and [f.policy for f in found] == ["heuristic"]
    assert (check.against_counter.name, check.against_counter.low, check.against_counter.high) == (
        "folder", pytest.approx(0.1), pytest.approx(0.3))  # the counter's score turned into the level's
    assert check.holds is False and check.words() == "depends on a weakness of heuristic"
    assert counter_check(_found("heuristic", 0.3, 0.2, 0.4), "uniform", versus).words() == (
        "holds against a counter-strategy")


def test_a_pairing_without_a_score_plays_its_games_in_both_seats_and_counts_them(english):
    pairs = [("heuristic", "uniform", None)]
    assert check_verdicts_games(pairs, 200, found=["heuristic"]) == 200
    told = []
    (check,), found = check_verdicts(START, pairs, 200, found=[_found("heuristic", 0.8, 0.7, 0.9)],
                                     progress=lambda done, total: told.append((done, total)))
    assert told[-1] == (200, 200) and check.against_opponent.games == 200
    assert check.against_opponent.low > 0.5  # the heuristic beats uniform play over 200 seeded games
    assert check.sentence(level="heuristic", opponent="uniform").startswith("heuristic against uniform: 0.6")
    assert check.sentence().endswith(
        "against the best counter-strategy (the folder, who never fights): 0.200 [0.100, 0.300]; compared with "
        "0.500 (an even game): depends on a weakness of heuristic")


def test_the_verdicts_check_stops_on_its_progress_or_its_stop_signal():
    pairs, found = [("heuristic", "uniform", None)], [_found("heuristic", 0.8, 0.7, 0.9)]
    told = []
    with pytest.raises(Cancelled):
        check_verdicts(START, pairs, 100_000, found=found, progress=lambda done, total: told.append(done) or False)
    assert told == [0]  # asked as the first game starts: no game played
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        check_verdicts(START, pairs, 100_000, found=found, stop=stop)


def test_a_level_whose_counter_strategies_are_not_found_yet_is_exploited_first(monkeypatch):
    from guyenne_explore.analysis.studies import exploit as module

    asked = []

    def exploit(start, level, games, seed, progress=None, stop=None, training=None):
        asked.append((level, games))
        return _found(level, 0.8, 0.7, 0.9, games)

    monkeypatch.setattr(module, "exploit", exploit)
    versus = ResponderScore("uniform", 0.9, 0.85, 0.94, 400)
    (check,), found = check_verdicts(START, [("heuristic", "uniform", versus)], 6)
    assert asked == [("heuristic", 6)] and found[0].policy == "heuristic" and check.holds is False


# ---------------------------------------------------------------- the Skill levels tab


def _skill_panel(monkeypatch, counter: tuple[float, float, float]):
    """The Skill levels tab with uniform and heuristic chosen, its counter-strategies stubbed: the best scores
    ``counter`` (score, low, high) against each level."""
    from guyenne_explore.widgets import exploit_view
    from guyenne_explore.widgets.skill_panel import SkillPanel

    monkeypatch.setattr(exploit_view, "exploit", lambda start, level, games, **_kw: _found(level, *counter, games))
    panel = SkillPanel(START)
    panel.strong.value = panel.search.value = False
    return panel.counters


def test_the_skill_tab_says_beside_a_level_whether_beating_the_one_below_holds_against_a_counter(monkeypatch, english):
    section = _skill_panel(monkeypatch, (0.8, 0.7, 0.9))
    section.games.box.value = "100"
    cost = html.unescape(section.cost.value)
    assert "Then each level against the one below: 200 games a pair" in cost and section.lines.value == ""
    section.run(block=True)
    assert section.controls.status.value == "Done"
    lines = html.unescape(section.lines.value)
    uniform, heuristic = lines.removesuffix("</ul>").split("</details></li>")[:2]  # a level a line
    assert "against uniform" not in uniform  # the weakest level has none below it
    assert "heuristic against uniform: 0.6" in heuristic and "depends on a weakness of heuristic</small>" in heuristic
    # then every counter-strategy that played it, the best first, folded
    every = heuristic.split("<summary><small>every counter-strategy played</small></summary>")[1]
    assert every == ("<small><ul><li>the folder, who never fights: 0.800 [0.700, 0.900] over 200 games</li>"
                     "<li>the bet-size reader, who takes a lone card for a hero: "
                     "0.100 [0.050, 0.150] over 200 games</li></ul></small>")
    section.refresh()  # a language switch says the kept checks again, nothing played
    assert html.unescape(section.lines.value) == lines


def test_too_few_games_a_seat_are_warned_of_before_the_run(monkeypatch, english):
    from guyenne_explore.analysis.intervals import wilson

    least = telling_games()
    low, high = wilson(least / 2, least)  # the fewest games whose even score's interval tells
    narrower = wilson((least - 2) / 2, least - 2)
    assert high - low <= TOO_WIDE < narrower[1] - narrower[0]
    section = _skill_panel(monkeypatch, (0.8, 0.7, 0.9))
    warning = f"With fewer than {least // 2} games a seat"
    section.games.box.value = str(least // 2 - 1)
    assert warning in html.unescape(section.cost.value) and not section.run_button.disabled
    section.games.box.value = str(least // 2)
    assert warning not in html.unescape(section.cost.value)


def test_a_run_past_the_time_limit_waits_for_the_tabs_run_anyway_box(monkeypatch, english):
    section = _skill_panel(monkeypatch, (0.8, 0.7, 0.9))
    section.games.box.value = "100000"  # days of the searching counter-strategies' games
    assert "days on one core" in html.unescape(section.cost.value)
    section.run(block=True)
    status = html.unescape(section.controls.status.value)
    assert "Not run: Finding counter-strategies would take" in status and "tick 'run anyway" in status
    assert section.lines.value == "" and not section.controls.running
    section.run_anyway.value = True  # the tab's box, above, confirms it (the games against the level below not played)
    from guyenne_explore.widgets import exploit_view

    monkeypatch.setattr(exploit_view, "check_verdicts", lambda *args, **kwargs: ((), []))
    section.run(block=True)
    assert section.controls.status.value == "Done" and "the folder" in html.unescape(section.lines.value)


def test_the_last_runs_lines_are_dimmed_while_a_new_run_plays(monkeypatch, english):
    from guyenne_explore.widgets import exploit_view

    section = _skill_panel(monkeypatch, (0.8, 0.7, 0.9))
    section.games.box.value = "10"
    section.run(block=True)
    assert section.lines.value and "guyenne-stale" not in section.lines._dom_classes
    dimmed: list[bool] = []

    def exploit(start, level, games, **_kw):
        dimmed.append("guyenne-stale" in section.lines._dom_classes)
        return _found(level, 0.8, 0.7, 0.9, games)

    monkeypatch.setattr(exploit_view, "exploit", exploit)
    section.run(block=True)
    assert dimmed == [True, True] and "guyenne-stale" not in section.lines._dom_classes


def test_the_skill_tabs_check_holds_where_the_counter_does_no_better_than_the_level_below(monkeypatch, english):
    section = _skill_panel(monkeypatch, (0.3, 0.2, 0.4))
    section.games.box.value = "100"
    section.run(block=True)
    assert "holds against a counter-strategy</small><details>" in html.unescape(section.lines.value)


def test_cancel_stops_the_skill_tabs_games_against_the_level_below(monkeypatch, english):
    section = _skill_panel(monkeypatch, (0.8, 0.7, 0.9))
    section.games.box.value = "100000"
    section.run_anyway.value = True  # (past the time limit: confirmed)
    section.run(block=False)
    section.controls.cancel()
    section.controls.thread.join(120)
    assert not section.controls.running and section.controls.status.value.startswith("Cancelled")
    assert section.lines.value == ""


# ---------------------------------------------------------------- the depth ladder


def _metric(name, value, spread, games=200):
    return Metric(name, value, value - spread, value + spread, "probability", games)


def _ladder(score: float) -> Depth:
    """A measured ladder of advanced: the heuristic scoring ``score`` (±0.03) against uniform play."""
    match = Match("uniform", "heuristic", _metric("Score", score, 0.03), _metric("Weaker", 0.17, 0.02, 400),
                  _metric("Luck", 0.62, 0.04))
    return Depth("advanced", ("uniform", "heuristic"), (match,), 1, 1, 1, match.weaker_wins, match.luck)


def test_a_ladders_rungs_are_its_matches_scores_read_against_its_bar():
    (rung,) = _ladder(0.81).rungs()
    assert rung[:2] == ("heuristic", "uniform")
    assert (rung[2].score, rung[2].low, rung[2].high, rung[2].games) == (0.81, pytest.approx(0.78), pytest.approx(0.84), 400)


def _balance_panel(monkeypatch, counter: tuple[float, float, float]):
    from guyenne_explore.analysis.studies import exploit as module
    from guyenne_explore.widgets.balance_panel import BalancePanel

    monkeypatch.setattr(module, "exploit", lambda start, level, games, seed, **_kw: _found(level, *counter, games))
    return BalancePanel(Position.start(Rules.from_json("advanced")))


def test_the_depth_ladder_checks_each_rung_against_a_counter_on_request(monkeypatch, english):
    panel = _balance_panel(monkeypatch, (0.6, 0.5, 0.7))
    section = panel.depth_check
    assert section.run_button.disabled and section.cost.value.startswith("Measure depth first")
    # no verdict yet: what the check is, its field and its button wait for one (the line above says how to get it)
    assert all(part.layout.display == "none" for part in section.asking) and section.cost.layout.display is None
    panel._depth_finish(_ladder(0.81), lambda: "Done")
    assert not section.run_button.disabled and section.lines.value == ""
    assert all(part.layout.display is None for part in section.asking)
    assert section.cost.value.startswith("Check against a counter-strategy: 1 verdict, ")  # its cost, before it runs
    section.run(block=True)
    line = html.unescape(section.lines.value)
    # beating uniform by the ladder's bar, 0.78 to 0.84: a counter-strategy takes the heuristic to 0.3 to 0.5
    assert f"compared with {BEATS:.3f}: depends on a weakness of heuristic" in line
    assert line.startswith("<ul><li>heuristic against uniform: 0.810 [0.780, 0.840]")
    panel._depth_finish(_ladder(0.81), lambda: "Done")  # a new ladder: the lines checked the one before
    assert section.lines.value == "" and section.controls.status.value == ""


def test_a_rung_beaten_by_the_counter_too_holds(monkeypatch, english):
    panel = _balance_panel(monkeypatch, (0.2, 0.15, 0.3))
    panel._depth_finish(_ladder(0.81), lambda: "Done")
    panel.depth_check.run(block=True)
    assert html.unescape(panel.depth_check.lines.value).endswith("holds against a counter-strategy</li></ul>")


def test_the_depth_check_is_refused_under_another_rule_set_than_the_ladders(monkeypatch, english):
    panel = _balance_panel(monkeypatch, (0.6, 0.5, 0.7))
    panel._depth_finish(_ladder(0.81), lambda: "Done")
    panel.rule_set.value = Rules.preset("base")
    assert panel.depth_check.run_button.disabled
    assert panel.depth_check.cost.value.startswith("Measure depth again")


# ---------------------------------------------------------------- the variant lab's comparison


def test_the_variant_labs_comparison_of_two_levels_is_checked_against_a_counter_under_each_rule_set(monkeypatch,
                                                                                                   english):
    from guyenne_explore.analysis.studies import exploit as module
    from guyenne_explore.widgets.variant_lab import VariantLab

    monkeypatch.setattr(module, "exploit", lambda start, level, games, seed, **_kw: _found(level, 0.8, 0.7, 0.9, games))
    lab = VariantLab(Position.start(Rules.from_json("advanced")))
    section = lab.counter_check
    assert section.run_button.disabled and section.cost.value.startswith("Compare with preset first")
    lab.games.value, lab.method.value = 20, "sample"
    lab.run_compare(block=True)
    assert section.run_button.disabled and section.cost.value.startswith("Both sides play uniform")
    assert section.caption.layout.display == "none" and section.games.layout.display == "none"
    lab.english_policy.value, lab.french_policy.value = "heuristic", "uniform"
    lab.editors["hand_size"].value = "7"
    lab.run_compare(block=True)
    section.games.box.value = "100"
    assert section.cost.value.startswith("Check against a counter-strategy: 4 verdicts, 5,600 games in all")  # 6 counters each
    section.run(block=True)
    assert "guyenne-stale" not in section.lines._dom_classes  # dimmed while it played, not after
    lines = html.unescape(section.lines.value)
    preset, variant = lines.split("<div>")[1:]
    assert preset.startswith("preset advanced") and variant.startswith("variant advanced, hand size 7")
    # under the preset the heuristic beats uniform play, but not its counter-strategy (as from the deal above)
    assert "<li>heuristic against uniform: 0.6" in preset and "depends on a weakness of heuristic</li>" in preset
    for group in (preset, variant):  # uniform play loses to both: the counter to it does no better than the heuristic
        assert "<li>uniform against heuristic: " in group and "holds against a counter-strategy</li>" in group
    assert "<li>heuristic against uniform: " in variant


# ---------------------------------------------------------------- the balance search's best setting


def _searched(ladder: tuple[str, ...]):
    """A balance search of advanced's hand size under heuristic play whose best setting is hand size 6, its depth
    read on ``ladder`` (none: no depth target)."""
    from guyenne_explore.analysis.studies.balance import Candidate, SearchResult, Space, parse_targets

    space = Space.parse(Rules.preset("advanced"), ["hand_size=5:7"])
    targets = parse_targets(["advantage=0.4:0.6"])
    best = Candidate(0, {"hand_size": 6}, {"First player's score": _metric("First player's score", 0.5, 0.03)}, 200,
                     0.0, False, (), (), ())
    return SearchResult(space, targets, 200, 0, [best], 0, 200, 1.0, trials=1, policies=("heuristic", "heuristic"),
                        ladder=ladder)


def test_the_best_settings_ladder_is_checked_against_a_counter_on_request(monkeypatch, english):
    panel = _balance_panel(monkeypatch, (0.8, 0.7, 0.9))
    section = panel.best_check
    assert section.run_button.disabled and section.cost.value.startswith("Run search first")
    panel._finish(_searched(()), lambda: "Done")
    assert section.run_button.disabled and section.cost.value.startswith(
        "The best setting was searched without a depth target")
    panel._finish(_searched(("uniform", "heuristic")), lambda: "Done")
    section.games.box.value = "200"  # 400 games against uniform play: the heuristic clears the ladder's bar
    assert section.cost.value.startswith("Check against a counter-strategy: 1 verdict, 2,800 games in all")
    section.run(block=True)
    lines = html.unescape(section.lines.value)
    assert lines.startswith("<div>the best setting, advanced") and "<li>heuristic against uniform: 0.6" in lines
    assert lines.endswith(f"compared with {BEATS:.3f}: depends on a weakness of heuristic</li></ul>")


# ---------------------------------------------------------------- the command line


def test_the_depth_command_checks_each_rung_against_a_counter_behind_a_flag(monkeypatch, capsys, english):
    import json

    from guyenne_explore.analysis.studies import exploit as module
    from guyenne_explore.cli import main

    monkeypatch.setattr(module, "exploit", lambda start, level, games, seed, **_kw: _found(level, 0.8, 0.7, 0.9, games))
    args = ["depth", "--rules", "advanced", "--levels", "uniform,heuristic", "--games", "200", "--json"]
    assert main(args) == 0
    assert "counter_check" not in json.loads(capsys.readouterr().out)  # not asked: not played
    assert main([*args, "--counter-check"]) == 0
    out, err = capsys.readouterr()
    (check,) = json.loads(out)["counter_check"]
    assert (check["level"], check["opponent"], check["target"]) == ("heuristic", "uniform", BEATS)
    assert check["against_counter"]["name"] == "folder" and check["against_opponent"]["games"] == 400
    assert check["holds"] is False  # the heuristic clears the bar against uniform play, not against the folder
    assert "then every counter-strategy against each level above the lowest: 400 games each" in err.splitlines()[1]
    assert main(args[:-1] + ["--counter-check"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]  # the report's last line: the rung checked, in words
    assert last.startswith("  heuristic against uniform: 0.6") and last.endswith(
        "against the best counter-strategy (the folder, who never fights): 0.200 [0.100, 0.300]; compared with 0.550: "
        "depends on a weakness of heuristic")


def test_the_skill_command_checks_each_level_against_the_one_below_behind_a_flag(monkeypatch, capsys, english):
    import json

    from guyenne_explore.analysis.studies import exploit as module
    from guyenne_explore.cli import main

    monkeypatch.setattr(module, "exploit", lambda start, level, games, seed, **_kw: _found(level, 0.8, 0.7, 0.9, games))
    args = ["skill", "--rules", "advanced", "--levels", "uniform,heuristic", "--games", "100", "--workers", "1"]
    assert main([*args, "--json"]) == 0
    assert "counter_check" not in json.loads(capsys.readouterr().out)  # not asked: not played
    assert main([*args, "--json", "--counter-check"]) == 0
    out, err = capsys.readouterr()
    (check,) = json.loads(out)["counter_check"]
    assert (check["level"], check["opponent"], check["target"]) == ("heuristic", "uniform", 0.5)
    assert check["against_opponent"]["games"] == 200 and check["holds"] is False
    assert "then every counter-strategy against each level above the lowest, and each against the one below: 200 " \
           "games each" in err
    assert main([*args, "--counter-check"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("  heuristic against uniform: 0.6") and last.endswith("depends on a weakness of heuristic")


def test_cancel_stops_a_tabs_check_against_a_counter(monkeypatch, english):
    panel = _balance_panel(monkeypatch, (0.8, 0.7, 0.9))
    panel._finish(_searched(("uniform", "heuristic")), lambda: "Done")
    section = panel.best_check
    section.games.box.value = "100000"
    assert section.cost.value.startswith("Check against a counter-strategy: 1 verdict, 1,400,000 games in all")
    section.run(block=False)
    section.controls.cancel()
    section.controls.thread.join(120)
    assert not section.controls.running and section.lines.value == ""
    assert section.controls.status.value == "Cancelled: no run has finished yet."
