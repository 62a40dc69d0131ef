"""Figures and tables of the balance lab (:func:`..analysis.balance_search`, :func:`..analysis.skill_depth`).

A search answers "which settings meet my targets, and what do they cost elsewhere?": the table ranks the
candidates that meet every target, the fewest changes from the preset first, each target's metric with its
95% interval; the trade-off figure sets two targets' metrics against each other, one marker a candidate
with both intervals, the targets' bounds drawn, so that a designer sees what one target costs in the other;
with several targets, the candidates on the trade-off front (none beats them on every target at once) are ringed.
Pure functions of the kept result: the panel, the notebook and a language switch draw the same pictures.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import plotly.graph_objects as go

from ..analysis import Metric, level_name
from ..analysis.studies.balance import TARGET_METRICS, Candidate, SearchResult, Target
from ..analysis.studies.depth import Depth
from ..i18n import N_, plain_count, plain_number, translator
from .plots import _cell, _layout

#: the two metrics the designer metrics do not name (the first side's advantage, the skill chain), in words
OWN_NAMES = {TARGET_METRICS["advantage"]: N_("Advantage (first side)"), TARGET_METRICS["depth"]: N_("Skill depth")}
#: how each group of candidates is drawn: its name in the legend, its colour and marker
GROUPS = (
    ("meets", N_("meets every target"), "#2e8b57", "circle"),
    ("undecided", N_("not yet decided"), "#c8960c", "circle-open"),
    ("misses", N_("misses a target"), "#888888", "circle-open"),
    ("dropped", N_("dropped by racing"), "#bbbbbb", "x"),
)
#: how the trade-off front is drawn: a ring around each of its candidates
FRONT = (N_("trade-off front"), "#1f4e9c", "circle-open")


def short_name(target: Target) -> str:
    """The short name of a target's metric (``draws`` for a target written ``Drawishness=:0.05``)."""
    return next(name for name, metric in TARGET_METRICS.items() if metric == target.metric)


def target_label(name: str, lang: str | None = None) -> str:
    """A target (``advantage``, ``rounds``) or a metric's own name as its metric is shown in ``lang``."""
    metric = TARGET_METRICS.get(name, name)
    if metric in OWN_NAMES:
        return translator(lang).gettext(OWN_NAMES[metric])
    return Metric.label_of(metric, lang)


def _group(c: Candidate, result: SearchResult) -> str:
    """How a candidate is drawn: dropped by racing, else from its targets' verdicts (an interval across a target's
    end leaves it undecided, not met)."""
    if c.dropped:
        return "dropped"
    if c.meets(result.targets):
        return "meets"
    missed = any(t.missed(c.metrics[t.metric]) for t in result.targets if t.metric in c.metrics)
    return "misses" if missed or c.problems else "undecided"


def _error(values: Sequence[float], metrics: Sequence[Metric]) -> dict[str, object] | None:
    """A 95% interval as error bars (None when a metric has none)."""
    if any(m.low is None or m.high is None for m in metrics):
        return None
    return {"type": "data", "symmetric": False, "visible": True, "thickness": 1,
            "array": [m.high - v for m, v in zip(metrics, values)],  # type: ignore[operator]
            "arrayminus": [v - m.low for m, v in zip(metrics, values)]}  # type: ignore[operator]


