"""Files in and out of the page without naming a server path: uploads, browser downloads, one workspace.

A shared explorer (the Voilà app) must never let a visitor read or write the
server's files, so the panels take files only by upload from the visitor's
machine (:class:`Upload`: the browser refuses a file over the size limit before
sending it, and the kernel checks again) and give files only as browser
downloads (:class:`Download`).  Nothing here opens a path.

In JupyterLab a person may still call the panels' Python methods that take a
path (``builder.load_file(path)``, ``panel.exports.save(fmt, folder)``); those
resolve the path inside one workspace folder (:func:`inside_workspace`) and
refuse anything outside it, so no widget-reachable path escapes it either.
"""

from __future__ import annotations

import io
import os
import pathlib
import zipfile
from collections.abc import Callable, Mapping
from typing import Any

import anywidget
import traitlets

from ..i18n import gettext, plain_count, plain_size
from .forms import messages_html
from .guard import guarded

STATIC = pathlib.Path(__file__).parent / "static"
#: largest file an upload accepts: a position is a few kB, a result JSON at most a few hundred
MAX_UPLOAD_BYTES = 1_000_000
#: environment variable naming the workspace folder (default: the kernel's working directory)
WORKSPACE_ENV = "GUYENNE_WORKSPACE"

MIME = {"json": "application/json", "csv": "text/csv", "html": "text/html", "svg": "image/svg+xml",
        "png": "image/png", "pdf": "application/pdf", "zip": "application/zip", "txt": "text/plain"}


# ---------------------------------------------------------------------- upload
class Upload(anywidget.AnyWidget):
    """A button that opens the visitor's file picker and hands the chosen file's text to Python.

    ``on_text(handler)`` registers ``handler(name, text)``.  A file over
    ``max_bytes`` is refused in the browser (it is never sent) and again here if
    a page sends one anyway; a file that is not UTF-8 text is refused too.  Every
    refusal, and whatever the handler writes to ``message``, shows beside the button.
    """

    _esm = STATIC / "upload.js"
    _css = STATIC / "files.css"

    description = traitlets.Unicode("Upload").tag(sync=True)
    accept = traitlets.Unicode("").tag(sync=True)
    max_bytes = traitlets.Int(MAX_UPLOAD_BYTES).tag(sync=True)
    #: HTML shown beside the button (problems in red, a confirmation in plain text)
    message = traitlets.Unicode("").tag(sync=True)

    def __init__(self, description: str = "Upload", accept: str = "", **kwargs: Any) -> None:
        super().__init__(description=description, accept=accept, **kwargs)
        self._handlers: list[Callable[[str, str], None]] = []
        # anything unexpected (a page sending odd content) shows beside the button, never raised
        self.on_msg(guarded(self, "message")(self._on_msg))

    def on_text(self, handler: Callable[[str, str], None]) -> None:
        """Call ``handler(file_name, text)`` with each uploaded file's text."""
        self._handlers.append(handler)

    def _on_msg(self, _widget: Any, content: Any, buffers: list[Any]) -> None:
        if not isinstance(content, dict):
            return
        name = str(content.get("name", "the file"))[:200]
        if content.get("type") == "refused":
            size = content.get("size")
            self.message = messages_html([self._too_large(name, size if isinstance(size, int) else None)])
            return
        if content.get("type") != "file":
            return
        data = bytes(buffers[0]) if buffers else b""
        if len(data) > self.max_bytes:
            self.message = messages_html([self._too_large(name, len(data))])
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.message = messages_html([gettext("{name} is not a text file (UTF-8): upload position JSON or notation").format(
                name=name)])
            return
        self.message = ""
        for handler in self._handlers:
            handler(name, text)

    def _too_large(self, name: str, size: int | None) -> str:
        limit = dict(high=plain_count(self.max_bytes), size=plain_size(self.max_bytes))
        if size is None:
            return gettext("{name} is too large: at most {high} bytes ({size}) are accepted").format(name=name, **limit)
        return gettext("{name} holds {count} bytes: at most {high} bytes ({size}) are accepted").format(
            name=name, count=plain_count(size), **limit)


# ---------------------------------------------------------------------- download
class Download(anywidget.AnyWidget):
    """Hands bytes to the browser as a file download; shows the last file given.

    ``offer(name, data)`` sends the name and the bytes (one binary buffer) to the
    page, whose script saves them through the browser's own download.
    """

    _esm = STATIC / "download.js"
    _css = STATIC / "files.css"

    #: "name (size)" of the last file offered, shown in the page
    last = traitlets.Unicode("").tag(sync=True)
    #: the last file's name and size in bytes, from which ``last`` is worded in the current language
    _offered: tuple[str, int] | None = None

    def offer(self, name: str, data: bytes | str, mime: str | None = None) -> None:
        """Start a browser download of ``data`` (text is sent as UTF-8) named ``name``."""
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        name = safe_name(name)
        mime = mime or MIME.get(name.rsplit(".", 1)[-1].lower(), "application/octet-stream")
        self.send({"type": "download", "name": name, "mime": mime}, buffers=[raw])
        self._offered = (name, len(raw))
        self.refresh()

    def refresh(self) -> None:
        """The last file's "name (size)" in the current language (after a switch: "1.5 kB" becomes "1,5 ko")."""
        if self._offered is not None:
            name, size = self._offered
            self.last = f"{name} ({plain_size(size)})"


def safe_name(name: str) -> str:
    """A download name without folders or characters browsers mangle."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = "".join(c if c.isalnum() or c in "._- " else "-" for c in base).strip(" .")
    return cleaned or "download"


def zip_bytes(files: Mapping[str, bytes]) -> bytes:
    """Several files as one zip archive (a browser may block a burst of separate downloads)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(safe_name(name), data)
    return buffer.getvalue()


# ---------------------------------------------------------------------- workspace
class WorkspaceError(ValueError):
    """A path given to a panel that leads outside the workspace folder, or to no regular text file in it."""


def workspace_root() -> pathlib.Path:
    """The one folder panel methods may read and write: $GUYENNE_WORKSPACE, else the working directory."""
    return pathlib.Path(os.environ.get(WORKSPACE_ENV) or os.getcwd()).resolve()


def inside_workspace(path: str | os.PathLike[str]) -> pathlib.Path:
    """``path`` (relative paths from the workspace) resolved, links followed; refused outside the workspace."""
    root = workspace_root()
    resolved = (root / os.fspath(path)).resolve()
    if resolved != root and root not in resolved.parents:
        raise WorkspaceError(gettext("{path} is outside the workspace folder {root}: give a path inside it (set "
                                     "{variable} to choose another folder)").format(
            path=os.fspath(path), root=root, variable=WORKSPACE_ENV))
    return resolved


def read_workspace_text(path: str | os.PathLike[str], limit: int = MAX_UPLOAD_BYTES) -> str:
    """The text of a regular file inside the workspace, at most ``limit`` bytes (never a device or a pipe)."""
    resolved = inside_workspace(path)
    if not resolved.is_file():
        raise WorkspaceError(gettext("{path} is not a file in the workspace folder").format(path=os.fspath(path)))
    with resolved.open("rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise WorkspaceError(gettext("{path} is larger than {size}: not a position file").format(
            path=os.fspath(path), size=plain_size(limit)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkspaceError(gettext("{path} is not a text file (UTF-8)").format(path=os.fspath(path))) from exc
