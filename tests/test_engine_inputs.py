"""The engine safe under any input (issue 46): what it lists leads where it says, what it does not list it
refuses saying why, and what it accepts it saves as it was given.

The properties run over the positions of ``test_input_fuzz`` and ``test_engine_hostile`` (seeded play
under presets and variants, edited as a designer would) and over the same positions with their decks
stacked in a random order, the expert setup included; ``-m slow`` runs each with twenty times as many
examples (``twice``).
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any, Iterator

import pytest
from hypothesis import strategies as st

from guyenne_explore.engine import Draw, IllegalMove, Move, Position, PositionError, Rules, RulesError
from guyenne_explore.engine.cards import EMPTY, HERO, SYMBOLS, Cards
from guyenne_explore.cli import main
from guyenne_explore.engine.positions_io import load_position
from guyenne_explore.engine.rules import SIDES
from guyenne_explore.engine.validation import position_problems
from tests.conftest import uniform_step

from .test_engine_hostile import chance_points, mixed_moves, random_draw, respelled_json
from .test_input_fuzz import VARIANTS, hand_built, mutated_json, only_own_errors, play, positions, twice

#: The brief's position: a defender at Y deciding whether to concede (RULES.md 4, concede_as_decision).
CONCEDING = ('{"preset":"base","exhaustion_limit":1,"pre_discard":2,"concede_as_decision":true} FE..FF 4 F '
             'concede_choice@Y -/-/H55443333222222222/-/1 2/-/H5544333222222222/-/1 X:0:-:43 Y:1:4222:22')
EXPERTS = [r for r in VARIANTS if r.pre_discard] + [Rules.preset("expert", pre_discard=1, hand_size=4)]


def loaded(data: Any) -> Position | None:
    """The position ``data`` describes, or None where the loader refuses it with its own error."""
    return only_own_errors(Position.from_json, data)


# ---------------------------------------------------------------------- generated positions, decks stacked
@st.composite
def stacked_json(draw: st.DrawFn) -> dict[str, Any]:
    """A position's JSON (the expert setup often) with each side's deck maybe stacked in a random order."""
    start = st.builds(play, st.sampled_from(EXPERTS), st.integers(0, 2**32 - 1), st.integers(0, 3))
    data = draw(start | positions).to_json()
    for name in SIDES:
        side = data["sides"][name]
        if side["deck"] and draw(st.booleans()):
            side["deck"] = draw(st.permutations(side["deck"]))
            side["stacked"] = True
    return data


# ---------------------------------------------------------------------- 1. listed moves lead to valid positions
def retyped(move: Move) -> list[Move]:
    """A listed move with one field in another type that compares equal (``1`` for ``True``, ``2.0`` for
    ``2``) or reads as true (``"yes"``): none is a move any point lists."""
    out = [dataclasses.replace(move, cards=Cards(tuple(float(n) for n in move.cards)))]
    if move.concede is not None:
        out += [dataclasses.replace(move, concede=int(move.concede)),  # type: ignore[arg-type]
                dataclasses.replace(move, concede="yes" if move.concede else "")]  # type: ignore[arg-type]
    if move.castle is not None:
        out.append(dataclasses.replace(move, castle=float(move.castle)))  # type: ignore[arg-type]
    if move.first_member is not None:
        out.append(dataclasses.replace(move, first_member=bool(move.first_member)))  # type: ignore[arg-type]
    return out


def _listed_moves_lead_to_valid_positions(args: tuple[dict[str, Any], int]) -> None:
    data, seed = args
    p = loaded(data)
    if p is None or p.is_chance or p.is_over:
        return
    rng = random.Random(seed)
    listed = list(p.legal_moves)
    for move in rng.sample(listed, min(12, len(listed))):
        q = p.apply(move)
        assert position_problems(q) == [], (p.notation(), move.text())
        assert Position.from_json(q.to_json()) == q
        for odd in retyped(move):
            reason = p.why_illegal(odd)
            assert reason, (p.notation(), odd)
            with pytest.raises(IllegalMove, match="not a move"):
                p.apply(odd)
    legal = set(listed)
    for move in mixed_moves(p, rng):
        reason = p.why_illegal(move)
        assert (reason is None) == (move in legal), (p.notation(), move, reason)
        if reason is not None:
            with pytest.raises(IllegalMove) as exc:
                p.apply(move)
            assert str(exc.value) == reason  # the engine's one reason, from its one legality check


(test_listed_moves_lead_to_valid_positions_and_no_other_move_applies,
 test_listed_moves_lead_to_valid_positions_and_no_other_move_applies_slow) = twice(
    st.tuples(stacked_json() | hand_built(), st.integers(0, 2**32 - 1)), 120)(_listed_moves_lead_to_valid_positions)


def test_the_expert_setup_keeps_a_stacked_deck_in_order():
    data = Position.start("expert").to_json()
    order = ["2", "5", "2", "3", "4", "2", "5", "2", "3", "4", "2", "2", "3", "4", "2", "3", "2", "2", "2", "2", "2"]
    data["sides"]["english"].update(deck=order, stacked=True)
    p = Position.from_json(data)
    q = p.apply("55432")
    # the copies nearest the bottom leave the stack: the top, the deal's cards, stays as stacked
    kept = ["2", "2", "3", "4", "2", "2", "3", "4", "2", "2", "3", "2", "2", "2", "2", "2"]
    assert [SYMBOLS[k] for k in q.sides[0].deck_order] == kept
    assert position_problems(q) == []
    assert Position.from_json(q.to_json()) == q and q.to_json()["sides"]["english"]["deck"] == kept
    for move in list(p.legal_moves)[::25]:
        assert position_problems(p.apply(move)) == [], move.text()
    q = q.apply(next(iter(q.legal_moves)))  # the French discard: the deal
    dealt = q.apply_outcome(q.sample_outcome(random.Random(1)))
    assert dealt.sides[0].hand == Cards.parse("H43222") and dealt.sides[0].deck_order is not None


def test_play_and_analyse_an_expert_start_with_stacked_decks(tmp_path, capsys):
    data = Position.start("expert").to_json()
    for name in SIDES:
        data["sides"][name]["stacked"] = True
    path = tmp_path / "stacked.json"
    path.write_text(json.dumps(data))
    assert main(["play", str(path), "--seed", "1"]) == 0
    assert main(["analyse", str(path), "--samples", "8", "--workers", "1", "--seed", "1"]) == 0
    assert "internal error" not in capsys.readouterr().err


@pytest.mark.parametrize("concede", ["yes", "", 1, 0], ids=repr)
def test_a_concession_that_is_not_true_or_false_is_refused(concede):
    p = Position.from_notation(CONCEDING)
    assert set(p.legal_moves) == {Move(concede=True), Move(concede=False)}
    move = Move(concede=concede)
    assert "not a move" in (p.why_illegal(move) or "")
    with pytest.raises(IllegalMove, match="not a move"):
        p.apply(move)
    assert p.apply(Move(concede=True)).to_play != "concede_choice"


# ---------------------------------------------------------------------- 2. chance outcomes: listed ones only
def made_up(p: Position, rng: random.Random, listed: set[Draw]) -> Iterator[Draw]:
    """Outcomes near the listed ones that no listing holds: nothing drawn, a listed draw with a card
    more or less, random cards from the decks and discards."""
    near = [Draw(EMPTY, EMPTY)] + [random_draw(rng, p) for _ in range(6)]
    for d in rng.sample(sorted(listed, key=str), min(3, len(listed))):
        near += [Draw(d.english.add_kind(HERO, 1), d.french), Draw(d.english, d.french + Cards.parse("2"))]
        if d.french.size:
            near.append(Draw(d.english, d.french - Cards().add_kind(d.french.strongest() or 0, 1)))
    return (d for d in near if d not in listed)


def _only_listed_outcomes_apply(args: tuple[dict[str, Any], int]) -> None:
    data, seed = args
    p = loaded(data)
    if p is None or not p.is_chance:
        return
    rng = random.Random(seed)
    listed = {d for d, _ in p.chance_outcomes()}
    for d in rng.sample(sorted(listed, key=str), min(12, len(listed))):
        q = p.apply_outcome(d)
        assert position_problems(q) == [], (p.notation(), str(d))
        assert Position.from_json(q.to_json()) == q
    assert p.sample_outcome(rng) in listed
    for d in made_up(p, rng, listed):
        with pytest.raises(IllegalMove) as exc:
            p.apply_outcome(d)
        assert str(exc.value), (p.notation(), str(d))


(test_only_listed_chance_outcomes_apply_and_each_gives_a_valid_position,
 test_only_listed_chance_outcomes_apply_and_each_gives_a_valid_position_slow) = twice(
    st.tuples(stacked_json() | chance_points(), st.integers(0, 2**32 - 1)), 120)(_only_listed_outcomes_apply)


def test_nothing_drawn_is_refused_where_a_side_must_draw():
    p = Position.start("base")
    p = p.apply_outcome(p.sample_outcome(random.Random(2)))
    while not p.is_chance:
        p = uniform_step(p, random.Random(2))
    assert Draw(EMPTY, EMPTY) not in {d for d, _ in p.chance_outcomes()}
    with pytest.raises(IllegalMove, match="cannot draw - here"):
        p.apply_outcome(Draw(EMPTY, EMPTY))


# ---------------------------------------------------------------------- 3. saved as given
def field_paths(data: Any, where: str = "") -> Iterator[str]:
    """The path of each field of a position's JSON (``sides.english.members[0].hand``), the rules aside."""
    if isinstance(data, dict):
        for key, value in data.items():
            path = f"{where}.{key}" if where else str(key)
            yield path
            if path != "rules":
                yield from field_paths(value, path)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from field_paths(value, f"{where}[{i}]")


