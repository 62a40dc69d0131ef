"""The rules parameters as data (engine/parameters.py): every Parameter round-trips through JSON, the rules
editor, the variant lab and the balance space, and when it says a change takes effect on a game under way is
what the engine does (Position.under, then the same moves and draws under both rule sets)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from guyenne_explore.analysis.studies.balance import Space
from guyenne_explore.analysis.studies.variants import SWEEPABLE
from guyenne_explore.analysis.studies.variants import swept_value, vary
from guyenne_explore.engine import (CHOICE, COUNTS, FLAG, NUMBER, PARAMETERS, PARAMETERS_BY_NAME, PLACEMENTS, Parameter,
                                    Position, PositionError, Rules, RulesError, When)

pytest.importorskip("ipywidgets")
from guyenne_explore.widgets.rules_editor import RulesEditor  # noqa: E402
from guyenne_explore.widgets.variant_lab import VariantLab  # noqa: E402

PRESETS_TRIED = ("base", "advanced", "expert", "team3", "classic2021")
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def values(parameter: Parameter) -> st.SearchStrategy[Any]:
    """Any value of ``parameter`` as its JSON says it (card counts: of the base game's values, small enough to deal)."""
    if parameter.kind == NUMBER:
        assert parameter.bounds is not None
        return st.integers(*parameter.bounds)
    if parameter.kind == CHOICE:
        return st.sampled_from(parameter.choices)
    if parameter.kind == FLAG:
        return st.booleans()
    assert parameter.kind == COUNTS and parameter.bounds is not None
    if parameter.choices:  # counts by named keys: the players per side
        return st.fixed_dictionaries({key: st.integers(*parameter.bounds) for key in parameter.choices})
    return st.fixed_dictionaries({"2": st.integers(1, 8), "3": st.integers(0, 5), "4": st.integers(0, 4),
                                  "5": st.integers(0, 3)})


@st.composite
def variants(draw: st.DrawFn) -> tuple[Rules, Parameter, Any, Rules]:
    """A preset, one parameter, a value of it and the preset with that value (one the engine accepts)."""
    preset = Rules.preset(draw(st.sampled_from(PRESETS_TRIED)))
    parameter = draw(st.sampled_from(PARAMETERS))
    value = draw(values(parameter))
    try:
        rules = preset.replace(**{parameter.name: value})
    except RulesError:
        assume(False)
    return preset, parameter, value, rules


def test_every_rules_field_has_one_parameter_in_the_order_of_rules_md_10():
    named = ["removal", "scoring", "exhaustion_limit", "reshuffle", "adjacency", "card_counts", "hero", "hand_size",
             "castles", "max_at_castle", "pre_discard", "first_side", "concede_as_decision", "members"]
    assert [p.name for p in PARAMETERS] == named
    assert [k for k in Rules.preset("base").describe() if k != "preset"] == named
    assert {p.attribute for p in PARAMETERS} == set(Rules.__dataclass_fields__) - {"preset_name"}


def test_a_parameter_the_rules_could_not_check_is_refused_where_it_is_written():
    with pytest.raises(ValueError, match="a number parameter needs its bounds"):
        Parameter("tempo", NUMBER, "tempo", When.NOW)
    with pytest.raises(ValueError, match="a choice parameter needs its choices"):
        Parameter("tempo", CHOICE, "tempo", When.NOW)
    with pytest.raises(ValueError, match="kind 'speed' is not one of number, choice, flag, counts"):
        Parameter("tempo", "speed", "tempo", When.NOW)


@pytest.mark.parametrize("parameter", PARAMETERS, ids=lambda p: p.name)
def test_the_rules_refuse_exactly_what_a_parameter_does_not_take(parameter):
    # the validation reads its bounds and choices from the Parameter: just outside them is refused, naming the field
    outside = {NUMBER: lambda b, _c: [b[0] - 1, b[1] + 1], CHOICE: lambda _b, c: ["both", None, 2023],
               FLAG: lambda _b, _c: [1, "yes"],
               COUNTS: lambda b, c: [{key: b[1] + 1} for key in c] if c else [{"2": b[1] + 1}, {"3": -1}]}
    for value in outside[parameter.kind](parameter.bounds, parameter.choices):
        with pytest.raises(RulesError) as refused:
            Rules.preset("base").replace(**{parameter.name: value})
        assert all(x.field.startswith(f"rules.{parameter.name}") for x in refused.value.problems), value
    if parameter.kind == NUMBER:  # and the lowest and highest values are no problem of the parameter itself
        assert parameter.bounds is not None
        for value in parameter.bounds:
            try:
                Rules.preset("base").replace(**{parameter.name: value})
            except RulesError as exc:  # only how it fits the other parameters (a hand the cards cannot deal)
                assert not any(x.code.startswith("value.") for x in exc.problems), value


@SLOW
@given(variants())
def test_every_parameter_round_trips_through_json(case):
    preset, parameter, value, rules = case
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert rules.describe()[parameter.name] == (value if parameter.kind != COUNTS or parameter.choices
                                                else {**preset.describe()["card_counts"], **value})


EDITOR = RulesEditor(lambda: None)


@SLOW
@given(variants())
def test_every_parameter_round_trips_through_the_rules_editor(case):
    _preset, _parameter, _value, rules = case
    assert EDITOR.set(rules.describe()) == []
    read, problems = EDITOR.read(Rules.preset(rules.preset_name))
    assert problems == [] and Rules.from_json({"preset": rules.preset_name, **read}) == rules


LAB = VariantLab(Position.start("base"))


@settings(SLOW, max_examples=40)
@given(variants())
def test_every_parameter_changed_in_the_variant_lab_makes_its_variant(case):
    preset, parameter, _value, rules = case
    LAB.load_rules(preset)
    assert LAB.variant == preset
    LAB.rules_editor.set({parameter.name: rules.describe()[parameter.name]})  # a person changes that one field
    assert LAB.variant == rules and not LAB.rules_problems.value


def test_the_sweep_and_the_balance_space_vary_every_parameter_but_the_players():
    swept = {"card_counts" if key.startswith("count:") else key for key in SWEEPABLE}
    assert swept == {p.name for p in PARAMETERS} - {"members"}
    for key, choices in SWEEPABLE.items():
        parameter = PARAMETERS_BY_NAME["card_counts" if key.startswith("count:") else key]
        assert (choices is None) == (parameter.kind in (NUMBER, COUNTS))
        assert choices is None or choices == (parameter.choices or (True, False))


@SLOW
@given(st.sampled_from(PRESETS_TRIED), st.sampled_from(list(SWEEPABLE)), st.data())
def test_every_swept_parameter_round_trips_through_the_balance_space(preset_name, key, data):
    preset = Rules.preset(preset_name)
    parameter = PARAMETERS_BY_NAME["card_counts" if key.startswith("count:") else key]
    value = data.draw(values(parameter) if parameter.kind != COUNTS else st.integers(*parameter.bounds))
    try:
        rules = vary(preset, key, value)
    except RulesError:
        assume(False)
    text = f"{key}={value}:{value}" if SWEEPABLE[key] is None else f"{key}={value}"
    space = Space.parse(preset, [text])
    assert space.rules({key: value}) == rules and swept_value(rules, key) == value
    assert space.own(key) == swept_value(preset, key)


# ---------------------------------------------------------------- when a change takes effect on a game under way
#: How far into a game a difference between two rule sets first shows, from a position under way: in this round
#: (a decision, its moves, the table after one), from the next draw on (its outcomes or anything after), only in
#: the final score, or never.
THIS_ROUND, FROM_THE_DRAW, SCORE, NEVER = 0, 1, 2, 3
#: The earliest a change may show, by when its Parameter says it takes effect.
EARLIEST = {When.NOW: THIS_ROUND, When.NEXT_DRAW: FROM_THE_DRAW, When.AT_SCORING: SCORE, When.PAST: NEVER}


def table(p: Position) -> dict[str, Any]:
    """What a position holds but its rules."""
    return {k: v for k, v in p.to_json().items() if k != "rules"}


def first_difference(p: Position, q: Position, seed: int) -> int:
    """Where the game from ``p`` and from ``q`` (the same table under other rules) first differ, playing the
    same seeded uniform moves and draws in both."""
    rng = random.Random(seed)
    stage = THIS_ROUND
    while True:
        if table(p) != table(q):
            return stage
        if p.is_over:
            return SCORE if p.result() != q.result() else NEVER
        if p.is_chance:
            stage = FROM_THE_DRAW
            if p.chance_outcomes() != q.chance_outcomes():
                return stage
            outcome = p.sample_outcome(rng)
            p, q = p.apply_outcome(outcome), q.apply_outcome(outcome)
        else:
            moves = [m.text() for m in p.legal_moves]
            if moves != [m.text() for m in q.legal_moves]:
                return stage
            move = list(p.legal_moves)[rng.randrange(len(moves))]
            p, q = p.apply(move), q.apply(move)


def under_way(rules: Rules, seed: int, steps: int) -> Position:
    """A game under ``rules`` dealt, its setup done, and played ``steps`` seeded uniform moves and draws on from its
    first placement (fewer if it ends)."""
    rng = random.Random(seed)
    p = Position.start(rules)

    def step(p: Position) -> Position:
        return p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(
            list(p.legal_moves)[rng.randrange(len(p.legal_moves))])

    while p.to_play not in PLACEMENTS:
        p = step(p)
    for _ in range(steps):
        if p.is_over:
            break
        p = step(p)
    return p


@pytest.mark.parametrize("parameter", PARAMETERS, ids=lambda p: p.name)
@settings(SLOW, max_examples=30)
@given(st.sampled_from(PRESETS_TRIED), st.data(), st.integers(0, 10**6), st.integers(0, 30))
def test_a_change_on_a_game_under_way_shows_no_earlier_than_its_parameter_says(parameter, preset_name, data, seed,
                                                                                steps):
    preset = Rules.preset(preset_name)
    value = data.draw(values(parameter).filter(lambda v: v != preset.describe()[parameter.name]))
    try:
        rules = preset.replace(**{parameter.name: value})
    except RulesError:
        assume(False)
    p = under_way(preset, seed, steps)
    assume(not p.is_over)
    if parameter.takes_effect == When.REFUSED:  # set at the setup: the engine refuses it, naming the parameter
        with pytest.raises(PositionError) as refused:
            p.under(rules)
        assert [x.field for x in refused.value.problems] == [f"rules.{parameter.name}"]
        return
    try:
        q = p.under(rules)
    except PositionError as exc:  # the table does not fit the rules (six cards in hand under a hand size of 4)
        assert all(x.code != "rules.set_up" for x in exc.problems)
        return
    assert table(q) == table(p) and q.rules == rules
    assert first_difference(p, q, seed) >= EARLIEST[parameter.takes_effect]


def _alternatives(parameter: Parameter, own: Any) -> list[Any]:
    """The values of a parameter next to ``own``: every other choice, or a number one above and below."""
    if parameter.kind == NUMBER:
        return [own + 1, own - 1]
    return [v for v in (parameter.choices if parameter.kind == CHOICE else (True, False)) if v != own]


@pytest.mark.parametrize("parameter", [p for p in PARAMETERS if p.takes_effect in (When.NOW, When.NEXT_DRAW,
                                                                                     When.AT_SCORING)],
                         ids=lambda p: p.name)
def test_a_change_on_a_game_under_way_shows_when_its_parameter_says(parameter):
    # and not later: some game under way shows it exactly then (a witness among a few seeded games)
    preset = Rules.preset("advanced")
    want = EARLIEST[parameter.takes_effect]
    seen = set()
    for seed in range(60):
        p = under_way(preset, seed, 3 + seed % 25)
        for value in _alternatives(parameter, preset.describe()[parameter.name]):
            try:
                q = p.under(preset.replace(**{parameter.name: value}))
            except (RulesError, PositionError):
                continue
            seen.add(first_difference(p, q, seed))
            if want in seen:
                return
    pytest.fail(f"{parameter.name} ({parameter.takes_effect}) never showed at stage {want}: only {sorted(seen)}")
