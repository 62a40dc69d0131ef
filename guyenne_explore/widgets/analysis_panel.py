"""Analysis panel: outcome distributions of the current position under one or several rule sets.

The run happens in a background thread so that the Cancel button (and the page)
stays responsive in Jupyter and Voilà; ``run(block=True)`` does the same work
in the caller's thread for tests and scripts.  Figures go to the page as plotly
JSON in the panel's :class:`~.plot_view.FigureBox` (plotly.js travels once per
page); the status says "Done" once the browser has drawn them.
"""

from __future__ import annotations

from html import escape
from collections.abc import Callable
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from ..analysis import POLICIES, AnalysisResult, Cancelled, PolicySpec, TooLong, to_saved
from ..analysis.planning import engine_first_games, surely_sampled
from ..analysis.sampling.warm import compiling_note, compiling_seconds
from ..analysis.studies.variants import Run, analyse_rule_sets, sampling_cost
from ..analysis.workers import local_cores
from ..i18n import gettext, ngettext, plain_count, plain_duration
from ..engine import Position
from ..render.plots import (
    metrics_rows,
    policies_text,
    result_figures,
    rows_html,
)
from ..render.headline import analysis_headline
from ..render.report import analysis_report, rules_words
from ..engine import PRESETS, Rules
from .exports import ExportBar
from .forms import NumberField, messages_html, unreadable
from .guard import guarded, log
from .optimal_panel import OptimalPanel
from .plot_view import FigureBox
from .run_controls import (RunControls, cancelled_words, engine_answers_first, engine_first_note, run_anyway_box,
                           too_long_words)
from .starts import Start, Subject
from .state import AnalysisSettings, ExplorerState

METHODS = ("auto", "exact", "sample")
OPTIMAL = "optimal play"


def align_labels(*fields: w.Widget, width: str = "112px") -> None:
    """Give the fields of one column the same label width, so that their boxes line up (a longer label,
    in French say, still takes its text's width: static/explorer.css)."""
    for field in fields:
        (field.box if isinstance(field, NumberField) else field).style.description_width = width


def rule_set_options(position: Position) -> list[tuple[str, Rules]]:
    """The position's own rules first, then every preset that differs from them; each named in words ("advanced,
    hand size 7"), as the figures and the headline then name it."""
    own = position.rules
    return [(rules_words(own), own)] + [(name, rules) for name, rules in PRESETS.items() if rules != own]


def problems_html(runs: list[Run]) -> str:
    """The engine's reasons, in words, for each rule set that could not be analysed."""
    return "".join("<div>" + gettext("{label} was skipped: {reasons}").format(
        label=f"<b>{escape(r.label)}</b>", reasons=escape("; ".join(map(str, r.problems)))) + "</div>"
        for r in runs if not r.ok)


def force_exact_html(runs: list[Run]) -> str:
    """Beside the "force exact" box: each exact request refused for its size, with the engine's estimate."""
    refused = [r for r in runs if r.out_of_reach]
    if not refused:
        return ""
    return messages_html([f"{r.label}: {'; '.join(map(str, r.problems))}" for r in refused]) + (
        "<div>" + gettext("Tick {force} and run again to enumerate it anyway (Cancel stops it).").format(
            force="<b>" + gettext("force exact") + "</b>") + "</div>")


