"""Storyboards: a whole game as pictures, one diagram per step that matters, for a rulebook's examples.

From a :class:`~guyenne_explore.engine.record.GameRecord` (or a history of positions,
turned into one by asking the engine which move or draw links each pair), a
storyboard has one frame per step a reader must see: the deal, each placement
(face down), each battle revealed with its winner, cards removed for good,
the end-of-round draw, the team and expert decisions, and the final score.
Each frame's caption says what happened, and a line under it states the rule
that applies in a rulebook's words (:data:`RULES`, one sentence per kind of
step).  Everything the captions state is read from positions the engine
produced (who controls a castle after the round, what left a hand, what went
to the removed zone); nothing here decides a rule.

Hands are drawn face up so that the reader can follow the game, but cards
placed this round stay face down until the reveal, as on the table.  A
storyboard can also be drawn as one player sees the game (``viewer``): the
other side's hand and unrevealed cards stay backs throughout.
"""

from __future__ import annotations

import io
import pathlib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import HERO, Cards
from ..i18n import N_, capitalised, castle_number, current_language, gettext, ngettext, point_name, side_noun, side_title, translator
from ..engine import Move
from ..engine import (CONCEDE_CHOICE, DEAL, DRAW, ENGLISH, FRENCH, NEUTRAL, OPEN_FIRST, OPEN_SECOND, REMOVE_CHOICE,
                        RESPOND_FIRST, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT, Position, evolve,
                        replace_side)
from ..engine import Event, GameRecord
from .svg import Diagram, position_svg

NAME = {ENGLISH: "English", FRENCH: "French"}
#: The rule each kind of step follows, in words a rulebook's reader knows (RULES.md sections 2-8); the
#: removals and the score by the rule set's removal and scoring rules.  Frames keep the key, shown by :func:`rule_words`.
RULES = {
    "start": N_("a position: any moment of a game, every card in its zone"),
    DEAL: N_("the deal: each side takes its hero and draws up to a full hand"),
    SETUP_DISCARD: N_("the expert setup: each side puts five cards of its choice face down in its discard before the deal"),
    TEAM_SPLIT: N_("the team game: the drawer gives cards of its choice to its partner and keeps at least one"),
    TEAM_ORDER: N_("the team game: the team decides which member places first this round"),
    OPEN_FIRST: N_("the opening: the first player chooses castle X and places cards there face down"),
    RESPOND_FIRST: N_("the answer: the other side places cards face down at castle X"),
    OPEN_SECOND: N_("the second castle: the other side chooses castle Y, not X, and places cards there face down"),
    RESPOND_SECOND: N_("the last placement: the first player places cards face down at castle Y, then all are revealed"),
    "battle": N_("the battle: the higher total wins the castle; a lone hero wins whatever the totals; "
                 "a tie leaves the castle with whoever held it"),
    CONCEDE_CHOICE: N_("conceding: the defender may give up the castle instead of revealing its cards"),
    "removal:advanced": N_("cards removed for good: an attacker of the other side's castle removes its strongest card "
                           "there; the loser at a neutral castle, its strongest card or cards worth as much"),
    "removal:classic2021": N_("cards removed for good (2021 rules): an attacker that takes the other side's castle "
                              "removes its strongest card there"),
    "removal:none": N_("cards removed for good: none under these rules"),
    DRAW: N_("the end of a round: placed cards go to the discards and each side draws back up to a full hand, "
             "shuffling its discard into a new deck when the deck runs out"),
    "end:2022": N_("the score: a lone castle scores 1, a run of n neighbouring castles 2n, every castle 12"),
    "end:2021": N_("the 2021 score: 1 a castle, the longest run's length if 2 or more, 1 an unspent card; "
                   "every castle 12"),
}


def rule_key(kind: str, position: Position) -> str:
    """The key in :data:`RULES` of a step of ``kind`` under ``position``'s rules."""
    if kind in (REMOVE_CHOICE, "removal"):
        return f"removal:{position.rules.removal}"
    if kind == "end":
        return f"end:{position.rules.scoring}"
    return kind if kind in RULES else "start"


def rule_words(key: str, lang: str | None = None) -> str:
    """The rule of :data:`RULES` under ``key`` as a sentence in ``lang`` (its first letter in capitals)."""
    return capitalised(translator(lang).gettext(RULES[key]))


