"""The Play tab: people and bots play any rule set, variant or position, and every game is kept.

Each seat is a person (by a pseudonym) or a bot of any level (``uniform``, ``heuristic``, ``strong``,
``strong@NAME`` of this session's weights, ``search:N``).  People at one screen play hot-seat: before a person's
turn the table shows only what both sides see and a "pass to" line, and the hand shown once that person says
they are there is theirs alone; while a person is to play, the page receives no hidden card of another seat
(the table draws that seat's view, and its synced notation is left empty: see :class:`.table.Table`).  Bots
against bots step forward and back, and so does any game once it is over, every hand shown, each step said in
the storyboard's words.  Undo is a setting of the game (off for a counted game), recorded when
used.  Every event goes to a journal on disk as it is played (:mod:`.play_store`), so a closed tab, a reload or
a killed kernel loses at most the move being made, and the tab offers to resume an unfinished game.  Under the
game, the games kept are read against the bots on request (:mod:`.playtest_view`).
"""

from __future__ import annotations

import html
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..analysis import PolicySpec
from ..analysis.studies.skill import level_words, typed_level
from ..i18n import N_, FIRST_CASTLE, castle_number, ngettext, point_name, side_title
from ..i18n import gettext as _
from ..engine import Policy
from ..engine import Position
from ..engine import Event, GameRecord, RecordHeader, Seat, seats_for, weights_fingerprint
from ..engine import PRESET_NAMES, REMOVE_CHOICE, SIDES, Rules
from ..engine import PublicRecord, begin_game, side_view
from ..render.storyboard import frames_of
from .files import Download
from .forms import NumberField
from .guard import guarded
from .lessons import LESSONS
from .moves_panel import MoveList, game_over_words, group_moves, on_enter
from .play_store import Journal, JournalHeld, games_folder, unfinished
from .playtest_view import PlaytestView
from .session_weights import SESSION, SessionWeights
from .table import Table

#: where a game can start: the explorer's position and the variant lab's variant (when the panel has them), or a preset
TABLE, VARIANT = "table", "variant"
#: the levels a bot seat offers (any other level PolicySpec reads may be typed)
LEVELS = ("heuristic", "uniform", "strong", "search:200")


def _chance_rng(seed: int, index: int) -> random.Random:
    """The draws of event ``index`` from the game's seed alone: a resumed or undone game draws the same cards."""
    return random.Random(f"{seed}:{index}:chance")


def _bot_rng(seed: int, index: int) -> random.Random:
    """A bot's choice at event ``index``, from the game's seed alone (a resumed game plays on as it would have)."""
    return random.Random(f"{seed}:{index}:bot")


class SeatRow(w.HBox):
    """One seat's settings: a person (a pseudonym) or a bot (a level)."""

    def __init__(self, side: str, member: int, team: bool) -> None:
        self.side, self.member = side, member
        label = side_title(side) + (f" {member}" if team else "")
        self.kind = w.ToggleButtons(options=[(N_("person"), "person"), (N_("bot"), "bot")],
                                    value="person" if side == SIDES[0] else "bot", style={"button_width": "auto"})
        self.who = w.Combobox(placeholder=N_("a pseudonym"), layout=w.Layout(width="180px"))
        self.kind.observe(lambda _c: self._kind_changed(), names="value")
        self._kind_changed()
        super().__init__([w.Label(label, layout=w.Layout(width="90px")), self.kind, self.who])
        self.add_class("guyenne-seat")

    def _kind_changed(self) -> None:
        bot = self.kind.value == "bot"
        self.who.options = tuple(map(level_words, LEVELS)) if bot else ()  # the page's names ("heuristique")
        self.who.value = level_words("heuristic") if bot else ""

    def relabel(self) -> None:
        """After a language switch: a bot's levels offered, and the level as offered if untouched, in the page's
        names (a French page's box said "heuristic" under a "stratégie" label)."""
        if self.kind.value != "bot":
            return
        untouched = self.who.value in self.who.options
        self.who.options = tuple(map(level_words, LEVELS))
        if untouched:
            self.who.value = level_words(typed_level(self.who.value))

    def seat(self, weights: SessionWeights, rules: Rules) -> tuple[Seat, Policy | None]:
        """The seat as typed, and a bot's policy; a ValueError names the seat and what is wrong."""
        who = self.who.value.strip()
        where = side_title(self.side) + (f" {self.member}" if sum(rules.members) > 2 else "")
        if self.kind.value == "person":
            if not who:
                raise ValueError(_("{seat}: give the person's pseudonym").format(seat=where))
            return Seat(self.side, self.member, "person", name=who[:60]), None
        who = typed_level(who)  # the level by its name in the page's language too; the game record keeps the policy's
        try:
            policy = PolicySpec.parse(weights.resolve(who)).policy()
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        played = getattr(policy, "played", None)
        fingerprint = weights_fingerprint(played(rules).flat()) if played is not None else None
        return Seat(self.side, self.member, "bot", policy=who, weights_fingerprint=fingerprint), policy


