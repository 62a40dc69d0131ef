"""Standalone SVG diagrams of positions, laid out like the rulebook's figures.

French at the top, English at the bottom, the castles in a line in the middle,
each with an arrow toward its controller (sideways when neutral).  Cards placed
this round lie in front of castles X and Y: an attack card shows its short side
to the castle (portrait), a defence card its long side (landscape).  The SVG
uses no external fonts, images or ``id`` attributes, so several diagrams can
share one notebook page.  :func:`position_svg` is pure: same input, same text.

Interactive views find things by attributes, not by position: each castle is a
``<g class="castle" data-castle="i">``; each card stack is a ``<g>`` whose class
holds ``stack``, with ``data-side`` (``english``/``french``) and ``data-zone``
(``hand``, ``deck``, ``discard``, ``removed``, ``placed-X``, ``placed-Y``); a
team side's hands also carry ``data-member``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from ..engine import Cards, kind_of
from ..engine import battle_of, defender_at
from ..i18n import FIRST_CASTLE, castle_number, gettext, plain_count, point_name, side_title, translator
from ..engine import ENGLISH, FRENCH, NEUTRAL, REMOVE_CHOICE, evolve
from ..engine import SideView, revealed, side_view
from .battles import BattleMark, battle_marks
from .colors import ENGLISH_COLOR, FRENCH_COLOR, NEUTRAL_COLOR, SIDE_COLOR, TINT
from .export import FONTS

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Move
    from ..engine import Position

__all__ = ["ENGLISH_COLOR", "FRENCH_COLOR", "NEUTRAL_COLOR", "SIDE_COLOR", "TINT", "Diagram", "diagram",
           "position_svg"]

GOLD = "#c8960c"
INK = "#222222"
SIDE_NAME = {ENGLISH: "English", FRENCH: "French"}
FONT = "sans-serif"

VIEW_W = 720.0
CARD_W, CARD_H = 34.0, 48.0          # portrait card in hands and attacks
SMALL_W, SMALL_H = 24.0, 34.0        # removed cards
READABLE = 0.5                       # the share of a fanned face-up card left uncovered, below which a pile is counted
LEFT, CASTLES_RIGHT = 20.0, 556.0    # castle line; removed cards to its right
# the placed-card bands hold a portrait card (48) with 4 above and below; the castle row holds the winner
# ring and its line under a castle, and the two rows of removed cards beside the line
SIDE_AREA_H, PLACED_H, CASTLE_H = 104.0, 56.0, 92.0


def _f(x: float) -> str:
    """Compact number text for attributes."""
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _text(x: float, y: float, s: str, *, size: float = 12, fill: str = INK, anchor: str = "middle",
          weight: str = "normal", cls: str | None = None) -> str:
    c = f" class={quoteattr(cls)}" if cls else ""
    w = f' font-weight="{weight}"' if weight != "normal" else ""
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" '
            f'text-anchor="{anchor}"{w}{c}>{escape(s)}</text>')


@functools.lru_cache(maxsize=1)
def _advances() -> tuple[dict[int, int], int]:
    """Advance widths of the shipped bold font by code point, and its units per em."""
    from fontTools.ttLib import TTFont

    font = TTFont(FONTS / "DejaVuSans-Bold.ttf", lazy=True)
    hmtx = font["hmtx"]
    return {cp: hmtx[glyph][0] for cp, glyph in font.getBestCmap().items()}, font["head"].unitsPerEm


def text_width(text: str, size: float) -> float:
    """The width of ``text`` in bold at ``size``, measured on DejaVu Sans Bold (the font of PNG and PDF
    exports, wider than the sans-serif faces of browsers); a character it lacks counts one em."""
    widths, em = _advances()
    return sum(widths.get(ord(ch), em) for ch in text) * size / em


#: where a line may break: any white space but a no-break one (French puts one before ":" and ";", so that no
#: line starts with them)
BREAKS = re.compile(r"[^\S\u00a0\u202f]+")


def wrap_lines(text: str, size: float, width: float) -> list[str]:
    """``text`` cut at spaces (:data:`BREAKS`) into lines no wider than ``width`` at ``size`` (a word too long
    for a line is cut).

    Each character is measured once, so a caption of thousands of characters without a space
    (pasted by mistake) is cut in a few milliseconds, never in minutes."""
    lines: list[str] = []
    line, line_w = "", 0.0
    space = text_width(" ", size)
    for word in BREAKS.split(text.strip()):
        if not word:
            continue
        widths = [text_width(ch, size) for ch in word]
        word_w = sum(widths)
        if line and line_w + space + word_w <= width:
            line, line_w = f"{line} {word}", line_w + space + word_w
            continue
        if line:
            lines.append(line)
        line, line_w = "", 0.0
        start, run = 0, 0.0
        for i, ch_w in enumerate(widths):  # a word wider than a line: cut it where the line is full
            if run + ch_w > width and i > start:
                lines.append(word[start:i])
                start, run = i, 0.0
            run += ch_w
        line, line_w = word[start:], run
    if line or not lines:
        lines.append(line)
    return lines


#: the longest caption a diagram takes from a person: three lines above the table
MAX_CAPTION = 240
#: control characters a caption may hold: white space, drawn as a space (:func:`wrap_lines`)
_SPACES = frozenset("\t\n\r")


def caption_problem(caption: str) -> str | None:
    """Why ``caption``, as a person gave it, cannot be drawn above a picture, or None: too long, or holding a
    control character (an ANSI colour code pasted from a terminal: no SVG may hold one, no reader would see
    it) or the remains of bytes that were not UTF-8.  The one check of a caption, whatever the format drawn
    (the command line's ``diagram --caption`` and the diagram export's box)."""
    if len(caption) > MAX_CAPTION:
        return gettext("the caption holds {count} characters: at most {high} fit above the table").format(
            count=plain_count(len(caption)), high=MAX_CAPTION)
    bad = next((ch for ch in caption if unicodedata.category(ch) in ("Cc", "Cs") and ch not in _SPACES), None)
    if bad is not None:
        return gettext("the caption holds the control character {char}: a caption is text to draw").format(
            char=repr(bad))
    return None


def _caption(y: float, caption: str, *, size: float = 16, cls: str = "caption", weight: str = "bold",
             fill: str = INK) -> tuple[str, float]:
    """A caption centred above a picture, wrapped to its width: the SVG text and the height it takes."""
    lines = wrap_lines(caption, size, VIEW_W - 24)
    step = size * 1.25
    out = "".join(_text(VIEW_W / 2, y + size + i * step, line, size=size, weight=weight, fill=fill, cls=cls)
                  for i, line in enumerate(lines))
    return out, size * 1.5 + (len(lines) - 1) * step


def _card_face(x: float, y: float, w: float, h: float, symbol: str, side: int, *,
               highlight: bool = False, visible: float | None = None, count: int = 1) -> str:
    """A face-up card; ``visible`` is the width left uncovered by the next card of a fan, where
    the value is written so that every card of an overlapping fan still shows its value; ``count`` > 1: the card
    stands for that many cards of its value, written under it (``×4``) and in ``data-count``."""
    color = SIDE_COLOR[side]
    stroke = GOLD if highlight else color
    sw = 3 if highlight else 1.5
    strip = w if visible is None else min(w, visible)
    size = min(min(w, h) * 0.55, max(strip * 0.9, 7.0))
    many = f' data-count="{count}"' if count > 1 else ""
    middle = y + h / 2 - (h * 0.14 if count > 1 else 0.0)
    return (f'<g class="card face" data-card={quoteattr(symbol)}{many} '
            f'data-side={quoteattr(SIDE_NAME[side].lower())}>'
            f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" rx="3" fill="#ffffff" '
            f'stroke="{stroke}" stroke-width="{sw}"/>'
            + _text(x + strip / 2, middle + size * 0.36, symbol, size=size, fill=color, weight="bold")
            + (_text(x + strip / 2, y + h - 4, f"×{count}", size=size * 0.7, fill=color) if count > 1 else "")
            + "</g>")


def _card_back(x: float, y: float, w: float, h: float, side: int) -> str:
    color = SIDE_COLOR[side]
    m = min(w, h) * 0.14
    return (f'<g class="card back" data-side={quoteattr(SIDE_NAME[side].lower())}>'
            f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" rx="3" fill="{color}" '
            f'stroke="#ffffff" stroke-width="1"/>'
            f'<rect x="{_f(x + m)}" y="{_f(y + m)}" width="{_f(w - 2 * m)}" height="{_f(h - 2 * m)}" rx="2" '
            f'fill="none" stroke="#ffffff" stroke-opacity="0.7" stroke-width="1"/></g>')


def _fan(cx: float, y: float, n: int, w: float, span: float) -> list[float]:
    """Left x of n overlapping cards of width w centred on cx within span."""
    if n <= 0:
        return []
    step = w + 4 if n == 1 else min(w + 4, max(6.0, (span - w) / (n - 1)))
    total = w + step * (n - 1)
    return [cx - total / 2 + i * step for i in range(n)]


def _cards_row(cx: float, y: float, symbols: list[str] | None, count: int, side: int, *, w: float, h: float,
               span: float, highlight: Cards | None = None) -> str:
    """A fan of face-up cards (symbols given) or of backs (symbols None)."""
    out: list[str] = []
    marks = dict.fromkeys(range(10), 0)
    if highlight is not None and symbols is not None:
        for k in highlight.kinds():
            marks[k] += 1
    xs = _fan(cx, y, count, w, span)
    for i, x in enumerate(xs):
        if symbols is None:
            out.append(_card_back(x, y, w, h, side))
        else:
            k = kind_of(symbols[i])
            hl = marks[k] > 0
            if hl:
                marks[k] -= 1
            visible = xs[i + 1] - x if i + 1 < len(xs) else None
            out.append(_card_face(x, y, w, h, symbols[i], side, highlight=hl, visible=visible))
    return "".join(out)


def _pile_row(cx: float, y: float, cards: Cards, side: int, *, w: float, h: float, span: float) -> str:
    """A face-up pile: a fan of its cards while each shows at least :data:`READABLE` of its width, else one card a
    value with its count (``×7``): the removed cards of a long game, fanned, left 8 px of a card each and their values
    at 7 px."""
    xs = _fan(cx, y, cards.size, w, span)
    if len(xs) < 2 or xs[1] - xs[0] >= READABLE * w:
        return _cards_row(cx, y, cards.symbols(), cards.size, side, w=w, h=h, span=span)
    values = list(dict.fromkeys(cards.symbols()))  # strongest first
    return "".join(_card_face(x, y, w, h, sym, side, count=cards[kind_of(sym)])
                   for x, sym in zip(_fan(cx, y, len(values), w, span), values))


def _zone_attrs(side: int, zone: str) -> str:
    """The attributes by which interactive views find a card stack in the SVG (see the module docstring)."""
    return f'data-side="{SIDE_NAME[side].lower()}" data-zone="{zone}"'


def _contents(x: float, y: float, cards: Cards, side: int) -> str:
    """A pile's cards counted by value, one line per value, strongest first (``H``, ``5 ×2``, ...)."""
    out = []
    for i, sym in enumerate(dict.fromkeys(cards.symbols())):
        n = cards[kind_of(sym)]
        out.append(_text(x, y + 8.5 + i * 11.5, sym if n == 1 else f"{sym} ×{n}", size=11.5, fill=SIDE_COLOR[side],
                         anchor="start", weight="bold"))
    return f'<g class="contents" data-cards={quoteattr(str(cards))}>' + "".join(out) + "</g>"