@dataclass(frozen=True)
class Frame:
    """One picture of a storyboard: the position drawn, its caption, and how to draw it."""

    position: Position
    caption: str
    #: the key in :data:`RULES` of the rule the step follows
    rule: str
    kind: str
    placed_face_up: bool = False
    highlight_castle: int | None = None
    show_winners: bool = False
    highlight_move: Move | None = None
    #: the battles a battle frame turns face up in a player's view (the engine's view says the rest)
    revealing: tuple[int, ...] = ()
    #: whether the side to play is marked (not on a reveal, a moment between decisions)
    show_turn: bool = True

    def diagram(self, number: int | None = None, width: float = 720, viewer: int | None = None,
                lang: str | None = None) -> Diagram:
        """The frame's diagram; ``number`` prefixes the caption (``3. English opens ...``).  With a ``viewer``
        (ENGLISH or FRENCH) the picture is that player's view: the other side's hand and unrevealed cards as backs.
        ``lang`` is the language of the diagram's labels (the caption is the frame's, see :func:`frames_of`)."""
        _ = translator(lang).gettext
        p = self.position
        text = self.caption
        if number is not None:
            text = _("{number}. {caption}").format(number=number, caption=text)
        info = (_("{rules} · round {round} · game over") if p.is_over else _("{rules} · round {round}")).format(
            rules=p.rules.preset_name, round=p.round)
        placed = self.placed_face_up if viewer is None else frozenset(self.revealing)
        return Diagram(position_svg(p, show_hands=viewer is None, viewer=viewer, show_placed=placed,
                                    caption=text, rule=rule_words(self.rule, lang), width=width,
                                    highlight_castle=self.highlight_castle, show_winners=self.show_winners,
                                    highlight_move=self.highlight_move, info=info, show_turn=self.show_turn,
                                    lang=lang))


# ---------------------------------------------------------------------- records from histories
def record_from_positions(positions: Sequence[Position]) -> GameRecord:
    """The record linking consecutive positions (a moves panel's history): each step is the legal move or
    chance outcome the engine says leads from one to the next; a step no move or draw explains is an error."""
    if not positions:
        raise ValueError(gettext("a storyboard needs at least one position"))
    record = GameRecord(positions[0])
    for i, (p, q) in enumerate(zip(positions, positions[1:]), start=1):
        if p.is_chance:
            draw = next((d for d, _ in p.chance_outcomes() if p.apply_outcome(d) == q), None)
            if draw is None:
                raise ValueError(gettext("step {step}: no draw leads from {point} to the next position").format(
                    step=i, point=p.to_play))
            record.events.append(Event(p.to_play, None, draw=draw))
        else:
            move = next((m for m in p.legal_moves if p.apply(m) == q), None)
            if move is None:
                raise ValueError(gettext("step {step}: no legal move leads from {point} to the next position").format(
                    step=i, point=p.to_play))
            record.events.append(Event(p.to_play, p.side_to_play, move=move))
    return record


# ---------------------------------------------------------------------- frames
def _side(side: int, lang: str) -> str:
    """A side as the subject of a caption: ``English`` / ``les Anglais``."""
    return NAME[side] if lang == "en" else side_noun(NAME[side].lower(), lang)


def _who(p: Position, side: int, member: int, lang: str) -> str:
    if not p.sides[side].is_team:
        return _side(side, lang)
    return translator(lang).gettext("{side} member {member}").format(side=_side(side, lang), member=member)


def _cards(c: Cards, lang: str) -> str:
    return " ".join(c.symbols()) or translator(lang).gettext("nothing")


def _secret(c: Cards, shown: bool, lang: str) -> str:
    """Cards a reader may see by value, else only counted (a hidden side's draw or choice)."""
    if shown or not c.size:
        return _cards(c, lang)
    return ngettext("{count} card", "{count} cards", c.size, lang).format(count=c.size)


def all_placed(before: Position, move: Move) -> Position:
    """The table when the cards are turned over: the last placement put down, no battle resolved yet.

    The engine resolves the battles within the last placement (RULES.md §3-4), so
    this moment has no position of its own; it is the position before, with the
    move's cards gone from the placing hand to castle Y, the same change the
    engine makes before it resolves.
    """
    side, member = before.side_to_play, before.member_to_play
    assert side is not None and before.to_play == RESPOND_SECOND
    s = before.sides[side]
    s = s.with_hand(member, s.hands[member] - move.cards)
    return evolve(before, sides=replace_side(before, side, s), placed=before.placed.put(side, 1, move.cards))


def _is_resolved(p: Position, battle: int) -> bool:
    """Whether ``battle`` is over in ``p``: a game record may stop at a decision inside the resolution."""
    if p.to_play == REMOVE_CHOICE:
        return battle <= (p.battle or 0)
    if p.to_play == CONCEDE_CHOICE:
        return battle < (p.battle or 0)
    return True


