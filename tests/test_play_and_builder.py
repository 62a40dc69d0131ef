"""Playing, teaching and building: what the moves panel, the teaching game, the table and the builder say.

Every battle of a round is told in the teaching game; a typed move is played exactly as typed or
refused; a game decided by a tie-break says which; castles are numbered 1 to n in words while the
notation keeps its index; the builder counts each value against the rules and undoes its edits.
(In the browser: tests/test_browser_play.py.)
"""
import html
import random

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.engine.cards import Cards  # noqa: E402
from guyenne_explore.i18n import set_language  # noqa: E402
from guyenne_explore.engine.rules import SIDES, Rules  # noqa: E402
from guyenne_explore.engine.scoring import LONGEST_RUN, UNSPENT, tie_break  # noqa: E402
from guyenne_explore.widgets import Builder, Explorer, MovesPanel  # noqa: E402
from guyenne_explore.widgets.moves_panel import heuristic_choice  # noqa: E402
from guyenne_explore.widgets.starts import opening  # noqa: E402
from guyenne_explore.widgets.teaching import TeachingGame  # noqa: E402


@pytest.fixture
def english():
    """Every test here reads the English words, and leaves the language as it found it."""
    set_language("en")
    yield
    set_language("en")


def _finished(rules, castles, english_hand, french_hand):
    """A finished game: each side's other cards in its discard, decks spent (RULES.md 5.4)."""
    full = ["H", "5", "5", "4", "4", "4", "3", "3", "3", "3"] + ["2"] * 12

    def side(hand):
        rest = list(full)
        for card in hand:
            rest.remove(card)
        return {"hand": hand, "deck": [], "discard": rest, "removed": [], "exhaustions": 2}

    return Position.from_json({"rules": rules, "castles": castles, "round": 12, "first": "english", "to_play": "end",
                               "sides": {"english": side(english_hand), "french": side(french_hand)}})


# ---------------------------------------------------------------------- teaching
@pytest.mark.parametrize("rules", ["base", "advanced"])
def test_the_teaching_log_tells_both_battles_of_every_round(english, rules):
    """Castle Y's battle used to be left out: its last cards were in the move, not in the position before."""
    game = TeachingGame(rules, seed=3)
    rng = random.Random(0)
    while not game.position.is_over:
        assert game.play(heuristic_choice(game.position, rng).text(1))
    lines = [line() for line in game.events]
    xs = [line for line in lines if line.startswith("Castle X")]
    ys = [line for line in lines if line.startswith("Castle Y")]
    rounds = game.position.round
    assert len(xs) == len(ys) >= rounds - 1 and len(ys) <= rounds
    # each says the cards both sides showed, with the castle numbered as the rulebook does (1 to 6)
    for line in ys:
        castle = int(line.split("(")[1].split(")")[0])
        assert 1 <= castle <= 6 and "English " in line and "against French " in line


def test_the_teaching_log_names_castles_from_1(english):
    game = TeachingGame("base", seed=3)
    move = next(m for m in game.position.legal_moves if m.castle == 0)
    assert game.play(move.text(1)) and move.text(1).startswith("1:")
    assert f"You opened castle 1 with {move.cards}." in [line() for line in game.events]


@pytest.mark.parametrize("rules, seed", [("base", 3), ("classic2021", 5), ("advanced", 4)])
def test_the_teaching_game_explains_the_final_score_castle_by_castle(english, rules, seed):
    """Game over names, for each side, each run of castles it holds (as the rulebook numbers them) with its points,
    and the terms add up to the score the engine gives."""
    import re

    game = TeachingGame(rules, seed=seed)
    rng = random.Random(seed)
    while not game.position.is_over:
        assert game.play(heuristic_choice(game.position, rng).text(1))
    r = game.position.result()
    items = re.findall(r"<li>(.*?)</li>", game.prompt.value.split('class="guyenne-score"')[1])
    assert [i.split(",")[0] for i in items] == ["The English", "The French"]
    for item, score, side in zip(items, (r.english, r.french), ("english", "french")):
        assert re.search(rf", {score} points?: ", item), item
        points = [int(n) for n in re.findall(r"\((\d+) points?\)", item)]
        assert sum(points) == score, item
        held = {i + 1 for i, c in enumerate(game.position.castles) if c == ("english", "french").index(side)}
        named = {int(n) for part in re.findall(r"castles? ([\d, ]+?)(?: alone| in a run| \()", item)
                 for n in part.split(", ") if n}
        if "every castle" not in item:
            assert named == held, (item, held)
    game.set_language("fr")
    assert "Les Anglais, " in game.prompt.value and "Les Français, " in game.prompt.value


