"""The Play tab (issue 44) at the widget level: a game is journalled as it is played and a new panel resumes it to
the same position and record; hot-seat hands stay hidden at each hand-over (in every widget's synced state);
undo is recorded; a bad move loses nothing; bots against bots step forward and back."""

import html
import json
import xml.etree.ElementTree as ET

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances  # every live widget of the kernel (Widget.widgets is deprecated)

from guyenne_explore.i18n import set_language
from guyenne_explore.engine.record import GameRecord, seats_for
from guyenne_explore.render.svg import position_svg
from guyenne_explore.engine.rules import SIDES, Rules
from guyenne_explore.engine.view import revealed, side_view
from guyenne_explore.widgets.play_panel import PlayPanel
from guyenne_explore.widgets.play_store import read_journal


def _panel(folder, seats, preset="base", undo=False, seed=11) -> PlayPanel:
    """A panel in ``folder`` with ``seats`` (a pseudonym, or bot:LEVEL) set, its game started; the only widgets
    alive in the kernel are the panel's (what :func:`_page_state` reads is what this panel sends)."""
    w.Widget.close_all()
    panel = PlayPanel(folder=folder)
    panel.source.value = preset
    for row, who in zip(panel.seat_rows.children, seats):
        row.kind.value = "bot" if who.startswith("bot:") else "person"
        row.who.value = who.removeprefix("bot:")
    panel.seed.value = seed
    panel.allow_undo.value = undo
    panel.start()
    assert panel.record is not None, panel.status.value
    return panel


def _first_move(panel: PlayPanel) -> str:
    return panel.moves.groups[0]["moves"][0][0]


def _page_state() -> list[dict]:
    """Everything the page holds: the synced state of every widget alive in the kernel."""
    return [x.get_state() for x in list(_instances.values())]


def _synced() -> str:
    """The page's state as one JSON text."""
    return "\n".join(json.dumps(state, default=str) for state in _page_state())


SVG = "{http://www.w3.org/2000/svg}"


def _face_up(svg: str) -> dict[tuple[str, str, int], list[str]]:
    """The cards an SVG of the table shows face up in each stack, by (side, zone, member), a pile's contents
    counted by value as one entry: what a page holding that picture can read."""
    out: dict[tuple[str, str, int], list[str]] = {}
    for g in ET.fromstring(svg).iter(SVG + "g"):
        if g.get("data-zone") is None:
            continue
        key = (g.get("data-side"), g.get("data-zone"), int(g.get("data-member", 0)))
        shown = [c.get("data-card") or c.get("data-cards") for c in g.iter(SVG + "g")
                 if c.get("data-card") or c.get("data-cards")]
        out.setdefault(key, []).extend(shown)
    return out


def _pictures() -> list[str]:
    """Every SVG picture in the page's state."""
    return [value for state in _page_state() for value in state.values()
            if isinstance(value, str) and value.startswith("<svg")]


def _assert_member_sees_only_its_own(p) -> None:
    """At a team member's turn nothing the page holds shows its partner's hand, the partner's face-down
    placed cards or the deck's contents (RULES.md 8); its own hand is face up, and what it may see is the
    engine's view of that member."""
    me, member = p.side_to_play, p.member_to_play
    view = p.sides[me]
    seen = side_view(p, me, member)
    pictures = _pictures()
    assert pictures and p.notation() not in _synced()
    for svg in pictures:
        faces = _face_up(svg)
        side = SIDES[me]
        assert sorted(faces.get((side, "hand", member), [])) == sorted(view.hands[member].symbols())
        assert faces.get((side, "hand", 1 - member), []) == [], "the partner's hand is drawn face up"
        assert faces.get((side, "deck", 0), []) == [], "the deck's contents are drawn for a team member"
        for battle in (0, 1):
            placed = faces.get((side, "placed-" + "XY"[battle], 0), [])
            assert not placed or sorted(placed) == sorted(seen.own_placed[battle].symbols()) or revealed(
                p, battle, 1 - me), "the partner's face-down cards are drawn"


