"""Figures and tables of balance by skill level (:mod:`..analysis.studies.skill`).

One figure a metric: the skill levels along the x axis, weakest first, one line a
rule set with its 95% intervals, so that a conclusion that turns with skill shows
as lines that cross or an interval that leaves the half line.  For an advantage
the half line (an even game) is drawn: the verdicts are read against it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import plotly.graph_objects as go

from ..analysis import Metric, level_name
from ..analysis.studies.exploit import Exploitability
from ..analysis.studies.skill import SkillTable
from ..i18n import plain_estimate, translator
from .plots import _layout, label_color


def skill_figure(table: SkillTable, metric: str, lang: str | None = None) -> go.Figure:
    """``metric`` by skill level, one line a rule set, with 95% intervals where the metric has them; its words
    (title, axes, level names, verdicts) in ``lang`` (default: the current language)."""
    _ = translator(lang).gettext
    fig = go.Figure()
    for i, label in enumerate(table.labels):
        cells = [c for c in (next((c for c in table.cells if (c.label, c.level, c.metric.name)
                                   == (label, level, metric)), None) for level in table.levels) if c is not None]
        if not cells:
            continue
        ys = [c.metric.value for c in cells]
        has_ci = all(c.metric.low is not None and c.metric.high is not None for c in cells)
        error = ({"type": "data", "symmetric": False, "visible": True,
                  "array": [c.metric.high - y for c, y in zip(cells, ys)],  # type: ignore[operator]
                  "arrayminus": [y - c.metric.low for c, y in zip(cells, ys)]}  # type: ignore[operator]
                 if has_ci else None)
        fig.add_trace(go.Scatter(
            x=[level_name(c.level, lang) for c in cells], y=ys, mode="lines+markers", name=label, error_y=error,
            marker={"color": label_color(i), "size": 9}, line={"color": label_color(i)},
            customdata=[table.verdict_words(c, lang) for c in cells],
            hovertemplate=f"{label}<br>%{{x}}: %{{y:.3f}} (%{{customdata}})<extra></extra>"))
    if metric.startswith("Advantage"):
        fig.add_hline(y=0.5, line_dash="dot", line_color="#888888")
    fig.update_xaxes(type="category", categoryorder="array",
                     categoryarray=[level_name(lv, lang) for lv in table.levels])
    named = Metric.label_of(metric, lang)  # "Advantage (English)", as the metrics table names it
    title = _("{metric} by skill level").format(metric=named)
    return _layout(fig, title, _("skill level"), named, lang=lang)


def skill_rows(table: SkillTable, metric: str, lang: str | None = None,
               counters: Sequence[Exploitability] = ()) -> list[dict[str, str]]:
    """One row a rule set: its value [95% interval] and verdict at each level (for :func:`.plots.rows_html`);
    the columns' names and the verdicts in ``lang``.  ``counters``: what the counter-strategies took from the levels
    (issue 47, point 4), a last row beside the levels: the best one's score, "at least" (a better one may exist)."""
    _ = translator(lang).gettext
    rule_set = _("rule set")
    rows = []
    for label in table.labels:
        row = {rule_set: label}
        for level in table.levels:
            column = level_name(level, lang)
            c = next((c for c in table.cells if (c.label, c.level, c.metric.name) == (label, level, metric)), None)
            if c is None:
                row[column] = "-"
                continue
            m = c.metric
            row[column] = f"{plain_estimate(m.value, m.low, m.high, lang)}, {table.verdict_words(c, lang)}"
        rows.append(row)
    by_level = {f.policy: f.best for f in counters}
    if any(by_level.get(level) is not None for level in table.levels):
        rules = {f.rules if isinstance(f.rules, str) else _("this variant") for f in counters}
        row = {rule_set: _("a counter-strategy wins at least ({rules})").format(rules=", ".join(sorted(rules)))}
        for level in table.levels:
            best = by_level.get(level)
            row[level_name(level, lang)] = "-" if best is None else plain_estimate(best.score, best.low, best.high, lang)
        rows.append(row)
    return rows


def skill_csv(table: SkillTable) -> str:
    """Every metric of every rule set and level as CSV, a row a cell: its value, 95% interval, games and verdict."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["rules", "level", "metric", "value", "low", "high", "games", "verdict"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(table.rows())
    return out.getvalue()
