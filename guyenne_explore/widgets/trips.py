"""What learners trip on: per rulebook section, the illegal moves tried, the retries and the time to a legal move.

A learner's session keeps one :class:`Trips`; the lesson and the puzzles tell it when a step
begins (its rulebook section) and each move tried.  It saves and loads as a small JSON (the
learner's file), and shows the designer a table per section: a section whose steps draw many
illegal tries or retries, or take long, is a sign that its rule reads unclearly.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from ..i18n import gettext as _

#: the counts kept per section, in the file's order
FIELDS = ("steps", "illegal", "retries", "seconds")


class TripsError(ValueError):
    """A learner's file that cannot be read; the message names the field."""


@dataclass
class SectionTrips:
    """One section's counts: steps that reached a legal move, illegal moves tried, tries after the first at a step,
    and the seconds from each step shown to its first legal move, summed."""

    steps: int = 0
    illegal: int = 0
    retries: int = 0
    seconds: float = 0.0


class Trips:
    """A learner's trips per rulebook section; ``clock`` gives seconds (a test passes its own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.sections: dict[str, SectionTrips] = {}
        self._section: str | None = None
        self._shown = 0.0
        self._tries = 0
        self._legal = False

    def begin(self, section: str) -> None:
        """A step of ``section`` is shown: its clock starts."""
        self._section, self._shown, self._tries, self._legal = section, self.clock(), 0, False

    def tried(self, legal: bool) -> None:
        """A move tried at the current step: an illegal one counts, a try after the first is a retry, and the first
        legal one stops the step's clock."""
        if self._section is None:
            return
        row = self.sections.setdefault(self._section, SectionTrips())
        if self._tries:
            row.retries += 1
        self._tries += 1
        if not legal:
            row.illegal += 1
        elif not self._legal:
            self._legal = True
            row.steps += 1
            row.seconds += self.clock() - self._shown

    def to_json(self) -> dict[str, Any]:
        return {"sections": {name: asdict(row) for name, row in sorted(self.sections.items())}}

    @classmethod
    def from_json(cls, data: Any) -> "Trips":
        """A learner's trips from their JSON; a :class:`TripsError` names the field that is wrong."""
        sections = data.get("sections") if isinstance(data, dict) else None
        if not isinstance(sections, dict):
            raise TripsError(_("sections: an object of rulebook sections, each with its counts"))
        trips = cls()
        for name, row in sections.items():
            if not isinstance(row, dict):
                raise TripsError(_("sections.{section}: an object with steps, illegal, retries and seconds").format(
                    section=name))
            values = {}
            for field in FIELDS:
                value = row.get(field, 0)
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                    raise TripsError(_("sections.{section}.{field}: a count of 0 or more, not {value}").format(
                        section=name, field=field, value=json.dumps(value)))
                values[field] = value
            trips.sections[str(name)] = SectionTrips(int(values["steps"]), int(values["illegal"]),
                                                     int(values["retries"]), float(values["seconds"]))
        return trips

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(self.to_json(), fh, indent=1)

    @classmethod
    def load(cls, path: str) -> "Trips":
        try:
            with open(path, encoding="utf-8") as fh:
                return cls.from_json(json.load(fh))
        except json.JSONDecodeError as exc:
            raise TripsError(_("{path}: not JSON ({error})").format(path=path, error=exc.msg)) from None

    def table_html(self) -> str:
        """The designer's table: a row per section, the most troubled first (illegal tries, then retries)."""
        head = "".join(f"<th>{html.escape(h)}</th>" for h in (
            _("section"), _("steps"), _("illegal moves"), _("retries"), _("seconds to a legal move")))
        rows = sorted(self.sections.items(), key=lambda kv: (-kv[1].illegal, -kv[1].retries, kv[0]))
        body = "".join(
            f'<tr data-section="{html.escape(name)}"><td>{html.escape(name)}</td><td>{r.steps}</td><td>{r.illegal}</td>'
            f"<td>{r.retries}</td><td>{r.seconds / r.steps if r.steps else 0:.1f}</td></tr>" for name, r in rows)
        return f'<table class="guyenne-trips"><tr>{head}</tr>{body}</table>'