# ---------------------------------------------------------------------- typed moves
@pytest.mark.parametrize("junk", ["{move}x", "{move},", "{move}+", "{move}:", "{move} ;", "１{rest}"])
def test_a_typed_move_with_anything_more_is_refused_and_names_it(english, junk):
    p = opening("advanced", 1)
    first = next(iter(p.legal_moves))
    move = first.text(1)  # as a person types it: castles as the table numbers them
    text = junk.format(move=move, rest=move[1:])
    reason = p.why_illegal(text, 1)
    assert reason is not None and "is not part of a move" in reason
    panel = MovesPanel(p)
    assert not panel.try_move(text)
    assert panel.position == p and len(panel.history) == 1
    assert "is not part of a move" in panel.explain.value
    assert panel.try_move(f"  {move} ") and panel.position == p.apply(first)  # spaces around it are no junk


def test_enter_in_the_typed_move_box_plays_it(english):
    p = opening("advanced", 1)
    first = next(iter(p.legal_moves))
    panel = MovesPanel(p)
    panel.typed.value = first.text(1)
    panel.typed._handle_string_msg(None, {"event": "submit"}, None)  # what the page sends on Enter
    assert panel.position == p.apply(first)
    game = TeachingGame("base", seed=3)
    before, seen = game.position, len(game.positions)
    first = next(iter(before.legal_moves))
    game.typed.value = first.text(1)
    game.typed._handle_string_msg(None, {"event": "submit"}, None)
    assert game.positions[seen] == before.apply(first)


# ---------------------------------------------------------------------- game over
def test_equal_scores_say_which_tie_break_decided_in_both_languages(english):
    unspent = _finished("base", ["english", "english", "neutral", "french", "french", "neutral"], ["2"], ["H", "5", "2"])
    r = unspent.result()
    assert r.english == r.french == 4 and r.winner == "french" and tie_break(unspent) == UNSPENT
    panel = MovesPanel(unspent)
    assert ("Game over: the French win on the tie-break, English 4 – French 4: equal scores, so more unspent cards "
            "(hand and deck) win, 3 against 1.") in panel.count.value
    run = _finished("classic2021", ["english", "english", "neutral", "french", "neutral", "french"], ["2"],
                    ["H", "5", "2"])
    r = run.result()
    assert r.english == r.french == 5 and r.winner == "english" and tie_break(run) == LONGEST_RUN
    panel.set_position(run)
    assert "the English win on the tie-break" in panel.count.value
    assert "the longer longest run of castles wins, 2 against 1" in panel.count.value
    set_language("fr")
    panel.refresh()
    said = html.unescape(panel.count.value)
    assert "les Anglais l'emportent au départage" in said
    assert "le plus long groupe de châteaux l'emporte, 2 contre 1" in said
    plain = _finished("base", ["english", "english", "english", "french", "neutral", "neutral"], ["2"], ["H", "5", "2"])
    assert tie_break(plain) is None
    panel.set_position(plain)
    said = html.unescape(panel.count.value)
    assert "au départage" not in said and "l'emportent, Anglais 6 – Français 1" in said


def test_after_play_out_the_table_shows_the_final_position(english):
    e = Explorer(opening("advanced", 1))
    e.moves.play_out()
    final = e.moves.position
    assert final.is_over and e.table.position == final and e.table.status == ""
    assert e.table.notation == final.notation() and "game over" in e.table.svg


# ---------------------------------------------------------------------- castles 1..n
def test_castles_are_numbered_from_1_in_words_and_typed_moves_and_keep_their_index_in_the_notation(english):
    p = opening("advanced", 1)
    b = Builder(p)
    assert [c.description for c in b.castle_row.children] == [f"{i}: neutral" for i in range(1, 7)]
    assert b.x.options == (("—", None), *((str(i + 1), i) for i in range(6)))
    panel = MovesPanel(p)
    assert [g["label"] for g in panel.list.groups] == [f"castle {i + 1}" for i in range(6)]
    typed = panel.list.groups[2]["moves"][0][0]
    assert typed.startswith("3:")  # a person types the table's number (castle 3)...
    assert p.parse_move(typed, 1).castle == 2 and p.parse_move(typed, 1).text() == "2:" + typed[2:]  # ...files the index
    assert panel.try_move(typed) and panel.position.placed.x == 2
    assert panel.position.to_json()["placed"]["X"] == 2
    e = Explorer(p)
    assert e.table.castle_titles[0] == "castle 1: neutral · click to cycle neutral → English → French"
    b.x.value = 5
    assert b.form_json()["placed"]["X"] == 5


