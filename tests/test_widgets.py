"""The explorer's widgets, headless: set values as a person would, check the position, the words shown, the moves."""
import json

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from guyenne_explore import Position  # noqa: E402
from guyenne_explore.cards import SYMBOLS  # noqa: E402
from guyenne_explore.widgets import Builder, Explorer, MovesPanel, Table  # noqa: E402
from guyenne_explore.widgets.forms import section_of  # noqa: E402
from guyenne_explore.widgets.starts import STARTS, opening, start_position  # noqa: E402

from .conftest import position_files  # noqa: E402


@pytest.fixture(scope="module")
def start():
    return opening("advanced", 1)


def click_castle(table, index):
    """What the browser sends when a castle of the diagram is clicked."""
    table._handle_custom_msg({"type": "castle", "index": index}, [])


def counts(builder, side, zone):
    """The integer boxes of one zone row of the builder, by card symbol."""
    row = builder._rows[(side, zone)]
    return {SYMBOLS[k]: box for k, box in zip(row.kinds, row.boxes)}


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
    table.highlight = "2:H4"
    assert "move 2:H4" in table.svg and table.svg != plain
    table.highlight = "not a move"
    assert table.svg == plain
    table.set_position(None, "castle 9 does not exist")
    assert table.status == "castle 9 does not exist"
    assert table.svg == plain  # the last picture stays, dimmed by the view
    table.set_position(start.apply("2:H4"))
    assert table.status == "" and table.highlight == ""


# ---------------------------------------------------------------------- builder
def test_builder_opens_on_a_valid_opening():
    b = Builder()
    assert b.position == opening("advanced", 1)
    assert b.problems == [] and "valid position" in b.summary.value


def test_castle_clicks_cycle_the_controller():
    b = Builder(opening("advanced", 1))
    b.cycle_castle(4)
    assert b.position.control(4) == "english"
    b.cycle_castle(4)
    assert b.position.control(4) == "french"
    b.cycle_castle(4)
    assert b.position.control(4) == "neutral"
    assert b.castle_row.children[4].description == "4: neutral"


def test_all_castles_to_one_side_is_explained_beside_the_game_fields(start):
    b = Builder(start)
    for i in range(6):
        b.cycle_castle(i)
    assert b.position is None
    assert "english controls every castle" in b.errors["game"].value
    assert "1 problem" in b.summary.value
    b.cycle_castle(0)  # english -> french: a game again
    assert b.position is not None and b.position.control(0) == "french"
    assert b.errors["game"].value == ""


def test_card_counts_problems_are_shown_beside_the_side(start):
    b = Builder(start)
    counts(b, 1, "hand0")["2"].value += 3
    assert b.position is None
    assert "french holds 9 cards in hand" in b.errors["french"].value
    assert "too many: 3 × 2" in b.errors["french"].value
    assert b.errors["english"].value == ""
    counts(b, 1, "hand0")["2"].value -= 3
    counts(b, 1, "deck")["2"].value += 3
    assert b.position is None and "hand" not in b.errors["french"].value
    counts(b, 1, "deck")["2"].value -= 3
    assert b.position == start


def test_moving_cards_between_zones_builds_a_new_valid_position(start):
    b = Builder(start)
    counts(b, 0, "deck")["5"].value -= 1
    counts(b, 0, "discard")["5"].value += 1
    p = b.position
    assert p is not None
    assert p.sides[0].discard.symbols() == ["5"] and p.sides[0].deck.size == start.sides[0].deck.size - 1


def test_rules_parameters_override_the_preset_and_bad_ones_are_explained(start):
    b = Builder(start)
    b.parameters.widgets["hand_size"].value = 1
    assert b.position is None and "hand size must be at least 2" in b.errors["rules"].value
    b.parameters.widgets["hand_size"].value = 6
    b.parameters.widgets["exhaustion_limit"].value = 3
    assert b.position.rules.exhaustion_limit == 3
    assert b.position.rules.preset_name == "advanced"
    b.parameters.widgets["card_counts"].value = "2 twelve"
    assert "card counts as value:count pairs" in b.errors["rules"].value
    b.parameters.widgets["castles"].value = 7
    b.parameters.widgets["card_counts"].value = "2:12 3:4 4:3 5:2"
    assert len(b.castle_row.children) == 7 and len(b.position.castles) == 7


