"""Tests of the SVG diagrams (guyenne_explore.render)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.render import Diagram, diagram, position_svg
from guyenne_explore.engine.view import revealed

NS = "{http://www.w3.org/2000/svg}"
PRESETS = ("base", "advanced", "expert", "team", "team3", "classic2021")


def walk(preset: str, seed: int) -> list[Position]:
    """Every position of one random game."""
    rng = random.Random(seed)
    p = Position.start(preset)
    out = [p]
    while not p.is_over:
        if p.is_chance:
            p = p.apply_outcome(p.sample_outcome(rng))
        else:
            p = p.apply(rng.choice(list(p.legal_moves)))
        out.append(p)
    return out


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + "g") if cls in (e.get("class") or "").split()]


def faces(el: ET.Element) -> list[str]:
    """The values of the face-up cards drawn, a card that stands for several (``data-count``) counted as many."""
    return sorted(e.get("data-card") for e in groups(el, "face") for _ in range(int(e.get("data-count", 1))))


def after_deal(preset: str = "advanced", seed: int = 0) -> Position:
    p = Position.start(preset)
    rng = random.Random(seed)
    while p.is_chance or p.to_play in ("setup_discard", "team_split", "team_order"):
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else p.apply(rng.choice(list(p.legal_moves)))
    return p


@pytest.mark.parametrize("preset", PRESETS)
def test_well_formed_for_random_positions(preset):
    rng = random.Random(preset)
    for seed in range(3):
        for p in walk(preset, seed):
            moves = [] if p.is_chance or p.is_over else list(p.legal_moves)
            move = rng.choice(moves) if moves else None
            for show in (True, False):
                root = parse(position_svg(p, show_hands=show, highlight_move=move, caption=f"{preset} <{seed}> & co"))
                assert len(groups(root, "castle")) == p.rules.castles
                assert "<image" not in ET.tostring(root, encoding="unicode")


def test_counts_and_castles():
    p = after_deal("advanced")
    root = parse(position_svg(p, caption="counts"))
    text = " ".join(t.text or "" for t in root.iter(NS + "text"))
    for side, name in ((0, "english"), (1, "french")):
        s = p.sides[side]
        [area] = [g for g in groups(root, "side") if g.get("data-side") == name]
        [hand] = groups(area, "hand")
        assert int(hand.get("data-count")) == s.hand.size
        assert sorted(faces(hand)) == sorted(s.hand.symbols())
        assert f"deck {s.deck.size}" in text
        assert f"discard {s.discard.size}" in text
    controls = [g.get("data-control") for g in groups(root, "castle")]
    assert controls == [p.control(i) for i in range(p.rules.castles)]
    assert len(groups(root, "first-player")) == 1


def test_hidden_hands_show_no_card_values():
    p = after_deal("advanced", seed=3)
    root = parse(position_svg(p, show_hands=False))
    assert faces(root) == []
    for g in groups(root, "hand"):
        assert len(groups(g, "back")) == int(g.get("data-count")) > 0
    shown = parse(position_svg(p, show_hands=True))
    assert len(faces(shown)) == p.sides[0].hand.size + p.sides[1].hand.size


@pytest.mark.parametrize("preset", ("advanced", "team", "classic2021"))
def test_faces_are_exactly_the_public_cards(preset):
    for seed in range(4):
        for p in walk(preset, seed):
            root = parse(position_svg(p, show_hands=False))
            expected = p.sides[0].removed.symbols() + p.sides[1].removed.symbols()
            for b in (0, 1):
                for side in (0, 1):
                    if revealed(p, b, 1 - side):
                        expected += p.placed.at(side, b).symbols()
            assert faces(root) == sorted(expected)
            for g in groups(root, "hand"):
                assert faces(g) == []


def test_revealed_cards_are_shown():
    found = 0
    for seed in range(10):
        for p in walk("advanced", seed):
            for b in (0, 1):
                for side, name in ((0, "english"), (1, "french")):
                    cards = p.placed.at(side, b)
                    if not cards.size:
                        continue
                    root = parse(position_svg(p, show_hands=False))
                    [g] = [e for e in groups(root, "placed")
                           if e.get("data-side") == name and e.get("data-battle") == "XY"[b]]
                    assert int(g.get("data-count")) == cards.size
                    if revealed(p, b, 1 - side):
                        found += 1
                        assert faces(g) == sorted(cards.symbols())
                    else:
                        assert faces(g) == [] and len(groups(g, "back")) == cards.size
    assert found > 0


def test_attack_portrait_defence_landscape():
    for p in walk("advanced", 5):
        root = parse(position_svg(p))
        for g in groups(root, "placed"):
            rect = next(g.iter(NS + "rect"))
            w, h = float(rect.get("width")), float(rect.get("height"))
            assert (w > h) == (g.get("data-role") == "defence")


def test_team_hands_drawn_separately():
    p = after_deal("team")
    root = parse(position_svg(p))
    for name in ("english", "french"):
        [area] = [g for g in groups(root, "side") if g.get("data-side") == name]
        assert len(groups(area, "hand")) == 2


def test_score_when_over_and_escaped_caption():
    p = walk("base", 2)[-1]
    assert p.is_over
    svg = position_svg(p, caption='a <b> & "c"', width=360)
    root = parse(svg)
    assert root.get("width") == "360"
    [cap] = [t for t in root.iter(NS + "text") if t.get("class") == "caption"]
    assert cap.text == 'a <b> & "c"'
    r = p.result()
    score = " ".join(t.text or "" for g in groups(root, "score") for t in g.iter(NS + "text"))
    assert f"English {r.english}" in score and f"{r.french} French" in score
    assert 'font-family="sans-serif"' in svg


def test_highlight_move_marks_castle():
    p = after_deal("advanced")
    move = next(m for m in p.legal_moves if m.castle is not None)
    root = parse(position_svg(p, highlight_move=move))
    [castle] = [g for g in groups(root, "castle") if g.get("data-castle") == str(move.castle)]
    assert any(r.get("stroke-dasharray") for r in castle.iter(NS + "rect"))


def test_diagram_object(tmp_path):
    p = after_deal("base")
    d = diagram(p, caption="x")
    assert isinstance(d, Diagram)
    assert d.svg == d._repr_svg_() == position_svg(p, caption="x")
    d.save(tmp_path / "a.svg")
    parse((tmp_path / "a.svg").read_text(encoding="utf-8"))
    with pytest.raises(ValueError):
        d.save(tmp_path / "a.gif")
    d.save(tmp_path / "a.png")
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"


def test_position_repr_svg_uses_renderer():
    p = after_deal("base")
    parse(p._repr_svg_())


def test_roles_follow_control_at_the_start_of_the_round():
    """At a remove_choice the pending castle was neutral: both sides attacked it, even though it now has a winner."""
    import pathlib
    import re

    from guyenne_explore.engine import Position
    from guyenne_explore.render.svg import position_svg

    p = Position.from_json((pathlib.Path(__file__).parent / "positions" / "advanced-remove-choice.json").read_text())
    svg = position_svg(p)
    roles = re.findall(r'data-role="(\w+)"', svg)
    assert roles and "defence" not in roles


@pytest.mark.parametrize("preset", ("advanced", "team"))
def test_castles_and_stacks_are_addressable(preset):
    """Interactive views find castles by data-castle and stacks by data-side and data-zone."""
    for p in walk(preset, 1):
        if p.is_chance:
            continue
        root = parse(position_svg(p, show_hands=False))
        assert [g.get("data-castle") for g in groups(root, "castle")] == [str(i) for i in range(p.rules.castles)]
        zones: dict[tuple[str, str], list[ET.Element]] = {}
        for g in groups(root, "stack"):
            zones.setdefault((g.get("data-side"), g.get("data-zone")), []).append(g)
        for side, name in ((0, "english"), (1, "french")):
            s = p.sides[side]
            assert [int(g.get("data-count")) for g in zones[name, "hand"]] == [h.size for h in s.hands]
            for zone in ("deck", "discard", "removed"):
                [g] = zones[name, zone]
                assert int(g.get("data-count")) == getattr(s, zone).size
            for b in (0, 1):
                count = sum(int(g.get("data-count")) for g in zones.get((name, f"placed-{'XY'[b]}"), []))
                assert count == p.placed.at(side, b).size


# ---------------------------------------------------------------------- battle winners
def table(**changes) -> Position:
    """A base-rules position at open_first, six neutral castles, both sides holding H53222."""
    side = {"hand": list("H53222"), "deck": list("222222222"), "discard": list("3334445"), "removed": [],
            "exhaustions": 1}
    data = {"rules": "base", "castles": ["neutral"] * 6, "round": 5, "first": "english", "to_play": "open_first",
            "sides": {"english": dict(side), "french": dict(side)}}
    data.update(changes)
    return Position.from_json(data)


def winner_marks(p: Position, **options) -> dict[str, ET.Element]:
    root = parse(position_svg(p, show_winners=True, **options))
    out = {}
    for castle in groups(root, "castle"):
        for g in groups(castle, "winner"):
            out[castle.get("data-castle")] = g
    return out


def mark_text(g: ET.Element) -> str:
    return " ".join(t.text for t in g.iter(NS + "text"))


def test_hero_beats_sum_on_a_neutral_castle():
    p = table().apply("0:H").apply("532")
    [(castle, g)] = winner_marks(p).items()
    assert castle == "0" and g.get("data-battle") == "X"
    assert (g.get("data-winner"), g.get("data-holder"), g.get("data-pending")) == ("english", "english", "true")
    assert mark_text(g) == "English wins"
    assert winner_marks(p, show_hands=False) == {}
    assert winner_marks(table().apply("0:H")) == {}  # one side only: no battle yet


def test_tie_on_a_neutral_castle_stays_neutral():
    p = table().apply("0:52").apply("52")
    g = winner_marks(p)["0"]
    assert (g.get("data-winner"), g.get("data-holder")) == ("tie", "neutral")
    assert mark_text(g) == "tie stays neutral"


def test_defender_holds_a_tie():
    p = table(castles=["neutral", "neutral", "english", "neutral", "neutral", "neutral"], first="french")
    p = p.apply("2:53").apply("53")
    g = winner_marks(p)["2"]
    assert (g.get("data-winner"), g.get("data-holder")) == ("tie", "english")
    assert mark_text(g) == "tie English holds"


def test_pending_battle_at_remove_choice_is_marked_in_the_public_view():
    import pathlib

    p = Position.from_json((pathlib.Path(__file__).parent / "positions" / "advanced-remove-choice.json").read_text())
    marks = winner_marks(p, show_hands=False)
    g = marks[str(p.placed.x)]
    assert (g.get("data-winner"), g.get("data-pending")) == (p.control(p.placed.x), "false")
    assert str(p.placed.y) not in marks  # battle Y is not resolved yet


@pytest.mark.parametrize("preset", ("base", "advanced", "team", "classic2021"))
def test_winner_marks_agree_with_the_engine_and_hide_nothing_hidden(preset):
    """A pending mark predicts the control after the battle; the public view marks only resolved battles."""
    checked = 0
    for seed in range(6):
        game = walk(preset, seed)
        for p, after in zip(game, game[1:]):
            public = parse(position_svg(p, show_hands=False, show_winners=True))
            assert faces(public) == faces(parse(position_svg(p, show_hands=False)))
            for castle in groups(public, "castle"):
                for g in groups(castle, "winner"):
                    b = "XY".index(g.get("data-battle"))
                    assert revealed(p, b, 0) and revealed(p, b, 1)
                    assert g.get("data-holder") == p.control(int(castle.get("data-castle")))
            if p.to_play == "respond_second":  # battle X resolves with the next move
                g = winner_marks(p)[str(p.placed.x)]
                assert g.get("data-pending") == "true"
                assert g.get("data-holder") == after.control(p.placed.x)
                checked += 1
    assert checked > 0


# ---------------------------------------------------------------------- seating
def test_seating_shows_the_four_members_and_shared_zones():
    from guyenne_explore.render.seating import seating_svg

    p = after_deal("team", seed=2)
    d = seating_svg(p, caption="4 <players>")
    assert isinstance(d, Diagram)
    root = parse(d)
    seats = sorted((g.get("data-side"), g.get("data-member")) for g in groups(root, "seat"))
    assert seats == [("english", "0"), ("english", "1"), ("french", "0"), ("french", "1")]
    assert len(groups(root, "castle")) == p.rules.castles
    for side, name in ((0, "english"), (1, "french")):
        s = p.sides[side]
        [area] = [g for g in groups(root, "side") if g.get("data-side") == name]
        hands = groups(area, "hand")
        assert [faces(h) for h in hands] == [sorted(h.symbols()) for h in s.hands]
        zones = {g.get("data-zone"): int(g.get("data-count")) for g in groups(root, "stack")
                 if g.get("data-side") == name and g.get("data-zone") != "hand"}
        assert zones == {"deck": s.deck.size, "discard": s.discard.size, "removed": s.removed.size}
        badges = {" ".join(t.text for t in b.iter(NS + "text")) for b in groups(area, "drawer") + groups(area, "order")}
        assert "drawer" in badges and ("plays 1st" in badges) == (s.order is not None)
    [first] = groups(root, "first-player")
    assert first.get("data-side") == ("english" if p.first == 0 else "french")


def test_seating_hides_hands_and_handles_a_solo_side():
    from guyenne_explore.render.seating import seating_svg

    p = after_deal("team3", seed=1)
    root = parse(seating_svg(p, show_hands=False))
    assert faces(root) == sorted(p.sides[0].removed.symbols() + p.sides[1].removed.symbols())
    counts = sorted(len(groups(a, "seat")) for a in groups(root, "side"))
    assert counts == [1, 2]


def test_cli_diagram_winners_and_seating(tmp_path):
    import pathlib

    from guyenne_explore.cli import main

    src = pathlib.Path(__file__).parent / "positions" / "advanced-remove-choice.json"
    assert main(["diagram", str(src), "-o", str(tmp_path / "w.svg"), "--winners", "--hide-hands"]) == 0
    root = parse((tmp_path / "w.svg").read_text(encoding="utf-8"))
    assert [g.get("data-battle") for g in groups(root, "winner")] == ["X"]
    assert main(["diagram", str(src), "-o", str(tmp_path / "s.svg"), "--seating"]) == 0
    assert groups(parse((tmp_path / "s.svg").read_text(encoding="utf-8")), "seat")


# ---------------------------------------------------------------------- a player's view, piles, captions
def _side_area(root: ET.Element, name: str) -> ET.Element:
    [area] = [g for g in groups(root, "side") if g.get("data-side") == name]
    return area


@pytest.mark.parametrize("preset", ("advanced", "team"))
def test_a_viewer_sees_its_own_cards_and_only_backs_of_the_other_side(preset):
    checked = 0
    for seed in range(3):
        for p in walk(preset, seed):
            for viewer in (0, 1):
                root = parse(position_svg(p, show_hands=False, viewer=viewer))
                for side, name in ((0, "english"), (1, "french")):
                    s = p.sides[side]
                    area = _side_area(root, name)
                    hands = groups(area, "hand")
                    piles = {g.get("data-zone"): g for g in groups(area, "stack") if g.get("data-zone") != "hand"}
                    contents = {z: [c.get("data-cards") for c in groups(g, "contents")] for z, g in piles.items()}
                    if side == viewer:
                        assert [faces(h) for h in hands] == [sorted(h.symbols()) for h in s.hands]
                        assert contents["deck"] == ([str(s.deck)] if s.deck.size else [])
                        assert contents["discard"] == ([str(s.discard)] if s.discard.size else [])
                    else:
                        assert all(faces(h) == [] for h in hands)
                        assert [len(groups(h, "back")) for h in hands] == [h.size for h in s.hands]
                        assert contents == {"deck": [], "discard": []}
                    for b in (0, 1):
                        placed = [g for g in groups(root, "placed")
                                  if g.get("data-side") == name and g.get("data-battle") == "XY"[b]]
                        if placed:
                            shown = side == viewer or revealed(p, b, 1 - side)
                            assert faces(placed[0]) == (sorted(p.placed.at(side, b).symbols()) if shown else [])
                checked += 1
    assert checked > 50


def test_designer_view_counts_each_pile_by_value():
    p = walk("advanced", 4)[30]
    root = parse(position_svg(p))
    for side, name in ((0, "english"), (1, "french")):
        s = p.sides[side]
        area = _side_area(root, name)
        for zone, cards in (("deck", s.deck), ("discard", s.discard)):
            [pile] = [g for g in groups(area, "stack") if g.get("data-zone") == zone]
            lines = [t.text for t in pile.iter(NS + "text") if t.get("class") != "count"]
            counted = {}
            for line in lines:
                sym, _, n = line.partition(" ×")
                counted[sym] = int(n or 1)
            assert counted == {sym: cards.symbols().count(sym) for sym in set(cards.symbols())}


LONG_PILE, SHORT_PILE = list("55443222222222"), list("5432")


def _with_removed(preset: str, english: list[str], french: list[str]) -> Position:
    """The start of ``preset`` with these cards of each side's deck removed."""
    data = Position.start(preset).to_json()
    for name, gone in (("english", english), ("french", french)):
        side = data["sides"][name]
        deck = list(side["deck"])
        for card in gone:
            deck.remove(card)
        side["deck"], side["removed"] = deck, gone
    return Position.from_json(data)