def _battle_caption(revealed: Position, resolved: Position, battle: int, conceded: bool, lang: str) -> str:
    """What a battle did, read from the control of its castle before and after the round."""
    _ = translator(lang).gettext
    c = revealed.placed.castle(battle)
    assert c is not None
    e, f = revealed.placed.at(ENGLISH, battle), revealed.placed.at(FRENCH, battle)
    was, now = revealed.castles[c], resolved.castles[c]
    heroes = [s for s, cards in ((ENGLISH, e), (FRENCH, f)) if cards[HERO]]
    if len(heroes) == 2:
        why = _("two heroes: a tie whatever the sums")
    elif heroes:
        why = (_("the English hero wins whatever the sums") if heroes[0] == ENGLISH
               else _("the French hero wins whatever the sums"))
    else:
        why = _("{english} against {french}").format(english=e.total, french=f.total)
    if not _is_resolved(resolved, battle):
        outcome = _("resolved once the decision now to make is made")  # the record stops before it (a removal first)
    elif conceded:
        outcome = _("{loser} concedes: {winner} takes it").format(loser=_side(was, lang), winner=_side(now, lang))
    elif now != was:
        outcome = (_("{winner} takes it") if was == NEUTRAL else _("{winner} takes it from {loser}")).format(
            winner=_side(now, lang), loser=_side(was, lang) if was != NEUTRAL else "")
    elif was == NEUTRAL:
        outcome = _("a tie: it stays neutral")
    else:
        outcome = _("{side} holds it").format(side=_side(was, lang))
    return _("Battle {battle} at castle {castle}: English {english}, French {french}: {why}; {outcome}").format(
        battle="XY"[battle], castle=castle_number(c), english=_cards(e, lang), french=_cards(f, lang), why=why, outcome=outcome)


def _draw_caption(before: Position, after: Position, event: Event, viewer: int | None, lang: str) -> str:
    _ = translator(lang).gettext
    assert event.draw is not None
    drawn = _("English draws {english}, French draws {french}").format(
        english=_secret(event.draw.english, viewer in (None, ENGLISH), lang),
        french=_secret(event.draw.french, viewer in (None, FRENCH), lang))
    if event.to_play == DEAL:
        text = _("The deal: {drawn}").format(drawn=drawn)
    else:
        text = _("End of round {round}: placed cards go to the discards; {drawn}").format(round=before.round, drawn=drawn)
    for side in (ENGLISH, FRENCH):
        n = after.sides[side].exhaustions
        if n > before.sides[side].exhaustions:
            text = ngettext("{text}; {side}'s deck is exhausted ({count} time)",
                            "{text}; {side}'s deck is exhausted ({count} times)", n, lang).format(
                text=text, side=NAME[side] if lang == "en" else side_title(NAME[side], lang), count=n)
    if after.is_over:
        text = _("{text}; a side holds at most one card: the game ends").format(text=text)
    return text


def frames_of(record: GameRecord, viewer: int | None = None, lang: str | None = None) -> list[Frame]:
    """The storyboard of a game record, in order (see the module docstring for what gets a frame); with a
    ``viewer`` the captions count the other side's hidden cards (its draws, discards, gifts) without naming them.
    The captions are in ``lang`` (``en``/``fr``, default the current language)."""
    lang = lang or current_language()
    _ = translator(lang).gettext
    ps = record.positions()
    events = record.events
    frames: list[Frame] = []
    if not (ps[0].round == 1 and ps[0].to_play in (DEAL, SETUP_DISCARD)):  # a record from a position, not a new game
        frames.append(Frame(ps[0], _("The position the game starts from: round {round}, {point}").format(
            round=ps[0].round, point=point_name(ps[0].to_play, lang)), rule_key("start", ps[0]), "start"))
    i = 0
    while i < len(events):
        e, before, after = events[i], ps[i], ps[i + 1]
        point = e.to_play
        if e.draw is not None:
            frames.append(Frame(after, _draw_caption(before, after, e, viewer, lang), rule_key(point, after), point))
            i += 1
            continue
        assert e.move is not None and e.side is not None
        move, who = e.move, _who(before, e.side, before.member_to_play, lang)
        if point in (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND):
            c = after.placed.castle(0 if point != OPEN_SECOND else 1)
            assert c is not None  # a placement has chosen its castle
            n = move.cards.size
            frames.append(Frame(after, _placing(point, who, c, n, lang), rule_key(point, after), point,
                                highlight_castle=c))
            i += 1
            continue
        if point == RESPOND_SECOND:
            i = _round_frames(frames, ps, events, i, who, lang)
            continue
        shown = viewer in (None, e.side)
        if point == SETUP_DISCARD:
            text = _("{who} puts {cards} face down in its discard before the deal").format(
                who=who, cards=_secret(move.cards, shown, lang))
        elif point == TEAM_SPLIT:
            text = _("{who}, the drawer, gives {cards} to its partner").format(who=who, cards=_secret(move.cards, shown, lang))
        elif point == TEAM_ORDER:
            text = _("{side} decides that member {member} places first this round").format(
                side=_side(e.side, lang), member=move.first_member)
        else:  # a removal or concession of a round whose placements came before the record's start
            text = _("{who} plays {move}").format(who=who, move=move.text())
        frames.append(Frame(after, capitalised(text), rule_key(point, after), point))
        i += 1
    final = ps[-1]
    if final.is_over:
        r = final.result()
        verdict = {"draw": _("a draw"), "english": _("English wins"), "french": _("French wins")}[r.winner]
        frames.append(Frame(final, _("Game over after round {round}: English {english}, French {french}: {verdict}").format(
            round=final.round, english=r.english, french=r.french, verdict=verdict), rule_key("end", final), "end",
            placed_face_up=True))
    return frames


