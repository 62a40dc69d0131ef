"""Hand-derived cases of the team variant (RULES.md section 8)."""

import pytest

from guyenne_explore.engine import Cards, Position, PositionError, Rules
from guyenne_explore.engine.position import ENGLISH, FRENCH


def dealt(preset="team", seed_hand="H53222"):
    """A team game just after the deal, with the drawer (member 0) holding ``seed_hand``."""
    p = Position.start(preset)
    for d, _ in p.chance_outcomes():
        if str(d.english + Cards.parse("H")) == seed_hand and (not p.sides[1].is_team or True):
            return p.apply_outcome(d)
    raise AssertionError("deal not found")


def test_setup_member_one_holds_six():
    p = dealt()
    assert p.to_play == "team_split" and p.side_to_play == ENGLISH and p.member_to_play == 0
    assert p.sides[0].hands[0].size == 6 and p.sides[0].hands[1].size == 0


def test_split_gives_one_to_five_keeping_one():
    p = dealt()
    moves = list(p.legal_moves)
    assert all(1 <= m.cards.size <= 5 for m in moves)
    # distinct sub-multisets of H53222 with size 1..5: 2*2*2*4 - 1 (empty) - 1 (all) = 30
    assert len(moves) == 30
    assert "keep at least one" in p.why_illegal("H53222")
    assert "at least one" in p.why_illegal("-")
    q = p.apply("532")
    assert q.sides[0].hands == (Cards.parse("H22"), Cards.parse("532"))
    assert q.to_play == "team_order" and len(q.legal_moves) == 2


def test_order_maps_members_to_placements():
    p = dealt().apply("532").apply("first:1")  # member 1 (532) places first for english
    assert p.to_play == "team_split" and p.side_to_play == FRENCH  # then the french team decides
    p = p.apply(str(next(iter(p.legal_moves)))).apply("first:0")
    assert p.to_play == "open_first" and p.side_to_play == ENGLISH and p.member_to_play == 1
    # a member places from its own hand with no reserve: all of 532 is legal
    assert p.why_illegal("0:532") is None
    assert "does not hold" in p.why_illegal("0:H")
    p = p.apply("0:532")
    assert p.to_play == "respond_first" and p.member_to_play == 0  # french first member
    p = p.apply(str(next(iter(p.legal_moves))))
    assert p.to_play == "open_second" and p.member_to_play == 1
    p = p.apply(str(next(iter(p.legal_moves))))
    assert p.to_play == "respond_second" and p.member_to_play == 0  # english second member: H22
    assert p.why_illegal("H22") is None


def test_drawer_alternates_and_shared_discard():
    p = dealt().apply("532").apply("first:1")
    p = p.apply(str(next(iter(p.legal_moves)))).apply("first:0")
    for _ in range(4):
        p = p.apply(next(iter(p.legal_moves)))
    while p.to_play in ("remove_choice", "concede_choice"):
        p = p.apply(next(iter(p.legal_moves)))
    assert p.to_play == "draw"
    assert p.sides[0].discard.size >= 2  # both members' cards in one discard
    d, _ = p.chance_outcomes()[0]
    q = p.apply_outcome(d)
    assert q.sides[0].drawer == 1 and q.sides[1].drawer == 1
    assert q.sides[0].hand.size == 6  # the two hands together
    assert q.sides[0].hands[0].size + d.english.size == 6 or q.sides[0].hands[1].size >= d.english.size


def test_team_end_when_hands_together_hold_one():
    p = Position.start("team")
    data = p.to_json()
    full = Rules.preset("team").card_set
    for name in ("english", "french"):
        data["sides"][name] = {"members": [{"hand": ["2"]}, {"hand": []}], "deck": [],
                               "discard": (full - Cards.parse("2")).symbols(), "removed": [],
                               "exhaustions": 2, "drawer": 0, "order": None}
    data["to_play"] = "team_split"
    data["round"] = 9
    with pytest.raises(PositionError, match="already over"):
        Position.from_json(data)


def test_drawer_with_no_card_gets_one_from_partner():
    full = Rules.preset("team").card_set
    data = Position.start("team").to_json()
    for name in ("english", "french"):
        data["sides"][name] = {"members": [{"hand": []}, {"hand": ["5", "2", "2"]}], "deck": [],
                               "discard": (full - Cards.parse("522")).symbols(), "removed": [],
                               "exhaustions": 2, "drawer": 0, "order": None}
    data.update(to_play="team_split", round=9)
    p = Position.from_json(data)
    assert p.member_to_play == 1
    assert sorted(m.text() for m in p.legal_moves) == ["2", "5"]
    assert "exactly one card" in p.why_illegal("22")


def test_drawer_with_one_card_gives_nothing():
    full = Rules.preset("team").card_set
    data = Position.start("team").to_json()
    for name in ("english", "french"):
        data["sides"][name] = {"members": [{"hand": ["5"]}, {"hand": ["2", "2"]}], "deck": [],
                               "discard": (full - Cards.parse("522")).symbols(), "removed": [],
                               "exhaustions": 2, "drawer": 0, "order": None}
    data.update(to_play="team_order", round=9)
    assert Position.from_json(data).to_play == "team_order"


@pytest.mark.parametrize("members", [{"english": 2, "french": 1}, {"english": 1, "french": 2}])
def test_team3_either_side(members):
    from guyenne_explore.engine.record import play_game

    rules = Rules.preset("team3", members=members)
    p = Position.start(rules)
    assert [s.is_team for s in p.sides] == [members["english"] == 2, members["french"] == 2]
    record = play_game(p, 5)
    points = {e.to_play for e in record.events}
    assert {"team_split", "team_order", "open_first"} <= points
    for q in record.positions():
        assert Position.from_json(q.to_json()) == q


def test_team_with_advanced_removals():
    from guyenne_explore.engine.record import play_game

    rules = Rules.preset("team", removal="advanced", pre_discard=5, exhaustion_limit=3)
    record = play_game(Position.start(rules), 3)
    assert record.final.is_over
    assert any(e.to_play == "setup_discard" for e in record.events)
