"""A guided game against the heuristic policy: learn the rules by playing them.

Each rule is explained the first time it applies (see :mod:`.lessons`), and a
move that breaks a rule is refused with the engine's own reason.  The table
shows the learner's side as its player sees it: hand, placed cards and what
its deck and discard hold face up; the other side's hidden cards are backs
unless "show the other side's cards" is ticked.  The other
side plays with :class:`~guyenne_explore.analysis.heuristic.Heuristic` from its
own view only, and chance is seeded, so a game can be replayed.
"""

from __future__ import annotations

import html
import random
from typing import Any

import ipywidgets as w

from ..position import Position
from ..rules import SIDES, Rules
from .lessons import LESSONS, battle_report, noticed
from .moves_panel import MoveList, group_moves, heuristic_choice
from .diagram_export import StoryboardExport
from .guard import guarded
from .table import Table


class TeachingGame(w.VBox):
    """Play ``side`` against the heuristic policy; ``play(text)`` is a move by the learner."""

    def __init__(self, rules: Rules | str = "base", side: str = "english", seed: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
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
        self.moves.on_msg(shown(lambda _w, content, _b: self.play(str(content.get("move", ""))
                                                                   if isinstance(content, dict) else "")))
        self.play_button.on_click(shown(lambda _b: self.play(self.typed.value or self.moves.selected)))
        self.restart.on_click(shown(lambda _b: self.new_game(self.seed + 1)))
        self.lessons = w.HTML()
        self.history_view = w.HTML()
        # the game so far as pictures, as the learner saw it (the other side's hidden cards stay backs)
        self.storyboard = StoryboardExport(lambda: self.positions, viewer=self.me)
        self.children = [
            w.HBox([self.table, w.VBox([w.HTML("<h4>Rules as they come up</h4>"), self.lessons],
                                       layout=w.Layout(width="380px"))]),
            self.reveal, self.prompt, w.HBox([self.typed, self.play_button, self.restart]), self.explain,
            self.moves, w.HTML("<h4>What happened</h4>"), self.history_view, self.storyboard,
        ]
        self.new_game(seed)

    # ------------------------------------------------------------------ public
    def new_game(self, seed: int) -> None:
        """Deal a new game (seeded) and play until it is the learner's turn."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.seen: list[str] = []
        self.events: list[str] = []
        self.explain.value = ""
        self.position = Position.start(self.rules)
        self.positions = [self.position]
        self._learn(["setup"])
        self._advance()

    def play(self, text: str) -> bool:
        """The learner's move: applied when legal, else refused with the engine's reason."""
        p = self.position
        if p.is_over or p.side_to_play != self.me:
            return False
        reason = p.why_illegal(text) if text.strip() else "choose a move in the list or type one, e.g. 3:H52"
        if reason is not None:
            self.explain.value = (f'<div class="guyenne-illegal" style="color:#9b1c1c">✗ <b>{html.escape(text)}</b> '
                                  f'is not allowed: {html.escape(reason)}.</div>')
            return False
        self.explain.value = ""
        self.typed.value = ""
        self._step(p.apply(text), f"You played {p.parse_move(text).text()}.")
        self._advance()
        return True

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
                who = SIDES[p.side_to_play or 0].capitalize()
                what = (f"opened castle {move.castle} with" if move.castle is not None else "placed") \
                    + f" {move.cards.size} face-down card{'s' if move.cards.size != 1 else ''}"
                if move.concede is not None or move.first_member is not None or p.to_play == "remove_choice":
                    what = f"chose {move.text()}"
                self._step(p.apply(move), f"{who} {what}.")
                if p.to_play in ("open_first", "respond_first", "open_second", "respond_second"):
                    self._learn(["opponent_hidden"])
            p = self.position
        if not p.is_over:
            self._learn([p.to_play])
        self._show()

    def _step(self, after: Position, line: str | None) -> None:
        before = self.position
        if line:
            self.events.append(line)
        if after.placed.empty and not before.placed.empty:
            self.events.extend(battle_report(before, after))
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
            r = p.result()
            self.prompt.value = (f"<b>Game over</b>: English {r.english}, French {r.french}: "
                                 f"{'a draw' if r.winner == 'draw' else r.winner + ' win'}. "
                                 "Press <i>New game</i> to play again.")
            self.moves.groups = []
        else:
            hand = " ".join(p.sides[self.me].hands[p.member_to_play].symbols())
            self.prompt.value = (f"<b>Your turn</b> ({SIDES[self.me]}, {p.to_play}, round {p.round}). "
                                 f"Your hand: <code>{hand}</code>. Hover a move to see it on the table, "
                                 "double-click (or select and press Play) to play it.")
            self.moves.groups = group_moves(p)
        self.lessons.value = "".join(
            f'<details {"open" if i == len(self.seen) - 1 else ""} class="guyenne-lesson" data-lesson="{k}">'
            f"<summary><b>{html.escape(LESSONS[k][0])}</b></summary>{html.escape(LESSONS[k][1])}</details>"
            for i, k in enumerate(self.seen))
        self.history_view.value = "<br>".join(html.escape(e) for e in self.events[-12:])

    def _preview(self) -> None:
        self.table.highlight = self.moves.hovered or self.moves.selected

    def _reveal(self) -> None:
        self.table.show_hands = self.reveal.value
        self.table.set_position(self.position)