def _stack(x: float, y: float, n: int, side: int, label: str, contents: Cards | None = None,
           lang: str | None = None) -> str:
    """A deck or discard pile drawn as a small stack of backs with its count, and its cards by value beside
    it when the reader may know them (``contents``); ``label`` is the zone (``deck`` or ``discard``)."""
    _ = translator(lang).gettext
    out = [f'<g class="stack" {_zone_attrs(side, label)} data-count="{n}">']
    if n == 0:
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(CARD_W)}" height="{_f(CARD_H)}" rx="3" '
                   f'fill="none" stroke="#999999" stroke-dasharray="3 3"/>')
    else:
        layers = min(3, n)
        for i in range(layers):
            off = (layers - 1 - i) * 2.5
            out.append(_card_back(x + off, y - off, CARD_W, CARD_H, side))
    count = (_("deck {count}") if label == "deck" else _("discard {count}")).format(count=n)
    out.append(_text(x + CARD_W / 2, y + CARD_H + 13, count, size=10.5, cls="count"))
    if contents is not None and contents.size:
        out.append(_contents(x + CARD_W + 7, y - 6, contents, side))
    out.append("</g>")
    return "".join(out)


def _battle_mark(cx: float, cy: float, mark: BattleMark, lang: str | None = None) -> str:
    """The outcome of a battle drawn on its castle: a ring in the winner's colour and one or two lines.

    A pending outcome (not yet revealed) has a dashed ring; a resolved battle
    whose winner the position no longer tells shows the castle's new holder.
    """
    _ = translator(lang).gettext
    name = {ENGLISH: "English", FRENCH: "French", NEUTRAL: "neutral"}
    shown = {k: side_title(v, lang) for k, v in name.items()}
    battle = "XY"[mark.battle]
    if not mark.known:
        verdict, lines = "unknown", [(f"→ {shown[mark.holder]}", SIDE_COLOR[mark.holder])]
        note = _("Battle {battle}: the castle went to or stayed with the {side}").format(
            battle=battle, side=shown[mark.holder])
    elif mark.winner is None:
        verdict = "tie"
        held = _("{side} holds").format(side=shown[mark.defender]) if mark.defender is not None else _("stays neutral")
        lines = [(_("tie"), INK), (held, SIDE_COLOR.get(mark.defender, NEUTRAL_COLOR))]  # type: ignore[arg-type]
        note = (_("Battle {battle}: a tie, the castle {side} holds it").format(battle=battle, side=shown[mark.defender])
                if mark.defender is not None else _("Battle {battle}: a tie, the castle stays neutral").format(battle=battle))
    else:
        verdict = name[mark.winner].lower()
        lines = [(_("{side} wins").format(side=shown[mark.winner]), SIDE_COLOR[mark.winner])]
        note = _("Battle {battle}: the {side} win").format(battle=battle, side=shown[mark.winner])
    if mark.pending:
        note = _("{note} if the cards are revealed now").format(note=note)
    ring = SIDE_COLOR.get(mark.winner, NEUTRAL_COLOR) if mark.known else SIDE_COLOR.get(mark.holder, NEUTRAL_COLOR)  # type: ignore[arg-type]
    dash = ' stroke-dasharray="4 3"' if mark.pending else ""
    out = [f'<g class="winner" data-battle="{"XY"[mark.battle]}" data-winner="{verdict}" '
           f'data-holder="{name[mark.holder].lower()}" data-pending="{str(mark.pending).lower()}">'
           f"<title>{escape(note)}</title>"
           f'<rect x="{_f(cx - 29)}" y="{_f(cy - 30)}" width="58" height="49" rx="5" fill="none" '
           f'stroke="{ring}" stroke-width="2.5"{dash}/>']
    for i, (line, color) in enumerate(lines):
        out.append(_text(cx, cy + 43 + 10 * i, line, size=9.5, fill=color, weight="bold" if i == 0 else "normal"))
    out.append("</g>")
    return "".join(out)


