"""Strong, trained for this variant: the training's cost before it starts, then its progress, time left and Cancel.

The variant lab and the skill levels tab offer the learned policy ``strong`` (the package's weights:
its preset's, or under a variant that of the preset it was made from) and "strong, trained for this variant".  Choosing the
latter shows what training for the variant costs, measured here (the games a generation and the
games a second of this machine) before anything starts; Train then runs
:func:`..analysis.train` in the panel's background thread with the shared :class:`.run_controls.RunControls`
(bar, time left, Cancel: the run stops within one candidate's games).  The weights are kept in the
user's cache under the rules' fingerprint (:func:`..analysis.cache_file`), so the variant is trained
once; a cancelled run keeps its state beside them and Train continues it.  The panels then play
``strong@FILE``.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any, Callable

import ipywidgets as w

from ..analysis import PolicySpec
from ..analysis.training import (TRAIN_DEFAULTS, cache_file, estimate_training, read_model, read_state, train,
                                 trained_preset, write_weights)
from ..analysis.workers import local_cores, local_pool
from ..i18n import N_, current_language, gettext, ngettext, plain_count, plain_duration
from ..engine import Rules
from .guard import guarded, log
from .language import relabel
from .run_controls import RunControls
from .session_weights import SESSION, SessionWeights

#: the option of the panels' policy choices that plays strong with weights trained for the variant
TRAINED = N_("strong, trained for this variant")


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
        #: the training's length, games a seat and candidates a generation (the command's defaults)
        self.seconds = float(TRAIN_DEFAULTS["minutes"]) * 60
        self.games, self.popsize = int(TRAIN_DEFAULTS["games"]), int(TRAIN_DEFAULTS["popsize"])
        self.on_trained: Callable[[], None] = lambda: None
        #: told True when a run starts and False when it ends, so the panel keeps its other runs off meanwhile
        self.on_busy: Callable[[bool], None] = lambda busy: None
        #: whether a run is under way (set by the run itself: its thread is still alive while it reports its end)
        self.busy = False
        self.promised: Any = None  # the cost shown before Train: what Train then runs (a second measure may differ)
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
        """Where a cancelled run for the rules is kept until Train continues it (None without rules)."""
        return None if self.file is None else self.file.with_name(self.file.name + ".state")

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
            trained = read_model(self.file).trained
            self.weights.add_trained(f"trained-{self.file.stem}", self.file)
            self.cost.value = escape(gettext(
                "Strong is trained for this variant ({generations} generations, seed {seed}, score {score} against the "
                "heuristic and its starting weights on its validation games): its weights play.").format(
                generations=trained.get("generations"), seed=trained.get("seed"),
                score=trained.get("validation_score")))
            self.train_button.description = gettext("Train again")
            self.promised = None  # Train again measures its cost when pressed
            return
        cost = self.promised = self.estimate()
        preset = trained_preset(self.rules)
        shipped = "" if preset is None else gettext(
            "Strong already plays the weights trained for the preset {preset}, shipped with the package, and this "
            "option plays them; training here keeps weights of your own for it. ").format(preset=preset)
        saved = ""
        if self.state.exists():
            try:
                done = read_state(self.state).generation
            except ValueError as exc:  # (its words name the file and the problem; Train would say the same)
                saved = gettext("A saved run cannot be continued: {error}. ").format(error=exc)
            else:
                saved = ngettext("A cancelled run of {count} generation is kept for this variant: Train continues it. ",
                                 "A cancelled run of {count} generations is kept for this variant: Train continues it. ",
                                 done).format(count=done)
        self.cost.value = escape(shipped + saved + gettext(
            "Training strong for this variant takes {duration} on {cores} cores: {generations} generations of "
            "{games} games, at {rate} games a second measured here. Its weights are then kept for this variant.").format(
            duration=plain_duration(cost.seconds), cores=local_cores(), generations=plain_count(cost.generations),
            games=plain_count(cost.games_a_generation), rate=plain_count(round(cost.games_per_second))))
        self.train_button.description = gettext("Train strong for this variant")

    def estimate(self) -> Any:
        return estimate_training(self.rules, self.games, self.popsize, self.seconds, None, local_cores())  # type: ignore[arg-type]

    def train(self, block: bool = True) -> None:
        """Train for the rules (continuing a cancelled run of theirs), the generations the cost promised."""
        if self.rules is None or self.file is None or self.state is None or self.busy:
            return
        rules, out, state = self.rules, self.file, self.state
        resumed = read_state(state) if state.exists() else None
        cost = self.promised if self.promised is not None else self.estimate()
        generations = resumed.generation + cost.generations if resumed is not None else cost.generations
        seed = resumed.settings.seed if resumed is not None else int(TRAIN_DEFAULTS["seed"])
        executor = local_pool() if local_cores() > 1 else None
        self.train_button.disabled, self.busy = True, True
        self.on_busy(True)
        self.controls.start(ngettext("Training strong for this variant: {count} generation (the bar counts them)...",
                                     "Training strong for this variant: {count} generations (the bar counts them)...",
                                     generations).format(count=plain_count(generations)))

        def progress(p: Any) -> bool | None:
            answer = self.controls.callback(p.generation, generations)
            # the time left at the run's pace a generation (the bar's own would count the workers' start),
            # before a generation is done at the pace measured for the cost
            left = p.seconds_left if p.seconds_left is not None else max(0.0, cost.seconds - p.seconds)
            self.controls.left.value = gettext("{duration} left").format(duration=plain_duration(left))
            return answer

        def work() -> None:
            try:
                result = train(rules, seed, None, self.games, self.popsize, generations=generations, executor=executor,
                               progress=progress, state=state, resume=resumed)
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("training failed")
                error = str(exc)
                self._done(False, lambda: gettext("The training failed: {error}").format(error=error))
                return
            if result.cancelled:
                count = result.generations
                self._done(False, lambda: ngettext("Training cancelled after {count} generation: Train continues it.",
                                                   "Training cancelled after {count} generations: Train continues it.",
                                                   count).format(count=count))
                return
            shown = rules.to_json()
            write_weights(out, result, shown if isinstance(shown, str) else json.dumps(shown, separators=(",", ":")),
                          seed, self.games, popsize=self.popsize)
            self._done(True, lambda: gettext("Trained: strong plays its weights for this variant."))
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
