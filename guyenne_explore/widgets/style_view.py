"""How they play: the skill levels tab's section on what each level does differently (:func:`..analysis.play_styles`).

Each chosen level plays the rule sets chosen above against itself, from the deal; the section says the
cost before the run, shows its progress with the time left and stops on Cancel (the tab's
:class:`.run_controls.RunControls`), then writes the sentences a designer reads (only what the 95%
intervals support), the figures by level and rule set, the table of every measure with its interval, and
offers them as CSV or JSON downloads.  A language switch redraws the kept results: nothing is played again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from html import escape
from typing import Any

import ipywidgets as w

from ..analysis import Cancelled, PolicySpec, TooLong, level_name, to_saved
from ..analysis.planning import engine_first_games
from ..analysis.sampling.warm import compiling_note
from ..analysis.studies.skill import cost_line, level_words
from ..analysis.studies.style import STYLE_LEVELS, PlayStyle, play_styles, style_cost
from ..i18n import N_, gettext, plain_count
from ..render.style import style_csv, style_figures, style_tables
from ..engine import Position, Rules
from .analysis_panel import align_labels
from .exports import offer_file
from .files import Download
from .forms import NumberField, messages_html, unreadable
from .guard import guarded, log
from .run_controls import (RunControls, engine_answers_first, engine_first_cost, first_answer_words, run_anyway_box,
                           too_long_words)
from .language import SaidLine
from .plot_view import FigureBox
from .session_weights import SESSION, SessionWeights, weights_upload

#: the section's fixed texts, for extraction (the language switch looks each up in the catalogue)
LABELS = (
    N_("<h4>How they play</h4>"), N_("Levels"), N_("Games a level"), N_("Compare how they play"),
    N_("levels weakest first, separated by commas: uniform,heuristic,strong"), N_("CSV (every measure)"),
    N_("JSON"), N_("download every measure of every level as CSV"), N_("download the results as JSON"),
    N_("<small>each level against itself, from the deal, under the rule sets chosen above</small>"),
    N_("the levels ticked above"), N_("untick to type the levels yourself (counters, uploaded weights)"),
)
#: a level played with weights that are no session's named weights (strong trained for the variant, in the user's
#: cache): named so in the results and their downloads, which never name a server file
TRAINED_WEIGHTS = "variant"


class StyleSection(w.VBox):
    """Plays each level against itself under the chosen rule sets and shows how they play differently.

    ``rule_sets()`` gives the rule sets chosen in the tab with their labels; ``seed`` is the tab's seed field;
    ``weights`` the session's weights a level ``strong@NAME`` names (never a file: see :mod:`.session_weights`);
    ``run_anyway`` the tab's box that confirms a run past the time limit (its own when the tab gives none)."""

    #: what a saved session keeps of the last run, read back as this type (see .session): each rule set's styles
    SAVED = {"styles": list[PlayStyle]}

    def __init__(self, rule_sets: Callable[[], list[tuple[str, Rules]]], seed: NumberField,
                 weights: SessionWeights = SESSION, run_anyway: w.Checkbox | None = None,
                 ticked: Callable[[], list[str]] | None = None, **kwargs: Any) -> None:
        self.rule_sets, self.seed, self.weights, self.ticked = rule_sets, seed, weights, ticked
        self.run_anyway = run_anyway if run_anyway is not None else run_anyway_box()
        self.levels_text = w.Text(value=",".join(STYLE_LEVELS), description="Levels", continuous_update=False,
                                  tooltip="levels weakest first, separated by commas: uniform,heuristic,strong",
                                  layout=w.Layout(width="320px"))
        # the tab's ticked levels, followed until unticked (their boxes above said one thing, the field another); a
        # value written into the field that is not the one shown unticks it (a session, a script)
        self.follow = w.Checkbox(value=ticked is not None, description="the levels ticked above", indent=False,
                                 tooltip="untick to type the levels yourself (counters, uploaded weights)",
                                 layout=w.Layout(display=None if ticked is not None else "none", width="auto"))
        self._following = ""  # the field's value while it shows the ticked levels
        self._showing = False  # while the section writes the ticked levels into the field (no check of its own)
        self.levels_message = w.HTML()
        self.levels_message.add_class("guyenne-field-message")
        self.weights_upload = weights_upload(weights, self.check)
        self.games = NumberField("Games a level", 400, 1, 1_000_000)
        align_labels(self.levels_text, self.games, width="136px")  # room for French's "Parties par niveau"
        self.cost = w.HTML()
        self.run_button = w.Button(description="Compare how they play", button_style="primary", icon="play")
        self.controls = RunControls()
        self.sentences = w.HTML()
        self.figure_box = FigureBox(views=5)
        self.table = w.HTML()
        self.download = Download()
        self.export_buttons = {fmt: w.Button(description=label, disabled=True, tooltip=tip, layout=w.Layout(width="auto"))
                               for fmt, label, tip in (("csv", "CSV (every measure)",
                                                        "download every measure of every level as CSV"),
                                                       ("json", "JSON", "download the results as JSON"))}
        self.export_status = SaidLine()
        self.styles: list[PlayStyle] | None = None
        self._said: Callable[[], str] | None = None  # the status after the last run, as a function of the language

        self.run_button.on_click(guarded(self.controls.status)(lambda _: self.run(block=False)))
        for fmt, button in self.export_buttons.items():
            button.on_click(guarded(self.export_status)(lambda _b, fmt=fmt: self.export(fmt)))
        self.levels_text.observe(guarded(self.controls.status)(lambda _: self._typed()), names="value")
        self.follow.observe(guarded(self.controls.status)(lambda _: self._followed()), names="value")
        for field in (self.games.box, self.seed.box):
            field.observe(guarded(self.controls.status)(lambda _: self.check()), names="value")
        super().__init__([
            w.HTML("<h4>How they play</h4>"),
            w.HTML("<small>each level against itself, from the deal, under the rule sets chosen above</small>"),
            w.HBox([self.levels_text, self.follow, self.levels_message],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.weights_upload,
            self.games, self.cost, self.controls.box(self.run_button), self.controls.status,
            self.sentences, self.figure_box, self.table,
            w.HBox([w.Label("Download:"), *self.export_buttons.values(), self.download],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")), self.export_status,
        ], **kwargs)
        self.add_class("guyenne-style")
        self.check()

    # ------------------------------------------------------------------ the fields
    def levels(self) -> list[str] | None:
        """The levels, weakest first, as the analysis plays them (``strong@NAME`` resolved to the session's weights
        of that name; the tab's ticked levels while :attr:`follow` is ticked), or None with the problem beside the
        field."""
        if self.follow.value and self.ticked is not None:
            ticked = self.ticked()
            self._show_ticked(ticked)
            self.levels_message.value = "" if ticked else messages_html([gettext("tick at least one level above")])
            return ticked or None
        # a level by its name in the page's language too ("uniforme,forte"): the figures and boxes say them so
        levels, problems = self.weights.levels(self.levels_text.value)
        if not levels and not problems:
            problems = [gettext("name at least one level: uniform,heuristic,strong")]
        self.levels_message.value = messages_html(problems) if problems else ""
        return None if problems else levels

    def _show_ticked(self, ticked: list[str]) -> None:
        """The field shows the ticked levels, greyed (a trained level by its words, never its file); the check that
        writes them goes on, and the write asks for no other."""
        # in the page's language ("uniforme,forte"), as the boxes above and the figures name them
        self._following = ",".join(level_words(self.exported(level)) for level in ticked)
        self._showing = True
        try:
            self.levels_text.value, self.levels_text.disabled = self._following, True
        finally:
            self._showing = False

    def _typed(self) -> None:
        """A value written into the field that is not the ticked levels shown stops following them (its box's
        change checks the fields); else the fields are checked."""
        if self._showing:
            return
        if self.follow.value and self.ticked is not None and self.levels_text.value != self._following:
            self.follow.value = False
        else:
            self.check()

    def _followed(self) -> None:
        """The box ticked or unticked: the field greyed while it follows, typed into again when not; then checked."""
        self.levels_text.disabled = self.follow.value and self.ticked is not None
        self.check()

    def exported(self, level: str) -> str:
        """A level as the results and their downloads name it: as typed (:meth:`SessionWeights.typed`), a trained
        level's file as :data:`TRAINED_WEIGHTS`."""
        typed = self.weights.typed(level)
        spec = PolicySpec.parse(typed)
        return str(replace(spec, weights=TRAINED_WEIGHTS)) if spec.weights and typed == level else typed

    def check(self) -> bool:
        """Read the fields, say the cost of each level's games; whether the comparison can run."""
        levels = self.levels()
        chosen = self.rule_sets()
        ok = levels is not None and not unreadable(self.games, self.seed) and bool(chosen)
        self.run_button.disabled = not ok or self.controls.running
        if not ok or levels is None:
            self.cost.value = ""
            return False
        rule_sets, first = [r for _label, r in chosen], self._first_games(levels, chosen)
        if first:  # the engine answers first: its games' cost, then the refining
            cost = style_cost(levels, first, rule_sets, fast=False)
            self.cost.value = escape(engine_first_cost("Compare how they play", sum(n for _lv, n, _s in cost),
                                                       sum(s for _lv, _n, s in cost)))
            return True
        self.cost.value = "".join(
            "<div>" + escape(cost_line(level_name(level), games, len(chosen), seconds)) + "</div>"
            for level, games, seconds in style_cost(levels, self.games.value, rule_sets)) + (
            f"<div>{escape(compiling_note())}</div>" if compiling_note() else "")
        return True

    def _first_games(self, levels: list[str], chosen: list[tuple[str, Rules]]) -> int:
        """The games a level the engine plays for its first answer while the fast simulator compiles
        (:func:`.run_controls.engine_answers_first`), a few seconds over every level and rule set; 0 once it is
        compiled, or where a level waits for it (a search)."""
        if not engine_answers_first(levels):
            return 0
        parts = len(levels) * len(chosen)
        return min(engine_first_games(Position.start(rules), (level, level), self.games.value, parts)
                   for level in levels for _label, rules in chosen)

    def _settings(self) -> tuple:
        """What a run depends on: a refining run is played only while they are those of the first answer."""
        return self.levels_text.value, self.games.value, self.seed.value, tuple(self.rule_sets())

    # ------------------------------------------------------------------ the run
    def run(self, block: bool = True) -> None:
        """Play each level under each chosen rule set; block=False runs in a background thread."""
        if self.controls.running or not self.check():
            if not self.controls.running:
                self.controls.status.value = messages_html([gettext("Not run: fix the problems shown beside the fields")])
            return
        levels, chosen = self.levels(), self.rule_sets()
        assert levels is not None  # check() has just read them
        games, seed = self.games.value, self.seed.value
        settings, first = self._settings(), self._first_games(levels, chosen)
        played, asked = first * len(levels) * len(chosen), games * len(levels) * len(chosen)
        said = (lambda: gettext("Done")) if not first else (lambda: first_answer_words(played, asked))
        games = first or games  # the engine's first answer plays fewer games
        self.run_button.disabled = True
        self._enable_exports(False)
        self.controls.start(gettext("Playing {games} games a level...").format(games=plain_count(games)),
                            compile_first=not first)
        # the time left by each part's cost, in the order played: every level under one rule set, then the next
        self.controls.pace([(n, seconds) for _label, rules in chosen
                            for _level, n, seconds in style_cost(levels, games, [rules], fast=not first)])

        def work() -> None:
            try:
                styles = play_styles([rules for _label, rules in chosen], levels, games, seed, self.controls.callback,
                                     force=self.run_anyway.value, fast=not first)
            except TooLong as exc:  # every level's games together, refused before any is played
                refusal = exc
                self._finish(None, lambda: too_long_words(refusal))
            except Cancelled:
                had = self.styles is not None
                self._finish(None, lambda: gettext("Cancelled: the figures below are from the previous run.") if had
                             else gettext("Cancelled: no run has finished yet, so there are no figures."))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("style run failed")
                error = str(exc)
                self._finish(None, lambda: gettext("The analysis failed: {error}").format(error=error))
            else:
                # each level as typed: the results and their downloads name no file of the server
                named = [replace(style, rules=label, levels=tuple(replace(level, level=self.exported(level.level))
                                                                  for level in style.levels))
                         for style, (label, _rules) in zip(styles, chosen)]
                self._finish(named, said)
                if first:
                    self.controls.refine_when_compiled(lambda: self.run(block=False), self._settings, settings)

        self.controls.launch(work, block)

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps (the seed is the tab's, kept with the skill levels)."""
        return {"follow": self.follow, "levels": self.levels_text, "games": self.games}

    def saved_results(self) -> dict[str, Any]:
        """The last run as session data (:data:`SAVED`); nothing before a run."""
        return {} if self.styles is None else {"styles": to_saved(self.styles)}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The last run as a session kept it (checked: :data:`SAVED`), drawn again (nothing is played again)."""
        if "styles" in saved:
            self._finish(saved["styles"], lambda: gettext("Done"))

    def _finish(self, styles: list[PlayStyle] | None, said: Callable[[], str]) -> None:
        self.controls.finish(styles is not None)
        self._said = said
        if styles is not None:
            self.styles = styles
            self._show()
        self._enable_exports(self.styles is not None)
        # called from the run's own thread, still alive: check() alone would keep the button disabled
        self.run_button.disabled = not self.check()
        self.controls.status.value = escape(said())

    def _show(self) -> None:
        """The kept results' sentences, figures and table, in the current language."""
        if self.styles is None:
            return
        self.sentences.value = "".join("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in s.sentences()) + "</ul>"
                                       for s in self.styles)
        self.figure_box.show(style_figures(self.styles))
        self.table.value = style_tables(self.styles)

    def refresh(self) -> None:
        """After a language switch: the cost, the sentences, figures and table, and the status, in the new language."""
        self.check()
        self._show()
        self.controls.redraw()
        if not self.controls.running and self._said is not None:
            self.controls.status.value = escape(self._said())
        self.export_status.refresh()
        self.download.refresh()

    # ------------------------------------------------------------------ exports
    def _enable_exports(self, on: bool) -> None:
        for button in self.export_buttons.values():
            button.disabled = not on

    def export_files(self, fmt: str) -> dict[str, bytes]:
        """Every measure as CSV, or the results as JSON, as file name -> bytes."""
        if self.styles is None:
            raise ValueError(gettext("nothing to export yet: run an analysis first"))
        if fmt == "csv":
            return {"guyenne-style.csv": style_csv(self.styles).encode("utf-8")}
        return {"guyenne-style.json": json.dumps([s.to_json() for s in self.styles], indent=1).encode("utf-8")}

    def export(self, fmt: str) -> bool:
        """Download the measures; a failure is shown beside the buttons, not raised."""
        return offer_file(lambda: self.export_files(fmt), fmt, self.download, self.export_status)
