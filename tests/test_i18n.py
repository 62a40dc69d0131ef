"""French and English: the catalogue is in step with the code, every message is translated, and the
texts users see (problems, "why illegal", diagrams, the command line) come out in French on demand."""

from __future__ import annotations

import gettext
import html
import re
import io
import string
from pathlib import Path

import pytest

from guyenne_explore import i18n
from guyenne_explore.i18n import LOCALE_DIR, check_language, locale_language, set_language
from guyenne_explore.engine.problems import MESSAGES, problem

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from .conftest import position_path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PO = LOCALE_DIR / "fr" / "LC_MESSAGES" / "guyenne_explore.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"_": None, "N_": None, "NP_": ((1, "c"), 2), "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}

#: French words spelled as in English (a msgstr equal to its msgid is allowed only for these).
SAME_IN_FRENCH = {"{detail}", "Guyenne", "X", "Y", "{count} × {card}", "Notation", "Position", "Total", "Option",
                  "Expert", "Variante", "{side} {score}", "JSON", "{name}: {value}", "SVG", "PNG", "PDF", "ZIP",
                  "Score", "{title} · {subtitle}", "{first} · {second}", "§{number}", "{number}. {caption}", "Figures",
                  "front", "HTML", "section", "{count} point", "{count} points", "{rules} {estimate}, {verdict}",
                  "{count} minute", "{count} minutes"}


def _catalogue():
    with PO.open("rb") as fh:
        return read_po(fh)


def _code_messages() -> set[str]:
    """What Babel's extractor finds in the package (the msgids the catalogue must hold)."""
    with (ROOT / "babel.cfg").open() as fh:
        from babel.messages.frontend import parse_mapping_cfg
        method_map, options_map = parse_mapping_cfg(fh)
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                        keywords=KEYWORDS):
        found.add(message if isinstance(message, str) else message[0])
    return found


def test_the_catalogue_holds_exactly_the_messages_of_the_code():
    po = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalogue() if m.id}
    code = _code_messages()
    assert len(code) > 100  # the extractor did find the package's messages
    assert not code - po, f"not in the catalogue (run scripts/i18n.sh): {sorted(code - po)[:20]}"
    assert not po - code, f"in the catalogue but gone from the code (run scripts/i18n.sh): {sorted(po - code)[:20]}"


def test_no_message_hides_inside_an_f_string():
    """Babel does not read calls inside an f-string's braces: such a message would never be translated."""
    hidden = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "guyenne_explore").rglob("*.py"))
              for n, line in enumerate(path.read_text().splitlines(), 1)
              if re.search(r"\{(_|N_|gettext|ngettext)\(", line)
              or re.search(r"""\bf["'][^"']*\{[^{}]*\b(_|N_|gettext|ngettext|pgettext)\(\s*["']""", line)]
    assert not hidden, f"compute the message before the f-string: {hidden}"


def test_no_count_is_grouped_the_english_way():
    """A count shown to a person takes the language's digit grouping (``i18n.plain_count``: "1 234" in French):
    a format spec ``{n:,}`` writes "1,234" in every language (the balance search's status and report, the
    optimal-play statistics and the command line's progress did so)."""
    english = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "guyenne_explore").rglob("*.py"))
               for n, line in enumerate(path.read_text().splitlines(), 1)
               if re.search(r"\{[^{}\s]+:,(\.\d+f)?\}", line)]
    assert not english, f"use i18n.plain_count: {english}"


def test_every_message_has_a_french_translation():
    missing, same, fuzzy = [], [], []
    for m in _catalogue():
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        strs = (m.string,) if isinstance(m.string, str) else m.string
        if m.fuzzy:
            fuzzy.append(ids[0])
        for i, s in zip(ids, strs):
            if not s or not s.strip():
                missing.append(i)
            elif s == i and i not in SAME_IN_FRENCH:
                same.append(i)
    assert not missing, f"untranslated: {missing[:20]}"
    assert not same, f"French identical to English (translate, or add to SAME_IN_FRENCH): {same[:20]}"
    assert not fuzzy, f"fuzzy (check the translation): {fuzzy[:20]}"


#: a space that French typography makes a no-break one: before ";", ":", "!", "?" and "»" used as punctuation
#: (followed by a space, the end or a closing mark; ``:0.05`` in a flag's example is not), after "«", and
#: between a number and "%" (where there must be one: "95 %", which wrapped as "(95" and "%)")
BREAKABLE = re.compile(r"(?<=\S) [;:!?»](?=[\s.,)]|$)|« |\d ?%")


def test_french_punctuation_has_its_no_break_space():
    """A plain space before ":" or ";" lets a wrapped line start with them (in a panel, a message, a diagram):
    every French message has a no-break space there, so a translation added with a plain one fails here."""
    plain = []
    for m in _catalogue():
        strs = (m.string,) if isinstance(m.string, str) else m.string
        plain += [s for s in strs if m.id and s and BREAKABLE.search(s)]
    assert not plain, f"a plain space where French puts a no-break one: {plain[:5]}"


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_translations_keep_the_parameters():
    for m in _catalogue():
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        strs = (m.string,) if isinstance(m.string, str) else m.string
        for s in strs:  # a plural form may name the count its singular leaves out
            assert _fields(s) == _fields(ids[0]) if len(ids) == 1 else _fields(s) <= _fields(ids[0]) | _fields(ids[1]), \
                (ids[0], s)