# ---------------------------------------------------------------------- builder totals
def test_the_builder_counts_each_value_against_the_rules_at_the_top_of_each_side(english):
    b = Builder(opening("advanced", 1))
    totals = b._totals[0]
    grid = b.grids[0].children
    assert totals.widgets()[0] in grid[1].children  # the row right under the values' header
    assert totals.mismatched == [] and "12/12" in totals.cells[-1].value and "= 22/22" in totals.total.value
    deck = b._rows[(0, "deck")]
    deck.boxes[-1].value = str(int(deck.boxes[-1].value) - 2)  # two 2s fewer in the English deck
    assert b.position is None and totals.mismatched == ["2"]
    assert 'data-ok="false"' in totals.cells[-1].value and "10/12" in totals.cells[-1].value
    assert "= 20/22" in totals.total.value
    # the English problems sit above the grid (and in the header, at the top of the builder)
    section = b.errors["english"]
    side_box = next(c for c in b.children if hasattr(c, "children") and b.grids[0] in c.children)
    assert list(side_box.children).index(section) < list(side_box.children).index(b.grids[0])
    assert section.value and section.value.split("✗")[1].strip()[:20] in b.summary.value


# ---------------------------------------------------------------------- undo
def test_undo_and_redo_go_through_valid_and_invalid_forms_exactly(english):
    p = opening("advanced", 1)
    b = Builder(p)
    assert b.undo_button.disabled and b.redo_button.disabled
    b.cycle_castle(2)
    after_click = b.position
    deck = b._rows[(0, "deck")]
    deck.boxes[0].value = "zz"  # letters: an invalid form, kept as typed
    assert b.position is None
    b.round.value = "7"
    b.undo()
    assert b.round.value == "1" and [x.value for x in b._rows[(0, "deck")].boxes][0] == "zz" and b.position is None
    b.undo()
    assert b.position == after_click and b._rows[(0, "deck")].boxes[0].value == "0"
    b.undo()
    assert b.position == p and b.undo_button.disabled and not b.redo_button.disabled
    b.redo()
    b.redo()
    assert b._rows[(0, "deck")].boxes[0].value == "zz" and b.position is None
    b.redo()
    assert b.round.value == "7" and b.redo_button.disabled
    b.undo()
    b.preset.value = "base"  # a new change after an undo: the undone one is forgotten
    assert b.redo_button.disabled and b.preset.value == "base"
    b.undo()
    assert b.preset.value == "advanced" and b.round.value == "1" and b._rows[(0, "deck")].boxes[0].value == "zz"
    # a whole loaded position is one step
    b.load_position(p.apply(next(iter(p.legal_moves))))
    b.undo()
    assert b.preset.value == "advanced" and b._rows[(0, "deck")].boxes[0].value == "zz"


def test_undo_of_moves_played_steps_back_in_the_game_and_redo_forward():
    """Undo after moves played goes back one move in the same game (the earlier moves kept), not a new
    game started at the position before the last move."""
    p = opening("advanced", 1)
    b = Builder(p)
    for _ in range(2):
        here = b.state.position
        b.state.play(here.apply(next(iter(here.legal_moves))))
    game = b.state.history
    assert len(game.positions) == 3 and b.position == game.positions[2]
    b.undo()
    assert b.state.history.positions == game.positions[:2] and b.state.history.index == 1
    assert b.position == game.positions[1]
    b.undo()
    assert b.state.history.positions == (p,) and b.position == p
    b.redo()
    b.redo()
    assert b.state.history == game and b.redo_button.disabled


# ---------------------------------------------------------------------- the first ten minutes (issue 42, point 5)
def _click_castle(table, index):
    """What the browser sends when a castle of the diagram is clicked."""
    table._handle_custom_msg({"type": "castle", "index": index}, [])


@pytest.mark.parametrize("rules, side, zone, text", [
    ("advanced", 0, "hand0", "H54322"), ("advanced", 1, "deck", "5 4 3 2 2"), ("advanced", 0, "discard", "5432"),
    ("advanced", 1, "removed", "33"), ("team", 0, "hand1", "H2"), ("team", 1, "hand1", "-")])
