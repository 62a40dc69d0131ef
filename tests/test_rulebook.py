"""The living rulebook: every example's verdict is the engine's under every preset it applies to, a variant's diff
names exactly the examples the changed rule touches, the PDF prints whole, the command line's JSON and the tab."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from guyenne_explore.analysis.rulebook import SECTION_IDS, build_rulebook, examples_of, replay, section_of, section_text
from guyenne_explore.cli import main
from guyenne_explore.render.rulebook import PAPERS, rulebook_html, rulebook_pdf
from guyenne_explore.rulebook import examples
from guyenne_explore.engine.rules import PRESET_NAMES, Rules


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_example_holds_under_each_preset_it_applies_to(preset):
    shown = [e for e in examples() if preset in e.presets]
    assert shown, preset
    for e in shown:
        r = replay(e, Rules.preset(preset))
        assert r.problem is None, (e.id, r.problem)
        assert r.verdict == e.claims, (e.id, r.verdict)


def test_the_sections_keep_their_ids_and_each_has_an_example():
    assert SECTION_IDS == ("setup", "round", "placements", "battles", "removals", "drawing", "end", "variants", "team")
    for section in SECTION_IDS:
        assert examples_of(section), section
    assert section_of("battles-hero") == "battles"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_under_a_preset_itself_the_diff_is_empty(preset):
    assert build_rulebook(Rules.preset(preset), "en").diff == ()


@pytest.mark.parametrize("change, touched", [
    ({"hero": False}, {"setup", "battles"}),
    ({"hand_size": 7}, {"setup", "drawing"}),
    ({"scoring": "2021"}, {"end"}),
])
def test_one_rule_changed_flags_the_examples_of_the_sections_it_touches_and_no_other(change, touched):
    book = build_rulebook(Rules.preset("base", **change), "en")
    assert {d.section for d in book.diff} == touched
    for d in book.diff:  # each entry is a real change, said in words
        assert d.before.words("en") != d.after.words("en")
        assert d.before.holds


def test_the_team_split_follows_the_hand_size():
    book = build_rulebook(Rules.preset("team", hand_size=7), "en")
    assert "team-split" in {d.example for d in book.diff}


def test_the_text_carries_the_variants_numbers_in_both_languages():
    rules = Rules.preset("base", hand_size=7, exhaustion_limit=3)
    _title, setup = section_text("setup", rules, "en")
    assert any("a hand of 7, a deck of 15" in p for p in setup)
    _title, drawing = section_text("drawing", rules, "fr")
    assert any("moins de 3\u00a0fois" in p or "moins de 3 fois" in p for p in drawing)
    _title, removals = section_text("removals", Rules.preset("classic2021"), "en")
    assert any("conquers" in p for p in removals) and not any("whether it won" in p for p in removals)


def test_an_example_the_variant_cannot_set_up_is_named_and_the_rest_built():
    book = build_rulebook(Rules.preset("base", castles=5, hand_size=5), "en")
    after = {d.example: d.after for d in book.diff}
    assert after["end-scoring-2022"].problem and "castle 6" in after["end-scoring-2022"].problem
    assert "hand" in after["placements-count"].problem  # a hand of 6 under hands of 5: the loader's problem
    assert [s.id for s in book.sections] == list(SECTION_IDS)
    assert any(r.figure is not None for s in book.sections for r in s.replays)


def test_the_html_shows_the_diff_then_every_section_with_its_figures():
    book = build_rulebook(Rules.preset("base", hero=False), "fr")
    page = rulebook_html(book)
    assert page.index("rb-diff") < page.index("data-section='setup'")
    assert page.count("<svg") == sum(1 for s in book.sections for r in s.replays if r.figure is not None)
    assert "Mise en place" in page


def _page_boxes(pdf: bytes) -> list[str]:
    return re.findall(rb"/MediaBox\s*\[([^\]]*)\]", pdf)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_pdf_pages_are_all_the_paper_size_with_embedded_fonts(paper):
    pdf = rulebook_pdf(build_rulebook(Rules.preset("advanced"), "en"), paper)
    boxes = _page_boxes(pdf)  # fpdf2 writes one box for the document, and one more for any page of another size
    width, height = PAPERS[paper]
    assert len(re.findall(rb"/Type /Page\b", pdf)) > 3 and len(set(boxes)) == 1
    assert [round(float(v)) for v in boxes[0].split()] == [0, 0, round(width), round(height)]
    assert b"/FontFile2" in pdf  # the TrueType fonts are embedded


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_no_figure_is_cut_at_a_page_edge(tmp_path):
    from PIL import Image

    (tmp_path / "book.pdf").write_bytes(rulebook_pdf(build_rulebook(Rules.preset("expert"), "fr"), "letter"))
    subprocess.run(["pdftoppm", "-r", "36", "-png", str(tmp_path / "book.pdf"), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    sizes = {Image.open(p).size for p in pages}
    assert len(pages) > 3 and len(sizes) == 1
    w, h = sizes.pop()
    band = round(36 * 36 / 72)  # the bottom half of the margin, in pixels at 36 dpi: nothing may be drawn there
    for p in pages:
        grey = Image.open(p).convert("L")
        bottom = grey.crop((0, h - band, w, h))
        assert bottom.getextrema()[0] > 250, p.name  # white: no figure runs into the margin


def test_the_command_line_prints_the_sections_and_the_diff_as_json(capsys):
    assert main(["rulebook", "--rules", '{"preset": "base", "scoring": "2021"}', "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["id"] for s in data["sections"]] == list(SECTION_IDS)
    assert all({"id", "title", "examples"} <= set(s) for s in data["sections"])
    assert data["diff"] and all(set(d) == {"section", "example", "before", "after"} for d in data["diff"])
    assert {d["section"] for d in data["diff"]} == {"end"}


def test_the_command_line_writes_a_folder_and_names_a_bad_rules_value(tmp_path, capsys):
    assert main(["rulebook", "--rules", "team", "--lang", "fr", "--paper", "letter", "-o", str(tmp_path / "book")]) == 0
    assert {p.name for p in (tmp_path / "book").iterdir()} == {"rulebook.html", "rulebook.pdf"}
    assert main(["rulebook", "--rules", '{"preset": "base", "hand_size": 99}', "-o", str(tmp_path / "x.pdf")]) == 1
    err = capsys.readouterr().err
    assert "rules.hand_size" in err and "Traceback" not in err


def test_the_tab_builds_the_variants_rulebook_and_shows_its_diff():
    from guyenne_explore.widgets.rulebook_panel import RulebookPanel

    variant: list[Rules | None] = [Rules.preset("base", hand_size=7)]
    panel = RulebookPanel(variant=lambda: variant[0])
    panel.show()
    # each changed example by its caption, never by the file's id for it ("setup-deal")
    assert "data-example='drawing-refill'" in panel.diff.value and "data-example='setup-deal'" in panel.diff.value
    assert not re.search(r">[^<]*\b(drawing-refill|setup-deal)\b", panel.diff.value), panel.diff.value
    from html import escape

    from guyenne_explore.analysis.rulebook import example
    assert escape(example("drawing-refill").caption["en"]) in panel.diff.value
    assert "<svg" in panel.page.value and not panel.pdf_button.disabled
    assert "rb-diff" not in panel.page.value  # the diff once, above the page
    variant[0] = None  # the lab's values have problems: named beside the choice, nothing built
    panel.show()
    assert "variant lab" in panel.problems.value and panel.pdf_button.disabled and panel.page.value == ""
    panel.source.value = "classic2021"
    panel.show()
    assert "Every example holds" in panel.diff.value
