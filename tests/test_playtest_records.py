"""Playtest records (issue 44): the header, thinking times and undos round-trip; old records still load; a record
played under other rules than it says, corrupted or foreign, is refused naming the field; `play --policies`
writes the bots' seats; a folder of records reports the good ones and names each bad one."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guyenne_explore.engine import Position, Rules
from guyenne_explore.cli import main
from guyenne_explore.engine.record import (GameRecord, RecordError, RecordHeader, Seat, Undo, play_game, read_records,
                                    rules_fingerprint, seats_for)
from guyenne_explore.engine.rules import PRESET_NAMES

NAMES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)


@st.composite
def headers(draw, rules):
    seats = []
    for side, member in seats_for(rules):
        if draw(st.booleans()):
            seats.append(Seat(side, member, "person", name=draw(NAMES)))
        else:
            seats.append(Seat(side, member, "bot", policy=draw(st.sampled_from(["uniform", "heuristic", "strong",
                                                                                "search:200", "strong@mine"])),
                              weights_fingerprint=draw(st.none() | st.text("0123456789abcdef", min_size=16,
                                                                            max_size=16))))
    return RecordHeader(draw(st.sampled_from(["2026-11-29T00:20:00Z", "2025-01-02T03:04:05+00:00"])),
                        rules_fingerprint(rules), draw(st.sampled_from(["0.1.0", "0.2"])),
                        draw(st.none() | st.integers(0, 2**40)), draw(st.booleans()), tuple(seats), rules)


@settings(max_examples=25, deadline=None)
@given(data=st.data(), preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 50))
def test_any_header_think_times_and_undos_round_trip(data, preset, seed):
    rules = Rules.preset(preset)
    record = play_game(Position.start(rules), seed, header=data.draw(headers(rules)))
    record.think_ms = [None if e.draw is not None else data.draw(st.none() | st.integers(0, 10**9))
                       for e in record.events]
    for _ in range(data.draw(st.integers(0, 2))):
        record.take_back()
    text = json.dumps(record.to_json())
    again = GameRecord.from_json(text)
    assert again.header == record.header and again.events == record.events
    assert [again.thought(i) for i in range(len(again.events))] == [record.thought(i) for i in range(len(record.events))]
    assert again.undos == record.undos and json.dumps(again.to_json()) == text


def test_take_back_keeps_the_move_and_its_think_time():
    record = play_game(Position.start("base"), 3)
    record.think_ms = [None if e.draw is not None else i for i, e in enumerate(record.events)]
    last = max(i for i, e in enumerate(record.events) if e.move is not None)
    moved = record.events[last].move
    undo = record.take_back()
    assert undo == Undo(last, moved.text(), last) and len(record.events) == last


def test_an_old_record_without_header_still_loads():
    old = play_game(Position.start("advanced"), 5).to_json()
    assert "header" not in old and "undos" not in old
    record = GameRecord.from_json(json.dumps(old))
    assert record.header is None and record.undos == [] and record.final.is_over


def _bot_record(tmp_path, *policies: str) -> dict:
    path = tmp_path / "bots.json"
    assert main(["play", "--rules", "base", "--seed", "7", "--policies", ",".join(policies),
                 "--record", str(path)]) == 0
    return json.loads(path.read_text())


def test_play_with_policies_writes_the_header_with_the_bots(tmp_path):
    data = _bot_record(tmp_path, "english=heuristic", "french=strong")
    header = data["header"]
    assert header["format"] == "guyenne-record/1" and header["seed"] == 7 and header["undo"] is False
    assert header["rules"] == "base" and header["rules_fingerprint"] == rules_fingerprint(Rules.preset("base"))
    assert [(s["side"], s["kind"], s["policy"]) for s in header["seats"]] == [("english", "bot", "heuristic"),
                                                                               ("french", "bot", "strong")]
    assert len(header["seats"][1]["weights_fingerprint"]) == 16 and "weights_fingerprint" not in header["seats"][0]
    assert GameRecord.from_json(json.dumps(data)).header.seats[1].policy == "strong"


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["header"].update(rules="advanced"), "header.rules_fingerprint"),
    (lambda d: d["header"].update(format="chess-pgn"), "header.format"),
    (lambda d: d["header"]["seats"][0].update(kind="robot"), "header.seats[0].kind"),
    (lambda d: d["header"]["seats"].pop(), "header.seats"),
    (lambda d: d["header"].update(undo="yes"), "header.undo"),
    (lambda d: d["moves"][1].update(think_ms=-4), "moves[1].think_ms"),
    (lambda d: d.update(undos=[{"at": "x", "move": "1"}]), "undos[0].at"),
])
def test_a_bad_record_is_refused_naming_the_field(tmp_path, edit, field):
    data = _bot_record(tmp_path, "heuristic")
    edit(data)
    with pytest.raises(RecordError, match=r"^" + field.replace("[", r"\[").replace("]", r"\]")):
        GameRecord.from_json(json.dumps(data))


def test_a_record_whose_start_is_under_other_rules_than_its_header_is_refused(tmp_path):
    data = _bot_record(tmp_path, "heuristic")
    other = play_game(Position.start("advanced"), 7).to_json()
    data["start"], data["moves"] = other["start"], other["moves"]
    with pytest.raises(RecordError, match="^start.rules: .*played under other rules than it says"):
        GameRecord.from_json(json.dumps(data))


def test_read_records_reports_the_good_ones_and_names_each_bad_one(tmp_path):
    folder = tmp_path / "playtest"
    folder.mkdir()
    good = _bot_record(tmp_path, "uniform")
    (folder / "a.json").write_text(json.dumps(good))
    (folder / "b.json").write_text(json.dumps(play_game(Position.start("team"), 2).to_json()))
    (folder / "broken.json").write_text('{"start": ')
    (folder / "foreign.json").write_text('{"event": "chess", "moves": []}')
    (folder / "notes.txt").write_text("not a record, not read")
    records, bad = read_records([folder])
    assert [name.rsplit("/", 1)[-1] for name, _r in records] == ["a.json", "b.json"]
    assert records[0][1].header.seats[0].policy == "uniform"
    assert {name.rsplit("/", 1)[-1]: why.split(":")[0] for name, why in bad} == {
        "broken.json": "not JSON", "foreign.json": "missing field 'start'"}
    assert read_records([tmp_path / "missing.json"])[1][0][1].startswith("cannot read it")