def test_preset_change_to_team_asks_for_the_team_fields(start):
    b = Builder(start)
    b.preset.value = "team"
    assert (0, "hand1") in b._rows  # member hands shown
    assert b.position is None
    assert "english is a team" in b.errors["english"].value


def test_decision_point_and_placed_problems_go_to_their_fields(start):
    b = Builder(start)
    b.to_play.value = "respond_first"
    assert b.position is None
    assert "castle X is chosen" in b.errors["placed"].value
    b.x.value = 2
    counts(b, 0, "hand0")["H"].value = 0
    counts(b, 0, "X")["H"].value = 1
    assert b.position is not None and b.position.to_play == "respond_first"
    assert b.position.placed.x == 2


def test_round_problem_goes_to_the_game_fields(start):
    b = Builder(start)
    b.round.value = 0
    assert "round must be 1 or more" in b.errors["game"].value


@pytest.mark.parametrize("path", position_files(), ids=lambda p: p.name)
def test_check_positions_load_into_the_form_unchanged(path):
    p = Position.from_json(path.read_text())
    b = Builder()
    b.load_json(path.read_text())
    assert b.problems == []
    assert b.position == p
    assert b.form_json()["sides"] == p.to_json()["sides"]


def test_json_and_notation_load_and_save(tmp_path, start):
    b = Builder(start)
    b.load_json("{not json")
    assert "not valid JSON" in b.io_message.value and b.position == start
    b.load_notation("advanced ...... 1 E")
    assert "7 fields" in b.io_message.value
    q = start.apply("0:H")
    b.notation_text.value = q.notation()
    b.io_buttons["Load notation"].click()
    assert b.position == q
    b._show_json()
    assert json.loads(b.json_text.value) == q.to_json()
    b.path.value = str(tmp_path / "p.json")
    b.io_buttons["Save file"].click()
    b.load_position(start)
    b.io_buttons["Load file"].click()
    assert b.position == q
    broken = q.to_json()
    broken["sides"]["english"]["hand"].append("H")
    b.json_text.value = json.dumps(broken)
    b.io_buttons["Load JSON"].click()
    assert b.position is None and "too many: 1 × hero" in b.errors["english"].value


@pytest.mark.parametrize("rules", ["base", "expert", "team", "team3"])
@pytest.mark.parametrize("name", STARTS)
def test_starting_presets_are_valid_positions_the_form_keeps(name, rules):
    b = Builder(opening(rules, 1))
    b.start_choice.value = name
    b.seed.value = 3
    b.start_button.click()
    p = start_position(name, rules, 3)
    assert b.position == p and b.problems == []
    assert not p.is_chance and not p.is_over
    assert Builder(p).position == p  # the form shows every field of it, team hands included


def test_random_midgame_is_later_in_the_game():
    p = start_position("random mid-game", "advanced", 2)
    assert p.round > 1 and p.to_play == "open_first"


def test_problem_sections():
    assert section_of("rules: unknown rules parameter 'x'") == "rules"
    assert section_of("at open_second english should have cards at castle X (first player this round)") == "placed"
    assert section_of("french's stacked deck order does not match its deck") == "french"
    assert section_of("there are 5 castles but the rules have 6") == "castles"
    assert section_of("the round must be 1 or more, not 0") == "game"


# ---------------------------------------------------------------------- moves
def test_move_list_is_the_engines_grouped_by_castle(start):
    panel = MovesPanel(start)
    assert f'data-count="{len(start.legal_moves)}"' in panel.count.value
    groups = panel.list.groups
    assert [g["label"] for g in groups] == [f"castle {c}" for c in range(6)]
    listed = [m for g in groups for m, _ in g["moves"]]
    assert listed == [m.text() for m in start.legal_moves]


