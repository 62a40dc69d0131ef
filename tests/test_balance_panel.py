"""The Balance tab, headless: a search from its fields, problems beside them, Cancel, the figure, French.

Uniform play throughout (the compiled uniform games are the quickest and do not depend on the heuristic).
"""

import csv
import html
import io
import pathlib
import re

import pytest

from guyenne_explore.analysis import Metric
from guyenne_explore.analysis.studies.balance import Candidate, SearchResult, Space, parse_targets
from guyenne_explore.i18n import set_language
from guyenne_explore.render.balance import candidate_rows, candidates_csv, tradeoff_figure
from guyenne_explore.engine.rules import Rules
from guyenne_explore.widgets.balance_panel import VARIANT, BalancePanel, _summary
from guyenne_explore.widgets.explorer import TABS, Explorer
from guyenne_explore.widgets.starts import before_deal


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language(None)


def small(panel: BalancePanel, store) -> BalancePanel:
    """Four candidates (hand size and castles 5 or 6) on 40 uniform games each, kept in ``store``."""
    panel.rows[0].values.value, panel.rows[1].values.value = "5:6", "5:6"
    panel.games.value, panel.trials.value, panel.seed.value = 40, 4, 3
    panel.store = str(store)
    return panel


def test_the_tab_builds_a_search_from_its_fields_shows_the_ranked_table_and_continues_it(tmp_path, english):
    panel = small(BalancePanel(before_deal("advanced")), tmp_path / "s.journal")
    assert "at most 4 candidates of the 4 settings, 40 games each = 160 games" in panel.cost.value
    panel.run(block=True)
    result = panel.result
    assert result is not None and not panel.cancelled
    assert [str(v) for v in result.space.varied] == ["hand_size=5:6", "castles=5:6"]
    assert [str(t) for t in result.targets] == ["advantage=0.45:0.55", "draws=:0.05"]
    assert str(result.space.preset) == "advanced" and len(result.candidates) == 4
    ranked = result.ranked()
    table = html.unescape(panel.table.value)
    if ranked:  # the best first, then the others meeting the targets, fewest changes first
        assert table.count("<tr>") == 1 + len(ranked) and "best" in table
        assert [len(c.changes) for c in ranked] == sorted(len(c.changes) for c in ranked)
    else:
        assert "closest" in table
    assert "Advantage (first side) (0.45 to 0.55)" in table and "Drawishness (at most 0.05)" in table
    assert "[" in table  # each metric with its 95% interval
    assert "4 candidates tried (0 from the store)" in panel.controls.status.value
    (view,) = panel.figure_box.shown
    assert view.figure["layout"]["xaxis"]["title"]["text"] == "Advantage (first side)"
    assert not panel.export_buttons["csv"].disabled
    csv = panel.export_files("csv")["guyenne-balance-candidates.csv"].decode()
    assert csv.splitlines()[0].startswith("hand_size,castles,number") and len(csv.splitlines()) == 5
    # the same search again reads every candidate back from the store: no game played
    panel.run(block=True)
    assert panel.result.resumed == 4 and panel.result.played == 0
    assert "4 candidates tried (4 from the store)" in panel.controls.status.value


def test_the_status_counts_the_candidates_played_as_the_progress_does(tmp_path, english):
    panel = small(BalancePanel(before_deal("advanced")), tmp_path / "s.journal")
    panel.trials.value = 2  # fewer candidates than the space's 4 settings
    said: list[str] = []
    panel.controls.status.observe(lambda change: said.append(html.unescape(change["new"])), "value")
    panel.run(block=True)
    assert any("Searching 2 candidates of the 4 settings..." in s for s in said)
    # each candidate named as it starts, "of" the same count (the setting after the colon is the sampler's pick)
    assert [s.split(":")[0] for s in said if s.startswith("candidate ")] == ["candidate 1 of 2", "candidate 2 of 2"]