def checked_not_kept(data: dict[str, Any]) -> set[str]:
    """The one field README says is read and checked but not saved: a team's ``hand`` beside its members."""
    return {f"sides.{name}.hand" for name in SIDES if "members" in data["sides"][name]}


@st.composite
def with_defaults(draw: st.DrawFn) -> dict[str, Any]:
    """A position's JSON with fields that say what leaving them out says, or that no save writes: nothing
    placed, an unstacked or empty stacked deck, a single player's drawer or order, nulls, the side at a
    concession, a notation beside the position."""
    data = draw(positions).to_json()
    side = data["sides"][draw(st.sampled_from(SIDES))]
    how = draw(st.sampled_from(["placed", "stacked", "solo", "null", "side", "extra"]))
    if how == "placed":
        data["placed"] = draw(st.sampled_from([None, {}, {"X": None, "Y": None, "english": {}, "french": {}}]))
    elif how == "stacked":
        side["stacked"] = draw(st.booleans()) if side["deck"] else True
    elif how == "solo" and "hand" in side:
        side[draw(st.sampled_from(["drawer", "order"]))] = draw(st.sampled_from([0, None]))
    elif how == "null":
        key = draw(st.sampled_from(["remove_choice", "concede_choice", "placed"]))
        if key not in data:
            data[key] = None
    elif how == "side" and data["to_play"] in ("concede_choice", "remove_choice"):
        data[data["to_play"]]["side"] = draw(st.sampled_from(SIDES))
    elif how == "extra":
        data[draw(st.sampled_from(["notation", "result", "warnings"]))] = draw(st.sampled_from(["", [], {}]))
    return data


