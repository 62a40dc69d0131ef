"""The explorer's widgets, headless: set values as a person would, check the position, the words shown, the moves."""
import html
import json
import re

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.engine.cards import SYMBOLS  # noqa: E402
from guyenne_explore.widgets import Builder, Explorer, MovesPanel, Table  # noqa: E402
from guyenne_explore.engine.problems import problem  # noqa: E402
from guyenne_explore.widgets.position_form import section_of  # noqa: E402
from guyenne_explore.widgets.starts import STARTS, opening, start_position  # noqa: E402

from .conftest import position_files  # noqa: E402


@pytest.fixture(scope="module")
def start():
    return opening("advanced", 1)


def click_castle(table, index):
    """What the browser sends when a castle of the diagram is clicked."""
    table._handle_custom_msg({"type": "castle", "index": index}, [])


def pick(move_list, kind, move, revision=None):
    """What the browser sends when a chip is hovered (``move`` "" when the pointer leaves), clicked or
    double-clicked: the list it was made on is ``revision`` (default: the list shown)."""
    move_list._handle_custom_msg({"type": kind, "move": move,
                                  "list": move_list.revision if revision is None else revision}, [])


def counts(builder, side, zone):
    """The number boxes of one zone row of the builder, by card symbol."""
    row = builder._rows[(side, zone)]
    return {SYMBOLS[k]: box for k, box in zip(row.kinds, row.boxes)}


def add(box, n):
    """Type the box's number plus ``n`` into it, as a person would."""
    box.value = str(int(box.value) + n)


# ---------------------------------------------------------------------- table
def test_table_draws_the_position_and_reports_clicks(start):
    table = Table(start)
    assert table.notation == start.notation()
    assert 'data-castle="3"' in table.svg
    castles, stacks = [], []
    table.on_castle_click(castles.append)
    table.on_stack_click(lambda side, zone, member: stacks.append((side, zone, member)))
    click_castle(table, 3)
    table._handle_custom_msg({"type": "stack", "side": "french", "zone": "deck", "member": 0}, [])
    table._handle_custom_msg({"type": "stack", "side": "nobody", "zone": "deck"}, [])
    assert castles == [3]
    assert stacks == [("french", "deck", 0)]


def test_table_highlights_a_move_and_dims_for_an_invalid_position(start):
    table = Table(start)
    plain = table.svg
    table.highlight = "2:H4"  # as the move lists write it: the table's castle 2
    assert "move 2:H4" in table.svg and table.svg != plain and table.highlighted_move().castle == 1
    table.highlight = "not a move"
    assert table.svg == plain
    table.set_position(None, "castle 9 does not exist")
    assert table.status == "castle 9 does not exist"
    assert table.svg == plain  # the last picture stays, dimmed by the view
    table.set_position(start.apply("1:H4"))
    assert table.status == "" and table.highlight == ""


# ---------------------------------------------------------------------- builder
def test_builder_opens_on_the_game_before_the_deal():
    b = Builder()
    assert b.position == Position.start("advanced") and b.position.is_chance and b.position.to_play == "deal"
    assert b.problems == [] and "valid position" in b.summary.value
    assert b.start_choice.value == "before the deal" and b.seed.layout.display == "none"


def test_castle_clicks_cycle_the_controller():
    b = Builder(opening("advanced", 1))
    b.cycle_castle(4)  # the notation's index 4: the fifth castle, as the rulebook numbers them
    assert b.position.control(4) == "english" and b.castle_row.children[4].description == "5: English"
    b.cycle_castle(4)
    assert b.position.control(4) == "french" and b.castle_row.children[4].description == "5: French"
    b.cycle_castle(4)
    assert b.position.control(4) == "neutral"
    assert b.castle_row.children[4].description == "5: neutral"


def test_all_castles_to_one_side_is_explained_beside_the_game_fields(start):
    b = Builder(start)
    for i in range(6):
        b.cycle_castle(i)
    assert b.position is None
    assert "the English control every castle" in b.errors["game"].value
    assert "1 problem" in b.summary.value
    b.cycle_castle(0)  # english -> french: a game again
    assert b.position is not None and b.position.control(0) == "french"
    assert b.errors["game"].value == ""


def test_card_counts_problems_are_shown_beside_the_side(start):
    b = Builder(start)
    add(counts(b, 1, "hand0")["2"], 3)
    assert b.position is None
    assert "the French hold 9 cards in hand" in b.errors["french"].value
    assert "too many: 3 × 2" in b.errors["french"].value
    assert b.errors["english"].value == ""
    add(counts(b, 1, "hand0")["2"], -3)
    add(counts(b, 1, "deck")["2"], 3)
    assert b.position is None and "hand" not in b.errors["french"].value
    add(counts(b, 1, "deck")["2"], -3)
    assert b.position == start


def test_moving_cards_between_zones_builds_a_new_valid_position(start):
    b = Builder(start)
    add(counts(b, 0, "deck")["5"], -1)
    add(counts(b, 0, "discard")["5"], 1)
    p = b.position
    assert p is not None
    assert p.sides[0].discard.symbols() == ["5"] and p.sides[0].deck.size == start.sides[0].deck.size - 1


def test_rules_parameters_override_the_preset_and_bad_ones_are_explained(start):
    b = Builder(start)
    b.parameters.widgets["hand_size"].value = "1"
    assert b.position is None and "hand size must be at least 2" in b.parameters.messages["hand_size"].value
    b.parameters.widgets["hand_size"].value = "6"
    b.parameters.widgets["exhaustion_limit"].value = "3"
    assert b.position.rules.exhaustion_limit == 3
    assert b.position.rules.preset_name == "advanced"
    b.parameters.widgets["card_counts"].value = "2 twelve"
    assert "card counts as value:count pairs" in b.parameters.messages["card_counts"].value
    b.parameters.widgets["castles"].value = "7"
    b.parameters.widgets["card_counts"].value = "2:12 3:4 4:3 5:2"
    assert len(b.castle_row.children) == 7 and len(b.position.castles) == 7


def test_preset_change_to_team_asks_for_the_team_fields(start):
    b = Builder(start)
    b.preset.value = "team"
    assert (0, "hand1") in b._rows  # member hands shown
    assert b.position is None
    assert "the English are a team" in b.errors["english"].value


def test_decision_point_and_placed_problems_go_to_their_fields(start):
    b = Builder(start)
    b.to_play.value = "respond_first"
    assert b.position is None
    assert "castle X is chosen" in b.errors["placed"].value
    b.x.value = 2
    counts(b, 0, "hand0")["H"].value = "0"
    counts(b, 0, "X")["H"].value = "1"
    assert b.position is not None and b.position.to_play == "respond_first"
    assert b.position.placed.x == 2


def test_round_problem_goes_to_the_game_fields(start):
    b = Builder(start)
    b.round.value = "0"
    assert "round must be 1 or more" in b.errors["game"].value


@pytest.mark.parametrize("path", position_files(), ids=lambda p: p.name)
def test_check_positions_load_into_the_form_unchanged(path):
    p = Position.from_json(path.read_text())
    b = Builder()
    b.load_json(path.read_text())
    assert b.problems == []
    assert b.position == p
    assert b.form_json()["sides"] == p.to_json()["sides"]


