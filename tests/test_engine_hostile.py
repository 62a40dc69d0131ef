"""The engine under hostile input: what it lists it accepts, what it accepts it saves as read, and
misuse of its public operations is refused with its own error, saying why.

Hypothesis generates rule sets within their bounds, positions reached by seeded play under them,
and the edits a designer makes (the round, the castles, the spelling of a field); ``-m slow``
runs each property with twenty times as many examples (``twice`` of ``test_input_fuzz``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guyenne_explore.engine import Draw, IllegalMove, Move, Position, PositionError, Rules, RulesError
from guyenne_explore.engine.cards import HERO, KINDS, SYMBOLS, Cards
from guyenne_explore.engine.rules import SIDES
from guyenne_explore.engine.validation import MAX_ROUND, position_problems
from tests.conftest import uniform_step

from .test_input_fuzz import PRESETS, assert_round_trips, hand_built, mutated_json, mutated_notation, play, positions
from .test_input_fuzz import twice

#: Overrides within the rules' bounds, small enough that a chance point lists its outcomes quickly.
overrides = st.fixed_dictionaries({}, optional={
    "exhaustion_limit": st.integers(1, 4), "hand_size": st.integers(2, 8), "max_at_castle": st.integers(1, 12),
    "castles": st.integers(2, 8), "hero": st.booleans(), "reshuffle": st.sampled_from(["on_draw", "immediate"]),
    "removal": st.sampled_from(["none", "advanced", "classic2021"]), "pre_discard": st.integers(0, 8),
    "concede_as_decision": st.booleans(), "adjacency": st.sampled_from(["line", "ring"]),
    "members": st.fixed_dictionaries({"english": st.integers(1, 2), "french": st.integers(1, 2)}),
    "card_counts": st.dictionaries(st.sampled_from([str(v) for v in range(1, 10)]), st.integers(0, 6), max_size=4),
})


def rules_or_none(preset: str, changes: dict[str, Any]) -> Rules | None:
    """The variant, or None where the rules refuse it (said by their own tests)."""
    try:
        return Rules.preset(preset, **changes)
    except RulesError:
        return None


rule_sets = st.builds(rules_or_none, st.sampled_from(PRESETS), overrides).filter(lambda r: r is not None)


def until_chance(rules: Rules, seed: int, rounds: int) -> Position:
    """Seeded uniform play up to the chance point that ends round ``rounds`` (or the end of the game)."""
    rng = random.Random(seed)
    p = Position.start(rules)
    while not p.is_over and not (p.is_chance and p.round >= rounds):
        p = uniform_step(p, rng)
    return p


@st.composite
def chance_points(draw: st.DrawFn) -> dict[str, Any]:
    """A chance point reached by play under a generated rule set, as JSON, maybe edited as a designer
    would: a late round, or every castle given to one side."""
    p = until_chance(draw(rule_sets), draw(st.integers(0, 2**32 - 1)), draw(st.integers(1, 12)))
    data = p.to_json()
    edit = draw(st.sampled_from(["none", "none", "round", "sweep"]))
    if edit == "round":
        data["round"] = draw(st.integers(MAX_ROUND - 2, MAX_ROUND))
    elif edit == "sweep":
        data["castles"] = [draw(st.sampled_from(SIDES))] * len(data["castles"])
    return data


def listed_outcomes(p: Position, rng: random.Random) -> list[Draw]:
    outcomes = [d for d, _ in p.chance_outcomes()]
    return outcomes if len(outcomes) <= 300 else rng.sample(outcomes, 300)


# ---------------------------------------------------------------------- 1. listed outcomes apply
def _every_listed_outcome_is_valid(args: tuple[dict[str, Any], int]) -> None:
    data, seed = args
    try:
        p = Position.from_json(data)
    except PositionError:
        return
    if not p.is_chance:
        return
    for d in listed_outcomes(p, random.Random(seed)):
        q = p.apply_outcome(d)
        assert position_problems(q) == [], (p.notation(), str(d))
        assert Position.from_json(q.to_json()) == q


(test_every_listed_chance_outcome_gives_a_valid_position,
 test_every_listed_chance_outcome_gives_a_valid_position_slow) = twice(
    st.tuples(chance_points() | hand_built(), st.integers(0, 2**32 - 1)), 150)(_every_listed_outcome_is_valid)


def test_a_chance_point_after_which_no_position_can_follow_is_refused():
    data = until_chance(Rules.preset("advanced", exhaustion_limit=1, hand_size=2, max_at_castle=12), 3, 3).to_json()
    assert data["to_play"] == "draw"
    swept = dict(data, castles=["english"] * 6)  # RULES.md 5.1: the game ended before the draw
    with pytest.raises(PositionError) as exc:
        Position.from_json(swept)
    assert [(p.code, p.field) for p in exc.value.problems] == [("point.game_over_sweep", "to_play")]
    with pytest.raises(PositionError) as exc:
        Position.from_json(dict(data, round=MAX_ROUND))  # the draw would start round 1001
    assert [(p.code, p.field) for p in exc.value.problems] == [("position.round_draw_too_large", "round")]
    assert "1001" in str(exc.value.problems[0])
    late = Position.from_json(dict(data, round=MAX_ROUND - 1))
    assert all(late.apply_outcome(d).round == MAX_ROUND for d, _ in late.chance_outcomes())


# ---------------------------------------------------------------------- 2. saved as read
def _notation_saves_as_read(text: str) -> None:
    try:
        p = Position.from_notation(text)
    except (PositionError, RulesError):
        return
    assert p.notation() == text.removesuffix("\n")


SPELLINGS = st.sampled_from(["lower", "zero", "space", "tab", "order", "rules"])


@st.composite
def respelled_notation(draw: st.DrawFn) -> str:
    """A valid notation with one field spelled another way than it is written."""
    parts = draw(positions).notation().split(" ")
    how = draw(SPELLINGS)
    i = draw(st.integers(0, len(parts) - 1))
    if how == "lower":
        parts[i] = parts[i].lower()
    elif how == "zero" and parts[i].isdigit():
        parts[i] = "0" + parts[i]
    elif how == "order":
        parts[i] = parts[i][::-1]
    elif how == "rules":
        parts[0] = json.dumps({"preset": parts[0]}) if not parts[0].startswith("{") else parts[0].replace(",", ", ")
    text = " ".join(parts)
    if how in ("space", "tab"):
        text = text.replace(" ", draw(st.sampled_from(["  ", "\t", "\x0b", "\u00a0", " \n"])), 1)
        text = draw(st.sampled_from(["", " ", "\x0b"])) + text + draw(st.sampled_from(["", "\n", "\r\n", " \n"]))
    return text


(test_an_accepted_notation_saves_as_the_text_it_was_read_from,
 test_an_accepted_notation_saves_as_the_text_it_was_read_from_slow) = twice(
    mutated_notation() | respelled_notation(), 500)(_notation_saves_as_read)


@pytest.mark.parametrize("change, field", [
    ((" E ", " e "), "first"), ((" 1 ", " 01 "), "round"), (("H", "h"), "sides.english"),
    (("advanced", '{"preset":"advanced"}'), "rules"), ((" ", "\x0b"), ""),
    ((" ", "  "), ""), ((" open_first", "  open_first"), "")], ids=repr)
def test_a_notation_in_another_spelling_is_refused_naming_its_field(change, field):
    p = Position.start("advanced").apply_outcome(Position.start("advanced").sample_outcome(random.Random(3)))
    text = p.notation()
    assert Position.from_notation(text + "\n") == p  # a file's line end is no part of the line
    with pytest.raises(PositionError) as exc:
        Position.from_notation(text.replace(*change, 1))
    assert [problem.field for problem in exc.value.problems] == [field]
    assert str(exc.value.problems[0])


def _strongest_first(cards: Any) -> list[str]:
    order = {s: -k for k, s in enumerate(SYMBOLS)}
    return sorted(cards or [], key=order.__getitem__)


def json_normal_form(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON a position read from ``data`` saves as, by README's rules of the one normal form."""
    rules = Rules.from_json(data.get("rules", "base"))
    out: dict[str, Any] = {"rules": rules.to_json(), "castles": data["castles"], "round": data["round"],
                           "first": data.get("first", rules.first_side), "to_play": data["to_play"], "sides": {}}
    for name in SIDES:
        given = data["sides"][name]
        side: dict[str, Any] = {}
        if "members" in given:
            side["members"] = [{"hand": _strongest_first(m.get("hand"))} for m in given["members"]]
            side.update(drawer=given.get("drawer", 0), order=given.get("order"))
        else:
            side["hand"] = _strongest_first(given.get("hand"))
        if given.get("stacked") and given.get("deck"):
            side.update(deck=given["deck"], stacked=True)
        else:
            side["deck"] = _strongest_first(given.get("deck"))
        side.update(discard=_strongest_first(given.get("discard")), removed=_strongest_first(given.get("removed")),
                    exhaustions=given.get("exhaustions", 0))
        out["sides"][name] = side
    placed = data.get("placed") or {}
    rows = {name: {b: _strongest_first((placed.get(name) or {}).get(b)) for b in "XY"} for name in SIDES}
    if placed.get("X") is not None or placed.get("Y") is not None or any(any(r.values()) for r in rows.values()):
        out["placed"] = {"X": placed.get("X"), "Y": placed.get("Y"), **rows}
    if data["to_play"] == "remove_choice":
        castle = data["remove_choice"]["castle"]
        winner = data["castles"][placed[castle]]
        out["remove_choice"] = {"castle": castle, "side": "french" if winner == "english" else "english"}
    if data["to_play"] == "concede_choice":
        out["concede_choice"] = {"castle": data["concede_choice"]["castle"]}
    return out


