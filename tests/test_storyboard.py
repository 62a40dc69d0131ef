"""Storyboards: one captioned diagram per step that matters, from records, histories, the CLI and the moves panel."""
from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.engine.flow import resolve_battle
from guyenne_explore.engine.position import DRAW, NEUTRAL, PLACEMENTS, RESPOND_SECOND
from guyenne_explore.engine.record import GameRecord, play_game
from guyenne_explore.render.storyboard import (all_placed, frames_of, record_from_positions, storyboard,
                                               storyboard_pdf, storyboard_zip, write_storyboard)

NS = "{http://www.w3.org/2000/svg}"
#: the rule each kind of step follows, by rule set (a removal and the score depend on it)
RULE = {"open_first": "open_first", "respond_first": "respond_first", "open_second": "open_second",
        "respond_second": "respond_second", "battle": "battle", "draw": "draw", "deal": "deal",
        "team_split": "team_split", "team_order": "team_order", "setup_discard": "setup_discard",
        "concede_choice": "concede_choice", "start": "start"}


def rule_of(frame) -> str:
    if frame.kind in ("remove_choice", "removal"):
        return "removal:" + frame.position.rules.removal
    if frame.kind == "end":
        return "end:" + frame.position.rules.scoring
    return RULE[frame.kind]


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def faces(el: ET.Element) -> list[str]:
    """The values of the face-up cards drawn, a card that stands for several (``data-count``) counted as many."""
    return sorted(e.get("data-card") for e in el.iter(NS + "g") if "face" in (e.get("class") or "").split()
                  for _ in range(int(e.get("data-count", 1))))


def placed_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(NS + "g") if "placed" in (g.get("class") or "").split()]


@pytest.mark.parametrize("preset", ["base", "advanced", "expert", "team", "team3", "classic2021"])
def test_frames_follow_the_record_and_cite_the_rules(preset):
    record = play_game(Position.start(preset), 5)
    frames = frames_of(record)
    kinds = [f.kind for f in frames]
    events = record.events
    # every placement, draw and decision of the record has its frame; two battles per round
    for point in (*PLACEMENTS, "draw", "deal", "remove_choice", "team_split", "team_order", "setup_discard"):
        assert kinds.count(point) == sum(e.to_play == point for e in events), point
    assert kinds.count("battle") == 2 * sum(e.to_play == RESPOND_SECOND for e in events)
    assert kinds[-1] == "end" and frames[-1].position.is_over
    for f in frames:
        assert f.rule == rule_of(f)
        root = ET.fromstring(str(f.diagram(1)))
        caption = " ".join(t.text for t in root.iter(NS + "text") if t.get("class") == "caption")
        assert caption == f"1. {f.caption}"
    r = record.final.result()
    assert f"English {r.english}, French {r.french}" in frames[-1].caption


def test_battle_captions_agree_with_the_engine():
    checked = 0
    for seed in range(8):
        record = play_game(Position.start("advanced"), seed)
        ps = record.positions()
        battles = iter(f for f in frames_of(record) if f.kind == "battle")
        for i, e in enumerate(record.events):
            if e.to_play != RESPOND_SECOND:
                continue
            j = next(k for k in range(i + 1, len(ps)) if ps[k].to_play not in ("remove_choice", "concede_choice"))
            for b in (0, 1):
                frame = next(battles)
                c = ps[i].placed.castle(b)
                was, now = ps[i].castles[c], ps[j].castles[c]
                assert f"castle {c + 1}:" in frame.caption and frame.highlight_castle == c  # the rulebook counts from 1
                if now != was:
                    assert f"{'English' if now == 0 else 'French'} takes it" in frame.caption
                elif was == NEUTRAL:
                    assert "stays neutral" in frame.caption
                else:
                    assert f"{'English' if was == 0 else 'French'} holds it" in frame.caption
                checked += 1
    assert checked > 50