def _castle(cx: float, cy: float, owner: int, index: int, *, badge: str | None, highlight: bool,
            mark: BattleMark | None = None, lang: str | None = None) -> str:
    fill = SIDE_COLOR.get(owner, "#d0d0d0")
    stroke = INK if owner == NEUTRAL else fill
    w, h, t = 44.0, 34.0, 9.0
    x0, x1, top = cx - w / 2, cx + w / 2, cy - h / 2
    bottom = cy + h / 2
    mw = w / 5
    pts = [(x0, bottom), (x0, top - t)]
    for i in range(5):
        a, b = x0 + i * mw, x0 + (i + 1) * mw
        yy = top - t if i % 2 == 0 else top
        pts += [(a, yy), (b, yy)]
        nxt = top if i % 2 == 0 else top - t
        if i < 4:
            pts.append((b, nxt))
    pts += [(x1, top - t), (x1, bottom)]
    poly = " ".join(f"{_f(a)},{_f(b)}" for a, b in pts)
    ctrl = {ENGLISH: "english", FRENCH: "french", NEUTRAL: "neutral"}[owner]
    out = [f'<g class="castle" data-castle="{index}" data-control="{ctrl}">']
    if highlight:
        out.append(f'<rect x="{_f(x0 - 8)}" y="{_f(top - t - 8)}" width="{_f(w + 16)}" '
                   f'height="{_f(h + t + 14)}" rx="6" fill="none" stroke="{GOLD}" stroke-width="3" '
                   f'stroke-dasharray="5 3"/>')
    out.append(f'<polygon points="{poly}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')
    arrow = "#ffffff" if owner != NEUTRAL else INK
    if owner == NEUTRAL:  # sideways double arrow
        y = cy + 2
        out.append(f'<path d="M{_f(cx - 14)},{_f(y)} L{_f(cx + 14)},{_f(y)} M{_f(cx - 14)},{_f(y)} '
                   f'l6,-5 M{_f(cx - 14)},{_f(y)} l6,5 M{_f(cx + 14)},{_f(y)} l-6,-5 M{_f(cx + 14)},{_f(y)} l-6,5" '
                   f'stroke="{arrow}" stroke-width="2.2" fill="none" stroke-linecap="round"/>')
    else:
        d = 1 if owner == ENGLISH else -1   # english at the bottom, french at the top
        y0, y1 = cy - d * 11 + 2, cy + d * 11 + 2
        out.append(f'<path d="M{_f(cx)},{_f(y0)} L{_f(cx)},{_f(y1)} M{_f(cx)},{_f(y1)} l-6,{_f(-d * 6)} '
                   f'M{_f(cx)},{_f(y1)} l6,{_f(-d * 6)}" stroke="{arrow}" stroke-width="2.4" fill="none" '
                   f'stroke-linecap="round"/>')
    out.append(_text(cx, bottom + 16, str(castle_number(index)), size=11, fill=INK))
    if mark is not None:  # under the X/Y badge, which stays readable on top of the ring
        out.append(_battle_mark(cx, cy, mark, lang))
    if badge:
        bx, by = x1 + 8, top - t + 2
        out.append(f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="9" fill="{GOLD}" stroke="{INK}" stroke-width="1"/>'
                   + _text(bx, by + 4, badge, size=11, fill=INK, weight="bold", cls="battle"))
    out.append("</g>")
    return "".join(out)


