"""Rule cases from the rulebook and hand-derived ones, each checked through the public engine API."""

from fractions import Fraction

import pytest

from guyenne_explore.engine import Cards, IllegalMove, Move, Position, PositionError, Rules, RulesError
from guyenne_explore.engine.flow import battle_winner
from guyenne_explore.engine.position import ENGLISH, FRENCH, NEUTRAL


def pos(**kw):
    """A base-rules position at open_first with a few fields changed (JSON form)."""
    data = {
        "rules": "base", "castles": ["neutral"] * 6, "round": 5, "first": "english", "to_play": "open_first",
        "sides": {
            "english": {"hand": list("H53222"), "deck": list("222222222"), "discard": list("3334445"),
                        "removed": [], "exhaustions": 1},
            "french": {"hand": list("H53222"), "deck": list("222222222"), "discard": list("3334445"),
                       "removed": [], "exhaustions": 1},
        },
    }
    for k, v in kw.items():
        data[k] = v
    return data


def test_opening_from_h53222_has_180_moves():
    p = Position.from_json(pos())
    assert len(p.legal_moves) == 180
    assert len(list(p.legal_moves)) == 180
    assert len({m for m in p.legal_moves}) == 180  # distinct


def test_why_not_names_the_rule():
    p = Position.from_json(pos())
    assert p.why_illegal("0:H53222") == "a side must keep one card for its second castle this round"
    assert "does not hold 55" in p.why_illegal("0:55")
    assert "no castle 9: castles are numbered 0 to 5" in p.why_illegal("9:2")
    assert "no castle 0: castles are numbered 1 to 6" in p.why_illegal("0:2", 1)  # as the table numbers them
    assert p.why_illegal("1:H5", 1) is None and p.parse_move("1:H5", 1) == p.parse_move("0:H5")
    assert p.parse_move("1:H5", 1).text(1) == "1:H5" and p.parse_move("1:H5", 1).text() == "0:H5"
    assert "at least one card" in p.why_illegal("0:-")
    assert p.why_illegal("0:H5") is None
    with pytest.raises(IllegalMove, match="keep one card"):
        p.apply("0:H53222")


def test_second_castle_must_differ():
    p = Position.from_json(pos()).apply("2:5").apply("H")
    assert p.to_play == "open_second"
    assert "must differ" in p.why_illegal("2:2")
    assert len(p.legal_moves) == 5 * len(list(Cards.parse("53222").sub_multisets(1, 5)))


def test_hero_overrides_and_ties():
    h, five, two = Cards.parse("H"), Cards.parse("55"), Cards.parse("2")
    assert battle_winner(NEUTRAL, h, five) == ENGLISH
    assert battle_winner(NEUTRAL, five, h) == FRENCH
    assert battle_winner(NEUTRAL, Cards.parse("H2"), Cards.parse("H55")) is None  # both heroes: tie
    assert battle_winner(NEUTRAL, Cards.parse("32"), Cards.parse("5")) is None
    assert battle_winner(NEUTRAL, two, Cards.parse("3")) == FRENCH


def _round(rules, castles, eng_x, fr_x, fr_y, eng_y, x=0, y=1):
    p = Position.from_json(pos(rules=rules, castles=castles))
    return p.apply(f"{x}:{eng_x}").apply(fr_x).apply(f"{y}:{fr_y}").apply(eng_y)


def test_defender_holds_on_tie():
    p = _round("base", ["english"] + ["neutral"] * 5, "3", "3", "2", "2")
    assert p.castles[0] == ENGLISH and p.castles[1] == NEUTRAL  # tie at a neutral castle stays neutral


def test_advanced_attacker_removes_strongest_win_or_lose():
    # french attacks english castle 0 with 5+2 against a 3: wins, removes its 5
    p = _round("advanced", ["english"] + ["neutral"] * 5, "3", "52", "2", "H")
    assert p.castles[0] == FRENCH
    assert p.sides[FRENCH].removed == Cards.parse("5")
    # the hero attacking and losing nothing: english hero at neutral castle 1 wins; french loser chooses
    assert p.to_play == "remove_choice"
    assert [m.text() for m in p.legal_moves] == ["2"]


def test_advanced_attacker_removes_even_when_losing():
    p = _round("advanced", ["english"] + ["neutral"] * 5, "5", "2", "3", "2")
    assert p.castles[0] == ENGLISH
    assert p.sides[FRENCH].removed == Cards.parse("2")


def test_classic2021_removes_only_on_conquest():
    lost = _round("classic2021", ["english"] + ["neutral"] * 5, "5", "2", "3", "2")
    assert lost.sides[FRENCH].removed.size == 0
    won = _round("classic2021", ["english"] + ["neutral"] * 5, "2", "H", "3", "2")
    assert won.castles[0] == FRENCH and won.sides[FRENCH].removed == Cards.parse("H")


