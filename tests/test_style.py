"""How each skill level plays: measures read from hand-made games, sentences from planted numbers, the same seed
giving the same result, the command line's refusals, the French sentences and the skill tab's section."""

import json
import random
import re
from dataclasses import replace

from guyenne_explore.analysis import Cancelled
from guyenne_explore.analysis.studies.style import LevelStyle, PlayStyle, play_style
from guyenne_explore.analysis.studies.style import Share, _Counts, is_bluff
from guyenne_explore.engine.cards import HERO, Cards, value_of
from guyenne_explore.cli import main
from guyenne_explore.i18n import set_language
from guyenne_explore.engine.position import Draw, Position
from guyenne_explore.engine.record import Event, GameRecord
from guyenne_explore.render.style import style_csv, style_figures
from guyenne_explore.engine.rules import Rules
from guyenne_explore.engine.state import DRAW, REMOVE_CHOICE
from guyenne_explore.engine.view import PublicRecord
from guyenne_explore.widgets.skill_panel import SkillPanel
from guyenne_explore.widgets.starts import opening

ADVANCED = Rules.from_json("advanced")
DEALT = ("5", "4", "3", "2", "2")


def scripted(moves: list[str], rounds: int) -> GameRecord:
    """A game of the advanced rules from a known deal: the placements given in order (as the engine writes them;
    ``low`` is the side's weakest valued card), each removal the first the rules allow, the draws between rounds
    sampled from a seeded stream; it stops at the end of round ``rounds``."""
    p = Position.start(ADVANCED)
    record = GameRecord(p)
    deal = Draw(Cards.of(list(DEALT)), Cards.of(list(DEALT)))
    record.events.append(Event(p.to_play, None, draw=deal))
    p = p.apply_outcome(deal)
    rng, todo = random.Random(0), list(moves)
    while not (p.to_play == DRAW and p.round == rounds):
        if p.is_chance:
            draw = p.sample_outcome(rng)
            record.events.append(Event(p.to_play, None, draw=draw))
            p = p.apply_outcome(draw)
            continue
        if p.to_play == REMOVE_CHOICE:  # the loser of a neutral castle removes what the rules let it
            move = next(iter(p.legal_moves))
        else:
            hand = p.sides[p.side_to_play].hand
            low = next(str(value_of(k)) for k in range(HERO) if hand[k])
            move = p.parse_move(todo.pop(0).replace("low", low))
        record.events.append(Event(p.to_play, p.side_to_play, move=move))
        p = p.apply(move)
    assert not todo
    record.positions()  # the engine accepts every event
    return record


#: round 1 (English first): English opens castle 1 with a 5, French answers a 2, French opens castle 2 with a lone 2
#: (a bluff: its hero may be in hand and a 2 cannot beat English's weakest answer, a 2), English answers a 2; French
#: loses castle 1 and removes its 2.  Round 2 (French first): French opens castle 1, English's, with its hero; English
#: answers a 3 (its defence falls: the built-in rule concedes it); English opens castle 3 with a lone 2 (a bluff),
#: French answers a 4 and English removes its 2.
TWO_ROUNDS = ["0:5", "2", "1:2", "2", "0:H", "3", "2:2", "4"]


def counted(record: GameRecord) -> LevelStyle:
    counts = _Counts()
    counts.add(record)
    return LevelStyle.from_counts("uniform", 1, "engine", counts, 6)


def test_a_hand_made_game_counts_its_bluffs_openings_hero_round_and_conceded_defence():
    style = counted(scripted(TWO_ROUNDS, rounds=2))
    assert style.openings == 4 and dict(style.opening_sizes) == {1: 4}
    assert (style.bluffs.hits, style.bluffs.trials) == (2, 4)  # the two lone 2s; the lone 5 and the hero are not
    # French first played its hero in round 2; English kept its hero to the end (of these two rounds)
    assert dict(style.hero_rounds) == {0: 1, 2: 1}
    assert (style.hero_kept.hits, style.hero_first_round.hits, style.hero_late.hits) == (1, 0, 1)
    assert (style.conceded.hits, style.conceded.trials) == (1, 1)  # one defence, which fell
    assert dict(style.castles)[0] == 2 and dict(style.castles)[1] == 1 and dict(style.castles)[2] == 1


def test_the_hero_played_in_round_3_counts_there():
    moves = ["0:low", "low", "1:low", "low",  # round 1 (English first): weak cards
             "2:low", "low", "3:low", "low",  # round 2 (French first)
             "4:H", "low", "5:low", "low"]  # round 3 (English first): English's hero at castle 4
    record = scripted(moves, rounds=3)
    style = counted(record)
    assert dict(style.hero_rounds) == {0: 1, 3: 1}
    assert style.hero_first_round.hits == 0 and style.hero_kept.hits == 1


