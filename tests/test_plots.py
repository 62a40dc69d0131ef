"""Figures, metrics rows and exports of analysis results (render/plots.py)."""
import csv
import os
import json

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.api import analyse
from guyenne_explore.render import plots
from guyenne_explore.render.svg import ENGLISH_COLOR, FRENCH_COLOR


@pytest.fixture(scope="module")
def results():
    """Two sampled rule sets and one exact endgame, labelled as the panels label them."""
    from tests.conftest import position_path

    endgame = Position.from_json(position_path("base-endgame-3v3.json").read_text())
    return {"base": analyse(Position.start("base"), method="sample", games=60, seed=1),
            "advanced": analyse(Position.start("advanced"), method="sample", games=60, seed=1),
            "endgame": analyse(endgame, method="exact")}


def test_score_figure_has_a_panel_per_label_in_the_side_colours(results):
    fig = plots.score_figure(results)
    assert [t.name for t in fig.data] == ["English", "French"] * 3
    assert [t.marker.color for t in fig.data[:2]] == [ENGLISH_COLOR, FRENCH_COLOR]
    # the label and how it was analysed on two lines: side by side at 1280 px they would run into each other
    assert [a.text.split("<br>(")[0] for a in fig.layout.annotations] == list(results)
    assert fig.layout.annotations[0].text == "base<br>(60 games)"


def test_every_result_figure_names_the_policies_under_its_title(results):
    for fig in plots.result_figures(results).values():
        assert fig.layout.title.text.endswith("<br><sup>English uniform · French uniform</sup>")
    # each side's score distribution is a probability distribution
    for t in fig.data:
        assert sum(t.y) == pytest.approx(1)


def test_outcome_figure_has_intervals_only_when_sampled(results):
    fig = plots.outcome_figure(results)
    assert [t.name for t in fig.data] == ["English wins", "Draw", "French wins"]
    english = fig.data[0]
    assert list(english.x) == list(results)
    lo, hi = results["base"].win_interval()["english"]
    assert english.error_y.array[0] == pytest.approx(hi - english.y[0])
    assert english.error_y.arrayminus[0] == pytest.approx(english.y[0] - lo)
    assert english.error_y.array[2] == 0 and english.error_y.arrayminus[2] == 0
    for i in range(3):
        assert sum(t.y[i] for t in fig.data) == pytest.approx(1)


def test_difference_and_rounds_figures_one_trace_per_label(results):
    diff, rounds = plots.difference_figure(results), plots.rounds_figure(results)
    assert [t.name for t in diff.data] == list(results) == [t.name for t in rounds.data]
    assert len({t.marker.color for t in rounds.data}) == 3
    endgame = results["endgame"]
    assert list(rounds.data[2].x) == sorted(endgame.rounds)
    # rounds are whole: a tick each round, none at a half round however narrow the range
    assert rounds.layout.xaxis.dtick == 1
    mean_diff = sum(x * y for x, y in zip(diff.data[0].x, diff.data[0].y))
    means = results["base"].mean_scores()
    assert mean_diff == pytest.approx(means["english"] - means["french"])


def test_a_single_result_colours_the_difference_by_sign(results):
    fig = plots.difference_figure({"base": results["base"]})
    for x, color in zip(fig.data[0].x, fig.data[0].marker.color):
        assert color == (ENGLISH_COLOR if x > 0 else FRENCH_COLOR if x < 0 else plots.NEUTRAL_COLOR)
    # the bar at 0 is equal scores, not draws: the axis says the tie-break decides there
    assert "at 0, the tie-break decides" in fig.layout.xaxis.title.text


def test_metrics_rows_give_a_cell_per_label(results):
    rows = plots.metrics_rows(results)
    first = rows[0]
    assert list(first) == ["metric", "base", "advanced", "endgame", "meaning"]
    assert first["metric"] == "Advantage (English)"  # the game's name; "Advantage (english)" stays the key
    assert "[" in first["base"] and "[" not in first["endgame"]  # an interval only when sampled
    endgame = results["endgame"].win  # the advantage is a score: a draw counts a half
    assert float(first["endgame"]) == pytest.approx(float(endgame["english"] + endgame["draw"] / 2), abs=1e-3)
    html = plots.rows_html(rows)
    assert html.count("<tr>") == len(rows) + 1
    # the meaning sits under the metric's name (a narrow panel keeps every column in view)
    assert html.count("<th ") == 4 and "Advantage (English)<div style='color:#666;font-size:90%'>" in html


