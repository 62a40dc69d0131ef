"""Save session / Open session: a whole explorer session as one JSON file, and the refusals of a bad file."""
from __future__ import annotations

import json
from html import escape

import pytest

from guyenne_explore.engine import Rules
from guyenne_explore.widgets.explorer import TABS, Explorer


def saved(explorer: Explorer) -> tuple[str, str]:
    """Press Save session as a page would: the file's name and text that go to the browser."""
    sent = []
    explorer.session.file.send = lambda content, buffers=None: sent.append((content, buffers))
    assert explorer.session.save()
    [(content, [data])] = sent
    return content["name"], bytes(data).decode("utf-8")


def state(explorer: Explorer) -> tuple:
    """Everything a session restores: the position, the history and its step, the analysis settings."""
    a = explorer.analysis
    return (explorer.builder.position, explorer.moves.history, explorer.moves.index, explorer.table.position,
            a.rule_sets.value, a.english_policy.value, a.french_policy.value, a.search_budget.value, a.method.value,
            a.games.value, a.seed.value, a.force_exact.value)


@pytest.fixture(scope="module")
def session():
    """An explorer a few steps into a game, with a history stepped back once, settings changed and a run done."""
    e = Explorer()
    moves = e.moves
    for _ in range(4):  # the deal and three placements: a position every compared rule set fits
        p = moves.position
        assert moves.try_move(next(iter(p.legal_moves)).text(1)) if not p.is_chance else moves.sample_chance() is None
    moves.step(-1)
    a = e.analysis
    a.rule_sets.value = (e.builder.position.rules, Rules.preset("classic2021"))
    a.english_policy.value, a.french_policy.value = "heuristic", "uniform"
    a.method.value, a.games.value, a.seed.value, a.search_budget.value = "sample", 30, 9, 250
    a.run(block=True)
    assert set(a.results) == {"advanced", "classic2021"}
    name, text = saved(e)
    return e, name, text


def test_a_saved_session_reopens_to_the_same_state(session):
    e, name, text = session
    assert name.startswith("guyenne-session-advanced-round1") and name.endswith(".json")
    data = json.loads(text)
    assert data["kind"] == "guyenne-explore session" and data["step"] == len(e.moves.history) - 2
    runs = data["tabs"]["analysis"]["results"]["runs"]
    assert [r["label"] for r in runs] == ["advanced", "classic2021"] and runs[1]["result"]["games"] == 30
    other = Explorer()
    assert state(other) != state(e)
    assert other.session.open_text(name, text)
    assert state(other) == state(e)
    assert "opened" in other.session.upload.message
    assert set(other.analysis.results) == {"advanced", "classic2021"} and other.analysis.results["classic2021"].games == 30
    assert json.loads(saved(other)[1]) == data  # saved again: the same session (the results are not run again)


def test_the_analysis_settings_are_one_immutable_value_of_the_explorers_state(session):
    """The analysis panel's fields write one value in the explorer's state, which a session saves as it is (not read
    field by field across the panels); set there, as opening a session does, the panel shows it, and a box's typed
    letters stay while another field changes."""
    import dataclasses

    e, _name, text = session
    asked = e.state.analysis
    assert (asked.english_policy, asked.method, asked.games, asked.seed, asked.search_budget) == (
        "heuristic", "sample", 30, 9, 250)
    assert asked.rule_sets == e.analysis.rule_sets.value and json.loads(text)["analysis"] == asked.to_json()
    with pytest.raises(dataclasses.FrozenInstanceError):
        asked.games = 1  # type: ignore[misc]
    other = Explorer()
    seen = []
    other.state.observe(lambda change: seen.append(change["new"]), names="analysis")
    other.state.analysis = dataclasses.replace(other.state.analysis, french_policy="strong", games=40)
    a = other.analysis
    assert (a.french_policy.value, a.games.value) == ("strong", 40) and seen[-1] == a.settings()
    a.games.box.value = "4x"
    a.english_policy.value = "heuristic"
    assert a.games.box.value == "4x" and other.state.analysis.english_policy == "heuristic"
    assert other.state.analysis.games == 40