@dataclass(frozen=True)
class Preview:
    """Where a previewed placement puts its cards: ``battle`` (0 for X, 1 for Y) at ``castle``, by ``side``."""

    battle: int
    castle: int
    side: int
    cards: Cards


def previewed_placement(p: Position, move: Move | None) -> Preview | None:
    """The placement ``move`` would make in ``p`` (the engine's battle for the decision point; an opening names
    its castle, an answer goes where its battle was opened), or None when ``move`` places no card."""
    battle = battle_of(p.to_play) if move is not None else None
    side = p.side_to_play
    if battle is None or side is None or move is None or not move.cards.size:
        return None
    castle = move.castle if move.castle is not None else p.placed.castle(battle)
    return None if castle is None else Preview(battle, castle, side, move.cards)


def _with_preview(p: Position, preview: Preview | None) -> Position:
    """The table as the previewed placement leaves it (its castle opened, its cards placed, nothing resolved):
    what the diagram draws at the castles, while the hands keep the cards, outlined."""
    if preview is None:
        return p
    placed = p.placed.put(preview.side, preview.battle, p.placed.at(preview.side, preview.battle) + preview.cards)
    placed = evolve(placed, **{"xy"[preview.battle]: preview.castle})
    return evolve(p, placed=placed)


def member_view(p: Position, viewer: int | None, member: int | None) -> SideView | None:
    """What ``member`` of the team side ``viewer`` may see of ``p`` (the engine's :func:`~..view.side_view`),
    or None where the diagram draws a whole side's view: no viewer, no member named, or a side alone.

    A team member sees its own hand, its own placed cards and the side's discard, but not its partner's hand
    nor the partner's cards placed face down this round, and so not the deck's contents either (it cannot tell
    them from the partner's hand): RULES.md 8, members may not tell each other their cards."""
    if viewer is None or member is None or len(p.sides[viewer].hands) < 2:
        return None
    return side_view(p, viewer, member)