def test_json_and_notation_load_show_and_refuse(start):
    b = Builder(start)
    b.load_notation("advanced ...... 1 E")
    assert "7 fields" in b.notation_message.value and b.position == start
    q = start.apply("0:H")
    b.notation_text.value = q.notation()
    b.io_buttons["Load notation"].click()
    assert b.position == q and b.notation_message.value == ""
    b.io_buttons["Show JSON"].click()
    assert json.loads(b.json_text.value) == q.to_json()
    broken = q.to_json()
    broken["sides"]["english"]["hand"].append("H")
    b.json_text.value = json.dumps(broken)
    b.io_buttons["Load JSON"].click()
    # refused beside the JSON box, with the field it concerns; the form keeps q
    assert b.position == q and "sides.english" in b.json_message.value and "too many" in b.json_message.value
    assert "refused" in b.summary.value and "valid position" not in b.summary.value
    assert b.edit_refused.layout.display is None
    b.edit_refused.click()  # opened in the form on request: each problem beside its field
    assert b.position is None and "too many: 1 × hero" in b.errors["english"].value
    assert b.edit_refused.layout.display == "none" and "refused" not in b.summary.value


@pytest.mark.parametrize("rules", ["base", "expert", "team", "team3"])
@pytest.mark.parametrize("name", STARTS)
def test_starting_presets_are_valid_positions_the_form_keeps(name, rules):
    b = Builder(opening(rules, 1))
    b.start_choice.value = name
    b.seed.value = 3
    b.start_button.click()
    p = start_position(name, rules, 3)
    assert b.position == p and b.problems == []
    assert not p.is_over and (p == Position.start(rules) if name == "before the deal" else not p.is_chance)
    assert Builder(p).position == p  # the form shows every field of it, team hands included


def test_random_midgame_is_later_in_the_game():
    p = start_position("random mid-game", "advanced", 2)
    assert p.round > 1 and p.to_play == "open_first"


def test_problem_sections_follow_the_field_path_not_the_words():
    assert section_of(problem("rules.unknown_parameter", "rules.x", key="x")) == "rules"
    assert section_of(problem("placed.cards_expected", "placed.english.X", point="open_second", side="english",
                              want="should have", battle="X", order="first")) == "placed"
    assert section_of(problem("position.stacked_order", "sides.french.deck", side="french")) == "french"
    assert section_of(problem("position.castle_count", "castles", count=5, castles=6)) == "castles"
    assert section_of(problem("position.round", "round", value=0)) == "game"
    # the same words under another field go to that field's section
    assert section_of(problem("plain", "sides.english.exhaustions", detail="the round is wrong")) == "english"
    assert section_of(problem("plain", "", detail="english castles")) == "general"


# ---------------------------------------------------------------------- moves
def test_move_list_is_the_engines_grouped_by_castle(start):
    panel = MovesPanel(start)
    assert f'data-count="{len(start.legal_moves)}"' in panel.count.value
    groups = panel.list.groups
    assert [g["label"] for g in groups] == [f"castle {c + 1}" for c in range(6)]
    listed = [m for g in groups for m, _ in g["moves"]]
    assert listed == [m.text(1) for m in start.legal_moves]  # as typed: castles counted from 1, as on the table
    assert listed[0].startswith("1:") and next(iter(start.legal_moves)).castle == 0


def test_a_typed_illegal_move_shows_the_engines_reason(start):
    panel = MovesPanel(start)
    panel.typed.value = "1:H42222"
    panel.buttons["Play typed move"].click()
    assert start.why_illegal("0:H42222") in panel.explain.value
    assert panel.position == start
    assert not panel.try_move("9:2")
    assert "there is no castle 9: castles are numbered 1 to 6" in html.unescape(panel.explain.value)
    assert not panel.try_move("0:2")  # the notation's index of castle 1 is not what a person types
    assert "there is no castle 0: castles are numbered 1 to 6" in html.unescape(panel.explain.value)
    assert not panel.try_move("  ")  # an empty box: the words alone, no empty move before a colon
    assert "✗ type a move first" in panel.explain.value and "✗ :" not in panel.explain.value
    assert not panel.try_move("reveal")  # the placeholder's example, at an opening
    assert "only at a battle" in panel.explain.value and "unknown card" not in panel.explain.value
    groups = [g["label"] for g in panel.list.groups]
    assert groups and all(label.startswith("castle ") for label in groups)  # a placement: one group a castle


def test_move_groups_at_an_answer_are_titled_with_the_decision_points_name(start):
    from guyenne_explore.i18n import set_language
    from guyenne_explore.widgets.moves_panel import group_moves
    answer = start.apply(next(iter(start.legal_moves)).text())
    assert answer.to_play == "respond_first"
    assert [g["label"] for g in group_moves(answer)] == ["the answer at the first castle (X)"]  # not "respond_first"
    previous = set_language("fr")
    try:
        assert [g["label"] for g in group_moves(answer)] == ["réponse au premier château (X)"]
    finally:
        set_language(previous)


def test_select_preview_apply_and_step_through_the_history(start):
    panel = MovesPanel(start)
    assert panel.buttons["Apply selected"].disabled  # nothing selected: nothing to apply
    panel.list.selected = "3:42"
    assert panel.highlight == "3:42" and not panel.buttons["Apply selected"].disabled
    panel.list.hovered = "1:H"
    assert panel.highlight == "1:H"
    panel.list.hovered = ""
    panel.buttons["Apply selected"].click()
    after = start.apply(start.parse_move("3:42", 1))  # the table's castle 3: the notation's index 2
    assert after.placed.x == 2
    assert panel.position == after and panel.highlight == ""
    assert panel.buttons["Apply selected"].disabled and "played 3:42" in panel.explain.value
    assert f'data-count="{len(after.legal_moves)}"' in panel.count.value
    panel.typed.value = "3:5555555"
    panel.buttons["◀ Back"].click()
    assert panel.position == start
    assert panel.explain.value == panel.typed.value == ""  # they spoke of the position left behind
    panel.buttons["Forward ▶"].click()
    assert panel.position == after
    pick(panel.list, "apply", "H")  # a double click
    assert panel.position == after.apply("H") and len(panel.history) == 3


def test_play_out_and_chance_points(start):
    panel = MovesPanel(start)
    panel.try_move(next(iter(start.legal_moves)).text(1))
    panel.buttons["Play out (heuristic)"].click()
    r = panel.position.result()
    assert panel.position.is_over and panel.buttons["Apply selected"].disabled and panel.explain.value == ""
    assert panel.buttons["Play out (heuristic)"].disabled  # nothing left to play
    said = (f"Game over: a draw, English {r.english} – French {r.french}" if r.winner == "draw" else
            f"Game over: the {r.winner.title()} win")
    assert said in panel.count.value and f"English {r.english} – French {r.french}" in panel.count.value
    chance = next(i for i, p in enumerate(panel.history) if p.is_chance)
    panel.step(chance - panel.index)
    assert panel.position.is_chance and panel.list.groups == []
    assert not panel.buttons["Sample chance"].disabled and not panel.buttons["Play out (heuristic)"].disabled
    panel.buttons["Sample chance"].click()
    assert panel.history[chance + 1].to_play != "draw" and panel.index == chance + 1


# ---------------------------------------------------------------------- explorer
    panel.set_position(None)  # the builder holds no valid position
    assert panel.buttons["Play out (heuristic)"].disabled and panel.buttons["Sample chance"].disabled



def test_explorer_propagates_builder_changes_to_every_panel(start):
    e = Explorer(start)
    assert e.position == start and e.analysis.position == start and e.lab.position == start
    click_castle(e.table, 2)
    changed = e.builder.position
    assert changed.control(2) == "english"
    assert e.table.notation == changed.notation() and 'data-control="english"' in e.table.svg
    assert e.moves.position == changed and e.analysis.position == changed and e.lab.position == changed
    for i in (0, 1, 3, 4, 5):
        click_castle(e.table, i)
    assert e.position is None and e.analysis.position is None and e.lab.position is None
    assert 'data-count="0"' in e.moves.count.value
    assert "the English control every castle" in e.table.status


