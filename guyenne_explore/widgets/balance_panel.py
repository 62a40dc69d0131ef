"""Balance: search the rules parameters for settings that meet a designer's targets, and measure skill depth.

The designer picks a rule set to start from (the explorer's own rules, a preset, or the variant lab's
variant), the parameters to vary with their ranges, the targets with their bounds, the level of play, the
games a candidate, the trials and the seed.  Every field is read as the command line's ``balance`` reads it
(:class:`..analysis.Space`, :func:`..analysis.parse_targets`: the engine checks each value against the rule
set), a problem shown beside its field, and nothing runs while one stands.  The cost is said before the run;
the run shows its progress with the time left and stops on Cancel.

Every search of the session is kept in one optuna journal in a temporary folder of this process (one study a
search definition): running the same search again continues it, the finished candidates read back, the one
under way when cancelled played first.  The page never names that folder (see :mod:`.files`).

The depth section runs :func:`..analysis.skill_depth` on the chosen rule set: a ladder of levels, each against
the one below in both seats, the skill chain with its interval, each pair's score, the weaker level's wins and
the luck share.  On request, each rung of the ladder measured, and the ladder of the search's best setting, are
checked against a counter-strategy (:class:`.exploit_view.VerdictsSection`).
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
import shutil
import tempfile
import weakref
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from ..analysis import POLICIES, Cancelled, PolicySpec, TooLong, analyse, level_name, to_saved
from ..analysis.planning import engine_first_games, engine_plays
from ..analysis.sampling.warm import compiling_note, needs_compiling
from ..analysis.studies.balance import (TARGET_METRICS, TARGET_WORDS, SearchProgress, SearchResult, Space, SpaceError,
                                        Target, TargetError, balance_search, estimate_search, parse_targets, verdicts)
from ..analysis.studies.depth import BEATS, Depth, default_ladder, ladder_cost, skill_depth
from ..analysis.studies.exploit import pairs_below
from ..analysis.studies.skill import level_words
from ..analysis.studies.variants import SWEEPABLE, parameter_label
from ..analysis.workers import local_cores, local_pool
from ..i18n import N_, gettext, ngettext, plain_count, plain_duration, plain_estimate, plain_size
from ..engine import Position
from ..render.balance import candidate_heads, candidate_rows, candidates_csv, depth_rows, table_heading, target_label, tradeoff_figure
from ..render.balance_report import balance_report
from ..render.plots import FORMATS, export_figures, rows_html
from ..engine import PRESETS, Rules
from .analysis_panel import align_labels
from .exploit_view import Verdicts, VerdictsSection
from .files import Download, zip_bytes
from .forms import NumberField, in_language_decimals, messages_html, unreadable
from .guard import guarded, log
from .run_controls import (RunControls, engine_answers_first, engine_first_cost, first_answer_words, run_anyway_box,
                           too_long_words)
from .language import SaidLine, name_options
from .plot_view import FigureBox
from .session_weights import SESSION, SessionWeights, weights_upload
from .starts import Start

#: the fixed texts of the panel, for extraction (the language switch looks each up in the catalogue)
LABELS = (
    N_("Balance"), N_("start from"), N_("vary"), N_("values"), N_("target"), N_("low"), N_("high"),
    N_("Level of play"), N_("Games a candidate"), N_("Trials"), N_("x axis"), N_("y axis"), N_("Run search"),
    N_("Measure depth"), N_("Ladder"), N_("Deals a match"), N_("Download:"), N_("CSV (candidates)"),
    N_("<b>Balance search</b>: the settings that meet your targets, from the deal"),
    N_("<h4>Skill depth</h4>"),
    N_("5:7 (every whole number), 5,7 (those), empty: every choice"), N_("empty: open"),
    N_("levels weakest first, separated by commas: uniform,heuristic,search:100"),
    N_("download every candidate tried as CSV"), N_("download the figure as html"), N_("download the figure as svg"),
    N_("download the figure as png"), N_("Report"), N_("download a one-page HTML report of the search"),
    N_("Precision (±)"), N_("Run to precision"),
    N_("after the search, play the best candidate on until each target's 95% interval is this narrow either side"),
)
#: what a row without a parameter or a target holds
NONE = ""
#: the option that stands for the variant lab's variant (read when a search starts)
VARIANT = "variant"
#: the rows of parameters and targets the panel offers, and their first settings
VARIED = (("hand_size", "5:7"), ("castles", "5:7"), (NONE, ""))
TARGETS = (("advantage", "0.45", "0.55"), ("draws", "", "0.05"), (NONE, "", ""))
AXES = ("advantage", "rounds")


def _none_or(name: Callable[[Any, str], str]) -> Callable[[Any, str], str]:
    """A menu's namer that shows the empty choice as "(none)"."""
    return lambda value, lang: gettext("(none)", lang) if value == NONE else name(value, lang)


def _target_name(name: str, lang: str) -> str:
    return target_label(name, lang)


