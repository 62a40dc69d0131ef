"""Lessons from a record, puzzles for a learner, and what learners trip on per rulebook section."""

from __future__ import annotations

import json

import pytest

from guyenne_explore.engine.position import Position
from guyenne_explore.engine.record import play_game
from guyenne_explore.widgets.lesson_game import LessonGame
from guyenne_explore.widgets.puzzle_view import PuzzleView
from guyenne_explore.widgets.trips import Trips, TripsError

from .test_puzzles import endgame, exact  # noqa: F401 - the fixtures: a solved endgame and its puzzles


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_record_played_through_as_a_lesson_counts_the_trips():
    record = play_game(Position.start("advanced"), 3)
    clock = Clock()
    trips = Trips(clock)
    lesson = LessonGame(record, trips)
    assert "placements" in lesson.prompt.value and lesson.section == "placements"
    assert not lesson.play("0:HH") and "not allowed" in lesson.explain.value  # the engine's reason
    assert not lesson.play("0:HH")
    recorded = record.events[lesson.step].move
    other = next(m for m in lesson.positions[lesson.step].legal_moves if m != recorded)
    clock.now = 5.0
    assert not lesson.play(other.text(1)) and "try again" in lesson.explain.value
    while not lesson.done:
        assert lesson.play(record.events[lesson.step].move.text(1)), lesson.explain.value
    assert all(f'data-section="{s}"' in "".join(lesson._told) for s in ("placements", "battles", "drawing", "end"))
    placements = trips.sections["placements"]
    assert (placements.illegal, placements.retries) == (2, 3)
    assert placements.seconds == 5.0  # the first step took 5 s to a legal move, the others none
    assert trips.sections["removals"].illegal == 0


def test_a_storyboards_history_becomes_a_lesson():
    positions = play_game(Position.start("base"), 1).positions()[:12]
    lesson = LessonGame(positions)
    steps = 0
    while not lesson.done:
        assert lesson.play(lesson.record.events[lesson.step].move.text(1))
        steps += 1
    assert steps == sum(e.move is not None for e in lesson.record.events)


def test_trips_save_and_load(tmp_path):
    trips = Trips(Clock())
    trips.begin("removals")
    trips.tried(False)
    trips.tried(True)
    path = tmp_path / "learner.json"
    trips.save(str(path))
    again = Trips.load(str(path))
    assert again.to_json() == trips.to_json() == {"sections": {"removals": {"steps": 1, "illegal": 1, "retries": 1,
                                                                            "seconds": 0.0}}}
    assert '<tr data-section="removals"><td>removals</td><td>1</td><td>1</td><td>1</td>' in again.table_html()
    path.write_text(json.dumps({"sections": {"removals": {"illegal": -1}}}))
    with pytest.raises(TripsError, match=r"sections\.removals\.illegal"):
        Trips.load(str(path))


def test_a_puzzle_judges_each_try_and_shows_its_solution(exact):  # noqa: F811
    trips = Trips(Clock())
    view = PuzzleView(exact, trips)
    pz = exact[0]
    assert not view.play("0:HHH") and "guyenne-illegal" in view.explain.value
    worse = pz.values[1][0]
    assert not view.play(worse.text(1)) and "legal but worse" in view.explain.value
    assert view.play(pz.solution.text(1)) and "guyenne-right" in view.explain.value
    view.show_solution()
    assert view.solution.value.count("<svg") >= 2  # the position, then the solution's steps
    row = trips.sections[pz.sections[0]]
    assert (row.illegal, row.retries, row.steps) == (1, 2, 1)