def test_the_compiled_catalogue_is_the_po_compiled():
    """The shipped .mo is what compiling the .po gives (scripts/i18n.sh compile), but for the header's
    line naming the Babel release that compiled it (a newer Babel installed here writes its own)."""
    buf = io.BytesIO()
    write_mo(buf, _catalogue(), use_fuzzy=False)
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)
    with MO.open("rb") as fh:
        shipped = gettext.GNUTranslations(fh)

    def compared(catalog: dict) -> dict:
        header = "\n".join(line for line in catalog[""].split("\n") if not line.startswith("Generated-By:"))
        return {**catalog, "": header}

    assert compared(fresh._catalog) == compared(shipped._catalog)  # type: ignore[attr-defined]


def test_language_choice(monkeypatch):
    assert locale_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert locale_language({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"
    assert locale_language({"LC_ALL": "", "LANG": "fr_CA"}) == "fr"
    assert locale_language({"LANG": "C.UTF-8"}) == "en"
    assert locale_language({}) == "en"
    assert check_language("FR") == "fr" and check_language("fr_FR") == "fr"
    with pytest.raises(i18n.LanguageError, match="choose one of en, fr"):
        check_language("de")
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    set_language(None)
    assert i18n.current_language() == "fr"
    try:
        assert set_language("en") is None and i18n.current_language() == "en"
        assert set_language("fr") == "en" and i18n.current_language() == "fr"
        set_language("en")
        assert str(problem("position.round", "round", value=0)).startswith("the round")
    finally:
        set_language(None)


def test_every_decision_point_has_its_rulebook_name_in_both_languages():
    from guyenne_explore.engine.state import POINTS
    assert set(i18n._POINTS) == set(POINTS)  # the copy i18n keeps of the engine's names
    for point in POINTS:
        english, french = i18n.point_name(point, "en"), i18n.point_name(point, "fr")
        assert english != point and "_" not in english and french not in (point, english)
    assert i18n.point_name("open_first", "en") == "the opening at the first castle (X)"
    assert i18n.point_name("open_first", "fr") == "attaque ou défense du premier château (X)"
    assert i18n.point_name("draw", "fr") == "pioche de fin de tour"  # the decision point, not the outcome
    assert i18n.point_name("not_a_point", "fr") == "not_a_point"


def test_every_problem_renders_in_french():
    sample = {"side": "english", "who": "french's member 1", "count": 3, "high": 6, "low": 1, "value": 9,
              "key": "x", "point": "open_first", "battle": "X", "castle": 2, "castles": 6, "want": "should have",
              "order": "first", "state": "chosen", "winner": "french", "why": " (two are fought over each round)",
              "label": "the hand size", "detail": "d", "size": 7, "limit": 9, "kind": "list", "path": "p",
              "reason": "r", "choices": "a, b", "example": "{}", "index": 1, "expected": 22,
              "details": "; too many: 1 × hero; missing: 2 × 5", "deck": 3, "need": 2, "hand": 6,
              "discarded": " of which 5 go to the discard at setup"}
    for code, template in MESSAGES.items():
        params = {k: sample.get(k, "a") for k in _fields(template)}  # a new parameter: any word
        fr = problem(code, "f", **params).render("fr")
        en = problem(code, "f", **params).render("en")
        assert fr and (fr != en or code == "plain"), code
    text = problem("position.hand_size", "sides.english.hand", side="english", count=7, high=6).render("fr")
    assert text == "Les Anglais ont 7 cartes en main\u00a0; une main compte au plus 6 cartes"
    text = problem("position.conservation", "sides.french", side="french", count=20, expected=22,
                   details="; too many: 1 × hero; missing: 2 × 5").render("fr")
    assert "en trop\u00a0: 1 × héros\u00a0; manquantes\u00a0: 2 × 5" in text
    assert "Le joueur 1 (les Français)\u00a0: impossible de poser ce tour" in problem(
        "position.cannot_place", "x", who="french's member 1", count=0, need=1).render("fr")
    assert problem("position.cannot_place", "x", who="english", count=1, need=2).render("en") == \
        "the English cannot place this round: cards in hand: 1; castles still to place at: 2"


def test_why_illegal_in_french():
    from guyenne_explore.engine.position import Position
    from tests.test_rules_cases import pos
    p = Position.from_json(pos())
    try:
        set_language("fr")
        assert p.why_illegal("0:55") == "les Anglais n'ont pas 55 en main (H53222)"
        assert p.why_illegal("0:H53222") == "un camp doit garder une carte pour son deuxième château de ce tour"
        assert "il n'y a pas de château 9" in (p.why_illegal("9:H") or "")
        assert Position.start().why_illegal("0:H").startswith("c'est un point de hasard (distribution)")
        set_language("en")
        assert p.why_illegal("0:55") == "English does not hold 55 in its hand (H53222)"
    finally:
        set_language(None)


# ---------------------------------------------------------------------- diagrams and storyboards
NS = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    import xml.etree.ElementTree as ET
    return ["".join(t.itertext()) for t in ET.fromstring(str(svg)).iter(NS + "text")]


def test_a_french_diagram_uses_the_rulebook_words():
    from guyenne_explore.engine.position import Position
    from guyenne_explore.render.svg import position_svg
    from tests.test_rules_cases import pos
    p = Position.from_json(pos(sides={
        "english": {"hand": list("H53222"), "deck": list("222222222"), "discard": list("333444"),
                    "removed": ["5"], "exhaustions": 1},
        "french": {"hand": list("H53222"), "deck": list("222222222"), "discard": list("3334445"),
                   "removed": [], "exhaustions": 1}}))
    fr, en = _texts(position_svg(p, lang="fr")), _texts(position_svg(p, lang="en"))
    for label in ("Anglais", "Français", "main 6", "pioche 9", "défausse 7", "défausse 6", "écartées", "aucune",
                  "épuisements 1", "1er", "base · tour 5 · à jouer\u00a0: attaque ou défense du premier château (X)"):
        assert label in fr, (label, fr)
    for label in ("English", "French", "hand 6", "deck 9", "discard 7", "removed", "1st"):
        assert label in en and label not in fr, label
    # the data attributes interactive views read do not change with the language
    assert 'data-zone="deck"' in position_svg(p, lang="fr") and 'data-side="english"' in position_svg(p, lang="fr")


def test_french_seating_and_game_over():
    from guyenne_explore.engine.position import Position
    from guyenne_explore.engine.record import play_game
    from guyenne_explore.render.seating import seating_svg
    from guyenne_explore.render.svg import position_svg
    p = Position.start("team")
    fr = " ".join(_texts(seating_svg(p, lang="fr")))
    assert "«\u00a0Mise en place pour 4 joueurs\u00a0: pour que les joueurs d'une même équipe" in fr
    assert "premier joueur" in fr and "Les Anglais (équipe)" in fr and "pioche 21" in fr and "défausse 0" in fr
    final = play_game(Position.start("base"), 3).final
    texts = _texts(position_svg(final, lang="fr"))
    r = final.result()
    assert f"Anglais {r.english}" in texts and f"{r.french} Français" in texts
    assert {"égalité", "victoire des Anglais", "victoire des Français"} & set(texts)


@pytest.mark.parametrize("preset", ["base", "advanced", "team"])
def test_a_french_storyboard(preset):
    from guyenne_explore.engine.position import Position
    from guyenne_explore.engine.record import play_game
    from guyenne_explore.render.storyboard import frames_of, storyboard
    record = play_game(Position.start(preset), 5)
    fr, en = frames_of(record, lang="fr"), frames_of(record, lang="en")
    assert len(fr) == len(en)
    for f, e in zip(fr, en):
        assert f.caption != e.caption, e.caption
        assert not re.search(r"\b(castle|card|cards|round|English|French|wins|draws)\b", f.caption), f.caption
    captions = " ".join(f.caption for f in fr)
    assert "La distribution\u00a0: les Anglais piochent" in captions
    assert re.search(r"(Les Anglais|Les Français)[^.;]* (ouvrent|répondent au) le? ?château \d", captions)
    assert "Combat X au château" in captions and "Partie finie après le tour" in captions
    first = storyboard(record, lang="fr")[0]
    text = " ".join(_texts(first))
    assert text.startswith("1. La distribution") and "La distribution\u00a0: chaque camp prend en main son héros" in text, text


# ---------------------------------------------------------------------- the command line
def test_the_command_line_speaks_french_with_lang_fr(tmp_path, capsys):
    import json

    from guyenne_explore.cli import main
    from tests.test_rules_cases import pos
    data = pos()
    data["sides"]["english"]["hand"] = list("H5552222")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    set_language("en")
    try:
        assert main(["--lang", "fr", "check", str(path)]) == 1
        err = capsys.readouterr().err
        assert f"{path}\u00a0: position invalide" in err
        assert "sides.english.hand: Les Anglais ont 8 cartes en main\u00a0; une main compte au plus 6 cartes" in err
        assert i18n.current_language() == "en"  # --lang holds for the one command
        assert main(["check", str(path)]) == 1
        assert "sides.english.hand: the English hold 8 cards in hand" in capsys.readouterr().err
        good = tmp_path / "good.json"
        good.write_text(json.dumps(pos()))
        assert main(["--lang", "fr", "moves", str(good)]) == 0
        assert capsys.readouterr().out.startswith("open_first\u00a0: les Anglais jouent, ")
        out = tmp_path / "d.svg"
        assert main(["--lang", "fr", "diagram", str(good), "-o", str(out)]) == 0
        assert "pioche 9" in _texts(out.read_text()) and "deck 9" not in _texts(out.read_text())
        record = tmp_path / "game.json"
        assert main(["play", "--rules", "base", "--seed", "3", "--record", str(record)]) == 0
        folder = tmp_path / "frames"
        assert main(["--lang", "fr", "storyboard", str(record), "-o", str(folder) + "/"]) == 0
        first = " ".join(_texts((folder / "step-001.svg").read_text()))
        assert first.startswith("1. La distribution\u00a0: les Anglais piochent"), first
        capsys.readouterr()
        assert main(["--lang", "de", "check", str(good)]) == 2  # a usage error names the choices
        assert "invalid choice: 'de'" in capsys.readouterr().err
    finally:
        set_language(None)


# ---------------------------------------------------------------------- the explorer and the teaching game
#: Labels that are names from the notation (presets, decision points, parameter values, formats): kept as written.
IDENTIFIERS = {"base", "advanced", "expert", "team", "team3", "classic2021", "none", "2022", "2021", "X", "Y", "—",
               "PNG", "SVG", "PDF", "HTML", "JSON", "CSV", "1 v 1", "2 v 2", "2 v 1", "1 v 2", "English", "Français"}


def _fixed_texts(root) -> list[tuple[str, str, str]]:
    """(widget, attribute, English original, shown) of every fixed label the switch knows."""
    from guyenne_explore.widgets.language import widgets_of
    from guyenne_explore.engine.position import POINTS
    out = []
    for x in widgets_of(root):
        for attr, (english, shown) in getattr(x, "_guyenne_english", {}).items():
            if attr == "value":  # headings are checked by name below; statuses are written by the panels
                continue
            for e, s in (zip(english, shown) if isinstance(english, tuple) else [(english, shown)]):
                if isinstance(e, str) and re.search("[a-z]", e) and e not in IDENTIFIERS and e not in POINTS \
                        and not re.fullmatch(r"[\d\s:.]*|\u200b", e):
                    out.append((type(x).__name__, attr, e, s))
    return out


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language(None)


def test_the_explorer_switches_to_french_and_back(english):
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.explorer import DEFERRED, Explorer
    from guyenne_explore.widgets.language import widgets_of
    from guyenne_explore.widgets.starts import opening
    ex = Explorer(opening("advanced", 1))  # a dealt opening: its moves to read (the explorer opens before the deal)
    assert ex.tabs.titles[:3] == ("Builder", "Analysis", "Variant lab")
    # a tab's panel is built when first shown: some before the switch, which relabels them, the rest after it
    for title in DEFERRED[::2]:
        ex.panel(title)
    ex.language.value = "fr"
    for title in DEFERRED[1::2]:
        ex.panel(title)
    assert i18n.current_language() == "fr"
    assert ex.tabs.titles[:3] == ("Position", "Analyse", "Variantes")
    untranslated = [t for t in _fixed_texts(ex) if t[2] == t[3]]
    assert not untranslated, f"labels without French (add them to widgets/language.LABELS): {untranslated[:10]}"
    assert "coups légaux pour les Anglais (attaque ou défense du premier château (X))" in ex.moves.count.value
    assert ex.moves.buttons["Apply selected"].description == "Jouer la sélection"
    assert "✓ position valide" in ex.builder.summary.value and ex.diagram_export.titles[0].startswith("Exporter le schéma")
    assert ex.builder.first._options_labels == ("Anglais", "Français") and ex.builder.first.value == "english"
    # the decision point "draw" is the end-of-turn draw (not the outcome "égalité"); every point in words
    points = dict(zip(ex.builder.to_play._options_values, ex.builder.to_play._options_labels))
    assert points["draw"] == "pioche de fin de tour" and points["open_first"].startswith("attaque ou défense")
    assert not any("_" in label for label in points.values()) and ex.builder.to_play.value == "open_first"
    assert dict(zip(ex.builder.parameters.widgets["reshuffle"]._options_values,
                    ex.builder.parameters.widgets["reshuffle"]._options_labels))["on_draw"] == "sur pioche vide"
    texts = _texts(ex.table.svg)
    assert "pioche 16" in texts and "Anglais" in texts and "deck 16" not in texts
    ex.moves.try_move("9:H")
    assert "il n'y a pas de château 9" in html.unescape(ex.moves.explain.value)
    # the level fields the panels fill name the levels as the page does (they said "uniform,heuristic,strong"), and
    # read back as the levels
    assert ex.balance.ladder.value == "uniforme,heuristique,forte" and ex.balance.levels() == ["uniform", "heuristic", "strong"]
    assert ex.skill.how_they_play.levels_text.value.startswith("uniforme,heuristique,forte")
    bot = next(row for row in ex.play.seat_rows.children if row.kind.value == "bot")
    assert bot.who.value == "heuristique" and "recherche:200" in bot.who.options
    # a decimal field as French writes it ("0.02" stood beside "0,45"), still read as the number
    assert ex.balance.precision.box.value == "0,02" and ex.balance.precision.value == 0.02
    assert ex.diagram_export.scale.box.value == "2,0" and ex.diagram_export.scale.problem is None
    ex.language.value = "en"
    assert ex.balance.ladder.value == "uniform,heuristic,strong" and bot.who.value == "heuristic"
    assert ex.balance.precision.box.value == "0.02"
    ex.language.value = "fr"
    ex.language.value = "en"
    assert ex.tabs.titles[:3] == ("Builder", "Analysis", "Variant lab")
    assert all(t[2] == t[3] for t in _fixed_texts(ex))
    assert "legal moves for the English at the opening at the first castle (X)" in ex.moves.count.value
    assert "deck 16" in _texts(ex.table.svg)
    # the English UI shows the game's words, never an engine key or a lowercase side
    labels = [label for x in widgets_of(ex) for label in getattr(x, "_options_labels", ())]
    assert "the end-of-turn draw" in labels and "English" in labels and "hand size" in labels
    raw = {"open_first", "respond_first", "draw", "on_draw", "english", "french", "hand_size", "Advantage (english)"}
    assert not raw & set(labels), raw & set(labels)
    assert not any("(english)" in label or "(french)" in label for label in labels)
    assert all(group["label"] != "open_first" for group in ex.moves.list.groups)
    castles = [b.description for b in ex.builder.castle_row.children]
    assert castles and all(d.split(": ")[1] in ("neutral", "English", "French") for d in castles), castles


def test_the_teaching_game_in_french(english):
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.teaching import TeachingGame
    game = TeachingGame(lang="fr")
    assert i18n.current_language() == "fr"
    assert game.play_button.description == "Jouer" and game.restart.description == "Nouvelle partie"
    assert "<b>À vous de jouer</b> (les Anglais, attaque ou défense du premier château (X), tour 1)" in game.prompt.value
    assert "Mise en place" in game.lessons.value and "Chaque joueur a 22 cartes" in game.lessons.value
    assert not [t for t in _fixed_texts(game) if t[2] == t[3]]
    game.play("9:H")
    assert "n'est pas permis\u00a0: il n'y a pas de château 9" in html.unescape(game.explain.value)
    move = next(iter(game.position.legal_moves))  # an opening: its castle in words counts from 1
    assert game.play(move.text(1))
    assert f"Vous avez ouvert le château {move.castle + 1} avec {move.cards}." in game.history_view.value
    game.language.value = "en"
    assert f"You opened castle {move.castle + 1} with {move.cards}." in game.history_view.value
    assert "Setup" in game.lessons.value
    assert "<b>Your turn</b>" in game.prompt.value


# ---------------------------------------------------------------------- analysis figures and metrics
def test_figures_and_metrics_in_french():
    pytest.importorskip("plotly")
    from guyenne_explore.analysis.api import analyse
    from guyenne_explore.engine.position import Position
    from guyenne_explore.render import plots
    results = {"base": analyse(Position.start("base"), method="sample", games=30, seed=1)}
    figs = plots.result_figures(results, lang="fr")
    assert figs["scores"].layout.title.text.startswith("Points en fin de partie, par camp<br><sup>Anglais uniforme")
    assert [t.name for t in figs["scores"].data] == ["Anglais", "Français"]
    assert [t.name for t in figs["outcomes"].data] == ["victoire des Anglais", "égalité", "victoire des Français"]  # one case
    assert figs["rounds"].layout.xaxis.title.text == "tours" and figs["outcomes"].layout.yaxis.title.text == "probabilité"
    assert figs["scores"].layout.annotations[0].text == "base<br>(30 parties)"
    rows = {r["metric"]: r for r in plots.metrics_rows(results, lang="fr")}
    assert rows["Équilibre"]["meaning"].startswith("1 quand les deux camps gagnent aussi souvent")
    assert "Avantage (Anglais)" in rows and "Taux d'égalité" in rows
    english = {r["metric"]: r for r in plots.metrics_rows(results, lang="en")}
    assert english["Balance"]["meaning"].startswith("1 when both sides win") and "Advantage (English)" in english


def test_number_boxes_say_what_is_wrong_in_french(english):
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.forms import read_decimal, read_whole
    assert read_whole("x", "Games")[1] == "Games must be a whole number written with the digits 0-9, not 'x'"
    set_language("fr")
    assert read_whole("x", "Games")[1] == "Parties doit être un nombre entier écrit avec les chiffres 0 à 9, pas «\xa0x\xa0»"
    assert read_whole("", "Seed")[1] == "Graine est vide\u00a0: tapez un nombre entier"
    assert read_whole("20000", "Games", 1, 10_000)[1] == "Parties doit valoir au plus 10\u202f000, pas 20000"  # grouped
    assert read_decimal("0,1", "PNG scale", 0.5, 4)[1] == "Échelle PNG doit valoir au moins 0,5, pas 0,1"  # decimals
    assert read_decimal("1,5", "PNG scale", 0.5, 4) == (1.5, None)  # a French decimal comma is read
    assert read_decimal("1,5,0", "PNG scale", 0.5, 4)[1] == (
        "Échelle PNG doit être un nombre écrit avec les chiffres 0 à 9 et au plus une virgule ou un point décimal "
        "(0,45 ou 0.45), pas «\xa01,5,0\xa0»")  # quoted as typed, in French quotes


# ---------------------------------------------------------------------- skill levels and optimal play
def test_the_skill_levels_tab_follows_the_language_switch(english):
    pytest.importorskip("ipywidgets")
    import ipywidgets as w

    from guyenne_explore.analysis.metrics import Metric
    from guyenne_explore.analysis.studies.skill import ABOVE, BELOW, SkillCell, SkillTable
    from guyenne_explore.widgets.explorer import Explorer
    from guyenne_explore.widgets.language import widgets_of

    def cell(level, value, low, high, verdict):
        return SkillCell("advanced", level, Metric("Advantage (english)", value, low, high), verdict)

    ex = Explorer()
    ex.skill.table = SkillTable(["advanced"], ["uniform", "search:4"],
                                [cell("uniform", 0.56, 0.53, 0.59, ABOVE), cell("search:4", 0.44, 0.41, 0.47, BELOW)])
    ex.skill._show()
    assert ("advanced: Advantage (English) goes from above ½ under uniform (0.560 [0.530, 0.590]) to below ½ under "
            "search (4 rollouts) (0.440 [0.410, 0.470]): the conclusion reverses with skill") in html.unescape(ex.skill.changes.value)
    ex.language.value = "fr"  # the kept table is drawn again in French, nothing played again
    assert ("advanced\u00a0: Avantage (Anglais)\u00a0: au-dessus de ½ avec uniforme (0,560 [0,530\u00a0; 0,590]), puis "
            "au-dessous de ½ avec recherche (4 simulations) (0,440 [0,410\u00a0; 0,470])\u00a0; la conclusion s'inverse "
            "avec le niveau de jeu"
            ) in html.unescape(ex.skill.changes.value)
    (view,) = ex.skill.figure_box.shown
    assert list(view.figure["data"][0]["x"]) == ["uniforme", "recherche (4 simulations)"]
    assert view.figure["layout"]["title"]["text"] == "Avantage (Anglais) selon le niveau de jeu"
    assert "jeu de règles" in ex.skill.details.value and "au-dessous" in ex.skill.details.value
    headings = [x.value for x in widgets_of(ex.skill) if isinstance(x, w.HTML)]
    assert "<b>Niveaux de jeu</b> (les deux camps au même niveau)" in headings
    ex.language.value = "en"
    assert "above ½ under uniform" in html.unescape(ex.skill.changes.value) and "search (4 rollouts)" in view.figure["data"][0]["x"]


def test_optimal_play_is_described_in_french():
    from guyenne_explore.analysis.optimal.solver import OptimalSolver, describe, exploitability, solve_position
    from guyenne_explore.analysis.optimal.round import round_start
    from guyenne_explore.analysis.policies import Uniform
    from tests.test_solve import SMALL, key_of

    rules, key = key_of(SMALL[0])
    p = round_start(rules, key)
    solver = OptimalSolver(rules)
    result = solve_position(p, solver=solver)
    result.exploitability = exploitability(p, {"uniform": Uniform()}, solver)
    fr, en = describe(result, "fr"), describe(result, "en")
    # French decimals and spaces (it said "66.7%" and "3; 2:5", as in English)
    assert fr.startswith("En jeu optimal, cette fin de partie vaut 66,7\u00a0% pour les Anglais. À attaque ou défense "
                         "du premier château (X), le bon coup pour les Français est 3:3 2 fois sur 3\u00a0; 3:5 1 fois "
                         "sur 3 (château:cartes)."), fr
    assert ("At the opening at the first castle (X) the right move for the French is 3:3 2 times in 3; 3:5 1 time in 3 "
            "(castle:cards).") in en
    assert "worth 66.7% for the English" in en and "The English playing uniform lose" in en
    assert "2 times in 3; 3:5" in en
    from guyenne_explore.widgets.optimal_panel import result_html
    set_language("fr")
    try:
        page = result_html(p, result)
    finally:
        set_language(None)
    shown = re.sub(r"<[^>]+>", " ", page)
    assert "66,7\u00a0%" in shown and "33,3\u00a0%" in shown and not re.search(r"\d\.\d", shown), shown
    assert not re.search(r"\b(english|french|open_first)\b", en), en  # the sides and the point as the game names them
    assert "Les Anglais jouant la stratégie uniforme perdent" in fr and "face à un camp qui sait comment ils jouent" in fr
    assert not re.search(r"\b(english|french|times|playing|loses|castle)\b", fr), fr


def test_the_builders_refusals_and_notes_in_french(english):
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.builder import Builder
    from guyenne_explore.widgets.starts import opening

    b = Builder(opening("advanced", 1))
    set_language("fr")
    assert not b.load_notation("not a notation")
    assert "chargement refusé pour la notation\u00a0:" in html.unescape(b.notation_message.value)
    assert b.refused.startswith("la notation\u00a0: refusé (") and "le formulaire n'a pas changé" in b.refused
    b.focus_zone("english", "deck")
    assert b.focus_note.value == "<i>Modification des nombres de cartes\u00a0: pioche (Anglais).</i>"
    set_language("en")
    b.focus_zone("english", "placed-X")
    assert b.focus_note.value == "<i>Editing the English placed at X counts.</i>"


def test_the_command_lines_play_and_solve_reports_in_french(capsys):
    from guyenne_explore.cli import main
    try:
        assert main(["--lang", "fr", "play", "--rules", "base", "--seed", "3"]) == 0
        out = capsys.readouterr().out
        assert "deal\u00a0: les Anglais piochent\u00a0: " in out and re.search(r"après \d+ tours\n$", out), out[-200:]
        assert main(["--lang", "fr", "solve", str(position_path("base-endgame-3v3.json")), "--policies", "uniform",
                     "--budget", "20"]) == 0
        out = capsys.readouterr().out
        assert "valeur (P(victoire), une égalité comptant pour moitié) de le début du tour" not in out
        assert "mélange d'équilibre pour les Français à open_first\u00a0:" in out
        assert "meilleure réponse à la stratégie uniforme jouant les Anglais\u00a0: " in out and "points-selles" in out
        assert main(["--lang", "fr", "--help"]) == 0  # the parser's texts follow --lang too
        out = capsys.readouterr().out
        assert "lister les coups légaux d'une position" in out and "codes de sortie\u00a0:" in out
        set_language("en")
        assert main(["--help"]) == 0 and "list the legal moves of a position" in capsys.readouterr().out
    finally:
        set_language(None)


def test_a_language_switch_redraws_the_last_analysis_without_running_it_again(english, monkeypatch):
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets import analysis_panel
    from guyenne_explore.widgets.explorer import Explorer

    # the compiled games, whatever the fast simulator's state: the engine's first answer plays as many games as a few
    # seconds allow on this machine, then refines in the background (tests/test_engine_first_answers.py covers it)
    monkeypatch.setattr(analysis_panel, "engine_answers_first", lambda *args, **kwargs: False)
    ex = Explorer()
    ex.analysis.method.value = "sample"
    ex.analysis.games.value = 1500
    ex.analysis.run(block=True)
    results = ex.analysis.results
    assert ex.analysis.controls.status.value.startswith("Done: ") and "Balance" in ex.analysis.metrics.value
    assert ex.analysis.controls.progress.description == "1,500/1,500 games"
    ex.language.value = "fr"
    assert ex.analysis.results is results  # nothing played again
    assert ex.analysis.controls.progress.description == "1\u202f500/1\u202f500 parties"  # the count beside the bar too
    assert ex.analysis.controls.status.value.startswith("Terminé\u00a0: ") and "Équilibre" in ex.analysis.metrics.value
    assert ex.analysis.figure_box.shown[0].figure["layout"]["title"]["text"].startswith(
        "Points en fin de partie, par camp<br><sup>Anglais uniforme · Français uniforme")
    assert "Variante\u00a0: " in ex.lab.variant_label.value
    # what answered each rule set, kept and said in the new language (it was dropped by a switch)
    assert "Ce qui a répondu" in ex.analysis.metrics.value and "Échantillonné\u00a0: 1\u202f500 parties" in \
        ex.analysis.metrics.value and "Sampled" not in ex.analysis.metrics.value
    ex.language.value = "en"
    assert ex.analysis.controls.status.value.startswith("Done: ") and "Variant: " in ex.lab.variant_label.value
    assert "What answered" in ex.analysis.metrics.value and "Sampled: 1,500 games (sampled as asked)" in \
        ex.analysis.metrics.value


def test_a_language_switch_says_the_variant_labs_last_status_and_the_download_links_again(english):
    """The variant lab's closing status ("Compared ...", "Swept ...") and the size beside a diagram's and a
    storyboard's download link stayed in the language they were written in after a switch."""
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.explorer import Explorer

    ex = Explorer()
    ex.lab.method.value, ex.lab.games.value = "sample", 20
    ex.lab.run_compare(block=True)
    assert ex.lab.controls.status.value.startswith("Compared ")
    ex.diagram_export.file.offer("diagram.png", b"0" * 1500)
    ex.moves.storyboard.file.offer("storyboard.pdf", b"0" * 2500)
    assert ex.diagram_export.file.last == "diagram.png (1.5 kB)"
    ex.language.value = "fr"
    assert ex.lab.controls.status.value.startswith("Comparé")
    assert ex.diagram_export.file.last == "diagram.png (1,5\u202fko)"
    assert ex.moves.storyboard.file.last == "storyboard.pdf (2,5\u202fko)"
    ex.language.value = "en"
    assert ex.lab.controls.status.value.startswith("Compared ")


def test_the_optimal_play_section_is_written_again_in_french(english):
    pytest.importorskip("ipywidgets")
    from guyenne_explore.engine.positions_io import load_position
    from guyenne_explore.widgets.analysis_panel import OPTIMAL, AnalysisPanel

    panel = AnalysisPanel(load_position(str(position_path("base-endgame-3v3.json"))))
    panel.method.value = OPTIMAL
    panel.optimal.against.value = ("uniform",)
    panel.run(block=True)
    assert "Under optimal play" in panel.optimal.output.value and panel.optimal.status.value.startswith("Done in ")
    set_language("fr")
    panel.refresh()  # what the explorer's switch calls: the kept result, in French, not solved again
    out = html.unescape(panel.optimal.output.value)
    assert "En jeu optimal, cette fin de partie vaut" in out and "Under optimal play" not in out
    assert "<td>uniforme</td>" in out and "<td>Anglais</td>" in out
    assert panel.optimal.status.value.startswith("Terminé en ")


def test_exact_refusals_say_their_estimate_in_french():
    from guyenne_explore.analysis.exact.distribution import out_of_reach
    from guyenne_explore.i18n import plain_duration
    try:
        set_language("en")
        assert "it would take about 3 hours (an estimated 3 billion positions to visit)" in out_of_reach(3e9, 10800)
        set_language("fr")
        text = out_of_reach(3e9, 10800)
        assert text.startswith("l'énumération exacte est hors de portée ici\u00a0: elle prendrait environ 3\xa0heures")
        assert "(selon l'estimation, 3 milliards de positions à parcourir)" in text
        assert plain_duration(4e8) == "plus d'un an" and plain_duration(59.6) == "environ 1 minute"
    finally:
        set_language(None)


def test_the_download_line_under_the_analysis_exports_follows_the_language_switch(english):
    """The "Downloading …" line under the export buttons is written again in the new language, each way."""
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.explorer import Explorer

    ex = Explorer()
    ex.analysis.method.value = "sample"
    ex.analysis.games.value = 20
    ex.analysis.run(block=True)
    bar = ex.analysis.exports
    assert bar.export("json") and re.fullmatch(r"Downloading advanced\.json \([\d.]+ kB\)", bar.status.value)
    ex.language.value = "fr"
    try:
        assert re.fullmatch(r"Téléchargement de advanced\.json \([\d,]+\u202fko\)", bar.status.value)
        assert re.fullmatch(r"advanced\.json \([\d,]+\u202fko\)", bar.download.last)  # the file's label too
        assert bar.export("csv") and bar.status.value.startswith("Téléchargement de ")
    finally:
        ex.language.value = "en"
    assert bar.status.value.startswith("Downloading advanced.csv (")


def test_estimates_and_figures_take_the_languages_decimals():
    """A value with its interval reads "0,510 [0,461 ; 0,559]" in French (the tables, the verdict lines, the
    command line; they wrote "0.510 [0.461, 0.559]" in both), and a figure's axes and hover use the same
    symbols: plotly's separators."""
    from guyenne_explore.i18n import plain_estimate
    from guyenne_explore.render.style import style_figures, style_tables
    from tests.test_style import plant

    assert plain_estimate(0.51, 0.461, 0.559, "en") == "0.510 [0.461, 0.559]"
    assert plain_estimate(0.51, 0.461, 0.559, "fr") == "0,510 [0,461\u00a0; 0,559]"
    assert plain_estimate(0.0312, lang="fr") == "0,031" and plain_estimate(0.5, None, 0.6, "en") == "0.500"
    french = style_tables([plant()], "fr")
    # the uniform level's bluffs, 120 of 1000 (the interval goes under its value where the column is narrow)
    assert "0,120</span>" in french and "[0,101\u00a0; 0,142]" in french and "0.1" not in french
    for lang, separators, sign in (("en", ".,", "%"), ("fr", ",\u202f", "\u00a0%")):
        figures = style_figures([plant()], lang).values()
        assert {f.layout.separators for f in figures} == {separators}
        # the percent axes as the sentences write them ("16 %" in French; plotly's ".0%" wrote "20%")
        assert {f.layout.yaxis.ticksuffix for f in figures} == {sign}
        assert all(sign in t.hovertemplate for f in figures for t in f.data)
    bluffs = style_figures([plant()], "en")["style-bluffs"].data[0]
    assert bluffs.y[0] == pytest.approx(12.0) and bluffs.error_y.array[0] == pytest.approx(14.2 - 12.0, abs=0.1)


def test_durations_counts_and_sizes_are_worded_by_babel_in_both_languages():
    """One helper each (``i18n.plain_duration``, ``plain_count``, ``plain_size``), on
    Babel's CLDR data, for the command line, the panels and the refusals alike."""
    from guyenne_explore.i18n import plain_count, plain_duration, plain_size

    assert plain_duration(90, "en") == "about 2 minutes" and plain_duration(59.6, "en") == "about 1 minute"
    assert plain_duration(90, "fr") == "environ 2 minutes" and plain_duration(59.6, "fr") == "environ 1 minute"
    assert plain_duration(20, "fr") == "environ 20\xa0secondes"
    assert plain_duration(0.3, "en") == "under a second" and plain_duration(float("nan"), "fr") == "plus d'un an"
    assert plain_count(1234567, "en") == "1,234,567" and plain_count(1234567, "fr") == "1\u202f234\u202f567"
    assert plain_size(3400, "en") == "3.4 kB" and plain_size(3400, "fr") == "3,4\u202fko"
    assert plain_size(8e9, "en") == "8 GB" and plain_size(812, "fr") == "812\u202fo"
    try:
        set_language("fr")  # no language named: the current one
        assert plain_duration(10800) == "environ 3\xa0heures"
    finally:
        set_language(None)


# ---------------------------------------------------------------------- the first ten minutes in French (issue 42)
def test_the_session_note_and_the_page_title_follow_the_language_switch(english):
    """What "Open session" said (the file opened, the last results listed) and the browser tab's title stayed
    English after a switch to French."""
    pytest.importorskip("ipywidgets")
    import json

    from guyenne_explore.widgets.explorer import Explorer
    from guyenne_explore.widgets.session import session_data

    data = session_data(Explorer())
    old = {k: data[k] for k in ("kind", "position", "history", "step", "analysis")}  # version 1 lists its results
    old.update(version=1, results={"advanced": {"win": {"english": 0.5, "french": 0.4, "draw": 0.1}, "games": 3000}})
    ex = Explorer()
    assert ex.page_title.title == "Guyenne explorer" and ex.page_title.lang == "en"
    assert ex.session.open_text("old.json", json.dumps(old)), ex.session.upload.message
    assert ex.session.upload.message == "opened old.json"
    assert "advanced: English 0.500, French 0.400, draw 0.100 (3,000 games)" in ex.session.message.value
    ex.language.value = "fr"
    assert ex.session.upload.message == "old.json ouvert"
    assert "advanced\u00a0: Anglais 0,500, Français 0,400, égalité 0,100 (3\u202f000 parties)" in \
        ex.session.message.value
    assert ex.page_title.title == "Explorateur de Guyenne" and ex.page_title.lang == "fr"
    ex.language.value = "en"
    assert ex.session.upload.message == "opened old.json" and "(3,000 games)" in ex.session.message.value
    assert ex.page_title.title == "Guyenne explorer"


def test_typed_balance_targets_take_the_languages_decimals_and_read_both(english):
    """A target's ends kept "0.48" in French; they show the language's decimal symbol after a switch (each way),
    and either form typed is read."""
    pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.explorer import Explorer

    ex = Explorer()
    target = ex.balance.targets[0]
    target.low.value = "0.48"
    ex.language.value = "fr"
    assert (target.low.value, target.high.value) == ("0,48", "0,55")
    assert target.message.value == "" and target.text == "advantage=0,48:0,55"
    target.high.value = "0.6"  # the other form, typed in French: read
    assert target.message.value == ""
    target.high.value = "abc"  # no number: left as typed, its problem beside the row
    ex.language.value = "en"
    assert (target.low.value, target.high.value) == ("0.48", "abc") and "abc" in html.unescape(target.message.value)
    assert Explorer(lang="fr").balance.targets[1].high.value == "0,05"  # an explorer opened in French


def test_undo_and_cancel_are_two_words_in_french(english):
    """« Annuler » was both the builder's Undo and a run's Cancel: no two buttons with different English names
    share one French name."""
    w = pytest.importorskip("ipywidgets")
    from guyenne_explore.widgets.explorer import DEFERRED, Explorer
    from guyenne_explore.widgets.language import widgets_of

    ex = Explorer(lang="fr")
    for title in DEFERRED:  # every tab's panel, built when first shown
        ex.panel(title)
    assert ex.builder.undo_button.description == "↶ Défaire"
    assert ex.analysis.controls.cancel_button.description == "Annuler"
    named: dict[str, set[str]] = {}
    for x in widgets_of(ex):
        kept = getattr(x, "_guyenne_english", {}).get("description")
        if isinstance(x, w.Button) and kept is not None:
            named.setdefault(kept[1], set()).add(kept[0])
    assert not {fr: en for fr, en in named.items() if len(en) > 1}


def test_game_counts_in_subtitles_are_grouped_as_the_language_groups():
    """A figure's subtitle read "(1000 parties)" where the rest writes "3 000": the count takes the language's
    grouping, a narrow no-break space in French."""
    import dataclasses

    from guyenne_explore.engine import Position
    from guyenne_explore.analysis.api import analyse
    from guyenne_explore.render import plots

    result = dataclasses.replace(analyse(Position.start("base"), method="sample", games=20, seed=1), games=3000)
    assert plots.score_figure({"base": result}, "en").layout.annotations[0].text == "base<br>(3,000 games)"
    assert plots.score_figure({"base": result}, "fr").layout.annotations[0].text == "base<br>(3\u202f000 parties)"