def test_a_zone_typed_as_cards_sets_its_counts(english, rules, side, zone, text):
    """25 count boxes took 26 typed numbers for a round-5 position: a zone is typed as the notation writes it."""
    b = Builder(opening(rules, 1))
    row, typed = b._rows[(side, zone)], b._typed[(side, zone)]
    b.type_cards(side, zone, text)
    assert row.cards == Cards.parse(text) and typed.message.value == ""
    written = b.form_json()["sides"][SIDES[side]]
    written = {"hand0": lambda: written["hand"], "hand1": lambda: written["members"][1]["hand"]}.get(
        zone, lambda: written[zone])()
    assert Cards.of(written) == Cards.parse(text)  # the position the form reads
    # the box shows the zone as the counts stand: a count box edited writes it again
    row.boxes[-1].value = str(int(row.boxes[-1].value) + 1)
    assert Cards.parse(typed.box.value) == row.cards == Cards.parse(text).add_kind(row.kinds[-1])


@pytest.mark.parametrize("rules, text, said", [
    ("advanced", "X43", "X is not a card: write H for the hero and 2 to 5"),
    ("advanced", "H9", "9 is not a card of these rules: write H for the hero and 2 to 5"),
    ({"preset": "base", "hero": False}, "H2", "H is not a card of these rules: write 2 to 5"),
    ({"preset": "base", "card_counts": {"4": 0}}, "42", "4 is not a card of these rules: write H for the hero and "
                                                         "2, 3, 5")])
def test_what_is_not_cards_is_refused_beside_the_field_naming_the_problem(english, rules, text, said):
    b = Builder(opening(Rules.from_json(rules), 1))
    before = b._rows[(0, "discard")].cards
    b.type_cards(0, "discard", text)
    typed = b._typed[(0, "discard")]
    assert said in typed.message.value and typed in [b._typed[k] for k in b._typed if k[0] == 0]
    assert b._rows[(0, "discard")].cards == before and typed.box.value == text  # kept as typed, to be fixed
    assert b.position is None and said in [str(p) for p in b.problems] and said in b.summary.value
    b.type_cards(0, "discard", "")
    assert typed.message.value == "" and b.position is not None


@pytest.mark.parametrize("rules", ["base", "team", Rules.preset("advanced", hand_size=7),
                                   Rules.preset("advanced", card_counts={"2": 9, "3": 6})])
def test_rest_to_deck_puts_the_sides_full_set_less_its_other_zones_in_its_deck(english, rules):
    """The deck is the rules' own set (Rules.card_set) less every other zone, under teams and variants alike."""
    rules = Rules.from_json(rules) if isinstance(rules, str) else rules
    b = Builder(opening(rules, 1))
    b.round.value = "3"
    for side in (0, 1):
        b.type_cards(side, "discard", "5432")
    assert b.position is None  # four cards too many on each side
    for side in (0, 1):
        b.rest_buttons[side].click()
    p = b.position
    assert p is not None and b.problems == []
    for s in p.sides:
        held = sum(s.hands, Cards()) + s.discard + s.removed
        assert s.deck == rules.card_set - held and s.deck.size == rules.card_set.size - rules.hand_size - 4


def test_rest_to_deck_is_refused_naming_the_cards_over(english):
    b = Builder(opening("advanced", 1))
    b.type_cards(0, "discard", "5555")
    deck = b._rows[(0, "deck")].cards
    b.rest_buttons[0].click()
    said = "the other zones hold 2 cards more than the rules give the side (55)"
    assert said in b.rest_messages[0].value and b._rows[(0, "deck")].cards == deck
    b.type_cards(0, "discard", "55")
    b.rest_buttons[0].click()
    assert b.rest_messages[0].value == "" and b.position is not None


@pytest.mark.parametrize("click", ["castle", "stack"])
def test_a_click_on_the_table_before_the_deal_deals_an_opening_to_edit(english, click):
    """The first castle click the intro invites made the default 'before the deal' position invalid."""
    e = Explorer()
    assert e.position == Position.start("advanced")
    if click == "castle":
        _click_castle(e.table, 2)
    else:
        e.table._handle_custom_msg({"type": "stack", "side": "french", "zone": "hand"}, [])
    p = e.position
    assert p is not None and e.builder.problems == [] and e.table.position == p and e.table.status == ""
    dealt = opening("advanced", 1)
    assert p.sides == dealt.sides and p.to_play == dealt.to_play
    assert [p.control(i) for i in range(6)] == ["neutral"] * 2 + ["english" if click == "castle" else "neutral"] + \
        ["neutral"] * 3
    assert "dealt an opening (seed 1) to edit" in e.builder.start_message.value
    assert e.builder.start_choice.value == "a dealt opening"
    _click_castle(e.table, 2)  # from a dealt position a click edits it
    assert e.position.sides == dealt.sides


