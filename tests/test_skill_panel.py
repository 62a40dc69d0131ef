"""The skill levels view, headless: it runs rule sets at each level, draws the metric, says what turns."""

import html
import re

from guyenne_explore.analysis.metrics import Metric
from guyenne_explore.analysis.studies.skill import ABOVE, BELOW, EVEN, SkillCell, SkillTable
from guyenne_explore.i18n import plain_estimate
from guyenne_explore.engine import Position
from guyenne_explore.engine.rules import Rules
from guyenne_explore.widgets.explorer import TABS, Explorer
from guyenne_explore.widgets.skill_panel import SkillPanel
from guyenne_explore.widgets.starts import opening


def test_a_run_draws_the_metric_by_level_for_each_rule_set_with_intervals():
    panel = SkillPanel(opening("advanced", 1))
    base = Rules.from_json("base")
    panel.rule_sets.value = (panel.position.rules, base)
    panel.games.value, panel.search_games.value, panel.search_budget.value = 300, 2, 4
    panel.strong_linear.value = True  # the linear policy strong played before its networks, between it and the heuristic
    panel.run(block=True)
    table = panel.table
    assert table is not None and table.levels == ["uniform", "heuristic", "strong-linear", "strong", "search:4"]
    assert table.labels == [lb for lb, _ in panel.rule_sets.options[:1]] + ["base"]
    # every rule set at every level, each with the games asked for
    adv = [table.cell(lb, lv, "Advantage (english)").metric for lb in table.labels for lv in table.levels]
    assert [m.games for m in adv] == [300, 300, 300, 300, 2] * 2
    (view,) = panel.figure_box.shown
    traces = view.figure["data"]
    assert [t["name"] for t in traces] == table.labels
    # each level by its name in words: the search with its budget, as the tab's box and field say it
    assert all(t["x"] == ["uniform", "heuristic", "strong-linear", "strong", "search (4 rollouts)"]
               and t["error_y"]["visible"] for t in traces)
    assert "Advantage (English) by skill level" in view.figure["layout"]["title"]["text"]
    assert view.figure["layout"]["yaxis"]["title"]["text"] == "Advantage (English)"
    assert "Where the conclusion changes with skill" in panel.changes.value
    assert panel.details.value.count("<tr>") == 1 + len(table.labels)  # head and one row a rule set
    # each verdict says against what, and the two search games are flagged as few
    assert "½" in panel.details.value and "(only 2 games)" in panel.details.value
    assert panel.metric._options_labels[:2] == ("Advantage (English)", "Advantage (French)")
    assert not any("(english)" in x or "(french)" in x for x in (panel.changes.value, panel.details.value))
    assert "Done" in panel.controls.status.value
    assert panel.controls.progress.value == panel.controls.progress.max == 2 * (4 * 300 + 2)  # every game
    # the answer first, above the figure: each rule set under the strongest level run with enough games (the
    # search's two are left to the figure), its interval and its verdict
    strongest = [table.cell(lb, "strong", "Advantage (english)") for lb in table.labels]
    assert panel.headline.value.count("[") == 2 and html.unescape(re.sub("<[^>]+>", "", panel.headline.value)) == (
        "Advantage (English) under strong, the strongest level run with at least 30 games: " + " · ".join(
            f"{c.label} {plain_estimate(c.metric.value, c.metric.low, c.metric.high)}, {table.verdict_words(c)}"
            for c in strongest))
    assert panel.children.index(panel.headline) + 1 == panel.children.index(panel.figure_box)
    # another metric is drawn from the same games, without playing again
    before = view.revision
    panel.metric.value = "Duration (rounds)"
    assert view.revision == before + 1 and table is panel.table
    assert "Duration (rounds) by skill level" in view.figure["layout"]["title"]["text"]
    # the first rule set is the reference; the other's verdicts are read against it, by name
    assert "reference" in panel.details.value
    assert any(f"{verdict} {table.labels[0]}" in panel.details.value for verdict in ("above", "below",
                                                                                   "indistinguishable from"))