def test_a_game_closed_mid_game_is_resumed_by_a_new_panel_to_the_same_position_and_record(tmp_path):
    first = _panel(tmp_path, ["Alice", "bot:heuristic"])
    first.hand_over()
    for _ in range(3):
        assert first.play(_first_move(first))
    mid = first.record.to_json()
    assert not first.record.final.is_over and len(list(tmp_path.glob("*.jsonl"))) == 1
    first.journal.release()  # the tab closed, the kernel gone (the system lets go of its hold): the journal remains
    del first

    second = PlayPanel(folder=tmp_path)
    assert second.resume_box.layout.display == "" and len(second.resume_choice.options) == 1
    second.resume(tmp_path / next(tmp_path.glob("*.jsonl")).name)
    assert second.record.to_json() == mid and second.position == GameRecord.from_json(mid).final
    second.hand_over()
    assert second.play(_first_move(second))  # and play goes on where it stopped


def test_a_game_another_page_plays_is_not_offered_to_resume_until_that_page_lets_it_go(tmp_path):
    """Every page offered every unfinished journal of the folder, the one another page was playing too: resumed
    there, two pages wrote their moves into one journal."""
    first = _panel(tmp_path, ["Alice", "bot:heuristic"])
    first.hand_over()
    assert first.play(_first_move(first))
    journal = next(tmp_path.glob("*.jsonl"))
    second = PlayPanel(folder=tmp_path)
    assert second.resume_choice.options == () and second.resume_choice.layout.display == "none"
    assert "1 unfinished game is being played in another page" in second.resume_box.children[0].value
    second.resume(journal)  # asked anyway (a list shown before the other page began): refused in words
    assert second.record is None and html.unescape(second.status.value) == f"{journal.name} is being played in another page"
    assert first.play(_first_move(first))  # the first page plays on, alone in its journal
    assert read_journal(journal).to_json() == first.record.to_json()
    first.new_game_button.click()
    first.start()  # a new game: the one before waits among the unfinished games, for any page
    second.offer_resume()
    assert second.resume_choice.options == ((second._game_words(read_journal(journal)), str(journal)),)
    assert "being played" in second.resume_box.children[0].value  # the first page's new game
    second.resume_chosen()
    assert second.record.to_json() == read_journal(journal).to_json()
    first.offer_resume()  # now the second page plays it: the first no longer offers it
    assert first.resume_choice.options == () and "being played in another page" in first.resume_box.children[0].value


def test_a_journal_held_by_a_kernel_that_is_killed_can_be_resumed_at_once(tmp_path):
    """The hold is the system's: a kernel killed mid-game (no chance to let go) leaves its game to be resumed."""
    import subprocess
    import sys

    _panel(tmp_path, ["Alice", "bot:heuristic"]).journal.release()  # a game left in the folder
    journal = next(tmp_path.glob("*.jsonl"))
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; "
                               "from guyenne_explore.widgets.play_store import Journal; "
                               f"j = Journal(Path({str(journal)!r})); print('held', flush=True); sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        panel = PlayPanel(folder=tmp_path)
        assert panel.resume_choice.options == () and "being played in another page" in panel.resume_box.children[0].value
    finally:
        holder.kill()
        holder.wait()
    panel.offer_resume()
    assert len(panel.resume_choice.options) == 1
    panel.resume_chosen()
    assert panel.record.to_json() == read_journal(journal).to_json()


def test_a_move_being_written_when_the_kernel_died_is_the_only_one_lost(tmp_path):
    panel = _panel(tmp_path, ["Alice", "bot:uniform"])
    panel.hand_over()
    panel.play(_first_move(panel))
    journal = next(tmp_path.glob("*.jsonl"))
    whole = read_journal(journal).to_json()
    with journal.open("a") as fh:
        fh.write('{"event":{"to_play":"op')  # killed halfway through a line
    assert read_journal(journal).to_json() == whole


def test_hot_seat_hides_the_other_hand_at_each_hand_over(tmp_path):
    panel = _panel(tmp_path, ["Alice", "Bob"])
    handovers = 0
    for turn in range(12):
        p = panel.position
        me = p.side_to_play
        if panel.handed_to == me:  # the same person plays on: no hand-over
            assert panel.play(_first_move(panel))
            continue
        handovers += 1
        # the pass screen: only what both sides see, no move listed, the full notation never sent
        assert panel.handed_to is None and panel.show_hand.layout.display == ""
        assert panel.table.svg == position_svg(p, show_hands=False, viewer=None) and panel.moves.groups == []
        assert p.notation() not in _synced() and panel.table.notation == ""
        panel.hand_over()
        # the person's own view: the other side's hand stays backs, and no widget holds its cards
        assert panel.table.svg == position_svg(p, show_hands=False, viewer=me)
        assert f'data-side="{("english", "french")[1 - me]}" data-face-up="false"' in panel.table.svg
        assert p.notation() not in _synced()
        assert f"<code>{' '.join(p.sides[me].hands[0].symbols())}</code>" in panel.prompt.value
        assert panel.play(_first_move(panel)), turn
    assert handovers >= 4