def test_explorer_moves_go_back_to_the_builder(start):
    e = Explorer(start)
    e.moves.list.selected = "5:H2"
    assert e.table.highlight == "5:H2"
    e.moves.buttons["Apply selected"].click()
    after = start.apply("4:H2")  # the table's castle 5, the notation's index 4
    assert e.builder.position == after and e.table.notation == after.notation()
    assert e.analysis.position == after
    assert len(e.moves.history) == 2  # the game played stays for Back
    e.moves.step(-1)
    assert e.builder.position == start


def test_explorer_stack_click_opens_the_zone_in_the_builder(start):
    e = Explorer(start)
    e.tabs.selected_index = 1
    e.table._handle_custom_msg({"type": "stack", "side": "french", "zone": "discard", "member": 0}, [])
    assert e.tabs.selected_index == 0
    assert "French discard" in e.builder.focus_note.value
    assert "guyenne-focus" in e.builder._rows[(1, "discard")].label._dom_classes


# ---------------------------------------------------------------------- teaching game
def test_teaching_game_explains_rules_as_they_come_and_refuses_illegal_tries():
    import random

    from guyenne_explore.widgets.teaching import TeachingGame

    game = TeachingGame("advanced", side="english", seed=3)
    assert game.seen_lessons == ["setup", "open_first"]
    assert 'data-lesson="open_first"' in game.lessons.value
    before = game.position
    assert not game.play("1:HH")
    assert before.why_illegal("0:HH") in html_unescape(game.explain.value)
    assert game.position == before
    rng = random.Random(0)
    while not game.position.is_over:
        moves = [m for g in game.moves.groups for m, _ in g["moves"]]
        assert game.play(rng.choice(moves))
        assert game.position.is_over or game.position.side_to_play == 0  # the French have answered
    seen = game.seen_lessons
    for rule in ("neutral_battle", "removal", "draw", "exhaustion", "end"):
        assert rule in seen
    assert seen.index("respond_second") < seen.index("neutral_battle") < seen.index("draw") < seen.index("end")
    assert "Game over" in game.prompt.value and game.moves.groups == []
    assert "Castle X" in game.history_view.value


def test_a_move_played_in_the_teaching_game_is_never_previewed_again():
    """Selected then played, the move stayed selected: the table drew it on the next position (the learner's cards
    at the castle just played, for the side now to play); the new list forgets it."""
    from guyenne_explore.widgets.teaching import TeachingGame

    game = TeachingGame("advanced", side="english", seed=3)
    move = game.moves.groups[0]["moves"][0][0]
    game.moves.selected = move
    assert game.table.highlight == move and game.table.highlighted_move() is not None
    game.moves.hovered = move
    assert game.play(move)
    assert game.moves.selected == game.moves.hovered == "" and game.table.highlight == ""
    assert game.table.highlighted_move() is None


def test_a_new_list_of_moves_forgets_the_move_hovered_or_selected_in_the_last(start):
    panel = MovesPanel(start)
    moves = [m for g in panel.list.groups for m, _ in g["moves"]]
    panel.list.selected, panel.list.hovered = moves[0], moves[-1]
    panel.list.show(panel.list.groups[:1])
    assert panel.list.selected == panel.list.hovered == "" and panel.highlight == ""


def test_a_pick_made_on_a_list_no_longer_shown_is_ignored(start):
    """The browser's hover reached the kernel after the double click's move was played and the new list shown:
    the table previewed the old list's move for the side now to play.  Each pick names its list; an old one's
    picks are ignored, the new one's are not."""
    panel = MovesPanel(start)
    first = [m for g in panel.list.groups for m, _ in g["moves"]][0]
    old = panel.list.revision
    pick(panel.list, "hover", first)
    pick(panel.list, "select", first)
    assert panel.highlight == first and panel.list.selected == first
    pick(panel.list, "apply", first)
    after = start.apply(start.parse_move(first, 1))
    assert panel.position == after and panel.list.revision != old
    for kind in ("hover", "select", "apply"):  # late: sent from the list the move was played on
        pick(panel.list, kind, first, revision=old)
    assert panel.position == after and panel.highlight == "" and panel.list.selected == ""
    answer = [m for g in panel.list.groups for m, _ in g["moves"]][0]
    pick(panel.list, "hover", answer)
    assert panel.highlight == answer
    pick(panel.list, "hover", "")
    assert panel.highlight == ""


def test_a_refused_exact_run_empties_the_bar_of_the_run_before():
    """The bar stayed full at "200/200" from the sampled run before an exact run refused for its size."""
    from guyenne_explore.widgets.analysis_panel import AnalysisPanel
    from guyenne_explore.widgets.run_controls import IDLE
    from guyenne_explore.widgets.starts import before_deal

    panel = AnalysisPanel(before_deal("advanced"))
    panel.games.value = 200
    panel.run(block=True)
    bar = panel.controls.progress
    assert (bar.value, bar.description) == (200, "200/200 games")
    panel.method.value = "exact"
    panel.run(block=True)
    assert not panel.results and "exact enumeration is too large" in panel.controls.status.value
    assert (bar.value, bar.description) == (0, IDLE)
    panel.method.value = "sample"
    panel.run(block=True)
    panel.games.box.value = "abc"  # refused before it starts: the bar empties too
    panel.run(block=True)
    assert "Not run" in panel.controls.status.value and (bar.value, bar.description) == (0, IDLE)


def html_unescape(text):
    import html
    return html.unescape(text)


def test_explorer_analysis_run_produces_figures_for_the_built_position(start):
    e = Explorer(start)
    click_castle(e.table, 2)
    panel = e.analysis
    assert panel.position == e.position and panel.position.control(2) == "english"
    panel.games.value = 20
    panel.method.value = "sample"
    panel.run(block=True)  # what the "Run analysis" button does, in this thread
    assert panel.results and all(r.games == 20 for r in panel.results.values())
    assert any(r.position == e.position for r in panel.results.values())
    figures = panel.figure_box.shown
    assert figures and all(f.figure["data"] for f in figures)
    for i in (0, 1, 3, 4, 5):
        click_castle(e.table, i)
    assert panel.position is None and panel.run_button.disabled


# ---------------------------------------------------------------------- no input crashes a panel
def sent_files(download, monkeypatch):
    """What a Download widget sends to the page: (name, mime, bytes) for each download."""
    sent = []
    monkeypatch.setattr(download, "send",
                        lambda content, buffers=None: sent.append((content["name"], content["mime"], buffers[0])))
    return sent


def upload_file(upload, name, data):
    """What the page sends when a visitor picks a file: its name, size and bytes (never a path)."""
    upload._handle_custom_msg({"type": "file", "name": name, "size": len(data)}, [data])


def test_letters_and_huge_numbers_in_count_boxes_are_named_beside_the_row_and_kept(start):
    b = Builder(start)
    box = counts(b, 0, "deck")["5"]
    box.value = "abc"
    row = b._rows[(0, "deck")]
    assert box.value == "abc"  # what was typed stays
    assert "must be a whole number written with the digits 0-9, not 'abc'" in html_unescape(row.message.value)
    assert b.position is None and "1 problem" in b.summary.value
    box.value = "1000000"
    assert "at most 999" in row.message.value and b.position is None
    box.value = "2"
    assert row.message.value == "" and b.position == start