def _placing(point: str, who: str, castle: int, count: int, lang: str) -> str:
    """What a placement does, by decision point; singular or plural by the number of cards."""
    if point == OPEN_FIRST:
        text = ngettext("{who} opens castle {castle} (X) with {count} card face down",
                        "{who} opens castle {castle} (X) with {count} cards face down", count, lang)
    elif point == RESPOND_FIRST:
        text = ngettext("{who} answers at castle {castle} (X) with {count} card face down",
                        "{who} answers at castle {castle} (X) with {count} cards face down", count, lang)
    elif point == OPEN_SECOND:
        text = ngettext("{who} opens castle {castle} (Y) with {count} card face down",
                        "{who} opens castle {castle} (Y) with {count} cards face down", count, lang)
    else:
        text = ngettext("{who} answers at castle {castle} (Y) with {count} card face down",
                        "{who} answers at castle {castle} (Y) with {count} cards face down", count, lang)
    return capitalised(text.format(who=who, castle=castle_number(castle), count=count))


def _round_frames(frames: list[Frame], ps: list[Position], events: list[Event], i: int, who: str, lang: str) -> int:
    """The frames of a round's last placement and its resolution; returns the index of the next event."""
    _ = translator(lang).gettext
    e, before = events[i], ps[i]
    assert e.move is not None
    revealed = all_placed(before, e.move)
    y = revealed.placed.castle(1)
    assert y is not None  # the last placement answers at castle Y, chosen
    n = e.move.cards.size
    frames.append(Frame(revealed, _placing(RESPOND_SECOND, who, y, n, lang), rule_key(RESPOND_SECOND, revealed), RESPOND_SECOND,
                        highlight_castle=y))
    # the resolution runs to the first position that is no decision inside it
    j = i + 1
    while j < len(events) and ps[j].to_play in (CONCEDE_CHOICE, REMOVE_CHOICE):
        j += 1
    resolved = ps[j]
    inside = list(range(i + 1, j))
    conceded = {ps[k].battle for k in inside
                if events[k].to_play == CONCEDE_CHOICE and getattr(events[k].move, "concede", False)}
    marks = not revealed.rules.concede_as_decision
    chosen = [Cards(), Cards()]
    for b in (0, 1):  # each battle, then the decisions it called for (X's come first, RULES.md §4)
        frames.append(Frame(revealed, _battle_caption(revealed, resolved, b, b in conceded, lang), rule_key("battle", revealed),
                            "battle", placed_face_up=True, highlight_castle=revealed.placed.castle(b),
                            show_winners=marks, revealing=tuple(range(b + 1)), show_turn=False))
        for k in (k for k in inside if (ps[k].battle or 0) == b):
            ev = events[k]
            assert ev.move is not None and ev.side is not None
            c = ps[k].placed.castle(b)
            assert c is not None  # a decision inside a battle is at its castle
            if ev.to_play == REMOVE_CHOICE:
                chosen[ev.side] = chosen[ev.side] + ev.move.cards
                text = _("{who} lost neutral castle {castle} and removes {cards} for good").format(
                    who=_who(ps[k], ev.side, 0, lang), castle=castle_number(c), cards=_cards(ev.move.cards, lang))
            else:
                text = (_("{who} concedes at castle {castle}") if ev.move.concede else _("{who} reveals at castle {castle}")
                        ).format(who=_who(ps[k], ev.side, 0, lang), castle=castle_number(c))
            # drawn as the decision is made: the battle's cards still there, the chosen ones outlined
            frames.append(Frame(ps[k], capitalised(text), rule_key(ev.to_play, ps[k]), ev.to_play, placed_face_up=True,
                                highlight_castle=c, highlight_move=ev.move))
    gone = [resolved.sides[s].removed - before.sides[s].removed - chosen[s] for s in (ENGLISH, FRENCH)]
    if any(g.size for g in gone):
        parts = [_("{side} removes {cards}").format(side=_side(s, lang), cards=_cards(g, lang))
                 for s, g in zip((ENGLISH, FRENCH), gone) if g.size]
        # a side that attacked both castles of the other side removes two cards: the reason says "at each castle"
        reason = (_("{removals} for good (an attacker's strongest card)") if max(g.size for g in gone) == 1 else
                  _("{removals} for good (an attacker's strongest card at each castle of the other side it attacked)"))
        frames.append(Frame(resolved, capitalised(reason.format(removals="; ".join(parts))), rule_key("removal", resolved),
                            "removal", placed_face_up=True))
    return j