def _first_marker(x: float, y: float, lang: str | None = None) -> str:
    first = translator(lang).gettext("1st")
    return (f'<g class="first-player"><circle cx="{_f(x)}" cy="{_f(y)}" r="10" fill="{GOLD}" stroke="{INK}" '
            f'stroke-width="1"/>' + _text(x, y + 4, first, size=9, fill=INK, weight="bold") + "</g>")


def _preview_stack(preview: Preview, cx: float, y: float, w: float, h: float, span: float, face_up: bool) -> str:
    """The previewed placement's cards at its castle, in a dashed gold frame: face up, outlined, when the
    diagram shows the placing side's hand, else as backs."""
    n = preview.cards.size
    xs = _fan(cx, y, n, w, span)
    x0, x1 = xs[0] - 3, xs[-1] + w + 3
    return (f'<g class="preview" {_zone_attrs(preview.side, "placed-" + "XY"[preview.battle])} '
            f'data-battle="{"XY"[preview.battle]}" data-placed-at="{preview.castle}" data-count="{n}">'
            f'<rect x="{_f(x0)}" y="{_f(y - 3)}" width="{_f(x1 - x0)}" height="{_f(h + 6)}" rx="4" fill="none" '
            f'stroke="{GOLD}" stroke-width="1.5" stroke-dasharray="4 3"/>'
            + _cards_row(cx, y, preview.cards.symbols() if face_up else None, n, preview.side, w=w, h=h, span=span,
                         highlight=preview.cards)
            + "</g>")