@pytest.mark.parametrize("preset", ["team", "team3"])
def test_hot_seat_shows_a_team_member_its_own_hand_never_its_partners(tmp_path, preset):
    rules = Rules.preset(preset)
    panel = _panel(tmp_path, [f"P{i}" for i in range(len(seats_for(rules)))], preset=preset)
    member_turns = 0
    for _turn in range(16):
        p = panel.position
        if p.is_over:
            break
        if panel.handed_to is None:
            assert not [cards for svg in _pictures() for (_s, zone, _m), cards in _face_up(svg).items()
                        if zone in ("hand", "deck", "discard") and cards]  # the pass screen: nobody's hand
            panel.hand_over()
        if len(p.sides[p.side_to_play].hands) == 2:
            member_turns += 1
            _assert_member_sees_only_its_own(p)
            hand = " ".join(p.sides[p.side_to_play].hands[p.member_to_play].symbols())
            assert f"<code>{hand}</code>" in panel.prompt.value
        assert panel.play(_first_move(panel))
    assert member_turns >= 6


def test_undo_takes_back_to_the_persons_move_and_is_recorded(tmp_path):
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"], undo=True)
    panel.hand_over()
    before = panel.record.to_json()["moves"]
    move = _first_move(panel)
    position = panel.position
    panel.play(move)
    assert panel.undo()
    assert panel.record.to_json()["moves"] == before
    assert [u.move for u in panel.record.undos][-1] == position.parse_move(move, 1).text()  # the file's notation
    journal = read_journal(next(tmp_path.glob("*.jsonl")))
    assert journal.undos == panel.record.undos and journal.events == panel.record.events


def test_a_counted_game_has_no_undo_and_a_bad_move_loses_nothing(tmp_path):
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    panel.hand_over()
    moves = list(panel.record.events)
    assert not panel.undo() and panel.undo_button.layout.display == "none"
    assert not panel.play("9:zz") and "not allowed" in panel.refusal.value and panel.record.events == moves


def test_a_bots_game_steps_forward_and_back_and_is_kept_when_over(tmp_path):
    panel = _panel(tmp_path, ["bot:heuristic", "bot:uniform"])
    assert panel.bots_only and not panel.record.final.is_over
    panel.step(1)
    played = len(panel.record.events)
    assert played > 0 and panel.shown_at == played
    panel.step(-1)
    assert panel.shown_at == played - 1 and panel.table.position == panel.record.positions()[played - 1]
    while not panel.record.final.is_over:
        panel.step(1)
    assert not list(tmp_path.glob("*.jsonl")) and len(list(tmp_path.glob("*.json"))) == 1


def test_a_finished_game_steps_back_and_forward_every_hand_shown_each_step_said(tmp_path):
    """Once a person's game is over, Back and Forward step through it (they are hidden while it is played), the table
    shows every hand at each step and the log says what the step did; stepping plays nothing."""
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    assert panel.back.layout.display == "none"
    panel.step(-1)  # during a person's game: nothing moves
    assert panel.table.position == panel.record.final
    _finished(panel)
    events = len(panel.record.events)
    assert panel.back.layout.display == "" and panel.shown_at == events
    assert f"event {events} of {events}" in panel.prompt.value
    positions = panel.record.positions()
    for k in range(events - 1, events - 8, -1):
        panel.step(-1)
        assert panel.shown_at == k and panel.table.position == positions[k] and panel.table.show_hands
        assert f"Event {k} of {events}:" in panel.events_log.value and "<li>" in panel.events_log.value
        assert f" of {events}" not in panel.prompt.value  # counted once, in the heading of what the event did
    panel.step(-events)
    assert panel.shown_at == 0 and panel.events_log.value == "" and f"event 0 of {events}" in panel.prompt.value
    panel.step(events + 5)
    assert panel.shown_at == events and len(panel.record.events) == events  # nothing played past the end
    assert "Since your last move" in panel.events_log.value


