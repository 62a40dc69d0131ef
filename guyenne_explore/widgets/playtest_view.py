"""The Play tab's summary of a playtest: the games kept, read against the bots (:func:`..analysis.playtest_report`).

The finished games of the games folder are listed, all chosen; the section says what reading them costs before
it starts (the decisions and draws left to read at the search's budget, the games read before, and the bots'
own games), shows its progress with Cancel while it reads, then each player's accuracy with its interval and
the level they play most like, and the report's sentences in the current language.  A language switch redraws
the kept report: nothing is read again.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..analysis import Cancelled, level_name
from ..analysis.playtest import LEVELS, PlaytestError, PlaytestReport, budget_of, playtest_report, reading_cost
from ..analysis.studies.skill import cost_line
from ..analysis.studies.style import style_cost
from ..i18n import N_, gettext, ngettext, plain_count, plain_duration
from ..engine import GameRecord, read_records
from ..render.playtest_report import game_label, players_table
from .decision_review import DecisionReview
from .forms import NumberField, messages_html, unreadable
from .guard import guarded, log
from .run_controls import STEPS, RunControls

#: the section's fixed texts, for extraction (the language switch looks each up in the catalogue)
LABELS = (N_("<h4>Read the games</h4>"), N_("Games"), N_("Budget"), N_("Bot games"), N_("Read the games"),
          N_("the search's rollouts a decision: search:400"))


class PlaytestView(w.VBox):
    """The games kept in ``folder``, read against the bots on request, and what they say of each player."""

    def __init__(self, folder: Path, **kwargs: Any) -> None:
        self.folder = folder
        self.chosen = w.SelectMultiple(description="Games", rows=4, layout=w.Layout(width="520px"))
        self.budget = w.Text(value="search:400", description="Budget", continuous_update=False,
                             tooltip="the search's rollouts a decision: search:400", layout=w.Layout(width="260px"))
        self.bot_games = NumberField("Bot games", 200, 1, 100_000)
        self.cost = w.HTML()
        self.cost.add_class("guyenne-playtest-cost")
        self.read_button = w.Button(description="Read the games", button_style="primary", icon="play")
        self.controls = RunControls()
        self.sentences = w.HTML()
        self.table = w.HTML()
        self.review = DecisionReview()  # where the players lost, each decision on a table
        self.report: PlaytestReport | None = None
        self.records: dict[str, GameRecord] = {}
        self.bad: list[tuple[str, str]] = []
        self.read_button.on_click(guarded(self.controls.status)(lambda _b: self.read(block=False)))
        for field in (self.chosen, self.budget, self.bot_games.box):
            field.observe(guarded(self.controls.status)(lambda _c: self.check()), names="value")
        super().__init__([w.HTML("<h4>Read the games</h4>"), self.chosen,
                          w.HBox([self.budget, self.bot_games], layout=w.Layout(flex_flow="row wrap")),
                          self.cost, self.controls.box(self.read_button), self.controls.status, self.table,
                          self.sentences, self.review], **kwargs)
        self.add_class("guyenne-playtest")
        self.offer()

    def offer(self) -> None:
        """List the finished games of the folder (a newly finished one chosen with the others); the records that
        cannot be read are named under the cost, with why."""
        good, self.bad = read_records([self.folder]) if self.folder.is_dir() else ([], [])
        before = set(self.records)
        self.records = {Path(name).name: record for name, record in good}
        kept = [name for name in self.chosen.value if name in self.records]
        # each game by its date and players (its file's name told a person nothing)
        self.chosen.options = [(game_label(record), name) for name, record in self.records.items()]  # (empties the choice)
        self.chosen.value = kept + [name for name in self.records if name not in before]
        self.check()

    def _budget(self) -> int | None:
        """The rollouts a decision, or None with the problem in the status line."""
        try:
            return budget_of(self.budget.value.strip())
        except PlaytestError as exc:
            self.controls.status.value = messages_html([str(exc)])
            return None

    def _named(self) -> list[tuple[str, GameRecord]]:
        return [(name, self.records[name]) for name in self.chosen.value if name in self.records]

    def check(self) -> bool:
        """Say what reading the chosen games costs, before it starts; whether they can be read."""
        named, budget = self._named(), self._budget()
        ok = bool(named) and budget is not None and not unreadable(self.bot_games)
        self.read_button.disabled = not ok or self.controls.running
        refused = "".join(f"<div class='guyenne-refused'>{escape(f'{Path(f).name}: {why}')}</div>" for f, why in self.bad)
        if not ok or budget is None:
            self.cost.value = escape(gettext("No finished game to read yet.")) + refused if not named else refused
            return False
        decisions, draws, cached, seconds = reading_cost([r for _n, r in named], budget)
        lines = [ngettext("{games} game ({cached} read before): {decisions} decisions and {draws} draws to read at "
                          "{budget}, {time}", "{games} games ({cached} read before): {decisions} decisions and {draws} "
                          "draws to read at {budget}, {time}", len(named)).format(
                             games=plain_count(len(named)), cached=plain_count(cached),
                                                    decisions=plain_count(decisions), draws=plain_count(draws),
                                                    budget=self.budget.value.strip(), time=plain_duration(seconds))]
        lines += [cost_line(level_name(level), games, 1, bot_seconds)
                  for level, games, bot_seconds in style_cost(LEVELS, self.bot_games.value, [named[0][1].start.rules])]
        self.cost.value = "".join(f"<div>{escape(line)}</div>" for line in lines) + refused
        if not self.controls.running:
            self.controls.status.value = ""
        return True

    def read(self, block: bool = True) -> None:
        """Read the chosen games and show the report; block=False reads in a background thread (Cancel stops it
        between two events read)."""
        if self.controls.running or not self.check():
            return
        named, budget, bot_games = self._named(), self._budget(), self.bot_games.value
        assert budget is not None  # check() has just read it
        self.read_button.disabled = True
        # the bar counts the decisions and draws read (a game has dozens)
        self.controls.start(ngettext("Reading {games} game...", "Reading {games} games...", len(named)).format(
            games=plain_count(len(named))), counting=STEPS)

        def work() -> None:
            try:
                report = playtest_report(named, LEVELS, budget, bot_games=bot_games, bad=self.bad,
                                         on_step=self.controls.callback)
            except Cancelled:
                self._finish(None, gettext("Cancelled: the summary below is from the previous reading.")
                             if self.report is not None else gettext("Cancelled: no game has been read yet."))
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("playtest reading failed")
                self._finish(None, gettext("The reading failed: {error}").format(error=exc))
            else:
                self._finish(report, gettext("Done"), dict(named))

        self.controls.launch(work, block)

    def _finish(self, report: PlaytestReport | None, said: str, records: dict[str, GameRecord] | None = None) -> None:
        """The run's end: ``report`` (None when it was cancelled or failed) of ``records`` by their names."""
        self.controls.finish(report is not None)
        if report is not None:
            self.report = report
            self._show()
            self.review.show(report, records or {})
        self.read_button.disabled = not self.check()
        self.controls.status.value = escape(said)

    def _show(self) -> None:
        """The kept report's players and sentences, in the current language."""
        if self.report is None:
            return
        self.table.value = players_table(self.report)
        self.sentences.value = "<ul>" + "".join(f"<li>{escape(s)}</li>" for s in self.report.sentences()) + "</ul>"

    def refresh(self) -> None:
        """After a language switch: the cost, the players and the sentences in the new language."""
        self.check()
        self._show()
        self.review.refresh()
        self.controls.redraw()