def test_remove_choice_literal_reading():
    p = Position.from_json(pos(rules="advanced")).apply("0:522").apply("H").apply("1:2").apply("3")
    assert p.to_play == "remove_choice"
    assert sorted(m.text() for m in p.legal_moves) == ["5", "52", "522"]
    assert "add up to at least" in p.why_illegal("22")
    assert "strongest placed" in p.why_illegal("2")


def test_base_removes_nothing():
    p = _round("base", ["english"] + ["neutral"] * 5, "3", "52", "2", "H")
    assert p.sides[0].removed.size == 0 and p.sides[1].removed.size == 0
    assert p.to_play == "draw"


def test_concede_as_decision():
    rules = {"preset": "base", "concede_as_decision": True}
    p = _round(rules, ["english"] + ["neutral"] * 5, "5", "2", "3", "2")
    assert p.to_play == "concede_choice" and p.side_to_play == ENGLISH
    held = p.apply("reveal")
    conceded = p.apply("concede")
    assert conceded.castles[0] == FRENCH and held.castles[0] == ENGLISH


def test_scoring_example_2021_and_2022():
    castles = ["english", "english", "french", "french", "french", "english"]
    sides = {
        "english": {"hand": [], "deck": ["2"], "discard": list("22222222222") + list("3333444") + ["5", "5", "H"],
                    "removed": [], "exhaustions": 2},
        "french": {"hand": ["2"], "deck": [], "discard": list("22222222222") + list("3333444") + ["5", "5", "H"],
                   "removed": [], "exhaustions": 2},
    }
    for rules, expected in (("classic2021", (6, 7, "french")), ("base", (5, 6, "french"))):
        p = Position.from_json({"rules": rules, "castles": castles, "round": 9, "first": "english",
                                "to_play": "end", "sides": sides})
        r = p.result()
        assert (r.english, r.french, r.winner) == expected


def test_all_six_ends_with_12():
    castles = ["english"] * 5 + ["neutral"]
    p = _round("base", castles, "3", "2", "2", "H", x=4, y=5)
    assert p.is_over and p.result().english == 12 and p.result().french == 0


def test_tie_break_unspent_cards():
    full = Rules.preset("base").card_set
    sides = {"english": {"hand": ["2"], "discard": (full - Cards.parse("2")).symbols(), "exhaustions": 2},
             "french": {"hand": [], "discard": full.symbols(), "exhaustions": 2}}
    p = Position.from_json({"rules": "base", "castles": ["english", "french"] + ["neutral"] * 4, "round": 9,
                            "first": "english", "to_play": "end", "sides": sides})
    assert p.result().winner == "english"


def test_ring_adjacency():
    castles = ["english", "french", "french", "neutral", "neutral", "english"]
    # a finished game: each side is down to one card in hand
    sides = {s: {"hand": ["2"], "deck": [], "discard": list("22222222222") + list("3333444") + ["5", "5", "H"],
                 "removed": [], "exhaustions": 2} for s in ("english", "french")}
    line = Position.from_json({"rules": "base", "castles": castles, "round": 9, "first": "english",
                               "to_play": "end", "sides": sides})
    ring = Position.from_json({"rules": {"preset": "base", "adjacency": "ring"}, "castles": castles,
                               "round": 9, "first": "english", "to_play": "end", "sides": sides})
    assert line.result().english == 2 and ring.result().english == 4


def _draw_position(rules, deck, discard, hand, exhaustions):
    total = Cards.parse(hand) + Cards.parse(deck) + Cards.parse(discard)
    rest = (Rules.from_json(rules).card_set - total).symbols()
    side = {"hand": list(hand), "deck": list(deck), "discard": list(discard), "removed": rest,
            "exhaustions": exhaustions}
    return Position.from_json({"rules": rules, "castles": ["neutral"] * 6, "round": 3, "first": "english",
                               "to_play": "draw", "sides": {"english": side, "french": dict(side)}})


def test_draw_probabilities_are_hypergeometric_and_sum_to_one():
    p = _draw_position("base", "5322", "", "H2", 0)
    outs = p.chance_outcomes()
    assert sum(pr for _, pr in outs) == 1
    # english draws 4 of 5322: everything; total outcomes 1 per side
    assert len(outs) == 1
    p = _draw_position("base", "53222", "", "H", 0)  # draws 5 of 5: the deck empties -> exhaustion
    after = p.apply_outcome(p.chance_outcomes()[0][0])
    assert after.sides[0].exhaustions == 1 and after.sides[0].deck.size == 0


