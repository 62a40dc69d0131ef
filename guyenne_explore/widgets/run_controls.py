"""The controls of a run, shared by every panel that runs an analysis: the progress bar with its count and the time
left, the Cancel button, the status line, the "run anyway" box of a run refused for its time, and the words of a
run the engine answers first while the fast simulator compiles (its cost line, its note, its status).

The run itself happens in a background thread (:meth:`RunControls.launch`), so that Cancel (and the page) stays
responsive in Jupyter and Voilà; ``block=True`` does the same work in the caller's thread for tests and scripts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from html import escape
from typing import Any

import ipywidgets as w

from ..analysis import TooLong
from ..analysis.planning import engine_first
from ..analysis.sampling.warm import (Step, compile_in_background, compiling_in_background, compiling_seconds,
                                      needs_compiling, prepare, preparing_message)
from ..i18n import gettext, ngettext, plain_count, plain_duration
from .guard import guarded

IDLE = "\u00a0"  # the progress bar's label before a count (an empty one would hide it and the bar would shift)


#: the box that confirms a run refused for its time (:class:`TooLong`, past ``limits.RUN_SECONDS``), in every panel
RUN_ANYWAY = "run anyway (past the time limit)"


def run_anyway_box() -> w.Checkbox:
    """The "run anyway" box of a panel whose runs may be refused for their time: ticked, the panel passes
    ``force=True``.  One maker, so that every panel offers it in the same words (and the same translation)."""
    return w.Checkbox(value=False, description=RUN_ANYWAY, indent=False,
                      tooltip="play the games even when they would take more than half an hour")


def too_long_words(refusal: TooLong) -> str:
    """The status of a run refused for its time: the refusal, then the box that runs it anyway, by its label in the
    language of the moment and where it is (every panel has it among its settings, above its status line: the refusal
    alone said "run it anyway" and left people looking for how, then for where)."""
    return gettext("Not run: {problems}: tick '{box}' above and run again.").format(problems=refusal,
                                                                                     box=gettext(RUN_ANYWAY))


#: what a run's bar counts, said beside the count ("4/78 games"; a bare "4/78" left people guessing): its games, or
#: the steps of a run that trains before it plays (each step a game's time: ``studies.exploit.training_units``)
GAMES, STEPS = "games", "steps"


def count_words(done: int, total: int, counting: str) -> str:
    """The count beside the bar, with what it counts, in the language of the moment."""
    values = {"done": plain_count(done), "total": plain_count(total)}
    if counting == STEPS:
        return ngettext("{done}/{total} step", "{done}/{total} steps", total).format(**values)
    return ngettext("{done}/{total} game", "{done}/{total} games", total).format(**values)


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
        # the label beside the bar ("3/20 games", "10 000/10 000 parties": 150 px) keeps its width from the start:
        # the bar never shifts as it fills
        # hidden until a run starts, its room kept (the buttons beside it do not move): an empty grey bar under every
        # section's buttons before anything ran read as a control, and at 1920 px stood apart from its buttons
        self.progress = w.IntProgress(value=0, min=0, max=1, description=IDLE, style={"description_width": "150px"},
                                      layout=w.Layout(width="370px", visibility="hidden"))
        self.counting = GAMES  # what the bar counts in this run (start)
        self.cancel_button = w.Button(description="Cancel", icon="stop", disabled=True)
        self.status = w.HTML()
        self.left = w.Label()  # the time left, from the pace of the games so far
        self.cancelled = False
        self._began = 0.0  # when the run's counted work started (after any compiling)
        self._message = ""  # the run's status, once the fast simulator is prepared
        self._prepare = False  # whether the run compiles the fast simulator first (see start)
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
            self.progress.description = count_words(done, total, self.counting) if total else IDLE
            self.left.value = self._time_left(now, done, total)
        if done and self._message and not self.cancelled:
            self.status.value, self._message = escape(self._message), ""
        return False if self.cancelled else None

    def redraw(self) -> None:
        """After a language switch: the count beside the bar in the new language's words and digit grouping
        ("1,200/1,200" stayed so in French until the next run); a bar that counts the fast simulator's parts has no words
        to change."""
        if self.progress.description != IDLE and not self._prepare:
            self.progress.description = count_words(self.progress.value, self.progress.max, self.counting)

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

    def rewind(self, kept: int, total: int) -> None:
        """After Cancel, the bar at what the run keeps (``kept`` of ``total``), not at where it was stopped: a training
        cancelled in its first iteration keeps nothing, and its bar at "40,000/800,000 games" said otherwise."""
        if kept <= 0:
            self.reset()
            return
        self.progress.max, self.progress.value = max(total, 1), min(kept, max(total, 1))
        self.progress.description = count_words(kept, total, self.counting)

    def pace(self, parts: list[tuple[int, float]]) -> None:
        """The run's parts in the order it plays them, each its games and their rough seconds (the cost said
        before the run), for the time left; called after :meth:`start`."""
        self._parts, self._part = list(parts), None

    def reset(self) -> None:
        """No bar: a run refused before it played anything shows nothing of the last one's (a refused exact run left
        "1,500/1,500" from the run before)."""
        self.left.value = ""
        self.progress.value = 0
        self.progress.description = IDLE
        self.progress.bar_style = ""
        self.progress.layout.visibility = "hidden"

    def start(self, message: str, compile_first: bool = True, counting: str = GAMES) -> None:
        """Open a run; says so first when the fast simulator still has to compile (no numba cache yet) and the run
        compiles it first (``compile_first``; a run the engine answers meanwhile, :func:`engine_answers_first`, does
        not wait for it: the compiling starts in a process of its own, and :meth:`refine_when_compiled` runs it
        again once it is over).  ``counting``: what the bar counts (:data:`GAMES`, :data:`STEPS`)."""
        self.cancelled = False
        self.counting = counting
        self._began = time.monotonic()
        self.reset()
        self._drawn = 0.0
        self._parts, self._part = [], None
        self.progress.bar_style = "info"
        self.progress.layout.visibility = "visible"
        self.cancel_button.disabled = False
        self._message = ""
        self._prepare = compile_first and needs_compiling()
        if not compile_first and needs_compiling():
            compile_in_background()
        if self._prepare:
            self._message = message
            message = gettext("Preparing the fast simulator (first run only: {duration})... {message}").format(
                duration=plain_duration(compiling_seconds()), message=message)
        self.status.value = escape(message)

    def _compiling(self, step: Step, done: int, total: int) -> None:
        """Says which part of the fast simulator compiles now, moves the bar by parts, and says the time left: this
        part's and the later parts' compiling (the pending parts, this one first)."""
        self.status.value = escape(preparing_message(step, done, total))
        self.progress.max, self.progress.value, self.progress.description = total, done - 1, f"{done - 1}/{total}"
        self.left.value = gettext("{duration} left").format(duration=plain_duration(compiling_seconds()))

    def _prepared(self, work: Any) -> Any:
        """``work`` preceded, when the fast simulator still has to compile, by compiling it part by part
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
        """Wait while another process compiles the fast simulator, saying so with the time its pending parts take.  Cancel
        then stops the run at its first count, once the compiling (which serves every later run) is over: the
        words say so, as a run cut here would compile the rest itself.  The bar fills by the compiling's seconds, as
        its parts are done."""
        total = max(1, round(compiling_seconds()))
        while compiling_in_background():
            seconds = compiling_seconds()
            self.progress.max, self.progress.value = total, max(0, min(total, total - round(seconds)))
            left = plain_duration(seconds)
            self.status.value = escape(
                gettext("Cancelling: the run stops once the fast simulator, compiling in the background, is ready "
                        "({duration} left).").format(duration=left) if self.cancelled else
                gettext("The fast simulator is compiling in the background (first run only): {duration} left... "
                        "{message}").format(duration=left, message=self._message))
            self.left.value = gettext("{duration} left").format(duration=left)
            time.sleep(0.5)

    def refine_when_compiled(self, rerun: Callable[[], None], settings: Callable[[], object], asked: object) -> None:
        """Once the background compiling is over, ``rerun()`` (the same run again, now on the compiled path with all
        its games), unless the panel has moved on meanwhile: its ``settings()`` (position and fields) are no longer
        those the run was ``asked`` with, or another run is under way.  Called by a run the engine answered first
        (:func:`engine_answers_first`), as it finishes: every panel refines alike."""
        answered = self.thread

        def wait() -> None:
            if answered is not None and answered is not threading.current_thread():
                answered.join()  # the first answer's thread writes its last words before the refining starts
            while compiling_in_background():
                time.sleep(1.0)
            if not self.running and not needs_compiling() and settings() == asked:
                rerun()

        threading.Thread(target=wait, name="guyenne-refine", daemon=True).start()

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