def test_letters_in_rules_and_game_numbers_are_named_and_kept(start):
    b = Builder(start)
    b.parameters.widgets["hand_size"].value = "abc"
    assert b.parameters.widgets["hand_size"].value == "abc"
    assert "hand size must be a whole number written with the digits 0-9, not 'abc'" in html_unescape(
        b.parameters.messages["hand_size"].value)
    assert b.position is None
    b.parameters.widgets["hand_size"].value = "6"
    b.round.value = "x1"
    assert "round must be a whole number" in b.errors["game"].value and b.round.value == "x1"
    b.round.value = "1"
    b.exhaustions[1].value = "9" * 5000
    assert "must be at most 1,000,000,000, not 99999999999999999..." in b.errors["french"].value
    b.exhaustions[1].value = "0"
    assert b.position == start


HOSTILE_JSON = {
    "not JSON": "{not json",
    "deep nesting": "[" * 100_000,
    "deep object": '{"rules": ' * 5000 + "1" + "}" * 5000,
    "infinite number": '{"rules": {"preset": "team", "members": {"english": 1e999}}}',
    "5,000 digits": '{"round": ' + "7" * 5000 + "}",
    "preset as a list": '{"rules": {"preset": []}}',
    "hand size as text": '{"rules": {"preset": "advanced", "hand_size": "abc"}}',
    "members as a list": '{"rules": {"preset": "team", "members": [1, 2]}}',
    "castle as an object": '{"castles": [{}]}',
    "a list": "[1, 2]",
    "partial": '{"castles": ["english", "neutral", "neutral", "neutral", "neutral", "french"]}',
}


@pytest.mark.parametrize("text", HOSTILE_JSON.values(), ids=HOSTILE_JSON.keys())
def test_a_bad_json_load_is_refused_beside_its_box_and_wipes_nothing(start, text):
    b = Builder(start)
    add(counts(b, 0, "deck")["5"], -1)  # the person's own edit, valid
    add(counts(b, 0, "discard")["5"], 1)
    edited, form = b.position, b.form_json()
    b.json_text.value = text
    b.io_buttons["Load JSON"].click()
    assert "was not loaded" in b.json_message.value and "unexpected error" not in b.json_message.value
    assert b.json_text.value == text  # what was typed stays
    assert b.position == edited and b.form_json() == form  # nothing wiped, the last valid position kept
    assert "refused" in b.summary.value and "valid position" not in b.summary.value


def test_a_refused_json_with_unusable_fields_opens_in_the_form_with_notes(start):
    b = Builder(start)
    data = start.to_json()
    data["rules"] = {"preset": "advanced", "hand_size": "abc", "members": [1, 2]}
    assert not b.load_json(json.dumps(data))
    b.edit_refused.click()
    assert b.parameters.widgets["hand_size"].value == "abc"
    assert "hand size must be a whole number" in b.parameters.messages["hand_size"].value  # beside its field
    assert "members [1, 2] is not one of" in b.fill_notes.value
    assert b.position is None


def test_a_refused_json_with_partial_counts_and_members_opens_with_the_full_set_the_engine_reads(start):
    b = Builder(start)
    data = start.to_json()
    data["rules"] = {"preset": "team3", "hand_size": "abc", "card_counts": {"5": 3}, "members": {"french": 2}}
    assert not b.load_json(json.dumps(data))
    b.edit_refused.click()
    # RULES.md 10: the values and the side a partial mapping does not name keep the preset's
    assert b.parameters.widgets["card_counts"].value == "2:12 3:4 4:3 5:3"
    assert b.parameters.widgets["members"].value == "2 v 2"
    assert "hand size must be a whole number" in b.parameters.messages["hand_size"].value  # beside its field


def test_an_unexpected_error_in_a_handler_is_shown_beside_its_control_and_logged(start, monkeypatch, caplog):
    b = Builder(start)

    def boom(_data):
        raise RuntimeError("boom")

    monkeypatch.setattr(Position, "from_json", staticmethod(boom))
    b.json_text.value = "{}"
    with caplog.at_level("ERROR", logger="guyenne_explore.widgets"):
        b.io_buttons["Load JSON"].click()  # never raises into the page
    assert "unexpected error (RuntimeError: boom)" in b.json_message.value
    assert any("failed" in r.message and r.exc_info for r in caplog.records)
    assert b.position == start


def test_positions_come_in_by_upload_and_no_file_path_is_read(start, monkeypatch):
    from guyenne_explore.i18n import plain_size

    b = Builder(start)
    q = start.apply("0:H")

    def no_path(*_args, **_kwargs):
        raise AssertionError("an upload must not open a path")

    plain_size(1)  # Babel reads its own locale data once, on first use; no file of the visitor's
    monkeypatch.setattr("builtins.open", no_path)
    upload_file(b.upload, "p.json", json.dumps(q.to_json()).encode())
    assert b.position == q and "loaded p.json" in b.upload.message
    upload_file(b.upload, "start.txt", (start.notation() + "\n").encode())
    assert b.position == start
    upload_file(b.upload, "bad.json", b'{"rules": {"preset": []}}')
    assert "bad.json was not loaded" in b.upload.message and b.position == start
    assert "refused" in b.summary.value
    upload_file(b.upload, "zero.bin", b"\xff\xfe\x00" * 10)
    assert "not a text file" in b.upload.message
    upload_file(b.upload, "big.json", b" " * (b.upload.max_bytes + 1))  # a page that ignores the limit
    assert "holds 1,000,001 bytes: at most 1,000,000 bytes (1 MB)" in b.upload.message
    b.upload._handle_custom_msg({"type": "refused", "name": "huge.json", "size": 5_000_000}, [])
    assert "huge.json holds 5,000,000 bytes" in b.upload.message and b.position == start


def test_saving_is_a_browser_download_of_the_position(start, monkeypatch):
    b = Builder(start)
    sent = sent_files(b.download, monkeypatch)
    b.io_buttons["Download JSON"].click()
    b.io_buttons["Download notation"].click()
    (name, mime, data), (name2, _, data2) = sent
    assert (name, mime) == ("position.json", "application/json")
    assert Position.from_json(bytes(data).decode()) == start
    assert name2 == "position.txt" and bytes(data2).decode().strip() == start.notation()
    assert b.download.last.startswith("position.txt")
    b.round.value = "0"
    b.io_buttons["Download JSON"].click()
    assert len(sent) == 2 and "position is invalid" in b.save_message.value


def test_no_widget_of_the_explorer_names_a_server_path(start):
    e = Explorer(start)
    seen, stack = [], [e]
    while stack:
        widget = stack.pop()
        seen.append(widget)
        stack.extend(getattr(widget, "children", ()))
    words = " ".join(f"{getattr(x, 'description', '')} {getattr(x, 'placeholder', '')}".lower() for x in seen)
    for word in ("folder", "file", "path"):
        assert word not in words.replace("upload position", "")


def test_panel_paths_stay_inside_the_workspace(start, tmp_path, monkeypatch):
    from guyenne_explore.widgets.files import WorkspaceError

    monkeypatch.setenv("GUYENNE_WORKSPACE", str(tmp_path))
    b = Builder(start)
    b.save_file("saved/../p.json")
    assert Position.from_json((tmp_path / "p.json").read_text()) == start
    b.load_position(start.apply("0:H"))
    assert b.load_file("p.json") and b.position == start
    (tmp_path / "link.json").symlink_to("/etc/hostname")
    for outside in ("/etc/hostname", "../p.json", "link.json", "/dev/zero"):
        with pytest.raises(WorkspaceError):
            b.load_file(outside)
        with pytest.raises(WorkspaceError):
            b.save_file(outside)
    (tmp_path / "dir").mkdir()
    with pytest.raises(WorkspaceError, match="not a file"):
        b.load_file("dir")