def test_reshuffle_on_draw_and_immediate():
    base = _draw_position("base", "532", "4444"[:3], "H2", 0)  # needs 4: takes 532, reshuffles, draws 1 of 444
    outs = base.chance_outcomes()
    p = base.apply_outcome(outs[0][0])
    assert p.sides[0].exhaustions == 1 and p.sides[0].deck == Cards.parse("44")
    exact = _draw_position("base", "5322", "444", "H2", 0)  # takes the deck exactly
    on_draw = exact.apply_outcome(exact.chance_outcomes()[0][0])
    assert on_draw.sides[0].deck.size == 0 and on_draw.sides[0].discard == Cards.parse("444")
    imm = _draw_position({"preset": "base", "reshuffle": "immediate"}, "5322", "444", "H2", 0)
    p = imm.apply_outcome(imm.chance_outcomes()[0][0])
    assert p.sides[0].deck == Cards.parse("444") and p.sides[0].discard.size == 0


def test_no_reshuffle_after_l_exhaustions_and_short_hand_ends():
    p = _draw_position("base", "", "4443", "2", 2)
    end = p.apply_outcome(p.chance_outcomes()[0][0])
    assert end.is_over  # one card in hand after the L-th exhaustion: the game ends


def test_expert_limit_is_three():
    p = _draw_position("expert", "", "4443", "2", 2)
    q = p.apply_outcome(p.chance_outcomes()[0][0])
    assert not q.is_over and q.sides[0].exhaustions == 3


def test_stacked_deck_draws_in_order():
    side = {"hand": ["H"], "deck": list("2345") + ["2"] * 10 + list("33344"), "stacked": True, "discard": list("52"),
            "removed": [], "exhaustions": 0}
    other = {"hand": ["H"], "deck": list("222222222222") + list("3333444") + ["5", "5"], "discard": [],
             "removed": [], "exhaustions": 0}
    p = Position.from_json({"rules": "base", "castles": ["neutral"] * 6, "round": 1, "first": "english",
                            "to_play": "deal", "sides": {"english": side, "french": other}})
    outs = p.chance_outcomes()
    assert all(d.english == Cards.parse("23452") for d, _ in outs)


def test_setup_discard_expert():
    p = Position.start("expert")
    assert p.to_play == "setup_discard" and p.side_to_play == ENGLISH
    assert "hero" not in (p.why_illegal("22222") or "")
    p = p.apply("55443").apply("22222")
    assert p.to_play == "deal"
    assert p.sides[0].discard == Cards.parse("55443") and p.sides[0].deck.size == 16


def test_rules_variants_and_errors():
    r = Rules.preset("advanced", hand_size=7, card_counts={"2": 10, "3": 5, "4": 3, "5": 3})
    assert r.card_set.size == 22 and r.hand_size == 7
    with pytest.raises(RulesError, match="cannot be dealt"):
        Rules.preset("base", hand_size=12, card_counts={"2": 6, "3": 4, "4": 0, "5": 0})
    with pytest.raises(RulesError, match="hand size must be at most 12"):
        Rules.preset("base", hand_size=40)
    with pytest.raises(RulesError, match="unknown rules parameter"):
        Rules.from_json({"preset": "base", "hand_sise": 5})
    assert Rules.from_json(r.to_json()) == r


def test_bad_positions_name_every_problem():
    data = pos()
    data["sides"]["english"]["hand"] = list("H532222")
    data["sides"]["french"]["exhaustions"] = 5
    data["castles"][2] = "spanish"
    with pytest.raises(PositionError) as exc:
        Position.from_json(data)
    text = "\n".join(map(str, exc.value.problems))
    assert "castle 2 is 'spanish'" in text
    with pytest.raises(PositionError) as exc:
        Position.from_json(dict(pos(), castles=["neutral"] * 6, sides={
            "english": dict(pos()["sides"]["english"], hand=list("H532222")),
            "french": dict(pos()["sides"]["french"], exhaustions=5)}))
    text = "\n".join(map(str, exc.value.problems))
    assert "the English hold 7 cards in hand" in text and "the French have exhausted their deck 5 times" in text and "too many" in text
    with pytest.raises(PositionError, match="not valid JSON"):
        Position.from_json("{nope")


def test_game_over_claims_are_errors():
    data = pos()
    data["sides"]["english"]["hand"] = ["H"]
    data["sides"]["english"]["discard"] += list("53222")
    with pytest.raises(PositionError, match="already over"):
        Position.from_json(data)


def test_short_hand_warning():
    data = pos()
    data["sides"]["english"]["hand"] = list("H532")
    data["sides"]["english"]["discard"] += ["2", "2"]
    assert any("would have drawn" in str(w) for w in Position.from_json(data).warnings())


def test_json_and_notation_round_trip():
    p = Position.from_json(pos(rules="advanced")).apply("0:522").apply("H").apply("1:2")
    assert Position.from_json(p.to_json()) == p
    assert Position.from_notation(p.notation()) == p
    assert Fraction(1) == sum(pr for _, pr in Position.start("base").chance_outcomes())


