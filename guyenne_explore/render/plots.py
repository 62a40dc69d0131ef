"""Plotly figures of analysis results, several rule sets side by side, and their export.

Every figure is a pure function of results keyed by label (a rule set's name, or
"preset" and "variant"): the panels, the notebooks and the command line draw the
same pictures.  Sides keep the diagram colours (English red, French blue); where
the compared thing is the label, each label gets its own colour.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import warnings
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from ..analysis import AnalysisResult, Metric, level_name
from ..analysis.studies.variants import SWEEP_METRICS, SweepPoint, choice_label, parameter_label, result_metrics
from ..i18n import gettext, number_separators, plain_count, plain_estimate, side_title, translator
from .colors import ENGLISH_COLOR, FRENCH_COLOR, NEUTRAL_COLOR

Results = Mapping[str, AnalysisResult]

#: One colour per compared label, none of them the sides' red and blue.
LABEL_COLORS = ("#555555", "#c8960c", "#2e8b57", "#8e44ad", "#e67e22", "#16a085", "#7f6000", "#c2185b")
FIGURE_NAMES = ("scores", "difference", "outcomes", "rounds")
FORMATS = ("html", "svg", "png")


def label_color(i: int) -> str:
    return LABEL_COLORS[i % len(LABEL_COLORS)]


def policies_text(policies: tuple[str, str], lang: str | None = None) -> str:
    """Who played: ``English heuristic · French search:50``, so that two runs' results (or a downloaded
    figure) can be told apart."""
    english, french = (level_name(policy, lang) for policy in policies)  # "uniforme", "recherche:50" in French
    return f"{side_title('English', lang)} {english} · {side_title('French', lang)} {french}"


def _layout(fig: go.Figure, title: str, x: str, y: str | None = None, lang: str | None = None,
            results: Results | None = None) -> go.Figure:
    """Common look; with ``results``, the policies that produced them go under the title."""
    y = translator(lang).gettext("probability") if y is None else y
    if results:
        played = dict.fromkeys(policies_text(r.policies, lang) for r in results.values())
        title += "<br><sup>" + escape("; ".join(played)) + "</sup>"
    fig.update_layout(title=title, template="plotly_white", bargap=0.15, legend_title_text="", separators=number_separators(lang),
                      margin={"l": 60, "r": 20, "t": 115 if results else 70, "b": 50}, height=400 if results else 360)
    fig.update_xaxes(title_text=x)
    fig.layout.yaxis.title.text = y
    return fig


def _how(r: AnalysisResult, lang: str | None = None) -> str:
    tr = translator(lang)
    return tr.gettext("exact") if r.exact else tr.ngettext("{count} game", "{count} games", r.games).format(
        count=plain_count(r.games, lang))


def _marginal(r: AnalysisResult, key: Any) -> dict[int, float]:
    out: dict[int, float] = defaultdict(float)
    for k, p in r.outcomes.items():
        out[key(k)] += float(p)
    return dict(sorted(out.items()))


def score_figure(results: Results, lang: str | None = None) -> go.Figure:
    """Final score distribution of each side, one panel per label; texts in ``lang`` (default: the current language)."""
    _ = translator(lang).gettext
    labels = list(results)
    fig = make_subplots(rows=1, cols=len(labels), shared_yaxes=True,
                        subplot_titles=[f"{lb}<br>({_how(results[lb], lang)})" for lb in labels])
    # two short lines a panel, small: long rule-set labels side by side no longer run into each other at 1280 px
    fig.update_annotations(font_size=12)
    for col, lb in enumerate(labels, start=1):
        for i, (side, color) in enumerate((("English", ENGLISH_COLOR), ("French", FRENCH_COLOR))):
            dist = _marginal(results[lb], lambda k, i=i: k[i])
            score = _("{side} score").format(side=side_title(side, lang))
            fig.add_trace(go.Bar(x=list(dist), y=list(dist.values()), name=side_title(side, lang), marker_color=color,
                                 legendgroup=side, showlegend=col == 1, meta=lb,
                                 hovertemplate=f"{lb}<br>{score} %{{x}}: %{{y:.3f}}<extra></extra>"),
                          row=1, col=col)
    fig.update_layout(barmode="group")
    return _layout(fig, _("Final scores per side"), _("final score"), lang=lang, results=results)


def difference_figure(results: Results, lang: str | None = None) -> go.Figure:
    """Distribution of English score minus French score; one colour per label (by sign when alone)."""
    _ = translator(lang).gettext
    difference = _("difference")
    fig = go.Figure()
    for i, (lb, r) in enumerate(results.items()):
        dist = _marginal(r, lambda k: k[0] - k[1])
        color: Any = label_color(i)
        if len(results) == 1:
            color = [ENGLISH_COLOR if d > 0 else FRENCH_COLOR if d < 0 else NEUTRAL_COLOR for d in dist]
        fig.add_trace(go.Bar(x=list(dist), y=list(dist.values()), name=lb, marker_color=color, meta=lb,
                             hovertemplate=f"{lb}<br>{difference} %{{x}}: %{{y:.3f}}<extra></extra>"))
    fig.update_layout(barmode="group", showlegend=len(results) > 1)
    # equal scores are mostly settled by the tie-break: a review read the bar at 0 (0.135) against Drawishness (0.044)
    return _layout(fig, _("Score difference (English - French)"),
                   _("English score - French score (at 0, the tie-break decides: a draw only if it ties too)"),
                   lang=lang, results=results)


def outcome_figure(results: Results, lang: str | None = None) -> go.Figure:
    """Win, draw and loss probabilities per label, with 95% intervals when sampled."""
    _ = translator(lang).gettext
    labels = list(results)
    fig = go.Figure()
    for winner, name, color in (("english", _("English wins"), ENGLISH_COLOR), ("draw", _("Draw"), NEUTRAL_COLOR),
                                ("french", _("French wins"), FRENCH_COLOR)):
        ps = [float(results[lb].win[winner]) for lb in labels]
        cis = [results[lb].win_interval()[winner] for lb in labels]
        fig.add_trace(go.Bar(
            x=labels, y=ps, name=name, marker_color=color,
            error_y={"type": "data", "symmetric": False, "array": [hi - p for p, (_, hi) in zip(ps, cis)],
                     "arrayminus": [p - lo for p, (lo, _) in zip(ps, cis)], "visible": True},
            hovertemplate=f"%{{x}}<br>{name}: %{{y:.3f}}<extra></extra>"))
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 1])
    return _layout(fig, _("Win / draw / loss (95% interval when sampled)"), _("rule set"), lang=lang, results=results)


def rounds_figure(results: Results, lang: str | None = None) -> go.Figure:
    """Distribution of the number of rounds played from the position, one colour per label."""
    _ = translator(lang).gettext
    rounds = _("rounds")
    fig = go.Figure()
    for i, (lb, r) in enumerate(results.items()):
        dist = {n: float(p) for n, p in sorted(r.rounds.items())}
        fig.add_trace(go.Bar(x=list(dist), y=list(dist.values()), name=lb, marker_color=label_color(i), meta=lb,
                             hovertemplate=f"{lb}<br>%{{x}} {rounds}: %{{y:.3f}}<extra></extra>"))
    fig.update_layout(barmode="group", showlegend=len(results) > 1)
    # a tick each whole round: left to itself, plotly ticks a narrow range at half rounds (5.5), which no game plays
    fig.update_xaxes(dtick=1)
    return _layout(fig, _("Rounds played (the current round counted as 1)"), rounds, lang=lang, results=results)


def result_figures(results: Results, lang: str | None = None) -> dict[str, go.Figure]:
    """The four figures of a comparison, keyed by FIGURE_NAMES, their texts in ``lang`` (default: the current one)."""
    return dict(zip(FIGURE_NAMES, (score_figure(results, lang), difference_figure(results, lang),
                                   outcome_figure(results, lang), rounds_figure(results, lang))))


def sweep_figure(points: Sequence[SweepPoint], parameter: str, metric: str, lang: str | None = None) -> go.Figure:
    """``metric`` against the swept parameter's value, with its 95% interval; refused values are named."""
    good = [pt for pt in points if pt.metric is not None]
    ys = [pt.metric.value for pt in good]  # type: ignore[union-attr]
    has_ci = all(pt.metric.low is not None for pt in good)  # type: ignore[union-attr]
    error = ({"type": "data", "symmetric": False, "visible": True,
              "array": [pt.metric.high - y for pt, y in zip(good, ys)],  # type: ignore[union-attr,operator]
              "arrayminus": [y - pt.metric.low for pt, y in zip(good, ys)]}  # type: ignore[union-attr,operator]
             if has_ci else None)
    named = parameter_label(parameter, lang)  # "hand size", as the forms name it
    _ = translator(lang).gettext
    shown = Metric.label_of(SWEEP_METRICS.get(metric, metric), lang)  # the results table's name for it
    fig = go.Figure(go.Scatter(x=[choice_label(pt.value, lang) for pt in good], y=ys, mode="lines+markers", name=shown,
                               marker={"color": NEUTRAL_COLOR, "size": 9}, line={"color": NEUTRAL_COLOR},
                               error_y=error, hovertemplate=f"{named} = %{{x}}<br>{shown}: %{{y:.3f}}<extra></extra>"))
    refused = [choice_label(pt.value, lang) for pt in points if pt.metric is None]
    title = _("{metric} against {parameter}").format(metric=shown, parameter=named)
    if refused:
        title += "<br><sup>" + _("not playable: {parameter} = {values}").format(
            parameter=named, values=", ".join(refused)) + "</sup>"
    fig.update_xaxes(type="category")
    return _layout(fig, title, named, shown, lang=lang)