class VaryRow(w.HBox):
    """One varied parameter: its name, its values (``5:7``, ``5,7``, or empty for every choice) and its problem."""

    def __init__(self, parameter: str, values: str) -> None:
        # as wide as a target's menu: the longest name, "reconstitution de la pioche" in French, is not cut
        self.parameter = name_options(w.Dropdown(options=[NONE, *SWEEPABLE], value=parameter, description="vary",
                                                 layout=w.Layout(width="290px")), _none_or(parameter_label))
        self.values = w.Text(value=values, description="values", placeholder="5:7", continuous_update=False,
                             tooltip="5:7 (every whole number), 5,7 (those), empty: every choice",
                             layout=w.Layout(width="180px"))
        self.parameter.style.description_width = self.values.style.description_width = "56px"
        self.message = w.HTML()
        self.message.add_class("guyenne-field-message")
        super().__init__([self.parameter, self.values, self.message],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"))

    @property
    def text(self) -> str | None:
        """``hand_size=5:7`` (``removal`` alone: every choice), or None for an empty row."""
        if self.parameter.value == NONE:
            return None
        values = self.values.value.strip()
        return f"{self.parameter.value}={values}" if values else self.parameter.value


class TargetRow(w.HBox):
    """One target: its metric, its low and high ends (either may stay empty: open), what the metric means (an
    advantage is a score, a draw a half: a designer reading "advantage" as a win rate would set the wrong band)
    and its problem."""

    def __init__(self, name: str, low: str, high: str) -> None:
        self.name = name_options(w.Dropdown(options=[NONE, *TARGET_METRICS], value=name, description="target",
                                            layout=w.Layout(width="290px")), _none_or(_target_name))
        self.low = w.Text(value=low, description="low", placeholder="", continuous_update=False,
                          tooltip="empty: open", layout=w.Layout(width="120px"))
        self.high = w.Text(value=high, description="high", placeholder="", continuous_update=False,
                           tooltip="empty: open", layout=w.Layout(width="120px"))
        self.name.style.description_width = "56px"
        self.low.style.description_width = self.high.style.description_width = "40px"
        self.meaning = w.HTML()
        self.meaning.add_class("guyenne-target-meaning")
        self.message = w.HTML()
        self.message.add_class("guyenne-field-message")
        super().__init__([self.name, self.low, self.high, self.meaning, self.message],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.name.observe(lambda _c: self.say_meaning(), names="value")
        self.say_meaning()
        self.show_decimals()

    def show_decimals(self) -> None:
        """The ends typed, in the current language's decimals (``0,45`` in French, after a switch too): a box
        reads both forms, but shows numbers as the page around it writes them."""
        for box in (self.low, self.high):
            box.value = in_language_decimals(box.value)

    def say_meaning(self) -> None:
        """What the chosen metric means, in the current language (nothing for an empty row)."""
        words = TARGET_WORDS.get(self.name.value)
        self.meaning.value = f"<small>{escape(gettext(words))}</small>" if words else ""

    @property
    def text(self) -> str | None:
        """``advantage=0.45:0.55`` (``0,45`` as typed: the target's reader takes a decimal comma too), or None for
        an empty row."""
        if self.name.value == NONE:
            return None
        return f"{self.name.value}={self.low.value.strip()}:{self.high.value.strip()}"


def _rule_set_name(value: Any, lang: str) -> str:
    """A rule set offered to start from: its name (a preset's, or the explorer's variant as JSON), or the variant lab's."""
    return gettext("the variant lab's variant", lang) if isinstance(value, str) and value == VARIANT else str(value)


def _field_words(exc: Exception) -> str:
    """The analysis' words for a field, without the command line's option name in front, nor the command line's
    text of the row ("'hand_size=five to seven': ..." beside the row's own fields read as the code's syntax)."""
    words = re.sub(r"""^--(?:vary|target) (?:'[^']*'|"[^"]*")\s?:\s*""", "", str(exc))
    return words.removeprefix("--vary ").removeprefix("--target ")


class BalancePanel(w.VBox):
    """The balance search and the skill depth of a rule set, from the deal; ``weights``: the session's weights a
    ladder's ``strong@NAME`` names (never a file: see :mod:`.session_weights`)."""

    #: what a saved session keeps of the last runs, each read back as this type (see .session): the search's every
    #: candidate with its figures and verdicts, and the depth's ladder
    SAVED = {"search": SearchResult, "depth": Depth}

    def __init__(self, position: Position | None = None, variant: Callable[[], Rules | None] | None = None,
                 weights: SessionWeights = SESSION, **kwargs: Any) -> None:
        self.variant_source, self.weights = variant, weights
        self.position = position
        self.rule_set = w.Dropdown(description="start from", layout=w.Layout(width="320px"))
        self.rule_set_message = w.HTML()
        self.rows = [VaryRow(*row) for row in VARIED]
        self.targets = [TargetRow(*row) for row in TARGETS]
        self.space_message = w.HTML()  # a parameter or a target given twice: beside the rows
        self.level = name_options(w.Dropdown(options=list(POLICIES), value="uniform", description="Level of play"),
                                  level_name)
        self.search_budget = NumberField("Search rollouts", 50, 1, 100_000)
        self.games = NumberField("Games a candidate", 200, 4, 1_000_000)
        self.trials = NumberField("Trials", 9, 1, 1000)
        self.seed = NumberField("Seed", 0, 0, 999_999_999)
        self.run_anyway = run_anyway_box()  # a search said to take past the time limit runs only when ticked
        align_labels(self.level, self.search_budget, self.games, self.trials, self.seed, width="130px")
        self.cost = w.HTML()
        self.cost.add_class("guyenne-balance-cost")
        self.store_note = w.HTML()
        self.run_button = w.Button(description="Run search", button_style="primary", icon="search")
        # the command line's --precision: the search (continued from the store), then the best played on
        self.precision = NumberField("Precision (±)", 0.02, 0.001, 0.5, whole=False, width="200px",
                                     tooltip="after the search, play the best candidate on until each target's 95% "
                                             "interval is this narrow either side")
        self.precise_button = w.Button(description="Run to precision", icon="bullseye")
        self.controls = RunControls()
        self.x_axis = name_options(w.Dropdown(options=list(TARGET_METRICS), value=AXES[0], description="x axis"),
                                   _target_name)
        self.y_axis = name_options(w.Dropdown(options=list(TARGET_METRICS), value=AXES[1], description="y axis"),
                                   _target_name)
        self.table = w.HTML()
        self.table.add_class("guyenne-balance-table")
        self.figure_box = FigureBox(views=1)
        self.download = Download()
        self.export_buttons = {fmt: w.Button(description=label, disabled=True, tooltip=tip,
                                             layout=w.Layout(width="auto"))
                               for fmt, label, tip in (("csv", "CSV (candidates)", "download every candidate tried as CSV"),
                                                       *((f, f.upper(), f"download the figure as {f}") for f in FORMATS),
                                                       ("report", "Report", "download a one-page HTML report of the search"))}
        self.export_status = SaidLine()
        self.result: SearchResult | None = None
        self.figures: dict[str, go.Figure] = {}
        self._store: pathlib.Path | None = None
        self._said: Callable[[], str] | None = None  # the status after the last run, as a function of the language
        # on request only (minutes): the best setting's ladder (a depth target's), each rung against a counter-strategy
        self.best_check = VerdictsSection(self._best_verdicts)
        # the depth section
        #: the ladder the panel offers, and its field's text as the panel last wrote it: untouched, a language
        #: switch writes it again in the page's names ("uniforme,heuristique,forte")
        self._offered_ladder = [level for level in default_ladder() if not PolicySpec.parse(level).searches]
        self.ladder = w.Text(value=",".join(map(level_words, self._offered_ladder)), description="Ladder",
                             continuous_update=False, layout=w.Layout(width="320px"),
                             tooltip="levels weakest first, separated by commas: uniform,heuristic,search:100")
        self._ladder_written = self.ladder.value
        self.ladder_message = w.HTML()
        self.weights_upload = weights_upload(weights, lambda: (self.check(), self.check_depth()))
        self.depth_games = NumberField("Deals a match", 200, 2, 1_000_000)
        align_labels(self.ladder, self.depth_games, width="130px")
        self.depth_cost = w.HTML()
        self.depth_button = w.Button(description="Measure depth", button_style="primary", icon="signal")
        self.depth_controls = RunControls()
        self.depth_result = w.HTML()
        self.depth: Depth | None = None
        self._depth_said: Callable[[], str] | None = None
        # on request only (minutes): each rung of the ladder measured, played again against a counter-strategy
        self.depth_check = VerdictsSection(self._depth_verdicts)

        in_status = guarded(self.controls.status)
        self.run_button.on_click(in_status(lambda _: self.run(block=False)))
        self.precise_button.on_click(in_status(lambda _: self.run(block=False, precision=self.precision.value)))
        self.depth_button.on_click(guarded(self.depth_controls.status)(lambda _: self.run_depth(block=False)))
        for axis in (self.x_axis, self.y_axis):
            axis.observe(in_status(lambda _: self._draw()), names="value")
        for fmt, button in self.export_buttons.items():
            button.on_click(guarded(self.export_status)(lambda _b, fmt=fmt: self.export(fmt)))
        fields = [self.rule_set, self.level, self.ladder, *(r.parameter for r in self.rows), *(r.values for r in self.rows),
                  *(t.name for t in self.targets), *(t.low for t in self.targets), *(t.high for t in self.targets)]
        for field in fields:
            field.observe(in_status(lambda _: self.check()), names="value")
        for number in (self.search_budget, self.games, self.trials, self.seed, self.precision):
            number.box.observe(in_status(lambda _: self.check()), names="value")
        for depth_field in (self.ladder, self.depth_games.box, self.rule_set):
            depth_field.observe(guarded(self.depth_controls.status)(lambda _: self.check_depth()), names="value")

        settings = w.VBox([self.level, self.search_budget, self.games, self.trials, self.seed, self.run_anyway])
        exports = w.HBox([w.Label("Download:"), *self.export_buttons.values(), self.download],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"))
        super().__init__([
            w.HTML("<b>Balance search</b>: the settings that meet your targets, from the deal"),
            w.HBox([self.rule_set, self.rule_set_message], layout=w.Layout(flex_flow="row wrap")),
            *self.rows, *self.targets, self.space_message, settings, self.cost, self.store_note,
            self.controls.box(self.run_button), w.HBox([self.precision, self.precise_button],
                                                       layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.controls.status,
            w.HBox([self.x_axis, self.y_axis], layout=w.Layout(flex_flow="row wrap")),
            self.table, self.figure_box, exports, self.export_status, self.best_check,
            w.HTML("<h4>Skill depth</h4>"), self.ladder, self.ladder_message, self.weights_upload, self.depth_games, self.depth_cost,
            self.depth_controls.box(self.depth_button), self.depth_controls.status, self.depth_result,
            self.depth_check,
        ], **kwargs)
        self.add_class("guyenne-balance")
        self.level.observe(in_status(lambda _: self._show_fixed()), names="value")
        self._show_fixed()
        self.set_position(position)

    # ------------------------------------------------------------------ the rule set
    def set_position(self, position: Position | None, start: Start | None = None) -> None:
        """The explorer's rules lead the rule sets offered (a search starts from the deal, whatever the position)."""
        self.position = position
        chosen = self.rule_set.value
        own = [(str(position.rules), position.rules)] if position is not None else []
        options: list[tuple[str, Any]] = own + [(n, r) for n, r in PRESETS.items() if not own or r != own[0][1]]
        if self.variant_source is not None:
            options.append((VARIANT, VARIANT))
        values = [v for _, v in options]
        self.rule_set.options = options
        name_options(self.rule_set, _rule_set_name)
        self.rule_set.value = chosen if chosen in values else values[0]
        self.check()
        self.check_depth()

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps, in the order they are set back."""
        rows = {f"vary{i}.{part}": getattr(row, part) for i, row in enumerate(self.rows, 1) for part in ("parameter", "values")}
        targets = {f"target{i}.{part}": getattr(row, part) for i, row in enumerate(self.targets, 1)
                   for part in ("name", "low", "high")}
        return {"rule_set": self.rule_set, **rows, **targets, "level": self.level, "search_budget": self.search_budget,
                "games": self.games, "trials": self.trials, "seed": self.seed, "precision": self.precision,
                "x_axis": self.x_axis, "y_axis": self.y_axis, "ladder": self.ladder, "depth_games": self.depth_games}

    def saved_results(self) -> dict[str, Any]:
        """The last search and depth as session data (:data:`SAVED`); nothing of a run not made."""
        kept = {"search": self.result, "depth": self.depth}
        return {key: to_saved(value) for key, value in kept.items() if value is not None}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The last search and depth as a session kept them (checked: :data:`SAVED`), the table, figure and depth
        drawn again from them (nothing is played again)."""
        if "search" in saved:
            result: SearchResult = saved["search"]
            self._finish(result, lambda: _summary(result))
        if "depth" in saved:
            self._depth_finish(saved["depth"], lambda: gettext("Done"))

    def preset(self) -> Rules | None:
        """The rule set chosen to start from (the variant lab's when chosen and playable); its problem beside it."""
        value = self.rule_set.value
        if value == VARIANT:
            variant = self.variant_source() if self.variant_source is not None else None
            if variant is None:
                self.rule_set_message.value = messages_html([gettext(
                    "the variant lab's variant is not playable: fix it there, or start from a preset")])
                return None
            value = variant
        self.rule_set_message.value = ""
        return value if isinstance(value, Rules) else None

    # ------------------------------------------------------------------ reading the fields
    @property
    def policies(self) -> tuple[str, str]:
        """Both sides at the chosen level (the search with its budget)."""
        level = str(PolicySpec("search", rollouts=int(self.search_budget.value))) if self.level.value == "search" \
            else self.level.value
        return level, level

    def read(self) -> tuple[Space, list[Target]] | None:
        """The space and the targets the fields describe, or None with each problem beside its field."""
        preset = self.preset()
        ok = preset is not None
        texts: list[str] = []
        for row in self.rows:
            row.message.value = ""
            if row.text is None or preset is None:
                continue
            try:
                Space.parse(preset, [row.text])
                texts.append(row.text)
            except SpaceError as exc:
                row.message.value, ok = messages_html([_field_words(exc)]), False
        goals: list[str] = []
        for target in self.targets:
            target.message.value = ""
            if target.text is None:
                continue
            try:
                parse_targets([target.text])
                goals.append(target.text)
            except TargetError as exc:
                target.message.value, ok = messages_html([_field_words(exc)]), False
        self.space_message.value = ""
        if not ok or preset is None:
            return None
        try:
            space = Space.parse(preset, texts)
            targets = parse_targets(goals)
        except (SpaceError, TargetError) as exc:  # none at all, or one given twice
            self.space_message.value = messages_html([_field_words(exc)])
            return None
        if any(t.name == "depth" for t in targets) and self.levels() is None:
            self.space_message.value = messages_html([gettext(
                "a depth target is read on the ladder of the skill depth section below: fix the ladder there")])
            return None
        return space, targets

    def ladder_for(self, targets: list[Target]) -> list[str]:
        """The ladder a depth target is read on (every candidate plays its matches); none without one."""
        return (self.levels() or []) if any(t.name == "depth" for t in targets) else []

    def refresh_costs(self) -> None:
        """The search's and the depth ladder's cost lines written again (once the fast simulator is compiled:
        :func:`.run_controls.when_compiled`)."""
        self.check()
        self.check_depth()

    def check(self) -> bool:
        """Read every field, show each problem beside it and the cost of the search; whether it can run."""
        read = self.read()
        numbers = unreadable(self.search_budget, self.games, self.trials, self.seed)
        self.run_button.disabled = read is None or bool(numbers) or self.controls.running
        self.precise_button.disabled = self.run_button.disabled or bool(unreadable(self.precision))
        if read is None or numbers:
            self.cost.value = ""
            return False
        space, targets = read
        cost = estimate_search(space, targets, self.policies, self.games.value, self.trials.value,
                               self.ladder_for(targets))
        self.cost.value = escape(gettext(
            "at most {candidates} candidates of the {size} settings, {each} games each = {games} games, {duration} on "
            "one core (racing stops most poor candidates after a quarter of their games)").format(
            candidates=cost.candidates, size=plain_count(space.size), each=plain_count(cost.games_each),
            games=plain_count(cost.games),
            duration=plain_duration(cost.seconds))) + self._waits_words()
        return True

    def _waits_words(self) -> str:
        """While the fast simulator is still to compile: the search waits for it, and why (a few seconds of the engine's
        games a candidate would decide no target), with the compiling's time; meanwhile the preset is measured
        against the targets at once, where the engine plays its games in seconds (no search level, no depth)."""
        if not needs_compiling():
            return ""
        return " " + escape(gettext("The search waits for the fast simulator: a few seconds of the engine's games would "
                                    "decide no candidate.") + " " + compiling_note() + (
            " " + gettext("Meanwhile Run search measures the preset against the targets, from the engine.")
            if self._measures_the_preset_first() else ""))

    def _measures_the_preset_first(self) -> bool:
        """Whether Run search answers first with the preset measured by the engine (the fast simulator compiling)."""
        read = self.read()
        return read is not None and not self.ladder_for(read[1]) and engine_answers_first(self.policies)

    def _search_settings(self) -> tuple:
        """What a search depends on: a refining search runs only while they are those of the first answer."""
        return self.read(), self.policies, self.games.value, self.trials.value, self.seed.value

    def _measure_the_preset(self, space: Space, targets: list[Target], block: bool) -> None:
        """The first answer while the fast simulator compiles: the preset's metrics by the engine in a few seconds, each
        target's verdict on them, then the search itself once the compiled games are ready."""
        start, policies, seed = Position.start(space.preset), self.policies, self.seed.value
        games = engine_first_games(start, policies, self.games.value)
        asked = self._search_settings()
        self.run_button.disabled = self.precise_button.disabled = True
        self.controls.start(gettext("Measuring the preset while the fast simulator compiles..."), compile_first=False)

        def work() -> None:
            try:
                result = analyse(start, policies, "sample", games=games, seed=seed, fast=False,
                                 progress=self.controls.callback)
            except Cancelled:
                self._finish(None, lambda: gettext("Cancelled: the search was not run."))
                return
            metrics = {m.name: m for m in result.metrics()}
            found = verdicts(targets, metrics)

            def said() -> str:
                lines = [gettext("{target}: {estimate}, {verdict}").format(
                    target=target_label(t.name), verdict=found[t.name].words(),
                    estimate=plain_estimate(metrics[t.metric].value, metrics[t.metric].low, metrics[t.metric].high))
                    for t in targets if t.name in found]
                return gettext("A first answer: the preset, {games} games by the engine: {verdicts}. The search runs "
                               "once the fast simulator is ready.").format(games=plain_count(games),
                                                                      verdicts="; ".join(lines))
            self._finish(None, said)
            self.controls.refine_when_compiled(lambda: self.run(block=True), self._search_settings, asked)

        self.controls.launch(work, block)

    def _show_fixed(self) -> None:
        """Where the searches are kept, and the search's budget only for a search level."""
        self.store_note.value = "<small>" + escape(gettext(
            "The finished candidates of every search are kept for this session (a temporary file on the server): "
            "running the same search again continues it.")) + "</small>"
        self.search_budget.layout.display = None if self.level.value == "search" else "none"

    @property
    def store(self) -> str:
        """The journal file every search of this panel is kept in: a temporary folder made on first use and
        removed with the panel (when it is collected, or when the kernel ends), so that sessions do not
        leave their searches behind on the server."""
        if self._store is None:
            folder = tempfile.mkdtemp(prefix="guyenne-balance-")
            weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)
            self._store = pathlib.Path(folder) / "searches.journal"
        return str(self._store)

    @store.setter
    def store(self, path: str) -> None:
        self._store = pathlib.Path(path)

    # ------------------------------------------------------------------ the search
    def run(self, block: bool = True, precision: float | None = None) -> None:
        """Search with the fields' settings, then, with a ``precision``, play the best on until each target's
        interval is that narrow either side (as ``balance --precision``; the search itself continues from the
        store); block=False runs in a background thread (the page stays live)."""
        if self.controls.running or not self.check():
            if not self.controls.running:
                self.controls.reset()  # the bar shows only its own run: none, refused
                self.controls.status.value = messages_html([gettext("Not run: fix the problems shown beside the fields")])
            return
        read = self.read()
        assert read is not None  # check() has just read the same fields
        space, targets = read
        policies, games, trials, seed, store, force = (self.policies, self.games.value, self.trials.value,
                                                       self.seed.value, self.store, self.run_anyway.value)
        ladder = self.ladder_for(targets)
        if self._measures_the_preset_first():
            self._measure_the_preset(space, list(targets), block)
            return
        played_by_the_engine = engine_plays((*policies, *ladder))
        executor = local_pool() if played_by_the_engine and local_cores() > 1 else None
        self.run_button.disabled = self.precise_button.disabled = True
        self._enable_exports(False)
        # the candidates the search plays (the trials asked, fewer when the space has fewer settings), the same
        # count as the progress's "candidate 2 of 4"; the space's size is what they are drawn from
        candidates = estimate_search(space, targets, policies, games, trials, ladder).candidates
        self.controls.start(gettext("Searching {candidates} candidates of the {size} settings...").format(
            candidates=candidates, size=plain_count(space.size)))
        shown = {"candidate": 0}

        def progress(p: SearchProgress) -> bool | None:
            if p.candidate != shown["candidate"]:  # the status names the candidate, the bar counts the games
                shown["candidate"] = p.candidate
                self.controls.status.value = escape(gettext("candidate {number} of {count}: {label}").format(
                    number=p.candidate, count=p.candidates, label=p.label))
            return self.controls.callback(p.played, max(p.planned, 1))

        def work() -> None:
            try:
                result = balance_search(space, targets, policies, games, trials, seed, store, executor, ladder,
                                        progress, precision, force=force)
            except Cancelled:
                self._finish(None, lambda: gettext(
                    "Cancelled: the finished candidates are kept; Run search again continues the search."))
            except TooLong as exc:  # the trials' games, refused before any is played
                refusal = exc  # the exception itself is gone once the handler ends
                self._finish(None, lambda: too_long_words(refusal))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("balance search failed")
                error = str(exc)
                self._finish(None, lambda: gettext("The analysis failed: {error}").format(error=error))
            else:
                self._finish(result, lambda: _summary(result))

        self.controls.launch(work, block)

    def _finish(self, result: SearchResult | None, said: Callable[[], str]) -> None:
        self.controls.finish(result is not None)
        # called from the run's own thread, still alive: check() alone would keep the buttons disabled
        self.run_button.disabled = not self.check()
        self.precise_button.disabled = self.run_button.disabled or bool(unreadable(self.precision))
        self._said = said
        if result is not None:
            # the ladder as typed: the report's command names the session's weights, never a file of the server
            self.result = dataclasses.replace(result, ladder=tuple(self.weights.typed(level) for level in result.ladder))
            self._draw()
            self.best_check.forget()  # its lines checked the search before this one
        self._enable_exports(self.result is not None)
        self.controls.status.value = escape(said())

    @property
    def cancelled(self) -> bool:
        """Whether the last search ended on Cancel."""
        return self.controls.cancelled and not self.controls.running

    def _draw(self) -> None:
        """The kept result's table and figure, in the current language."""
        if self.result is None:
            return
        rows = candidate_rows(self.result)
        head = table_heading(self.result)
        self.table.value = f"<h4>{escape(head)}</h4>" + rows_html(rows, candidate_heads(self.result)) if rows else messages_html(
            [gettext("no candidate could be played: the rules refused every one")])
        self.figures = {"balance-tradeoff": tradeoff_figure(self.result, self.x_axis.value, self.y_axis.value)}
        self.figure_box.show(self.figures)

    def refresh(self) -> None:
        """After a language switch: the cost, the last result's table and figure, the statuses, in the new language
        (drawn again from the kept results: nothing is played again)."""
        if self.ladder.value == self._ladder_written:  # the ladder offered, untouched: in the page's names
            self.ladder.value = self._ladder_written = ",".join(map(level_words, self._offered_ladder))
        self._show_fixed()
        for target in self.targets:
            target.say_meaning()
            target.show_decimals()
        self.check()
        self.check_depth()
        self._draw()
        self._show_depth()
        self.best_check.refresh()
        self.depth_check.refresh()
        self.controls.redraw()
        self.depth_controls.redraw()
        if not self.controls.running and self._said is not None:
            self.controls.status.value = escape(self._said())
        if not self.depth_controls.running and self._depth_said is not None:
            self.depth_controls.status.value = escape(self._depth_said())
        self.export_status.refresh()
        self.download.refresh()

    # ------------------------------------------------------------------ exports
    def _enable_exports(self, on: bool) -> None:
        for button in self.export_buttons.values():
            button.disabled = not on

    def export_files(self, fmt: str) -> dict[str, bytes]:
        """The candidates as CSV, the one-page report (with the skill depth when measured), or the figure in ``fmt``
        (html, svg, png), as file name -> bytes, in the current language."""
        if self.result is None:
            raise ValueError(gettext("nothing to export yet: run an analysis first"))
        if fmt == "csv":
            return {"guyenne-balance-candidates.csv": candidates_csv(self.result).encode("utf-8")}
        if fmt == "report":
            page = balance_report(self.result, depth=self.depth, x=self.x_axis.value, y=self.y_axis.value)
            return {"guyenne-balance-report.html": page.encode("utf-8")}
        with tempfile.TemporaryDirectory(prefix="guyenne-export-") as folder:
            return {p.name: p.read_bytes() for p in export_figures(self.figures, folder, [fmt])}

    def export(self, fmt: str) -> bool:
        """Download the candidates (csv) or the figure; a failure is shown beside the buttons, not raised."""
        try:
            files = self.export_files(fmt)
        except (RuntimeError, OSError, ValueError) as exc:
            error = str(exc)  # the exception itself is gone once the handler ends
            self.export_status.say(lambda: messages_html([gettext("{format} export failed: {error}").format(
                format=fmt.upper(), error=error)]))
            return False
        if len(files) == 1:
            (name, data), = files.items()
        else:
            name, data = f"guyenne-balance-{fmt}.zip", zip_bytes(files)
        self.download.offer(name, data)
        size = len(data)
        self.export_status.say(lambda: escape(gettext("Downloading {name} ({size})").format(name=name, size=plain_size(size))))
        return True

    # ------------------------------------------------------------------ the skill depth
    def levels(self) -> list[str] | None:
        """The ladder's levels, weakest first, as the analysis plays them (``strong@NAME`` resolved to the session's
        weights of that name), or None with the problem beside the field."""
        levels, problems = self.weights.levels(self.ladder.value)  # French names too, as the skill tab reads them
        if not problems and len(levels) < 2:
            problems = [gettext("a ladder needs at least two levels, weakest first (uniform,heuristic)")]
        self.ladder_message.value = messages_html(problems) if problems else ""
        return None if problems else levels

    def check_depth(self) -> bool:
        """Read the ladder and the games, say the cost of each match; whether the depth can be measured."""
        self.depth_check.check()  # the ladder measured is checked under the rule set chosen only
        levels, rules = self.levels(), self.preset()
        ok = levels is not None and not unreadable(self.depth_games) and rules is not None
        self.depth_button.disabled = not ok or self.depth_controls.running
        if not ok or levels is None or rules is None:
            self.depth_cost.value = ""
            return False
        first = self._first_deals(levels, rules)
        if first:  # the engine answers first: its games' cost, then the refining
            cost = ladder_cost(levels, first, rules, fast=False)
            self.depth_cost.value = escape(engine_first_cost("Measure depth", sum(n for _w, _s, n, _t in cost),
                                                             sum(t for _w, _s, _n, t in cost)))
            return True
        lines = [gettext("{stronger} against {weaker}: {games} games (both seats), {duration} on one core").format(
            stronger=level_name(stronger), weaker=level_name(weaker), games=plain_count(games),
            duration=plain_duration(seconds)) for weaker, stronger, games, seconds in ladder_cost(
                levels, self.depth_games.value, rules)] + [compiling_note()]
        self.depth_cost.value = "".join(f"<div>{escape(line)}</div>" for line in lines if line)
        return True

    def _first_deals(self, levels: list[str], rules: Rules) -> int:
        """The deals a match the engine plays for the ladder's first answer while the fast simulator compiles
        (:func:`.run_controls.engine_answers_first`), a few seconds over every match in both seats; 0 once it is
        compiled, or where a level waits for it (a search)."""
        if not engine_answers_first(levels):
            return 0
        start, parts = Position.start(rules), 2 * (len(levels) - 1)
        return min(engine_first_games(start, pair, self.depth_games.value, parts)
                   for pair in zip(levels, levels[1:]))

    @staticmethod
    def _depth_cores(levels: list[str]) -> int:
        """The cores the ladder's games use: the local ones where the engine plays them, else this process (compiled
        games; and a first answer, while the other core compiles)."""
        return local_cores() if engine_plays(levels) and local_cores() > 1 else 1

    def _depth_settings(self) -> tuple:
        """What a depth run depends on: a refining run is played only while they are those of the first answer."""
        return self.preset(), self.ladder.value, self.depth_games.value, self.seed.value

    def run_depth(self, block: bool = True) -> None:
        """Measure the chosen rule set's skill depth; block=False runs in a background thread."""
        if self.depth_controls.running or not self.check_depth():
            if not self.depth_controls.running:
                self.depth_controls.reset()
                self.depth_controls.status.value = messages_html(
                    [gettext("Not run: fix the problems shown beside the fields")])
            return
        # the seed field above serves both runs
        rules, levels, games, seed = self.preset(), self.levels(), self.depth_games.value, self.seed.value
        assert rules is not None and levels is not None  # check_depth() has just read them
        asked, first = self._depth_settings(), self._first_deals(levels, rules)
        played, asked_games = 2 * first * (len(levels) - 1), 2 * games * (len(levels) - 1)
        said = (lambda: gettext("Done")) if not first else (lambda: first_answer_words(played, asked_games))
        games = first or games  # the engine's first answer plays fewer deals
        executor = local_pool() if not first and self._depth_cores(levels) > 1 else None
        self.depth_button.disabled = True
        self.depth_controls.start(gettext("Measuring the skill depth of {rules}...").format(rules=rules),
                                  compile_first=not first)
        self.depth_controls.pace([(n, seconds) for _w, _s, n, seconds in ladder_cost(levels, games, rules,
                                                                                     fast=not first)])

        def work() -> None:
            try:
                depth = skill_depth(rules, levels, games, seed, executor, self.depth_controls.callback,
                                    force=self.run_anyway.value, fast=not first)
            except TooLong as exc:  # the ladder's games, refused before any is played
                refusal = exc
                self._depth_finish(None, lambda: too_long_words(refusal))
            except Cancelled:
                self._depth_finish(None, lambda: gettext("Cancelled: no depth was measured."))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("skill depth failed")
                error = str(exc)
                self._depth_finish(None, lambda: gettext("The analysis failed: {error}").format(error=error))
            else:
                self._depth_finish(depth, said)
                if first:
                    self.depth_controls.refine_when_compiled(lambda: self.run_depth(block=False), self._depth_settings,
                                                             asked)

        self.depth_controls.launch(work, block)

    def _depth_finish(self, depth: Depth | None, said: Callable[[], str]) -> None:
        self.depth_controls.finish(depth is not None)
        self.depth_button.disabled = not self.check_depth()  # as in _finish: this thread still counts as running
        self._depth_said = said
        if depth is not None:
            self.depth = depth
            self._show_depth()
            self.depth_check.forget()  # its lines checked the ladder before this one
        self.depth_controls.status.value = escape(said())

    def _best_verdicts(self) -> list[Verdicts] | str:
        """The best setting's ladder, a depth target's, each level against the one below from the deal of its rules,
        to check against a counter-strategy by the ladder's bar (the search reads its other targets with both sides
        at one level, where no counter-strategy takes a seat from a weaker level); or why there is none."""
        result = self.result
        best = result.best() if result is not None else None
        if result is None or best is None or best.problems:
            return gettext("Run search first: then the best setting's ladder can be checked against a "
                           "counter-strategy.")
        if not result.ladder:
            return gettext("The best setting was searched without a depth target: only a ladder's verdicts (each "
                           "level beating the one below) can be checked against a counter-strategy.")
        try:
            levels = [self.weights.resolve(level) for level in result.ladder]
        except ValueError as exc:  # the session's weights of that name are gone
            return str(exc)
        rules = result.space.rules(best.assignment)
        return [Verdicts(Position.start(rules), pairs_below(levels), BEATS, result.seed,
                         lambda: gettext("the best setting, {rules}:").format(rules=rules))]

    def _depth_verdicts(self) -> list[Verdicts] | str:
        """The ladder's rungs to check against a counter-strategy (each level beating the one below by the ladder's
        bar), from the deal of the rule set it was measured under; or why there are none yet."""
        if self.depth is None:
            return gettext("Measure depth first: then each rung of the ladder can be checked against a "
                           "counter-strategy.")
        rules = self.preset()
        if rules is None or str(rules) != self.depth.rules:
            return gettext("Measure depth again: the ladder shown was measured under another rule set.")
        return [Verdicts(Position.start(rules), self.depth.rungs(), BEATS, self.seed.value)]

    def _show_depth(self) -> None:
        d = self.depth
        if d is None:
            return
        chain = d.chain_text()
        pooled = gettext("the weaker level wins {wins} of the games; luck share {luck}").format(
            wins=_shown(d.weaker_wins), luck=_shown(d.luck))
        self.depth_result.value = (f"<div><b>{escape(d.rules)}</b>: {escape(chain)}</div><div>{escape(pooled)}</div>"
                                   + rows_html(depth_rows(d)))


def _shown(m: Any) -> str:
    return plain_estimate(m.value, m.low, m.high)


def _summary(result: SearchResult) -> str:
    """The status after a search, in the current language."""
    tried = gettext("{count} candidates tried ({resumed} from the store), {played} games in {seconds} s").format(
        count=len(result.candidates), resumed=result.resumed, played=plain_count(result.played),
        seconds=plain_count(round(result.seconds, 1)))  # 12.3 s, 12,3 s
    met = len(result.ranked())
    said = tried + ". " + (ngettext("{count} meets every target (its 95% intervals inside the ranges).",
                                    "{count} meet every target (their 95% intervals inside the ranges).", met).format(
        count=met) if met else gettext(
        "None meets every target yet: a target is met when its whole 95% interval lies inside its range."))
    best = result.best()
    if result.precision is not None and best is not None:
        said += " " + (gettext("The best is known to ±{precision} after {games} games.") if best.precise else gettext(
            "The best is not known to ±{precision} after {games} games: the most a refinement plays.")).format(
            precision=plain_count(result.precision), games=plain_count(best.games))
    return said