def test_a_bad_field_shows_its_problem_beside_it_and_nothing_runs(tmp_path, english):
    panel = small(BalancePanel(before_deal("advanced")), tmp_path / "s.journal")
    panel.rows[0].values.value = "5:99"  # beyond the engine's bounds for a hand
    assert "hand size must be at most" in html.unescape(panel.rows[0].message.value)
    assert panel.run_button.disabled and panel.cost.value == ""
    panel.run(block=True)
    assert panel.result is None and "Not run" in panel.controls.status.value
    panel.rows[0].values.value = "2:999999999"  # once a MemoryError: a billion rule sets built before any check
    assert "hand size must be at most 12, not 999999999" in html.unescape(panel.rows[0].message.value)
    panel.rows[0].values.value = "²:3"  # once a ValueError from int(): a superscript is no digit it reads
    assert "hand size must be a whole number written with the digits 0-9, not '²'" in html.unescape(
        panel.rows[0].message.value)
    assert "unexpected error" not in panel.rows[0].message.value and panel.run_button.disabled
    panel.rows[0].values.value = "five to seven"  # said beside the row, without the command line's 'hand_size=...'
    said = html.unescape(panel.rows[0].message.value)
    assert "hand size must be a whole number" in said and "hand_size=" not in said and "--vary" not in said
    panel.rows[0].values.value = "5:6"
    assert panel.rows[0].message.value == "" and not panel.run_button.disabled
    panel.targets[0].low.value = "abc"
    said = html.unescape(panel.targets[0].message.value)
    assert "the low end must be a number written with the digits 0-9" in said and "advantage=" not in said
    panel.targets[0].low.value = "0.6"  # above its high end
    assert "the low end 0.6 is above the high end 0.55" in html.unescape(panel.targets[0].message.value)
    panel.targets[0].low.value = "0,45"  # as a French designer types it: a decimal comma
    assert panel.targets[0].message.value == "" and panel.targets[0].text == "advantage=0,45:0.55"
    assert parse_targets([panel.targets[0].text])[0].low == 0.45
    panel.targets[0].low.value = "0,4,5"  # two commas: no number
    assert "not '0,4,5'" in html.unescape(panel.targets[0].message.value)
    panel.targets[0].low.value = "0.45"
    panel.rows[2].parameter.value, panel.rows[2].values.value = "castles", "6:7"  # castles twice
    assert "castles is given twice" in html.unescape(panel.space_message.value)
    panel.rows[2].parameter.value = ""
    panel.games.box.value = "many"
    assert "Games a candidate must be a whole number" in panel.games.message.value and panel.run_button.disabled
    panel.run(block=True)
    assert panel.result is None


def test_cancel_stops_a_search_and_the_panel_says_so(tmp_path, english):
    panel = small(BalancePanel(before_deal("advanced")), tmp_path / "s.journal")
    counted = panel.controls.callback

    def press_cancel_then_count(done, total):  # Cancel pressed as the first games are counted
        panel.controls.cancel()
        return counted(done, total)

    panel.controls.callback = press_cancel_then_count
    panel.run(block=True)
    assert panel.cancelled and panel.result is None
    assert "Cancelled: the finished candidates are kept" in panel.controls.status.value
    assert not panel.run_button.disabled and panel.controls.cancel_button.disabled


def _planted() -> SearchResult:
    """Three candidates of hand sizes 5 to 7: one meets both targets, one misses at its end, one was dropped."""
    space = Space.parse(Rules.preset("advanced"), ["hand_size=5:7"])
    targets = parse_targets(["advantage=0.45:0.55", "rounds=:9"])

    def candidate(n, hand, advantage, rounds, dropped=False):
        metrics = {"Advantage (first side)": Metric("Advantage (first side)", advantage, advantage - 0.04,
                                                    advantage + 0.04, games=200),
                   "Duration (rounds)": Metric("Duration (rounds)", rounds, rounds - 0.2, rounds + 0.2, "rounds", 200)}
        a = {"hand_size": hand}
        return Candidate(n, a, metrics, 50 if dropped else 200, 0.0, dropped, ("advantage",) if dropped else (),
                         tuple(space.changes(a)), ())

    return SearchResult(space, targets, 200, 0, [candidate(0, 5, 0.50, 8.5), candidate(1, 6, 0.53, 9.6),
                                                 candidate(2, 7, 0.30, 7.0, dropped=True)], 0, 450, 1.0)


def test_the_tradeoff_figure_marks_the_candidates_meeting_every_target(english):
    result = _planted()
    fig = tradeoff_figure(result, "advantage", "rounds")
    assert [t.name for t in fig.data] == ["meets every target", "misses a target", "dropped by racing", "best",
                                          "trade-off front"]
    assert list(fig.data[4].x) == [0.50] and fig.data[4].marker.symbol == "circle-open"  # the one on the front
    assert list(fig.data[0].x) == [0.50] and list(fig.data[0].y) == [8.5]
    assert fig.data[0].error_x.array[0] == pytest.approx(0.04) and fig.data[0].error_y.arrayminus[0] == pytest.approx(0.2)
    assert fig.data[3].marker.symbol == "star" and list(fig.data[3].x) == [0.50]
    # the targets' bounds: two on advantage (x), one on rounds (y)
    lines = sorted((s.type, s.x0 if s.x0 == s.x1 else s.y0) for s in fig.layout.shapes)
    assert lines == [("line", 0.45), ("line", 0.55), ("line", 9)]
    assert fig.layout.xaxis.title.text == "Advantage (first side)" and fig.layout.yaxis.title.text == "Duration (rounds)"
    rows = candidate_rows(result)
    assert [r["setting"] for r in rows] == ["hand size 5"] and rows[0]["rank"] == "best"
    assert rows[0]["Advantage (first side) (0.45 to 0.55)"] == "0.500 [0.460, 0.540], met"
    # each candidate labelled with its settings in words, its counts in the hover
    assert list(fig.data[0].text) == ["hand size 5"] and fig.data[0].mode == "markers+text"
    assert list(fig.data[1].text) == ["hand size 6"] and "200 games" in fig.data[1].customdata[0]
    assert len(candidates_csv(result).splitlines()) == 4
    french = tradeoff_figure(result, "advantage", "rounds", lang="fr")
    assert [t.name for t in french.data][0] == "atteint toutes les cibles"
    assert french.layout.xaxis.title.text == "Avantage (premier camp)"


