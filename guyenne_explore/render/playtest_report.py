"""A playtest's report as one self-contained HTML file: what the players' decisions say beside the bots.

Opens offline in any browser: the sentences, each player's accuracy, bands and "plays like" with each level's
likelihood, the style measures of each player beside each level's, each game's result and luck-adjusted result,
and the records that could not be read.  Everything is read from :class:`~guyenne_explore.analysis.PlaytestReport`.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from ..analysis import level_name
from ..analysis.playtest import BANDS, band, display_name
from ..engine import GameRecord, Position
from ..i18n import N_, castle_number, current_language, plain_estimate, plain_number, point_name, translator
from .report import STYLE

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.playtest import Costly, PlaytestReport

#: each band of a decision's loss in words (the keys are the report's, in its JSON and CSV)
BAND_WORDS = {"good": N_("good"), "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
#: the style measures shown side by side, by their key in a style's JSON
MEASURES = ("bluffs", "hero_round_1", "hero_late", "hero_kept", "conceded", "top_stake")


#: the decisions to look at again that the report lists for each person (the costliest first)
LISTED = 10


def move_words(position: Position, text: str, lang: str | None = None) -> str:
    """A move as a reader reads it beside the table: "castle 3: H4" (castles counted from 1, as the table shows
    them), else the engine's text of it ("H52", "concede")."""
    move = position.parse_move(text)
    if move.castle is None:
        return text
    return translator(lang).gettext("castle {number}: {cards}").format(number=castle_number(move.castle), cards=move.cards)


def costly_parts(costly: "Costly", position: Position, budget: int, lang: str | None = None) -> dict[str, str]:
    """One decision to look at again, each part in words (the HTML table's cells, the Play tab's line): where
    (``when``), the move played and the bots' move with their values (a win 1, a draw 1/2), the loss with its
    interval (none where the open-hand solver valued it exactly), the loss alone (``lost``) and its band."""
    _ = translator(lang).gettext
    d = costly.decision
    assert d.loss is not None and d.value is not None and d.best is not None and d.best_move is not None
    interval = d.loss_interval(budget)
    low, high = interval if interval is not None else (None, None)
    return {"when": _("round {round}, {point}").format(round=d.round, point=point_name(d.point, lang)),
            "played": "{} ({})".format(move_words(position, d.move, lang), plain_number(d.value, 2, lang)),
            "best": "{} ({})".format(move_words(position, d.best_move, lang), plain_number(d.best, 2, lang)),
            "loss": plain_estimate(d.loss, low, high, lang) + ("" if interval is not None else " " + _("(exact)")),
            "lost": plain_number(d.loss, 2, lang),
            "band": _(BAND_WORDS[band(d.loss) or "good"])}


def nothing_to_look_at(lang: str | None = None) -> str:
    """What the decisions to look at say of a player none of whose decisions is in a band of loss."""
    least = min(limit for limit, _name in BANDS)
    return translator(lang).gettext("No decision lost {least} of a win or more.").format(
        least=plain_number(least, 2, lang))


def costly_table(costly: "list[Costly]", records: Mapping[str, GameRecord], budget: int,
                 lang: str | None = None) -> str:
    """The decisions to look at again as an HTML table: game, when, the move played, the bots' move, the loss."""
    _ = translator(lang).gettext
    rows = []
    for c in costly:
        record = records[c.game.name]
        parts = costly_parts(c, record.positions()[c.decision.index], budget, lang)
        rows.append([game_label(record, lang), parts["when"], parts["played"], parts["best"],
                     f"{parts['loss']}, {parts['band']}"])
    return _table([_("game"), _("when"), _("played (its value)"), _("the bots' move (its value)"),
                   _("win chance lost")], rows)


def game_label(record: GameRecord, lang: str | None = None) -> str:
    """A kept game as a person finds it: its date and its players ("2026-12-01 07:30: Alice – heuristic")."""
    header = record.header
    if header is None:
        return "?"
    players = " – ".join(s.name if s.kind == "person" and s.name else level_name(s.policy or "?", lang)
                         for s in header.seats)
    return f"{header.date.replace('T', ' ')[:16]}: {players}"


def _table(head: list[str], rows: list[list[str]]) -> str:
    """An HTML table of text cells (escaped here)."""
    top = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{top}</tr>{body}</table>"


def _share(data: dict[str, Any], lang: str) -> str:
    """A style share's value and interval as the tables show it ("0.120 [0.080, 0.170]"), "-" without trials."""
    if data.get("value") is None:
        return "-"
    low, high = data.get("ci95") or (None, None)
    return plain_estimate(data["value"], low, high, lang)


