"""A guided game against the heuristic policy: learn the rules by playing them.

Each rule is explained the first time it applies (see :mod:`.lessons`), and a
move that breaks a rule is refused with the engine's own reason.  The table
shows the learner's side as its player sees it: hand, placed cards and what
its deck and discard hold face up; the other side's hidden cards are backs
unless "show the other side's cards" is ticked.  The other
side plays with :class:`~guyenne_explore.analysis.policies.heuristic.Heuristic` from its
own view only, and chance is seeded, so a game can be replayed.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import ipywidgets as w

from ..i18n import FIRST_CASTLE, castle_number, current_language, ngettext, point_name, set_language, side_noun, side_title
from ..i18n import gettext as _
from ..analysis import to_saved
from ..engine import Move
from ..engine import CONCEDE_CHOICE, REMOVE_CHOICE, RESPOND_SECOND, Position
from ..render.storyboard import all_placed
from ..engine import SIDES, Rules
from .language import LanguageSwitch, relabel
from .lessons import LESSONS, battle_line, lesson, noticed
from .moves_panel import MoveList, game_over_words, group_moves, heuristic_choice, on_enter, score_explained
from .diagram_export import StoryboardExport
from .guard import guarded
from .table import Table


class TeachingGame(w.VBox):
    """Play ``side`` against the heuristic policy; ``play(text)`` is a move by the learner."""

    def __init__(self, rules: Rules | str = "base", side: str = "english", seed: int = 1, lang: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # English / Français: the lessons, the prompts, what happened and the table follow
        self.language = LanguageSwitch(self.set_language, lang)
        self.rules = rules
        self.me = SIDES.index(side)
        self.seed = seed
        # your own hand and placed cards face up, the other side's as backs until the box is ticked
        self.table = Table(show_hands=False, viewer=self.me)
        self.reveal = w.Checkbox(description="show the other side's cards", indent=False)
        self.prompt = w.HTML()
        self.moves = MoveList()
        self.typed = w.Text(placeholder="your move, e.g. 3:H52", layout=w.Layout(width="220px"))
        self.play_button = w.Button(description="Play", button_style="primary")
        self.restart = w.Button(description="New game")
        self.explain = w.HTML()
        # an unexpected error in any handler shows beside the move controls (see guard), never raised
        shown = guarded(self.explain)
        self.reveal.observe(shown(lambda _c: self._reveal()), names="value")
        self.moves.observe(shown(lambda _c: self._preview()), names=["selected", "hovered"])
        self.moves.on_apply(shown(self.play))  # a double-clicked move of the list shown
        self.play_button.on_click(shown(lambda _b: self.play(self.typed.value or self.moves.selected)))
        on_enter(self.typed, shown(lambda: self.play(self.typed.value)))  # Enter plays what is typed, even nothing
        self.restart.on_click(shown(lambda _b: self.new_game(self.seed + 1)))
        self.lessons = w.HTML()
        self.history_view = w.HTML()
        # the game so far as pictures, as the learner saw it (the other side's hidden cards stay backs)
        self.storyboard = StoryboardExport(lambda: self.positions, viewer=self.me)
        self.children = [
            self.language,
            w.HBox([self.table, w.VBox([w.HTML("<h4>Rules as they come up</h4>"), self.lessons],
                                       layout=w.Layout(width="380px"))]),
            self.reveal, self.prompt, w.HBox([self.typed, self.play_button, self.restart]), self.explain,
            self.moves, w.HTML("<h4>What happened</h4>"), self.history_view, self.storyboard,
        ]
        self.new_game(seed)
        if self.language.value != "en":
            self.set_language(self.language.value)

    # ------------------------------------------------------------------ public
    def set_language(self, lang: str) -> None:
        """Show the game in ``lang`` (``en``/``fr``): labels, lessons, prompt, what happened and the table."""
        if self.language.value != lang:
            self.language.value = lang  # the switch sets the process's language and calls back here
            return
        set_language(lang)
        relabel(self, lang)
        self.explain.value = ""
        self._show()

    def new_game(self, seed: int) -> None:
        """Deal a new game (seeded) and play until it is the learner's turn."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.seen: list[str] = []
        self.events: list[Callable[[], str]] = []  # each written in the language shown when displayed
        self._revealed: Position | None = None  # the round's cards turned over, while its battles resolve
        self.explain.value = ""
        self.position = Position.start(self.rules)
        self.positions = [self.position]
        self.played: list[Move] = []  # the learner's moves: with the seed, the whole game (a session keeps them)
        self._learn(["setup"])
        self._advance()

    def play(self, text: str) -> bool:
        """The learner's move: applied when legal, else refused with the engine's reason."""
        p = self.position
        if p.is_over or p.side_to_play != self.me:
            return False
        reason = p.why_illegal(text, FIRST_CASTLE) if text.strip() else _("choose a move in the list or type one, e.g. 3:H52")
        if reason is not None:
            refused = _("{move} is not allowed: {reason}.").format(move=f"<b>{html.escape(text)}</b>",
                                                                   reason=html.escape(reason))
            self.explain.value = f'<div class="guyenne-illegal" style="color:#9b1c1c">✗ {refused}</div>'
            return False
        self.explain.value = ""
        self.typed.value = ""
        self._play(p.parse_move(text, FIRST_CASTLE))
        return True

    def _play(self, move: Move) -> None:
        """The learner's legal ``move``, then chance and the other side until the learner decides again."""
        self.played.append(move)
        self._step(self.position.apply(move), partial(_you_played, move), move)
        self._advance()

    # ------------------------------------------------------------------ sessions
    #: what a saved session keeps of the game: its seed and the learner's moves, which replay it whole (chance and
    #: the other side are drawn from the seed's stream)
    SAVED: dict[str, Any] = {"seed": int, "moves": tuple[Move, ...]}

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps: whether the other side's cards are shown."""
        return {"reveal": self.reveal}

    def saved_results(self) -> dict[str, Any]:
        """The game's seed and the learner's moves (:data:`SAVED`), as session data."""
        return {"seed": self.seed, "moves": to_saved(self.played)}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The saved game played again from its seed; a move that is not the learner's legal move where it comes (a
        file edited by hand) stops the replay there, said beside the move box."""
        self.new_game(saved.get("seed", self.seed))
        for move in saved.get("moves", ()):
            p = self.position
            if p.is_over or p.side_to_play != self.me or move not in p.legal_moves:
                self.explain.value = '<div class="guyenne-illegal" style="color:#9b1c1c">✗ {}</div>'.format(html.escape(
                    _("the saved game's move {move} is not a move of yours here: the game stops before it").format(
                        move=move.text(FIRST_CASTLE))))
                return
            self._play(move)

    @property
    def seen_lessons(self) -> list[str]:
        """The rules explained so far, in order."""
        return list(self.seen)

    # ------------------------------------------------------------------ the game
    def _advance(self) -> None:
        """Play chance and the other side until the learner decides (or the game ends)."""
        p = self.position
        while not p.is_over and (p.is_chance or p.side_to_play != self.me):
            if p.is_chance:
                self._step(p.apply_outcome(p.sample_outcome(self.rng)), None)
            else:
                move = heuristic_choice(p, self.rng)
                self._step(p.apply(move), partial(_other_played, p, move), move)
                if p.to_play in ("open_first", "respond_first", "open_second", "respond_second"):
                    self._learn(["opponent_hidden"])
            p = self.position
        if not p.is_over:
            self._learn([p.to_play])
        self._show()

    def _step(self, after: Position, line: Callable[[], str] | None, move: Move | None = None) -> None:
        """Record the step to ``after`` (``move``: the decision that made it, None for chance).

        The last placement of a round resolves both battles inside the engine's step, so the
        cards turned over are the position before with that placement put down
        (:func:`~guyenne_explore.render.storyboard.all_placed`); both battles are told once the
        resolution is over (after any removal or concede decision it called for).
        """
        before = self.position
        if line:
            self.events.append(line)
        if move is not None and before.to_play == RESPOND_SECOND:
            self._revealed = all_placed(before, move)
            before = self._revealed
        if self._revealed is not None and after.to_play not in (REMOVE_CHOICE, CONCEDE_CHOICE):
            revealed = self._revealed
            self.events.extend(partial(battle_line, revealed, after, b) for b in (0, 1)  # type: ignore[misc]
                               if revealed.placed.castle(b) is not None)
            self._revealed = None
        self._learn(noticed(before, after))
        self.position = after
        self.positions.append(after)

    def _learn(self, keys: list[str]) -> None:
        for key in keys:
            if key in LESSONS and key not in self.seen:
                self.seen.append(key)

    # ------------------------------------------------------------------ display
    def _show(self) -> None:
        p = self.position
        self.table.set_position(p)
        if p.is_over:
            self.prompt.value = _("<b>Game over</b>: {result}. Press <i>New game</i> to play again.").format(
                result=html.escape(game_over_words(p))) + _score_html(p)
            self.moves.show([])
        else:
            hand = " ".join(p.sides[self.me].hands[p.member_to_play].symbols())
            self.prompt.value = _("<b>Your turn</b> ({side}, {point}, round {round}). "
                                  "Your hand: <code>{hand}</code>. Hover a move to see it on the table, "
                                  "double-click (or select and press Play) to play it.").format(
                side=side_title(SIDES[self.me]) if current_language() == "en" else side_noun(SIDES[self.me]),
                point=point_name(p.to_play),
                round=p.round, hand=hand)
            self.moves.show(group_moves(p))
        self.lessons.value = "".join(
            f'<details {"open" if i == len(self.seen) - 1 else ""} class="guyenne-lesson" data-lesson="{k}">'
            f"<summary><b>{html.escape(lesson(k)[0])}</b></summary>{html.escape(lesson(k)[1])}</details>"
            for i, k in enumerate(self.seen))
        self.history_view.value = "<br>".join(html.escape(e()) for e in self.events[-12:])

    def _preview(self) -> None:
        self.table.highlight = self.moves.hovered or self.moves.selected

    def _reveal(self) -> None:
        self.table.show_hands = self.reveal.value
        self.table.set_position(self.position)


def _score_html(p: Position) -> str:
    """The final score castle by castle, a side a line: how each side's total is made."""
    rows = "".join(
        "<li>" + ngettext("{side}, {total} point: {terms}", "{side}, {total} points: {terms}", total).format(
            side=html.escape(side), total=total, terms=html.escape(" + ".join(terms))) + "</li>"
        for side, terms, total in score_explained(p))
    return f'<ul class="guyenne-score">{rows}</ul>'


def _you_played(move: Move) -> str:
    """The learner's move in words: an opening names its castle as the rulebook numbers it (1 to n)."""
    if move.castle is not None:
        return _("You opened castle {castle} with {cards}.").format(castle=castle_number(move.castle), cards=move.cards)
    return _("You played {move}.").format(move=move.text())


def _other_played(before: Position, move: Any) -> str:
    """What the other side did, as the learner may know it (how many cards, not which)."""
    side = SIDES[before.side_to_play or 0]
    who = side.capitalize() if current_language() == "en" else side_noun(side, capital=True)
    n = move.cards.size
    if move.concede is not None or move.first_member is not None or before.to_play == "remove_choice":
        return _("{side} chose {move}.").format(side=who, move=move.text())
    if move.castle is not None:
        return ngettext("{side} opened castle {castle} with {count} face-down card.",
                        "{side} opened castle {castle} with {count} face-down cards.", n).format(
            side=who, castle=castle_number(move.castle), count=n)
    return ngettext("{side} placed {count} face-down card.", "{side} placed {count} face-down cards.", n).format(
        side=who, count=n)