def test_the_view_says_where_a_conclusion_reverses_with_skill():
    def cell(level, value, low, high, verdict):
        return SkillCell("advanced", level, Metric("Advantage (english)", value, low, high), verdict)

    panel = SkillPanel(opening("advanced", 1))
    panel.table = SkillTable(["advanced"], ["uniform", "heuristic"],
                             [cell("uniform", 0.56, 0.53, 0.59, ABOVE), cell("heuristic", 0.44, 0.41, 0.47, BELOW)])
    panel._show()
    assert ("advanced: Advantage (English) goes from above ½ under uniform (0.560 [0.530, 0.590]) to below ½ under "
            "heuristic (0.440 [0.410, 0.470]): the conclusion reverses with skill") in panel.changes.value
    panel.table = SkillTable(["advanced"], ["uniform", "heuristic"],
                             [cell("uniform", 0.56, 0.53, 0.59, ABOVE), cell("heuristic", 0.55, 0.52, 0.58, ABOVE)])
    panel._show()
    assert "No conclusion on Advantage (English) changes with skill" in panel.changes.value
    assert EVEN not in panel.changes.value


def test_bad_settings_are_refused_beside_the_fields_and_nothing_runs():
    panel = SkillPanel(opening("advanced", 1))
    panel.games.box.value = "many"
    panel.run(block=True)
    assert "Not run" in panel.controls.status.value and "Games" in panel.controls.status.value
    assert "Games" in panel.games.message.value and panel.table is None
    assert panel.run_button.disabled  # greyed while the box holds no number
    panel.seed.box.value = "-1"
    panel.games.value = 10
    assert panel.run_button.disabled  # the seed still cannot be read
    panel.seed.box.value = "3"
    assert not panel.run_button.disabled
    panel.uniform.value = panel.heuristic.value = panel.strong.value = panel.search.value = False
    panel.run(block=True)
    assert "choose at least one skill level" in panel.controls.status.value and panel.table is None
    panel.set_position(None)
    assert panel.run_button.disabled


def test_the_explorer_has_a_skill_levels_tab_that_follows_the_built_position():
    ex = Explorer()
    ex.builder.load_position(opening("base", 1))  # before the tab is first shown: its panel is built for it
    ex.show_tab("Skill levels")
    panel = ex.skill
    assert "Skill levels" in TABS and ex.tabs.children[TABS.index("Skill levels")].children == (panel,)
    assert panel.position == ex.builder.position and panel.position.rules == Rules.from_json("base")
    ex.builder.load_position(opening("advanced", 2))
    assert panel.position == ex.builder.position and panel.position.rules == Rules.from_json("advanced")


def test_cancel_stops_a_run_within_a_sample_and_keeps_the_previous_table():
    panel = SkillPanel(opening("advanced", 1))
    panel.search.value = False
    panel.games.value = 50
    panel.run(block=True)
    previous = panel.table
    counted = panel.controls.callback

    def cancel_at_once(done, total):
        panel.controls.cancel()
        return counted(done, total)

    panel.controls.callback = cancel_at_once
    panel.games.value = 5000
    panel.run(block=True)
    assert "Cancelled" in panel.controls.status.value and panel.table is previous
    assert panel.controls.progress.value < panel.controls.progress.max


def test_the_skill_levels_name_their_position_and_mark_a_previous_positions_figures():
    from guyenne_explore.engine.position import Position

    panel = SkillPanel(Position.start("base"))
    assert "the game before the deal" in panel.subject.line.value
    panel.heuristic.value = panel.search.value = False
    panel.games.value = 20
    panel.run(block=True)
    panel.set_position(opening("base", 1))
    assert "round 1" in panel.subject.line.value and "previous position" in panel.subject.stale_note.value
    assert "guyenne-stale" in panel.figure_box._dom_classes and "guyenne-stale" in panel.details._dom_classes