def test_a_5000_digit_castle_number_in_the_moves_panel_is_explained(start):
    panel = MovesPanel(start)
    panel.typed.value = "9" * 5000 + ":2"
    panel.buttons["Play typed move"].click()
    assert "guyenne-illegal" in panel.explain.value and len(panel.explain.value) < 1000
    assert panel.typed.value == "9" * 5000 + ":2" and panel.position == start


def test_variant_lab_bounds_the_sweep_and_names_bad_parameters(start):
    from guyenne_explore.widgets.variant_lab import VariantLab

    lab = VariantLab(start)
    lab.sweep_parameter.value = "hand_size"
    lab.sweep_from.value, lab.sweep_to.value = 0, 999_999_999
    lab.sweep_button.click()
    assert "1,000,000,000 values; at most 25" in lab.sweep_message.value
    assert not lab.controls.running and lab.points == []
    lab.sweep_from.value, lab.sweep_to.value = 7, 5
    lab.sweep_button.click()
    assert "range is empty" in lab.sweep_message.value
    lab.editors["hand_size"].value = str(10**8)
    beside = lab.rules_editor.messages["hand_size"]  # the problem under its field
    assert lab.variant is None and "hand size must be at most" in beside.value
    lab.editors["hand_size"].value = "9" * 5000
    assert lab.variant is None and "must be at most 1,000,000,000, not 99999999999999999..." in beside.value


def test_variant_lab_compare_failure_is_shown_beside_its_buttons(start, monkeypatch):
    from guyenne_explore.widgets import variant_lab

    def boom(*_a, **_k):
        raise MemoryError()

    monkeypatch.setattr(variant_lab, "analyse_rule_sets", boom)
    lab = variant_lab.VariantLab(start)
    lab.run_compare(block=True)
    assert "The analysis failed" in lab.controls.status.value and not lab.compare_button.disabled


def test_analysis_exports_are_browser_downloads_of_the_results(start, monkeypatch):
    import csv
    import io
    import zipfile

    from guyenne_explore.widgets.analysis_panel import AnalysisPanel

    panel = AnalysisPanel(start)
    panel.games.value, panel.method.value = 20, "sample"
    panel.run(block=True)
    sent = sent_files(panel.exports.download, monkeypatch)
    panel.exports.buttons["json"].click()
    (label, result), = panel.results.items()
    name, mime, data = sent[-1]
    assert name.endswith(".json") and mime == "application/json"
    assert json.loads(bytes(data)) == json.loads(json.dumps(result.to_json()))
    panel.exports.buttons["csv"].click()
    rows = list(csv.DictReader(io.StringIO(bytes(sent[-1][2]).decode())))
    assert sent[-1][0].endswith(".csv") and len(rows) == len(result.table())
    panel.exports.buttons["html"].click()  # four figures: one zip
    name, mime, data = sent[-1]
    assert name == "guyenne-analysis-html.zip" and mime == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(bytes(data))).namelist()
    assert sorted(names) == sorted([f"{n}.html" for n in panel.figures] + ["plotly.min.js"])  # plotly.js once
    assert "Downloading guyenne-analysis-html.zip" in panel.exports.status.value

    def no_browser(*_a, **_k):
        raise RuntimeError("no Chromium here")

    monkeypatch.setattr("guyenne_explore.widgets.exports.export_figures", no_browser)
    panel.exports.buttons["png"].click()
    assert "PNG export failed: no Chromium here" in panel.exports.status.value and len(sent) == 3


def test_panel_exports_write_only_into_a_private_temporary_folder(start, monkeypatch):
    import os
    import tempfile

    from guyenne_explore.widgets import exports
    from guyenne_explore.widgets.analysis_panel import AnalysisPanel

    folders = []

    def recording(writer):
        def write(what, folder, formats):
            folders.append(folder)
            return writer(what, folder, formats)
        return write

    monkeypatch.setattr(exports, "export_figures", recording(exports.export_figures))
    monkeypatch.setattr(exports, "export_results", recording(exports.export_results))
    panel = AnalysisPanel(start)
    panel.games.value, panel.method.value = 10, "sample"
    panel.run(block=True)
    sent_files(panel.exports.download, monkeypatch)
    for fmt in ("json", "csv", "html"):
        panel.exports.buttons[fmt].click()
    assert len(folders) == 3 and len(set(folders)) == 3
    for folder in folders:  # a fresh folder of the system's temporary space, gone once the download is made
        assert os.path.dirname(folder) == tempfile.gettempdir()
        assert os.path.basename(folder).startswith("guyenne-export-") and not os.path.exists(folder)


def test_exports_saved_from_python_stay_inside_the_workspace(start, tmp_path, monkeypatch):
    from guyenne_explore.widgets.analysis_panel import AnalysisPanel
    from guyenne_explore.widgets.files import WorkspaceError

    monkeypatch.setenv("GUYENNE_WORKSPACE", str(tmp_path))
    panel = AnalysisPanel(start)
    panel.games.value, panel.method.value = 10, "sample"
    panel.run(block=True)
    written = panel.exports.save("json", "out")
    assert [p.parent for p in written] == [tmp_path / "out"]
    with pytest.raises(WorkspaceError):
        panel.exports.save("json", tmp_path.parent)


def test_exact_refused_for_its_size_offers_force_with_the_estimate(start, monkeypatch):
    from guyenne_explore.widgets import analysis_panel

    panel = analysis_panel.AnalysisPanel(start)
    assert panel.force_exact.layout.display == "none"
    panel.method.value = "exact"
    assert panel.force_exact.layout.display is None
    panel.run(block=True)  # the dealt opening is far beyond an exact enumeration
    run, = panel.runs
    assert run.out_of_reach and not panel.results
    assert "force exact" in panel.force_note.value and str(run.problems[0])[:30] in panel.force_note.value
    status = html_unescape(panel.controls.status.value)  # the status line points to the way round the refusal
    assert "exact enumeration is too large" in status and "check 'force exact' and run again" in status
    asked = {}

    def record(*_a, **kwargs):
        asked.update(kwargs)
        return []

    monkeypatch.setattr(analysis_panel, "analyse_rule_sets", record)
    panel.force_exact.value = True
    panel.run(block=True)
    assert asked["force"] is True and panel.force_note.value == ""


def test_variant_lab_exact_refused_for_its_size_points_to_the_sample_method(start):
    from guyenne_explore.widgets.variant_lab import VariantLab

    lab = VariantLab(start)
    lab.method.value = "exact"
    lab.run_compare(block=True)  # the dealt opening is far beyond an exact enumeration, preset and variant alike
    assert all(r.out_of_reach for r in lab.runs) and not lab.results
    assert "exact enumeration is too large" in lab.controls.status.value
    assert "Choose the sample method" in lab.controls.status.value and "skipped" in lab.problems.value


def test_a_pile_click_scrolls_the_builder_to_its_row(start, monkeypatch):
    e = Explorer(start)
    asked = []
    monkeypatch.setattr(e.builder.scroll, "send", lambda content, buffers=None: asked.append(content))
    e.tabs.selected_index = 1
    e.table._handle_custom_msg({"type": "stack", "side": "english", "zone": "deck", "member": 0}, [])
    assert e.tabs.selected_index == 0
    assert asked == [{"type": "scroll", "selector": ".guyenne-focus"}]
    assert "guyenne-focus" in e.builder._rows[(0, "deck")].label._dom_classes


# ---------------------------------------------------------------------- number settings and unexpected errors
NUMBER_WIDGETS = ("IntText", "BoundedIntText", "FloatText", "BoundedFloatText", "IntSlider", "FloatSlider")


def all_widgets(root):
    """``root`` and every widget under it (children of boxes, tabs, accordions)."""
    yield root
    for child in getattr(root, "children", ()):
        yield from all_widgets(child)


