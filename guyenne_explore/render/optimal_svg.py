"""The equilibrium's opening mix on the castle line: each castle with the moves played there and
their probabilities (drawn from an :class:`~guyenne_explore.analysis.optimal.solver.OptimalResult`)."""

from __future__ import annotations

from collections import defaultdict
from html import escape
from typing import TYPE_CHECKING

from ..i18n import castle_number, current_language, plain_percent, point_name, side_noun, translator
from .colors import CONTROL_COLOR

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.optimal import OptimalResult
    from ..engine import Position

BOX, GAP, TOP = 96, 12, 30


def mix_svg(position: "Position", result: "OptimalResult", lang: str | None = None) -> str:
    """SVG: the castle line at the round start, with the opening moves and their weights below; its words in
    ``lang`` (default: the current language)."""
    lang = lang or current_language()
    _ = translator(lang).gettext
    side = side_noun(result.side_to_play, lang, capital=True)  # "The English" / "Les Anglais"
    title = _("{side} at {point}: equilibrium mix").format(side=side, point=point_name(result.to_play, lang))
    by_castle: dict[int, list[tuple[str, float]]] = defaultdict(list)
    at = position.placed.y if position.to_play == "respond_second" else position.placed.x
    for mv, p in result.moves:  # an answer is played at the castle already opened
        by_castle[mv.castle if mv.castle is not None else (at if at is not None else -1)].append((str(mv.cards), p))
    n = len(position.castles)
    rows = max((len(v) for v in by_castle.values()), default=0)
    width = n * (BOX + GAP) + GAP
    height = TOP + 50 + 18 * max(rows, 1) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           f'<text x="{GAP}" y="18" fill="#222">{escape(title)}</text>']
    for c in range(n):
        x = GAP + c * (BOX + GAP)
        total = sum(p for _cards, p in by_castle.get(c, []))
        colour = CONTROL_COLOR[position.control(c)]
        opacity = 0.35 + 0.65 * min(total, 1)
        out.append(f'<rect x="{x}" y="{TOP}" width="{BOX}" height="36" rx="4" fill="{colour}" '
                   f'fill-opacity="{opacity:.2f}" stroke="#444"/>')
        name = escape(_("castle {castle}").format(castle=castle_number(c)))
        # white reads only on a box filled enough; a pale box (a castle little played) takes dark text
        ink = "#fff" if opacity >= 0.6 else "#222"
        out.append(f'<text x="{x + BOX / 2}" y="{TOP + 23}" text-anchor="middle" fill="{ink}" '
                   f'font-weight="bold">{name}</text>')
        for i, (cards, p) in enumerate(sorted(by_castle.get(c, []), key=lambda t: -t[1])):
            out.append(f'<text x="{x + BOX / 2}" y="{TOP + 56 + 18 * i}" text-anchor="middle" fill="#222">'
                       f'{escape(cards)} {escape(plain_percent(p, lang))}</text>')
    out.append("</svg>")
    return "".join(out)