def test_the_table_follows_an_invalid_position_being_built(english):
    """It dimmed and stopped following the clicks: it draws the form as read, its problems under it."""
    e = Explorer(opening("advanced", 1))
    e.builder.type_cards(0, "discard", "55")  # two cards too many: invalid
    assert e.position is None and e.table.position == e.state.draft and e.table.draft
    assert "not a valid position: the English hold 24 cards" in e.table.status
    _click_castle(e.table, 4)
    assert e.position is None and e.table.position.control(4) == "english"
    assert 'data-castle="4"' in e.table.svg and e.table.notation == e.table.position.notation()
    e.builder.rest_buttons[0].click()
    assert e.position is not None and e.table.position == e.position and e.table.status == ""
    assert not e.table.draft


def test_start_and_end_jump_through_the_game_played(english):
    """27 Back clicks went back to the start of a game: one click now, and one to its end."""
    p = opening("advanced", 1)
    panel = MovesPanel(p)
    assert panel.buttons["◀◀ Start"].disabled and panel.buttons["End ▶▶"].disabled
    panel.play_out()
    last = len(panel.history) - 1
    assert last > 5 and panel.index == last and panel.buttons["End ▶▶"].disabled
    panel.buttons["◀◀ Start"].click()
    assert panel.index == 0 and panel.position == p and panel.buttons["◀◀ Start"].disabled
    assert not panel.buttons["End ▶▶"].disabled
    panel.buttons["End ▶▶"].click()
    assert panel.index == last and panel.position.is_over and panel.buttons["End ▶▶"].disabled


def test_check_typed_move_checks_without_playing_and_play_typed_move_plays(english):
    """'Try typed move' played the move: the check says legal or the engine's reason, and plays nothing."""
    p = opening("advanced", 1)
    panel = MovesPanel(p)
    first = next(iter(p.legal_moves))
    move = first.text(1)
    panel.typed.value = move
    panel.buttons["Check typed move"].click()
    assert f"✓ {move} is legal here" in panel.explain.value
    assert panel.position == p and len(panel.history) == 1 and panel.typed.value == move
    panel.typed.value = "1:H42222"
    panel.buttons["Check typed move"].click()
    assert html.escape(p.why_illegal("0:H42222")) in panel.explain.value and panel.position == p
    panel.typed.value = move
    panel.buttons["Play typed move"].click()
    assert panel.position == p.apply(first) and len(panel.history) == 2


def test_a_round_5_position_is_built_in_at_most_12_actions(english):
    """From the explorer as it opens: castles set on the table, the round, both hands and discards typed, each
    deck filled with one click.  Each widget value set or click is one action."""
    e = Explorer()
    b = e.builder
    actions = [
        lambda: _click_castle(e.table, 0),  # before the deal: an opening dealt to edit, castle 1 English
        lambda: _click_castle(e.table, 1), lambda: _click_castle(e.table, 1),  # castle 2 French
        lambda: _click_castle(e.table, 4),  # castle 5 English
        lambda: setattr(b.round, "value", "5"),
        lambda: b.type_cards(0, "hand0", "H54322"), lambda: b.type_cards(1, "hand0", "H44332"),
        lambda: b.type_cards(0, "discard", "5433222"), lambda: b.type_cards(1, "discard", "5533222"),
        b.rest_buttons[0].click, b.rest_buttons[1].click,
    ]
    for act in actions:
        act()
    assert len(actions) <= 12
    p = e.position
    assert p is not None and b.problems == [] and Position.from_json(p.to_json()) == p
    assert p.round == 5 and [p.control(i) for i in range(6)] == ["english", "french", "neutral", "neutral",
                                                                  "english", "neutral"]
    assert (str(p.sides[0].hands[0]), str(p.sides[1].hands[0])) == ("H54322", "H44332")
    assert (str(p.sides[0].discard), str(p.sides[1].discard)) == ("5433222", "5533222")
    assert e.table.position == p and e.table.status == ""