def tradeoff_figure(result: SearchResult, x: str, y: str, lang: str | None = None) -> go.Figure:
    """Target ``y``'s metric against target ``x``'s, one marker a candidate played (its 95% intervals as bars),
    grouped by whether it meets every target, missed one at its last rung or was dropped by racing; the best
    setting starred, the targets' bounds drawn as dotted lines.  Words in ``lang``."""
    _ = translator(lang).gettext
    mx, my = TARGET_METRICS.get(x, x), TARGET_METRICS.get(y, y)
    best = result.best()
    fig = go.Figure()
    played = [c for c in result.candidates if mx in c.metrics and my in c.metrics]
    for key, name, color, symbol in GROUPS:
        group = [c for c in played if _group(c, result) == key]
        if not group:
            continue
        xs, ys = [c.metrics[mx].value for c in group], [c.metrics[my].value for c in group]
        fig.add_trace(go.Scatter(  # each marker labelled with its settings, its counts in the hover
            x=xs, y=ys, mode="markers+text", name=_(name),
            error_x=_error(xs, [c.metrics[mx] for c in group]), error_y=_error(ys, [c.metrics[my] for c in group]),
            marker={"color": color, "symbol": symbol, "size": 10, "line": {"color": color, "width": 2}},
            text=[result.space.label(c.assignment, lang) for c in group], textposition="top center",
            textfont={"size": 10, "color": "#444444"},
            customdata=[_candidate_words(c, result, lang) for c in group],
            hovertemplate="%{customdata}<br>%{x:.3f}, %{y:.3f}<extra></extra>"))
    if best is not None and best in played:
        fig.add_trace(go.Scatter(
            x=[best.metrics[mx].value], y=[best.metrics[my].value], mode="markers",
            name=_("best") if best.meets(result.targets) else _("closest"),
            marker={"color": "#c8960c", "symbol": "star", "size": 18, "line": {"color": "#7f6000", "width": 1}},
            text=[_candidate_words(best, result, lang)], hovertemplate="%{text}<extra></extra>"))
    front = _front(result, played)
    if front:
        name, color, symbol = FRONT
        fig.add_trace(go.Scatter(
            x=[c.metrics[mx].value for c in front], y=[c.metrics[my].value for c in front], mode="markers",
            name=_(name), marker={"color": color, "symbol": symbol, "size": 20, "line": {"color": color, "width": 2}},
            text=[_candidate_words(c, result, lang) for c in front], hovertemplate="%{text}<extra></extra>"))
    for t in result.targets:
        for bound in (t.low, t.high):
            if bound is None:
                continue
            if t.metric == mx:
                fig.add_vline(x=bound, line_dash="dot", line_color="#2e8b57")
            if t.metric == my:
                fig.add_hline(y=bound, line_dash="dot", line_color="#2e8b57")
    title = _("{y} against {x}").format(y=target_label(y, lang), x=target_label(x, lang)) + "<br><sup>" + _(
        "{count} candidates, 95% intervals; dotted lines: the targets").format(count=len(played)) + "</sup>"
    _layout(fig, title, target_label(x, lang), target_label(y, lang), lang=lang)
    fig.update_layout(height=440, margin={"t": 90}, legend={"orientation": "h", "y": -0.2})
    return fig


def _front(result: SearchResult, among: Sequence[Candidate]) -> list[Candidate]:
    """The candidates of ``among`` on the trade-off front, when there are several targets to trade (with one, the
    front is only the closest candidates, already in the table)."""
    if len(result.targets) < 2:
        return []
    numbers = {c.number for c in result.front()}
    return [c for c in among if c.number in numbers]


def _candidate_words(c: Candidate, result: SearchResult, lang: str | None) -> str:
    """``hand size 6, castles 5 (1 change, 200 games)``."""
    tr = translator(lang)
    return tr.ngettext("{label} ({count} change, {games} games)", "{label} ({count} changes, {games} games)",
                       len(c.changes)).format(label=result.space.label(c.assignment, lang), count=len(c.changes),
                                              games=plain_count(c.games, lang))


def table_heading(result: SearchResult, lang: str | None = None) -> str:
    """What :func:`candidate_rows` lists, as the table's heading."""
    _ = translator(lang).gettext
    if result.ranked():
        return _("The best setting and the alternatives that meet every target, fewest changes first (95% intervals)")
    if _front(result, result.candidates):
        return _("No candidate meets every target yet; the closest, then the trade-off front, fewest changes first "
                 "(95% intervals)")
    return _("No candidate meets every target yet; the closest (95% intervals)")


