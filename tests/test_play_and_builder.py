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

from guyenne_explore import Position  # noqa: E402
from guyenne_explore.i18n import set_language  # noqa: E402
from guyenne_explore.scoring import LONGEST_RUN, UNSPENT, tie_break  # noqa: E402
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
        assert game.play(heuristic_choice(game.position, rng).text())
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
    assert game.play(move.text())
    assert f"You opened castle 1 with {move.cards}." in [line() for line in game.events]


# ---------------------------------------------------------------------- typed moves
@pytest.mark.parametrize("junk", ["{move}x", "{move},", "{move}+", "{move}:", "{move} ;", "１{rest}"])
def test_a_typed_move_with_anything_more_is_refused_and_names_it(english, junk):
    p = opening("advanced", 1)
    move = next(iter(p.legal_moves)).text()
    text = junk.format(move=move, rest=move[1:])
    reason = p.why_illegal(text)
    assert reason is not None and "is not part of a move" in reason
    panel = MovesPanel(p)
    assert not panel.try_move(text)
    assert panel.position == p and len(panel.history) == 1
    assert "is not part of a move" in panel.explain.value
    assert panel.try_move(f"  {move} ") and panel.position == p.apply(move)  # spaces around it are no junk


def test_enter_in_the_typed_move_box_plays_it(english):
    p = opening("advanced", 1)
    move = next(iter(p.legal_moves)).text()
    panel = MovesPanel(p)
    panel.typed.value = move
    panel.typed._handle_string_msg(None, {"event": "submit"}, None)  # what the page sends on Enter
    assert panel.position == p.apply(move)
    game = TeachingGame("base", seed=3)
    before, seen = game.position, len(game.positions)
    move = next(iter(before.legal_moves)).text()
    game.typed.value = move
    game.typed._handle_string_msg(None, {"event": "submit"}, None)
    assert game.positions[seen] == before.apply(move)


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
def test_castles_are_numbered_from_1_in_words_and_keep_their_index_in_the_notation(english):
    p = opening("advanced", 1)
    b = Builder(p)
    assert [c.description for c in b.castle_row.children] == [f"{i}: neutral" for i in range(1, 7)]
    assert b.x.options == (("—", None), *((str(i + 1), i) for i in range(6)))
    panel = MovesPanel(p)
    assert [g["label"] for g in panel.list.groups] == [f"castle {i + 1} (typed {i}:)" for i in range(6)]
    assert panel.list.groups[2]["moves"][0][0].startswith("2:")  # the move's text keeps the index
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
