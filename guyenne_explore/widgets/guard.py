"""Handlers that never raise into the page: an unexpected error becomes one line beside its control.

ipywidgets runs a button's or an observer's handler inside the kernel's comm
message; an exception there goes to the kernel's log (in Voilà, to nobody) and
the page simply does nothing.  Every handler of the panels is wrapped here: an
expected refusal is the handler's own business (it writes the engine's words
beside its control), and anything else is logged with its traceback and shown
as one line in the message widget beside the control that was used.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from ..i18n import gettext
from .messages import messages_html

log = logging.getLogger("guyenne_explore.widgets")
F = TypeVar("F", bound=Callable[..., Any])


def error_line(exc: BaseException) -> str:
    """An unexpected error in one line: its kind and the first line of its words, shortened."""
    words = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    words = words if len(words) <= 160 else words[:157] + "..."
    what = f"{type(exc).__name__}: {words}" if words else type(exc).__name__
    return gettext("unexpected error ({error}); it was logged").format(error=what)


def guarded(where: Any, attribute: str = "value") -> Callable[[F], F]:
    """Wrap a handler so that an unexpected exception is logged and shown in ``where.<attribute>``.

    ``where`` is the message widget beside the control (an ``HTML``'s ``value``, an
    Upload's ``message``).  The handler's return value passes through; after an
    error the wrapper returns None and the panel's state is what the handler left.
    """

    def wrap(handler: F) -> F:
        @functools.wraps(handler)
        def safe(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001  shown beside the control and logged: never swallowed
                log.exception("widget handler %s failed", getattr(handler, "__qualname__", handler))
                setattr(where, attribute, messages_html([error_line(exc)]))
                return None

        return safe  # type: ignore[return-value]

    return wrap


def keep_tracebacks_in_the_server_log(shell: Any) -> None:
    """In the app's kernel: an error leaves the kernel as one short line, its traceback goes to the server's log.

    ipywidgets shows an exception of a widget's message (a page sending a bad payload,
    a handler that is not guarded) through IPython's traceback, which ipykernel sends on
    iopub -- to every websocket of the kernel, naming the server's files; Voilà's
    ``show_tracebacks = False`` hides only the notebook's cells.  ``_showtraceback`` is
    the one way an error message leaves an IPython kernel, so it is replaced on this
    shell alone (``config/voila.py`` calls this in the app's kernels; JupyterLab keeps
    its tracebacks).  Python's logging and warnings, which would go to ``sys.stderr``
    (forwarded to the page as well), go to the kernel process's own standard error.
    """
    server_log = logging.StreamHandler(_process_stderr())
    server_log.setFormatter(logging.Formatter("[guyenne app kernel] %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(server_log)
    logging.captureWarnings(True)
    send = shell._showtraceback

    def short(etype: type[BaseException], evalue: BaseException, _stb: list[str]) -> None:
        log.error("an error in the app's kernel", exc_info=(etype, evalue, evalue.__traceback__))
        words = gettext("unexpected error ({error}); it was logged").format(error=etype.__name__)
        send(etype, words, [words])

    shell._showtraceback = short


def _process_stderr() -> TextIO:
    """The kernel process's standard error as it was before ipykernel forwarded it to the page (the server's log)."""
    copy = getattr(sys.stderr, "_original_stdstream_copy", None)  # ipykernel forwards even the descriptor 2
    return open(copy, "w", buffering=1, closefd=False) if copy is not None else sys.__stderr__