@pytest.mark.parametrize("preset", ["advanced", "team"])
def test_a_long_removed_pile_is_counted_by_value_and_a_short_one_fanned(preset):
    """Fanned, the 14 removed cards of a long game left 8 px of each card and wrote their values at 7 px: past 10
    cards (a fan that leaves less than half of each card) the pile is drawn one card a value, with its count, in the
    table and in the team seating alike."""
    from guyenne_explore.render.seating import seating_svg

    p = _with_removed(preset, LONG_PILE, SHORT_PILE)
    root = parse(seating_svg(p) if preset == "team" else position_svg(p))
    for name, cards in (("english", LONG_PILE), ("french", SHORT_PILE)):
        [pile] = [g for g in groups(root, "stack") if g.get("data-zone") == "removed" and g.get("data-side") == name]
        drawn = groups(pile, "face")
        assert int(pile.get("data-count")) == len(cards) and faces(pile) == sorted(cards)
        if len(cards) > 10:
            assert [(g.get("data-card"), int(g.get("data-count", 1))) for g in drawn] == [
                ("5", 2), ("4", 2), ("3", 1), ("2", 9)]
            assert [t.text for g in drawn for t in g.iter(NS + "text")] == ["5", "×2", "4", "×2", "3", "2", "×9"]
        else:
            assert [g.get("data-card") for g in drawn] == cards and all(g.get("data-count") is None for g in drawn)


