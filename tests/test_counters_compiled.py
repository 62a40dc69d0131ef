"""The gauntlet's compiled counters are the Python counters, move for move, on replayed games (the tell reader's
through the cards the compiled loop remembers each side showed into its discard, as the public record does)."""

import pytest

from guyenne_explore.analysis.compiled import layout as kn
from guyenne_explore.analysis.compiled.encode import encode, shown_cards
from guyenne_explore.analysis.compiled.policy_codes import COUNTER, IDEAS
from guyenne_explore.analysis.compiled.rollout import traced
from guyenne_explore.analysis.policies.counters import COUNTERS
from guyenne_explore.analysis.policies.sides import compiled_sides
from guyenne_explore.analysis.policies.spec import PolicySpec
from guyenne_explore.engine import Position, PublicRecord
from guyenne_explore.engine.cards import KINDS, Cards
from guyenne_explore.engine.rules import Rules
from tests.replaying import replay_trace

RULES = ["base", "advanced", "classic2021", "expert", "team", "team3",
         {"preset": "advanced", "hero": False, "castles": 7},
         {"preset": "base", "card_counts": {"1": 6, "2": 0, "3": 6, "4": 0, "5": 0, "6": 3}, "hand_size": 7},
         {"preset": "advanced", "concede_as_decision": True}]


def replay(start: Position, names: tuple[str, str], seed: int, index: int) -> list[tuple[int, bool]]:
    """Replay compiled game ``index`` through the engine, checking every decision of each counter side against its
    Python twin; each checked decision's side and whether the counter's idea made it (a sure pick)."""
    rows, kinds, out = traced(start, seed, index, compiled_sides(names, start.rules))
    twins = [COUNTERS[n]() if n in IDEAS else None for n in names]
    checked = replay_trace(start, rows, kinds, out, lambda side: twins[side])
    ideas = [row[1] for row in rows if row[0] in (kn.OPEN_FIRST, kn.RESPOND_FIRST, kn.OPEN_SECOND, kn.RESPOND_SECOND)
             and twins[row[1]] is not None and (row[3], row[4]) == (0, 1)]
    return [(side, True) for side in ideas] + [(side, False) for side in checked]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("name", IDEAS)
def test_a_compiled_counter_plays_as_the_python_counter(name, rules):
    start = Position.start(Rules.from_json(rules))
    seen = [d for index in range(4) for names in ((name, "strong"), ("heuristic", name))
            for d in replay(start, names, 3, index)]
    assert sum(not idea for _, idea in seen) > 20  # decisions checked against the twin
    assert any(idea for _, idea in seen)  # and some were the counter's idea, not the heuristic's


def test_the_compiled_counters_are_the_ones_named_and_play_their_idea():
    assert set(IDEAS) <= set(COUNTERS)
    assert all(PolicySpec.parse(n).compiles for n in IDEAS)
    assert not any(PolicySpec.parse(n).compiles for n in COUNTERS if n not in IDEAS)
    side = COUNTERS["tell-reader"]().compiled()
    assert side.code == COUNTER and side.params[-1] == IDEAS.index("tell-reader")


def test_a_position_encoded_with_its_record_shows_the_cards_the_record_shows():
    """What a search's worlds and a game resumed from a history start from: the record's shown cards, kind by kind;
    a position alone shows none (``PublicRecord.assumed``)."""
    from guyenne_explore.engine import play_game
    from guyenne_explore.engine.view import fold_record
    from guyenne_explore.analysis.policies.heuristic import Heuristic

    game = play_game(Position.start(Rules.from_json("advanced")), 4, Heuristic())
    positions = game.positions()
    moves = [e.move for e in game.events]
    checked = 0
    for i in range(len(positions)):
        record = fold_record(positions[:i + 1], moves[:i])
        if positions[i].is_over or not any(record.shown_discard[s].size for s in (0, 1)):
            continue
        e = shown_cards(encode(positions[i]), record)
        assert not encode(positions[i]).scalars[kn.SHOWN:].any()
        for s in (0, 1):
            assert [int(e.scalars[kn.SHOWN + s * KINDS + j]) for j in range(len(e.kinds))] == [
                record.shown_discard[s][k] for k in e.kinds]
        checked += 1
    assert checked > 10


def test_a_record_that_does_not_fit_the_position_shows_nothing_as_the_engines_view_takes_it():
    start = Position.start(Rules.from_json("advanced"))  # nothing in either discard yet
    e = shown_cards(encode(start), PublicRecord(shown_discard=(Cards.parse("2 2"), Cards())))
    assert not e.scalars[kn.SHOWN:].any()
