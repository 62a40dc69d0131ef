"""One self-contained HTML page that reports a balance search, to send to a co-designer.

The page answers the designer's question in the order it was asked: what was asked (the rule set started from,
what was varied, the targets, the level of play, the games, the seed), what answered it (the best setting and the
alternatives, the fewest changes from the preset first, each target's metric with its 95% interval), what one
target costs in another (the trade-off figure, plotly.js embedded as in the analysis report), the skill depth when
it was measured, and the command that plays the same search again.  It opens offline in any browser: the styles
are inline and nothing on the page names a file of the machine that made it (the search's store stays out of the
command).  Everything is read from the kept result and drawn by :mod:`.balance`'s own tables and figure.
"""

from __future__ import annotations

import json
import shlex
from html import escape

from ..analysis import level_name
from ..analysis.studies.balance import TARGET_METRICS, TARGET_WORDS, SearchResult, Target
from ..analysis.studies.depth import Depth
from ..analysis.studies.variants import parameter_label
from ..i18n import current_language, plain_count, plain_number, translator
from .balance import candidate_rows, depth_rows, short_name, table_heading, target_label, tradeoff_figure
from .plots import _cell, rows_html
from .report import STYLE

#: the metric set against a lone target in the trade-off figure (a figure needs two axes)
SECOND_AXIS = ("rounds", "advantage")


def reproduce_command(result: SearchResult) -> str:
    """The ``guyenne-explore balance`` command that plays the same search again (same rules, parameters, targets,
    level of play, games, trials and seed: the same candidates and figures), each argument quoted for a shell."""
    rules = result.space.preset.to_json()
    args = ["guyenne-explore", "balance", "--rules", rules if isinstance(rules, str) else json.dumps(rules)]
    for v in result.space.varied:
        args += ["--vary", str(v)]
    for t in result.targets:
        args += ["--target", str(t)]
    if result.policies is not None:
        english, french = result.policies
        args += ["--policies", english if english == french else f"{english},{french}"]
    if result.ladder:
        args += ["--levels", ",".join(result.ladder)]
    args += ["--games", str(result.games)]
    if result.trials is not None:
        args += ["--trials", str(result.trials)]
    args += ["--seed", str(result.seed)]
    return " ".join(shlex.quote(a) for a in args)


def axes(result: SearchResult) -> tuple[str, str]:
    """The trade-off figure's axes: the first two targets, or the lone target against the length of a game (against
    the advantage when the target is the length)."""
    names = [short_name(t) for t in result.targets]
    if len(names) >= 2:
        return names[0], names[1]
    other = next(a for a in SECOND_AXIS if TARGET_METRICS[a] != result.targets[0].metric)
    return names[0], other


def _question_html(result: SearchResult, lang: str) -> str:
    """What was asked: the rule set, each varied parameter, each target with its meaning, the play, games, seed."""
    tr = translator(lang)
    _ = tr.gettext
    items = [(_("rule set started from"), str(result.space.preset)),
             (_("varied"), "; ".join(_("{name}: {values}").format(
                 name=parameter_label(v.parameter, lang), values=str(v).partition("=")[2]) for v in result.space.varied)
              + " " + tr.ngettext("({count} candidate)", "({count} candidates)", result.space.size).format(
                 count=plain_count(result.space.size, lang))),
             (_("targets"), "; ".join(_wanted(t, lang) for t in result.targets))]
    if result.policies is not None:
        english, french = (level_name(p, lang) for p in result.policies)
        items.append((_("level of play"), english if english == french else _("English {english}, French {french}")
                      .format(english=english, french=french)))
    if result.ladder:
        items.append((_("depth ladder"), ", ".join(level_name(level, lang) for level in result.ladder)))
    items += [(_("games a candidate"), plain_count(result.games, lang)), (_("seed"), str(result.seed)),
              (_("search"), _("optuna's {sampler}, {count} candidates tried, racing on the same deals").format(
                  sampler=result.sampler, count=len(result.candidates)))]
    if result.trials is not None:
        items.append((_("trials asked"), str(result.trials)))
    body = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in items)
    return f"<table class='question'>{body}</table>"


