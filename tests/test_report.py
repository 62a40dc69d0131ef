"""The one-file HTML report of an analysis: what it holds, from the render layer, the panel and the command line."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from plotly.offline import get_plotlyjs

from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis.studies.variants import analyse_rule_sets
from guyenne_explore.render.report import analysis_report
from guyenne_explore.widgets.analysis_panel import AnalysisPanel

INTERVAL = re.compile(r"\d\.\d{3}</span> <span style='white-space:nowrap'>\[\d\.\d{3}, \d\.\d{3}\]")


@pytest.fixture(scope="module")
def sampled():
    """An endgame analysed under its own rules and a variant (a smaller hand), 60 sampled games each, seed 7."""
    p = Position.start("advanced")
    variant = Rules.preset("base", hand_size=5)
    runs = analyse_rule_sets(p, [p.rules, variant], labels=["advanced", "variant"], method="sample", games=60, seed=7)
    return p, {r.label: r.result for r in runs}


def test_the_report_holds_position_rules_figures_and_metrics_in_one_file(sampled):
    p, results = sampled
    html = analysis_report(p, results, seed=7, lang="en")
    # one file: plotly.js once, inline; nothing fetched from elsewhere
    assert html.count(get_plotlyjs()[:2000]) == 1
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html.replace(get_plotlyjs(), ""))
    assert html.count("Plotly.newPlot") == 4
    # what was analysed: the diagram (inline SVG, castles addressable), the notation, the decision point
    svg = re.search(r"<svg.*?</svg>", html.split("<body>", 1)[1], re.S).group(0)
    root = ET.fromstring(svg)
    assert len([g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "castle"]) == 6
    assert p.notation() in html.replace("&amp;", "&")
    # how: sampled, games, seed, policies, for each rule set
    assert "60 sampled games, seed 7; English uniform · French uniform" in html
    # the rules and their differences from the preset
    assert "Differences from the preset base: hand size 5 (preset: 6)." in html
    assert "No difference from the preset advanced." in html
    # the metrics with their intervals, both rule sets' columns
    assert "Advantage (English)" in html and len(INTERVAL.findall(html)) >= 8


def test_the_report_speaks_french(sampled):
    p, results = sampled
    html = analysis_report(p, results, seed=7, lang="fr")
    assert "<html lang='fr'>" in html and "60 parties échantillonnées" in html
    assert "taille de la main" in html and ">metric<" not in html
    with pytest.raises(ValueError, match="run one first"):
        analysis_report(p, {}, lang="en")


def test_an_exact_report_names_no_seed(load):
    p = load("base-endgame-3v3.json")
    runs = analyse_rule_sets(p, [p.rules], labels=["base"], method="exact")
    html = analysis_report(p, {"base": runs[0].result}, seed=None, lang="en")
    assert "exact enumeration of every game (fractions)" in html and "seed" not in html.split("How it was analysed")[1][:400]


def test_the_panel_offers_the_report_in_its_export_row():
    panel = AnalysisPanel(Position.start("base"))
    panel.games.value = 30
    panel.seed.value = 11
    panel.method.value = "sample"
    button = panel.exports.buttons["report"]
    assert button.disabled and not panel.exports.export_report()
    panel.run(block=True)
    assert not button.disabled
    sent = []
    panel.exports.download.send = lambda content, buffers=None: sent.append((content, buffers))
    assert panel.exports.export_report()
    [(content, [data])] = sent
    assert content["name"] == "guyenne-analysis-report.html" and content["mime"] == "text/html"
    html = bytes(data).decode("utf-8")
    assert "30 sampled games, seed 11" in html and html.count("Plotly.newPlot") == 4
    panel.seed.value = 12  # a setting changed after the run: the report still says how the results were made
    assert "30 sampled games, seed 11" in panel.report_html()


def test_the_command_line_writes_the_report(tmp_path, capsys):
    from guyenne_explore.cli import main

    out = tmp_path / "report.html"
    assert main(["analyse", "--rules", "base", "--samples", "40", "--seed", "5", "--report", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "40 sampled games, seed 5" in html and html.count("Plotly.newPlot") == 4
    assert main(["analyse", "--rules", "base", "--samples", "40", "--report", str(tmp_path / "no" / "r.html")]) == 1
    assert "cannot write" in capsys.readouterr().err
