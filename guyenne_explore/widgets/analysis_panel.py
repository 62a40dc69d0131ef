"""Analysis panel: outcome distributions of the current position under one or several rule sets.

The run happens in a background thread so that the Cancel button (and the page)
stays responsive in Jupyter and Voilà; ``run(block=True)`` does the same work
in the caller's thread for tests and scripts.  Figures go to the page as plotly
JSON in the panel's :class:`~.plot_view.FigureBox` (plotly.js travels once per
page); the status says "Done" once the browser has drawn them.
"""

from __future__ import annotations

import threading
import time
from html import escape
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from ..analysis import POLICIES
from ..analysis import Cancelled, TooLong
from ..analysis import Step, compiling_note, compiling_seconds, needs_compiling, prepare, preparing_message
from ..analysis import compile_in_background, compiling_in_background, engine_first_games
from ..analysis import AnalysisResult
from ..analysis import Run, analyse_rule_sets, sampling_cost, surely_sampled, to_saved
from ..analysis import local_cores
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
from .starts import Start, Subject

METHODS = ("auto", "exact", "sample")
IDLE = "\u00a0"  # the progress bar's label before a count (an empty one would hide it and the bar would shift)
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


#: the box that confirms a run refused for its time (:class:`TooLong`, past ``limits.RUN_SECONDS``), in every panel
RUN_ANYWAY = "run anyway (past the time limit)"


def run_anyway_box() -> w.Checkbox:
    """The "run anyway" box of a panel whose runs may be refused for their time: ticked, the panel passes
    ``force=True``.  One maker, so that every panel offers it in the same words (and the same translation)."""
    return w.Checkbox(value=False, description=RUN_ANYWAY, indent=False,
                      tooltip="play the games even when they would take more than half an hour")


def too_long_words(refusal: TooLong) -> str:
    """The status of a run refused for its time: the refusal, then the box that runs it anyway, by its label in the
    language of the moment (the refusal alone said "run it anyway" and left people looking for how)."""
    return gettext("Not run: {problems}: tick '{box}' and run again.").format(problems=refusal, box=gettext(RUN_ANYWAY))


def cancelled_words(previous: bool) -> str:
    """The status after Cancel: the figures shown are the previous run's, or, before any run finished, there are
    none (saying "the figures below" over an empty panel sent people looking for them)."""
    return (gettext("Cancelled: the figures below are from the previous run.") if previous
            else gettext("Cancelled: no run has finished yet, so there are no figures."))