@st.composite
def respelled_json(draw: st.DrawFn) -> dict[str, Any]:
    """A valid position's JSON with cards out of order or in other spellings, fields left out."""
    data = draw(positions).to_json()
    side = data["sides"][draw(st.sampled_from(SIDES))]
    zone = side["members"][0]["hand"] if "members" in side else side["hand"]
    how = draw(st.sampled_from(["shuffle", "lower", "int", "space", "drop", "round", "stacked", "solo_members"]))
    if how == "shuffle":
        random.Random(draw(st.integers(0, 99))).shuffle(side["deck"] if not side.get("stacked") else zone)
    elif how in ("lower", "int", "space") and zone:
        zone[0] = {"lower": zone[0].lower(), "int": int(zone[0]) if zone[0] != "H" else 10,
                   "space": " " + zone[0]}[how]
    elif how == "drop":
        for key in draw(st.lists(st.sampled_from(["discard", "removed", "exhaustions", "drawer", "order"]))):
            side.pop(key, None)
        if draw(st.booleans()):
            data.pop("first")
    elif how == "round":
        del data["round"]
    elif how == "stacked":
        side["stacked"] = False
    elif how == "solo_members" and "hand" in side:
        side["members"] = [{"hand": side.pop("hand")}]
    return data


def _json_saves_in_its_normal_form(data: dict[str, Any]) -> None:
    try:
        p = Position.from_json(data)
    except (PositionError, RulesError):
        return
    assert p.to_json() == json_normal_form(data)
    assert_round_trips(p)