def test_view_hides_opponent():
    p = Position.from_json(pos()).apply("0:H5")
    v = p.view("french")
    assert v.opponent_placed == (None, None) and v.opponent_placed_sizes == (2, 0)
    assert v.opponent.unseen.size == 22  # face-down H5 included
    assert len(v.legal_moves) > 0 and len(p.view("english").legal_moves) == 0
    with pytest.raises(AttributeError):
        v.position  # noqa: B018  (no public door to the whole position)
    assert Move(cards=Cards.parse("H")) in p.legal_moves


def test_the_rulebooks_scoring_example_castle_by_castle():
    """RULES.md 6's worked check, E E F F F E with the english 1 unspent card and the french 1: classic2021
    gives english 3 + 2 + 1 = 6 and french 3 + 3 + 1 = 7; the 2022 scoring english 2·2 + 1 = 5, french 2·3 = 6."""
    from guyenne_explore.engine.scoring import LONGEST_RUN, RUN, UNSPENT, score_terms

    table = ["english", "english", "french", "french", "french", "english"]
    data = pos(rules="classic2021", castles=table)
    rest = list("H554443333222222222222")[:-1]  # a side's 22 cards, but one 2 that stays unspent
    data["sides"]["english"].update(hand=[], deck=["2"], discard=rest, exhaustions=1)
    data["sides"]["french"].update(hand=["2"], deck=[], discard=rest, exhaustions=1)
    data["to_play"] = "end"
    p = Position.from_json(data)
    terms = {side: [(t.kind, t.castles, t.points) for t in score_terms(p, side)] for side in (ENGLISH, FRENCH)}
    assert terms[ENGLISH] == [(RUN, (0, 1), 2), (RUN, (5,), 1), (LONGEST_RUN, (0, 1), 2), (UNSPENT, (), 1)]
    assert terms[FRENCH] == [(RUN, (2, 3, 4), 3), (LONGEST_RUN, (2, 3, 4), 3), (UNSPENT, (), 1)]
    assert (p.result().english, p.result().french) == (6, 7)
    p2022 = Position.from_json(dict(data, rules="base"))
    assert [(t.castles, t.points) for t in score_terms(p2022, ENGLISH)] == [((0, 1), 4), ((5,), 1)]
    assert [(t.castles, t.points) for t in score_terms(p2022, FRENCH)] == [((2, 3, 4), 6)]


@pytest.mark.parametrize("scoring", ["2022", "2021"])
@pytest.mark.parametrize("adjacency", ["line", "ring"])
def test_a_score_is_the_sum_of_its_terms_on_every_table(scoring, adjacency):
    """Every table of 2 to 7 castles: each side's terms add up to its score, cover only castles it holds (a
    run's castles adjacent in the table's order, a ring's through its ends), and no castle twice in runs."""
    from itertools import product

    from guyenne_explore.engine.scoring import RUN, SWEEP, result, score_terms
    from guyenne_explore.engine.state import evolve

    for n in range(2, 8):
        rules = Rules.preset("base").replace(castles=n, scoring=scoring, adjacency=adjacency)
        start = Position.start(rules)
        for table in product((NEUTRAL, ENGLISH, FRENCH), repeat=n):
            p = evolve(start, castles=table)
            r = result(p)
            for side, score in ((ENGLISH, r.english), (FRENCH, r.french)):
                terms = score_terms(p, side)
                assert sum(t.points for t in terms) == score, (table, side, terms)
                if terms and terms[0].kind == SWEEP:
                    continue
                held = [c for t in terms if t.kind == RUN for c in t.castles]
                assert sorted(held) == [i for i, c in enumerate(table) if c == side]
                for t in terms:
                    steps = {(b - a) % n for a, b in zip(t.castles, t.castles[1:])}
                    assert steps <= {1}, (table, t)


def test_an_answer_typed_with_its_castle_reads_as_its_cards_and_another_castle_says_to_type_them_alone():
    """At an answer the castle is set: a person who types it too ("5:2" at castle 5) plays the cards; another castle is
    refused, saying to type the cards alone (the castle typed was refused even when it was the right one)."""
    import random

    rng, p = random.Random(0), Position.start("advanced")
    while p.is_chance:
        p = p.apply_outcome(p.sample_outcome(rng))
    p = p.apply(next(m for m in p.legal_moves if m.castle == 4))
    assert p.to_play == "respond_first" and p.placed.x == 4
    assert p.parse_move("5:2", 1) == p.parse_move("2") == p.parse_move("4:2")
    assert p.why_illegal("3:2", 1) == ("at the answer at the first castle (X) no castle is chosen: the castle is already "
                                       "set; type the cards alone, like '2'")