@pytest.mark.parametrize("level, words", [("strong@/etc/hostname", "strong@NAME"), ("nosuch", "unknown level")])
def test_a_bad_bot_level_is_refused_naming_it(tmp_path, level, words):
    panel = PlayPanel(folder=tmp_path)
    panel.source.value = "base"
    panel.seat_rows.children[0].who.value = "Alice"
    panel.seat_rows.children[1].who.value = level
    panel.start()
    assert panel.record is None and words in panel.status.value and not list(tmp_path.iterdir())


def _finished(panel: PlayPanel) -> None:
    """Play the panel's game to its end, the person at the screen taking the first move listed."""
    while not panel.record.final.is_over:
        panel.hand_over()
        assert panel.play(_first_move(panel)), panel.status.value


def test_the_summary_says_the_cost_then_reads_the_kept_games_into_accuracy_plays_like_and_sentences(tmp_path, monkeypatch):
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path / "cache"))  # no reading kept from another run
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    summary = panel.summary
    assert summary.read_button.disabled and "No finished game" in summary.cost.value
    _finished(panel)
    # the game just kept, chosen, and listed by its date and players (its file's name told a person nothing)
    assert [name for _label, name in summary.chosen.options] == list(summary.chosen.value)
    assert len(summary.chosen.value) == 1 and summary.chosen.options[0][0].endswith(": Alice – heuristic")
    summary.budget.value = "search:2"
    summary.bot_games.value = 2
    # the cost comes first, before anything is read
    assert "decisions and" in summary.cost.value and "search:2" in summary.cost.value and summary.report is None
    assert not summary.read_button.disabled
    summary.read()
    assert "Done" in summary.controls.status.value and summary.controls.progress.bar_style == "success"
    alice = next(p for p in summary.report.players if p.name == "Alice")
    low, high = alice.accuracy[1:]
    assert "Alice" in summary.table.value and "plays like" in summary.table.value
    assert f"accuracy {round(alice.accuracy[0])} [{round(low)}, {round(high)}] out of 100" in summary.sentences.value
    bot = next(p for p in summary.report.players if p.name == "heuristic")
    assert bot.plays_like == "heuristic" and "heuristic plays most like" not in summary.sentences.value  # says nothing
    # its row's blunders are the level's distance from the search, and the table says so
    assert "A bot's decisions are read as a person's are, against the search at 2 rollouts" in html.unescape(
        summary.table.value)
    set_language("fr")
    try:
        panel.refresh()
        assert summary.report.sentences("fr")[0] in html.unescape(summary.sentences.value)
        assert "précision" in summary.sentences.value and "1 partie (1 déjà lue)" in summary.cost.value
        assert "heuristique" in summary.table.value  # a bot by its level's name, its bands in words
        assert "Les décisions d’un bot sont lues" in html.unescape(summary.table.value)
        assert not any(word in summary.table.value for word in ("blunder", "mistake", "inaccuracy", "good"))
    finally:
        set_language("en")


def test_the_decisions_to_look_at_draw_each_costly_decision_as_its_player_saw_it_with_the_bots_move(tmp_path,
                                                                                                       monkeypatch):
    """After a reading, the person's costliest decisions are listed, the costliest first; choosing one draws the
    position before it from that person's side (the other hand face down) with the move played outlined, or the
    bots' move; the words follow a language switch."""
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path / "cache"))
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    review = panel.summary.review
    assert review.layout.display == "none"  # nothing to show before a reading
    _finished(panel)
    panel.summary.budget.value = "search:2"  # two rollouts a move: losses in every band
    panel.summary.bot_games.value = 2
    panel.summary.read()
    assert review.layout.display == "" and review.player.options == (("Alice", 0),)  # people only, the bot left out
    assert review.costly and [label for label, _i in review.listed.options][0].startswith("Round ")
    losses = [c.decision.loss for c in review.costly]
    assert losses == sorted(losses, reverse=True)
    record = panel.record
    for i in (0, len(review.costly) - 1):
        review.listed.value = i
        c = review.costly[i]
        assert review.table.position == record.positions()[c.decision.index]
        assert review.table.viewer == c.decision.side == 0  # Alice plays the English
        shown, position = _face_up(review.table.svg), review.table.position
        assert shown.get(("french", "hand", 0), []) == [] and position.sides[1].hand.size > 0  # face down
        assert sorted(shown[("english", "hand", 0)]) == sorted(position.sides[0].hand.symbols())  # Alice's own
        typed = position.parse_move(c.decision.move).text(1)  # the record's notation, shown as the table numbers
        assert review.table.highlight == typed and review.table.highlighted_move() == position.parse_move(typed, 1)
        review.outlined.value = "best"
        assert review.table.highlight == position.parse_move(c.decision.best_move).text(1) != typed
        review.outlined.value = "played"
        assert "the bots prefer" in review.words.value
    set_language("fr")
    try:
        panel.refresh()
        assert "les bots préfèrent" in html.unescape(review.words.value)
        assert [label for label, _i in review.listed.options][0].startswith("Tour ")
    finally:
        set_language("en")