def test_a_file_that_is_not_json_is_refused_in_the_pages_language_with_where():
    from guyenne_explore.i18n import set_language
    from guyenne_explore.widgets.session import SessionError, read_session

    previous = set_language("fr")
    try:
        with pytest.raises(SessionError) as refused:
            read_session("{nope", Explorer())
    finally:
        set_language(previous)
    assert str(refused.value) == "le fichier n'est pas du JSON (ligne 1, colonne 2)"  # no English words of Python's


BAD = [
    ("not json {", "not JSON"),
    (json.dumps([1, 2]), "not a saved session"),
    (json.dumps({"kind": "guyenne-explore session", "version": 99}), "version 99"),
]


def broken(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("change, reason", [
    (lambda d: d["position"]["sides"]["english"].update(hand=["H"] * 9), "position is not valid"),
    (lambda d: d["history"]["moves"].insert(1, {"castle": 99, "cards": ["5"]}), "history is not a game"),
    (lambda d: d.update(step=999), "step does not lead"),
    (lambda d: d["analysis"].update(games=10**12), "games must be a whole number from 1 to 10,000,000"),
    (lambda d: d["analysis"].update(english_policy="oracle"), "english_policy must be one of"),
    (lambda d: d["analysis"].update(rule_sets=[{"preset": "advanced", "hand_size": "six"}]), "rule set"),
    (lambda d: d.pop("position"), "no position"),
])
def test_a_bad_session_file_is_refused_beside_the_button_and_changes_nothing(session, change, reason):
    _e, _name, text = session
    other = Explorer()
    before = state(other)
    assert not other.session.open_text("bad.json", broken(text, change))
    assert reason in other.session.upload.message and "bad.json was not opened" in other.session.upload.message
    assert state(other) == before


@pytest.mark.parametrize("text, reason", BAD)
def test_a_file_that_is_no_session_is_refused(text, reason):
    other = Explorer()
    before = state(other)
    assert not other.session.open_text("x.json", text)
    assert reason in other.session.upload.message and state(other) == before


def test_an_invalid_position_is_not_saved():
    e = Explorer()
    for i in range(6):  # every castle to one side: a position the builder refuses
        e.builder.cycle_castle(i)
    assert e.builder.position is None
    sent = []
    e.session.file.send = lambda content, buffers=None: sent.append(content)
    assert not e.session.save() and sent == []
    assert "not valid" in e.session.message.value


# ---------------------------------------------------------------------- the whole workspace (version 2)
def fields(explorer: Explorer) -> dict:
    """Every tab's fields as a session keeps them."""
    from guyenne_explore.analysis import to_saved
    from guyenne_explore.widgets.session import _tabs, _value

    return {name: {key: to_saved(_value(f)) for key, f in tab.saved_fields().items()}
            for name, tab in _tabs(explorer).items()}


def drawn(box) -> list:
    """The figures a panel's figure box holds, as the page receives them."""
    return [view.figure for view in box.shown]


@pytest.fixture(scope="module")
def workspace(session):
    """The module's session with a small run and non-default fields in every other tab (a few games each)."""
    e, _name, _text = session
    lab = e.lab
    lab.editors["hand_size"].value = "7"
    lab.method.value, lab.games.value, lab.seed.value = "sample", 12, 3
    lab.english_policy.value = "heuristic"
    lab.sweep_metric.value = lab.sweep_metric.options[2]
    lab.run_compare(block=True)
    skill = e.skill
    skill.strong.value = skill.search.value = False
    skill.games.value, skill.seed.value = 16, 5
    skill.metric.value = "Duration (rounds)"
    skill.run(block=True)
    style = skill.how_they_play
    style.levels_text.value, style.games.value = "uniform,heuristic", 6
    style.run(block=True)
    balance = e.balance
    balance.rows[1].parameter.value = ""  # no second parameter varied
    balance.rows[0].values.value = "6:7"
    balance.games.value, balance.trials.value, balance.seed.value = 4, 2, 8
    balance.ladder.value, balance.depth_games.value = "uniform,heuristic", 4
    balance.y_axis.value = "draws"
    balance.run(block=True)
    balance.run_depth(block=True)
    e.analysis.optimal.objective.value = "score"
    e.play.source.value, e.play.seed.value, e.play.allow_undo.value = "base", 4321, True
    e.rulebook.source.value, e.rulebook.paper.value = "expert", "letter"
    e.rulebook.show()
    e.learn.new_game(7)  # a learner's game a few moves in, the other side's cards shown
    for _ in range(3):
        assert e.learn.play(e.learn.moves.groups[-1]["moves"][-1][0])
    e.learn.reveal.value = True
    assert lab.results and skill.table is not None and style.styles and balance.result and balance.depth
    name, text = saved(e)
    return e, name, text


def test_a_session_keeps_every_tab_and_redraws_its_figures_from_the_saved_results(workspace):
    from guyenne_explore.analysis import to_saved
    from guyenne_explore.widgets.session import _tabs

    e, name, text = workspace
    kept = list(_tabs(e).values())
    for tab in map(e.panel, TABS):  # every tab but the builder (whose position and history the session keeps) is kept
        assert tab is e.builder or tab in kept, type(tab).__name__
    data = json.loads(text)
    assert data["version"] == 2 and len(text) < 1_000_000
    game_rows = data["tabs"]["analysis"]["results"]["runs"][1]["result"]["samples"]  # distinct games, counted
    assert sum(count for _game, count in game_rows) == 30
    other = Explorer()
    assert fields(other) != fields(e)
    assert other.session.open_text(name, text), other.session.upload.message
    assert state(other) == state(e) and fields(other) == fields(e)
    for tab_name, tab in _tabs(other).items():  # every result back, equal to the one saved
        assert to_saved(tab.saved_results()) == to_saved(_tabs(e)[tab_name].saved_results()), tab_name
    assert "run again" not in other.session.message.value
    for panel in (lambda x: x.analysis, lambda x: x.lab, lambda x: x.skill, lambda x: x.skill.how_they_play,
                  lambda x: x.balance):  # the figures drawn again from the saved results, as they were
        assert drawn(panel(other).figure_box) and drawn(panel(other).figure_box) == drawn(panel(e).figure_box)
    assert other.analysis.headline.value == e.analysis.headline.value and "Designer metrics" in other.analysis.metrics.value
    assert other.balance.table.value == e.balance.table.value and other.balance.depth_result.value == e.balance.depth_result.value
    assert other.skill.details.value == e.skill.details.value
    assert other.rulebook.page.value == e.rulebook.page.value and "expert" in other.rulebook.diff.value.lower()
    assert other.learn.positions == e.learn.positions and other.learn.history_view.value == e.learn.history_view.value
    assert json.loads(saved(other)[1]) == data  # saved again: the same file


def test_a_session_keeps_the_optimal_play_solve_and_draws_it_again(load):
    e = Explorer(load("base-endgame-3v3.json"))
    optimal = e.analysis.optimal
    optimal.against.value = ()  # the solve alone: no best responses
    optimal.run(block=True)
    assert optimal.result is not None and "Value" in optimal.output.value
    name, text = saved(e)
    other = Explorer()
    assert other.session.open_text(name, text), other.session.upload.message
    assert other.analysis.optimal.result == optimal.result
    assert other.analysis.optimal.output.value == optimal.output.value
    assert other.analysis.optimal.status.value == optimal.status.value
    data = json.loads(text)  # an answer read back checked, its field named
    data["tabs"]["optimal"]["results"]["result"]["answers"][0][1][1] = "many"
    refused = Explorer()
    assert not refused.session.open_text("bad.json", json.dumps(data))
    assert "tabs.optimal.results.result.answers[0].cards must be a whole number" in refused.session.upload.message


def test_a_sweep_is_kept_with_its_figure():
    e = Explorer()
    lab = e.lab
    lab.method.value, lab.games.value = "sample", 6
    lab.sweep_parameter.value = "scoring"
    lab.run_sweep(block=True)
    assert lab.points
    name, text = saved(e)
    other = Explorer()
    assert other.session.open_text(name, text), other.session.upload.message
    assert [pt.value for pt in other.lab.points] == [pt.value for pt in lab.points]
    assert drawn(other.lab.figure_box) == drawn(lab.figure_box) and other.lab.headline.value == lab.headline.value
    assert other.lab.controls.status.value.startswith("Swept")


def test_a_saved_learners_game_with_a_move_not_theirs_replays_up_to_it_and_says_so(workspace):
    """A file edited by hand: the learner's second move swapped for the other side's (a legal move's form, not a
    legal move there): the game is replayed up to it, and the refusal names it beside the move box."""
    _e, name, text = workspace
    data = json.loads(text)
    moves = data["tabs"]["learn"]["results"]["moves"]
    moves[1] = moves[0]  # the first move again: an opening where an answer is due
    other = Explorer()
    assert other.session.open_text(name, json.dumps(data)), other.session.upload.message
    assert len(other.learn.played) == 1 and "is not a move of yours here" in other.learn.explain.value


def test_an_old_version_1_file_still_opens(session):
    e, name, text = session
    data = json.loads(text)
    old = {k: data[k] for k in ("kind", "position", "history", "step", "analysis")}
    old.update(version=1, results={label: r.to_json() for label, r in e.analysis.results.items()})
    other = Explorer()
    assert other.session.open_text("old.json", json.dumps(old)), other.session.upload.message
    assert state(other) == state(e)
    assert "classic2021: English" in other.session.message.value  # version 1 kept no figures: its results listed


@pytest.mark.parametrize("change, reason", [
    (lambda d: d["tabs"]["skill"]["fields"].update(games=0), "tabs.skill.fields.games must be a number from 1"),
    (lambda d: d["tabs"]["lab"]["fields"].update(method="guess"), "tabs.lab.fields.method must be one of"),
    (lambda d: d["tabs"]["balance"]["fields"].update(ladder="x" * 5000), "tabs.balance.fields.ladder must be a text"),
    (lambda d: d["tabs"]["skill"]["results"]["table"].update(levels=7), "tabs.skill.results.table.levels must be a list"),
    (lambda d: d["tabs"]["analysis"]["results"]["runs"][0]["result"].update(games="many"),
     "tabs.analysis.results.runs[0].result.games must be a whole number"),
    (lambda d: d["tabs"]["analysis"]["results"]["runs"][0]["result"]["samples"][0].__setitem__(1, 10**9),
     "tabs.analysis.results.runs[0].result.samples"),
    (lambda d: d["tabs"]["balance"]["results"]["search"].update(oracle=1), "unknown field 'oracle'"),
    (lambda d: d["tabs"]["lab"]["results"]["runs"][1]["rules"].update(hand_size=-3), "tabs.lab.results.runs[1].rules"),
    (lambda d: d["tabs"].update(cards={}), "unknown tab 'cards'"),
    (lambda d: d["tabs"]["learn"]["results"].update(seed="7"), "tabs.learn.results.seed must be a whole number"),
    (lambda d: d["tabs"]["learn"]["results"]["moves"].append({"cards": "H5"}), "tabs.learn.results.moves[3]"),
])
def test_a_corrupted_session_is_refused_naming_the_field_and_changes_nothing(workspace, change, reason):
    _e, _name, text = workspace
    other = Explorer()
    before = (state(other), fields(other))
    assert not other.session.open_text("bad.json", broken(text, change))
    assert escape(reason) in other.session.upload.message, other.session.upload.message
    assert (state(other), fields(other)) == before