def position_svg(position: Position, *, show_hands: bool = True, highlight_move: Move | None = None,
                 caption: str | None = None, width: float = 720, show_winners: bool = False,
                 viewer: int | None = None, show_placed: bool | frozenset[int] | None = None, highlight_castle: int | None = None,
                 info: str | None = None, show_turn: bool = True, lang: str | None = None,
                 rule: str | None = None, viewer_member: int | None = None) -> str:
    """A standalone SVG picture of a position, its labels in ``lang`` (``en``/``fr``, default the current language).

    ``show_hands`` shows every hidden card face up (the designer's view): hands,
    placed cards, and each deck's and discard's contents counted by value beside
    the pile.  Without it, hands and placed cards not yet revealed are backs with
    counts, except those of ``viewer`` (ENGLISH or FRENCH): a player sees its own
    hand, its own placed cards and what its own deck and discard hold.  ``viewer_member`` narrows a team
    side's view to that member's (:func:`member_view`): its partner's hand, the partner's face-down placed
    cards and the deck's contents stay hidden, as at a table where members may not tell each other their cards.
    ``highlight_move`` outlines the castle and hand cards of a move, and a placement's cards are also drawn
    at its castle (X or Y) in a dashed gold frame, so that a previewed move shows where it goes; ``caption``
    is written above the table, wrapped to its width.  ``show_winners`` marks on
    castles X and Y the outcome of their battles when the diagram shows it (see
    :mod:`.battles`): resolved battles, and in the designer's view the battles
    where both sides have placed.  ``show_placed`` (default: as ``show_hands``)
    says whether placed cards not yet revealed are face up, or at which battles
    (a set of 0 for X, 1 for Y): a storyboard shows hands but keeps placements
    face down until the reveal.  ``highlight_castle``
    outlines one castle; ``info`` replaces the line under the caption (rule set,
    round, decision point); ``show_turn=False`` leaves out the "to play" mark
    (a picture of a moment between decisions, such as a reveal).  ``rule`` is a sentence
    stating the rule the picture shows, written under the caption in smaller grey letters.
    """
    _ = translator(lang).gettext
    p = position
    n = p.rules.castles
    slot = (CASTLES_RIGHT - LEFT) / n
    scale = min(1.0, slot / 90.0)
    pw, ph = CARD_W * scale, CARD_H * scale

    y = 10.0
    head: list[str] = []
    if caption:
        text, used = _caption(y, caption)
        head.append(text)
        y += used
    if rule:
        text, used = _caption(y, rule, size=12, cls="rule", weight="normal", fill="#555555")
        head.append(text)
        y += used
    if info is None:
        info = (_("{rules} · round {round} · game over") if p.is_over else _("{rules} · round {round} · to play: {point}")
                ).format(rules=p.rules.preset_name, round=p.round, point=point_name(p.to_play, lang))
        if highlight_move is not None:
            info = _("{info} · move {move}").format(info=info, move=highlight_move.text(FIRST_CASTLE))
    head.append(_text(VIEW_W / 2, y + 14, info, size=12, fill="#444444", cls="info"))
    y += 22
    if p.is_over:
        r = p.result()
        verdict = {"draw": _("draw"), "english": _("English wins"), "french": _("French wins")}[r.winner]
        head.append('<g class="score">'
                    + _text(VIEW_W / 2 - 8, y + 16, _("English {score}").format(score=r.english), size=15,
                            fill=ENGLISH_COLOR, anchor="end", weight="bold")
                    + _text(VIEW_W / 2, y + 16, "–", size=15)
                    + _text(VIEW_W / 2 + 8, y + 16, _("{score} French").format(score=r.french), size=15, fill=FRENCH_COLOR,
                            anchor="start", weight="bold")
                    + _text(VIEW_W / 2, y + 34, verdict, size=12, fill=INK)
                    + "</g>")
        y += 40

    acting_side = p.side_to_play
    acting_member = p.member_to_play if acting_side is not None else 0
    preview = previewed_placement(p, highlight_move)
    hl_castle = preview.castle if preview is not None else highlight_move.castle \
        if highlight_move is not None and highlight_move.castle is not None else highlight_castle
    table = _with_preview(p, preview)  # the castles and placed cards drawn, the previewed ones included
    hl_cards = highlight_move.cards if highlight_move is not None and highlight_move.cards.size else None
    # a removal takes its cards from those placed at the pending battle, not from the hand
    removing = p.to_play == REMOVE_CHOICE

    top_area = y
    french_placed = top_area + SIDE_AREA_H
    castle_row = french_placed + PLACED_H
    english_placed = castle_row + CASTLE_H
    english_area = english_placed + PLACED_H
    total_h = english_area + SIDE_AREA_H + 8

    mv = member_view(p, viewer, viewer_member)

    def member_sees(side: int, member: int) -> bool:
        """Whether the viewer sees the hidden cards of ``side``'s ``member`` (a hand, a placement)."""
        return show_hands or (viewer == side and (mv is None or mv.member == member))

    body: list[str] = []
    # ---------------------------------------------------------------- side areas
    for side, ay in ((FRENCH, top_area), (ENGLISH, english_area)):
        s = p.sides[side]
        color = SIDE_COLOR[side]
        face_up = show_hands or viewer == side
        body.append(f'<g class="side" data-side="{SIDE_NAME[side].lower()}" data-face-up="{str(face_up).lower()}">')
        body.append(f'<rect x="8" y="{_f(ay)}" width="{_f(VIEW_W - 16)}" height="{_f(SIDE_AREA_H - 8)}" rx="8" '
                    f'fill="{TINT[side]}" stroke="{color}" stroke-width="1"/>')
        body.append(_text(20, ay + 22, side_title(SIDE_NAME[side], lang), size=15, fill=color, anchor="start",
                          weight="bold"))
        extra = []
        if s.exhaustions:
            extra.append(_("exhaustions {count}").format(count=s.exhaustions))
        if acting_side == side and show_turn:
            extra.append(_("to play"))
        if extra:
            body.append(_text(20, ay + 40, " · ".join(extra), size=10.5, anchor="start"))
        if p.first == side:
            body.append(_first_marker(34, ay + 64, lang))
        # hands
        hx0, hx1 = 100.0, 470.0
        members = len(s.hands)
        span = (hx1 - hx0) / members
        for m, hand in enumerate(s.hands):
            cx = hx0 + span * (m + 0.5)
            cy = ay + 22
            label = (_("hand {count}") if members == 1 else _("member {member} hand (drawer) {count}")
                     if s.drawer == m else _("member {member} hand {count}")).format(member=m, count=hand.size)
            body.append(_text(cx, ay + 14, label, size=10.5, cls="count"))
            hl = hl_cards if (acting_side == side and acting_member == m and not removing) else None
            body.append(f'<g class="hand stack" {_zone_attrs(side, "hand")} data-member="{m}" '
                        f'data-count="{hand.size}">')
            body.append(_cards_row(cx, cy, hand.symbols() if member_sees(side, m) else None, hand.size, side,
                                   w=CARD_W, h=CARD_H, span=span - 16, highlight=hl))
            body.append("</g>")
        deck_known = face_up and (show_hands or mv is None)  # a member cannot tell the deck from its partner's hand
        body.append(_stack(490, ay + 24, s.deck.size, side, "deck", s.deck if deck_known else None, lang))
        body.append(_stack(598, ay + 24, s.discard.size, side, "discard", s.discard if face_up else None, lang))
        body.append("</g>")

    # ---------------------------------------------------------------- castles
    body.append(f'<line x1="{_f(LEFT)}" y1="{_f(castle_row + CASTLE_H / 2 - 4)}" x2="{_f(CASTLES_RIGHT)}" '
                f'y2="{_f(castle_row + CASTLE_H / 2 - 4)}" stroke="#bbbbbb" stroke-width="1"/>')
    badges = {}
    if table.placed.x is not None:
        badges[table.placed.x] = "X"
    if table.placed.y is not None:
        badges[table.placed.y] = "Y"
    marks = {m.castle: m for m in battle_marks(table, show_hands=show_hands)} if show_winners else {}
    for i, owner in enumerate(p.castles):
        cx = LEFT + slot * (i + 0.5)
        body.append(_castle(cx, castle_row + CASTLE_H / 2 - 8, owner, i, badge=badges.get(i),
                            highlight=hl_castle == i, mark=marks.get(i), lang=lang))

    # ---------------------------------------------------------------- placed cards
    for battle in (0, 1):
        c = table.placed.castle(battle)
        if c is None:
            continue
        cx = LEFT + slot * (c + 0.5)
        for side, row in ((FRENCH, french_placed), (ENGLISH, english_placed)):
            defending = defender_at(table, battle) == side
            w, h = (ph, pw) if defending else (pw, ph)
            yy = row + (PLACED_H - h) / 2
            if preview is not None and (preview.battle, preview.side) == (battle, side):
                body.append(_preview_stack(preview, cx, yy, w, h, slot - 4, member_sees(side, acting_member)))
            cards = p.placed.at(side, battle)
            if not cards.size:
                continue
            up = show_hands if show_placed is None else show_placed
            face = (battle in up if isinstance(up, frozenset) else up) or revealed(p, battle, 1 - side) \
                or (viewer == side and (mv is None or mv.own_placed[battle] == cards))
            role = "defence" if defending else "attack"
            body.append(f'<g class="placed stack" {_zone_attrs(side, "placed-" + "XY"[battle])} '
                        f'data-battle="{"XY"[battle]}" data-role="{role}" data-count="{cards.size}">')
            hl = hl_cards if removing and battle == p.battle and side == acting_side else None
            body.append(_cards_row(cx, yy, cards.symbols() if face else None, cards.size, side, w=w, h=h,
                                   span=slot - 4, highlight=hl))
            body.append("</g>")

    # ---------------------------------------------------------------- removed cards
    rx0, rx1 = 572.0, 708.0
    body.append(_text((rx0 + rx1) / 2, castle_row + CASTLE_H / 2 + 3, _("removed"), size=10.5, fill="#444444"))
    for side, ry in ((FRENCH, castle_row + 4), (ENGLISH, castle_row + CASTLE_H / 2 + 8)):
        gone = p.sides[side].removed
        body.append(f'<g class="removed stack" {_zone_attrs(side, "removed")} data-count="{gone.size}">')
        if gone.size:
            body.append(_pile_row((rx0 + rx1) / 2, ry, gone, side, w=SMALL_W, h=SMALL_H, span=rx1 - rx0))
        else:
            body.append(_text((rx0 + rx1) / 2, ry + SMALL_H / 2 + 4, _("none"), size=10, fill="#777777"))
        body.append("</g>")

    height = total_h * width / VIEW_W
    title = caption or _("Guyenne position, round {round}").format(round=p.round)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
            f'viewBox="0 0 {_f(VIEW_W)} {_f(total_h)}" font-family="{FONT}" role="img">'
            f"<title>{escape(title)}</title>"
            f'<rect x="0" y="0" width="{_f(VIEW_W)}" height="{_f(total_h)}" fill="#ffffff"/>'
            + "".join(head) + "".join(body) + "</svg>")