class RunControls:
    """Progress bar, Cancel button and status line shared by the panels that run analyses.

    ``start``/``finish`` bracket a run; ``callback`` is the progress function handed to
    the analysis: it moves the bar and returns False once Cancel has been pressed.
    """

    def __init__(self) -> None:
        # the label beside the bar ("3/20", "1,200/10,000" games) keeps its width from the start: the bar never
        # shifts as it fills
        self.progress = w.IntProgress(value=0, min=0, max=1, description=IDLE, style={"description_width": "110px"},
                                      layout=w.Layout(width="330px"))
        self.cancel_button = w.Button(description="Cancel", icon="stop", disabled=True)
        self.status = w.HTML()
        self.left = w.Label()  # the time left, from the pace of the games so far
        self.cancelled = False
        self._began = 0.0  # when the run's counted work started (after any compiling)
        self._message = ""  # the run's status, once the fast path is prepared
        self._prepare = False  # whether the run compiles the fast path first (see start)
        self._drawn = 0.0  # when the bar was last moved: slow games report each one, fast ones are not redrawn each time
        # the run's parts in the order played, (games, rough seconds) each, where their games differ in cost (see
        # pace); and the part under way: its index, when and at which count it was first seen
        self._parts: list[tuple[int, float]] = []
        self._part: tuple[int, float, int] | None = None
        self.thread: threading.Thread | None = None
        self.cancel_button.on_click(guarded(self.status)(lambda _: self.cancel()))

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def cancel(self) -> None:
        """Ask the run to stop.  "Cancelling..." is written before the run can see the request: a run that stops at
        once writes its own last words ("Cancelled: ...") from its thread, and they must not be overwritten, which
        left the status saying "Cancelling..." after the work had stopped."""
        self.status.value = gettext("Cancelling...")
        self.cancelled = True

    def callback(self, done: int, total: int) -> bool | None:
        """Moves the bar and writes ``done/total`` beside it (at most ten times a second, and at the end)."""
        now = time.monotonic()
        if now - self._drawn >= 0.1 or done >= total:
            self._drawn = now
            self.progress.max = max(total, 1)
            self.progress.value = min(done, self.progress.max)
            self.progress.description = f"{plain_count(done)}/{plain_count(total)}" if total else IDLE
            self.left.value = self._time_left(now, done, total)
        if done and self._message and not self.cancelled:
            self.status.value, self._message = escape(self._message), ""
        return False if self.cancelled else None

    def redraw(self) -> None:
        """After a language switch: the count beside the bar in the new language's digit grouping ("1,200/1,200"
        stayed so in French until the next run); a bar that counts the fast path's parts has no grouping to change."""
        if self.progress.description != IDLE and not self._prepare:
            self.progress.description = f"{plain_count(self.progress.value)}/{plain_count(self.progress.max)}"

    def _time_left(self, now: float, done: int, total: int) -> str:
        """"about 2 minutes left" at the pace so far; nothing until a game (or state) is done.  With the run's
        parts (:meth:`pace`): the part under way's games left at that part's own pace, then the later parts' rough
        seconds, so that a run whose first games are a thousand times cheaper than its last neither says "under
        a second left" through the slow ones nor stretches the cheap ones' start-up over them."""
        if not done or done >= total:
            return ""
        if not self._parts:
            return gettext("{duration} left").format(duration=plain_duration((now - self._began) * (total - done) / done))
        start, index = 0, 0
        while index < len(self._parts) - 1 and done >= start + self._parts[index][0]:
            start += self._parts[index][0]
            index += 1
        count, seconds = self._parts[index]
        if self._part is None or self._part[0] != index:
            self._part = (index, now, done)  # the part's pace is timed from its first count seen
        _index, began, first = self._part
        in_part = max(0, min(count, start + count - done))
        # the part's rough pace, weighed by how much of it is still to time against the pace it has shown: the
        # first of a few slow games (a worker starting) does not say a minute left
        rough = seconds / max(count, 1)
        shown = (now - began) / (done - first) if done > first else rough
        timed = (done - first) / max(1, start + count - first)
        current = in_part * ((1 - timed) * rough + timed * shown)
        later = sum(part_seconds for _games, part_seconds in self._parts[index + 1:])
        return gettext("{duration} left").format(duration=plain_duration(current + later))

    def pace(self, parts: list[tuple[int, float]]) -> None:
        """The run's parts in the order it plays them, each its games and their rough seconds (the cost said
        before the run), for the time left; called after :meth:`start`."""
        self._parts, self._part = list(parts), None

    def reset(self) -> None:
        """An empty bar without a count: a run refused before it played anything shows nothing of the last one's
        (a refused exact run left "1,500/1,500" from the run before)."""
        self.left.value = ""
        self.progress.value = 0
        self.progress.description = IDLE
        self.progress.bar_style = ""

    def start(self, message: str, compile_first: bool = True) -> None:
        """Open a run; says so first when the fast path still has to compile (no numba cache yet) and the run
        compiles it first (``compile_first``; a run the engine answers meanwhile does not wait for it)."""
        self.cancelled = False
        self._began = time.monotonic()
        self.reset()
        self._drawn = 0.0
        self._parts, self._part = [], None
        self.progress.bar_style = "info"
        self.cancel_button.disabled = False
        self._message = ""
        self._prepare = compile_first and needs_compiling()
        if self._prepare:
            self._message = message
            message = gettext("Preparing the fast path (first run only: {duration})... {message}").format(
                duration=plain_duration(compiling_seconds()), message=message)
        self.status.value = escape(message)

    def _compiling(self, step: Step, done: int, total: int) -> None:
        """Says which part of the fast path compiles now, moves the bar by parts, and says the time left: this
        part's and the later parts' compiling (the pending parts, this one first)."""
        self.status.value = escape(preparing_message(step, done, total))
        self.progress.max, self.progress.value, self.progress.description = total, done - 1, f"{done - 1}/{total}"
        self.left.value = gettext("{duration} left").format(duration=plain_duration(compiling_seconds()))

    def _prepared(self, work: Any) -> Any:
        """``work`` preceded, when the fast path still has to compile, by compiling it part by part
        (one minute or so each, said in the status line), so no run stalls unexplained."""
        def run() -> None:
            if self._prepare:
                if compiling_in_background():  # the launch scripts' step (or another run's): waited for, not doubled
                    self._await_compiling()
                prepare(self._compiling)  # what is still pending (nothing, once the background step is over)
                self._began = time.monotonic()
                self._prepare = False
                self.progress.value, self.progress.description = 0, IDLE
                if self._message:
                    self.status.value = escape(self._message)
            work()
        return run

    def _await_compiling(self) -> None:
        """Wait while another process compiles the fast path, saying so with the time its pending parts take.  Cancel
        then stops the run at its first count, once the compiling (which serves every later run) is over: the
        words say so, as a run cut here would compile the rest itself."""
        while compiling_in_background():
            left = plain_duration(compiling_seconds())
            self.status.value = escape(
                gettext("Cancelling: the run stops once the fast path, compiling in the background, is ready "
                        "({duration} left).").format(duration=left) if self.cancelled else
                gettext("The fast path is compiling in the background (first run only): {duration} left... "
                        "{message}").format(duration=left, message=self._message))
            self.left.value = gettext("{duration} left").format(duration=left)
            time.sleep(0.5)

    def finish(self, ok: bool) -> None:
        self.cancel_button.disabled = True
        self.left.value = ""
        self.progress.bar_style = "success" if ok else "warning"

    def launch(self, work: Any, block: bool) -> None:
        """Run ``work()`` here (block) or in a daemon thread (the page stays live)."""
        work = self._prepared(work)
        if block:
            work()
        else:
            self.thread = threading.Thread(target=work, daemon=True)
            self.thread.start()

    def box(self, *extra: w.Widget) -> w.HBox:
        return w.HBox([*extra, self.cancel_button, self.progress, self.left], layout=w.Layout(flex_flow="row wrap"))


