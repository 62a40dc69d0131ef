"""Problems and warnings as HTML lines: what every panel shows beside a control.

Its own module so that the form pieces (:mod:`.forms`) and the handler guard
(:mod:`.guard`) can both use it without importing each other.
"""

from __future__ import annotations

import html
from collections.abc import Sequence


def messages_html(problems: Sequence[object], warnings: Sequence[object] = ()) -> str:
    """Problems in red and warnings in amber, one line each, as HTML (problems as text or Problem values)."""
    lines = [f'<div class="guyenne-problem" style="color:#9b1c1c">✗ {html.escape(str(p))}</div>' for p in problems]
    lines += [f'<div class="guyenne-warning" style="color:#8a5a00">⚠ {html.escape(str(m))}</div>' for m in warnings]
    return "".join(lines)