def candidate_rows(result: SearchResult, alternatives: int = 8, lang: str | None = None) -> list[dict[str, str]]:
    """The best setting and up to ``alternatives`` others meeting every target, the fewest changes from the preset
    first; when none meets them, the closest candidate and, with several targets, the others on the trade-off
    front (the fewest changes first).  One column a target: its value [95% interval]; with several targets, a
    column says which candidates are on the front."""
    _ = translator(lang).gettext
    ranked = result.ranked()
    on_front = {c.number for c in _front(result, result.candidates)}
    if ranked:
        shown = ranked[:1 + alternatives]
    else:
        closest = [c for c in (result.best(),) if c is not None]
        others = [c for c in _front(result, result.candidates) if c not in closest]
        shown = closest + sorted(others, key=lambda c: (len(c.changes), c.objective or 0.0, c.number))[:alternatives]
    rows = []
    for i, c in enumerate(shown):
        rank = (_("best") if i == 0 else str(i + 1)) if ranked else _("closest") if i == 0 else _("trade-off")
        row = dict([(_("setting"), result.space.label(c.assignment, lang)), (_("rank"), rank),
                    (_("changes from the preset"), str(len(c.changes))), (_("games"), str(c.games))])
        if len(result.targets) > 1:
            row[_("on the trade-off front")] = _("yes") if c.number in on_front else _("no")
        for t in result.targets:
            m = c.metrics.get(t.metric)
            # "0.498 [0.449, 0.546], not yet decided (...)": rows_html puts the verdict under the interval
            row[_target_column(t, lang)[0]] = "-" if m is None else (
                f"{_cell(m.value, m.low, m.high)}, {t.verdict(m).words(lang)}")
        rows.append(row)
    return rows


def range_words(t: Target, lang: str | None = None) -> str:
    """A target's range as a reader says it: "0.45 to 0.55", "at most 0.05", "at least 0.45" (the syntax typed in
    the field, "0.45:0.55" and ":0.05", headed the columns unexplained)."""
    _ = translator(lang).gettext
    low, high = (None if x is None else plain_number(x, None, lang) for x in (t.low, t.high))
    if low is None:
        return _("at most {high}").format(high=high)
    return _("at least {low}").format(low=low) if high is None else _("{low} to {high}").format(low=low, high=high)


def _target_column(t: Target, lang: str | None) -> tuple[str, str, str]:
    """A target's column in :func:`candidate_rows`: its key ("Advantage (first side) (0.45 to 0.55)"), the metric's
    label and the range asked (:func:`range_words`)."""
    label, wanted = target_label(short_name(t), lang), range_words(t, lang)
    return f"{label} ({wanted})", label, wanted


def candidate_heads(result: SearchResult, lang: str | None = None) -> dict[str, tuple[str, ...]]:
    """The short headings of :func:`candidate_rows`' long columns (for :func:`.plots.rows_html`, which gives each
    its full key as a tooltip): in a 1280 px window the Balance tab is some 650 px wide, where the full keys
    wrapped to four lines or more; a target's range goes on a line of its own, under its metric."""
    _ = translator(lang).gettext
    heads: dict[str, tuple[str, ...]] = dict([(_("changes from the preset"), (_("changes"),)),
                                              (_("on the trade-off front"), (_("front"),))])
    for t in result.targets:
        key, label, wanted = _target_column(t, lang)
        heads[key] = (label, f"({wanted})")
    return heads


def candidates_csv(result: SearchResult) -> str:
    """Every candidate tried as CSV (:meth:`..analysis.SearchResult.rows`: settings, verdicts with the trade-off
    front, each metric with its 95% interval's bounds), for a spreadsheet."""
    rows = result.rows()
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()


def depth_rows(depth: Depth, lang: str | None = None) -> list[dict[str, str]]:
    """One row a pair of neighbouring levels: the stronger level's score, the weaker level's wins and the luck share,
    each with its 95% interval, and whether the stronger level beats the one below."""
    _ = translator(lang).gettext
    rows = []
    for m in depth.matches:
        rows.append({
            _("levels"): _("{stronger} against {weaker}").format(stronger=level_name(m.stronger, lang),
                                                                 weaker=level_name(m.weaker, lang)),
            _("score of the stronger level"): _cell(m.score.value, m.score.low, m.score.high),
            _("the weaker level wins"): _cell(m.weaker_wins.value, m.weaker_wins.low, m.weaker_wins.high),
            _("luck share"): _cell(m.luck.value, m.luck.low, m.luck.high),
            _("beats the level below"): _("yes") if m.beats else _("no"),
        })
    return rows