def warm_up() -> None:
    """Build a small figure of each kind and ask for each kind of interval once.

    The first figures of a process otherwise pay plotly's lazy imports and scipy.stats
    (the intervals) while the user waits: about 1 + 3 s on a loaded two-core machine,
    against 0.2 s for later ones.  The panels call this in the background once a page shows.
    """
    from ..analysis import mean_interval, wilson

    wilson(1, 2)
    mean_interval([0.0, 1.0])
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, subplot_titles=["a", "b"])
    fig.add_trace(go.Bar(x=[0], y=[1.0], error_y={"type": "data", "array": [0.1], "visible": True}), row=1, col=1)
    fig.add_trace(go.Scatter(x=["a"], y=[1.0], mode="lines+markers"), row=1, col=2)
    fig.update_yaxes(range=[0, 1])
    _layout(fig, "warm-up", "x").to_json()


# ---------------------------------------------------------------- metrics table
def _cell(value: float, low: float | None, high: float | None) -> str:
    return plain_estimate(value, None, None) if low == high else plain_estimate(value, low, high)


def metrics_rows(results: Results, lang: str | None = None) -> list[dict[str, str]]:
    """One row per designer metric: its name, a cell per label ("value [95% interval]") and its meaning, the
    name and meaning in ``lang`` (default: the current language; the keys stay ``metric`` and ``meaning``)."""
    rows: dict[str, dict[str, str]] = {}
    for lb, r in results.items():
        for m in result_metrics(r):
            row = rows.setdefault(m.name, {"metric": m.label(lang)})
            row[lb] = _cell(m.value, m.low, m.high)
            row.setdefault("meaning", m.meaning_in(lang))  # the metric's prose: the same for every run
    for row in rows.values():
        for lb in results:
            row.setdefault(lb, "-")
        row["meaning"] = row.pop("meaning")  # last column
    return list(rows.values())


