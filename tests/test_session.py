"""Save session / Open session: a whole explorer session as one JSON file, and the refusals of a bad file."""
from __future__ import annotations

import json

import pytest

from guyenne_explore import Rules
from guyenne_explore.widgets.explorer import Explorer


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
        assert moves.try_move(next(iter(p.legal_moves)).text()) if not p.is_chance else moves.sample_chance() is None
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
    assert set(data["results"]) == {"advanced", "classic2021"} and data["results"]["classic2021"]["games"] == 30
    other = Explorer()
    assert state(other) != state(e)
    assert other.session.open_text(name, text)
    assert state(other) == state(e)
    assert "opened" in other.session.upload.message
    summary = other.session.message.value
    assert "classic2021: English" in summary and "(30 games)" in summary
    again = json.loads(saved(other)[1])  # saved again: the same session (the results are not run again)
    assert {k: v for k, v in again.items() if k != "results"} == {k: v for k, v in data.items() if k != "results"}


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