def test_the_summary_refuses_a_budget_not_of_the_search_and_cancel_stops_the_reading(tmp_path, monkeypatch):
    monkeypatch.setenv("GUYENNE_CACHE", str(tmp_path / "cache"))  # no reading kept from another run
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    _finished(panel)
    summary = panel.summary
    summary.budget.value = "400"
    assert summary.read_button.disabled and "search:400" in summary.controls.status.value
    summary.budget.value = "search:400"
    summary.controls.callback = lambda done, total: False  # Cancel pressed as the first event is read
    summary.read()
    assert summary.report is None and "Cancelled" in summary.controls.status.value


def test_choosing_another_rule_set_of_as_many_seats_keeps_the_pseudonyms_typed(tmp_path):
    panel = PlayPanel(folder=tmp_path)
    panel.source.value = "base"
    panel.seat_rows.children[0].who.value = "Alice"
    panel.source.value = "advanced"
    assert panel.seat_rows.children[0].who.value == "Alice"
    panel.source.value = "team"
    assert [(r.side, r.member) for r in panel.seat_rows.children] == seats_for(Rules.preset("team"))


def test_a_bot_drawn_once_a_game_draws_its_member_from_the_games_seed(tmp_path):
    from guyenne_explore.analysis.policies import weights as files
    from guyenne_explore.analysis.policies.mixture import Mixture
    from guyenne_explore.analysis.policies.strong import Strong
    from guyenne_explore.widgets.session_weights import SessionWeights
    from guyenne_explore.engine import weights_fingerprint
    from tests.test_network import NET, network

    other = network(4, 77, scale=0.8)
    path = tmp_path / "mix.json"
    files.write_mixture(path, [files.Model(NET, {}, "advanced"), files.Model(other, {}, "advanced")], (1, 1), {},
                        "advanced", per_game=True)
    weights = SessionWeights()
    weights.add_trained("mix", path)
    drawn = set()
    for seed in range(8):
        w.Widget.close_all()
        folder = tmp_path / str(seed)
        panel = PlayPanel(folder=folder, weights=weights)
        panel.source.value = "advanced"
        for row, who in zip(panel.seat_rows.children, ["bot:strong@mix", "bot:uniform"]):
            row.kind.value, row.who.value = "bot", who.removeprefix("bot:")
        panel.seed.value = seed
        panel.start()
        bot = panel.policies[0]
        assert isinstance(bot, Strong) and bot.mixture == Mixture.alone(bot.model)  # one member plays the game
        drawn.add(bot.model)
        assert panel.record.header.seats[0].weights_fingerprint == weights_fingerprint(
            Mixture((NET, other), (1, 1), per_game=True).flat())  # the record names the mixture, not the member
        panel.step(1)
        journal, = folder.glob("*.jsonl")
        panel.journal.release()  # the page closed
        again = PlayPanel(folder=folder, weights=weights)  # the game resumed in a new panel goes on with that member
        again.resume(journal)
        assert again.record is not None and again.policies[0].model == bot.model
    assert drawn == {NET, other}


def test_one_person_against_a_bot_plays_at_once_and_reads_what_the_bot_did_since_their_move(tmp_path):
    """No screen to pass with one person: their hand and moves show at once; after their move, the bot's answer
    (and a round's battles) are said in words their side may know, the bots' cards face down by count only."""
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    assert panel.handed_to == 0 and panel.show_hand.layout.display == "none" and panel.typed.layout.display == ""
    assert panel.play(_first_move(panel))  # English opens castle X; French answers there and opens castle Y
    log = html.unescape(panel.events_log.value)
    assert "Since your last move:" in log and "French answers at castle" in log and "face down" in log
    # the English view's captions (the storyboard's), never the table's whole view
    from guyenne_explore.render.storyboard import frames_of

    seen = [f.caption for f in frames_of(panel.record, viewer=0)][2:]
    assert seen and all(caption in log for caption in seen)
    while panel.position.round == 1:  # to the person's answer at the second castle: the round's battles follow
        assert panel.play(_first_move(panel))
    log = html.unescape(panel.events_log.value)
    assert "Battle X at castle" in log and "Battle Y at castle" in log and "End of round 1" in log, log
    _finished(panel)
    assert panel.typed.layout.display == "none" and panel.play_button.layout.display == "none"  # nothing to play
    assert "Since your last move:" in panel.events_log.value