def rows_html(rows: Sequence[Mapping[str, str]], heads: Mapping[str, Sequence[str]] | None = None) -> str:
    """A plain HTML table of rows sharing the first row's keys.  ``heads``: a column's heading in short, line by
    line, where its key would wrap to many lines in a narrow panel; the key is then the heading's tooltip."""
    if not rows:
        return ""
    keys = list(rows[0])
    _ = translator().gettext
    shown = {"metric": _("metric"), "meaning": _("meaning")}
    heads = heads or {}
    # a "meaning" (prose) goes under the first cell, so that the table fits a narrow panel; a value
    # and its interval stay on one line
    meaning = "meaning" in keys and len(keys) > 2
    columns = [k for k in keys if not (meaning and k == "meaning")]

    def heading(key: str) -> str:
        if key not in heads:
            return f"<th style='text-align:left;padding:2px 8px'>{escape(shown.get(key, key))}</th>"
        return (f"<th style='text-align:left;padding:2px 8px' title='{escape(key)}'>"
                + "<br>".join(escape(line) for line in heads[key]) + "</th>")

    head = "".join(heading(k) for k in columns)

    def first(row: Mapping[str, str]) -> str:
        text = escape(str(row.get(columns[0], "")))
        if meaning and row.get("meaning"):
            text += f"<div style='color:#666;font-size:90%'>{escape(str(row['meaning']))}</div>"
        # prose under the first cell needs room to read; a rule set's name alone does not (four levels fit)
        # at the top of its row, as the other cells are ("hand size 5, castles 5" stood a line below their values)
        return f"<td style='padding:2px 8px;vertical-align:top{';min-width:12em' if meaning else ''}'>{text}</td>"

    def cell(text: str) -> str:
        # the interval may go under its value, and a verdict after them ("0.51 [0.40, 0.62], indistinguishable from ½")
        # goes on the next line and may wrap there: four rule sets' or skill levels' columns fit a 1280 px panel
        value, comma, verdict = text.partition("], ")
        number, bracket, interval = (value + "]" if comma else text).partition(" [")
        shown = f"<span style='white-space:nowrap'>{escape(number)}</span>" + (
            f" <span style='white-space:nowrap'>[{escape(interval)}{',' if comma else ''}</span>" if bracket else "")
        if comma:
            shown += f"<br>{escape(verdict)}"
        return f"<td style='padding:2px 8px;vertical-align:top'>{shown}</td>"

    body = "".join("<tr>" + first(row) + "".join(cell(str(row.get(k, ''))) for k in columns[1:]) + "</tr>"
                   for row in rows)
    # wider than the panel all the same (many rule sets or levels): the table scrolls, it is not clipped
    return (f"<div style='overflow-x:auto;max-width:100%'><table class='guyenne-metrics'><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table></div>")