def test_placements_stay_face_down_until_the_battle_frames():
    record = play_game(Position.start("advanced"), 2)
    for f in frames_of(record):
        root = ET.fromstring(str(f.diagram()))
        placed = placed_groups(root)
        if f.kind in PLACEMENTS:
            assert placed and all(faces(g) == [] for g in placed)
        elif f.kind == "battle":
            p = f.position
            for g in placed:
                side, b = (0 if g.get("data-side") == "english" else 1), "XY".index(g.get("data-battle"))
                assert faces(g) == sorted(p.placed.at(side, b).symbols())


def test_the_reveal_picture_is_the_engines_position_before_resolving():
    """all_placed composes the moment the engine passes through: resolving it gives the engine's next position."""
    checked = 0
    for preset in ("advanced", "team", "classic2021"):
        for seed in range(4):
            record = play_game(Position.start(preset), seed)
            ps = record.positions()
            for i, e in enumerate(record.events):
                if e.to_play == RESPOND_SECOND:
                    shown = all_placed(ps[i], e.move)
                    assert resolve_battle(shown, 0) == ps[i + 1]
                    assert [shown.cards_of(s) for s in (0, 1)] == [ps[i].cards_of(s) for s in (0, 1)]
                    checked += 1
    assert checked > 40


def test_a_history_of_positions_gives_back_the_record():
    record = play_game(Position.start("team3"), 4)
    again = record_from_positions(record.positions())
    assert again.to_json() == record.to_json()
    with pytest.raises(ValueError, match="step 1"):
        p = record.positions()
        record_from_positions([p[0], p[5]])
    with pytest.raises(ValueError, match="at least one"):
        record_from_positions([])


def test_pdf_zip_and_folder_have_one_picture_per_frame(tmp_path):
    record = play_game(Position.start("advanced"), 1)
    pictures = storyboard(record)
    n = len(frames_of(record))
    assert len(pictures) == n
    assert pages(storyboard_pdf(pictures)) == n
    with zipfile.ZipFile(io.BytesIO(storyboard_zip(pictures))) as z:
        names = z.namelist()
        assert names == [f"step-{k:03d}.svg" for k in range(1, n + 1)]
        first = ET.fromstring(z.read(names[0]))
        assert first.tag == NS + "svg"
    written = write_storyboard(pictures, tmp_path / "svgs")
    assert [p.name for p in written] == names and all(p.read_text().startswith("<svg") for p in written)
    with pytest.raises(ValueError, match=r"\.pdf or \.zip"):
        write_storyboard(pictures, tmp_path / "x.txt")


def test_cli_play_record_then_storyboard(tmp_path, capsys):
    from guyenne_explore.cli import main

    rec = tmp_path / "game.json"
    assert main(["play", "--rules", "advanced", "--seed", "3", "--record", str(rec)]) == 0
    n = len(frames_of(GameRecord.from_json(rec.read_text())))
    assert main(["storyboard", str(rec), "-o", str(tmp_path / "game.pdf")]) == 0
    assert pages((tmp_path / "game.pdf").read_bytes()) == n
    assert main(["storyboard", str(rec), "-o", str(tmp_path / "pics") + "/"]) == 0
    assert len(list((tmp_path / "pics").glob("step-*.svg"))) == n
    capsys.readouterr()
    # `play --json` prints a whole record too
    assert main(["play", "--rules", "base", "--seed", "1", "--json"]) == 0
    (tmp_path / "j.json").write_text(capsys.readouterr().out)
    assert main(["storyboard", str(tmp_path / "j.json"), "-o", str(tmp_path / "j.zip")]) == 0
    assert zipfile.is_zipfile(tmp_path / "j.zip")
    capsys.readouterr()


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"),
    ("not json", "is not a game record"),
    (json.dumps({"moves": []}), "missing field 'start'"),
])
def test_cli_storyboard_refuses_bad_records(tmp_path, capsys, content, message):
    from guyenne_explore.cli import main

    src = tmp_path / "r.json"
    if content is not None:
        src.write_text(content)
    assert main(["storyboard", str(src), "-o", str(tmp_path / "o.pdf")]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "o.pdf").exists()