class Diagram(str):
    """An SVG text that Jupyter displays and that can be saved as .svg, .png or .pdf (no system library needed)."""

    @property
    def svg(self) -> str:
        return str(self)

    def _repr_svg_(self) -> str:
        return str(self)

    def png(self, scale: float = 1.0) -> bytes:
        """PNG bytes, ``width * scale`` pixels wide (see :mod:`.export`)."""
        from .export import svg_to_png

        return svg_to_png(str(self), scale)

    def pdf(self) -> bytes:
        """A one-page PDF of the picture's size."""
        from .export import svgs_to_pdf

        return svgs_to_pdf([str(self)])

    def save(self, path: Any, scale: float = 1.0) -> None:
        """Write ``.svg`` text, or a ``.png`` (``width * scale`` pixels wide) or ``.pdf`` picture."""
        name = str(path)
        low = name.lower()
        if low.endswith(".svg"):
            data = str(self).encode("utf-8")
        elif low.endswith(".png"):
            data = self.png(scale)
        elif low.endswith(".pdf"):
            from .export import check_scale, svgs_to_pdf

            data = svgs_to_pdf([str(self)], resolution=max(2.0, check_scale(scale)))
        else:
            raise ValueError(gettext("cannot save a diagram as {name}: use a .svg, .png or .pdf file name").format(
                name=repr(name)))
        with open(name, "wb") as fh:
            fh.write(data)


def diagram(position: Position, **options: Any) -> Diagram:
    """A :class:`Diagram` of a position; options as for :func:`position_svg`."""
    return Diagram(position_svg(position, **options))
