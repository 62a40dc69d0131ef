"""One self-contained HTML report of an analysis, to send to a co-designer.

A single file that opens offline in any browser: what was analysed (the
position's diagram as inline SVG, its notation, the decision point), how (exact
or sampled, games, seed, policies), the rules of each compared rule set and how
they differ from their preset, every figure (plotly.js embedded once, not once
per figure) and the designer metrics with their intervals.  Everything is read
from the results and drawn by the render layer's own figures and tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from ..analysis.studies.variants import choice_label, parameter_label
from ..i18n import current_language, plain_count, point_name, set_language, translator
from ..engine import PRESETS, Rules
from .plots import metrics_rows, policies_text, result_figures, rows_html
from .svg import position_svg

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis import AnalysisResult
    from ..engine import Position

STYLE = """body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}
.diagram svg{max-width:100%;height:auto}code{background:#f4f4f4;padding:1px 3px}"""


def _value(value: Any, lang: str) -> str:
    """A rules parameter's value as a reader reads it (yes or no, sides by name, players per side as ``English: 1``)."""
    if isinstance(value, bool):
        tr = translator(lang)
        return tr.gettext("yes") if value else tr.gettext("no")
    if isinstance(value, Mapping):
        return ", ".join(f"{choice_label(k, lang)}: {v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(choice_label(v, lang) for v in value)
    return choice_label(value, lang)


def card_counts_text(counts: Mapping[str, int]) -> str:
    """Card counts as a person types them in the rules editor (``2:12 3:4 4:3 5:2``): the editor's box, the
    variant's line and the report write them alike, so what the box shows reads as what runs."""
    return " ".join(f"{v}:{n}" for v, n in sorted(counts.items()))


def _parameter_value(key: str, value: Any, lang: str) -> str:
    """A parameter's value as :func:`rules_rows` shows it: the card counts as typed, any other by :func:`_value`."""
    return card_counts_text(value) if key == "card_counts" and isinstance(value, Mapping) else _value(value, lang)


def rules_rows(rules: Rules, lang: str) -> list[tuple[str, str, str]]:
    """Every parameter of ``rules``: its name, its value, and the preset's value where it differs ("" if not)."""
    _ = translator(lang).gettext
    mine = rules.describe()
    base = PRESETS[rules.preset_name].describe()
    rows = [(_("preset"), rules.preset_name, "")]
    for key, value in mine.items():
        if key == "preset":
            continue
        differs = value != base.get(key)
        rows.append((parameter_label(key, lang), _parameter_value(key, value, lang),
                     _parameter_value(key, base.get(key), lang) if differs else ""))
    return rows


def differences_words(rules: Rules, lang: str) -> str:
    """Each parameter of ``rules`` that differs from its preset, as a reader reads it ("hand size 7 (preset: 6)"),
    joined by semicolons (a card count's value holds commas); "" for the preset itself.  The report and the
    variant lab's line say a variant alike."""
    _ = translator(lang).gettext
    return "; ".join(_("{name} {value} (preset: {preset})").format(name=n, value=v, preset=b)
                     for n, v, b in rules_rows(rules, lang) if b)


def rules_words(rules: Rules, lang: str | None = None) -> str:
    """A rule set's name in words, as a figure's label or a headline says it: its preset and each parameter changed
    ("advanced, hand size 7"), never the rules' key ("advanced(hand_size=7)"); the preset's name alone for a preset."""
    lang = lang or current_language()
    changed = "; ".join(f"{n} {v}" for n, v, b in rules_rows(rules, lang) if b)
    return f"{rules.preset_name}, {changed}" if changed else rules.preset_name


def _rules_html(label: str, rules: Rules, lang: str) -> str:
    _ = translator(lang).gettext
    rows = rules_rows(rules, lang)
    changed = differences_words(rules, lang)
    summary = (_("No difference from the preset {preset}.") if not changed else
               _("Differences from the preset {preset}: {changes}.")).format(preset=rules.preset_name, changes=changed)
    body = "".join(f"<tr><td>{escape(n)}</td><td>{'<b>' if b else ''}{escape(v)}{'</b>' if b else ''}</td>"
                   f"<td>{escape(b)}</td></tr>" for n, v, b in rows)
    titles = (_("parameter"), _("value"), _("preset value"))  # translated outside the f-string, where they are extracted
    head = "<tr>" + "".join(f"<th>{escape(t)}</th>" for t in titles) + "</tr>"
    return (f"<h3>{escape(label)}</h3><p>{escape(summary)}</p>"
            f"<table class='rules'><thead>{head}</thead><tbody>{body}</tbody></table>")


def _how_html(results: Mapping[str, AnalysisResult], seed: int | None, lang: str) -> str:
    """Per rule set: exact or sampled (games and seed), and the policies that played."""
    _ = translator(lang).gettext
    items = []
    for label, r in results.items():
        if r.exact:
            how = _("exact enumeration of every game ({arithmetic})").format(
                arithmetic=_("fractions") if r.arithmetic == "fraction" else _("floats"))
        else:
            how = translator(lang).ngettext("{count} sampled game", "{count} sampled games", r.games).format(
                count=plain_count(r.games, lang))
            if seed is not None:
                how = _("{how}, seed {seed}").format(how=how, seed=seed)
        items.append("<li>" + _("{label}: {how}; {policies}").format(
            label=f"<b>{escape(label)}</b>", how=escape(how), policies=escape(policies_text(r.policies, lang))) + "</li>")
    return "<ul>" + "".join(items) + "</ul>"


def _metrics_html(results: Mapping[str, AnalysisResult], lang: str) -> str:
    """The metrics table of the panel, its headings in ``lang`` too (the table's writer reads the current language)."""
    previous = set_language(lang)
    try:
        return rows_html(metrics_rows(results, lang))
    finally:
        set_language(previous)


def analysis_report(position: Position, results: Mapping[str, AnalysisResult], *, seed: int | None = None,
                    lang: str | None = None) -> str:
    """The report of ``results`` (label -> result, the analysis of ``position`` under each rule set) as one HTML
    page in ``lang`` (default: the current language); ``seed`` is the seed sampled games were drawn with."""
    import plotly.io as pio
    from plotly.offline import get_plotlyjs

    lang = lang or current_language()
    _ = translator(lang).gettext
    if not results:
        raise ValueError(_("a report needs the results of an analysis: run one first"))
    p = position
    where = _("{rules}, round {round}, {point}").format(rules=p.rules, round=p.round, point=point_name(p.to_play, lang))
    # each text translated outside the f-strings, where the catalogue's extraction finds it
    heading, analysed, notation = _("Guyenne analysis report"), _("Position analysed"), _("Notation:")
    how, rules_title, metrics, figures = (_("How it was analysed"), _("Rules"), _("Designer metrics (95% interval when sampled)"),
                                    _("Figures"))
    parts = [f"<h1>{escape(heading)}</h1>",
             f"<h2>{escape(analysed)}</h2>",
             f"<p>{escape(where)}</p><p>{escape(notation)} <code>{escape(p.notation())}</code></p>",
             f"<div class='diagram'>{position_svg(p, lang=lang)}</div>",
             f"<h2>{escape(how)}</h2>", _how_html(results, seed, lang),
             f"<h2>{escape(rules_title)}</h2>",
             *(_rules_html(label, r.position.rules, lang) for label, r in results.items()),
             f"<h2>{escape(metrics)}</h2>",
             _metrics_html(results, lang),
             f"<h2>{escape(figures)}</h2>"]
    for fig in result_figures(results, lang).values():
        parts.append(pio.to_html(fig, full_html=False, include_plotlyjs=False))
    title = escape(_("Guyenne analysis report"))
    return (f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{STYLE}</style><script>{get_plotlyjs()}</script></head><body>"
            + "\n".join(parts) + "</body></html>")