def test_cli_storyboard_refuses_an_inconsistent_record(tmp_path, capsys):
    from guyenne_explore.cli import main

    data = play_game(Position.start("base"), 1).to_json()
    data["moves"][1]["move"] = "0:H55555"
    data["moves"][1]["cards"] = ["H", "5", "5", "5", "5", "5"]
    (tmp_path / "r.json").write_text(json.dumps(data))
    assert main(["storyboard", str(tmp_path / "r.json"), "-o", str(tmp_path / "o.pdf")]) == 1
    assert "is not a game record" in capsys.readouterr().err


def test_moves_panel_downloads_the_storyboard_of_its_history():
    from guyenne_explore.widgets.moves_panel import MovesPanel
    from guyenne_explore.widgets.starts import opening

    panel = MovesPanel(opening("advanced", 1), seed=2)
    sent = []
    panel.storyboard.file.send = lambda content, buffers=None: sent.append((content, buffers))
    panel.play_out()
    assert panel.storyboard.download("pdf")
    content, [data] = sent[-1]
    assert content["name"].endswith(".pdf") and content["mime"] == "application/pdf"
    n = len(frames_of(record_from_positions(panel.history)))
    assert pages(bytes(data)) == n and f"{n} pictures" in panel.storyboard.message.value
    assert panel.storyboard.download("zip")
    assert zipfile.ZipFile(io.BytesIO(bytes(sent[-1][1][0]))).namelist()[-1] == f"step-{n:03d}.svg"
    panel.set_position(None)
    assert not panel.storyboard.download("pdf") and "not valid" in panel.storyboard.message.value


def test_draw_frames_name_exhaustion_and_the_end():
    text = " ".join(f.caption for seed in range(6) for f in frames_of(play_game(Position.start("base"), seed))
                    if f.kind == DRAW)
    assert "deck is exhausted" in text and "English draws" in text


def test_concede_decisions_follow_their_battle():
    from guyenne_explore.engine.rules import Rules

    rules = Rules.from_json({"preset": "advanced", "concede_as_decision": True})
    seen = 0
    for seed in range(4):
        record = play_game(Position.start(rules), seed)
        frames = frames_of(record)
        assert sum(f.kind == "concede_choice" for f in frames) == sum(e.to_play == "concede_choice"
                                                                      for e in record.events)
        for before, f in zip(frames, frames[1:]):
            if f.kind == "concede_choice":
                # the battle it decides, at the same castle, is the frame just before it
                assert before.kind == "battle" and before.highlight_castle == f.highlight_castle
                assert not before.show_winners          # the marks cannot know whether the defender concedes
                verb = "concedes" if "concedes" in f.caption else "reveals"
                assert (verb == "concedes") == ("concedes:" in before.caption)
                seen += 1
    assert seen > 5


def test_a_record_from_a_position_opens_with_its_start():
    from guyenne_explore.widgets.starts import opening

    start = opening("advanced", 1)
    frames = frames_of(play_game(start, 1))
    assert frames[0].kind == "start" and frames[0].position == start and frames[0].rule == "start"
    assert frames[1].kind == "open_first"


@pytest.mark.parametrize("preset", ["advanced", "expert", "team"])
def test_a_players_storyboard_hides_what_that_player_did_not_see(preset):
    from guyenne_explore.engine.view import revealed

    record = play_game(Position.start(preset), 2)
    for viewer, other in ((0, "french"), (1, "english")):
        frames = frames_of(record, viewer)
        for f, d in zip(frames, storyboard(record, viewer=viewer)):
            root = ET.fromstring(str(d))
            hands = [g for g in root.iter(NS + "g")
                     if "hand" in (g.get("class") or "").split() and g.get("data-side") == other]
            assert hands and all(faces(g) == [] for g in hands)
            for g in placed_groups(root):
                if g.get("data-side") != other:
                    continue
                b = "XY".index(g.get("data-battle"))
                if f.kind == "battle":
                    # a battle frame turns up its own battle and those before it, never a later one
                    assert (faces(g) != []) == (b <= ("XY".index(re.search(r"Battle (\w)", f.caption).group(1))))
                elif not revealed(f.position, b, viewer):
                    assert faces(g) == []
            if f.kind in ("deal", "draw", "setup_discard", "team_split"):
                drawn = re.search(rf"{other.capitalize()} draws ([^;,]*)", f.caption)
                if drawn:
                    assert drawn.group(1) == "nothing" or "card" in drawn.group(1), f.caption
                if f.kind in ("setup_discard", "team_split") and f.caption.startswith(other.capitalize()):
                    assert re.search(r"\d cards?", f.caption), f.caption
    # the designer's storyboard names every draw
    assert any(re.search(r"French draws [H2-5]( [H2-5])*[;,]", f.caption) for f in frames_of(record))


