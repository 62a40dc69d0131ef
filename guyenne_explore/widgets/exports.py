"""Exports of the analysis panels as browser downloads: figures (HTML, SVG, PNG), results (JSON, CSV) and
a one-file HTML report (drawn by :mod:`guyenne_explore.render.report`; the panel hands its text).

The render layer writes files into a folder (what the command line and the
notebooks use); here each export is written into a private temporary folder,
read back and handed to the browser as one download (a zip when it makes
several files), so nothing in the page names or reaches a folder of the server.
``save(fmt, folder)`` writes into a folder inside the workspace instead, for
JupyterLab use from Python.
"""

from __future__ import annotations

import os
import pathlib
import tempfile
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w

from ..i18n import N_, gettext, plain_size
from ..render.plots import FORMATS, export_figures, export_results
from .files import Download, inside_workspace, zip_bytes
from .forms import messages_html
from .guard import guarded
from .language import SaidLine

EXPORTS = (*FORMATS, "json", "csv")


def offer_file(files: Callable[[], dict[str, bytes]], fmt: str, download: Download, status: SaidLine) -> bool:
    """Download the one file ``files()`` makes (name -> bytes) and say so with its size in ``status``; a ValueError
    (nothing to export yet) is said there instead, never raised.  The sections with a CSV and a JSON button of their
    own (how they play, the skill levels) export through it."""
    try:
        made = files()
    except ValueError as exc:
        error = str(exc)  # the exception itself is gone once the handler ends
        status.say(lambda: messages_html([gettext("{format} export failed: {error}").format(format=fmt.upper(),
                                                                                             error=error)]))
        return False
    (name, data), = made.items()
    download.offer(name, data)
    size = len(data)
    status.say(lambda: escape(gettext("Downloading {name} ({size})").format(name=name, size=plain_size(size))))
    return True


class ExportBar(w.VBox):
    """One button per format; each downloads the owner's current figures or results.

    ``owner`` has ``figures`` (name -> plotly figure) and ``results`` (label ->
    AnalysisResult); ``name`` starts the file names of a download.  With ``report``
    (a function returning the report's HTML) a "Report" button downloads it.
    """

    def __init__(self, owner: Any, name: str = "guyenne-analysis", report: Callable[[], str] | None = None) -> None:
        self.owner = owner
        self.name = name
        self.buttons = {fmt: w.Button(description=fmt.upper(), disabled=True, layout=w.Layout(width="70px"),
                                      tooltip=f"download the {'figures' if fmt in FORMATS else 'results'} as {fmt}")
                        for fmt in EXPORTS}
        self.download = Download()
        self.status = SaidLine()
        for fmt, b in self.buttons.items():
            b.on_click(guarded(self.status)(lambda _b, fmt=fmt: self.export(fmt)))
        self.report = report
        if report is not None:  # one HTML file: position, rules, figures, metrics (to send to a co-designer)
            self.buttons["report"] = w.Button(description=N_("Report (HTML)"), icon="file-text-o", disabled=True,
                                              layout=w.Layout(width="auto"),
                                              tooltip=N_("one HTML file: the position, the rules, the figures and the metrics"))
            self.buttons["report"].on_click(guarded(self.status)(lambda _b: self.export_report()))
        super().__init__([w.HBox([w.Label("Download:"), *self.buttons.values(), self.download],
                                 layout=w.Layout(flex_flow="row wrap", align_items="center")), self.status])

    def enable(self, on: bool) -> None:
        """Buttons on or off for a new run's results; the words about an earlier export go."""
        for b in self.buttons.values():
            b.disabled = not on
        self.status.clear()

    def refresh(self) -> None:
        """After a language switch: the line under the buttons (a download, a refusal) written again in the new
        language, unless something else (an unexpected error) has replaced it since."""
        self.status.refresh()
        self.download.refresh()

    def files(self, fmt: str) -> dict[str, bytes]:
        """The export in one format as file name -> bytes (written in a temporary folder, then read)."""
        with tempfile.TemporaryDirectory(prefix="guyenne-export-") as folder:
            return {p.name: p.read_bytes() for p in self._write(fmt, folder)}

    def export(self, fmt: str) -> bool:
        """Download the figures (html, svg, png) or the results (json, csv) in ``fmt``.

        A failure (no browser for static export...) is shown beside the buttons, not raised.
        """
        try:
            files = self.files(fmt)
        except (RuntimeError, OSError, ValueError) as exc:
            error = str(exc)  # the exception itself is gone once the handler ends
            self.status.say(lambda: messages_html([gettext("{format} export failed: {error}").format(format=fmt.upper(),
                                                                                              error=error)]))
            return False
        if not files:
            self.status.say(lambda: messages_html([gettext("nothing to export yet: run an analysis first")]))
            return False
        if len(files) == 1:
            (file_name, data), = files.items()
        else:
            file_name, data = f"{self.name}-{fmt}.zip", zip_bytes(files)
        self.download.offer(file_name, data)
        count, size = len(files), len(data)
        self.status.say(lambda: (gettext("Downloading {name} ({size}, {count} files)") if count > 1
                           else gettext("Downloading {name} ({size})")).format(
            name=escape(file_name), size=plain_size(size), count=count))
        return True

    def export_report(self) -> bool:
        """Download the one-file HTML report; a problem is shown beside the buttons, not raised."""
        if self.report is None or not self.owner.results:
            self.status.say(lambda: messages_html([gettext("nothing to export yet: run an analysis first")]))
            return False
        try:
            data = self.report().encode("utf-8")
        except ValueError as exc:
            error = str(exc)  # the exception itself is gone once the handler ends
            self.status.say(lambda: messages_html([gettext("{format} export failed: {error}").format(format="HTML", error=error)]))
            return False
        file_name = f"{self.name}-report.html"
        self.download.offer(file_name, data)
        size = len(data)
        self.status.say(lambda: gettext("Downloading {name} ({size})").format(name=escape(file_name), size=plain_size(size)))
        return True

    def save(self, fmt: str, folder: str | os.PathLike[str]) -> list[pathlib.Path]:
        """Write the export into ``folder`` inside the workspace folder (JupyterLab use); refused outside it."""
        return self._write(fmt, inside_workspace(folder))

    def _write(self, fmt: str, folder: str | os.PathLike[str]) -> list[pathlib.Path]:
        writer: Callable[..., list[pathlib.Path]]
        if fmt in FORMATS:
            writer, what = export_figures, self.owner.figures
        elif fmt in ("json", "csv"):
            writer, what = export_results, self.owner.results
        else:
            raise ValueError(f"exports are {', '.join(EXPORTS)}, not {fmt!r}")
        return writer(what, folder, [fmt])
