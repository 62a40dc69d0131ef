"""The explorer's state: the builder writes it on its own edits, a move or a step sets it, and every panel shows it.

A move applied in the moves panel is the engine's ``position.apply(move)`` everywhere (a stacked deck keeps its
order), the game played stays for Back and Forward, and the builder shows it without reading it back from its form.
"""
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from guyenne_explore.engine import Position  # noqa: E402
from guyenne_explore.widgets import Builder, Explorer  # noqa: E402
from guyenne_explore.widgets.starts import opening  # noqa: E402
from guyenne_explore.widgets.state import ExplorerState, History  # noqa: E402


@pytest.fixture(scope="module")
def stacked():
    """A dealt opening whose English deck order is fixed (stacked), in the reverse of its listed order."""
    data = opening("advanced", 1).to_json()
    english = data["sides"]["english"]
    english["deck"], english["stacked"] = list(reversed(english["deck"])), True
    p = Position.from_json(data)
    assert p.sides[0].deck_order is not None
    return p


def click_castle(table, index):
    """What the browser sends when a castle of the diagram is clicked."""
    table._handle_custom_msg({"type": "castle", "index": index}, [])


def shown(e):
    """The position each panel shows."""
    return {"state": e.state.position, "builder": e.builder.position, "table": e.table.position,
            "moves": e.moves.position, "analysis": e.analysis.position, "lab": e.lab.position,
            "skill": e.skill.position}


def everywhere(e, p):
    return all(q == p for q in shown(e).values())


def legal(p, n=0):
    """The ``n``-th legal move as a person types it (castles as the table numbers them, from 1)."""
    return list(p.legal_moves)[n].text(1)


def test_a_move_shows_the_engines_position_everywhere_with_the_stacked_deck_order(stacked):
    e = Explorer(stacked)
    assert everywhere(e, stacked)
    move = legal(stacked)
    assert e.moves.try_move(move)
    after = stacked.apply(stacked.parse_move(move, 1))
    assert everywhere(e, after), shown(e)  # the form did not rebuild an unstacked copy for the panels
    assert e.state.position.sides[0].deck_order == after.sides[0].deck_order is not None
    assert e.table.notation == after.notation() and "[" in after.notation()  # the notation writes the stacked deck
    assert "deck order" in e.builder.fill_notes.value  # the form says it cannot show the order the table keeps


def test_back_after_two_moves_returns_the_earlier_positions_and_forward_replays(stacked):
    e = Explorer(stacked)
    p1 = stacked.apply(stacked.parse_move(legal(stacked), 1))
    assert e.moves.try_move(legal(stacked))
    p2 = p1.apply(p1.parse_move(legal(p1), 1))
    assert e.moves.try_move(legal(p1))
    assert e.state.history == History((stacked, p1, p2), 2) and e.moves.history == [stacked, p1, p2]
    e.moves.buttons["◀ Back"].click()
    assert everywhere(e, p1) and e.moves.index == 1
    e.moves.buttons["◀ Back"].click()
    assert everywhere(e, stacked) and e.moves.buttons["◀ Back"].disabled
    e.moves.buttons["Forward ▶"].click()
    assert everywhere(e, p1)
    e.moves.buttons["Forward ▶"].click()
    assert everywhere(e, p2) and e.moves.buttons["Forward ▶"].disabled
    e.moves.step(-2)
    other = stacked.apply(stacked.parse_move(legal(stacked, 1), 1))  # a new move after Back drops the line stepped back from
    assert e.moves.try_move(legal(stacked, 1))
    assert e.state.history == History((stacked, other), 1) and everywhere(e, other)


def test_a_language_switch_keeps_the_game_played_and_the_stacked_position(stacked):
    e = Explorer(stacked)
    after = stacked.apply(stacked.parse_move(legal(stacked), 1))
    assert e.moves.try_move(legal(stacked))
    e.set_language("fr")
    e.set_language("en")
    assert everywhere(e, after) and e.state.history == History((stacked, after), 1)


