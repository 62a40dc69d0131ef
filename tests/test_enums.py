"""The engine's sides, controls and points are enums equal to the ints and strings JSON writes, and
the compiled kernel's integer codes are derived from them."""

import json

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled import encode
from guyenne_explore.analysis.compiled import layout as kn
from guyenne_explore.engine.rules import SIDES
from guyenne_explore.engine.scoring import ENDINGS, EXHAUSTED, OUT_OF_CARDS, SWEEP
from guyenne_explore.engine.state import CONTROL_NAMES, DECISIONS, POINTS, Control, Point, SideIndex, side_index


def test_points_are_the_strings_json_writes():
    assert Point.OPEN_FIRST == "open_first" and hash(Point.OPEN_FIRST) == hash("open_first")
    assert str(Point.REMOVE_CHOICE) == "remove_choice" and f"{Point.DEAL}" == "deal"
    assert json.dumps([Point.END]) == '["end"]'
    assert POINTS == tuple(Point) and set(DECISIONS) < set(POINTS)
    p = Position.start("base")
    assert p.to_play is Point.DEAL and p.to_json()["to_play"] == "deal"
    again = Position.from_json(json.dumps(p.to_json()))
    assert again.to_play is Point.DEAL and again == p and hash(again) == hash(p)


def test_sides_and_controls_are_the_ints_and_names_of_the_rules():
    assert [s.name.lower() for s in SideIndex] == list(SIDES) and [int(s) for s in SideIndex] == [0, 1]
    assert {int(c): n for c, n in CONTROL_NAMES.items()} == {-1: "neutral", 0: "english", 1: "french"}
    assert all(Control[s.name] == s for s in SideIndex)
    assert side_index("french") is SideIndex.FRENCH and side_index(0) is SideIndex.ENGLISH
    assert json.dumps([Control.NEUTRAL, SideIndex.FRENCH]) == "[-1, 1]"


def test_each_kernel_code_is_pinned_to_its_engine_enum():
    """The compiled game loop's codes are plain ints (numba reads them as constants) naming the
    engine's own points, control and endings."""
    points = {kn.SETUP: Point.SETUP_DISCARD, kn.DEAL: Point.DEAL, kn.OPEN_FIRST: Point.OPEN_FIRST,
              kn.RESPOND_FIRST: Point.RESPOND_FIRST, kn.OPEN_SECOND: Point.OPEN_SECOND,
              kn.RESPOND_SECOND: Point.RESPOND_SECOND, kn.REMOVE: Point.REMOVE_CHOICE, kn.DRAW: Point.DRAW,
              kn.END: Point.END, kn.TEAM_SPLIT: Point.TEAM_SPLIT, kn.TEAM_ORDER: Point.TEAM_ORDER,
              kn.CONCEDE: Point.CONCEDE_CHOICE}
    assert len(points) == 12 and encode.POINT_NAMES == points
    assert all(kn.POINTS[code] is point for code, point in points.items())
    assert kn.NEUTRAL == Control.NEUTRAL
    endings = {kn.END_SWEEP: SWEEP, kn.END_EXHAUSTED: EXHAUSTED, kn.END_OUT_OF_CARDS: OUT_OF_CARDS}
    assert all(ENDINGS[code] == ending for code, ending in endings.items())
    for code in [*points, kn.NEUTRAL, *endings]:
        assert type(code) is int
