"""Where the players sit: a top view of the table for the team game (RULES.md section 8).

The 2022 French rulebook says: the players sit face to face with the line of
castles between them ("Les joueurs sont assis face à face"), the first-player
card lies at the end of the castle line turned toward its holder, removed cards
lie face up beside the castle line, each team has one common discard ("une
défausse commune par équipe"), and the four-player setup is arranged "pour que
les joueurs d'une même équipe ne voient pas les cartes de l'autre joueur".  The
text says nothing more of the seats, so the drawing adds nothing more: each
team sits on its side of the castle line, its two members apart at the two
ends of that side with their hands turned away from each other, the shared deck
and discard between them.  A solo side (``team3``) sits in the middle of its side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from ..i18n import N_, side_title, translator
from ..engine import ENGLISH, FRENCH
from .svg import (CARD_H, CARD_W, FONT, GOLD, INK, SIDE_COLOR, SIDE_NAME, SMALL_H, SMALL_W, TINT, VIEW_W, Diagram,
                  _caption, _cards_row, _castle, _f, _pile_row, _stack, _text, _zone_attrs)

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Position

#: The rulebook's own words (the French 2022 text; the English is its 2021 translation).
RULE_TEXT = N_("Set up for 4 players: so that the players of one team do not see the other player's cards")
SIDE_H, LINE_H = 112.0, 132.0
#: room between a removed-cards label and the team area beside it
LABEL_GAP = 10.0


def _seat(cx: float, y: float, side: int, member: int) -> str:
    """A player's chair at the edge of the table (outside the side's area)."""
    color = SIDE_COLOR[side]
    return (f'<g class="seat" data-side="{SIDE_NAME[side].lower()}" data-member="{member}">'
            f'<circle cx="{_f(cx)}" cy="{_f(y)}" r="11" fill="{color}" stroke="{INK}" stroke-width="1"/>'
            + _text(cx, y + 4, str(member), size=11, fill="#ffffff", weight="bold")
            + "</g>")


def _badge(x: float, y: float, label: str, cls: str) -> str:
    return (f'<g class="{cls}"><rect x="{_f(x)}" y="{_f(y - 11)}" width="{_f(7 + 6 * len(label))}" height="15" rx="7" '
            f'fill="{GOLD}" stroke="{INK}" stroke-width="0.8"/>'
            + _text(x + 3.5, y, label, size=9.5, anchor="start", weight="bold") + "</g>")


def _side_area(p: Position, side: int, y: float, *, show_hands: bool, lang: str | None = None) -> str:
    """One side's half of the table: members' seats and hands, the shared deck and discard."""
    _ = translator(lang).gettext
    s = p.sides[side]
    top = side == FRENCH                       # the French sit at the top, as in position diagrams
    name = SIDE_NAME[side]
    out = [f'<g class="side" data-side="{name.lower()}">',
           f'<rect x="8" y="{_f(y)}" width="{_f(VIEW_W - 16)}" height="{_f(SIDE_H)}" rx="8" fill="{TINT[side]}" '
           f'stroke="{SIDE_COLOR[side]}" stroke-width="1"/>']
    title_y = y + 18 if top else y + 16
    title = (_("{side} team") if s.is_team else _("{side} player")).format(side=side_title(name, lang))
    out.append(_text(VIEW_W / 2, title_y, title, size=14, fill=SIDE_COLOR[side], weight="bold"))
    members = len(s.hands)
    centres = (150.0, VIEW_W - 150.0) if members == 2 else (VIEW_W / 2 - 120,)
    hand_y = y + (26 if top else SIDE_H - 26 - CARD_H)
    seat_y = y - 14 if top else y + SIDE_H + 14   # chairs outside the table edge
    label_y = hand_y + CARD_H + 14 if top else hand_y - 8
    for m, (cx, hand) in enumerate(zip(centres, s.hands)):
        out.append(_seat(cx, seat_y, side, m))
        label = (_("member {member} · hand {count}") if s.is_team else _("hand {count}")).format(member=m, count=hand.size)
        out.append(f'<g class="hand stack" {_zone_attrs(side, "hand")} data-member="{m}" data-count="{hand.size}">')
        out.append(_cards_row(cx, hand_y, hand.symbols() if show_hands else None, hand.size, side,
                              w=CARD_W, h=CARD_H, span=200))
        out.append(_text(cx, label_y, label, size=10.5, cls="count"))
        out.append("</g>")
        badges = []
        if s.is_team and s.drawer == m:
            badges.append((_("drawer"), "drawer"))
        if s.is_team and s.order is not None:
            badges.append((_("plays 1st") if s.order == m else _("plays 2nd"), "order"))
        bx = cx + 18                          # beside the chair
        for text, cls in badges:
            out.append(_badge(bx, seat_y + 4, text, cls))
            bx += 14 + 6 * len(text)
    # the shared deck and discard lie between the members (beside the solo player)
    dx = VIEW_W / 2 - CARD_W - 8 if members == 2 else VIEW_W / 2 + 40
    stack_y = hand_y if top else hand_y - 6
    out.append(_stack(dx, stack_y, s.deck.size, side, "deck", lang=lang))
    out.append(_stack(dx + CARD_W + 16, stack_y, s.discard.size, side, "discard", lang=lang))
    out.append("</g>")
    return "".join(out)


def seating_svg(position: Position, *, show_hands: bool = True, caption: str | None = None,
                width: float = 720, lang: str | None = None) -> Diagram:
    """A top view of the table with each player's seat, for any position (made for the team game), its
    labels in ``lang`` (``en``/``fr``, default the current language).

    Each member's hand is drawn at its seat (face up with ``show_hands``, else as
    backs), the team's shared deck and discard between the members, its removed
    cards beside the castle line, the team's drawer and the order of play this
    round as badges, and the first-player card at the end of the castle line.
    """
    _ = translator(lang).gettext
    p = position
    y = 10.0
    head = []
    if caption:
        text, used = _caption(y, caption)
        head.append(text)
        y += used
    head.append(_text(VIEW_W / 2, y + 14, _("“{quote}”").format(quote=_(RULE_TEXT)), size=10.5, fill="#444444", cls="rule-text"))
    y += 22 + 26                                  # room for the French chairs
    french_y = y
    line_y = french_y + SIDE_H
    english_y = line_y + LINE_H
    total_h = english_y + SIDE_H + 32

    body = [_side_area(p, FRENCH, french_y, show_hands=show_hands, lang=lang)]
    n = p.rules.castles
    left, right = 150.0, VIEW_W - 150.0
    slot = (right - left) / n
    cy = line_y + LINE_H / 2 - 6
    body.append(f'<line x1="{_f(left)}" y1="{_f(cy + 4)}" x2="{_f(right)}" y2="{_f(cy + 4)}" stroke="#bbbbbb"/>')
    for i, owner in enumerate(p.castles):
        body.append(_castle(left + slot * (i + 0.5), cy, owner, i, badge=None, highlight=False, lang=lang))
    # removed cards face up beside the castle line, each side's on its own half
    # each label on its team's side of the cards, clear of the team's area
    for side, ry in ((FRENCH, line_y + LABEL_GAP + 14), (ENGLISH, line_y + LINE_H - LABEL_GAP - 14 - SMALL_H)):
        r = p.sides[side].removed
        body.append(f'<g class="removed stack" {_zone_attrs(side, "removed")} data-count="{r.size}">')
        label_y = ry - 5 if side == FRENCH else ry + SMALL_H + 13
        body.append(_text(75, label_y, _("removed {count}").format(count=r.size), size=10, cls="removed-label"))
        body.append(_pile_row(75, ry, r, side, w=SMALL_W, h=SMALL_H, span=120))
        body.append("</g>")
    # the first-player card at the end of the castle line, toward its holder
    fy = cy - 22 if p.first == FRENCH else cy + 10
    body.append(f'<g class="first-player" data-side="{SIDE_NAME[p.first].lower()}">'
                f'<rect x="{_f(right + 20)}" y="{_f(fy)}" width="{_f(SMALL_W)}" height="{_f(SMALL_H)}" rx="3" '
                f'fill="{GOLD}" stroke="{SIDE_COLOR[p.first]}" stroke-width="2"/>'
                + _text(right + 20 + SMALL_W / 2, fy + SMALL_H / 2 + 4, _("1st"), size=9, weight="bold")
                + _text(right + 20 + SMALL_W + 6, fy + SMALL_H / 2 + 4, _("first player"), size=9.5, anchor="start")
                + "</g>")
    body.append(_side_area(p, ENGLISH, english_y, show_hands=show_hands, lang=lang))

    title = caption or _("Guyenne: where the players sit")
    height = total_h * width / VIEW_W
    return Diagram(f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
                   f'viewBox="0 0 {_f(VIEW_W)} {_f(total_h)}" font-family="{FONT}" role="img">'
                   f"<title>{escape(title)}</title>"
                   f'<rect x="0" y="0" width="{_f(VIEW_W)}" height="{_f(total_h)}" fill="#ffffff"/>'
                   + "".join(head) + "".join(body) + "</svg>")