def _saved_as_given(data: dict[str, Any]) -> None:
    p = loaded(data)
    if p is None:
        return
    saved = p.to_json()
    again = Position.from_json(saved)
    assert again == p and again.to_json() == saved  # load -> save -> load is the identity
    missing = set(field_paths(data)) - set(field_paths(saved)) - checked_not_kept(data)
    assert not missing, (missing, data)
    for name in SIDES:
        if data["sides"][name].get("stacked"):
            assert saved["sides"][name]["deck"] == data["sides"][name]["deck"]  # the order given, kept


(test_an_accepted_position_saves_every_field_it_was_given,
 test_an_accepted_position_saves_every_field_it_was_given_slow) = twice(
    mutated_json() | hand_built() | respelled_json() | stacked_json() | with_defaults(), 300)(_saved_as_given)


def _concession() -> dict[str, Any]:
    return Position.from_notation(CONCEDING).to_json()


def _with_an_empty_deck() -> dict[str, Any]:
    """A base position at open_first whose English deck is spent."""
    for seed in range(100):
        rng, p = random.Random(seed), Position.start("base")
        while not p.is_over:
            if p.to_play == "open_first" and p.sides[0].deck.size == 0:
                return p.to_json()
            p = uniform_step(p, rng)
    raise AssertionError("no seed spends the English deck")


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["concede_choice"].update(side="french"), "concede_choice.side"),
    (lambda d: d.update(placed={"X": None, "Y": None}), "placed"),
    (lambda d: d.update(placed=None), "placed"),
    (lambda d: d["sides"]["english"].update(stacked=False), "sides.english.stacked"),
    (lambda d: d["sides"]["english"].update(stacked=True), "sides.english.stacked"),  # an empty deck
    (lambda d: d["sides"]["french"].update(drawer=0), "sides.french.drawer"),
    (lambda d: d["sides"]["french"].update(order=None), "sides.french.order"),
    (lambda d: d.update(remove_choice=None), "remove_choice"),
    (lambda d: d.update(notation="x"), "notation"),
    (lambda d: d.update(result={}), "result"),
], ids=["concede side", "empty placed", "null placed", "unstacked", "empty stacked", "solo drawer", "solo order",
        "null remove_choice", "notation", "result"])