# ---------------------------------------------------------------------- outputs
#: Pages (diagrams) past which a storyboard is refused before any is drawn: the longest games of the presets take
#: about 120 (seeded uniform games of each), a diagram takes tens of KB and its PDF page tens of milliseconds, and
#: a hand-made record of thousands of steps would take minutes and hundreds of MB
STORYBOARD_PAGES = 400


def storyboard(record: GameRecord | Sequence[Position], width: float = 720, viewer: int | None = None,
               lang: str | None = None) -> list[Diagram]:
    """The numbered diagrams of a record's (or a history's) storyboard; every hand face up, or as ``viewer``
    (ENGLISH or FRENCH) sees the game: its own cards face up, the other side's hidden until revealed.  Captions
    and labels are in ``lang`` (``en``/``fr``, default the current language).  A storyboard of more than
    :data:`STORYBOARD_PAGES` pages is refused in words (a ValueError) before any is drawn."""
    if not isinstance(record, GameRecord):
        record = record_from_positions(record)
    frames = frames_of(record, viewer, lang)
    if len(frames) > STORYBOARD_PAGES:
        raise ValueError(gettext("this storyboard would have {count} pages, more than the limit of {limit}: "
                                 "draw part of the game").format(count=len(frames), limit=STORYBOARD_PAGES))
    return [f.diagram(n, width, viewer, lang) for n, f in enumerate(frames, start=1)]


#: the white border of a storyboard's pages, in points (a quarter inch: what printers leave unprinted)
PAGE_MARGIN = 18.0


def storyboard_pdf(diagrams: Sequence[Diagram]) -> bytes:
    """A PDF with one page per diagram, every page the same size with a printer's margin around the picture
    (see :func:`.export.page_layout`): a taller picture late in a game (a longer caption, the final score)
    never runs off a page sized like the first."""
    from .export import svgs_to_pdf

    return svgs_to_pdf([str(d) for d in diagrams], margin=PAGE_MARGIN)


def _names(n: int) -> list[str]:
    return [f"step-{k:03d}.svg" for k in range(1, n + 1)]


def storyboard_zip(diagrams: Sequence[Diagram]) -> bytes:
    """A zip of the diagrams as ``step-001.svg``, ``step-002.svg``, ... (a folder for a browser download)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, d in zip(_names(len(diagrams)), diagrams):
            z.writestr(name, str(d))
    return buf.getvalue()


def write_storyboard(diagrams: Sequence[Diagram], path: str | pathlib.Path) -> list[pathlib.Path]:
    """Write a ``.pdf`` file, a ``.zip`` of SVGs, or a folder of SVGs (any other path; made if missing)."""
    path = pathlib.Path(path)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(storyboard_pdf(diagrams))
        return [path]
    if path.suffix.lower() == ".zip":
        path.write_bytes(storyboard_zip(diagrams))
        return [path]
    if path.suffix and not path.is_dir():
        raise ValueError(gettext("cannot write a storyboard as {path}: give a .pdf or .zip file, or a folder").format(
            path=repr(str(path))))
    path.mkdir(parents=True, exist_ok=True)
    out = []
    for name, d in zip(_names(len(diagrams)), diagrams):
        out.append(path / name)
        out[-1].write_text(str(d), encoding="utf-8")
    return out
