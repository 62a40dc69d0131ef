"""The balance search's one-page report: one self-contained HTML page with the question, the best setting and the
alternatives with their intervals, the trade-off figure, the skill depth when measured and the command that
reproduces the search; in English and in French; written by ``balance --report``."""

from __future__ import annotations

import json
import shlex
from html.parser import HTMLParser

import pytest

from guyenne_explore.analysis import Metric
from guyenne_explore.analysis.studies.balance import Candidate, SearchResult, Space, parse_targets
from guyenne_explore.analysis.studies.depth import Depth
from guyenne_explore.analysis.studies.depth import Match
from guyenne_explore.cli import main
from guyenne_explore.i18n import plain_estimate, set_language
from guyenne_explore.render.balance_report import balance_report, reproduce_command
from guyenne_explore.engine.rules import Rules

FIRST, ROUNDS = "Advantage (first side)", "Duration (rounds)"


class Page(HTMLParser):
    """What a reader of the page meets: its headings by id, its table cells, its scripts and its whole text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.headings: dict[str, str] = {}
        self.cells: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.text: list[str] = []
        self.graphs = 0
        self._in: list[tuple[str, str | None]] = []
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts.append(attrs)
        if tag == "div" and "plotly-graph-div" in (attrs.get("class") or ""):
            self.graphs += 1
        if tag in ("td", "th"):
            self._cell = []
        self._in.append((tag, attrs.get("id")))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None
        while self._in and self._in.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if not self._in or self._in[-1][0] in ("script", "style"):
            return
        ident = next((i for t, i in reversed(self._in) if t == "h2"), None)
        if ident:
            self.headings[ident] = self.headings.get(ident, "") + data
        if self._cell is not None:
            self._cell.append(data)
        self.text.append(data)

    @property
    def words(self) -> str:
        return " ".join(self.text)


def _metric(name, value, spread, unit="probability"):
    return Metric(name, value, value - spread, value + spread, unit, 200)


def _planted() -> tuple[SearchResult, Depth]:
    """Hand sizes 5 to 7 of advanced under heuristic play: hand size 6 (the preset's own) meets both targets, so does
    hand size 7 (one change), hand size 5 is too long; and a measured ladder."""
    space = Space.parse(Rules.preset("advanced"), ["hand_size=5:7"])
    targets = parse_targets(["advantage=0.45:0.55", "rounds=:9"])

    def candidate(n, hand, advantage, rounds):
        a = {"hand_size": hand}
        return Candidate(n, a, {FIRST: _metric(FIRST, advantage, 0.02), ROUNDS: _metric(ROUNDS, rounds, 0.2, "rounds")},
                         200, 0.0, False, (), tuple(space.changes(a)), ())

    result = SearchResult(space, targets, 200, 7, [candidate(0, 5, 0.50, 9.5), candidate(1, 6, 0.52, 8.5),
                                                   candidate(2, 7, 0.48, 8.1)], 0, 600, 2.0, trials=9,
                          policies=("heuristic", "heuristic"))
    match = Match("uniform", "heuristic", _metric("Score", 0.81, 0.03), _metric("Weaker", 0.17, 0.02),
                  _metric("Luck", 0.62, 0.04))
    depth = Depth("advanced", ("uniform", "heuristic"), (match,), 1, 1, 1, _metric("Weaker", 0.17, 0.02),
                  _metric("Luck", 0.62, 0.04))
    return result, depth


def test_the_report_holds_the_question_the_ranked_answer_the_figure_the_depth_and_the_command():
    result, depth = _planted()
    page = Page(balance_report(result, depth=depth, lang="en"))
    assert list(page.headings) == ["question", "answer", "tradeoff", "depth", "reproduce"]
    words = page.words
    for asked in ("advanced", "hand size: 5:7 (3 candidates)", "Advantage (first side) from 0.45 to 0.55",
                  "Duration (rounds) at most 9", "heuristic", "NSGA-II", "200", "7"):
        assert asked in page.cells or asked in words, asked
    # the best first (no change), then the alternative (one change), each target with its 95% interval and its
    # verdict under it (rows_html: "[0.500, 0.540]," then a line "met")
    settings = [c for c in page.cells if c.startswith("hand size ")]
    assert settings == ["hand size 6", "hand size 7"]
    assert "0.520 [0.500, 0.540],met" in page.cells and "8.500 [8.300, 8.700],met" in page.cells
    assert "0.480 [0.460, 0.500],met" in page.cells and "best" in page.cells
    assert page.graphs == 1  # the trade-off figure, drawn by the plotly.js inlined in the page
    assert page.scripts and all(s.get("src") is None for s in page.scripts)
    assert "skill chain: 1 step, a level beating the one below (95% interval 1 to 1)" in words and "0.810 [0.780, 0.840]" in page.cells
    command = ("guyenne-explore balance --rules advanced --vary hand_size=5:7 --target advantage=0.45:0.55 "
               "--target rounds=:9 --policies heuristic --games 200 --trials 9 --seed 7")
    assert command in words and reproduce_command(result) == command


def test_the_report_in_french_is_translated():
    result, depth = _planted()
    text = balance_report(result, depth=depth, lang="fr")
    page = Page(text)
    assert "<html lang='fr'>" in text and "Rapport d'équilibre de Guyenne" in page.words
    assert page.headings["question"] == "La question" and page.headings["tradeoff"] == "Le compromis entre les cibles"
    assert page.headings["reproduce"] == "La commande qui le reproduit" and page.headings["depth"] == "Profondeur du jeu"
    assert "réglage" in page.cells and "meilleur" in page.cells and "taille de la main 6" in page.cells
    assert "Avantage (premier camp) de 0,45 à 0,55" in page.words and "heuristique" in page.words
    for english in ("The question", "The command that reproduces it", "Skill depth", "setting", "best", "games a"):
        assert english not in page.words, english
    assert json.dumps("Durée (tours) selon Avantage (premier camp)")[1:-1] in text  # the figure's title, in its JSON


def test_the_report_of_a_lone_target_sets_it_against_the_length_of_a_game():
    result, _depth = _planted()
    result.targets = parse_targets(["advantage=0.45:0.55"])
    page = Page(balance_report(result, lang="en"))
    assert "depth" not in page.headings and page.graphs == 1  # no ladder measured: no depth section


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language(None)


def test_the_command_writes_the_report_which_names_no_file_and_whose_command_reproduces_the_search(
        tmp_path, capsys, english):
    store, report = tmp_path / "kept.journal", tmp_path / "report.html"
    args = ["balance", "--rules", "advanced", "--vary", "castles=5:6", "--target", "advantage=0.3:0.7",
            "--target", "draws=:0.2", "--games", "40", "--trials", "4", "--seed", "3"]
    assert main([*args, "--store", str(store), "--report", str(report), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    text = report.read_text(encoding="utf-8")
    assert str(tmp_path) not in text and "kept.journal" not in text  # the store stays out of the page
    page = Page(text)
    assert list(page.headings) == ["question", "answer", "tradeoff", "reproduce"]
    command = next(piece for piece in page.text if piece.startswith("guyenne-explore balance"))
    assert main([*shlex.split(command)[1:], "--json"]) == 0  # the command as printed, played again
    again = json.loads(capsys.readouterr().out)
    assert again["tried"] == first["tried"] and again["front"] == first["front"]
    best = first["best"]
    assert plain_estimate(best["metrics"][FIRST]["value"]) in " ".join(page.cells)  # the page's own rounding


def test_when_no_candidate_meets_every_target_the_report_lists_the_closest_then_the_trade_off_front():
    result, _depth = _planted()
    result.targets = parse_targets(["advantage=0.49:0.51", "rounds=:8"])  # fair is hand size 5, short is 7
    page = Page(balance_report(result, lang="en"))
    assert "the closest, then the trade-off front" in page.headings["answer"]
    settings = [c for c in page.cells if c.startswith("hand size ")]
    assert settings == ["hand size 5", "hand size 7"]  # hand size 6 is fairer than 7 but no shorter: dominated
    assert ["closest", "trade-off"] == [c for c in page.cells if c in ("closest", "trade-off")]


def test_a_target_written_by_its_metrics_own_name_is_shown_by_the_metrics_label():
    result, _depth = _planted()
    result.targets = parse_targets(["Advantage (first side)=0.45:0.55", "Duration (rounds)=:9"])
    cells = Page(balance_report(result, lang="fr")).cells
    assert "Avantage (premier camp) (0,45 à 0,55)" in cells and "Durée (tours) (au plus 9)" in cells