def test_no_panel_holds_a_number_widget_that_reverts_typed_letters(start):
    from guyenne_explore.widgets.teaching import TeachingGame

    kinds = {type(x).__name__ for root in (Explorer(start), TeachingGame("base")) for x in all_widgets(root)}
    assert "Text" in kinds and "NumberField" in kinds
    assert not kinds & set(NUMBER_WIDGETS)


def test_letters_in_games_and_seed_are_named_beside_them_kept_and_block_the_run(start, monkeypatch):
    from guyenne_explore.widgets import analysis_panel

    panel = analysis_panel.AnalysisPanel(start)
    panel.games.box.value = "2O"  # a letter O typed for a zero
    assert panel.games.box.value == "2O" and panel.games.value == 500  # the text stays, the last number too
    assert "Games must be a whole number written with the digits 0-9, not '2O'" in html_unescape(panel.games.message.value)
    panel.seed.box.value = "-3"
    assert "Seed must be at least 0, not -3" in panel.seed.message.value
    asked = []
    monkeypatch.setattr(analysis_panel, "analyse_rule_sets", lambda *a, **k: asked.append(k) or [])
    panel.run(block=True)
    assert asked == [] and "Not run: Games must be a whole number" in html_unescape(panel.controls.status.value)
    assert "Seed must be at least 0" in panel.controls.status.value
    assert panel.run_button.disabled  # greyed while a box it reads holds no usable number
    panel.games.box.value = "20"
    assert panel.run_button.disabled  # the seed still cannot be read
    panel.seed.box.value = "7"
    assert panel.games.message.value == panel.seed.message.value == "" and not panel.run_button.disabled
    panel.run(block=True)
    assert asked[0]["games"] == 20 and asked[0]["seed"] == 7


def test_letters_in_the_builder_seed_refuse_the_start_and_keep_the_form(start):
    b = Builder(start)
    add(counts(b, 0, "deck")["5"], -1)  # the person's own edit (not a valid position yet)
    edited = b.form_json()
    b.seed.box.value = "seven"
    b.start_choice.value = "random mid-game"
    b.start_button.click()
    assert "not started: seed must be a whole number written with the digits 0-9, not 'seven'" in html_unescape(
        b.start_message.value)
    assert "seed must be a whole number" in b.seed.message.value and b.seed.box.value == "seven"
    assert b.form_json() == edited
    add(counts(b, 0, "deck")["5"], 1)
    b.seed.box.value = "3"
    b.start_button.click()
    assert b.start_message.value == "" and b.position == start_position("random mid-game", start.rules, 3)


def test_variant_lab_games_seed_and_sweep_range_name_their_letters(start, monkeypatch):
    from guyenne_explore.widgets import variant_lab

    lab = variant_lab.VariantLab(start)
    asked = []
    monkeypatch.setattr(variant_lab, "analyse_rule_sets", lambda *a, **k: asked.append(k) or [])
    lab.seed.box.value = "1e3"
    lab.compare_button.click()
    assert asked == [] and "Not run: Seed must be a whole number written with the digits 0-9, not '1e3'" in html_unescape(
        lab.controls.status.value)
    assert lab.seed.box.value == "1e3" and "Seed must be" in lab.seed.message.value
    assert lab.compare_button.disabled and lab.sweep_button.disabled  # greyed while the box holds no number
    lab.seed.box.value = "4"
    assert not lab.compare_button.disabled and not lab.sweep_button.disabled
    lab.sweep_parameter.value = "hand_size"
    lab.sweep_to.box.value = "seven"
    lab.sweep_button.click()
    assert "The sweep range cannot be read: to must be a whole number" in html_unescape(lab.sweep_message.value)
    assert lab.sweep_to.box.value == "seven" and lab.points == []
    lab.run_compare(block=True)
    assert asked[0]["seed"] == 4


def test_diagram_scale_and_optimal_budget_are_read_from_their_text(start, monkeypatch):
    from guyenne_explore.widgets.diagram_export import DiagramExport
    from guyenne_explore.widgets.optimal_panel import OptimalPanel

    row = DiagramExport(Table(start))
    sent = sent_files(row.file, monkeypatch)
    row.format.value = "PNG"
    row.scale.box.value = "big"
    assert not row.download() and sent == []
    assert "not drawn: PNG scale must be a number written with the digits 0-9" in row.message.value
    assert "PNG scale must be a number" in row.scale.message.value and row.scale.value == 2.0
    row.scale.box.value = "20"
    assert "PNG scale must be at most 8, not 20" in row.scale.message.value
    row.format.value = "SVG"  # the scale is only the PNG's
    assert row.download() and len(sent) == 1
    panel = OptimalPanel()
    panel.budget.box.value = "1.5"
    assert panel.budget.value == 1.5 and panel.budget.message.value == ""
    panel.budget.box.value = "nan"
    assert "Budget (s) must be a number written with the digits 0-9 and at most one decimal point or comma (0.45 " \
           "or 0,45), not &#x27;nan&#x27;" in panel.budget.message.value
    assert panel.budget.value == 1.5


def boom(*_a, **_k):
    raise RuntimeError("boom")


def shows_boom(message):
    return "unexpected error (RuntimeError: boom)" in message.value


def test_unexpected_errors_in_export_teaching_and_optimal_handlers_show_beside_them(start, monkeypatch, caplog):
    from guyenne_explore.widgets import diagram_export, optimal_panel
    from guyenne_explore.widgets.teaching import TeachingGame

    with caplog.at_level("ERROR", logger="guyenne_explore.widgets"):
        row = diagram_export.DiagramExport(Table(start))
        monkeypatch.setattr(diagram_export, "diagram", boom)
        row.button.click()  # never raises into the page
        assert shows_boom(row.message)
        game = TeachingGame("base")
        monkeypatch.setattr(diagram_export, "storyboard", boom)
        game.storyboard.pdf_button.click()
        assert shows_boom(game.storyboard.message)
        before = game.position
        monkeypatch.setattr(Position, "why_illegal", boom)
        game.typed.value = "1:2"
        game.play_button.click()
        assert shows_boom(game.explain) and game.position == before
        game.explain.value = ""
        pick(game.moves, "apply", "1:2")  # a double-click in the move list
        assert shows_boom(game.explain)
        panel = optimal_panel.OptimalPanel()
        panel.position = start
        monkeypatch.setattr(optimal_panel, "why_not_solvable", boom)
        panel.run_button.disabled = False
        panel.run_button.click()
        assert shows_boom(panel.status)
    assert sum("failed" in r.message and r.exc_info is not None for r in caplog.records) == 5


def test_unexpected_errors_between_panels_and_in_number_fields_show_beside_them(start, monkeypatch):
    from guyenne_explore.widgets import forms

    e = Explorer(start)
    monkeypatch.setattr(e.analysis, "set_position", boom)
    add(counts(e.builder, 0, "deck")["5"], -1)  # the builder's change reaches the panels
    assert shows_boom(e.builder.errors["general"])
    monkeypatch.setattr(forms, "read_whole", boom)
    e.analysis.games.box.value = "30"
    assert shows_boom(e.analysis.games.message) and e.analysis.games.box.value == "30"
    e.builder.upload._handle_custom_msg({"type": "file", "name": "p.json"}, [object()])  # not bytes
    assert "unexpected error (TypeError" in e.builder.upload.message