(test_an_accepted_json_position_saves_in_its_normal_form,
 test_an_accepted_json_position_saves_in_its_normal_form_slow) = twice(
    mutated_json() | hand_built() | respelled_json(), 500)(_json_saves_in_its_normal_form)


def test_a_json_position_without_round_or_with_cards_in_another_spelling_is_refused():
    for missing in (lambda d: d.pop("round"), lambda d: d.update(round=None)):  # absent, or null
        data = Position.start("base").to_json()
        missing(data)
        with pytest.raises(PositionError) as exc:
            Position.from_json(data)
        assert [(p.code, p.field) for p in exc.value.problems] == [("json.missing", "round")]
    for card in ["h", " 5", 5, "5 "]:
        data = Position.start("base").to_json()
        data["sides"]["french"]["hand"] = [card]
        with pytest.raises(PositionError) as exc:
            Position.from_json(data)
        assert ("cards.symbol", "sides.french.hand") in [(p.code, p.field) for p in exc.value.problems]
    data = Position.start("base").to_json()
    data["sides"]["english"]["members"] = [{"hand": data["sides"]["english"].pop("hand")}]
    with pytest.raises(PositionError) as exc:
        Position.from_json(data)
    assert [(p.code, p.field) for p in exc.value.problems] == [("position.solo_member_field",
                                                                  "sides.english.members")]