def test_an_interval_across_the_band_is_not_called_met_in_the_panel(english):
    """0.498 [0.449, 0.546] against 0.48:0.52 was shown as met: the table says not yet decided with the games that
    would tell, the status counts no candidate as meeting, the figure draws it apart from those that do."""
    space = Space.parse(Rules.preset("advanced"), ["hand_size=5:6"])
    targets = parse_targets(["advantage=0.48:0.52"])
    crossing = {"Advantage (first side)": Metric("Advantage (first side)", 0.498, 0.449, 0.546, games=400),
                "Duration (rounds)": Metric("Duration (rounds)", 8.0, 7.8, 8.2, "rounds", 400)}
    result = SearchResult(space, targets, 400, 0, [Candidate(0, {"hand_size": 5}, crossing, 400, 0.0, False, (), (),
                                                             ())], 0, 400, 1.0)
    panel = BalancePanel(before_deal("advanced"))
    panel.result = result
    panel._draw()
    table = html.unescape(panel.table.value)
    assert "not yet decided (about 2,965 games would tell)" in table and ", met" not in table
    assert "No candidate meets every target yet" in table
    assert "None meets every target yet" in _summary(result)
    (group,) = [t for t in panel.figures["balance-tradeoff"].data if t.name != "closest"]
    assert group.name == "not yet decided"


def test_each_target_says_what_its_metric_means_and_the_precision_run_is_offered(tmp_path, english):
    """An advantage is a score, a draw a half: said beside the target; and the command line's --precision is a
    field and a button that plays the best on until its intervals are that narrow."""
    panel = small(BalancePanel(before_deal("advanced")), tmp_path / "s.journal")
    assert "a draw a half, 0.5 when even" in html.unescape(panel.targets[0].meaning.value)
    panel.targets[0].name.value = "draws"
    assert "the draw rate" in panel.targets[0].meaning.value
    panel.targets[0].name.value = "advantage"
    panel.targets[1].name.value = ""  # the advantage alone, 0.45:0.55
    panel.trials.value = 1
    assert not panel.precise_button.disabled
    panel.precision.value = 0.06
    panel.precise_button.click()  # runs in a thread, as in the page
    panel.controls.thread.join()
    best = panel.result.best()
    assert panel.result.precision == 0.06 and best.precise is not None
    said = html.unescape(panel.controls.status.value)
    assert f"known to ±0.06 after {best.games:,} games" in said
    panel.precision.value = "abc"
    assert panel.precise_button.disabled and not panel.run_button.disabled


def test_the_tables_long_headings_are_short_with_the_full_heading_as_their_tooltip(english):
    panel = BalancePanel(before_deal("advanced"))
    panel.result = _planted()
    panel._draw()
    heads = [(html.unescape(tip), html.unescape(shown).split("<br>"))
             for tip, shown in re.findall(r"<th\b[^>]*?(?: title='([^']*)')?>(.*?)</th>", panel.table.value)]
    # in a 1280 px window the tab is some 650 px wide: the full headings wrapped to four lines and more
    assert heads == [("", ["setting"]), ("", ["rank"]), ("changes from the preset", ["changes"]), ("", ["games"]),
                     ("on the trade-off front", ["front"]),
                     ("Advantage (first side) (0.45 to 0.55)", ["Advantage (first side)", "(0.45 to 0.55)"]),
                     ("Duration (rounds) (at most 9)", ["Duration (rounds)", "(at most 9)"])]


def test_the_tab_and_its_result_in_french_after_a_switch(english):
    ex = Explorer()
    panel = ex.balance
    assert ex.tabs.titles[TABS.index("Balance")] == "Balance" and ex.tabs.children[TABS.index("Balance")].children == (panel,)
    ex.balance.result = _planted()
    ex.balance._draw()
    ex.language.value = "fr"
    assert ex.tabs.titles[TABS.index("Balance")] == "Équilibre"
    assert ex.balance.run_button.description == "Lancer la recherche"
    assert ex.balance.games.box.description == "Parties par candidat"
    assert ex.balance.rows[0].parameter._options_labels[1] == "taille de la main"
    assert "réglage" in ex.balance.table.value and "meilleur" in ex.balance.table.value
    assert "au plus" in ex.balance.cost.value and "candidats" in ex.balance.cost.value
    (view,) = ex.balance.figure_box.shown
    assert view.figure["layout"]["xaxis"]["title"]["text"] == "Avantage (premier camp)"
    ex.language.value = "en"
    assert ex.balance.run_button.description == "Run search" and "setting" in ex.balance.table.value


