"""Strong, trained for this variant: the training's cost before it starts, then its progress, time left and Cancel.

The variant lab and the skill levels tab offer the learned policy ``strong`` (the package's weights:
its preset's, or under a variant that of the preset it was made from) and "strong, trained for this variant".  Choosing the
latter shows what training for the variant costs, measured here (an iteration's games timed on this machine)
before anything starts; Train then runs the natural gradient of strong's own games from the preset's weights
(:func:`..analysis.natural`, ``guyenne-explore improve --method natural``) in the panel's background thread with the
shared :class:`.run_controls.RunControls` (bar, time left, Cancel: the run stops within a chunk of its games, under a
second).  The natural gradient, not CMA-ES (``guyenne-explore train``, the panels' method before), because it keeps
the preset's weights unless an iteration scores better against its whole league, where CMA-ES, scored against the
heuristic and its start alone, can learn to beat its start and lose to others.  Measured here (2026-11-30, compiled
games, 4,000 a seat, 95% intervals; the natural gradient's defaults on one core, CMA-ES's ten minutes on two):

- advanced with hands of 7: the natural gradient's weights beat CMA-ES's 0.527 [0.516, 0.538]; against
  ``strong-linear`` they score 0.895 [0.888, 0.901], CMA-ES's 0.779 [0.769, 0.788] and the preset's 0.820;
- classic2021 with 5 castles: no iteration beat the preset's weights, which the panel keeps (0.706 [0.696, 0.716]
  against ``strong-linear``, 0.929 against the heuristic); CMA-ES's beat them 0.614 [0.603, 0.624] but score 0.684
  [0.674, 0.695] against ``strong-linear`` and 0.920 against the heuristic.

``benchmarks/bench_weights.py --rules V --file NATURAL.json --against CMA.json --games 4000`` (and ``--against`` the
linear file of the preset) prints the same on other seeds: 0.521, then 0.892 and 0.780 against ``strong-linear``,
under advanced with hands of 7; 0.380, then 0.715 and 0.676, under classic2021 with 5 castles.  The two files come
from ``guyenne-explore improve --method natural --rules V --out NATURAL.json`` and ``guyenne-explore train --rules V
--minutes 10 --workers 2 --out CMA.json``.

The weights are kept in the
user's cache under the rules' fingerprint (:func:`..analysis.cache_file`), so the variant is trained
once; a cancelled run keeps its state beside them and Train continues it, and Train again adds as many iterations.
The panels then play ``strong@FILE``.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any, Callable

import ipywidgets as w

from ..analysis import PolicySpec
from ..analysis.training import (NATURAL_DEFAULTS, NaturalRun, cache_file, natural, natural_iteration_seconds,
                                 read_model, trained_preset, write_natural)
from ..i18n import N_, current_language, gettext, ngettext, plain_count, plain_duration
from ..engine import Rules
from .guard import guarded, log
from .language import relabel
from .run_controls import RunControls
from .session_weights import SESSION, SessionWeights

#: the option of the panels' policy choices that plays strong with weights trained for the variant
TRAINED = N_("strong, trained for this variant")
#: an iteration's seconds measured here, by rules and games an iteration: both panels' trainings say the one pace
_PACES: dict[tuple[Rules, int], float] = {}


class StrongTraining:
    """The training of strong for one rule set, as a panel shows it: the cost, Train, progress and Cancel.
    Weights trained are offered to the level boxes as ``strong@trained-FINGERPRINT`` (in ``weights``)."""

    def __init__(self, weights: SessionWeights = SESSION) -> None:
        self.weights = weights
        self.controls = RunControls()
        self.train_button = w.Button(description="Train strong for this variant", icon="graduation-cap",
                                     layout=w.Layout(width="auto"))
        self.cost = w.HTML()
        self.rules: Rules | None = None
        #: the training's iterations and games an iteration (the command's defaults)
        self.iterations, self.games = int(NATURAL_DEFAULTS["iterations"]), int(NATURAL_DEFAULTS["games"])
        self.on_trained: Callable[[], None] = lambda: None
        #: told True when a run starts and False when it ends, so the panel keeps its other runs off meanwhile
        self.on_busy: Callable[[bool], None] = lambda busy: None
        #: whether a run is under way (set by the run itself: its thread is still alive while it reports its end)
        self.busy = False
        self.promised: float | None = None  # the pace shown before Train: an iteration's seconds, which Train then
        # counts on until its first iteration is timed (a second measure may differ)
        self._said: Callable[[], str] | None = None  # the last run's outcome, as a function of the language
        # its parts join the page only while shown: a hidden Cancel or Train would be one more button of that name
        self.parts = (self.cost, self.controls.box(self.train_button), self.controls.status)
        self.box = w.VBox([])
        self.box.add_class("guyenne-training")
        self.train_button.on_click(guarded(self.controls.status)(lambda _: self.train(block=False)))

    @property
    def file(self) -> Path | None:
        """Where the weights trained for the rules are kept (None without rules)."""
        return None if self.rules is None else cache_file(self.rules)

    @property
    def state(self) -> Path | None:
        """Where a run for the rules is kept, after each iteration, for Train to continue (None without rules)."""
        return None if self.file is None else self.file.with_name(self.file.name + ".natural")

    def policy(self) -> str | None:
        """The policy that plays the weights trained for the rules: ``strong@FILE`` once trained here, else
        ``strong`` for a preset the package ships weights trained for; None while untrained."""
        if self.rules is None or self.file is None:
            return None
        if self.file.exists():
            return str(PolicySpec("strong", weights=str(self.file)))
        return "strong" if trained_preset(self.rules) is not None else None

    def show(self, rules: Rules | None, wanted: bool) -> None:
        """Show the training for ``rules`` when ``wanted`` (the trained option is chosen), with its cost or its
        weights when trained; hidden otherwise."""
        if self.busy:
            return
        if rules != self.rules:  # another variant: the last run's outcome was not about it
            self._said, self.controls.status.value = None, ""
        self.rules = rules
        self.box.children = self.parts if wanted and rules is not None else ()
        if wanted and rules is not None:
            for part in self.parts:  # hidden during a language switch, they missed its relabelling
                relabel(part, current_language())
            self.describe()
            if self._said is not None:
                self.controls.status.value = escape(self._said())

    def describe(self) -> None:
        """The trained weights' record, or the cost of training them (measured here, before anything starts)."""
        assert self.rules is not None and self.file is not None and self.state is not None
        if self.file.exists():
            self.weights.add_trained(f"trained-{self.file.stem}", self.file)
            self.cost.value = escape(self._record(read_model(self.file).trained))
            self.train_button.description = gettext("Train again")
            self.promised = None  # Train again measures its cost when pressed
            return
        preset = trained_preset(self.rules)
        shipped = "" if preset is None else gettext(
            "These are the rules of the preset {preset}: strong already plays weights trained for them, shipped with "
            "the package, and so does this option; train here only to have weights of your own. ").format(preset=preset)
        saved, done = "", 0
        if self.state.exists():
            try:
                done = NaturalRun.read(self.state).iteration
            except ValueError as exc:  # (its words name the file and the problem; Train would say the same)
                saved = gettext("A saved run cannot be continued: {error}. ").format(error=exc)
            else:
                saved = ngettext("A cancelled run of {count} iteration is kept for this variant: Train continues it. ",
                                 "A cancelled run of {count} iterations is kept for this variant: Train continues it. ",
                                 done).format(count=done)
        if (self.rules, self.games) not in _PACES:  # the pace is timed on games now: a few seconds with no cost shown
            self.cost.value = escape(shipped + saved + gettext("Measuring how fast the training runs here (a few "
                                                               "seconds)..."))
        pace = self.promised = self.estimate()
        self.cost.value = escape(shipped + saved + ngettext(
            "Training strong for this variant takes {duration} on one core: {iterations} iteration of {games} of its "
            "own games, in which it tries other moves in place of its own and keeps what wins more (at the pace "
            "measured here). Its weights are then kept for this variant.",
            "Training strong for this variant takes {duration} on one core: {iterations} iterations of {games} of its "
            "own games, in which it tries other moves in place of its own and keeps what wins more (at the pace "
            "measured here). Its weights are then kept for this variant.", self.iterations - done).format(
            duration=plain_duration(pace * (self.iterations - done)), iterations=self.iterations - done,
            games=plain_count(self.games)))
        self.train_button.description = gettext("Train strong for this variant")

    @staticmethod
    def _record(trained: dict[str, Any]) -> str:
        """What the weights file says of its training: the natural gradient's iterations, or (weights trained here
        by an earlier version) CMA-ES's generations."""
        if trained.get("method") == "natural":
            iterations = int(trained.get("iterations", 0))
            text = ngettext(  # a file that names its league's counters was scored against them too
                "Strong is trained for this variant ({iterations} iteration of the natural gradient of its own games, "
                "seed {seed}, score {score} against its league: its starting weights, strong-linear, the heuristic and "
                "the counters): its weights play.",
                "Strong is trained for this variant ({iterations} iterations of the natural gradient of its own games, "
                "seed {seed}, score {score} against its league: its starting weights, strong-linear, the heuristic and "
                "the counters): its weights play.", iterations) if "tell-reader" in trained.get("league", ()) else ngettext(
                "Strong is trained for this variant ({iterations} iteration of the natural gradient of its own games, "
                "seed {seed}, score {score} against its league: its starting weights, strong-linear and the heuristic): "
                "its weights play.",
                "Strong is trained for this variant ({iterations} iterations of the natural gradient of its own games, "
                "seed {seed}, score {score} against its league: its starting weights, strong-linear and the heuristic): "
                "its weights play.", iterations)
            return text.format(iterations=iterations, seed=trained.get("seed"), score=trained.get("league_score"))
        return gettext(
            "Strong is trained for this variant ({generations} generations, seed {seed}, score {score} against the "
            "heuristic and its starting weights on its validation games): its weights play.").format(
            generations=trained.get("generations"), seed=trained.get("seed"), score=trained.get("validation_score"))

    def estimate(self) -> float:
        """An iteration's seconds here, timed on a chunk of its games (:func:`..analysis.natural_iteration_seconds`)
        once for the rules in this process: timed again at each showing (a language switch, a Cancel) it said 5, 7,
        11 and 15 minutes for one variant on a loaded machine, and a cost that changes under the reader tells nothing."""
        assert self.rules is not None
        key = (self.rules, self.games)
        if key not in _PACES:
            _PACES[key] = natural_iteration_seconds(self.rules, self.games)
        return _PACES[key]

    def train(self, block: bool = True) -> None:
        """Train for the rules: the iterations the cost promised, continuing a cancelled run of theirs; Train again
        (weights kept) continues the run kept with as many iterations again."""
        if self.rules is None or self.file is None or self.state is None or self.busy:
            return
        rules, out, state = self.rules, self.file, self.state
        resumed = NaturalRun.read(state) if state.exists() else None
        done = resumed.iteration if resumed is not None else 0
        iterations = done + self.iterations if out.exists() else self.iterations
        pace = self.promised if self.promised is not None else self.estimate()
        seed = resumed.settings.seed if resumed is not None else int(NATURAL_DEFAULTS["seed"])
        self.train_button.disabled, self.busy = True, True
        self.on_busy(True)
        self.controls.start(ngettext("Training strong for this variant: {count} iteration (the bar counts its games)...",
                                     "Training strong for this variant: {count} iterations (the bar counts their "
                                     "games)...", iterations - done).format(count=plain_count(iterations - done)))
        total = (iterations - done) * self.games

        def progress(p: Any) -> bool | None:
            answer = self.controls.callback((p.iteration - done) * self.games + min(p.game, self.games), total)
            # the run's own time left once it has timed its games, before that the pace measured for the cost
            left = p.seconds_left if p.seconds_left is not None else max(0.0, pace * (iterations - done) - p.seconds)
            self.controls.left.value = gettext("{duration} left").format(duration=plain_duration(left))
            return answer

        def work() -> None:
            try:
                state.parent.mkdir(parents=True, exist_ok=True)  # (the user's cache: made at its first use)
                result = natural(rules, seed, iterations, self.games, progress=progress, state=state, resume=resumed,
                                 pace=pace)
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("training failed")
                error = str(exc)
                self._done(False, lambda: gettext("The training failed: {error}").format(error=error))
                return
            if result.cancelled:
                count = NaturalRun.read(state).iteration if state.exists() else 0
                self.controls.rewind((count - done) * self.games, total)  # the bar says what Train continues from
                self._done(False, lambda: ngettext("Training cancelled after {count} iteration: Train continues it.",
                                                   "Training cancelled after {count} iterations: Train continues it.",
                                                   count).format(count=count) if count else gettext(
                    "Training cancelled during its first iteration: nothing is kept, and the next Train starts from the beginning."))
                return
            shown = rules.to_json()
            write_natural(out, result, shown if isinstance(shown, str) else json.dumps(shown, separators=(",", ":")),
                          seed, self.games, iterations)
            self._done(True, lambda: gettext("Trained: strong plays its weights for this variant.") if result.generations
                       else gettext("Trained: no iteration scored better against the league than the starting weights, "
                                    "which strong plays for this variant."))
            self.on_trained()

        self.controls.launch(work, block)

    def _done(self, ok: bool, said: Callable[[], str]) -> None:
        """The run's end: its outcome is kept as words of the language, so a language switch says it again."""
        self.controls.finish(ok)
        self._said = said
        self.describe()
        self.controls.status.value = escape(said())
        self.train_button.disabled, self.busy = False, False
        self.on_busy(False)
