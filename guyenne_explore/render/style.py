"""Figures and tables of how each skill level plays (:func:`..analysis.play_style`).

One column a rule set when several are compared side by side, one colour a level (weakest first, the
same colour in every figure): when the hero is first played, how many cards an opening puts down, the
castles chosen (by castle and by rank of stake), and the bluff rate with its 95% interval.  Shares are of
the level's sides (hero), openings or defences, so levels that played different numbers of openings
compare.  Pure functions of the kept results: the panel, the command line and a language switch draw the
same pictures.
"""

from __future__ import annotations

import csv
import io
from html import escape
from collections.abc import Callable, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..analysis import level_name
from ..analysis.studies.style import LevelStyle, PlayStyle
from ..i18n import percent_sign, plain_estimate, translator
from .plots import _layout, label_color, rows_html


def _percent_axis(fig: go.Figure, lang: str | None) -> None:
    """The y axis in percent as the language writes them ("20\u00a0%" in French, as the sentences above say "16\u00a0%";
    plotly's own ``.0%`` writes "20%" in every language): the figures carry their shares times 100."""
    fig.update_yaxes(tickformat=".0f", ticksuffix=percent_sign(lang), rangemode="tozero")


def _columns(styles: Sequence[PlayStyle]) -> go.Figure:
    """One column a rule set (its name above it), one y axis for all."""
    return make_subplots(rows=1, cols=max(1, len(styles)), shared_yaxes=True,
                         subplot_titles=[s.rules for s in styles] if len(styles) > 1 else None)


def _bars(styles: Sequence[PlayStyle], title: str, x_title: str, y_title: str,
          bars: Callable[[LevelStyle], tuple[list[str], list[float], list[str]]], lang: str | None) -> go.Figure:
    """A grouped bar chart: in each rule set's column, one bar a key and level (``bars``: keys, shares, hover)."""
    fig, sign = _columns(styles), percent_sign(lang)
    keys: list[str] = []  # every bar's key, in the order met
    for col, style in enumerate(styles, start=1):
        for i, level in enumerate(style.levels):
            xs, ys, hover = bars(level)
            keys += [x for x in xs if x not in keys]
            name = level_name(level.level, lang)
            fig.add_trace(go.Bar(x=xs, y=[100 * y for y in ys], name=name, legendgroup=name, showlegend=col == 1,
                                 marker_color=label_color(i), customdata=hover,
                                 hovertemplate=f"{name}<br>%{{x}}: %{{y:.1f}}{sign} (%{{customdata}})<extra></extra>"),
                          row=1, col=col)
    fig.update_layout(barmode="group")
    # numbered keys (rounds, cards) in their order, then the others ("kept") as met: by first appearance alone,
    # a round that only a later level reached came after the rest (1, 2, 3, 5, 4)
    order = sorted(keys, key=lambda x: (0, int(x), 0) if x.isdigit() else (1, 0, keys.index(x)))
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=order)
    _percent_axis(fig, lang)
    return _layout(fig, title, x_title, y_title, lang=lang)


def _shares(counts: Sequence[tuple[int, int]], of: int) -> tuple[list[float], list[str]]:
    return [n / of if of else 0.0 for _k, n in counts], [f"{n} / {of}" for _k, n in counts]


def hero_figure(styles: Sequence[PlayStyle], lang: str | None = None) -> go.Figure:
    """The round in which each level first plays its hero (its last bar: kept to the end), as shares of sides."""
    _ = translator(lang).gettext

    def bars(level: LevelStyle) -> tuple[list[str], list[float], list[str]]:
        counts = [*((k, n) for k, n in level.hero_rounds if k), *((k, n) for k, n in level.hero_rounds if not k)]
        ys, hover = _shares(counts, level.hero_kept.trials)
        return [str(k) if k else _("kept") for k, _n in counts], ys, hover

    return _bars(styles, _("When the hero is first played, by level"), _("round"), _("share of sides"),
                 bars, lang)


def opening_figure(styles: Sequence[PlayStyle], lang: str | None = None) -> go.Figure:
    """How many cards each level puts down at an opening, as shares of its openings."""
    _ = translator(lang).gettext

    def bars(level: LevelStyle) -> tuple[list[str], list[float], list[str]]:
        ys, hover = _shares(level.opening_sizes, level.openings)
        return [str(k) for k, _n in level.opening_sizes], ys, hover

    return _bars(styles, _("Cards put down at an opening, by level"), _("cards at the castle"),
                 _("share of openings"), bars, lang)


def castle_figure(styles: Sequence[PlayStyle], lang: str | None = None) -> go.Figure:
    """Which castle each level opens at (castles numbered from 1, left to right), as shares of its openings."""
    _ = translator(lang).gettext

    def bars(level: LevelStyle) -> tuple[list[str], list[float], list[str]]:
        ys, hover = _shares(level.castles, level.openings)
        return [str(k + 1) for k, _n in level.castles], ys, hover

    return _bars(styles, _("Castles chosen at an opening, by level"), _("castle"), _("share of openings"), bars,
                 lang)