def test_the_variant_labs_variant_can_start_a_search(english):
    ex = Explorer()
    ex.lab.editors["hand_size"].value = "7"
    ex.balance.rule_set.value = VARIANT
    assert ex.balance.preset().hand_size == 7
    ex.lab.editors["hand_size"].value = "x"  # not playable: said beside the choice, nothing runs
    ex.balance.check()
    assert "not playable" in html.unescape(ex.balance.rule_set_message.value) and ex.balance.run_button.disabled


def test_the_depth_section_shows_the_chain_each_pair_and_the_luck_share(english):
    panel = BalancePanel(before_deal("base"))
    panel.ladder.value = "uniform,uniform"  # the view, not the policies, is tested here
    panel.depth_games.value = 10
    assert "uniform against uniform: 20 games (both seats)" in panel.depth_cost.value
    panel.run_depth(block=True)
    d = panel.depth
    assert d is not None and len(d.matches) == 1
    shown = html.unescape(panel.depth_result.value)
    assert "skill chain:" in shown and "luck share" in shown and "the weaker level wins" in shown
    assert shown.count("<tr>") == 2 and "[" in shown  # the head and the one pair, values with intervals
    panel.ladder.value = "uniform,nobody"
    assert "unknown level 'nobody'" in html.unescape(panel.ladder_message.value) and panel.depth_button.disabled
    # every level refused is named at once, each once (only the first was, and the next check named the next)
    panel.ladder.value = "wizard,uniform,../../etc/passwd,wizard"
    said = html.unescape(panel.ladder_message.value)
    assert "unknown level 'wizard'" in said and "unknown level '../../etc/passwd'" in said
    assert said.count("unknown level 'wizard'") == 1 and panel.depth_button.disabled
    set_language("fr")
    try:  # the names a French page shows read as the levels, as in the skill levels tab
        panel.ladder.value = "uniforme,heuristique"
        assert panel.levels() == ["uniform", "heuristic"] and panel.ladder_message.value == ""
    finally:
        set_language("en")


def test_the_report_button_downloads_one_page_in_the_tabs_language_and_the_csv_has_the_front(english):
    ex = Explorer()
    panel = ex.balance
    assert panel.export_buttons["report"].disabled  # nothing to report before a search
    panel.result = _planted()
    panel._draw()
    panel._enable_exports(True)
    assert not panel.export_buttons["report"].disabled and panel.export("report")
    assert "guyenne-balance-report.html" in panel.export_status.value
    (name, data), = panel.export_files("report").items()
    page = data.decode("utf-8")
    assert name == "guyenne-balance-report.html" and "<h1>Guyenne balance report</h1>" in page
    assert "hand size 5" in page and "0.500 [0.460, 0.540]" in re.sub("<[^>]+>", "", page)  # a value and its interval
    ex.language.value = "fr"
    assert panel.export_status.value.startswith("Téléchargement de guyenne-balance-report.html (")  # said again
    assert panel.export_buttons["report"].description == "Rapport"
    page = panel.export_files("report")["guyenne-balance-report.html"].decode("utf-8")
    assert "<h1>Rapport d&#x27;équilibre de Guyenne</h1>" in page and "taille de la main 5" in page
    ex.language.value = "en"
    rows = list(csv.DictReader(io.StringIO(candidates_csv(_planted()))))
    assert [(r["hand_size"], r["front"]) for r in rows] == [("5", "True"), ("6", "False"), ("7", "False")]
    assert (rows[0]["Advantage (first side) low"], rows[0]["Advantage (first side) high"]) == ("0.46", "0.54")


def test_the_searches_kept_for_a_session_are_removed_when_the_kernel_ends(tmp_path):
    """The panel's default store is a temporary folder of its process: a kernel that ends (a closed page)
    leaves nothing of it on the server, where before every session left a folder and its journal behind."""
    import subprocess
    import sys

    script = ("import pathlib\n"
              "from guyenne_explore.widgets.balance_panel import BalancePanel\n"
              "store = pathlib.Path(BalancePanel().store)\n"
              "store.write_text('a search')\n"
              "print(store.parent, store.parent.is_dir(), flush=True)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    folder, existed = run.stdout.split()
    assert existed == "True" and pathlib.Path(folder).name.startswith("guyenne-balance-")
    assert not pathlib.Path(folder).exists()
