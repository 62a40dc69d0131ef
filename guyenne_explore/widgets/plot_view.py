"""A plotly figure as a small anywidget view: the figure travels as JSON, plotly.js once per page.

Why not ``go.FigureWidget``: in plotly 7 every FigureWidget carries the whole
plotly.js bundle (about 5 MB) as its own module, so the four figures of one
analysis shipped about 20 MB through the kernel's websocket and the page
evaluated plotly.js four times, 10-20 s after the computation had ended.  Here
a figure is its plotly JSON (about 10 kB); plotly.js, read from the plotly
package's own ``plotly.min.js`` (no internet, no server path), is sent once, on
the first view's request, and the page keeps it in ``window`` for every later
view, in Voilà as in JupyterLab.

The browser tells Python when it has drawn a figure (``on_drawn``) so that the
panels can say "Done" when the figures are on screen, not before.
"""

from __future__ import annotations

import json
import os
import pathlib
import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import anywidget
import ipywidgets as w
import plotly
import plotly.graph_objects as go
import traitlets

STATIC = pathlib.Path(__file__).parent / "static"

DrawnHandler = Callable[["PlotView", int], None]


@cache
def plotly_js() -> bytes:
    """The plotly.js bundle that ships inside the plotly package (read once per process)."""
    return (pathlib.Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()


def figure_json(fig: go.Figure) -> dict[str, Any]:
    """The figure as plain JSON (numpy arrays and dates made JSON by plotly's own encoder)."""
    return json.loads(fig.to_json())


_warm_up_started = threading.Event()


def warm_up_wanted() -> bool:
    """Whether a page prepares its first run while it is read (:func:`start_warm_up`, and plotly.js fetched ahead):
    ``GUYENNE_WARM_UP=0`` leaves both to the first run, for a server whose pages open and close by the dozen (the
    browser tests: some sixty pages a run, each warm-up 5 to 6 s of CPU on two cores, for pages that mostly run
    nothing)."""
    return os.environ.get("GUYENNE_WARM_UP") != "0"


def start_warm_up() -> None:
    """Once per process, in a background thread: what the first run would otherwise pay after computing.

    Called when a page first shows a view, so the page is up before this spends CPU: the
    first figures' imports (:func:`..render.plots.warm_up`) and the fast simulator's compiled code,
    loaded from numba's cache (never compiled here: that is setup's job, or the run's), here and in
    the shared pool's workers, which the skill levels' search games and the how-they-play runs spread
    over (a first run then pays neither their start nor their loading: about 4 s on two cores); not where
    :func:`warm_up_wanted` says no.
    """
    if _warm_up_started.is_set() or not warm_up_wanted():
        return
    _warm_up_started.set()

    def work() -> None:
        from ..analysis.sampling.warm import needs_compiling, warm, warm_workers
        from ..analysis.workers import local_cores, local_pool
        from ..render.plots import warm_up

        warm_up()
        if not needs_compiling():
            warm(games=2)
            if local_cores() > 1:
                warm_workers(local_pool(), local_cores())

    threading.Thread(target=work, name="guyenne-warm-up", daemon=True).start()


class PlotView(anywidget.AnyWidget):
    """One plotly figure. ``show(fig)`` replaces it; ``revision`` counts the figures shown.

    ``drawn`` is the last revision the browser reports drawn; ``has_view`` says
    whether any browser view of the widget exists (nobody draws without one).
    """

    _esm = STATIC / "plot_view.js"
    _css = STATIC / "plot_view.css"

    figure = traitlets.Dict().tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)
    #: fetch plotly.js while the page is idle, before any figure needs it (:func:`warm_up_wanted`)
    prefetch = traitlets.Bool(True).tag(sync=True)
    drawn = traitlets.Int(0)
    has_view = traitlets.Bool(False)

    def __init__(self, fig: go.Figure | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._drawn_handlers: list[DrawnHandler] = []
        self._lock = threading.Lock()
        self.on_msg(self._on_msg)
        if fig is not None:
            self.show(fig)

    @traitlets.default("prefetch")
    def _prefetch(self) -> bool:
        return warm_up_wanted()

    def show(self, fig: go.Figure | dict[str, Any]) -> int:
        """Send ``fig`` to the browser; returns the revision it will report once drawn."""
        figure = fig if isinstance(fig, dict) else figure_json(fig)
        with self._lock, self.hold_sync():
            self.figure = figure
            self.revision += 1
            return self.revision

    def on_drawn(self, handler: DrawnHandler) -> None:
        """Call ``handler(view, revision)`` whenever the browser has drawn a revision."""
        self._drawn_handlers.append(handler)

    def _on_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "plotly-js?":
            self.send({"type": "plotly-js"}, buffers=[plotly_js()])
        elif kind == "view":
            self.has_view = True
            start_warm_up()
        elif kind == "drawn":
            self.has_view = True
            self.drawn = max(self.drawn, int(content.get("revision", 0)))
            for handler in list(self._drawn_handlers):
                handler(self, self.drawn)


class FigureBox(w.VBox):
    """The figures of a run, one reusable :class:`PlotView` each, and a call once they are on screen.

    The views exist from the start (hidden while unused), so a page that shows
    the panel has its views before the first run: they fetch plotly.js while the
    page is idle, and ``show`` knows whether a browser will draw at all.  With
    no browser view (a script, a test) ``then`` runs at once; with one, it runs
    when every figure of this run has been reported drawn, or after ``patience``
    seconds if the page went away meanwhile.
    """

    def __init__(self, views: int = 4, patience: float = 20.0, **kwargs: Any) -> None:
        self.views: list[PlotView] = []
        self.patience = patience
        self._waiting: dict[int, int] = {}  # index of a view -> revision still to be drawn
        self._then: Callable[[], None] | None = None
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        super().__init__(**kwargs)
        self._grow(views)
        self.add_class("guyenne-figures")

    def _grow(self, n: int) -> None:
        while len(self.views) < n:
            view = PlotView(layout=w.Layout(display="none"))
            view.on_drawn(self._drawn)
            self.views.append(view)
        self.children = tuple(self.views)

    @property
    def shown(self) -> list[PlotView]:
        """The views holding the current run's figures."""
        return [v for v in self.views if v.layout.display != "none"]

    def show(self, figures: Mapping[str, go.Figure], then: Callable[[], None] | None = None) -> None:
        """Show ``figures`` in order (the other views hidden); call ``then`` once they are drawn."""
        browser = any(v.has_view for v in self.views)
        jsons = [figure_json(f) for f in figures.values()]
        self._grow(len(jsons))
        with self._lock:
            self._cancel_timer()
            self._then = then
            self._waiting = {}
            for i, view in enumerate(self.views):
                if i < len(jsons):
                    self._waiting[i] = view.show(jsons[i])
                    view.layout.display = None
                else:
                    view.layout.display = "none"
            if browser and self._waiting:
                self._timer = threading.Timer(self.patience, self._give_up)
                self._timer.daemon = True
                self._timer.start()
                return
            self._waiting = {}
            self._then = None
        if then is not None:
            then()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _drawn(self, view: PlotView, revision: int) -> None:
        with self._lock:
            i = self.views.index(view)
            if i in self._waiting and revision >= self._waiting[i]:
                del self._waiting[i]
            if self._waiting or self._then is None:
                return
            then, self._then = self._then, None
            self._cancel_timer()
        then()

    def _give_up(self) -> None:
        with self._lock:
            then, self._then = self._then, None
            self._waiting = {}
        if then is not None:
            then()