# ---------------------------------------------------------------------- 3. chance operations misused
def random_draw(rng: random.Random, p: Position) -> Draw:
    """A draw near the listed ones: cards from each side's deck and discard and a few more."""
    def pick(side: int) -> Cards:
        s = p.sides[side]
        pool = list((s.deck + s.discard + Cards.parse("H5432")).kinds())
        return Cards.of(SYMBOLS[k] for k in rng.sample(pool, rng.randint(0, min(len(pool), p.rules.hand_size))))
    return Draw(pick(0), pick(1))


NOT_DRAWS = [None, "draw E:- F:-", (Cards(), Cards()), Draw(english=None, french=None),  # type: ignore[arg-type]
             Draw(Cards(), "22"), Move(cards=Cards.parse("2")), Draw(Cards(), Cards())]  # type: ignore[arg-type]


def _chance_operations_refuse_misuse(args: tuple[Position, int]) -> None:
    p, seed = args
    rng = random.Random(seed)
    if not p.is_chance:
        with pytest.raises(IllegalMove, match="no draw happens"):
            p.sample_outcome(rng)
        with pytest.raises(IllegalMove, match="no draw happens"):
            p.apply_outcome(Draw(Cards(), Cards()))
        return
    listed = {d for d, _ in p.chance_outcomes()}
    for outcome in NOT_DRAWS + [random_draw(rng, p) for _ in range(10)]:
        if outcome in listed:
            assert position_problems(p.apply_outcome(outcome)) == []
            continue
        with pytest.raises(IllegalMove) as exc:
            p.apply_outcome(outcome)  # type: ignore[arg-type]
        assert str(exc.value)


(test_chance_operations_refuse_what_is_not_listed_with_a_reason,
 test_chance_operations_refuse_what_is_not_listed_with_a_reason_slow) = twice(
    st.tuples(positions, st.integers(0, 2**32 - 1)), 200)(_chance_operations_refuse_misuse)


def test_an_outcome_never_listed_names_the_side_that_cannot_draw_it():
    p = Position.start("base")
    with pytest.raises(IllegalMove, match="the English cannot draw 55555"):
        p.apply_outcome(Draw(Cards.parse("55555"), Cards.parse("22222")))
    with pytest.raises(IllegalMove, match="a chance outcome is a Draw"):
        p.apply_outcome(Draw(english=None, french=None))  # type: ignore[arg-type]
    q = p.apply_outcome(p.sample_outcome(random.Random(1)))
    with pytest.raises(IllegalMove, match="no draw happens at"):
        q.sample_outcome(random.Random(1))


# ---------------------------------------------------------------------- 4. apply takes only listed moves
def mixed_moves(p: Position, rng: random.Random) -> list[Move]:
    """Moves that add a field to a listed one: a castle or cards with a member, with a concession..."""
    side = p.side_to_play
    assert side is not None
    held = list((p.sides[side].hand + p.placed.side_total(side)).kinds()) or [HERO]
    out = []
    for _ in range(8):
        cards = Cards.of(SYMBOLS[k] for k in rng.sample(held, rng.randint(0, min(3, len(held)))))
        castle = rng.choice([None, 0, 1, p.rules.castles - 1])
        member = rng.choice([None, 0, 1])
        concede = rng.choice([None, True, False])
        out.append(Move(cards=cards, castle=castle, first_member=member, concede=concede))
    return out


def _only_listed_moves_apply(args: tuple[Position, int]) -> None:
    p, seed = args
    if p.is_chance or p.is_over:
        return
    listed = set(p.legal_moves)
    for move in mixed_moves(p, random.Random(seed)):
        if move in listed:
            assert p.why_illegal(move) is None
            p.apply(move)
        else:
            reason = p.why_illegal(move)
            assert reason, (p.notation(), move)
            with pytest.raises(IllegalMove):
                p.apply(move)


team_positions = st.builds(play, st.sampled_from([Rules.preset("team"), Rules.preset("team3"),
                                                  Rules.preset("base", concede_as_decision=True)]),
                           st.integers(0, 2**32 - 1), st.integers(0, 60))
(test_apply_refuses_every_move_that_is_not_listed,
 test_apply_refuses_every_move_that_is_not_listed_slow) = twice(
    st.tuples(positions | team_positions, st.integers(0, 2**32 - 1)), 250)(_only_listed_moves_apply)