def when_compiled(then: Callable[[], None], poll: float = 1.0) -> threading.Thread | None:
    """Call ``then``, in a thread of its own, once the fast simulator that compiles in the background now is compiled: the
    cost lines a panel wrote meanwhile ("the fast simulator is not compiled yet") are written again, where they stood until
    a field changed.  None, and nothing called, where nothing compiles."""
    if not compiling_in_background():
        return None

    def wait() -> None:
        while compiling_in_background():
            time.sleep(poll)
        then()

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    return thread


def engine_answers_first(policies: Iterable[str], method: str = "sample") -> bool:
    """Whether a panel's run of ``policies`` is answered first by the engine now (:func:`..analysis.engine_first`, told
    whether the fast simulator is still to compile): fewer games at once, saying so (:func:`engine_first_note`), refined by
    the compiled games once ready (:meth:`RunControls.refine_when_compiled`).  Every panel asks here."""
    return engine_first(policies, needs_compiling(), method)


def engine_first_cost(button: str, games: int, seconds: float) -> str:
    """The cost line of a run the engine answers first (:func:`engine_answers_first`): the compiling under way, the
    ``games`` of the first answer and their ``seconds``, then the refining; ``button``: the run's button label."""
    return ngettext("The fast simulator is not compiled yet ({compiling}, once, in the background): {button} answers at once "
                    "from the engine with {games} game ({duration}), then the compiled games refine it.",
                    "The fast simulator is not compiled yet ({compiling}, once, in the background): {button} answers at once "
                    "from the engine with {games} games ({duration}), then the compiled games refine it.", games).format(
        compiling=plain_duration(compiling_seconds()), button=gettext(button), games=plain_count(games),
        duration=plain_duration(seconds))


def engine_first_note(played: int, asked: int) -> str:
    """What a run the engine answered while the fast simulator compiles says after its summary."""
    return ngettext("The engine answered with {played} of the {count} game asked while the fast simulator compiles in "
                    "the background; the compiled games refine it when ready.",
                    "The engine answered with {played} of the {count} games asked while the fast simulator compiles in "
                    "the background; the compiled games refine it when ready.", asked).format(
        played=plain_count(played), count=plain_count(asked))


def first_answer_words(played: int, asked: int) -> str:
    """The status after a run the engine answered first, in a panel whose runs end on "Done": a first answer, with
    how many of the games asked the engine played (:func:`engine_first_note`)."""
    return gettext("Done: a first answer.") + " " + engine_first_note(played, asked)