def test_a_valid_edit_of_the_builder_reaches_every_panel_as_a_new_game(stacked):
    e = Explorer(stacked)
    assert e.moves.try_move(legal(stacked))
    click_castle(e.table, 2)  # a field of the form: the builder's own edit
    built = e.builder.position
    assert built is not None and built.control(2) == "english"
    assert everywhere(e, built) and e.state.history == History((built,), 0) and e.state.problems == []
    assert e.table.notation == built.notation() and e.table.status == ""


def test_an_invalid_edit_reaches_no_panel(stacked):
    e = Explorer(stacked)
    before = e.position
    e.builder.round.value = "x"
    assert e.builder.position is None and e.state.problems == e.builder.problems != []
    assert all(shown(e)[name] is None for name in ("state", "moves", "analysis", "lab", "skill"))
    # the table draws the form as read (it kept the last diagram, dimmed, and froze), the problems under it
    assert e.table.position is e.state.draft is e.builder.draft and e.table.position != before
    assert "not a valid position" in e.table.status and e.table.draft
    assert 'data-count="0"' in e.moves.count.value and e.moves.buttons["Play typed move"].disabled
    e.builder.round.value = "-5"  # another invalid form: still nothing reaches the panels, the table follows
    assert e.state.position is None and e.analysis.position is None and "-5" in e.table.status
    assert e.table.position.round == -5 and e.table.notation == e.table.position.notation()
    e.builder.round.value = "1"
    assert e.position is not None and everywhere(e, e.builder.position) and e.table.status == ""
    assert e.state.draft is None and not e.table.draft


def test_a_move_or_a_step_never_reads_a_position_back_from_the_form(stacked, monkeypatch):
    e = Explorer(stacked)
    read = []
    from_json = Position.from_json.__func__
    monkeypatch.setattr(Position, "from_json", classmethod(lambda cls, data: read.append(data) or from_json(cls, data)))
    assert e.moves.try_move(legal(stacked))
    e.moves.step(-1)
    e.moves.step(1)
    e.moves.buttons["Sample chance"].click()  # nothing to sample at a decision: no change
    assert read == []
    e.builder.cycle_castle(2)  # the builder's own edit is read from the form, once
    assert len(read) == 1


def test_a_session_opened_shows_its_game_without_reading_the_form(stacked):
    e = Explorer(stacked)
    p1 = stacked.apply(stacked.parse_move(legal(stacked), 1))
    assert e.moves.try_move(legal(stacked))
    e.moves.step(-1)
    sent = []
    e.session.file.send = lambda content, buffers=None: sent.append(bytes(buffers[0]).decode())
    assert e.session.save()
    other = Explorer()
    assert other.session.open_text("s.json", sent[-1])
    assert everywhere(other, stacked) and other.state.history == History((stacked, p1), 0)


def test_a_builder_alone_keeps_its_own_state():
    b = Builder(opening("advanced", 1))
    assert b.state.position == b.position == opening("advanced", 1)
    b.cycle_castle(0)
    assert b.state.position == b.position and b.position.control(0) == "english"
    state = ExplorerState(opening("advanced", 2))
    assert Builder(state=state).position == state.position  # shown from the state it is given


@pytest.mark.parametrize("how", ["json", "notation"])
def test_a_loaded_stacked_position_keeps_its_deck_order_in_every_panel(stacked, how):
    """Loading a position (JSON or notation) gives the panels exactly the position read, a stacked deck's
    order included; a move after it is the engine's move from that order."""
    e = Explorer()
    loaded = e.builder.load_json(stacked.to_json()) if how == "json" else e.builder.load_notation(stacked.notation())
    assert loaded
    assert e.state.position == stacked and e.state.position.sides[0].deck_order == stacked.sides[0].deck_order
    assert e.analysis.position == stacked and e.lab.position == stacked
    assert e.moves.position == stacked and len(e.state.history.positions) == 1
