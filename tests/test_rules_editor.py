"""The rules editor of the variant lab and the builder: every field's problem under that field (the field marked),
two mistakes two problems, the card counts' box showing the counts that run, and one label column that fits the
longest label of the language shown."""

import html

import pytest

pytest.importorskip("ipywidgets")

from guyenne_explore.engine import FLAG, PARAMETERS, Position  # noqa: E402
from guyenne_explore.i18n import set_language  # noqa: E402
from guyenne_explore.widgets import Builder  # noqa: E402
from guyenne_explore.widgets.rules_editor import INVALID, RulesEditor  # noqa: E402
from guyenne_explore.widgets.variant_lab import VariantLab  # noqa: E402


def _beside(editor: RulesEditor) -> dict[str, str]:
    """The words under each field that has some, and whether the field is marked."""
    return {name: html.unescape(message.value) for name, message in editor.messages.items() if message.value}


def _two_mistakes(editor: RulesEditor) -> None:
    editor.widgets["hand_size"].value = "99"
    editor.widgets["card_counts"].value = "2:x"


def test_two_bad_fields_of_the_lab_give_two_problems_each_under_its_field():
    lab = VariantLab(Position.start("advanced"))
    _two_mistakes(lab.rules_editor)
    beside = _beside(lab.rules_editor)
    assert set(beside) == {"hand_size", "card_counts"}
    assert "hand size must be at most 12" in beside["hand_size"] and "2:x" in beside["card_counts"]
    marked = {name for name, widget in lab.editors.items() if INVALID in widget._dom_classes}
    assert marked == {"hand_size", "card_counts"}
    # one summary line counts them; their words are beside the fields, not in it
    summary = html.unescape(lab.rules_problems.value)
    assert "2 problems, shown beside their fields" in summary and "at most 12" not in summary
    assert lab.variant is None and lab.compare_button.disabled
    lab.editors["hand_size"].value = "7"
    lab.editors["card_counts"].value = "2:12 3:4 4:3 5:2"
    assert _beside(lab.rules_editor) == {} and not lab.rules_problems.value and lab.variant is not None
    assert not any(INVALID in widget._dom_classes for widget in lab.editors.values())


def test_two_bad_fields_of_the_builder_give_two_problems_each_under_its_field():
    b = Builder(Position.start("advanced"))
    _two_mistakes(b.parameters)
    beside = _beside(b.parameters)
    assert set(beside) == {"hand_size", "card_counts"}
    assert "hand size must be at most 12" in beside["hand_size"] and "2:x" in beside["card_counts"]
    assert len(b.problems) == 2 and b.errors["rules"].value == "" and b.position is None


def test_the_card_counts_box_shows_the_counts_that_run_and_says_what_a_value_not_typed_keeps():
    lab = VariantLab(Position.start("advanced"))
    box = lab.editors["card_counts"]
    box.value = "3:4 4:3 7:2"  # the 2s and 5s not typed keep the preset's counts (RULES.md 10)
    assert box.value == "2:12 3:4 4:3 5:2 7:2"
    assert lab.variant.card_counts == {2: 12, 3: 4, 4: 3, 5: 2, 7: 2}
    note = html.unescape(lab.rules_editor.counts_note.value)
    assert "Kept from the preset: 2:12 5:2." in note and "5:0 removes the 5s" in note
    # the variant's line writes the counts as the box does
    assert "card counts 2:12 3:4 4:3 5:2 7:2 (preset: 2:12 3:4 4:3 5:2)" in html.unescape(lab.variant_label.value)
    lab.editors["hand_size"].value = "7"  # another edit: the note still says what the box holds from the preset
    assert "Kept from the preset: 2:12 5:2." in html.unescape(lab.rules_editor.counts_note.value)
    box.value = "5:0"  # a count of 0 removes a value, and stays in the box (else the 5s would come back)
    assert box.value == "2:12 3:4 4:3 5:0" and lab.variant.card_counts == {2: 12, 3: 4, 4: 3}


def _width_em(widget) -> float:
    width = widget.style.description_width
    assert width.endswith("em"), width
    return float(width[:-2])


#: The widest label of the rules in each language, in ems of DejaVu Sans as Chromium draws it: "exhaustion limit L"
#: (116 px at 13 px) and "reconstitution de la pioche" (175 px)
WIDEST = {"en": 8.9, "fr": 13.5}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_one_label_column_fits_the_longest_label_of_the_language(lang):
    """At 120 px the French "reconstitution de la pioche" pushed its field out of line: every label, the flags'
    indent included, is as wide as the widest label in the language shown (tests/test_browser_rules_editor.py
    checks it in Chromium)."""
    lab = VariantLab(Position.start("advanced"))
    try:
        set_language(lang)
        lab.refresh()
        widths = {_width_em(widget) for widget in lab.editors.values()}
        assert len(widths) == 1 and WIDEST[lang] <= widths.pop() <= WIDEST[lang] + 1.5
        flags = [lab.editors[p.name] for p in PARAMETERS if p.kind == FLAG]
        assert all(flag.indent for flag in flags)  # their boxes line up with the fields, not at the left edge
    finally:
        set_language("en")