def test_the_skill_levels_figures_of_other_levels_or_games_are_dimmed():
    from guyenne_explore.engine.position import Position

    panel = SkillPanel(Position.start("base"))
    panel.heuristic.value = panel.search.value = False
    panel.games.value = 20
    panel.run(block=True)
    assert panel.subject.stale_note.value == ""
    panel.heuristic.value = True
    assert "settings of the last run" in panel.subject.stale_note.value
    assert "guyenne-stale" in panel.figure_box._dom_classes and "guyenne-stale" in panel.changes._dom_classes
    panel.heuristic.value = False
    assert panel.subject.stale_note.value == ""
    panel.metric.index = len(panel.metric.options) - 1  # another metric of the same table: drawn again, not stale
    assert panel.subject.stale_note.value == ""


def test_the_cost_of_a_run_is_shown_before_it_starts_and_follows_the_fields():
    panel = SkillPanel(opening("advanced", 1))
    panel.rule_sets.value = (panel.position.rules,)
    panel.uniform.value, panel.heuristic.value, panel.strong.value, panel.search.value = True, True, False, False
    panel.games.value = 300
    assert panel.cost.value.startswith("Run skill levels plays 600 games:")
    panel.search.value = True
    panel.search_games.value = 7
    assert panel.cost.value.startswith("Run skill levels plays 607 games:")
    panel.rule_sets.value = (panel.position.rules, Rules.from_json("base"))
    assert panel.cost.value.startswith("Run skill levels plays 1,214 games:")
    panel.games.box.value = "many"  # unreadable: no cost promised (the field names its problem)
    assert panel.cost.value == ""


def test_a_language_switch_before_any_run_says_no_done():
    from guyenne_explore.i18n import set_language

    ex = Explorer()
    assert ex.skill.controls.status.value == ""
    try:
        ex.language.value = "fr"
        assert ex.skill.controls.status.value == ""  # it said "Terminé" under a button never pressed
        ex.language.value = "en"
        assert ex.skill.controls.status.value == ""
    finally:
        set_language(None)


def test_a_skill_run_is_refused_for_the_time_its_cost_line_says_not_for_one_cores(monkeypatch):
    """The tab says the games' time spread over the cores; its time check read them on one core, and refused as
    taking 40 minutes a run it had said would take 20."""
    from concurrent.futures import ThreadPoolExecutor

    import pytest

    from guyenne_explore.analysis import TooLong
    from guyenne_explore.analysis.limits import RUN_SECONDS
    from guyenne_explore.analysis.studies import skill

    seen = []

    def cost(start, rule_sets, games, cores=1, fast=True):  # 45 minutes on one core, 22 on two
        seen.append(cores)
        return [(level, n * len(rule_sets), 1.5 * RUN_SECONDS / cores) for level, n in games.items()]

    monkeypatch.setattr(skill, "skill_cost", cost)
    start, rules = Position.start("base"), [Rules.from_json("base")]
    with pytest.raises(TooLong, match="45 minutes"):  # played here, on one core
        skill.skill_levels(start, rules, levels=["uniform"], games=10)
    with ThreadPoolExecutor(1) as pool:  # spread over two cores by an executor: within the limit, played
        table = skill.skill_levels(start, rules, levels=["uniform"], games=10, executor=pool, cores=2)
    assert seen == [1, 2] and table.cell(table.labels[0], "uniform", "Advantage (english)").metric.games == 10


def test_strong_trained_for_a_preset_is_said_to_be_strong_itself():
    """Ticked under a preset beside strong, the trained level added no game and no line to the figure, unexplained."""
    panel = SkillPanel(opening("advanced", 1))
    panel.rule_sets.value = (panel.position.rules,)
    panel.uniform.value = panel.heuristic.value = panel.search.value = False
    before = panel.cost.value
    panel.strong_trained.value = True
    assert panel.levels == ["strong"]
    assert panel.cost.value == before + " Under a preset, strong trained for it is strong itself: it is played once."
    panel.strong.value = False  # alone, it is the one level played: nothing to explain
    assert panel.levels == ["strong"] and "played once" not in panel.cost.value