def test_teaching_table_shows_the_learners_cards_face_up():
    from guyenne_explore.widgets.teaching import TeachingGame

    for side, me, other in ((0, "english", "french"), (1, "french", "english")):
        game = TeachingGame("base", me, seed=2)
        root = parse(game.table.svg)
        mine = game.position.sides[side]
        hand = groups(_side_area(root, me), "hand")[0]
        assert faces(hand) == sorted(mine.hand.symbols())
        assert sorted(t.text for t in hand.iter(NS + "text")) == sorted(mine.hand.symbols())   # the values written
        theirs = groups(_side_area(root, other), "hand")[0]
        assert faces(theirs) == [] and len(groups(theirs, "back")) == game.position.sides[1 - side].hand.size
        # the learner's own placed cards stay face up after playing them
        move = next(iter(game.position.legal_moves))
        assert game.play(move.text(1))
        root = parse(game.table.svg)
        placed = [g for g in groups(root, "placed") if g.get("data-side") == me]
        if placed:
            assert faces(placed[0]) and not groups(placed[0], "back")
        game.reveal.value = True
        root = parse(game.table.svg)
        assert faces(groups(_side_area(root, other), "hand")[0]) == sorted(game.position.sides[1 - side].hand.symbols())


def _text_width(text: str, size: float, bold: bool) -> float:
    """The advance of ``text`` in the shipped DejaVu Sans (the font of PNGs and PDFs)."""
    from fontTools.ttLib import TTFont

    from guyenne_explore.render.export import FONTS

    font = TTFont(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"))
    cmap, hmtx = font.getBestCmap(), font["hmtx"]
    return sum(hmtx[cmap[ord(ch)]][0] for ch in text) * size / font["head"].unitsPerEm


LONG = ("An English castle: the French attack, the English defend; a tie goes to the defender, "
        "and in the advanced rules the attacker removes its strongest card whether it won, tied or lost")


@pytest.mark.parametrize("caption", [LONG, "A neutral castle: both sides attack; the stronger takes it, a tie leaves "
                                            "it neutral", "W" * 90, "short"])
def test_captions_are_wrapped_inside_the_view_box(caption):
    from guyenne_explore.render.seating import seating_svg

    for svg in (position_svg(after_deal("advanced"), caption=caption), str(seating_svg(after_deal("team"),
                                                                                       caption=caption))):
        root = parse(svg)
        width = float(root.get("viewBox").split()[2])
        lines = [t for t in root.iter(NS + "text") if t.get("class") == "caption"]
        assert "".join(t.text for t in lines).replace(" ", "") == caption.replace(" ", "")
        for t in lines:
            half = _text_width(t.text, float(t.get("font-size")), bold=True) / 2
            assert 0 <= float(t.get("x")) - half and float(t.get("x")) + half <= width, t.text
        ys = [float(t.get("y")) for t in lines]
        assert ys == sorted(ys) and len(set(ys)) == len(ys)
        info = [float(t.get("y")) for t in root.iter(NS + "text") if t.get("class") in ("info", "rule-text")]
        assert info and min(info) > max(ys) + 10       # the next line starts below the caption


def test_seating_removed_labels_keep_clear_of_the_team_areas():
    from guyenne_explore.render.seating import seating_svg

    for seed in range(3):
        root = parse(seating_svg(walk("team", seed)[-1]))
        areas = [next(g.iter(NS + "rect")) for g in groups(root, "side")]
        spans = [(float(r.get("y")), float(r.get("y")) + float(r.get("height"))) for r in areas]
        labels = [t for t in root.iter(NS + "text") if t.get("class") == "removed-label"]
        assert len(labels) == 2
        for t in labels:
            y, size = float(t.get("y")), float(t.get("font-size"))
            top, bottom = y - 0.8 * size, y + 0.25 * size        # the glyphs' box around the baseline
            for lo, hi in spans:
                assert bottom + 6 <= lo or top - 6 >= hi, (t.text, y, lo, hi)


def test_a_removal_move_is_outlined_among_the_placed_cards():
    checked = 0
    for seed in range(6):
        for p in walk("advanced", seed):
            if p.to_play != "remove_choice":
                continue
            side = "english" if p.side_to_play == 0 else "french"
            for move in p.legal_moves:
                root = parse(position_svg(p, highlight_move=move))
                [placed] = [g for g in groups(root, "placed")
                            if g.get("data-side") == side and g.get("data-battle") == "XY"[p.battle]]
                outlined = [e.get("data-card") for e in groups(placed, "face")
                            if next(e.iter(NS + "rect")).get("stroke") == "#c8960c"]
                assert sorted(outlined) == sorted(move.cards.symbols())
                assert all(next(e.iter(NS + "rect")).get("stroke") != "#c8960c"
                           for h in groups(root, "hand") for e in groups(h, "face"))
                checked += 1
    assert checked > 5


@pytest.mark.parametrize("preset", ["advanced", "team"])
def test_a_previewed_placement_is_drawn_at_its_castle_in_both_battles(preset):
    """Each placement previewed (both openings and both answers, so both battles of a round) draws the move's
    cards at the castle where the engine puts them, with that castle's X or Y badge; nothing else moves."""
    from guyenne_explore.engine.position import PLACEMENTS
    from guyenne_explore.engine.turn import battle_of

    rng = random.Random(preset)
    seen = set()
    for seed in range(2):
        for p in walk(preset, seed):
            if p.to_play not in PLACEMENTS:
                continue
            battle = battle_of(p.to_play)
            side = "english" if p.side_to_play == 0 else "french"
            moves = list(p.legal_moves)
            for move in rng.sample(moves, min(3, len(moves))):
                castle = move.castle if move.castle is not None else p.placed.castle(battle)
                if p.to_play != "respond_second":  # the last placement resolves at once: no position to compare
                    assert p.apply(move).placed.castle(battle) == castle
                    assert p.apply(move).placed.at(p.side_to_play, battle) == move.cards
                for viewer, face_up in ((None, True), (1 - p.side_to_play, False)):
                    root = parse(position_svg(p, highlight_move=move, show_hands=viewer is None, viewer=viewer))
                    [preview] = groups(root, "preview")
                    assert (preview.get("data-side"), preview.get("data-battle"), preview.get("data-placed-at")) == (
                        side, "XY"[battle], str(castle))
                    assert int(preview.get("data-count")) == move.cards.size
                    assert faces(preview) == (sorted(move.cards.symbols()) if face_up else [])
                    [badge] = [t.text for g in groups(root, "castle") if g.get("data-castle") == str(castle)
                               for t in g.iter(NS + "text") if t.get("class") == "battle"]
                    assert badge == "XY"[battle]
                    # the cards placed before stay where they were: at a last placement, both battles are drawn
                    placed = {(g.get("data-side"), g.get("data-battle")) for g in groups(root, "placed")}
                    assert placed == {("english" if s == 0 else "french", "XY"[b]) for s in (0, 1) for b in (0, 1)
                                      if p.placed.at(s, b).size}
                seen.add(p.to_play)
    assert seen == set(PLACEMENTS)
    assert not groups(parse(position_svg(after_deal(preset))), "preview")  # no move previewed, nothing drawn


def test_the_last_placement_previewed_shows_both_battles_outcomes_in_the_designers_view(load):
    """The last placement of a round previewed with the winners marked: battle X and battle Y both carry the outcome
    the engine gives when the cards are revealed (the second battle of a rulebook example was missing)."""
    from guyenne_explore.engine.flow import battle_winner
    from guyenne_explore.render.storyboard import all_placed

    p = load("advanced-respond-second.json")
    for move in p.legal_moves:
        revealed = all_placed(p, move)
        marks = winner_marks(p, highlight_move=move)
        assert set(marks) == {str(revealed.placed.x), str(revealed.placed.y)}
        for b in (0, 1):
            c = revealed.placed.castle(b)
            winner = battle_winner(revealed.castles[c], revealed.placed.at(0, b), revealed.placed.at(1, b))
            expected = {None: "tie", 0: "english", 1: "french"}[winner]
            assert marks[str(c)].get("data-winner") == expected and marks[str(c)].get("data-pending") == "true"


def test_castles_read_as_the_rulebook_numbers_them_while_data_castle_keeps_the_index():
    """A reader sees castles 1 to n (the rulebook's count) under each castle of the table and of the
    seating; ``data-castle``, which the page's clicks read, stays the 0-based index of the file format."""
    from guyenne_explore.render.seating import seating_svg

    for root in (parse(position_svg(after_deal("advanced"))), parse(str(seating_svg(after_deal("team"))))):
        castles = groups(root, "castle")
        assert [g.get("data-castle") for g in castles] == [str(i) for i in range(6)]
        labels = [[t.text for t in g.iter(NS + "text") if t.get("class") is None] for g in castles]
        assert labels == [[str(i + 1)] for i in range(6)]


def test_the_analysis_headline_answers_is_it_fair_in_words_from_the_interval():
    from guyenne_explore.analysis.metrics import Metric
    from guyenne_explore.render.headline import fairness_words

    def advantage(value, low, high, games=500):
        return Metric("Advantage (english)", value, low, high, games=games)

    assert fairness_words(advantage(0.52, 0.476, 0.564)) == (
        "no advantage detectable in 500 games: 0.5 lies inside the interval")
    assert fairness_words(advantage(0.56, 0.516, 0.603)) == "the first player is favoured: the interval lies above 0.5"
    assert fairness_words(advantage(0.44, 0.397, 0.484)) == "the second player is favoured: the interval lies below 0.5"
    assert fairness_words(advantage(0.5, None, None, None)) == "an even game (exact)"


def test_the_comparison_headline_says_whether_the_change_is_within_the_noise():
    from guyenne_explore.analysis.metrics import Metric
    from guyenne_explore.render.headline import change_words

    assert change_words(Metric("d", -0.039, -0.100, 0.023), False) == (
        "no change detectable: 0 lies inside the interval")
    assert change_words(Metric("d", 0.061, 0.012, 0.110), False) == "a real change: the interval lies above 0"
    assert change_words(Metric("d", -0.061, -0.110, -0.012), False) == "a real change: the interval lies below 0"
    assert change_words(Metric("d", 0.0, None, None), True) == "no change (exact)"