def test_cli_storyboard_as_one_player(tmp_path):
    from guyenne_explore.cli import main

    rec = tmp_path / "g.json"
    assert main(["play", "--rules", "advanced", "--seed", "2", "--record", str(rec)]) == 0
    assert main(["storyboard", str(rec), "-o", str(tmp_path / "fr"), "--player", "french"]) == 0
    first = ET.fromstring((tmp_path / "fr" / "step-002.svg").read_text())
    english_hand = [g for g in first.iter(NS + "g") if "hand" in (g.get("class") or "").split()
                    and g.get("data-side") == "english"]
    assert english_hand and faces(english_hand[0]) == []
    assert main(["storyboard", str(rec), "-o", str(tmp_path / "x.pdf"), "--player", "nobody"]) == 2


def test_teaching_game_downloads_the_learners_storyboard():
    from guyenne_explore.widgets.teaching import TeachingGame

    game = TeachingGame("base", "french", seed=3)
    sent = []
    game.storyboard.file.send = lambda content, buffers=None: sent.append(bytes(buffers[0]))
    for _ in range(3):
        game.play(next(iter(game.position.legal_moves)).text(1))
    assert game.positions[-1] == game.position
    assert game.storyboard.download("zip")
    with zipfile.ZipFile(io.BytesIO(sent[-1])) as z:
        svgs = [ET.fromstring(z.read(n)) for n in z.namelist()]
    assert len(svgs) == len(frames_of(record_from_positions(game.positions)))
    for root in svgs:          # the English hand never shows, as the learner (French) never saw it
        for g in root.iter(NS + "g"):
            if "hand" in (g.get("class") or "").split() and g.get("data-side") == "english":
                assert faces(g) == []


def test_a_history_stopping_inside_a_resolution_says_what_is_not_resolved():
    for seed in range(20):
        ps = play_game(Position.start("advanced"), seed).positions()
        k = next((k for k, p in enumerate(ps) if p.to_play == "remove_choice" and p.battle == 0), None)
        if k is not None:
            break
    frames = frames_of(record_from_positions(ps[:k + 1]))
    x, y = [f for f in frames if f.kind == "battle"][-2:]
    assert "resolved once" not in x.caption and "Battle X" in x.caption
    assert "Battle Y" in y.caption and y.caption.endswith("resolved once the decision now to make is made")


def test_battle_frames_mark_nobody_to_play():
    frames = frames_of(play_game(Position.start("base"), 1))
    texts = {f.kind: " ".join(t.text or "" for t in ET.fromstring(str(f.diagram())).iter(NS + "text"))
             for f in frames}
    assert "to play" not in texts["battle"] and "to play" in texts["open_first"]


@pytest.mark.parametrize("preset", ["advanced", "classic2021", "expert", "team"])
def test_captions_state_each_rule_in_words_in_both_languages(preset):
    """Under each caption, the rule the step follows in a rulebook's words, from one table, in English and French;
    nothing cites a file or a section number a rulebook's reader cannot look up."""
    from guyenne_explore.render.storyboard import RULES, rule_words

    record = play_game(Position.start(preset), 2)
    for lang in ("en", "fr"):
        for f, d in zip(frames_of(record, lang=lang), storyboard(record, lang=lang)):
            root = ET.fromstring(str(d))
            texts = [t.text or "" for t in root.iter(NS + "text")]
            assert not any("RULES.md" in t or "§" in t for t in texts), texts
            rule = " ".join(t.text for t in root.iter(NS + "text") if t.get("class") == "rule")
            assert rule == rule_words(f.rule, lang) and f.rule in RULES
    battle = rule_words("battle", "en")
    assert battle.startswith("The battle: the higher total wins the castle")
    assert rule_words("battle", "fr") != battle and rule_words("battle", "fr").startswith("Le combat")
    assert rule_words("removal:classic2021", "en") != rule_words("removal:advanced", "en")