def test_optimal_play_reports_solve_and_best_responses_apart_and_labels_pale_castles_dark(load):
    import re

    from guyenne_explore.widgets.analysis_panel import OPTIMAL, AnalysisPanel

    panel = AnalysisPanel(load("base-endgame-3v3.json"))
    panel.method.value = OPTIMAL
    panel.optimal.against.value = ("uniform",)
    seen = []
    panel.optimal.status.observe(lambda ch: seen.append(ch["new"]), names="value")
    panel.run(block=True)
    assert any(s.startswith("Solved in ") and "measuring best responses" in s for s in seen)
    assert re.fullmatch(r"Done in [\d.]+ s \(solve [\d.]+ s, best responses [\d.]+ s\)\.", panel.optimal.status.value)
    boxes = re.findall(r'fill-opacity="([\d.]+)" stroke="#444"/><text [^>]*fill="(#\w+)"', panel.optimal.output.value)
    assert boxes and all((ink == "#222") == (float(opacity) < 0.6) for opacity, ink in boxes)
    assert any(ink == "#222" for _, ink in boxes)  # castles the equilibrium never opens are pale
    assert "-0.0%" not in panel.optimal.output.value


def test_the_table_column_stays_in_view_beside_the_tabs(start):
    from guyenne_explore.widgets.explorer import STYLE

    e = Explorer(start)
    assert "guyenne-builder" in e.builder._dom_classes
    css = STYLE.read_text()  # the builder scrolls on its own, so a pile's row comes into view, not the whole page
    assert ".guyenne-explorer .guyenne-builder {\n    max-height: 85vh;\n    overflow-y: auto;" in css


def test_the_play_and_rulebook_tabs_hide_the_built_positions_table_and_take_the_whole_width(start):
    """A person playing saw the builder's board and move box beside the game's own: two boards, two boxes."""
    e = Explorer(start)
    assert {e.table, e.moves, e.diagram_export} <= set(e.left.children) and e.left in e.children
    assert e.language in e.header.children and e.session in e.header.children  # above, for every tab
    e.show_tab("Play")
    assert e.left.layout.display == "none"
    e.show_tab("Analysis")
    assert e.left.layout.display is None
    e.show_tab("Rulebook")
    assert e.left.layout.display == "none"


# ---------------------------------------------------------------------- what the panels analyse (issue 24)
def _said(panel):
    """The panel's "Position analysed" line as the page shows it (no tags)."""
    return html_unescape(re.sub("<[^>]+>", "", panel.subject.line.value))


def test_the_explorer_analyses_the_game_before_the_deal_and_every_panel_says_so():
    e = Explorer()
    assert e.position == Position.start("advanced") and e.analysis.position == e.position
    for panel in (e.analysis, e.lab, e.skill):
        assert "Position analysed: the game before the deal: every deal counts by its probability" in _said(panel)
    e.language.value = "fr"
    try:
        assert "Position analysée\u00a0: la partie avant la distribution" in _said(e.lab)
    finally:
        e.language.value = "en"


def test_a_dealt_opening_is_named_by_its_seed_and_deal_again_deals_anew():
    e = Explorer()
    e.builder.start_choice.value = "a dealt opening"
    assert e.builder.seed.layout.display is None and e.builder.starts.deal_again.layout.display is None
    e.builder.seed.value = 1
    e.builder.start_button.click()
    assert e.position == opening("advanced", 1)
    assert all("a dealt opening (seed 1): this one deal only" in _said(p) for p in (e.analysis, e.lab, e.skill))
    e.builder.starts.deal_again.click()
    assert e.builder.seed.value == 2 and e.position == opening("advanced", 2) != opening("advanced", 1)
    assert "a dealt opening (seed 2)" in _said(e.analysis)
    click_castle(e.table, 2)  # an edit: no longer the deal of seed 2
    assert "the position on the table: round 1, the opening at the first castle (X)" in _said(e.skill)


def test_a_deal_point_with_hands_already_dealt_is_named_so():
    data = opening("advanced", 1).to_json()
    data["to_play"] = "deal"
    e = Explorer(Position.from_json(data))
    assert "the hands are already dealt: this deal only fills them up to 6 cards" in _said(e.analysis)
    e.builder.start_choice.value = "before the deal"
    e.builder.start_button.click()
    assert e.position == Position.start("advanced") and "the game before the deal" in _said(e.analysis)


def test_the_builder_rows_and_castles_redrawn_after_a_switch_to_french_stay_in_french():
    """The rows and castle buttons the builder redraws (another start's card kinds, a castle's click) were
    drawn in English under a French page: "hand", "placed at X" and "3: English" beside French labels."""
    e = Explorer()
    e.language.value = "fr"
    try:
        e.builder.start_choice.value = "rulebook example"  # base rules: other card kinds, the grids redrawn
        e.builder.start_button.click()
        labels = [row.label.value for row in e.builder._rows.values()]
        assert "<b>main</b>" in labels and "<b>posées en X</b>" in labels, labels
        assert not {"<b>hand</b>", "<b>deck</b>", "<b>placed at X</b>"} & set(labels), labels
        e.builder.cycle_castle(0)
        castles = [b.description for b in e.builder.castle_row.children]
        assert castles[0].startswith("1\u00a0: ") and "neutral" not in " ".join(castles), castles
    finally:
        e.language.value = "en"
    assert e.builder.castle_row.children[1].description == "2: neutral"


def test_a_typed_move_cannot_be_tried_while_the_builder_holds_no_valid_position(start):
    """Without a position "Try typed move" did nothing at all, not even a word: it is off until there is one
    (now its check and its play)."""
    panel = MovesPanel(start)
    typed = [panel.buttons["Check typed move"], panel.buttons["Play typed move"], panel.typed]
    assert not any(box.disabled for box in typed)
    panel.set_position(None)
    assert all(box.disabled for box in typed)
    panel.set_position(start)
    assert not any(box.disabled for box in typed)


def test_the_explorers_intro_follows_the_language_switch():
    """The how-to text above the panels is the explorer's, not the notebook's, so a French page reads it in French."""
    from guyenne_explore.widgets.explorer import Explorer

    e = Explorer(lang="fr")
    try:
        assert "La table à gauche est vivante" in e.intro.value and "The table" not in e.intro.value
        e.set_language("en")
        assert "<p>The table on the left is live" in e.intro.value
    finally:
        e.set_language("en")


def test_the_search_budget_shows_only_where_a_side_searches(start):
    """The search's budget applies to no other policy: the Analysis tab and the variant lab show it only while a
    side searches (the Balance tab already did), so a budget beside two uniform sides does not suggest it counts."""
    from guyenne_explore.widgets.analysis_panel import AnalysisPanel
    from guyenne_explore.widgets.variant_lab import VariantLab

    for panel in (AnalysisPanel(start), VariantLab(start)):
        assert panel.search_budget.layout.display == "none"
        panel.french_policy.value = "search"
        assert panel.search_budget.layout.display is None
        panel.french_policy.value = "heuristic"
        assert panel.search_budget.layout.display == "none"