def test_a_castle_with_the_team_order_is_refused_with_the_reason():
    p = until_chance(Rules.preset("team"), 2, 1)
    p = p.apply_outcome(p.sample_outcome(random.Random(2)))
    while p.to_play != "team_order":
        p = p.apply(next(iter(p.legal_moves)))
    move = Move(first_member=0, castle=2)
    assert move not in set(p.legal_moves)
    assert "only names the member who places first" in (p.why_illegal(move) or "")
    with pytest.raises(IllegalMove, match="only names the member"):
        p.apply(move)
    assert p.apply(Move(first_member=0)).to_play in ("team_split", "team_order", "open_first")


# ---------------------------------------------------------------------- 5. a partial card_counts
@settings(max_examples=100, deadline=None, database=None)
@given(st.sampled_from(PRESETS), st.dictionaries(st.integers(1, 9), st.integers(0, 5), min_size=1, max_size=3))
def test_card_counts_change_only_the_values_they_name(preset, counts):
    base = Rules.preset(preset)
    try:
        r = Rules.from_json({"preset": preset, "card_counts": {str(v): n for v, n in counts.items()}})
    except RulesError:
        return
    for k in range(KINDS - 1):
        assert r.valued[k] == counts.get(k + 1, base.valued[k])
    assert Rules.from_json(r.to_json()) == r


def test_a_partial_card_counts_keeps_the_other_values_of_its_preset():
    assert Rules.from_json({"preset": "advanced", "card_counts": {"5": 3}}).card_counts == {2: 12, 3: 4, 4: 3, 5: 3}
    assert Rules.from_json({"card_counts": {"2": 0, "6": 1}}).card_counts == {3: 4, 4: 3, 5: 2, 6: 1}
    variant = Rules.preset("base", card_counts={"1": 4, "2": 0})
    assert variant.replace(card_counts={"5": 3}).card_counts == {1: 4, 3: 4, 4: 3, 5: 3}  # a variant's own counts


def test_the_forms_show_every_count_of_a_partial_card_counts():
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets import Builder
    from guyenne_explore.widgets.variant_lab import VariantLab

    rules = {"preset": "advanced", "card_counts": {"5": 3}}
    data = Position.start(Rules.from_json(rules)).to_json()
    b = Builder()
    assert b.load_json(dict(data, rules=rules))
    assert b.parameters.widgets["card_counts"].value == "2:12 3:4 4:3 5:3"
    lab = VariantLab(Position.start(Rules.from_json(rules)))
    assert lab.editors["card_counts"].value == "2:12 3:4 4:3 5:3"
    assert lab.variant == Rules.from_json(rules)


# ---------------------------------------------------------------------- 6. a partial members
def test_a_partial_members_keeps_the_preset_members_of_the_side_it_does_not_name():
    # RULES.md 10: team3 is 2 for english and 1 for french "unless overridden"
    assert Rules.from_json({"preset": "team3", "members": {"french": 2}}).members == (2, 2)
    assert Rules.from_json({"preset": "team", "members": {"english": 1}}).members == (1, 2)
    assert Rules.from_json({"preset": "base", "members": {"english": 2}}).members == (2, 1)
    variant = Rules.preset("base", members={"english": 2, "french": 2})
    assert variant.replace(members={"french": 1}).members == (2, 1)  # a variant's own members


partial_rules = st.fixed_dictionaries({"preset": st.sampled_from(PRESETS)}, optional={
    "members": st.dictionaries(st.sampled_from(SIDES), st.integers(1, 2), max_size=2),
    "card_counts": st.dictionaries(st.sampled_from([str(v) for v in range(1, 10)]), st.integers(0, 5), max_size=3),
    "hand_size": st.integers(2, 8),
})


@settings(max_examples=100, deadline=None, database=None)
@given(partial_rules)
def test_partial_rules_json_reads_as_its_preset_with_what_it_names_and_round_trips(data):
    try:
        r = Rules.from_json(data)
    except RulesError:
        return
    base = Rules.preset(data["preset"])
    named = data.get("members", {})
    assert r.members == tuple(named.get(side, base.members[i]) for i, side in enumerate(SIDES))
    assert Rules.from_json(r.to_json()) == r
    assert Rules.from_json(json.loads(json.dumps(r.describe()))) == r