def test_a_lone_low_card_is_no_bluff_once_the_hero_is_known_elsewhere_and_a_lone_5_never_is():
    p = Position.start(ADVANCED).apply_outcome(Draw(Cards.of(list(DEALT)), Cards.of(list(DEALT))))
    public = PublicRecord.assumed(p)
    assert is_bluff(p.view(0), p.parse_move("0:2"), public)
    assert not is_bluff(p.view(0), p.parse_move("0:5"), public)  # a 5 beats the weakest answer, a 2
    assert not is_bluff(p.view(0), p.parse_move("0:H2"), public)  # the hero hidden with a 2 is real strength
    hero_shown = replace(public, shown_discard=(Cards.of(["H"]), Cards()))
    assert not is_bluff(p.view(0), p.parse_move("0:2"), hero_shown)  # it cannot pass for the hero


def test_played_games_replay_through_the_engine_and_the_same_seed_gives_the_same_result():
    first = play_style(ADVANCED, ("uniform", "strong"), games=6, seed=3)
    again = play_style(ADVANCED, ("uniform", "strong"), games=6, seed=3)
    other = play_style(ADVANCED, ("uniform", "strong"), games=6, seed=4)
    assert first == again and first.to_json() == again.to_json()
    assert first.to_json() != other.to_json()
    assert [s.played_by for s in first.levels] == ["compiled", "compiled"]
    assert all(s.hero_kept.trials == 12 for s in first.levels)  # both sides of every game
    json.dumps(first.to_json())
    rows = first.rows()
    assert {r["measure"] for r in rows} >= {"bluff", "opening_size", "hero_round", "hero_late", "conceded", "castle",
                                           "top_stake"}
    assert style_csv([first]).splitlines()[0] == "rules,level,measure,key,value,low,high,count,of"


def test_concede_decisions_a_level_the_engine_plays_and_a_cancelled_run():
    style = play_style(Rules.from_json({"preset": "advanced", "concede_as_decision": True}), ("uniform", "heuristic"),
                       games=3, seed=1)
    assert [s.played_by for s in style.levels] == ["compiled", "compiled"]
    assert all(s.conceded.trials > 0 for s in style.levels)  # read from the defenders' concede decisions
    assert [s.played_by for s in play_style(ADVANCED, ("search:4",), games=1, seed=1).levels] == ["engine"]
    asked = []
    try:
        play_style(ADVANCED, ("uniform", "heuristic"), games=50, seed=1,
                   on_games=lambda done, total: asked.append(done) or (False if done >= 10 else None))
    except Cancelled:
        pass
    else:
        raise AssertionError("the run went on after its progress said stop")
    assert asked[-1] == 10


def planted(level: str, late: int, round_1: int, kept: int, rounds: tuple[tuple[int, int], ...], bluffs: int) -> LevelStyle:
    """A level's style with chosen numbers: of 100 sides and 1000 openings."""
    empty = LevelStyle.from_counts(level, 50, "compiled", _Counts(), 6)
    return replace(empty, hero_late=Share(late, 100), hero_first_round=Share(round_1, 100), hero_kept=Share(kept, 100),
                   hero_rounds=rounds, bluffs=Share(bluffs, 1000))


def plant() -> PlayStyle:
    weak = planted("uniform", 5, 80, 0, ((1, 80), (2, 15), (5, 5)), 120)
    strong = planted("strong", 70, 10, 30, ((0, 30), (1, 10), (7, 30), (8, 30)), 110)
    return PlayStyle("advanced", 50, 0, (weak, strong))


def test_the_sentences_say_what_the_planted_numbers_say_and_no_more():
    sentences = plant().sentences("en")
    assert sentences[0] == "advanced: 50 games a level, each level against itself."
    hero = sentences[1]
    assert hero.startswith("At the strong level the hero is first played in the last 3 rounds of the game about 70% "
                           "of the time; at the uniform level about 5%.")
    assert "At the uniform level the hero is most often first played in round 1 (80%)." in hero
    assert "strong level the hero is most often" not in hero  # 30, 30 and 30: no round stands out
    # 12% and 11% of a thousand openings: the intervals overlap, so no difference is claimed
    assert "The uniform and strong levels bluff about as often" in sentences[2]
    assert not any("cards at its castle" in s for s in sentences)  # no opening counted: no claim


def test_the_hero_figure_puts_the_rounds_in_their_order_and_the_hero_kept_last():
    """A round only a later level reached is drawn in its place, not after the others (it read 1, 2, 3, 5, 4)."""
    from guyenne_explore.render.style import hero_figure

    weak = planted("uniform", 0, 80, 0, ((1, 80), (5, 10), (10, 10)), 120)
    strong = planted("strong", 70, 0, 30, ((0, 30), (2, 40), (9, 30)), 110)
    axis = hero_figure([PlayStyle("advanced", 50, 0, (weak, strong))]).layout.xaxis
    assert axis.categoryorder == "array" and list(axis.categoryarray) == ["1", "2", "5", "9", "10", "kept"]


