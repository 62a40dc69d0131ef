"""Weights by name, never by path: the learned policy's weights a session trained or uploaded.

A level box (How they play's levels, the depth section's ladder) reads ``strong@NAME``.  On the command
line NAME is a file; in a page it must never be one, or a visitor could have the server open any of its
files (``strong@/etc/hostname`` answered with the file's first bytes parsed, ``strong@/dev/zero`` filled
the kernel's memory).  So the panels resolve NAME only against this session's weights
(:class:`SessionWeights`): those uploaded through the page (a weights JSON, bounded in size, checked by
the weights loader, kept under the session's private temporary folder) and those strong was trained for
here.  Anything else is refused in words, before the file system is touched.
"""

from __future__ import annotations

import pathlib
import re
import tempfile
from dataclasses import replace
from html import escape
from collections.abc import Callable
from typing import Any

from ..analysis import PolicySpec
from ..analysis.studies.skill import typed_level
from ..analysis.training import MAX_WEIGHTS_BYTES, model_from_text
from ..i18n import N_, gettext
from .files import Upload
from .forms import messages_html


class SessionWeights:
    """The weights this session may play by name: uploaded ones (kept in a private temporary folder, removed
    with the session) and the files strong was trained into here."""

    def __init__(self) -> None:
        self._files: dict[str, pathlib.Path] = {}
        self._folder: tempfile.TemporaryDirectory[str] | None = None  # made at the first upload

    @property
    def names(self) -> list[str]:
        """The names a level may give after ``strong@`` (or ``persona@``), in the order they came."""
        return list(self._files)

    def resolve(self, level: str) -> str:
        """``level`` as the analysis plays it: ``strong@NAME`` (or ``persona@NAME``) becomes ``strong@FILE``
        (``persona@FILE``) of this session's weights of that name; other levels pass as typed.  A ValueError says
        which names there are, without naming a path or opening one (an unknown level is refused in the words of
        :meth:`PolicySpec.parse`)."""
        spec = PolicySpec.parse(level)
        if spec.weights is None:
            return level
        file = self._files.get(spec.weights)
        if file is None and spec.kind == "persona":
            raise ValueError(gettext("persona@NAME takes the name of weights trained or uploaded in this session: "
                                     "{names}").format(names=self._offered()))
        if file is None:
            raise ValueError(gettext("strong@NAME takes the name of weights trained or uploaded in this session: "
                                     "{names}").format(names=self._offered()))
        return str(replace(spec, weights=str(file)))

    def levels(self, text: str) -> tuple[list[str], list[str]]:
        """A levels field's comma-separated ``text`` as the analysis plays it (each level by its name in the page's
        language too, :func:`typed_level`, then :meth:`resolve`d and checked to play), and the problem of every level
        refused, each once: a list told only its first bad level, and the next Run told the next."""
        levels: list[str] = []
        problems: list[str] = []
        for typed in (typed_level(x) for x in text.split(",") if x.strip()):
            try:
                level = self.resolve(typed)
                PolicySpec.parse(level).policy()
            except ValueError as exc:
                problems.append(str(exc))
            else:
                levels.append(level)
        return levels, list(dict.fromkeys(problems))

    def typed(self, level: str) -> str:
        """The inverse of :meth:`resolve`: the name a resolved level was typed as (exports never name a path)."""
        names = {str(file): name for name, file in self._files.items()}
        try:
            spec = PolicySpec.parse(level)
        except ValueError:  # not a level resolve gave: nothing to hide
            return level
        name = names.get(spec.weights or "")
        return level if name is None else str(replace(spec, weights=name))

    def _offered(self) -> str:
        if not self._files:
            return gettext("none yet (Upload weights adds a weights JSON file)")
        return ", ".join(str(PolicySpec("strong", weights=name)) for name in self._files)

    def add_trained(self, name: str, file: pathlib.Path) -> None:
        """Offer the weights strong was trained into here under ``name``."""
        self._files[name] = file

    def add_upload(self, file_name: str, text: str) -> str:
        """Check an uploaded weights file's text with the weights loader and keep it; its name (the file's, without
        ``.json``, reduced to letters, digits, - and _).  A ValueError says what is wrong with the file."""
        name = re.sub(r"[^A-Za-z0-9_-]+", "-", file_name.rsplit("/", 1)[-1].removesuffix(".json")).strip("-")[:60]
        name = name or "weights"
        model_from_text(text, file_name)
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="guyenne-weights-")
        file = pathlib.Path(self._folder.name) / f"{name}.json"
        file.write_text(text, encoding="utf-8")
        self._files[name] = file
        return name


#: the weights of this kernel's session (one kernel a page in the app; one a notebook in JupyterLab)
SESSION = SessionWeights()


def weights_upload(weights: SessionWeights, then: Callable[[], Any]) -> Upload:
    """The Upload weights button: a weights JSON file (at most :data:`MAX_WEIGHTS_BYTES`) checked and kept in
    ``weights``, the name to type said beside it, or what is wrong with the file; ``then()`` reads the level
    boxes again (a level refused before the upload now plays)."""
    upload = Upload(description=N_("Upload weights"), accept=".json,application/json", max_bytes=MAX_WEIGHTS_BYTES)

    def uploaded(file_name: str, text: str) -> None:
        try:
            name = weights.add_upload(file_name, text)
        except ValueError as exc:
            upload.message = messages_html([str(exc)])
            return
        upload.message = escape(gettext("Uploaded: {level} in the levels plays these weights.").format(
            level=PolicySpec("strong", weights=name)))
        then()

    upload.on_text(uploaded)
    return upload