def _wanted(target: Target, lang: str) -> str:
    """``Drawishness at most 0.05 (the draw rate)``: a target's metric, its range and what it means."""
    _ = translator(lang).gettext
    if target.low is None:
        words = _("{name} at most {high} ({meaning})")
    elif target.high is None:
        words = _("{name} at least {low} ({meaning})")
    else:
        words = _("{name} from {low} to {high} ({meaning})")
    return words.format(name=target_label(short_name(target), lang),
                        low=plain_number(target.low, None, lang) if target.low is not None else "",
                        high=plain_number(target.high, None, lang) if target.high is not None else "",
                        meaning=_(TARGET_WORDS[short_name(target)]))


def _depth_html(depth: Depth, lang: str) -> str:
    """The ladder's chain with its interval, the weaker level's wins and the luck share, and each pair."""
    _ = translator(lang).gettext
    chain = depth.chain_text(lang)
    pooled = _("the weaker level wins {wins} of the games; luck share {luck}").format(
        wins=_cell(depth.weaker_wins.value, depth.weaker_wins.low, depth.weaker_wins.high),
        luck=_cell(depth.luck.value, depth.luck.low, depth.luck.high))
    return (f"<p><b>{escape(depth.rules)}</b>: {escape(chain)}</p><p>{escape(pooled)}</p>"
            + rows_html(depth_rows(depth, lang)))


def balance_report(result: SearchResult, *, depth: Depth | None = None, x: str | None = None, y: str | None = None,
                   alternatives: int = 8, lang: str | None = None) -> str:
    """The report of a balance search as one HTML page in ``lang`` (default: the current language): the question,
    the best setting and up to ``alternatives`` others with their intervals, the trade-off of targets ``x`` and
    ``y`` (default: :func:`axes`), the skill ``depth`` when it was measured, and the command that reproduces it."""
    import plotly.io as pio
    from plotly.offline import get_plotlyjs

    lang = lang or current_language()
    _ = translator(lang).gettext
    default_x, default_y = axes(result)
    figure = tradeoff_figure(result, x or default_x, y or default_y, lang)
    rows = candidate_rows(result, alternatives, lang)
    head = table_heading(result, lang)
    # each text translated outside the f-strings, where the catalogue's extraction finds it
    title = _("Guyenne balance report")
    question, tradeoff = _("The question"), _("The trade-off between the targets")
    none_played = _("no candidate could be played: the rules refused every one")
    parts = [f"<h1>{escape(title)}</h1>",
             f"<h2 id='question'>{escape(question)}</h2>", _question_html(result, lang),
             f"<h2 id='answer'>{escape(head)}</h2>",
             rows_html(rows) if rows else f"<p>{escape(none_played)}</p>",
             f"<h2 id='tradeoff'>{escape(tradeoff)}</h2>",
             pio.to_html(figure, full_html=False, include_plotlyjs=False, config={"displaylogo": False})]
    if depth is not None:
        skill = _("Skill depth")
        parts += [f"<h2 id='depth'>{escape(skill)}</h2>", _depth_html(depth, lang)]
    again = _("The same command gives the same candidates and figures; add --store FILE to keep the trials and "
              "continue the search later.")
    reproduce = _("The command that reproduces it")
    parts += [f"<h2 id='reproduce'>{escape(reproduce)}</h2>",
              f"<pre><code>{escape(reproduce_command(result))}</code></pre>", f"<p>{escape(again)}</p>"]
    return (f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{STYLE}\n.question th{{font-weight:normal;color:#555}}pre{{white-space:pre-wrap}}</style>"
            f"<script>{get_plotlyjs()}</script></head><body>" + "\n".join(parts) + "</body></html>")