def test_a_typed_illegal_move_shows_the_engines_reason(start):
    panel = MovesPanel(start)
    panel.typed.value = "0:H42222"
    panel.buttons["Try typed move"].click()
    assert start.why_illegal("0:H42222") in panel.explain.value
    assert panel.position == start
    assert not panel.try_move("9:2")
    assert "there is no castle 9" in panel.explain.value


def test_select_preview_apply_and_step_through_the_history(start):
    panel = MovesPanel(start)
    panel.list.selected = "3:42"
    assert panel.highlight == "3:42"
    panel.list.hovered = "1:H"
    assert panel.highlight == "1:H"
    panel.list.hovered = ""
    panel.buttons["Apply selected"].click()
    after = start.apply("3:42")
    assert panel.position == after and panel.highlight == ""
    assert f'data-count="{len(after.legal_moves)}"' in panel.count.value
    panel.buttons["◀ Back"].click()
    assert panel.position == start
    panel.buttons["Forward ▶"].click()
    assert panel.position == after
    panel.list._handle_custom_msg({"type": "apply", "move": "H"}, [])  # a double click
    assert panel.position == after.apply("H") and len(panel.history) == 3


def test_play_out_and_chance_points(start):
    panel = MovesPanel(start)
    panel.buttons["Play out (heuristic)"].click()
    assert panel.position.is_over and "the game is over" in panel.count.value
    chance = next(i for i, p in enumerate(panel.history) if p.is_chance)
    panel.step(chance - panel.index)
    assert panel.position.is_chance and panel.list.groups == []
    assert not panel.buttons["Sample chance"].disabled
    panel.buttons["Sample chance"].click()
    assert panel.history[chance + 1].to_play != "draw" and panel.index == chance + 1


# ---------------------------------------------------------------------- explorer
def test_explorer_propagates_builder_changes_to_every_panel(start):
    e = Explorer()
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
    assert "english controls every castle" in e.table.status


def test_explorer_moves_go_back_to_the_builder(start):
    e = Explorer(start)
    e.moves.list.selected = "5:H2"
    assert e.table.highlight == "5:H2"
    e.moves.buttons["Apply selected"].click()
    after = start.apply("5:H2")
    assert e.builder.position == after and e.table.notation == after.notation()
    assert e.analysis.position == after
    assert len(e.moves.history) == 2  # the builder's echo keeps the history
    e.moves.step(-1)
    assert e.builder.position == start


def test_explorer_stack_click_opens_the_zone_in_the_builder(start):
    e = Explorer(start)
    e.tabs.selected_index = 1
    e.table._handle_custom_msg({"type": "stack", "side": "french", "zone": "discard", "member": 0}, [])
    assert e.tabs.selected_index == 0
    assert "french discard" in e.builder.focus_note.value
    assert "guyenne-focus" in e.builder._rows[(1, "discard")].label._dom_classes


# ---------------------------------------------------------------------- teaching game
def test_teaching_game_explains_rules_as_they_come_and_refuses_illegal_tries():
    import random

    from guyenne_explore.widgets.teaching import TeachingGame

    game = TeachingGame("advanced", side="english", seed=3)
    assert game.seen_lessons == ["setup", "open_first"]
    assert 'data-lesson="open_first"' in game.lessons.value
    before = game.position
    assert not game.play("0:HH")
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


def html_unescape(text):
    import html
    return html.unescape(text)


def test_explorer_analysis_run_produces_figures_for_the_built_position(start):
    import plotly.graph_objects as go

    e = Explorer(start)
    click_castle(e.table, 2)
    panel = e.analysis
    assert panel.position == e.position and panel.position.control(2) == "english"
    panel.games.value = 20
    panel.method.value = "sample"
    panel.run(block=True)  # what the "Run analysis" button does, in this thread
    assert panel.results and all(r.games == 20 for r in panel.results.values())
    assert any(r.position == e.position for r in panel.results.values())
    figures = [f for f in panel.figure_box.children if isinstance(f, go.FigureWidget)]
    assert figures and all(f.data for f in figures)
    for i in (0, 1, 3, 4, 5):
        click_castle(e.table, i)
    assert panel.position is None and panel.run_button.disabled