class AnalysisPanel(w.VBox):
    """Runs the analysis of a position under chosen rule sets and shows its figures side by side."""

    #: what a saved session keeps of the last run, each read back as this type (see .session): the rule sets' runs,
    #: the position analysed and the seed of its games (None: exact)
    SAVED = {"runs": list[Run], "analysed": Position, "seed": int | None}

    def __init__(self, position: Position | None = None, **kwargs: Any) -> None:
        self.rule_sets = w.SelectMultiple(description="Rule sets", rows=6, layout=w.Layout(width="320px"))
        self.english_policy = w.Dropdown(options=list(POLICIES), value="uniform", description="English")
        self.french_policy = w.Dropdown(options=list(POLICIES), value="uniform", description="French")
        # the search's budget, in rollouts a decision (it applies to whichever side searches)
        self.search_budget = NumberField("Search rollouts", 400, 1, 100_000)
        # "optimal play": the equilibrium of an open-hand endgame, shown by the optimal-play section below
        self.method = w.Dropdown(options=METHODS + (OPTIMAL,), value="auto", description="Method")
        self.force_exact = w.Checkbox(value=False, description="force exact (no size limit)", indent=False,
                                      tooltip="enumerate even when the estimate says it would take very long",
                                      layout=w.Layout(display="none"))
        # sampled games said to take longer than the limit a run may take unconfirmed (limits.RUN_SECONDS) run only
        # when this is ticked
        self.run_anyway = run_anyway_box()
        self.force_note = w.HTML()
        # text boxes read in Python: letters typed stay and are named beside the box (see forms.NumberField)
        self.games = NumberField("Games", 500, 1, 10_000_000)
        self.seed = NumberField("Seed", 0, 0, 999_999_999)
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
        self._analysing: tuple[Position, Start | None] | None = None
        self.runs: list[Run] = []
        self.results: dict[str, AnalysisResult] = {}
        self.figures: dict[str, go.Figure] = {}
        self.run_button.on_click(guarded(self.controls.status)(lambda _: self.run(block=False)))
        settings = w.VBox([self.english_policy, self.french_policy, self.search_budget, self.method,
                           self.force_exact, self.force_note, self.games, self.seed, self.run_anyway])
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
        self.run_button.disabled = self.controls.running
        self.controls.status.value = ""
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
                "The fast path is not compiled yet ({duration}, once, in the background): Run analysis answers at "
                "once from the engine with {games} games a rule set, then the compiled games refine it.").format(
                duration=plain_duration(compiling_seconds()),
                games=plain_count(engine_first_games(self.position, self.policies, self.games.value, local_cores()))))
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
                              + rows_html(metrics_rows(self.results))) if self.results else ""
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
        self._analysing, self._run_seed = (saved["analysed"], None), saved.get("seed")
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
        budget = int(self.search_budget.value)
        return tuple(f"search:{budget}" if v == "search" else v  # type: ignore[return-value]
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
        problems = unreadable(self.games, self.seed, self.search_budget)
        if problems:  # each also stands beside its box
            self.controls.reset()
            self.controls.status.value = messages_html([gettext("Not run: {problems}").format(problems="; ".join(problems))])
            return
        chosen = list(self.rule_sets.value) or [self.position.rules]
        labels = {v: lb for lb, v in self.rule_sets.options}
        p, policies, method, games, seed = self.position, self.policies, self.method.value, self.games.value, self.seed.value
        force = self.force_exact.value if method == "exact" else self.run_anyway.value
        engine_first = self._engine_first()
        asked = games
        if engine_first:
            compile_in_background()
            games = engine_first_games(p, policies, games, local_cores())
        self._analysing = (p, self.subject.start)
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
                                         force=force, cores=local_cores(), fast=not engine_first)
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
                    self._refine_when_compiled(p, asked)

        self.controls.launch(work, block)

    def _engine_first(self) -> bool:
        """Whether Run analysis is answered by the engine now: the fast path is still to compile, so the engine
        answers at once with fewer games, saying so, and the compiled games refine it once ready (an exact run
        and a search, which compiles kernels of its own, wait for the compiling instead)."""
        return (self.method.value != "exact" and needs_compiling()
                and not any(name.startswith("search") for name in self.policies))

    def _refine_when_compiled(self, p: Position, games: int) -> None:
        """Once the background compiling is over, run the same analysis again on the compiled path with all its
        games, unless the panel has moved on meanwhile (another position or run, other settings)."""
        settings = (self.policies, self.method.value, self.games.value, self.seed.value, self.rule_sets.value)

        def wait() -> None:
            while compiling_in_background():
                time.sleep(1.0)
            unchanged = (self.position is p and not self.controls.running and not needs_compiling() and settings
                         == (self.policies, self.method.value, self.games.value, self.seed.value, self.rule_sets.value))
            if unchanged and games == self.games.value:
                self.run(block=True)

        threading.Thread(target=wait, name="guyenne-refine", daemon=True).start()

    def _finish(self, runs: list[Run] | None, message: str) -> None:
        self.controls.finish(runs is not None)
        self.run_button.disabled = self.position is None
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


def engine_first_note(played: int, asked: int) -> str:
    """What a run the engine answered while the fast path compiles says after its summary."""
    return ngettext("The engine answered with {played} of the {count} game asked while the fast path compiles in "
                    "the background; the compiled games refine it when ready.",
                    "The engine answered with {played} of the {count} games asked while the fast path compiles in "
                    "the background; the compiled games refine it when ready.", asked).format(
        played=plain_count(played), count=plain_count(asked))


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
    lines = [f"<li><b>{escape(label)}</b> — {escape(r.plan.reason)}</li>" for label, r in results.items()
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