class AnalysisPanel(w.VBox):
    """Runs the analysis of a position under chosen rule sets and shows its figures side by side."""

    #: what a saved session keeps of the last run, each read back as this type (see .session): the rule sets' runs,
    #: the position analysed and the seed of its games (None: exact)
    SAVED = {"runs": list[Run], "analysed": Position, "seed": int | None}

    def __init__(self, position: Position | None = None, state: ExplorerState | None = None, **kwargs: Any) -> None:
        """``state``: the explorer's, whose :attr:`~.state.ExplorerState.analysis` the fields show and write (a panel
        of its own has a state of its own)."""
        asked, bounds = AnalysisSettings(), AnalysisSettings.BOUNDS
        self.rule_sets = w.SelectMultiple(description="Rule sets", rows=6, layout=w.Layout(width="320px"))
        self.english_policy = w.Dropdown(options=list(POLICIES), value=asked.english_policy, description="English")
        self.french_policy = w.Dropdown(options=list(POLICIES), value=asked.french_policy, description="French")
        # the search's budget, in rollouts a decision (it applies to whichever side searches)
        self.search_budget = NumberField("Search rollouts", asked.search_budget, *bounds["search_budget"])
        # "optimal play": the equilibrium of an open-hand endgame, shown by the optimal-play section below
        self.method = w.Dropdown(options=METHODS + (OPTIMAL,), value=asked.method, description="Method")
        self.force_exact = w.Checkbox(value=asked.force_exact, description="force exact (no size limit)", indent=False,
                                      tooltip="enumerate even when the estimate says it would take very long",
                                      layout=w.Layout(display="none"))
        # sampled games said to take longer than the limit a run may take unconfirmed (limits.RUN_SECONDS) run only
        # when this is ticked
        self.run_anyway = run_anyway_box()
        self.force_note = w.HTML()
        # text boxes read in Python: letters typed stay and are named beside the box (see forms.NumberField)
        self.games = NumberField("Games", asked.games, *bounds["games"])
        self.seed = NumberField("Seed", asked.seed, *bounds["seed"])
        self.method.observe(guarded(self.force_note)(lambda ch: self._show_method_fields()), names="value")
        for policy in (self.english_policy, self.french_policy):  # the budget shows where a side searches
            policy.observe(guarded(self.force_note)(lambda ch: self._show_search_budget()), names="value")
        self._show_search_budget()
        # what sampled games will cost, said before Run where the analysis surely samples
        self.cost = w.HTML()
        for box in (self.english_policy, self.french_policy, self.method, self.rule_sets, self.games.box,
                    self.search_budget.box):
            box.observe(guarded(self.cost)(lambda _: self._show_cost()), names="value")
        self.run_button = w.Button(description="Run analysis", button_style="primary", icon="play")
        self.controls = RunControls()
        self.problems = w.HTML()
        self.figure_box = FigureBox()
        self.metrics = w.HTML()
        self.headline = headline_box()  # the answer in one line, above the figures
        self.exports = ExportBar(self, report=self.report_html)
        self._reported: tuple[Position, int | None] | None = None  # the last results' position and seed (the report's)
        self.optimal = OptimalPanel()
        self.subject = Subject(self.headline, self.figure_box, self.metrics)  # the position; the figures' while stale
        # the position, start, fields' reading and its value of the run under way (the Subject's, once it is done)
        self._analysing: tuple[Position, Start | None, Callable[[], object] | None, object] | None = None
        self.runs: list[Run] = []
        self.results: dict[str, AnalysisResult] = {}
        self.figures: dict[str, go.Figure] = {}
        self.run_button.on_click(guarded(self.controls.status)(lambda _: self.run(block=False)))
        settings = w.VBox([self.english_policy, self.french_policy, self.search_budget, self.method,
                           self.force_exact, self.force_note, self.games, self.seed, self.run_anyway])
        settings.add_class("guyenne-analysis-settings")  # keeps its place beside the rule sets (explorer.css)
        align_labels(self.english_policy, self.french_policy, self.search_budget, self.method, self.games, self.seed)
        super().__init__([
            self.subject.line, w.HBox([self.rule_sets, settings]),
            self.cost, self.controls.box(self.run_button),
            self.controls.status, self.problems, self.subject.stale_note, self.headline, self.figure_box, self.metrics,
            self.exports, self.optimal,
        ], **kwargs)
        self.position: Position | None = None
        self._own_rules: Rules | None = None
        self._summary_shown = ""  # the status line after the last run (a language switch writes it again)
        self.set_position(position)
        # what is asked, one value in the state: written from the fields, shown in them when set elsewhere
        self.state = state if state is not None else ExplorerState(position)
        self._showing = False  # while settings set elsewhere are shown, field by field
        for field in (self.rule_sets, self.english_policy, self.french_policy, self.method, self.force_exact,
                      self.search_budget.box, self.games.box, self.seed.box):
            field.observe(guarded(self.controls.status)(lambda _: self._ask()), names="value")
        self.state.observe(guarded(self.controls.status)(lambda change: self.show_settings(change["new"])),
                           names="analysis")
        self._ask()

    def settings(self) -> AnalysisSettings:
        """What the fields ask now (a box that cannot be read counts as the last number it held)."""
        return AnalysisSettings(tuple(self.rule_sets.value), self.english_policy.value, self.french_policy.value,
                                self.search_budget.value, self.method.value, self.games.value, self.seed.value,
                                self.force_exact.value)

    def _ask(self) -> None:
        """A field changed: the state holds what the fields ask (once the settings set elsewhere are all shown)."""
        self._offer_run()
        if not self._showing:
            self.state.analysis = self.settings()
            self.subject.draw()  # figures of other settings are dimmed under a note

    def _offer_run(self, running: bool | None = None) -> None:
        """Grey "Run analysis" while it could not start: no valid position, a run going on, or a box the run reads
        that holds no usable number (each box names its problem beside it, outlined in red).  ``running``: whether
        a run goes on, when the caller knows better than the controls (a run's end, said from its own thread)."""
        fields = () if self.method.value == OPTIMAL else self._run_numbers()
        running = self.controls.running if running is None else running
        self.run_button.disabled = self.position is None or running or bool(unreadable(*fields))

    def _run_numbers(self) -> tuple[NumberField, ...]:
        """The number boxes a sampled or exact run reads (the optimal-play section reads its own)."""
        return self.games, self.seed, self.search_budget

    def show_settings(self, asked: AnalysisSettings) -> None:
        """Show settings set elsewhere (a session opened): each field set, a rule set this position does not offer
        left out (the position's own rules when none is left); the state then holds what the fields show.  The
        panel's own writes come back here unchanged: nothing is set again (a box's typed letters stay)."""
        if asked == self.settings():
            return
        self._showing = True
        try:
            offered = [rules for _label, rules in self.rule_sets.options]
            own = (self._own_rules,) if self._own_rules is not None else ()
            self.rule_sets.value = tuple(r for r in asked.rule_sets if r in offered) or own
            self.english_policy.value, self.french_policy.value = asked.english_policy, asked.french_policy
            self.method.value = asked.method
            self.force_exact.value = asked.force_exact
            for box, number in ((self.search_budget, asked.search_budget), (self.games, asked.games),
                                (self.seed, asked.seed)):
                if box.value != number:  # a box whose number stays keeps what is typed in it
                    box.value = number
        finally:
            self._showing = False
        self._ask()

    def set_position(self, position: Position | None, start: Start | None = None) -> None:
        """Called by the explorer whenever the built position changes (None when invalid); ``start``: the start
        the builder last loaded (a dealt opening is named with its seed while it is shown)."""
        self.position = position
        self.subject.set_position(position, start)
        self.optimal.set_position(position)
        if position is None:
            self.run_button.disabled = True
            self.controls.status.value = gettext("The built position is not valid: fix its problems to analyse it.")
            return
        # rule sets added for comparison stay chosen; the previous position's own rules do not
        chosen = [r for r in self.rule_sets.value if r != self._own_rules]
        self._own_rules = position.rules
        self.rule_sets.options = rule_set_options(position)
        values = [v for _, v in self.rule_sets.options]
        kept = tuple(r for r in chosen if r in values[1:])
        self.rule_sets.value = (position.rules, *kept)
        self._offer_run()
        self.controls.status.value = ""
        self._show_cost()

    def refresh_costs(self) -> None:
        """The cost line written again (once the fast simulator is compiled: :func:`.run_controls.when_compiled`)."""
        self._show_cost()

    def _show_cost(self) -> None:
        """What Run analysis will sample and its rough time here (the games the engine plays spread over the
        cores), where the plan surely samples (:func:`..analysis.planning.surely_sampled`: Method "sample", or a
        search on a side); nothing where it may enumerate, under optimal play, or while a field cannot be read."""
        if self.position is None or self.method.value == OPTIMAL or unreadable(self.games, self.search_budget):
            self.cost.value = ""
            return
        if self._engine_first():
            self.cost.value = escape(gettext(
                "The fast simulator is not compiled yet ({duration}, once, in the background): Run analysis answers at "
                "once from the engine with {games} games a rule set, then the compiled games refine it.").format(
                duration=plain_duration(compiling_seconds()),
                games=plain_count(engine_first_games(self.position, self.policies, self.games.value))))
            return
        if not surely_sampled(self.position, self.policies, self.method.value):
            self.cost.value = ""
            return
        policies = self.policies
        chosen = list(self.rule_sets.value) or [self.position.rules]
        seconds = sampling_cost(self.position, chosen, policies, self.games.value, local_cores())
        total = self.games.value * len(chosen)
        self.cost.value = escape(" ".join(filter(None, (ngettext(
            "Run analysis samples {games} game: {duration} here.",
            "Run analysis samples {games} games: {duration} here.", total).format(
            games=plain_count(total), duration=plain_duration(seconds)), compiling_note()))))

    def refresh(self) -> None:
        """After a language switch: the last run's figures, metrics, notes and summary line, and the optimal-play
        section, in the new language (drawn again from the kept results: nothing is played again)."""
        self.optimal.refresh()
        self.exports.refresh()  # the line under the download buttons
        self.controls.redraw()
        self._show_cost()
        self.subject.draw()
        if self.controls.running:
            return
        if self.position is None:
            self.controls.status.value = gettext("The built position is not valid: fix its problems to analyse it.")
        if not self.runs:
            return
        for run in self.runs:  # a rule set refused for the position: its reasons in the new language
            run.reword()
        self.problems.value = problems_html([r for r in self.runs if not r.out_of_reach])
        self.force_note.value = force_exact_html(self.runs)
        self.figures = result_figures(self.results) if self.results else {}
        self.headline.value = headline_html(analysis_headline(self.results))
        self.metrics.value = ("<h4>" + gettext("Designer metrics (95% interval when sampled)") + "</h4>"
                              + rows_html(metrics_rows(self.results)) + _reasons_html(self.results)
                              ) if self.results else ""
        if self.figures:
            self.figure_box.show(self.figures)
        if self.controls.status.value == self._summary_shown:
            self.controls.status.value = self._summary_shown = escape(_summary(self.results, self.runs))

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps here: none (the session's analysis settings hold them, as since version 1)."""
        return {}

    def saved_results(self) -> dict[str, Any]:
        """The last run as session data (:data:`SAVED`); nothing before a run."""
        if self._reported is None or not self.runs:
            return {}
        return {"runs": to_saved(self.runs), "analysed": to_saved(self._reported[0]), "seed": self._reported[1]}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The last run as a session kept it (checked: :data:`SAVED`), its figures, metrics and headline drawn again
        from the results (nothing is played again)."""
        if "runs" not in saved or "analysed" not in saved:
            return
        self._analysing, self._run_seed = (saved["analysed"], None, self._settings, None), saved.get("seed")
        self._finish(saved["runs"], "")

    def report_html(self) -> str:
        """The one-file HTML report of the last results (see :mod:`guyenne_explore.render.report`)."""
        if self._reported is None or not self.results:
            raise ValueError(gettext("nothing to export yet: run an analysis first"))
        return analysis_report(self._reported[0], self.results, seed=self._reported[1])

    def _show_method_fields(self) -> None:
        """Force exact shows only for exact; games, seed and "run anyway" only where games are sampled."""
        exact = self.method.value == "exact"
        self.force_exact.layout.display = None if exact else "none"
        for field in (self.games, self.seed, self.run_anyway):
            field.layout.display = "none" if exact else None

    def _show_search_budget(self) -> None:
        """The search's budget only where a side searches (it applies to no other policy)."""
        searches = "search" in (self.english_policy.value, self.french_policy.value)
        self.search_budget.layout.display = None if searches else "none"

    @property
    def policies(self) -> tuple[str, str]:
        """Each side's policy by name, the search with its budget (``search:400``)."""
        search = str(PolicySpec("search", rollouts=int(self.search_budget.value)))
        return tuple(search if v == "search" else v  # type: ignore[return-value]
                     for v in (self.english_policy.value, self.french_policy.value))

    def run(self, block: bool = True) -> None:
        """Analyse the position under each chosen rule set; block=False runs in a background thread."""
        if self.position is None or self.controls.running:
            return
        if self.method.value == OPTIMAL:  # the optimal-play section below solves and shows the result
            why = self.optimal.why_not()
            self.controls.status.value = messages_html([why]) if why is not None else escape(gettext(
                "Optimal play: the solve, its progress and its result are in the optimal-play section below."))
            self.optimal.run(block)
            return
        problems = unreadable(*self._run_numbers())
        if problems:  # each also stands beside its box
            self.controls.reset()
            self.controls.status.value = messages_html([gettext("Not run: {problems}").format(problems="; ".join(problems))])
            return
        chosen = list(self.rule_sets.value) or [self.position.rules]
        labels = {v: lb for lb, v in self.rule_sets.options}
        p, policies, method, games, seed = self.position, self.policies, self.method.value, self.games.value, self.seed.value
        force = self.force_exact.value if method == "exact" else self.run_anyway.value
        engine_first = self._engine_first()
        asked, settings = games, self._settings()
        if engine_first:
            games = engine_first_games(p, policies, games)
        self._analysing = (p, self.subject.start, self._settings, settings)
        self._run_seed = None if method == "exact" else seed
        self.run_button.disabled = True
        self.exports.enable(False)
        # the last run's refusals and skipped rule sets would read as this run's (and push the controls about)
        self.problems.value = self.force_note.value = ""
        message = ngettext("Analysing {count} rule set...", "Analysing {count} rule sets...", len(chosen)).format(
            count=len(chosen))
        if method == "exact" and not force:  # the size estimate takes about a second a rule set before anything runs
            message = gettext("Estimating the size of the exact enumeration... {message}").format(message=message)
        self.controls.start(message + " " + policies_text(policies), compile_first=not engine_first)

        def work() -> None:
            try:
                runs = analyse_rule_sets(p, chosen, labels=[labels[r] for r in chosen], policies=policies,
                                         method=method, games=games, seed=seed, progress=self.controls.callback,
                                         force=force, cores=1 if engine_first else local_cores(), fast=not engine_first)
            except Cancelled:
                self._finish(None, cancelled_words(bool(self.figures)))
            except TooLong as exc:  # all rule sets' games together: said, and "run anyway" offered
                self._finish(None, too_long_words(exc))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("analysis run failed")
                self._finish(None, gettext("The analysis failed: {error}").format(error=exc))
            else:
                self._finish(runs, engine_first_note(games, asked) if engine_first else "")
                if engine_first:
                    self.controls.refine_when_compiled(lambda: self.run(block=False), self._settings, settings)

        self.controls.launch(work, block)

    def _engine_first(self) -> bool:
        """Whether Run analysis is answered by the engine now (:func:`engine_answers_first`)."""
        return engine_answers_first(self.policies, self.method.value)

    def _settings(self) -> tuple:
        """What a run depends on: a refining run is played only while they are those of the first answer."""
        return (self.position, self.policies, self.method.value, self.games.value, self.seed.value,
                self.rule_sets.value)

    def _finish(self, runs: list[Run] | None, message: str) -> None:
        self.controls.finish(runs is not None)
        self._offer_run(running=False)  # said from the run's own thread, still alive
        self._show_cost()  # a compiling it announced (or the engine's first answer) may be over now
        if runs is not None and not any(r.result is not None for r in runs):
            self.controls.reset()  # every rule set refused (exact out of reach...): no game was played
        if runs is not None:
            self.runs = runs
            if self._analysing is not None:
                self.subject.ran(*self._analysing)
                self._reported = (self._analysing[0], self._run_seed)
            self.results = {r.label: r.result for r in runs if r.result is not None}
            self.problems.value = problems_html([r for r in runs if not r.out_of_reach])  # those: beside "force"
            self.force_note.value = force_exact_html(runs)
            self.figures = result_figures(self.results) if self.results else {}
            self.headline.value = headline_html(analysis_headline(self.results))
            self.metrics.value = ("<h4>" + gettext("Designer metrics (95% interval when sampled)") + "</h4>"
                                  + rows_html(metrics_rows(self.results)) + _reasons_html(self.results)
                                  ) if self.results else ""
            message = " ".join(part for part in (_summary(self.results, runs), message) if part)
        self.exports.enable(bool(self.results))
        if runs is None:
            self.controls.status.value = escape(message)
            return
        self.controls.status.value = gettext("Drawing the figures...")
        self._summary_shown = escape(message)
        self.figure_box.show(self.figures, then=lambda: setattr(self.controls.status, "value", escape(message)))


def headline_box() -> w.HTML:
    """Where a panel's answer goes, in one line above its figures (the class: for pages and tests to find it)."""
    box = w.HTML()
    box.add_class("guyenne-headline")
    return box


def headline_html(line: str) -> str:
    """A result's headline (render/headline.py's sentence), bold; nothing while there is none."""
    return f"<div style='font-size:115%;margin:6px 0'><b>{escape(line)}</b></div>" if line else ""


def _summary(results: dict[str, AnalysisResult], runs: list[Run]) -> str:
    """The status line after a run; when nothing ran because exact was refused for its size, the way round it."""
    if not results:
        too_large = sum(r.out_of_reach for r in runs)
        if not too_large:
            return gettext("No rule set could be analysed from this position (the reasons are below).")
        others = len(runs) - too_large
        text = ngettext("No rule set could be analysed: the exact enumeration is too large (its estimate is beside "
                        "'force exact' above). To enumerate anyway, check 'force exact' and run again; or choose the "
                        "sample method.",
                        "No rule set could be analysed: {count} exact enumerations are too large (their estimates are "
                        "beside 'force exact' above). To enumerate anyway, check 'force exact' and run again; or "
                        "choose the sample method.", too_large).format(count=too_large)
        if others:
            text += " " + ngettext("{count} other rule set was skipped for the reasons below.",
                                   "{count} other rule sets were skipped for the reasons below.", others).format(count=others)
        return text
    done = ", ".join(f"{lb} ({_how(r)})" for lb, r in results.items())
    played = "; ".join(dict.fromkeys(policies_text(r.policies) for r in results.values()))
    return gettext("Done: {runs}").format(runs=done) + " — " + played


def _reasons_html(results: dict[str, AnalysisResult]) -> str:
    """Which machinery answered each rule set and why, as the plan says it."""
    lines = [f"<li><b>{escape(label)}</b> — {escape(r.plan.reason_now())}</li>" for label, r in results.items()
             if r.plan is not None]
    if not lines:
        return ""
    return ("<div class='guyenne-how'><h4>" + gettext("What answered") + "</h4><ul>" + "".join(lines)
            + "</ul></div>")


def _how(r: AnalysisResult) -> str:
    """What answered, in a few words (the plan's, when the result has one)."""
    if r.plan is not None:
        return r.plan.short
    if r.exact:
        return gettext("exact")
    return ngettext("{count} game", "{count} games", r.games).format(count=plain_count(r.games))