def test_the_headline_reads_the_strongest_level_run_with_enough_games():
    from guyenne_explore.render.headline import skill_headline

    def cell(level, games):
        return SkillCell("advanced", level, Metric("Advantage (english)", 0.5, 0.45, 0.55, games=games), EVEN)

    table = SkillTable(["advanced"], ["strong", "search:4"], [cell("strong", 400), cell("search:4", 40)])
    assert skill_headline(table, "Advantage (english)").startswith(
        "Advantage (English) under search (4 rollouts), the strongest level run: advanced 0.500")
    few = SkillTable(["advanced"], ["strong", "search:4"], [cell("strong", 400), cell("search:4", 29)])
    assert skill_headline(few, "Advantage (english)").startswith(
        "Advantage (English) under strong, the strongest level run with at least 30 games: advanced 0.500")
    none = SkillTable(["advanced"], ["strong"], [cell("strong", 3)])  # none has enough: the strongest all the same
    assert skill_headline(none, "Advantage (english)").startswith("Advantage (English) under strong, the strongest level run: ")


def test_the_skill_table_downloads_as_csv_and_json_with_every_metric():
    import json

    panel = SkillPanel(opening("advanced", 1))
    assert all(b.disabled for b in panel.export_buttons.values())  # nothing run yet
    assert not panel.export("csv") and "nothing to export yet" in panel.export_status.value

    def cell(level, metric, value, games):
        return SkillCell("advanced", level, Metric(metric, value, value - 0.05, value + 0.05, games=games), EVEN)

    panel.table = SkillTable(["advanced"], ["uniform", "strong"], [
        cell("uniform", "Advantage (english)", 0.5, 400), cell("strong", "Advantage (english)", 0.52, 400),
        cell("uniform", "Duration (rounds)", 9.5, 400), cell("strong", "Duration (rounds)", 8.25, 400)])
    panel._show()
    assert not any(b.disabled for b in panel.export_buttons.values())
    lines = panel.export_files("csv")["guyenne-skill.csv"].decode().splitlines()
    assert lines[0] == "rules,level,metric,value,low,high,games,verdict" and len(lines) == 1 + 4  # every metric
    assert "advanced,strong,Duration (rounds),8.25,8.2,8.3,400,level with" in lines
    data = json.loads(panel.export_files("json")["guyenne-skill.json"])
    assert len(data["rows"]) == 4 and data["rows"][1]["games"] == 400 and data["changes"] == []
    assert panel.export("json") and panel.export_status.value.startswith("Downloading guyenne-skill.json (")


def test_how_they_play_follows_the_levels_ticked_above_until_typed_into():
    panel = SkillPanel(opening("advanced", 1))
    section = panel.how_they_play
    assert section.follow.value and section.levels() == panel.levels == ["uniform", "heuristic", "strong", "search:100"]
    assert section.levels_text.disabled and section.levels_text.value == "uniform,heuristic,strong,search:100"
    panel.heuristic.value, panel.search_budget.value = False, 20  # the boxes' changes reach the section, cost included
    assert section.levels_text.value == "uniform,strong,search:20" and "search (20 rollouts)" in section.cost.value
    for box in (panel.uniform, panel.strong, panel.search):
        box.value = False
    assert section.levels() is None and "tick at least one level above" in section.levels_message.value
    assert section.run_button.disabled
    panel.strong.value = True
    section.follow.value = False  # unticked: the field is typed into again, and read
    assert not section.levels_text.disabled and section.levels() == ["strong"]  # as it showed the levels last
    section.follow.value = True
    assert section.levels_text.disabled
    section.levels_text.value = "uniform,strong"  # typed (a session, a script): the section stops following
    assert not section.follow.value and not section.levels_text.disabled and section.levels() == ["uniform", "strong"]
    # a level trained for the variant is named in results without its file
    assert section.exported("strong@/somewhere/weights.json") == "strong@variant"
    assert section.exported("uniform") == "uniform"