def test_the_sentences_in_french():
    english, french = plant().sentences("en"), plant().sentences("fr")
    assert len(english) == len(french)
    assert all(e != f for e, f in zip(english, french))
    assert french[0] == "advanced\u00a0: 50 parties par niveau, chaque niveau contre lui-même."
    hero = re.sub(r"\s", " ", french[1])
    assert hero.startswith("Avec la stratégie forte, le héros est joué pour la première fois dans les 3 derniers "
                           "tours de la partie dans environ 70 % des cas ; avec la stratégie uniforme, environ 5 %.")
    assert "Les stratégies uniforme et forte bluffent à peu près aussi souvent" in french[2]
    figures = style_figures([plant()], "fr")
    assert figures["style-hero"].layout.title.text == "Quand le héros est joué pour la première fois, par niveau"


def test_the_style_command_prints_json_and_refuses_bad_input_in_one_line(capsys):
    assert main(["style", "--rules", "advanced", "--levels", "uniform,heuristic", "--games", "4", "--seed", "1",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["level"] for s in data[0]["levels"]] == ["uniform", "heuristic"] and data[0]["games"] == 4
    for bad in (["--levels", "uniform,wizard"], ["--levels", ","], ["--rules", "nosuch"]):
        assert main(["style", *bad, "--games", "2"]) == 1
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.strip()


def test_the_skill_tab_compares_how_the_levels_play(tmp_path):
    panel = SkillPanel(opening("advanced", 1))
    section = panel.how_they_play
    assert "400 games against itself" in section.cost.value and not section.run_button.disabled
    section.games.value = 1
    assert "1 game against itself" in section.cost.value  # one game: the singular
    section.games.value = 400
    panel.rule_sets.value = (panel.position.rules, Rules.from_json("base"))
    section.levels_text.value = "uniform,strong"
    section.games.value = 8
    assert "16 games against itself (8 under each of 2 rule sets)" in section.cost.value  # two rule sets: not a mistake
    section.run(block=True)
    assert "Done" in section.controls.status.value
    assert section.controls.progress.value == section.controls.progress.max == 2 * 2 * 8
    assert [s.rules for s in section.styles] == [panel.rule_sets.options[0][0], "base"]
    assert section.sentences.value.count("<li>") >= 4 and "8 games a level" in section.sentences.value
    assert len(section.figure_box.shown) == 5
    hero = section.figure_box.shown[0].figure
    assert {t["name"] for t in hero["data"]} == {"uniform", "strong"}
    # a table a rule set under its name: a row a measure (7), a column a level, so that the levels compare across
    tables = section.table.value.split("<table")[1:]
    assert len(tables) == 2 and ">base</div>" in section.table.value.split("<table")[1]  # the second table under its name
    for table in tables:
        assert table.count("<tr>") == 1 + 7
        head = table.split("</thead>")[0]
        assert ">measure<" in head and ">uniform<" in head and ">strong<" in head
        assert "bluffs at an opening" in table and "hero kept to the end" in table
    csv = section.export_files("csv")["guyenne-style.csv"].decode()
    assert csv.startswith("rules,level,measure") and ",base,strong," not in csv and "\nbase,strong,bluff," in csv
    assert section.export("json") and "guyenne-style.json" in section.export_status.value
    # a language switch redraws the kept results in French, without playing again
    previous = set_language("fr")
    try:
        panel.refresh()
        assert "parties par niveau" in section.sentences.value and "Avec la stratégie" in section.sentences.value
        assert "parties contre lui-même" in section.cost.value and section.styles is not None
        assert section.export_status.value.startswith("Téléchargement de guyenne-style.json (")  # said again
        # the levels typed by the names the page shows in French are read as the policies
        section.levels_text.value = "uniforme, Forte-linéaire,recherche:20,heuristic"
        assert section.levels() == ["uniform", "strong-linear", "search:20", "heuristic"]
        section.levels_text.value = "uniforme,sorcier"
        assert "sorcier" in section.levels_message.value and section.levels() is None
    finally:
        set_language(previous)
    # a level PolicySpec does not read: said beside the field, nothing runs
    section.levels_text.value = "uniform,wizard"
    assert "wizard" in section.levels_message.value and section.run_button.disabled
    section.run(block=True)
    assert "fix the problems" in section.controls.status.value


def test_cancel_in_the_skill_tab_keeps_the_previous_results():
    panel = SkillPanel(opening("advanced", 1))
    section = panel.how_they_play
    section.levels_text.value, section.games.value = "uniform,heuristic", 3
    section.run(block=True)
    previous = section.styles
    counted = section.controls.callback

    def cancel_at_once(done, total):
        section.controls.cancel()
        return counted(done, total)

    section.controls.callback = cancel_at_once
    section.games.value = 500
    section.run(block=True)
    assert "Cancelled" in section.controls.status.value and section.styles is previous
    assert section.controls.progress.value < section.controls.progress.max
