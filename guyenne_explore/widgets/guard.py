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
from collections.abc import Callable
from typing import Any, TypeVar

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