def _removal_words(p: Position) -> str:
    """What a removal choice is about: the teaching game's words of the rule (:data:`.lessons.LESSONS`, said once
    there), then the castle lost and the cards placed there, which the choice takes from, not the hand the prompt
    shows (a review read the moves "3" and "32" as cards of the hand)."""
    battle, side = p.battle or 0, p.side_to_play or 0
    castle = p.placed.castle(battle)
    return _(LESSONS[REMOVE_CHOICE][1]) + " " + _("Castle {castle}; your cards there: {cards}.").format(
        castle=castle_number(castle if castle is not None else 0), cards=" ".join(p.placed.at(side, battle).symbols()))


class PlayPanel(w.VBox):
    """Set the seats and play; ``position()`` and ``variant()`` (optional) give the explorer's position and the
    variant lab's rules to start from; games are kept in ``folder`` (default :func:`.play_store.games_folder`)."""

    def __init__(self, position: Callable[[], Position | None] | None = None,
                 variant: Callable[[], Rules | None] | None = None, folder: Path | None = None,
                 weights: SessionWeights = SESSION, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("guyenne-play")
        self._position, self._variant = position, variant
        self.folder = folder if folder is not None else games_folder()
        self.weights = weights
        sources = ([(N_("the position on the table"), TABLE)] if position else []) + \
                  ([(N_("the variant lab's variant"), VARIANT)] if variant else []) + [(n, n) for n in PRESET_NAMES]
        self.source = w.Dropdown(options=sources, value="advanced", description=N_("Play"))
        # read by the one reader of numbers (forms.NumberField): what cannot be read is named beside the box
        self.seed = NumberField(N_("Seed"), random.randrange(1_000_000), 0, 2**31 - 1)
        self.allow_undo = w.Checkbox(value=False, indent=False, description=N_("allow undo (not a counted game)"))
        self.seat_rows = w.VBox()
        self.start_button = w.Button(description=N_("Start the game"), button_style="primary")
        # during a game the settings fold away and this button stands for Start: it shows them again, asking first
        self.new_game_button = w.Button(description=N_("New game..."))
        # a game's words (date, players, events) in full: at 360 px the French entry ended "14 événemen"
        self.resume_choice = w.Dropdown(layout=w.Layout(width="560px", max_width="100%"))
        self.resume_button = w.Button(description=N_("Resume"))
        self.resume_box = w.HBox([w.HTML(), self.resume_choice, self.resume_button])
        self.resume_box.add_class("guyenne-resume")
        self.status = w.HTML()
        self.table = Table(show_hands=False, viewer=None)
        self.prompt = w.HTML()
        self.prompt.add_class("guyenne-play-prompt")
        # what happened since the person at the screen last played (the bots' moves, the battles), as their side may
        # know it: the bots answer within a fraction of a second, and the table alone did not say what they did
        self.events_log = w.HTML()
        self.events_log.add_class("guyenne-play-log")
        self.show_hand = w.Button(description=N_("Show my hand"), button_style="warning")
        self.moves = MoveList()
        self.typed = w.Text(placeholder=N_("your move, e.g. 3:H52"), layout=w.Layout(width="200px"))
        self.play_button = w.Button(description=N_("Play"), button_style="primary")
        self.undo_button = w.Button(description=N_("Undo"))
        self.back = w.Button(description=N_("◀ Back"))
        self.forward = w.Button(description=N_("Forward ▶"))
        self.download_button = w.Button(description=N_("Download the records"), icon="download")
        self.download = Download()
        self.summary = PlaytestView(self.folder)  # the games kept, read against the bots on request
        shown = guarded(self.status)  # an unexpected error shows in the status line, never raised: no game is lost
        self.source.observe(shown(lambda _c: self._seats()), names="value")
        self.start_button.on_click(shown(lambda _b: self.start()))
        self.new_game_button.on_click(shown(lambda _b: self.start()))
        self.resume_button.on_click(shown(lambda _b: self.resume_chosen()))
        self.resume_choice.observe(lambda _c: self._enable_resume(), names="value")
        # a new game deals anew unless a seed was typed for it: the same deal twice taught a person the cards
        self._seed_typed = False
        self._dealt = False  # a game was started here (its seed is spent)
        self.seed.box.observe(lambda _c: setattr(self, "_seed_typed", True), names="value")
        self._confirm_start = False  # Start pressed once during a game: pressed again, it leaves that game unfinished
        self.show_hand.on_click(shown(lambda _b: self.hand_over()))
        self.moves.observe(shown(lambda _c: self._preview()), names=["selected", "hovered"])
        self.moves.on_apply(shown(self.play))
        self.play_button.on_click(shown(lambda _b: self.play(self.typed.value or self.moves.selected)))
        on_enter(self.typed, shown(lambda: self.play(self.typed.value)))
        self.undo_button.on_click(shown(lambda _b: self.undo()))
        self.back.on_click(shown(lambda _b: self.step(-1)))
        self.forward.on_click(shown(lambda _b: self.step(1)))
        self.download_button.on_click(shown(lambda _b: self.export()))
        self.controls = w.HBox([self.typed, self.play_button, self.undo_button, self.back, self.forward],
                               layout=w.Layout(flex_flow="row wrap"))
        self.setup = w.VBox([self.resume_box, w.HBox([self.source, self.seed], layout=w.Layout(flex_flow="row wrap")),
                             self.seat_rows, self.allow_undo])
        # the moves beside the table while the tab is wide enough (under it when narrow): under it, a person at
        # 1280x800 scrolled for every move, the first move button about 920 px down
        # a typed move refused, with the engine's reason, under the box it was typed in (the status line at the top
        # of the tab was a window's width away from it)
        self.refusal = w.HTML()
        # what happened since the person's last move under the moves, beside the table: above the table it pushed the
        # person's own hand below a 1280x800 window
        self.move_column = w.VBox([self.controls, self.refusal, self.moves, self.events_log],
                                  layout=w.Layout(flex="1 1 320px", min_width="0"))
        self.move_column.add_class("guyenne-play-moves")
        self.board = w.HBox([self.table, self.move_column],
                            layout=w.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))
        self.children = [
            self.setup, w.HBox([self.start_button, self.new_game_button]), self.status, self.prompt,
            self.show_hand, self.board, w.HBox([self.download_button, self.download]), self.summary]
        self.record: GameRecord | None = None
        self.journal: Journal | None = None
        self.policies: list[Policy | None] = []
        self.handed_to: int | None = None  # the person seat whose view the table shows; None: the public view
        self.shown_at = 0  # the event shown while stepping a bots' game or a finished one
        self._clock = time.monotonic()
        self._seats()
        self.offer_resume()
        self._show()

    # ------------------------------------------------------------------ setting up
    def rules_and_start(self) -> Position:
        """The position a new game starts from, as the source says; a ValueError says why there is none."""
        if self.source.value == TABLE:
            p = self._position() if self._position else None
            if p is None:
                raise ValueError(_("the position on the table is not valid: mend it in the builder first"))
            return p
        if self.source.value == VARIANT:
            rules = self._variant() if self._variant else None
            if rules is None:
                raise ValueError(_("the variant lab has no valid variant: mend its settings first"))
            return Position.start(rules)
        return Position.start(Rules.preset(self.source.value))

    def _seats(self) -> None:
        """One row per seat of the rules chosen (two, or one per team member); rows already set for the same
        seats are kept, so that choosing another rule set of as many players keeps the pseudonyms typed."""
        try:
            rules = self.rules_and_start().rules
        except ValueError:
            rules = Rules.preset("base")
        seats = seats_for(rules)
        if [(r.side, r.member) for r in self.seat_rows.children] == seats:  # type: ignore[attr-defined]
            return
        team = sum(rules.members) > 2
        self.seat_rows.children = [SeatRow(side, member, team) for side, member in seats]

    def start(self) -> None:
        """Start a new game with the seats as set; a bad setting is refused in the status line, naming it.  During a
        game a person plays, the first press says that game will wait among the unfinished ones, the second starts."""
        r = self.record
        if r is not None and not r.final.is_over and not self.bots_only and not self._confirm_start:
            self._confirm_start = True
            # what happens when: the list of unfinished games gains this one only once the new game starts (a review
            # looked for it at once)
            self.status.value = html.escape(_("A game is under way: to go on with it, play your move. Press Start the "
                                              "game again to start a new one; this one will then wait among the "
                                              "unfinished games, to be resumed."))
            self._show()  # the settings, to set the next game
            return
        self._confirm_start = False
        if self._dealt and not self._seed_typed and self.seed.problem is None:
            self.seed.value = random.randrange(1_000_000)  # a new deal (a seed typed since the last game is kept)
        try:
            if self.seed.problem is not None:
                raise ValueError(self.seed.problem)
            start = self.rules_and_start()
            rows: list[SeatRow] = list(self.seat_rows.children)  # type: ignore[arg-type]
            if [(r.side, r.member) for r in rows] != seats_for(start.rules):
                self._seats()
                rows = list(self.seat_rows.children)  # type: ignore[arg-type]
            seats = [row.seat(self.weights, start.rules) for row in rows]
        except ValueError as exc:
            self.status.value = f'<span class="guyenne-refused" style="color:#9b1c1c">{html.escape(str(exc))}</span>'
            return
        header = RecordHeader.new(start.rules, (s for s, _p in seats), seed=self.seed.value, undo=self.allow_undo.value)
        self._dealt, self._seed_typed = True, False
        self._begin(GameRecord(start, header=header), [p for _s, p in seats], None)

    def offer_resume(self) -> None:
        """Offer the unfinished games of the games folder that no page plays now (not this page's own), and say how
        many other pages play and which journals cannot be read."""
        good, bad, elsewhere = unfinished(self.folder, self.journal.path if self.journal is not None else None)
        self.resume_choice.options = [(self._game_words(r), str(path)) for path, r in good]
        self.resume_choice.index = 0 if good else None  # the latest first: Resume never finds nothing chosen
        self.resume_choice.layout.display = self.resume_button.layout.display = "" if good else "none"
        refused = (_("{file} cannot be resumed: {problem}").format(file=p.name, problem=why) for p, why in bad)
        playing = ngettext("{count} unfinished game is being played in another page (once that page is closed, it "
                           "can be resumed here)",
                           "{count} unfinished games are being played in other pages (once such a page is closed, "
                           "its game can be resumed here)", len(elsewhere)).format(count=len(elsewhere))
        self.resume_box.children[0].value = (  # type: ignore[attr-defined]
            _("Unfinished games:") if good else "") + (f"<div>{html.escape(playing)}</div>" if elsewhere else "") + (
            "".join(f"<div class='guyenne-refused'>{html.escape(line)}</div>" for line in refused))
        self.resume_box.layout.display = "" if good or bad or elsewhere else "none"
        self._enable_resume()

    def _enable_resume(self) -> None:
        self.resume_button.disabled = self.resume_choice.value is None

    def resume_chosen(self) -> None:
        """Resume the game chosen in the list (none chosen: said, nothing else)."""
        if self.resume_choice.value is None:
            self.status.value = html.escape(_("Choose an unfinished game in the list to resume it."))
            return
        self.resume(Path(self.resume_choice.value))

    def resume(self, path: Path) -> None:
        """Play on the unfinished game of the journal ``path``, from where it stopped, unless another page plays it
        now (said, nothing else)."""
        found = unfinished(self.folder, self.journal.path if self.journal is not None else None)
        record = dict(found.good).get(path)
        if path in dict(found.elsewhere):
            self.status.value = html.escape(_("{file} is being played in another page").format(file=path.name))
            self.offer_resume()
            return
        if record is None or record.header is None:
            self.status.value = html.escape(_("{file} is no unfinished game of this folder").format(file=path.name))
            return
        try:
            policies = [PolicySpec.parse(self.weights.resolve(s.policy)).policy() if s.kind == "bot" and s.policy else None
                        for s in record.header.seats]
            journal = Journal(path)  # held from here: another page no longer offers it
        except (ValueError, JournalHeld, FileNotFoundError) as exc:  # a level refused; resumed or ended meanwhile
            self.status.value = html.escape(str(exc) if not isinstance(exc, FileNotFoundError) else _(
                "{file} is no unfinished game of this folder").format(file=path.name))
            self.offer_resume()
            return
        self._begin(record, policies, journal)

    def _begin(self, record: GameRecord, policies: list[Policy | None], journal: Journal | None) -> None:
        seed = (record.header.seed or 0) if record.header is not None else 0
        sides = [SIDES.index(s.side) for s in record.header.seats] if record.header is not None else [0, 1]
        # a bot that draws what plays the whole game (a mixture drawn once a game) draws it from the game's seed and
        # its side, so a resumed game goes on with the same, and a team's two bots of one level play one member
        self.record, self.policies = record, [
            None if policy is None else begin_game(policy, record.start.rules, _bot_rng(seed, -1 - side))
            for side, policy in zip(sides, policies)]
        if self.journal is not None:
            self.journal.release()  # the game left unfinished: another page may resume it
        self.journal = journal if journal is not None else Journal.begin(self.folder, record)
        self.handed_to = None
        self.status.value = self.refusal.value = ""
        self.offer_resume()
        self._advance(bot_moves=0 if self.bots_only else None)  # a bots' game waits for Forward

    # ------------------------------------------------------------------ the game
    @property
    def position(self) -> Position | None:
        """The position of the game now (its last event played)."""
        return self.record.final if self.record is not None else None

    def _seat_to_play(self, p: Position) -> int:
        """The index of the seat that decides at ``p`` (the header's order)."""
        assert self.record is not None and p.side_to_play is not None
        return seats_for(p.rules).index((SIDES[p.side_to_play], p.member_to_play))

    def _is_person(self, seat: int) -> bool:
        return self.policies[seat] is None

    @property
    def bots_only(self) -> bool:
        return bool(self.policies) and all(p is not None for p in self.policies)

    def _append(self, event: Event, think_ms: int | None) -> None:
        """One more event: on disk first, then in the game (a crash between loses nothing written)."""
        assert self.record is not None and self.journal is not None
        self.journal.event(event, think_ms)
        self.record.append(event, think_ms)

    def _advance(self, bot_moves: int | None = None) -> None:
        """Play chance and bots until a person decides (or ``bot_moves`` bot decisions, a bots' game's step)."""
        assert self.record is not None and self.record.header is not None
        seed = self.record.header.seed or 0
        p = self.record.final
        memory = self._memory()
        while not p.is_over:
            index = len(self.record.events)
            if p.is_chance:
                self._append(Event(p.to_play, None, draw=p.sample_outcome(_chance_rng(seed, index))), None)
            else:
                seat = self._seat_to_play(p)
                policy = self.policies[seat]
                if policy is None or bot_moves == 0:
                    break
                began = time.monotonic()
                move = policy.choose(side_view(p, p.side_to_play or 0, record=memory), _bot_rng(seed, index))
                self._append(Event(p.to_play, p.side_to_play, move=move), round((time.monotonic() - began) * 1000))
                if bot_moves is not None:
                    bot_moves -= 1
            q = self.record.final
            memory, p = memory.after(p, q, self.record.events[-1].move), q
        self.shown_at = len(self.record.events)
        if p.is_over and self.journal is not None:
            self.journal.finish(self.record)
            self.journal = None
            self.summary.offer()  # the game just kept is one more to read
        self._show()

    def _memory(self) -> PublicRecord:
        """What both sides remember of the game so far (the bots decide from it), replayed from its start."""
        assert self.record is not None
        positions = self.record.positions()
        memory = PublicRecord.assumed(positions[0])
        for before, after, event in zip(positions, positions[1:], self.record.events):
            memory = memory.after(before, after, event.move)
        return memory

    def hand_over(self) -> None:
        """The person to play is at the screen: show their hand and their moves, and start their clock."""
        p = self.position
        if p is None or p.is_over or p.is_chance or not self._is_person(self._seat_to_play(p)):
            return
        self.handed_to = self._seat_to_play(p)
        self._clock = time.monotonic()
        self.typed.value = self.refusal.value = ""  # what the last person typed is not played for this one
        self._show()

    def play(self, text: str) -> bool:
        """The person's move: played when legal, else refused with the engine's reason (nothing is lost)."""
        p = self.position
        if p is None or p.is_over or p.is_chance or self.handed_to != self._seat_to_play(p):
            return False
        reason = p.why_illegal(text, FIRST_CASTLE) if text.strip() else None
        if reason is not None or not text.strip():
            said = (_("{move} is not allowed: {reason}.").format(move=text, reason=reason) if reason is not None
                    else _("Choose a move in the list or type one, e.g. 3:H52."))
            self.refusal.value = '<span class="guyenne-illegal" style="color:#9b1c1c">✗ {}</span>'.format(html.escape(said))
            return False
        self.status.value = self.refusal.value = ""
        self._confirm_start = False
        self.typed.value = ""
        self._append(Event(p.to_play, p.side_to_play, move=p.parse_move(text, FIRST_CASTLE)),
                     round((time.monotonic() - self._clock) * 1000))
        self._advance()
        return True

    def undo(self) -> bool:
        """Take back moves up to the last move of the person to play now (the bots' replies with it), when the
        game allows undo; each move taken back is recorded."""
        r = self.record
        if r is None or r.header is None or not r.header.undo or self.handed_to is None:
            return False
        person = self.handed_to
        while any(e.move is not None for e in r.events):
            before = r.positions()[max(i for i, e in enumerate(r.events) if e.move is not None)]
            undone = r.take_back()
            assert self.journal is not None
            self.journal.undo(undone)
            if self._seat_to_play(before) == person:
                break
        self._clock = time.monotonic()
        self._advance()
        return True

    @property
    def stepping(self) -> bool:
        """Whether Back and Forward step through the game: a bots' game, or any game once it is over (every hand is
        shown then, so a person reads again what happened)."""
        return self.record is not None and (self.bots_only or self.record.final.is_over)

    def step(self, delta: int) -> None:
        """A bots' game or a finished one: Back shows the position before, Forward the next one (in a bots' game
        still under way, playing the next move at the end)."""
        if self.record is None or not self.stepping:
            return
        if delta > 0 and self.shown_at >= len(self.record.events) and not self.record.final.is_over:
            self._advance(bot_moves=1)
            return
        self.shown_at = max(0, min(len(self.record.events), self.shown_at + delta))
        self._show()

    def export(self) -> None:
        """Download the games of the folder (finished and in progress) as one JSON list of records."""
        from ..engine import read_records

        good, bad = read_records([self.folder])
        going = unfinished(self.folder)  # this page's game too, which it holds: listed as played elsewhere
        records = [r.to_json() for _f, r in good] + [r.to_json() for _p, r in going.good + going.elsewhere]
        self.download.offer("guyenne-playtest.json", json.dumps(records, indent=1))
        if bad:
            self.status.value = "<br>".join(html.escape(f"{Path(f).name}: {why}") for f, why in bad)

    # ------------------------------------------------------------------ display
    #: what a saved session keeps of the tab besides its fields: nothing (every game is kept in the games folder,
    #: resumed from there)
    SAVED: dict[str, Any] = {}

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps, in the order they are set back (the seats follow the rules chosen, and keep
        what was typed for as many seats: they are not kept)."""
        return {"source": self.source, "seed": self.seed, "allow_undo": self.allow_undo}

    def saved_results(self) -> dict[str, Any]:
        """Nothing (:data:`SAVED`)."""
        return {}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """Nothing to draw (:data:`SAVED`)."""

    def refresh(self) -> None:
        """After a language switch: the prompt, the resume offer, the seats' labels and the summary in the new
        language."""
        for row in self.seat_rows.children:
            row.relabel()  # type: ignore[attr-defined]
        self.offer_resume()
        self._show()
        self.summary.refresh()

    def _game_words(self, record: GameRecord) -> str:
        header = record.header
        who = " – ".join(s.name if s.kind == "person" and s.name else level_words(s.policy or "?")
                         for s in header.seats) if header is not None else "?"
        date = header.date.replace("T", " ")[:16] if header else "?"
        return ngettext("{date}: {seats}, {moves} event", "{date}: {seats}, {moves} events", len(record.events)).format(
            date=date, seats=who, moves=len(record.events))

    def _show(self) -> None:
        """Draw the game as the seat at the screen may see it: a person's own view, or only what both sides see."""
        r = self.record
        playing = r is not None
        # the settings fold away while a person plays, the game's table and moves higher up in the window
        in_game = r is not None and not r.final.is_over and not self.bots_only and not self._confirm_start
        self.setup.layout.display = self.start_button.layout.display = "none" if in_game else ""
        self.new_game_button.layout.display = "" if in_game else "none"
        for x in (self.table, self.controls, self.moves, self.prompt):
            x.layout.display = "" if playing else "none"
        self.back.layout.display = self.forward.layout.display = "" if self.stepping else "none"
        if r is None:
            self.show_hand.layout.display = "none"
            return
        p = r.final
        undo_allowed = r.header is not None and r.header.undo
        self.undo_button.layout.display = "" if undo_allowed else "none"
        person_now = not p.is_over and not p.is_chance and self._is_person(self._seat_to_play(p))
        if person_now and self.handed_to != self._seat_to_play(p):
            self.handed_to = None  # another person's turn: nothing hidden is shown until they say they are there
            if sum(policy is None for policy in self.policies) == 1:  # one person against bots: no screen to pass
                self.handed_to, self._clock = self._seat_to_play(p), time.monotonic()
        playing_now = person_now and self.handed_to is not None
        for x in (self.typed, self.play_button):  # no box that plays nothing (game over, screen to pass)
            x.layout.display = "" if playing_now else "none"
        with self.table.hold_sync():
            self.table.show_hands = self.bots_only or p.is_over
            self.table.viewer = p.side_to_play if self.handed_to is not None else None
            self.table.viewer_member = p.member_to_play if self.handed_to is not None else None  # not a partner's
            self.table.set_position(r.positions()[self.shown_at] if self.stepping else p)
        # what the last person saw goes first: the page hears "pass the screen" only once their moves are gone
        self.moves.show(group_moves(p) if person_now and self.handed_to is not None else [])
        # an opening names its castle; elsewhere the castle is set (a review typed the answer's castle, refused)
        # the engine's moves say it: cards with no castle (an answer, a removal, a discard), or a castle as well
        move = next(iter(p.legal_moves), None) if not p.is_over and not p.is_chance else None
        cards_alone = move is not None and move.castle is None and bool(move.cards)
        self.typed.placeholder = _("your cards, e.g. 52") if cards_alone else _("your move, e.g. 3:H52")
        if p.is_over:
            # the event stepped back to is counted once, in the heading of what it did (:meth:`_step_html`)
            steps = (_("◀ Back and Forward ▶ step through the game, every hand shown.") if 0 < self.shown_at < len(r.events)
                     else _("◀ Back and Forward ▶ step through the game, every hand shown: event {shown} of {events}."
                            ).format(shown=self.shown_at, events=len(r.events)))
            self.prompt.value = _("<b>Game over</b>: {result}. The record is kept.").format(
                result=html.escape(game_over_words(p))) + " " + html.escape(steps)
        elif person_now and self.handed_to is None:
            seat = r.header.seats[self._seat_to_play(p)] if r.header is not None else None
            name = html.escape(seat.name or "") if seat is not None else ""
            self.prompt.value = _("<b>Pass the screen to {name}</b> ({side}). Only {name} may look now.").format(
                name=name, side=side_title(SIDES[p.side_to_play or 0]))
            self.show_hand.description = _("I am {name}: show my hand").format(name=seat.name if seat else "")
        elif person_now:
            hand = " ".join(p.sides[p.side_to_play or 0].hands[p.member_to_play].symbols())
            self.prompt.value = _("<b>Your turn</b> ({side}, {point}, round {round}). Your hand: <code>{hand}</code>."
                                  ).format(side=side_title(SIDES[p.side_to_play or 0]), point=point_name(p.to_play),
                                           round=p.round, hand=hand) + " " + html.escape(
                (_removal_words(p) + " " if p.to_play == REMOVE_CHOICE else "") + _(
                    "Point at a move to see it on the table; double-click it, or select it and press Play, to play it."))
        else:
            self.prompt.value = _("Bots' game: event {shown} of {events}; Forward plays the next move.").format(
                shown=self.shown_at, events=len(r.events))
        self.show_hand.layout.display = "" if person_now and self.handed_to is None else "none"
        self.events_log.value = (self._step_html() if self.stepping and (self.bots_only or self.shown_at < len(r.events))
                                 else self._log_html(p) if playing_now or p.is_over else "")

    def _step_html(self) -> str:
        """What the event before the position shown did, in the storyboard's words with every hand shown (a bots' game
        or a finished one, stepped through)."""
        r = self.record
        assert r is not None
        if self.shown_at == 0:
            return ""
        before = len(frames_of(GameRecord(r.start, r.events[:self.shown_at - 1])))
        lines = [f.caption for f in frames_of(GameRecord(r.start, r.events[:self.shown_at]))[before:] if f.kind != "end"]
        if not lines:
            return ""
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        title = html.escape(_("Event {shown} of {events}:").format(shown=self.shown_at, events=len(r.events)))
        return f"<div><b>{title}</b><ul>{items}</ul></div>"

    def _log_html(self, p: Position) -> str:
        """What happened since the last move of the person at the screen (at the game's end, of the last person to
        play), in the storyboard's words as their side may know them (:func:`..render.storyboard.frames_of`)."""
        r = self.record
        assert r is not None
        positions = r.positions()
        persons = [i for i, e in enumerate(r.events) if e.move is not None
                   and self._is_person(self._seat_to_play(positions[i]))
                   and (p.is_over or self._seat_to_play(positions[i]) == self.handed_to)]
        if not persons:
            return ""
        last = persons[-1]
        viewer = None if p.is_over else p.side_to_play
        # the frames before the person's move, and its own (an answer at the second castle's frame is followed by the
        # round's battles, drawn from the same event: they are said)
        before = len(frames_of(GameRecord(r.start, r.events[:last]), viewer=viewer)) + 1
        lines = [f.caption for f in frames_of(GameRecord(r.start, list(r.events)), viewer=viewer)[before:]
                 if f.kind != "end"][-12:]
        if not lines:
            return ""
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        title = html.escape(_("Since your last move:"))
        return f"<div><b>{title}</b><ul>{items}</ul></div>"

    def _preview(self) -> None:
        if self.handed_to is not None:
            self.table.highlight = self.moves.hovered or self.moves.selected