def stake_figure(styles: Sequence[PlayStyle], lang: str | None = None) -> go.Figure:
    """The rank of the stake of the castle each level opens at (1: the most at stake), where the stakes differ."""
    _ = translator(lang).gettext

    def bars(level: LevelStyle) -> tuple[list[str], list[float], list[str]]:
        ys, hover = _shares(level.stake_ranks, level.top_stake.trials)
        return [str(k) for k, _n in level.stake_ranks], ys, hover

    return _bars(styles, _("Rank of the stake of the castle chosen (1: the most at stake), by level"),
                 _("rank of the castle's stake"), _("share of openings"), bars, lang)


def bluff_figure(styles: Sequence[PlayStyle], lang: str | None = None) -> go.Figure:
    """Each level's bluff rate at its openings with its 95% interval, one line a rule set."""
    _ = translator(lang).gettext
    fig, sign = go.Figure(), percent_sign(lang)
    for i, style in enumerate(styles):
        shown = [s for s in style.levels if s.bluffs.value is not None]
        ys = [100 * (s.bluffs.value or 0.0) for s in shown]
        cis = [(100 * s.bluffs.interval[0], 100 * s.bluffs.interval[1]) if s.bluffs.interval else (y, y)
               for s, y in zip(shown, ys)]
        fig.add_trace(go.Scatter(
            x=[level_name(s.level, lang) for s in shown], y=ys, mode="lines+markers", name=style.rules,
            marker={"color": label_color(i), "size": 9}, line={"color": label_color(i)},
            error_y={"type": "data", "symmetric": False, "visible": True, "array": [hi - y for (_lo, hi), y in zip(cis, ys)],
                     "arrayminus": [y - lo for (lo, _hi), y in zip(cis, ys)]},
            customdata=[f"{s.bluffs.hits} / {s.bluffs.trials}" for s in shown],
            hovertemplate=f"{style.rules}<br>%{{x}}: %{{y:.1f}}{sign} (%{{customdata}})<extra></extra>"))
    fig.update_xaxes(type="category")
    _percent_axis(fig, lang)
    return _layout(fig, _("Bluffs at an opening, by level, with their intervals (95%)"), _("skill level"),
                   _("share of openings"), lang=lang)


def style_figures(styles: Sequence[PlayStyle], lang: str | None = None) -> dict[str, go.Figure]:
    """Every figure of a style run, by the name its download takes."""
    return {"style-hero": hero_figure(styles, lang), "style-openings": opening_figure(styles, lang),
            "style-bluffs": bluff_figure(styles, lang), "style-castles": castle_figure(styles, lang),
            "style-stakes": stake_figure(styles, lang)}


def _shown(value: float | None, ci: tuple[float, float] | None, lang: str | None) -> str:
    if value is None:
        return "-"
    low, high = ci if ci is not None else (None, None)
    return plain_estimate(value, low, high, lang)


def style_rows(styles: Sequence[PlayStyle], lang: str | None = None) -> list[dict[str, str]]:
    """One row a rule set and level: each measure's value [95% interval] (for :func:`.plots.rows_html`)."""
    _ = translator(lang).gettext
    rows = []
    for style in styles:
        for s in style.levels:
            m = s.opening_mean
            rows.append({
                _("rule set"): style.rules, _("skill level"): level_name(s.level, lang),
                _("bluffs at an opening"): _shown(s.bluffs.value, s.bluffs.interval, lang),
                _("cards at an opening"): _shown(m.value, None if m.low is None or m.high is None else (m.low, m.high), lang),
                _("hero in round 1"): _shown(s.hero_first_round.value, s.hero_first_round.interval, lang),
                _("hero in the last rounds"): _shown(s.hero_late.value, s.hero_late.interval, lang),
                _("hero kept to the end"): _shown(s.hero_kept.value, s.hero_kept.interval, lang),
                _("defences conceded"): _shown(s.conceded.value, s.conceded.interval, lang),
                _("castle with the most at stake"): _shown(s.top_stake.value, s.top_stake.interval, lang)})
    return rows


def style_tables(styles: Sequence[PlayStyle], lang: str | None = None) -> str:
    """The panel's tables (HTML): one a rule set under its name, a row a measure and a column a level, each
    cell the value [95% interval].  Read across, a row compares the levels on one measure; and four levels fit
    a 1280 px panel, where a row a level with its seven measures beside it scrolled sideways."""
    _ = translator(lang).gettext
    measure, skill_level = _("measure"), _("skill level")
    out = []
    for style in styles:
        rows = style_rows([style], lang)
        measures = list(rows[0])[2:]  # after the rule set and the level
        levels = [row[skill_level] for row in rows]
        table = [{measure: m, **{level: row[m] for level, row in zip(levels, rows)}} for m in measures]
        out.append(f"<div style='font-weight:bold;margin:6px 0 2px'>{escape(style.rules)}</div>" + rows_html(table))
    return "".join(out)


def style_csv(styles: Sequence[PlayStyle]) -> str:
    """Every measure of every rule set and level as CSV: one row a measure (and key), its value, interval and counts."""
    out = io.StringIO()
    fields = ["rules", "level", "measure", "key", "value", "low", "high", "count", "of"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for style in styles:
        writer.writerows(style.rows())
    return out.getvalue()