def page_boxes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size in points, from its /MediaBox (the page tree's own default box left out)."""
    sizes = []
    for body in re.split(rb"\bendobj\b", pdf):
        if re.search(rb"/Type\s*/Page\b", body):
            box = re.search(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", body)
            assert box is not None
            x0, y0, x1, y1 = map(float, box.groups())
            sizes.append((x1 - x0, y1 - y0))
    return sizes


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_panel_of_every_storyboard_page_lies_on_its_page(lang):
    """The last pages are the tallest (two-line captions, the final score): every page has the document's one size
    and every picture, bottom panel included, lies inside it with a margin (a viewer or printer that sizes the
    document by its first page cut the bottom panel off the last pages)."""
    from guyenne_explore.render.export import PT_PER_PX, page_layout
    from guyenne_explore.render.storyboard import PAGE_MARGIN

    pictures = storyboard(play_game(Position.start("advanced"), 1), lang=lang)
    svgs = [str(d) for d in pictures]
    heights = [float(ET.fromstring(s).get("height")) for s in svgs]
    assert max(heights[-3:]) > heights[0]  # the case that was cut: later pictures taller than the first
    pdf = storyboard_pdf(pictures)
    (page_w, page_h), boxes = page_layout(svgs, PAGE_MARGIN)
    assert page_boxes(pdf) == [(round(page_w, 2), round(page_h, 2))] * len(svgs)
    for svg, (x, y, w, h) in zip(svgs, boxes):
        root = ET.fromstring(svg)
        scale = w / float(root.get("viewBox").split()[2])
        panels = [next(g.iter(NS + "rect")) for g in root.iter(NS + "g") if g.get("class") == "side"]
        assert len(panels) == 2
        for r in panels:
            left, top = x + float(r.get("x")) * scale, y + float(r.get("y")) * scale
            right, bottom = left + float(r.get("width")) * scale, top + float(r.get("height")) * scale
            assert PAGE_MARGIN <= left and right <= page_w - PAGE_MARGIN
            assert PAGE_MARGIN <= top and bottom <= page_h - PAGE_MARGIN, (bottom, page_h)
        assert abs(h - float(root.get("height")) * PT_PER_PX) < 1e-6


@pytest.mark.parametrize("preset", ["base", "advanced", "team", "classic2021"])
def test_captions_number_castles_as_the_rulebook_does(preset):
    """Each caption that names a castle (placements, battles, removals, concessions) says the castle it
    highlights as the rulebook counts, 1 to n: castle 1 is index 0, and no caption says castle 0."""
    named = 0
    for seed in range(4):
        for frame in frames_of(play_game(Position.start(preset), seed)):
            said = re.findall(r"castle (\d+)", frame.caption)
            if said:
                assert frame.highlight_castle is not None
                assert said == [str(frame.highlight_castle + 1)], frame.caption
                named += 1
    assert named > 20


def test_the_reason_of_an_attackers_removals_counts_the_castles_it_attacked():
    """A side that attacked both castles of the other side removes a card at each: the caption said "removes 2 2 for
    good (an attacker's strongest card)", two cards for one."""
    seen = set()
    for seed in range(40):
        for f in frames_of(play_game(Position.start("advanced"), seed)):
            if f.kind != "removal":
                continue
            removals, reason = f.caption.split(" for good ")
            most = max(len(part.split(" removes ")[1].split()) for part in removals.split("; "))
            plural = reason == "(an attacker's strongest card at each castle of the other side it attacked)"
            assert plural == (most > 1) and (plural or reason == "(an attacker's strongest card)"), f.caption
            seen.add(plural)
    assert seen == {True, False}