def test_a_field_the_save_would_drop_is_refused_naming_it(edit, field):
    data = _concession() if field.startswith("concede") else _with_an_empty_deck()
    assert Position.from_json(data).to_json() == data
    edit(data)
    with pytest.raises(PositionError) as exc:
        Position.from_json(data)
    assert [p.field for p in exc.value.problems] == [field]
    assert all(str(p) for p in exc.value.problems)


def test_a_battle_still_to_resolve_without_a_sides_cards_is_refused():
    """Each side places at least one card at each castle (RULES.md 3), so at a concession the battles still
    to resolve hold both sides' cards. Found by the JSON fuzz: a team3 position at concede_choice@X with no
    French card at Y loaded, then left the French a removal at Y with nothing to remove and no move."""
    data = _concession()  # concede_choice@Y: X is resolved, Y is not
    data["placed"]["english"]["X"] = []
    assert Position.from_json(data).to_play == "concede_choice"  # a resolved battle may hold no card
    data["sides"]["french"]["hand"] += data["placed"]["french"]["Y"]
    data["placed"]["french"]["Y"] = []
    with pytest.raises(PositionError) as exc:
        Position.from_json(data)
    assert [p.field for p in exc.value.problems] == ["placed.french.Y"]
    assert "French should have cards at castle Y" in str(exc.value)


def test_a_removal_at_x_with_a_battle_at_y_lacking_a_sides_cards_is_refused():
    """At remove_choice@X, castle Y's battle is still to come: both sides' cards must be there."""
    rng = random.Random(0)
    for seed in range(300):
        rng, p = random.Random(seed), Position.start("advanced")
        while not p.is_over and not (p.to_play == "remove_choice" and p.battle == 0):
            p = uniform_step(p, rng)
        if not p.is_over:
            break
    else:
        raise AssertionError("no seed reaches a removal at X")
    data = p.to_json()
    assert Position.from_json(data) == p
    side = "english" if data["placed"]["english"]["Y"] else "french"
    data["sides"][side].setdefault("hand", [])
    data["sides"][side]["hand"] += data["placed"][side]["Y"]
    data["placed"][side]["Y"] = []
    with pytest.raises(PositionError) as exc:
        Position.from_json(data)
    assert [q.field for q in exc.value.problems] == [f"placed.{side}.Y"]


# ---------------------------------------------------------------------- 4. any value: read or refused
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
           | st.sampled_from(["H", "2", "english", "base", "expert", "open_first", "X", "-"]))
ODD_KEYS = (st.text(max_size=6) | st.integers() | st.none() | st.booleans() | st.floats() | st.tuples(st.integers())
            | st.sampled_from(["preset", "card_counts", "members", "hand_size", "L", "sides", "english", "hand",
                               "deck", "stacked", "placed", "X", "castle", "side", "1", "9", "H"]))
any_values = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(ODD_KEYS, inner, max_size=4), max_leaves=10)
SPLICES = [("rules",), ("castles",), ("sides",), ("sides", "english"), ("sides", "english", "deck"), ("placed",),
           ("concede_choice",), ("rules", "card_counts"), ("rules", "members")]


def _any_value_is_read_or_refused(args: tuple[Any, int]) -> None:
    value, where = args
    only_own_errors(Position.from_json, value)
    only_own_errors(Rules.from_json, value)
    if not isinstance(value, str):  # text names a file
        only_own_errors(load_position, value)
    data = Position.start("expert").to_json()
    data["rules"] = {"preset": "expert"}
    *parents, last = SPLICES[where]
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    only_own_errors(Position.from_json, data)


(test_any_value_anywhere_is_read_or_refused_with_the_projects_error,
 test_any_value_anywhere_is_read_or_refused_with_the_projects_error_slow) = twice(
    st.tuples(any_values, st.integers(0, len(SPLICES) - 1)), 300)(_any_value_is_read_or_refused)


@pytest.mark.parametrize("load, value, field", [
    (load_position, 3.5, ""), (load_position, None, ""), (load_position, ["a.json"], ""),
    (Rules.from_json, {1: 2}, "rules.1"), (Rules.from_json, {None: 1, "hand_size": 7}, "rules.None"),
    (lambda v: Position.from_json({"rules": v, "castles": ["neutral"] * 6, "round": 1, "to_play": "deal",
                                   "sides": {}}), {("x",): 1}, "rules.('x',)"),
], ids=["float path", "no path", "list path", "int key", "None key", "tuple key"])
def test_odd_values_are_refused_with_the_projects_error(load, value, field):
    with pytest.raises((PositionError, RulesError)) as exc:
        load(value)
    assert exc.value.problems[0].field == field and str(exc.value.problems[0])