def players_table(report: "PlaytestReport", lang: str | None = None) -> str:
    """The players' table in ``lang``: each player's decisions, accuracy with its interval, bands, the level they
    play most like and each level's likelihood (the HTML report's and the Play tab's); where a bot has a row, a line
    under it saying that a bot is read against the same search as a person."""
    lang = lang or current_language()
    _ = translator(lang).gettext
    levels = list(report.levels)
    rows = []
    for player in report.players:
        p = player.to_json()
        acc = p["accuracy"]
        read = (plain_number(p["read"], 0, lang) if p["read"] == p["decisions"] else _("{read} of {decisions}").format(
            read=plain_number(p["read"], 0, lang), decisions=plain_number(p["decisions"], 0, lang)))
        rows.append([display_name(player, lang), read,
                     # out of 100, as the sentences say it ("accuracy 5 [1, 23] out of 100")
                     "-" if acc is None else "{} [{}, {}]".format(*(plain_number(round(acc[k]), 0, lang)
                                                                    for k in ("value", "low", "high"))),
                     ", ".join(_(BAND_WORDS[k]) + f" {v}" if k in BAND_WORDS else f"{k} {v}"
                               for k, v in sorted(p["bands"].items())),
                     level_name(p["plays_like"], lang) if p["plays_like"] else "-",
                     *(plain_estimate(p["likelihoods"][lv], lang=lang) for lv in levels)])
    table = _table([_("player"), _("decisions read"), _("accuracy (out of 100)"), _("decisions by loss"),
                    _("plays like"), *(_("{level}: log-likelihood a decision").format(level=level_name(lv, lang))
                                       for lv in levels)], rows)
    if all(player.person for player in report.players):
        return table
    # a review read a bot's blunders as a fault of the reading: they are the level's distance from the search
    return table + '<p class="guyenne-bot-rows">' + escape(_(
        "A bot's decisions are read as a person's are, against the search at {budget} rollouts: its row says how "
        "far that level plays from the search.").format(budget=plain_number(report.budget, 0, lang))) + "</p>"


def playtest_html(report: "PlaytestReport", lang: str | None = None,
                  records: Mapping[str, GameRecord] | None = None) -> str:
    """The report as one HTML page in ``lang`` (the current language by default); with the ``records`` read (by
    their names in the report), each person's costliest decisions (:data:`LISTED`) with the bots' moves."""
    lang = lang or current_language()
    _ = translator(lang).gettext
    data = report.to_json()
    parts = ["<h1>" + escape(_("Playtest: the players beside the bots")) + "</h1>",
             "<p>" + escape(_("{games} games under {rules}; decisions of an open-hand endgame (no side can draw "
                              "again) valued exactly by the solver, the others by the search at {budget} rollouts; "
                              "accuracy on the curve {curve}.").format(games=len(report.games), rules=report.rules,
                                                                       budget=report.budget,
                                                                       curve=data["accuracy_curve"])) + "</p>",
             "<ul>" + "".join(f"<li>{escape(s)}</li>" for s in report.sentences(lang)) + "</ul>",
             "<h2>" + escape(_("Players")) + "</h2>", players_table(report, lang)]
    if records is not None:
        for player in (p for p in report.players if p.person):
            costly = report.costliest(player)
            parts.append("<h2>" + escape(_("Decisions to look at: {player}").format(
                player=display_name(player, lang))) + "</h2>")
            parts.append(costly_table(costly[:LISTED], records, report.budget, lang) if costly else
                         "<p>" + escape(nothing_to_look_at(lang)) + "</p>")
    parts.append("<h2>" + escape(_("Style beside the bots")) + "</h2>")
    styles = [(display_name(player, lang), player.style.to_json()) for player in report.players]
    if report.bots is not None:
        styles += [(level_name(s.level, lang), s.to_json()) for s in report.bots.levels]
    parts.append(_table([_("who"), *MEASURES], [[who, *(_share(style[m], lang) for m in MEASURES)]
                                                 for who, style in styles]))
    parts.append("<h2>" + escape(_("Games")) + "</h2>")
    parts.append(_table([_("game"), _("result"), _("luck"), _("luck-adjusted result")],
                        [[g["name"], "-" if g["result"] is None else plain_estimate(g["result"], lang=lang),
                          plain_estimate(g["luck"], lang=lang),
                          "-" if g["luck_adjusted"] is None else plain_estimate(g["luck_adjusted"], lang=lang)]
                         for g in data["games"]]))
    if report.bad:
        parts.append("<h2>" + escape(_("Records not read")) + "</h2>")
        parts.append(_table([_("file"), _("problem")], [list(b) for b in report.bad]))
    title = escape(_("Playtest report"))
    return (f"<!DOCTYPE html><html lang=\"{escape(lang)}\"><head><meta charset=\"utf-8\"><title>{title}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>\n")
