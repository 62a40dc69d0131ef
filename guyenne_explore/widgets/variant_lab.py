"""Variant lab: edit any rules parameter, compare the variant with its preset, sweep one parameter.

The rules editor (:mod:`.rules_editor`, the builder's) holds a preset plus overrides;
the engine builds the variant (``Rules.from_json``) and names every problem of an
inconsistent one, which blocks the runs.  All analysis goes through analysis/variants.py: the lab only
gathers the settings and shows what comes back.  A comparison of two levels (strong against the heuristic) can be
checked against a counter-strategy on request (:class:`.exploit_view.VerdictsSection`).
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable, Literal

import ipywidgets as w
import plotly.graph_objects as go

from ..analysis import POLICIES, AnalysisResult, Cancelled, Metric, PolicySpec, TooLong, level_name, to_saved
from ..analysis.planning import engine_first_games
from ..analysis.studies.variants import (SWEEPABLE, SWEEP_METRICS, Run, SweepPoint, analyse_rule_sets, changes,
                                         choice_label, parameter_label, sweep, sweep_label, swept_change, swept_value)
from ..analysis.workers import local_cores
from ..i18n import current_language, gettext, ngettext, plain_count
from ..engine import Position
from ..render.plots import metrics_rows, result_figures, rows_html, sweep_figure
from ..render.headline import comparison_headline, sweep_headline
from ..render.report import differences_words, rules_words
from ..engine import PRESETS, Rules, RulesError, When
from .analysis_panel import (
    METHODS,
    ExportBar,
    headline_box,
    headline_html,
    problems_html,
)
from .forms import NumberField, messages_html, unreadable
from .guard import guarded as show_errors_in
from .guard import log
from .language import name_options
from .plot_view import FigureBox
from .exploit_view import Verdicts, VerdictsSection
from .rules_editor import RulesEditor
from .run_controls import RunControls, cancelled_words, engine_answers_first, engine_first_note, run_anyway_box, too_long_words
from .starts import Start, Subject, is_before_deal
from .training import TRAINED, StrongTraining

#: most values one sweep runs (each value is a whole analysis)
MAX_SWEEP_VALUES = 25


class VariantLab(w.VBox):
    """Compares a rules variant with its preset and sweeps one parameter."""

    #: what a saved session keeps of the last run, each read back as this type (see .session): a comparison's two
    #: runs, or a sweep's points with its parameter and metric and its preset; and the position analysed
    SAVED = {"runs": list[Run], "points": list[SweepPoint],
             "swept": tuple[Literal[tuple(SWEEPABLE)], Literal[tuple(SWEEP_METRICS)]],  # type: ignore[misc]
             "sweep_preset": Rules, "analysed": Position}

    def __init__(self, position: Position | None = None, **kwargs: Any) -> None:
        self.preset = w.Dropdown(options=list(PRESETS), description="preset")
        self.rules_problems = w.HTML()
        # the builder's rules editor: one field a parameter, each as the engine states it
        self.rules_editor = RulesEditor(show_errors_in(self.rules_problems)(lambda: self._refresh()))
        #: the editor's fields by parameter name (RULES.md 10)
        self.editors = self.rules_editor.widgets
        self.variant_label = w.HTML()
        # strong plays its preset's weights (under a variant, the preset's it was made from); TRAINED, weights trained for the variant
        self.english_policy = w.Dropdown(options=[*POLICIES, TRAINED], value="uniform", description="English")
        self.french_policy = w.Dropdown(options=[*POLICIES, TRAINED], value="uniform", description="French")
        self.training = StrongTraining()  # its cost, then Train with progress and Cancel, when TRAINED is chosen
        self.training.on_busy = lambda busy: self._enable(self.controls.running)  # one run at a time on the cores
        self.search_budget = NumberField("Search rollouts", 400, 1, 100_000)  # for a side that searches
        self.method = w.Dropdown(options=METHODS, value="auto", description="Method")
        self.games = NumberField("Games", 500, 1, 10_000_000)
        self.seed = NumberField("Seed", 0, 0, 999_999_999)
        # games said to take past the time limit run only when ticked; an exact request is forced in the Analysis tab
        self.run_anyway = run_anyway_box()
        self.method.observe(lambda ch: setattr(self.run_anyway.layout, "display", "none" if ch["new"] == "exact" else None),
                            names="value")
        self.compare_button = w.Button(description="Compare with preset", button_style="primary", icon="columns",
                                       layout=w.Layout(width="auto"))
        self.sweep_parameter = name_options(w.Dropdown(options=list(SWEEPABLE), value="hand_size",
                                                       description="sweep"), parameter_label)
        self.sweep_from = NumberField("from", 6, 0, 999_999_999)  # set from the rules by _sweep_range
        self.sweep_to = NumberField("to", 8, 0, 999_999_999)
        # each metric by the name the results table gives it ("Drawishness", not "Draw rate": two names for one measure)
        self.sweep_metric = name_options(w.Dropdown(options=list(SWEEP_METRICS), description="metric",
                                                    layout=w.Layout(width="360px")),
                                         lambda key, lang: Metric.label_of(SWEEP_METRICS[key], lang))
        self.sweep_button = w.Button(description="Run sweep", button_style="primary", icon="line-chart")
        self.controls = RunControls()
        self.problems = w.HTML()
        self.figure_box = FigureBox()
        self.metrics = w.HTML()
        self.headline = headline_box()  # the answer in one line, above the figures
        self.exports = ExportBar(self, name="guyenne-variants")
        self.results: dict[str, AnalysisResult] = {}
        self.figures: dict[str, go.Figure] = {}
        self.subject = Subject(self.headline, self.figure_box, self.metrics)  # the position; the figures' while stale
        self.application = w.HTML()  # how each rule set applies to that position (analysis/variants.py says)
        self.application.add_class("guyenne-application")
        self.runs: list[Run] = []
        self.points: list[SweepPoint] = []
        self._said: Callable[[], str] | None = None  # the last run's closing status, said again after a language switch
        self._swept = ("", "")  # the parameter and metric of the last sweep (its figure is drawn again on a switch)
        self._sweep_preset: Rules | None = None  # the preset of the last sweep: its headline's reference where swept
        self._loading = False
        # on request only (minutes): the comparison's two levels, each played against a counter-strategy to the other
        self.counter_check = VerdictsSection(self._compared_verdicts)

        self.sweep_message = w.HTML()  # a range that cannot be swept, beside the range
        # every handler shows an unexpected error beside its control (never raised into the page)
        in_rules, in_sweep = show_errors_in(self.rules_problems), show_errors_in(self.sweep_message)
        self.preset.observe(in_rules(lambda ch: self._loading or self.load_rules(Rules.preset(ch["new"]))),
                            names="value")
        self.sweep_parameter.observe(in_sweep(lambda _: self._sweep_range()), names="value")
        for choice in (self.english_policy, self.french_policy):
            choice.observe(show_errors_in(self.training.controls.status)(lambda _: self._show_training()), names="value")
        self.sweep_parameter.observe(in_sweep(lambda _: self._show_application()), names="value")
        for field in (self.english_policy, self.french_policy, self.search_budget.box, self.method, self.games.box,
                      self.seed.box, self.sweep_parameter, self.sweep_from.box, self.sweep_to.box, self.sweep_metric):
            field.observe(show_errors_in(self.controls.status)(lambda _: self.subject.draw()), names="value")  # dims
        for field in self._run_numbers():
            field.box.observe(show_errors_in(self.controls.status)(lambda _: self._enable(self.controls.running)),
                              names="value")
        self.compare_button.on_click(show_errors_in(self.controls.status)(lambda _: self.run_compare(block=False)))
        self.sweep_button.on_click(in_sweep(lambda _: self.run_sweep(block=False)))

        # as many columns of editors as the panel's width holds (three at 1920 px, two at 1280 px), each with its problems
        grid = w.GridBox(self.rules_editor.fields,
                         layout=w.Layout(grid_template_columns="repeat(auto-fill, minmax(260px, 1fr))"))
        settings = w.HBox([w.VBox([self.english_policy, self.french_policy, self.method]),
                           w.VBox([self.games, self.seed, self.search_budget, self.run_anyway])])
        sweep_row = w.HBox([self.sweep_parameter, self.sweep_from, self.sweep_to, self.sweep_metric],
                           layout=w.Layout(flex_flow="row wrap"))
        super().__init__([
            self.subject.line, w.HTML("<b>Variant</b>: a preset and any parameter changed"), self.preset, grid,
            self.variant_label, self.rules_problems, self.application, settings, self.training.box,
            sweep_row, self.sweep_message, self.controls.box(self.compare_button, self.sweep_button),
            self.controls.status, self.problems, self.subject.stale_note, self.headline, self.figure_box, self.metrics,
            self.exports, self.counter_check,
        ], **kwargs)
        self.position: Position | None = None
        self.variant: Rules | None = None
        self.load_rules(position.rules if position is not None else Rules.preset("base"))
        self.set_position(position)

    # ------------------------------------------------------------ sessions
    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps, in the order they are set back: the preset before the parameters (choosing a
        preset loads its parameters), the swept parameter before its range (choosing one sets its range)."""
        return {"preset": self.preset, **{f"rules.{key}": editor for key, editor in self.editors.items()},
                "english_policy": self.english_policy, "french_policy": self.french_policy,
                "search_budget": self.search_budget, "method": self.method, "games": self.games, "seed": self.seed,
                "sweep_parameter": self.sweep_parameter, "sweep_from": self.sweep_from, "sweep_to": self.sweep_to,
                "sweep_metric": self.sweep_metric}

    def saved_results(self) -> dict[str, Any]:
        """The last comparison or sweep as session data (:data:`SAVED`); nothing before a run."""
        analysed = self.subject.analysed
        if not self.runs or analysed is None:
            return {}
        if self.points:
            return {"points": to_saved(self.points), "swept": list(self._swept),
                    "sweep_preset": to_saved(self._sweep_preset), "analysed": to_saved(analysed[0])}
        return {"runs": to_saved(self.runs), "analysed": to_saved(analysed[0])}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The last comparison or sweep as a session kept it (checked: :data:`SAVED`), its figures, metrics and
        headline drawn again from the results, as after a language switch (nothing is played again)."""
        points, analysed = saved.get("points", []), saved.get("analysed")
        if analysed is None or not (points or saved.get("runs")):
            return
        self.points, self.runs = points, [pt.run for pt in points] if points else saved["runs"]
        self.subject.ran(analysed, None, self._asked if points else self._compared)  # the fields were set back first
        if points:
            parameter, metric = self._swept = saved.get("swept", (self.sweep_parameter.value, self.sweep_metric.value))
            self._sweep_preset = saved.get("sweep_preset")
            self._said = lambda: gettext("Swept {parameter} over {values}").format(
                parameter=parameter_label(parameter), values=", ".join(choice_label(pt.value) for pt in points))
        else:
            self._said = lambda: gettext("Compared {runs}").format(runs=gettext(" and ").join(self.results))
        self._relabel_runs()
        self.refresh()
        self.exports.enable(bool(self.results))

    # ------------------------------------------------------------ rules
    def load_rules(self, rules: Rules) -> None:
        """Show ``rules`` in the editors (its preset and every parameter)."""
        self._loading = True
        try:
            self.preset.value = rules.preset_name
            self.rules_editor.set(rules.describe())
        finally:
            self._loading = False
        self._refresh()
        self._sweep_range()

    @property
    def preset_rules(self) -> Rules:
        return Rules.preset(self.preset.value)

    def _refresh(self) -> None:
        if self._loading:
            return
        values, unread = self.rules_editor.read(self.preset_rules)
        try:  # what can be read is judged too: every field's problem is said at once
            variant = Rules.from_json({"preset": self.preset.value, **values})
            if unread:
                raise RulesError([])
        except RulesError as exc:
            self.variant = None
            problems = [*unread, *exc.problems]
            elsewhere = self.rules_editor.show(problems)  # each beside its field; the rules' own on the summary
            beside = len(problems) - len(elsewhere)
            said = [ngettext("{count} problem, shown beside its field", "{count} problems, shown beside their fields",
                             beside).format(count=beside)] if beside else []
            self.rules_problems.value = messages_html([gettext("This variant is not playable: {problems}.").format(
                problems="; ".join([*said, *map(str, elsewhere)]))])
            self.variant_label.value = ""
        else:
            self.variant = variant
            self.rules_editor.show([])
            self.rules_problems.value = ""
            words = _in_words(self.variant)
            self.variant_label.value = (gettext("Variant: {rules} (the preset itself)") if self.variant == self.preset_rules
                                        else gettext("Variant: {rules}")).format(rules=escape(words))
        self._show_application()
        self._show_training()
        self._enable(self.controls.running)
        self.subject.draw()  # figures of another variant are dimmed under a note

    def _show_training(self) -> None:
        """The training of strong for the variant, shown while a side plays "strong, trained for this variant"; the
        search's budget, while a side searches (it applies to no other policy)."""
        chosen = (self.english_policy.value, self.french_policy.value)
        self.training.show(self.variant, TRAINED in chosen)
        self.search_budget.layout.display = None if "search" in chosen else "none"

    def _show_application(self) -> None:
        """How the preset and the variant apply to the position: when each changed parameter takes effect, or why
        it cannot (the rule is analysis/variants.py's); and when the swept parameter does."""
        p = self.position
        if p is None:
            self.application.value = ""
            return
        title = (gettext("How the rule sets apply to the game before the deal:") if is_before_deal(p)
                 else gettext("How the rule sets apply to this position (dealt under {rules}):").format(rules=p.rules))
        items = []
        compared = [(gettext("preset {rules}").format(rules=self.preset_rules), self.preset_rules)]
        if self.variant is not None and self.variant != self.preset_rules:
            compared.append((gettext("variant {rules}").format(rules=_in_words(self.variant)), self.variant))
        for label, rules in compared:  # one line a change, under its rule set
            found = changes(p, rules)
            words = [_change_html(c.words(), c.when == When.REFUSED) for c in found] or [
                escape(gettext("the position's own rules: nothing changes"))]
            items.append("<li>" + gettext("{rules}:").format(rules=f"<b>{escape(label)}</b>") + "<ul>"
                         + "".join(f"<li>{x}</li>" for x in words) + "</ul></li>")
        swept = swept_change(p, self.sweep_parameter.value)
        items.append("<li>" + _change_html(gettext("sweep of {parameter}: {when}").format(
            parameter=parameter_label(self.sweep_parameter.value), when=swept.when_words()), swept.when == When.REFUSED)
            + "</li>")
        self.application.value = f"<div>{escape(title)}</div><ul style='margin:2px 0'>" + "".join(items) + "</ul>"

    def refresh(self) -> None:
        """After a language switch: the variant's line, its problems, the last run's figures, metrics and notes in
        the new language (drawn again from the kept results: nothing is played again)."""
        self._refresh()
        self.subject.draw()
        self.controls.redraw()
        self.training.controls.redraw()
        self.counter_check.refresh()
        if self.controls.running:
            return
        if self.position is None:
            self.controls.status.value = gettext("The built position is not valid: fix its problems to try variants on it.")
        if not self.runs:
            return
        self._relabel_runs()
        self.problems.value = problems_html(self.runs)
        self.metrics.value = rows_html(metrics_rows(self.results)) if self.results else ""
        self._show_headline()
        if self.points:
            parameter, metric = self._swept
            self.figures = {f"sweep-{parameter}": sweep_figure(self.points, parameter, metric)}
        else:
            self.figures = result_figures(self.results) if self.results else {}
        if self.figures:
            self.figure_box.show(self.figures)
        if self._said is not None:
            self.controls.status.value = escape(self._said())

    def _relabel_runs(self) -> None:
        """The runs' labels in the current language ("preset base", "hand size = 7"): they name the figures' panels,
        legends and axes and the metrics' columns; and the reasons of a rule set refused."""
        if self.points:
            for pt in self.points:
                pt.run.label = sweep_label(self._swept[0], pt.value)
        elif len(self.runs) == 2 and self.runs[0].rules is not None and self.runs[1].rules is not None:
            self.runs[0].label, self.runs[1].label = _compare_labels(self.runs[0].rules, self.runs[1].rules)
        for run in self.runs:  # a refusal's reasons too
            run.reword()
        self.results = {r.label: r.result for r in self.runs if r.result is not None}

    def _show_headline(self) -> None:
        """The last run's answer in one line (render/headline.py): for a comparison, the first player's score under
        the variant against the preset with their difference; for a sweep, its largest change; nothing while a
        rule set of the comparison could not be analysed (its reasons stand above)."""
        if self.points:
            parameter, metric = self._swept
            line = sweep_headline(self.points, parameter, metric, self._sweep_preset)
        elif len(self.runs) == 2:
            (preset, preset_result), (variant, variant_result) = ((r.label, r.result) for r in self.runs)
            line = (comparison_headline(preset, preset_result, variant, variant_result)
                    if preset_result is not None and variant_result is not None else "")
        else:
            line = ""
        self.headline.value = headline_html(line)

    def _sweep_range(self) -> None:
        """A numeric sweep runs the variant's value and the two above it; a choice sweeps every option.

        Not below the value: the position was dealt under it, and a smaller value often cannot
        hold it (six cards dealt are no hand under a hand size of 5)."""
        name = self.sweep_parameter.value
        numeric = SWEEPABLE[name] is None
        self.sweep_from.disabled = self.sweep_to.disabled = not numeric
        if numeric and self.variant is not None:
            value = swept_value(self.variant, name)
            self.sweep_from.value, self.sweep_to.value = value, value + 2

    def sweep_values(self) -> list[Any]:
        """The values the sweep runs; a ValueError says why the range cannot be swept."""
        choices = SWEEPABLE[self.sweep_parameter.value]
        if choices is not None:
            return list(choices)
        problems = unreadable(self.sweep_from, self.sweep_to)
        if problems:
            raise ValueError(gettext("The sweep range cannot be read: {problems}.").format(problems="; ".join(problems)))
        low, high = self.sweep_from.value, self.sweep_to.value
        if high < low:
            raise ValueError(gettext("The sweep range is empty: 'to' is below 'from'."))
        count = high - low + 1
        if count > MAX_SWEEP_VALUES:
            many = plain_count(count) if count < 10**15 else gettext("far too many")
            raise ValueError(gettext("The sweep from {low} to {high} has {many} values; at most {limit} can be swept "
                                     "(each is a whole analysis): narrow the range.").format(
                low=plain_count(low), high=plain_count(high), many=many, limit=MAX_SWEEP_VALUES))
        return list(range(low, high + 1))

    def _enable(self, busy: bool = False) -> None:
        """Compare and Run sweep while nothing runs (``busy``: a run of theirs; or the training), the position
        and the variant can be analysed, and the games, seed and search budget boxes hold usable numbers (each names
        its problem beside it, outlined in red)."""
        off = (busy or self.training.busy or self.position is None or self.variant is None
               or bool(unreadable(*self._run_numbers())))
        self.compare_button.disabled = self.sweep_button.disabled = off

    def _run_numbers(self) -> tuple[NumberField, ...]:
        """The number boxes Compare and Run sweep both read (the sweep's range is read apart, beside the sweep)."""
        return self.games, self.seed, self.search_budget

    def set_position(self, position: Position | None, start: Start | None = None) -> None:
        """Called by the explorer whenever the built position changes (None when invalid); ``start``: the start
        the builder last loaded (a dealt opening is named with its seed while it is shown)."""
        self.position = position
        self.subject.set_position(position, start)
        self._show_application()
        self._enable(self.controls.running)
        if position is None:
            self.controls.status.value = gettext("The built position is not valid: fix its problems to try variants on it.")
        else:
            self.controls.status.value = ""

    def _compared_verdicts(self) -> list[Verdicts] | str:
        """The last comparison's verdict under each rule set, as the check against a counter-strategy reads it: each
        side's level against the other's (both seats), then against the best counter-strategy to it, where the
        sides play different levels; or why there is nothing to check."""
        runs = [(run, run.result) for run in self.runs if run.result is not None and not run.result.position.is_over]
        if self.points or not runs:
            return gettext("Compare with preset first, a different level on each side: then whether each level's "
                           "score against the other holds against a counter-strategy can be checked.")
        english, french = runs[0][1].policies
        if english == french:
            return gettext("Both sides play {level}: choose a different level for each side and compare again to "
                           "check the verdict against a counter-strategy.").format(level=level_name(english))
        return [Verdicts(result.position, [(english, french, None), (french, english, None)], 0.5, self.seed.value,
                         lambda run=run: run.label) for run, result in runs]

    # ------------------------------------------------------------ runs
    def _settings(self, parts: int) -> dict[str, Any] | None:
        """The run's settings, or None (with the words in the status line) while Games or Seed cannot be read.  While
        the fast simulator compiles the engine answers first (:func:`.run_controls.engine_answers_first`): fewer games,
        a few seconds over the run's ``parts`` (rule sets), and ``fast`` False."""
        problems = unreadable(*self._run_numbers())
        if problems:  # each also stands beside its box
            self.controls.status.value = messages_html([gettext("Not run: {problems}").format(problems="; ".join(problems))])
            return None
        chosen = (self.english_policy.value, self.french_policy.value)
        trained = self.training.policy()
        if TRAINED in chosen and trained is None:
            self.controls.status.value = messages_html([gettext(
                "Not run: strong is not trained for this variant yet: Train it first (its cost is shown above).")])
            return None
        policies: tuple[str, str] = tuple(  # type: ignore[assignment]  # trained: not None where chosen (checked above)
            str(PolicySpec("search", rollouts=int(self.search_budget.value))) if v == "search" else trained if v == TRAINED
            else v for v in chosen)
        # skilled games played by the engine go to the local cores, as the plan says (the same games as one process)
        # "run anyway" confirms sampled games only: force would also force an exact enumeration
        force = self.run_anyway.value and self.method.value != "exact"
        p = self.position
        first = p is not None and engine_answers_first(policies, self.method.value)
        games = engine_first_games(p, policies, self.games.value, parts) if first and p else self.games.value
        # a first answer plays in this process: the other core compiles, and the pool's workers would start first
        return {"policies": policies, "method": self.method.value, "cores": 1 if first else local_cores(), "force": force,
                "games": games, "seed": self.seed.value, "progress": self.controls.callback, "fast": not first}

    def _asked(self) -> tuple:
        """What a run depends on: a refining run is played only while they are those of the first answer; a sweep's
        figures are for them."""
        return (*self._compared(), self.sweep_parameter.value, self.sweep_from.value, self.sweep_to.value,
                self.sweep_metric.value)

    def _compared(self) -> tuple:
        """What a comparison's figures are for (the sweep's fields aside)."""
        return (self.position, self.variant, self.preset_rules, self.english_policy.value, self.french_policy.value,
                self.search_budget.value, self.method.value, self.games.value, self.seed.value)

    def _first_words(self, settings: dict[str, Any], parts: int) -> Callable[[], str]:
        """After the engine's first answer (``settings`` without ``fast``), how many of the games asked it played, as a
        function of the language; nothing after the compiled games."""
        if settings["fast"]:
            return lambda: ""
        played, asked = settings["games"] * parts, self.games.value * parts
        return lambda: engine_first_note(played, asked)

    def _launch(self, message: str, work: Any, block: bool, compile_first: bool = True) -> None:
        self.compare_button.disabled = self.sweep_button.disabled = self.training.train_button.disabled = True
        self.exports.enable(False)
        self.controls.start(message, compile_first)

        def guarded() -> None:
            try:
                work()
            except Cancelled:
                self._done(False, lambda: cancelled_words(bool(self.figures)))
            except TooLong as exc:  # every rule set's games together, refused before any is played
                refusal = exc  # the exception itself is gone once the handler ends
                self._done(False, lambda: too_long_words(refusal))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("variant lab run failed")
                error = str(exc)
                self._done(False, lambda: gettext("The analysis failed: {error}").format(error=error))

        self.controls.launch(guarded, block)

    def run_compare(self, block: bool = True) -> None:
        """The variant and its preset from the same position, same policies and seed, side by side."""
        if self.position is None or self.variant is None or self.controls.running:
            return
        p, preset, variant, settings = self.position, self.preset_rules, self.variant, self._settings(2)
        if settings is None:
            return
        analysing, asked = (p, self.subject.start, self._compared, self._compared()), self._asked()
        labels = _compare_labels(preset, variant)
        first = self._first_words(settings, 2)

        def work() -> None:
            runs = analyse_rule_sets(p, [preset, variant], labels=labels, **settings)
            self.runs, self.points = runs, []
            self.subject.ran(*analysing)
            self.results = {r.label: r.result for r in runs if r.result is not None}
            self.figures = result_figures(self.results) if self.results else {}
            self.metrics.value = rows_html(metrics_rows(self.results)) if self.results else ""
            self._show_headline()
            too_large = any(r.out_of_reach for r in runs)

            def done() -> str:  # the labels of the results, in the language of the moment
                if self.results:
                    return " ".join(filter(None, (gettext("Compared {runs}").format(
                        runs=gettext(" and ").join(self.results)), first())))
                if too_large:
                    return gettext("Neither rule set could be analysed from this position: the exact enumeration is "
                                   "too large (the estimate is below). Choose the sample method, or force exact from "
                                   "the Analysis tab.")
                return gettext("Neither rule set could be analysed from this position (the reasons are below).")
            self._done(True, done)
            if not settings["fast"]:
                self.controls.refine_when_compiled(lambda: self.run_compare(block=False), self._asked, asked)

        self._launch(gettext("Comparing the variant with its preset..."), work, block, settings["fast"])

    def run_sweep(self, block: bool = True) -> None:
        """The chosen metric as the chosen parameter of the variant takes each value of the range."""
        if self.position is None or self.variant is None or self.controls.running:
            return
        try:
            values = self.sweep_values()
        except ValueError as exc:
            self.sweep_message.value = messages_html([str(exc)])
            return
        self.sweep_message.value = ""
        p, variant, preset, settings = self.position, self.variant, self.preset_rules, self._settings(len(values))
        if settings is None:
            return
        parameter, metric = self.sweep_parameter.value, self.sweep_metric.value
        analysing, asked = (p, self.subject.start, self._asked, self._asked()), self._asked()
        first = self._first_words(settings, len(values))

        def work() -> None:
            points = sweep(p, variant, parameter, values, metric, **settings)
            self.points, self.runs = points, [pt.run for pt in points]
            self._swept, self._sweep_preset = (parameter, metric), preset
            self.subject.ran(*analysing)
            self.results = {pt.run.label: pt.run.result for pt in points if pt.run.result is not None}
            self.figures = {f"sweep-{parameter}": sweep_figure(points, parameter, metric)}
            self.metrics.value = rows_html(metrics_rows(self.results)) if self.results else ""
            self._show_headline()
            self._done(True, lambda: " ".join(filter(None, (gettext("Swept {parameter} over {values}").format(
                parameter=parameter_label(parameter), values=", ".join(choice_label(v) for v in values)),
                first()))))
            if not settings["fast"]:
                self.controls.refine_when_compiled(lambda: self.run_sweep(block=False), self._asked, asked)

        self._launch(gettext("Sweeping {parameter}...").format(parameter=parameter_label(parameter)), work, block,
                     settings["fast"])

    def _done(self, ok: bool, said: Callable[[], str]) -> None:
        """The run's end: ``said`` words its closing status, now and again after a language switch."""
        self._said = said
        message = said()
        self.controls.finish(ok)
        if ok:  # the checked lines were another run's
            self.counter_check.forget()
        self.exports.enable(bool(self.results))
        self._enable()
        self.training.train_button.disabled = False
        if not ok:
            self.controls.status.value = escape(message)
            return
        self.problems.value = problems_html(self.runs)
        self.controls.status.value = gettext("Drawing the figures...")
        self.figure_box.show(self.figures, then=lambda: setattr(self.controls.status, "value", escape(message)))


def _change_html(words: str, refused: bool) -> str:
    """A change in words; one that cannot apply in the problems' red."""
    return f"<span style='color:#b22222'>{escape(words)}</span>" if refused else escape(words)


def _in_words(variant: Rules) -> str:
    """A variant as the report says it ("advanced, hand size 7 (preset: 6)"), not the rules' repr."""
    differences = differences_words(variant, current_language())
    return f"{variant.preset_name}, {differences}" if differences else str(variant.preset_name)


def _compare_labels(preset: Rules, variant: Rules) -> list[str]:
    """The labels of a comparison in the current language, each rule set in words ("variant advanced, hand size 7"),
    not the rules' key: they name the figures' panels and legends and the headline."""
    return [gettext("preset {rules}").format(rules=rules_words(preset)),
            gettext("variant {rules}").format(rules=rules_words(variant))]