# ---------------------------------------------------------------- export
def slug(label: str) -> str:
    """A file-name-safe form of a label."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", label).strip("-") or "result"


#: How an HTML figure gets plotly.js (about 4.8 MB): "directory" writes ``plotly.min.js`` once beside
#: the pages (offline, keep the folder together), "inline" puts it inside every page (each page alone
#: works offline), "cdn" links to cdn.plot.ly (small pages that need the internet to show).
PLOTLYJS = ("directory", "inline", "cdn")


def export_figures(figures: Mapping[str, go.Figure], folder: str | Path,
                   formats: Iterable[str] = FORMATS, plotlyjs: str = "directory") -> list[Path]:
    """Write each figure as ``name.html`` and/or ``name.svg``/``name.png``; returns the files written.

    HTML pages share one ``plotly.min.js`` written beside them unless ``plotlyjs`` says otherwise
    (see PLOTLYJS): four pages weigh about 5 MB together, not 19 MB, and still work offline.
    Static images go through kaleido in one batch: each cold start launches a browser.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    formats = list(formats)
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"figure formats are {', '.join(FORMATS)}, not {', '.join(sorted(unknown))}")
    if plotlyjs not in PLOTLYJS:
        raise ValueError(f"plotlyjs is one of {', '.join(PLOTLYJS)}, not {plotlyjs!r}")
    written = []
    if "html" in formats:
        for name, fig in figures.items():
            path = folder / f"{slug(name)}.html"
            fig.write_html(path, include_plotlyjs=True if plotlyjs == "inline" else plotlyjs)
            written.append(path)
        if plotlyjs == "directory" and figures:
            written.append(folder / "plotly.min.js")  # written by plotly beside the pages
    static = [(fig, folder / f"{slug(name)}.{fmt}") for fmt in formats if fmt != "html"
              for name, fig in figures.items()]
    if static:
        _write_images([f for f, _ in static], [p for _, p in static])
        written += [p for _, p in static]
    return written


BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")


def static_export_missing() -> str | None:
    """Why SVG/PNG export of figures cannot run here (kaleido draws them in a headless Chrome), or None."""
    try:
        import kaleido  # noqa: F401
    except ImportError:
        return gettext("static figure export needs kaleido (pip install kaleido)")
    if not os.environ.get("BROWSER_PATH") and not any(shutil.which(b) for b in BROWSERS):
        return gettext("static figure export draws in a headless Chrome or Chromium and none was found "
                       "(apt-get install chromium, or set BROWSER_PATH); HTML export needs none")
    return None


def _write_images(figures: list[go.Figure], paths: list[Path]) -> None:
    """One kaleido browser for the whole batch (write_images alone still pays a start per figure).  A figure whose
    file the batch did not write is drawn once more, then named in a RuntimeError: on a loaded machine (clean-clone CI,
    2 cores) the batch once returned without writing ``outcomes.svg``, and the export listed a file that was not
    there."""
    missing = static_export_missing()
    if missing:
        raise RuntimeError(missing)
    import kaleido

    kaleido.start_sync_server(silence_warnings=True)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The kopts argument is ignored")
            pio.write_images(figures, paths)
            unwritten = [i for i, p in enumerate(paths) if not p.is_file() or not p.stat().st_size]
            if unwritten:
                pio.write_images([figures[i] for i in unwritten], [paths[i] for i in unwritten])
    finally:
        kaleido.stop_sync_server(silence_warnings=True)
    failed = [paths[i].name for i in unwritten if not paths[i].is_file() or not paths[i].stat().st_size]
    if failed:
        raise RuntimeError(gettext("the headless browser drew no picture for {files}: try the export again").format(
            files=", ".join(failed)))


def export_results(results: Results, folder: str | Path, formats: Iterable[str] = ("json", "csv")) -> list[Path]:
    """Write each result as ``label.json`` (RULES.md section 10) and/or ``label.csv`` (its tidy table)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for lb, r in results.items():
        for fmt in formats:
            path = folder / f"{slug(lb)}.{fmt}"
            if fmt == "json":
                path.write_text(json.dumps(r.to_json(), indent=2))
            elif fmt == "csv":
                rows = r.table()
                with path.open("w", newline="") as fh:
                    writer = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else [])
                    writer.writeheader()
                    writer.writerows(rows)
            else:
                raise ValueError(f"result formats are json and csv, not {fmt!r}")
            written.append(path)
    return written