def test_results_export_as_json_and_csv(results, tmp_path):
    paths = plots.export_results(results, tmp_path)
    assert sorted(p.name for p in paths) == sorted(f"{lb}.{x}" for lb in results for x in ("json", "csv"))
    data = json.loads((tmp_path / "endgame.json").read_text())
    assert data["exact"] is True and set(data["win"]) == {"english", "french", "draw"}
    with (tmp_path / "base.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 60 and {"english", "french", "winner", "rounds"} <= set(rows[0])


def test_figures_export_as_offline_html_svg_and_png(results, tmp_path):
    figures = plots.result_figures({"base": results["base"]})
    html = plots.export_figures(figures, tmp_path, ["html"])
    assert [p.name for p in html] == [f"{n}.html" for n in plots.FIGURE_NAMES] + ["plotly.min.js"]
    assert (tmp_path / "plotly.min.js").stat().st_size > 3_000_000  # plotly.js once, beside the pages
    for page in html[:-1]:
        text = page.read_text()
        assert 'src="plotly.min.js"' in text and len(text) < 100_000  # offline, with its folder
    alone = plots.export_figures({"outcomes": figures["outcomes"]}, tmp_path / "alone", ["html"], plotlyjs="inline")
    text = alone[0].read_text()
    assert [p.name for p in alone] == ["outcomes.html"] and "<script src=" not in text and len(text) > 3_000_000
    online = plots.export_figures({"outcomes": figures["outcomes"]}, tmp_path / "cdn", ["html"], plotlyjs="cdn")
    assert "cdn.plot.ly" in online[0].read_text() and online[0].stat().st_size < 100_000
    with pytest.raises(ValueError, match="plotlyjs"):
        plots.export_figures(figures, tmp_path, ["html"], plotlyjs="none")
    missing = plots.static_export_missing()
    if missing:
        if os.environ.get("GUYENNE_REQUIRE_BROWSER") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    static = plots.export_figures({"outcomes": figures["outcomes"]}, tmp_path, ["svg", "png"])
    assert static[0].read_text().lstrip().startswith("<svg")
    assert static[1].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="pdf"):
        plots.export_figures(figures, tmp_path, ["pdf"])


def test_slug_makes_file_names_of_labels():
    assert plots.slug("base(hand_size=7, max_at_castle=4)") == "base-hand_size-7-max_at_castle-4"


def test_a_meaning_that_quotes_one_runs_numbers_is_shown_without_them(results):
    other = analyse(Position.start("advanced"), method="sample", games=60, seed=2)
    rows = {r["metric"]: r for r in plots.metrics_rows({"a": results["advanced"], "b": results["base"], "c": other})}
    hero = rows["Hero value (English)"]  # advanced removes heroes; base never does
    assert hero["meaning"] == "English win rate with its hero still in play at the end minus with it removed"
    assert hero["b"] == "-" and hero["a"] != hero["c"]


def test_a_wide_table_scrolls_and_a_verdict_goes_under_its_value_and_interval():
    html = plots.rows_html([{"rule set": "base", "search:30": "0.510 [0.400, 0.620], indistinguishable from ½"}])
    assert html.startswith("<div style='overflow-x:auto;max-width:100%'><table")
    # the interval may go under its value too: four skill levels' columns fit a 1280 px panel
    assert ("<span style='white-space:nowrap'>0.510</span> <span style='white-space:nowrap'>[0.400, 0.620],</span>"
            "<br>indistinguishable from ½</td>") in html
    assert "<td style='padding:2px 8px;vertical-align:top'>base</td>" in html  # a rule set's name takes no prose's room


def test_an_interval_may_go_under_its_value_so_four_rule_sets_fit_a_narrow_panel():
    html = plots.rows_html([{"metric": "Balance", "team": "0.456 [0.413, 0.500]"}])
    assert ("<span style='white-space:nowrap'>0.456</span> <span style='white-space:nowrap'>[0.413, 0.500]</span>"
            in html)
    assert "<td style='padding:2px 8px;white-space:nowrap" not in html  # the cell itself may wrap


def test_a_sweep_figure_names_its_metric_in_the_language_asked(results):
    from guyenne_explore.analysis.studies.variants import Run, SweepPoint, metric_named

    r = results["base"]
    points = [SweepPoint(6, Run("hand size = 6", None, r), metric_named(r, "Drawishness"))]
    fig = plots.sweep_figure(points, "hand_size", "Draw rate", lang="fr")
    assert fig.data[0].name == "Taux d'égalité" and "Draw" not in fig.data[0].hovertemplate


@pytest.mark.parametrize("drawn_on_try", [2, None])
def test_a_picture_the_browser_did_not_draw_is_drawn_again_then_named(results, tmp_path, monkeypatch, drawn_on_try):
    """Clean-clone CI once found no outcomes.svg after an export that listed it: a file the batch left unwritten is
    drawn once more, and one still missing is named in the error, never listed as written."""
    import kaleido

    tries: list[list[str]] = []

    def draw(figures, paths):
        tries.append([p.name for p in paths])
        if len(tries) == drawn_on_try:
            for p in paths:
                p.write_text("<svg/>")

    monkeypatch.setattr(plots, "static_export_missing", lambda: None)
    monkeypatch.setattr(kaleido, "start_sync_server", lambda **kw: None)
    monkeypatch.setattr(kaleido, "stop_sync_server", lambda **kw: None)
    monkeypatch.setattr(plots.pio, "write_images", draw)
    figures = plots.result_figures({"base": results["base"]})
    if drawn_on_try:
        assert plots.export_figures({"outcomes": figures["outcomes"]}, tmp_path, ["svg"]) == [tmp_path / "outcomes.svg"]
    else:
        with pytest.raises(RuntimeError, match="drew no picture for outcomes.svg"):
            plots.export_figures({"outcomes": figures["outcomes"]}, tmp_path, ["svg"])
    assert tries == [["outcomes.svg"], ["outcomes.svg"]]