def test_a_new_game_deals_anew_unless_a_seed_is_typed_and_start_during_a_game_asks_first(tmp_path):
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"], seed=11)
    assert panel.record.header.seed == 11
    # the settings fold away during the game: New game... stands for Start
    assert panel.setup.layout.display == "none" and panel.start_button.layout.display == "none"
    assert panel.new_game_button.layout.display == ""
    panel.new_game_button.click()  # a game under way: said, the settings shown again, nothing started
    assert "Press Start the game again" in panel.status.value and panel.record.header.seed == 11
    assert panel.setup.layout.display == "" and panel.start_button.layout.display == ""
    panel.start()
    assert panel.record.header.seed != 11 and panel.record.events[0].draw is not None  # another deal
    assert panel.seed.value == panel.record.header.seed  # the box shows the seed of the game played
    panel.seed.value = 11  # typed: that deal again
    panel.start()
    panel.start()
    assert panel.record.header.seed == 11
    # the games left unfinished wait to be resumed: the latest chosen, so Resume never finds nothing chosen
    panel.offer_resume()
    assert panel.resume_choice.value is not None and not panel.resume_button.disabled
    panel.resume_choice.index = None
    assert panel.resume_button.disabled
    panel.resume_chosen()
    assert "Choose an unfinished game" in panel.status.value


def test_an_empty_move_is_refused_in_words_and_castles_are_typed_as_the_table_numbers_them(tmp_path):
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"])
    assert not panel.play("")
    assert panel.refusal in panel.move_column.children  # under the move box, not at the top of the tab
    said = html.unescape(panel.refusal.value)
    assert "Choose a move in the list or type one" in said and " is not allowed" not in said
    for past in ("7:H", "0:H"):
        assert not panel.play(past)
        assert f"there is no castle {past[0]}: castles are numbered 1 to 6" in html.unescape(panel.refusal.value)
    assert not panel.play("H")
    assert "at the opening at the first castle (X) the move names a castle" in html.unescape(panel.refusal.value)
    assert panel.play("6:H")  # the table's castle 6: a person typed 3:32 for castle 3 and opened castle 4
    assert panel.refusal.value == ""  # played: the refusal is gone
    assert [m["move"] for m in panel.record.to_json()["moves"] if m.get("side") == "english"][-1] == "5:H"


def test_a_removal_choice_says_it_takes_from_the_cards_placed_at_the_lost_castle(tmp_path):
    """The prompt showed the hand alone ("Your hand: 3 2", moves "3" and "32"): the choice is among the cards the
    person placed at the neutral castle lost, and the words now say which castle and which cards."""
    for seed in range(11, 40):
        panel = _panel(tmp_path, ["Alice", "bot:heuristic"], preset="advanced", seed=seed)
        while not panel.record.final.is_over and panel.record.final.to_play != "remove_choice":
            panel.hand_over()
            assert panel.play(_first_move(panel)), panel.status.value
        p = panel.record.final
        if p.to_play == "remove_choice" and p.side_to_play == 0:
            break
    else:
        pytest.fail("no seed gave Alice a removal choice")
    panel.hand_over()
    castle = p.placed.castle(p.battle)
    placed = " ".join(p.placed.at(0, p.battle).symbols())
    assert ("remove for good either your strongest card placed there, or two or more of your cards there adding up to "
            f"at least its value. Castle {castle + 1}; your cards there: {placed}.") in html.unescape(panel.prompt.value)


def test_the_move_box_hints_a_castle_only_where_one_is_chosen(tmp_path):
    """At an answer the castle is set: the hint "3:H52" taught a form that was refused there."""
    panel = _panel(tmp_path, ["Alice", "bot:heuristic"], preset="advanced")
    panel.hand_over()
    assert panel.record.final.to_play == "open_first" and panel.typed.placeholder == "your move, e.g. 3:H52"
    assert panel.play(_first_move(panel))
    panel.hand_over()
    assert panel.record.final.to_play == "respond_second" and panel.typed.placeholder == "your cards, e.g. 52"