def test_the_explorer_opens_on_what_a_designer_wants_to_know_and_each_question_sets_up_its_tab():
    """The first screen: the questions a designer brings, above a one-line intro's folded help, the table and the
    tabs; a click selects the tab that answers one, with its fields set to a first case of it, ready to run."""
    import pathlib

    from guyenne_explore.engine.rules import Rules
    from guyenne_explore.widgets.explorer import TABS
    from guyenne_explore.widgets.start import TEACHING
    from guyenne_explore.widgets.starts import rulebook_example

    e = Explorer()
    assert e.header.children[0] is e.intro  # the first row: the intro, then the language and the session
    assert e.children.index(e.header) + 1 == e.children.index(e.start) < e.children.index(e.tabs)
    summary = re.sub("<[^>]+>", "", e.intro.value.split("</summary>")[0])  # one line; the help under it, folded
    assert e.intro.value.startswith("<details") and summary == (
        "Explore the rules of Guyenne: choose a question below, or any tab. Help: how the explorer works")
    assert [b.description for b in e.start.buttons.values()] == [
        "Is a rule set fair?", "What does a change do?", "Which settings meet my targets?",
        "How do skilled players fare?", "Teach me the rules", "Draw a rule example"]
    advanced = Rules.preset("advanced")
    # a user who wandered off first: another position, other settings
    e.builder.start_from("rulebook example")
    e.analysis.english_policy.value, e.analysis.games.value = "heuristic", 40
    e.start.buttons["fair"].click()  # answered at once: its run starts
    e.analysis.controls.thread.join(timeout=120)
    assert "advanced: the first player (English) scores" in e.analysis.headline.value
    assert TABS[e.tabs.selected_index] == "Analysis" and e.start.note.value.count("Run analysis") == 1
    assert e.position == Position.start("advanced") and e.analysis.position == e.position
    assert e.analysis.rule_sets.value == (advanced,) and e.analysis.policies == ("uniform", "uniform")
    assert (e.analysis.method.value, e.analysis.games.value, e.analysis.seed.value) == ("auto", 500, 0)
    assert not e.analysis.run_button.disabled and e.start.buttons["fair"].button_style == "info"
    e.start.choose("change")
    assert TABS[e.tabs.selected_index] == "Variant lab" and e.lab.position == Position.start("advanced")
    assert e.lab.preset.value == "advanced" and e.lab.variant == advanced.replace(hand_size=7)
    assert not e.lab.compare_button.disabled and "Compare with preset" in e.start.note.value
    e.start.choose("targets")
    assert TABS[e.tabs.selected_index] == "Balance" and e.balance.position == Position.start("advanced")
    e.start.choose("skill")
    assert TABS[e.tabs.selected_index] == "Skill levels" and e.skill.rule_sets.value == (advanced,)
    assert not e.skill.run_button.disabled and "Run skill levels" in e.start.note.value
    e.start.choose("teach")  # the teaching game, ready for a first move; the teaching notebook named beside it
    assert TABS[e.tabs.selected_index] == "Learn" and e.learn.position.side_to_play == 0
    assert "choose a move in the list" in e.start.note.value
    assert f"<code>{TEACHING}</code>" in e.learn_intro.value and "href" not in e.learn_intro.value
    assert (pathlib.Path(__file__).parent.parent / TEACHING).is_file()
    e.start.choose("example")
    assert TABS[e.tabs.selected_index] == "Builder" and e.position == rulebook_example()
    assert e.diagram_export.selected_index == 0  # its export open under the table
    assert "siege" in e.start.note.value and e.start.buttons["example"].button_style == "info"
    e.show_tab("Play")  # another tab: the line spoke of the builder's diagram above the Play tab
    assert e.start.note.value == "" and e.start.chosen is None
    assert all(b.button_style == "" for b in e.start.buttons.values())
    with pytest.raises(ValueError, match="unknown question 'why'"):
        e.start.choose("why")


def test_the_first_question_answers_with_its_headline_in_one_run():
    """Is advanced fair? One click sets it up; Run answers with the first player's score and its interval, above
    the figures."""
    e = Explorer()
    e.start.buttons["fair"].click()  # the click runs it: no set-up form left to fill before an answer
    e.analysis.controls.thread.join(timeout=120)
    line = re.sub("<[^>]+>", "", e.analysis.headline.value)
    assert re.fullmatch(r"advanced: the first player \(English\) scores 0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]; "
                        r"(no advantage detectable in 500 games: 0\.5 lies inside the interval|the first player is "
                        r"favoured[^(]*|the second player is favoured[^(]*) "
                        r"\(a win counts 1, a draw ½, a loss 0: 0\.5 is an even game\)", line), line



def test_teach_me_the_rules_opens_a_game_to_play_in_the_page_and_quotes_a_label_with_the_languages_quotes():
    """A page of the Voilà app opens no notebook: "Teach me the rules" opens the Learn tab, the teaching game under
    the base rules, where a first legal move plays and an illegal one is refused with the engine's reason; the
    built position's table steps aside (the game has its own); the line above the game names the notebook of the
    puzzles and the command that opens it, without a link; the game follows the explorer's language switch; a
    label is quoted “so”."""
    import pathlib

    from guyenne_explore.engine import Rules
    from guyenne_explore.widgets.explorer import TABS
    from guyenne_explore.widgets.start import JUPYTERLAB

    e = Explorer()
    e.start.choose("skill")
    e.start.choose("teach")
    assert TABS[e.tabs.selected_index] == "Learn" and e.left.layout.display == "none"
    assert e.learn.position.rules == Rules.preset("base") and e.learn.seen_lessons == ["setup", "open_first"]
    assert "notebook <code>notebooks/teaching.ipynb</code>" in e.learn_intro.value
    assert f"<code>{JUPYTERLAB}</code>" in e.learn_intro.value and "href" not in e.learn_intro.value
    assert (pathlib.Path(__file__).parent.parent / JUPYTERLAB.split()[-1]).is_file()
    assert not e.learn.play("1:HH") and "is not allowed" in e.learn.explain.value
    before = e.learn.position
    assert e.learn.play(e.learn.moves.groups[0]["moves"][0][0])  # the list's first move: the French answer
    assert e.learn.position != before and e.learn.position.side_to_play == 0
    e.set_language("fr")
    assert e.tabs.titles[TABS.index("Learn")] == "Apprendre" and "À vous de jouer" in e.learn.prompt.value
    assert e.learn_intro.value.startswith("<p>Vous jouez les Anglais")
    e.set_language("en")
    e.start.choose("example")
    assert "under “Export the diagram (SVG, PNG, PDF)”, below the table" in e.start.note.value


def test_a_tabs_panel_is_built_when_first_shown_for_the_built_position_in_the_language_shown():
    """Half the explorer's widgets are the panels of tabs a visit may never open: each is built when its tab is first
    shown (or a caller asks for it), for the position built by then, its fixed texts in the language shown, and
    follows the position from then on; an invalid position then greys it as it would have."""
    from guyenne_explore.engine import Rules
    from guyenne_explore.widgets.explorer import DEFERRED, TABS
    from guyenne_explore.widgets.language import widgets_of

    try:
        e = Explorer()
        slots = [e.tabs.children[TABS.index(title)] for title in DEFERRED]
        assert all("guyenne-tab-pending" in box._dom_classes for box in slots) and not e._built
        unbuilt = len(widgets_of(e))
        e.builder.load_position(opening("base", 1))
        e.set_language("fr")
        e.tabs.selected_index = TABS.index("Variant lab")  # as a click on the tab does
        slot = e.tabs.children[TABS.index("Variant lab")]
        (lab,) = slot.children  # the tab's box holds the panel, no longer "Opening this tab..."
        assert lab is e.lab and "guyenne-tab-pending" not in slot._dom_classes and len(widgets_of(e)) > unbuilt
        assert lab.position == e.position and lab.position.rules == Rules.preset("base")
        assert lab.compare_button.description == "Comparer au jeu de règles"
        e.show_tab("Builder")
        e.show_tab("Variant lab")
        assert e.lab is lab and list(e._built) == ["Variant lab"]  # built once
        e.builder.load_position(opening("advanced", 2))
        assert lab.position == e.position
        e.builder.parameters.widgets["hand_size"].value = "1"  # no valid position: a panel built now says so
        assert e.position is None and lab.position is None
        e.show_tab("Skill levels")
        assert e.skill.position is None and e.skill.run_button.disabled
        assert "n'est pas valide" in e.skill.controls.status.value
    finally:
        from guyenne_explore.i18n import set_language

        set_language(None)
