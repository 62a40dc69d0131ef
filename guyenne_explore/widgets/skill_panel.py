"""Skill levels: the chosen rule sets under uniform, heuristic and search play, and where a conclusion turns.

A designer reads balance from sampled games; random play can say something that
competent players would not.  This panel runs :func:`..analysis.studies.skill.skill_levels`
from the explorer's position (both sides at each level), draws the chosen metric
by level with its 95% intervals, one line a rule set, and lists in words where a
verdict under skilled play differs from the one under the weakest level chosen
(:meth:`..analysis.studies.skill.SkillTable.changes`).  Every metric of the run is kept,
so choosing another metric redraws at once without playing again.

A search samples far fewer games a second than the compiled policies: it has its
own number of games, and its games go to the local cores (:mod:`..analysis.workers`),
with the same games as one process for the same seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w

from ..analysis import Cancelled, Metric, PolicySpec, TooLong, level_name, to_saved
from ..analysis.planning import engine_first_games
from ..analysis.sampling.warm import compiling_note
from ..analysis.studies.skill import SkillTable, skill_cost, skill_levels
from ..analysis.workers import local_cores, local_pool
from ..i18n import gettext, ngettext, plain_count, plain_duration
from ..engine import Position
from ..engine import Rules
from ..render.plots import rows_html
from ..render.headline import skill_headline
from ..render.skill import skill_csv, skill_figure, skill_rows
from .analysis_panel import align_labels, headline_box, headline_html, rule_set_options
from .exports import offer_file
from .files import Download
from .forms import NumberField, messages_html, unreadable
from .guard import guarded, log
from .run_controls import (RunControls, cancelled_words, engine_answers_first, engine_first_cost, first_answer_words,
                           run_anyway_box, too_long_words)
from .language import SaidLine, name_options
from .plot_view import FigureBox
from .starts import Start, Subject
from .training import TRAINED, StrongTraining
from .exploit_view import CounterSection
from .style_view import StyleSection

#: the metrics a run keeps (all shown on demand); the first is shown first
METRICS = ("Advantage (english)", "Advantage (french)", "Drawishness", "Duration (rounds)", "Balance",
           "Decisiveness", "Sweep")


class SkillPanel(w.VBox):
    """Runs chosen rule sets at chosen skill levels from the explorer's position and compares them."""

    #: what a saved session keeps of the last run, each read back as this type (see .session): the table of every
    #: metric by rule set and level, and the position analysed
    SAVED = {"table": SkillTable, "analysed": Position}

    def __init__(self, position: Position | None = None, **kwargs: Any) -> None:
        self.rule_sets = w.SelectMultiple(description="Rule sets", rows=6, layout=w.Layout(width="320px"))
        self.uniform = w.Checkbox(value=True, description="uniform (random legal moves)", indent=False)
        self.heuristic = w.Checkbox(value=True, description="heuristic", indent=False)
        # the linear weights strong played before its networks: a rung between the heuristic and strong, as in the
        # analysis and variant lab tabs
        self.strong_linear = w.Checkbox(value=False, description="strong-linear", indent=False)
        self.strong = w.Checkbox(value=True, description="strong", indent=False)  # its preset's weights: the analysis's ladder
        self.strong_trained = w.Checkbox(value=False, description=TRAINED, indent=False)  # the position's rules'
        self.training = StrongTraining()  # its cost, then Train with progress and Cancel, when strong_trained is ticked
        # one run at a time on the cores: Run skill levels waits for the training
        self.training.on_busy = lambda _busy: self._offer_run()
        self.search = w.Checkbox(value=True, description="search (built on strong)", indent=False)
        self.search_budget = NumberField("Search rollouts", 100, 1, 100_000)
        self.games = NumberField("Games", 1000, 1, 10_000_000)
        self.search_games = NumberField("Search games", 40, 1, 100_000)
        self.seed = NumberField("Seed", 0, 0, 999_999_999)
        self.run_anyway = run_anyway_box()  # games said to take past the time limit run only when ticked
        self.metric = name_options(w.Dropdown(options=list(METRICS), value=METRICS[0], description="Metric"),
                                   Metric.label_of)
        self.run_button = w.Button(description="Run skill levels", button_style="primary", icon="play")
        self.cost = w.HTML()  # what Run skill levels will play, and its rough time, before it starts
        self.controls = RunControls()
        self.figure_box = FigureBox(views=1)
        self.headline = headline_box()  # the answer in one line, above the figure
        self.changes = w.HTML()
        self.details = w.HTML()
        # the last run's table as a file: every metric of every rule set and level, not only the one drawn
        self.download = Download()
        self.export_buttons = {fmt: w.Button(description=label, disabled=True, tooltip=tip, layout=w.Layout(width="auto"))
                               for fmt, label, tip in (("csv", "CSV (every metric)",
                                                        "download every metric of every rule set and level as CSV"),
                                                       ("json", "JSON", "download the skill table as JSON"))}
        self.export_status = SaidLine()
        self.table: SkillTable | None = None
        self.subject = Subject(self.headline, self.figure_box, self.changes, self.details)  # the position; the figures' while stale
        # the position, start, fields' reading and its value of the run under way (the Subject's, once it is done)
        self._analysing: tuple[Position, Start | None, Callable[[], object] | None, object] | None = None
        # the status after the last run, as a function of the language, and as last written (a switch writes it again);
        # None before any run: the empty status of a panel never run is no "Done" to say again
        self._said: Callable[[], str] = lambda: gettext("Done")
        self._said_shown: str | None = None
        # how each level plays, under the rule sets chosen here, from the deal
        self.how_they_play = StyleSection(self.chosen_rule_sets, self.seed, run_anyway=self.run_anyway,
                                          ticked=lambda: self.levels)
        # on request only (minutes): every counter-strategy against each level chosen here
        self.counters = CounterSection(lambda: self.levels, lambda: self.position, self.run_anyway,
                                       on_found=lambda: self._show_details())
        self.rule_sets.observe(guarded(self.how_they_play.controls.status)(lambda _: self.how_they_play.check()),
                               names="value")
        self.run_button.on_click(guarded(self.controls.status)(lambda _: self.run(block=False)))
        self.metric.observe(guarded(self.controls.status)(lambda _: self._show()), names="value")
        for fmt, button in self.export_buttons.items():
            button.on_click(guarded(self.export_status)(lambda _b, fmt=fmt: self.export(fmt)))
        self.strong_trained.observe(guarded(self.training.controls.status)(lambda _: self._show_training()),
                                    names="value")
        for box in (self.uniform, self.heuristic, self.strong_linear, self.strong, self.strong_trained, self.search,
                    self.rule_sets, self.games.box, self.search_games.box, self.search_budget.box):
            box.observe(guarded(self.controls.status)(lambda _: self._show_cost()), names="value")
            box.observe(guarded(self.counters.controls.status)(lambda _: self.counters.check()), names="value")
            box.observe(guarded(self.how_they_play.controls.status)(lambda _: self.how_they_play.check()), names="value")
        for field in self._run_numbers():
            field.box.observe(guarded(self.controls.status)(lambda _: self._offer_run()), names="value")
        for box in (self.uniform, self.heuristic, self.strong_linear, self.strong, self.strong_trained, self.search,
                    self.rule_sets, self.games.box, self.search_games.box, self.search_budget.box, self.seed.box):
            box.observe(guarded(self.controls.status)(lambda _: self.subject.draw()), names="value")  # dims other settings' figures
        levels = w.VBox([w.HTML("<b>Skill levels</b> (both sides at each level)"),
                         self.uniform, self.heuristic, self.strong_linear, self.strong, self.strong_trained, self.search,
                         self.search_budget])
        settings = w.VBox([self.games, self.search_games, self.seed, self.metric, self.run_anyway])
        # wide enough for the French "Parties de recherche" (133 px), which pushed its box out of line at 112
        align_labels(self.search_budget, self.games, self.search_games, self.seed, self.metric, width="140px")
        super().__init__([self.subject.line,
                          w.HBox([self.rule_sets, levels, settings], layout=w.Layout(flex_flow="row wrap")),
                          self.training.box, self.cost, self.controls.box(self.run_button), self.controls.status,
                          self.subject.stale_note,
                          self.headline, self.figure_box, self.changes, self.details,
                          w.HBox([w.Label("Download:"), *self.export_buttons.values(), self.download],
                                 layout=w.Layout(flex_flow="row wrap", align_items="center")), self.export_status,
                          self.counters, self.how_they_play], **kwargs)
        self.position: Position | None = None
        self.set_position(position)

    def set_position(self, position: Position | None, start: Start | None = None) -> None:
        """Called by the explorer whenever the built position changes (None when invalid); ``start``: the start
        the builder last loaded (a dealt opening is named with its seed while it is shown)."""
        self.position = position
        self.subject.set_position(position, start)
        self.counters.check()  # its cost under these rules, or no run while the position is invalid
        if position is None:
            self.run_button.disabled = True
            self.controls.status.value = gettext("The built position is not valid: fix its problems to analyse it.")
            return
        chosen = [r for r in self.rule_sets.value if r != position.rules]
        self.rule_sets.options = rule_set_options(position)
        values = [v for _, v in self.rule_sets.options]
        self.rule_sets.value = (position.rules, *(r for r in chosen if r in values[1:]))
        self._offer_run()
        self.controls.status.value = ""
        self._show_training()
        self._show_cost()

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps, in the order they are set back."""
        return {"rule_sets": self.rule_sets, "uniform": self.uniform, "heuristic": self.heuristic,
                "strong_linear": self.strong_linear, "strong": self.strong, "strong_trained": self.strong_trained,
                "search": self.search, "search_budget": self.search_budget, "games": self.games, "search_games": self.search_games,
                "seed": self.seed, "metric": self.metric}

    def saved_results(self) -> dict[str, Any]:
        """The last run as session data (:data:`SAVED`); nothing before a run."""
        analysed = self.subject.analysed
        if self.table is None or analysed is None:
            return {}
        return {"table": to_saved(self.table), "analysed": to_saved(analysed[0])}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The last run as a session kept it (checked: :data:`SAVED`), its figure, sentences and table drawn again
        from the kept table (nothing is played again)."""
        if "table" not in saved or "analysed" not in saved:
            return
        self.table = saved["table"]
        self.subject.ran(saved["analysed"], None, self._settings)  # the fields were set back first
        self._said = lambda: gettext("Done")
        self.controls.status.value = self._said_shown = escape(self._said())
        self._show()

    def refresh_costs(self) -> None:
        """The cost lines written again, its sections' too (once the fast simulator is compiled:
        :func:`.run_controls.when_compiled`)."""
        self._show_cost()
        self.how_they_play.check()
        self.counters.check()

    def _offer_run(self, running: bool | None = None) -> None:
        """Grey "Run skill levels" while it could not start: no valid position, a run or a training going on, or a
        box it reads holding no usable number (each box names its problem beside it, outlined in red).  ``running``:
        whether a run goes on, when the caller knows better than the controls (a run's end, said from its thread)."""
        running = self.controls.running if running is None else running
        self.run_button.disabled = (self.position is None or running or self.training.busy
                                    or bool(unreadable(*self._run_numbers())))

    def _run_numbers(self) -> tuple[NumberField, ...]:
        """The number boxes Run skill levels reads."""
        return self.games, self.search_games, self.seed, self.search_budget

    def _show_cost(self) -> None:
        """What Run skill levels will play and its rough time here (the games the engine plays spread over the cores);
        nothing while a field cannot be read or no level is chosen."""
        levels = [] if unreadable(self.games, self.search_games, self.search_budget) else self.levels
        if self.position is None or not levels:
            self.cost.value = ""
            return
        chosen = list(self.rule_sets.value) or [self.position.rules]
        games = {lv: self.search_games.value if PolicySpec.parse(lv).searches else self.games.value for lv in levels}
        first = self._first_games(self.position, levels, games, len(chosen))
        if first:  # the engine answers first: its games, and the levels that wait for the compiled games
            cost = skill_cost(self.position, chosen, first, 1, fast=False)
            self.cost.value = escape(" ".join(filter(None, (engine_first_cost(
                "Run skill levels", sum(n for _lv, n, _s in cost), sum(s for _lv, _n, s in cost)),
                _waiting_words([lv for lv in levels if lv not in first]), self._played_once()))))
            return
        cost = skill_cost(self.position, chosen, games, local_cores())
        seconds = sum(s for _lv, _n, s in cost)
        total = sum(n for _lv, n, _s in cost)
        self.cost.value = escape(" ".join(filter(None, (ngettext(
            "Run skill levels plays {games} game: {duration} here.",
            "Run skill levels plays {games} games: {duration} here.", total).format(
            games=plain_count(total), duration=plain_duration(seconds)), self._played_once(), compiling_note()))))

    def _played_once(self) -> str:
        """Why "strong, trained for this variant" adds no level under a preset with both ticked: its trained weights
        are strong's own (the run left it out of the figure and said nothing)."""
        if self.strong_trained.value and self.strong.value and self.training.policy() == "strong":
            return gettext("Under a preset, strong trained for it is strong itself: it is played once.")
        return ""

    @staticmethod
    def _first_games(p: Position, levels: list[str], games: dict[str, int], rule_sets: int) -> dict[str, int]:
        """The games a rule set of each level the engine answers first (:func:`.run_controls.engine_answers_first`),
        sharing a few seconds over the levels and ``rule_sets``; none once the fast simulator is compiled (a search level
        waits for the compiled games, the others are answered without it)."""
        first = [lv for lv in levels if engine_answers_first((lv, lv))]
        return {lv: engine_first_games(p, (lv, lv), games[lv], len(first) * rule_sets) for lv in first}

    def _settings(self) -> tuple:
        """What a run depends on: a refining run is played only while they are those of the first answer."""
        return (self.position, self.levels, self.rule_sets.value, self.games.value, self.search_games.value,
                self.seed.value)

    def _show_training(self) -> None:
        """The training of strong for the position's rules, shown while its level is ticked."""
        self.training.show(self.position.rules if self.position is not None else None, self.strong_trained.value)

    def chosen_rule_sets(self) -> list[tuple[str, Rules]]:
        """The rule sets chosen, in their order, with the labels they are shown by."""
        labels = {rules: label for label, rules in self.rule_sets.options}
        return [(labels[rules], rules) for rules in self.rule_sets.value if rules in labels]

    @property
    def levels(self) -> list[str]:
        """The chosen levels by policy name, weakest first (the search with its budget; strong trained for the
        position's rules as ``strong@FILE``, left out while untrained; on a preset without weights trained here,
        its shipped weights: ``strong``, counted once)."""
        return list(dict.fromkeys(
            name for box, name in ((self.uniform, "uniform"), (self.heuristic, "heuristic"),
                                   (self.strong_linear, "strong-linear"), (self.strong, "strong"),
                                   (self.strong_trained, self.training.policy()),
                                   (self.search, str(PolicySpec("search", rollouts=int(self.search_budget.value)))))
            if box.value and name))

    def run(self, block: bool = True) -> None:
        """Sample every chosen rule set at every chosen level; block=False runs in a background thread."""
        if self.position is None or self.controls.running or self.training.busy:
            return
        problems = unreadable(*self._run_numbers())
        levels = self.levels
        if self.strong_trained.value and self.training.policy() is None:
            problems.append(gettext("strong is not trained for this variant yet: Train it first (its cost is shown "
                                    "above)"))
        elif not levels:
            problems.append(gettext("choose at least one skill level"))
        if problems:  # a number's problem also stands beside its box
            self.controls.status.value = messages_html(
                [gettext("Not run: {problems}").format(problems="; ".join(problems))])
            return
        chosen = list(self.rule_sets.value) or [self.position.rules]
        labels = {v: lb for lb, v in self.rule_sets.options}
        games = {lv: self.search_games.value if PolicySpec.parse(lv).searches else self.games.value for lv in levels}
        p, seed, force = self.position, self.seed.value, self.run_anyway.value
        settings, first = self._settings(), self._first_games(p, levels, games, len(chosen))
        said = (lambda: gettext("Done")) if not first else _first_words(
            sum(first.values()) * len(chosen), sum(games.values()) * len(chosen), [lv for lv in levels if lv not in first])
        if first:  # the engine answers at once the levels it plays in Python, with fewer games
            levels, games = list(first), first
        # the search's games, played by the engine, go to the local cores (compiled ones stay here); a first answer
        # plays in this process: the other core compiles, and the pool's workers would start first
        executor = local_pool() if local_cores() > 1 and not first else None
        self._analysing = (p, self.subject.start, self._settings, self._settings())
        self.run_button.disabled = self.training.train_button.disabled = True
        self.controls.start(gettext("Sampling {rule_sets} at {levels}...").format(
            rule_sets=ngettext("{count} rule set", "{count} rule sets", len(chosen)).format(count=len(chosen)),
            levels=ngettext("{count} skill level", "{count} skill levels", len(levels)).format(count=len(levels))),
            compile_first=not first)
        # the time left by the levels' costs: the compiled levels' games take a thousandth of a search's
        self.controls.pace([(n, seconds) for _lv, n, seconds in skill_cost(p, chosen, games, 1 if first else local_cores(),
                                                                           fast=not first)])

        def progress(step: str) -> None:  # which sample runs now; the bar counts its games
            self.controls.status.value = escape(step)

        def work() -> None:
            try:
                table = skill_levels(p, chosen, [labels[r] for r in chosen], levels, METRICS, games=games,
                                     seed=seed, executor=executor, progress=progress, on_games=self.controls.callback,
                                     force=force, fast=not first, cores=local_cores())
            except Cancelled:
                self._finish(None, cancelled_words(self.table is not None))
            except TooLong as exc:  # all the levels' games together, refused before any is played
                self._finish(None, too_long_words(exc))
            except ValueError as exc:  # a rule set the position cannot be read under, in the engine's words
                self._finish(None, gettext("Not run: {problems}").format(problems=exc))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("skill levels run failed")
                self._finish(None, gettext("The analysis failed: {error}").format(error=exc))
            else:
                self._finish(table, "", said)
                if first:
                    self.controls.refine_when_compiled(lambda: self.run(block=False), self._settings, settings)

        self.controls.launch(work, block)

    def _finish(self, table: SkillTable | None, message: str,
                said: Callable[[], str] = lambda: gettext("Done")) -> None:
        """The run's end: its ``message`` where it played nothing, else its table drawn and ``said`` (its closing
        status, said again in the language of the moment after a switch)."""
        self.controls.finish(table is not None)
        self._offer_run(running=False)  # said from the run's own thread, still alive
        self._show_cost()  # the compiling it announced is done: the line says so no more
        self.training.train_button.disabled = False
        if table is None:
            self.controls.status.value = escape(message)
            return
        self.table, self._said = table, said
        if self._analysing is not None:
            self.subject.ran(*self._analysing)
        self.controls.status.value = gettext("Drawing the figures...")
        self._show(then=self._say)

    def _say(self) -> None:
        """The status after the last run, once its figure is drawn."""
        self.controls.status.value = self._said_shown = escape(self._said())

    def refresh(self) -> None:
        """After a language switch: the last run's figure, sentences and table, and the status, in the new language
        (drawn again from the kept table: nothing is played again)."""
        self.subject.draw()
        self._show_training()  # the training's cost or its record, in the new language
        self.controls.redraw()
        self.training.controls.redraw()
        self._show_cost()
        self.how_they_play.refresh()
        self.counters.refresh()
        self.export_status.refresh()
        if self.controls.running:
            return
        if self.position is None:
            self.controls.status.value = gettext("The built position is not valid: fix its problems to analyse it.")
        elif self.controls.status.value == self._said_shown:
            self.controls.status.value = self._said_shown = escape(self._said())
        self._show()

    def _show(self, then: Any = None) -> None:
        """The chosen metric of the last run: its figure, where its conclusion turns with skill, the values."""
        if self.table is None:
            return
        metric = self.metric.value
        self.headline.value = headline_html(skill_headline(self.table, metric))
        self.figure_box.show({"skill": skill_figure(self.table, metric)}, then=then)
        turns = self.table.changes(metric)
        if len(self.table.levels) < 2:
            words = [gettext("Choose two skill levels or more to see where a conclusion changes with skill.")]
        elif turns:
            words = turns
        else:
            words = [gettext("No conclusion on {metric} changes with skill: every verdict under {base} holds at the "
                             "other levels.").format(metric=Metric.label_of(metric),
                                                     base=level_name(self.table.levels[0]))]
        head = gettext("Where the conclusion changes with skill")
        self.changes.value = f"<h4>{escape(head)}</h4><ul>" + "".join(
            f"<li>{escape(x)}</li>" for x in words) + "</ul>"
        self._show_details()
        for button in self.export_buttons.values():
            button.disabled = False

    def _show_details(self) -> None:
        """The chosen metric's values by rule set and level, and, once counter-strategies have played the levels,
        what the best one wins against each, beside it (issue 47, point 4)."""
        if self.table is None:
            return
        metric = self.metric.value
        caption = gettext("{metric} by rule set and level (95% interval), and its verdict").format(
            metric=Metric.label_of(metric))
        self.details.value = f"<h4>{escape(caption)}</h4>" + rows_html(skill_rows(self.table, metric,
                                                                                 counters=self.counters.found))

    def export_files(self, fmt: str) -> dict[str, bytes]:
        """The last run's table as CSV (every metric, a row a cell) or JSON (as ``skill --json`` prints it), as file
        name -> bytes."""
        if self.table is None:
            raise ValueError(gettext("nothing to export yet: run an analysis first"))
        if fmt == "csv":
            return {"guyenne-skill.csv": skill_csv(self.table).encode("utf-8")}
        return {"guyenne-skill.json": json.dumps(self.table.to_json(), indent=1).encode("utf-8")}

    def export(self, fmt: str) -> bool:
        """Download the table; a failure is said beside the buttons, not raised."""
        return offer_file(lambda: self.export_files(fmt), fmt, self.download, self.export_status)


def _waiting_words(levels: list[str]) -> str:
    """The levels left out of the engine's first answer (a search's kernels are the fast simulator's own), said beside it;
    nothing when none is."""
    if not levels:
        return ""
    return ngettext("{levels} waits for the fast simulator: it joins the answer when the compiled games refine it.",
                    "{levels} wait for the fast simulator: they join the answer when the compiled games refine it.",
                    len(levels)).format(levels=", ".join(level_name(lv) for lv in levels))


def _first_words(played: int, asked: int, waiting: list[str]) -> Callable[[], str]:
    """The status after the engine's first answer, as a function of the language: done, with how many of the games
    asked the engine played, and the levels that wait for the compiled games."""
    return lambda: " ".join(filter(None, (first_answer_words(played, asked), _waiting_words(waiting))))
