"""Where the Play tab keeps its games: every move written to disk as it is played, so none is lost.

A game in progress is a journal, ``<date>-<id>.jsonl`` in the games folder: its first line the record's header
and start, then one line per event (``{"event": ...}``) or move taken back (``{"undo": ...}``), each flushed and
synced before the page hears of the move.  A closed tab, a reload or a killed kernel loses at most the line being
written, which a reader leaves out (a last line without its newline).  A finished game becomes the playtest record
``<date>-<id>.json`` beside it (written whole, then renamed over, never half-written) and its journal goes.

A journal is held by the page that plays it (an exclusive ``flock`` on the file, which the system lets go of when
that page's kernel ends, however it ends): another page of the same folder lists it as played elsewhere, not as a
game to resume, so two pages never write one game's moves into one journal.  Where the system has no ``flock``
(Windows), journals are not held and every unfinished one is offered.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import IO, Any, NamedTuple

from ..i18n import gettext as _
from ..engine import Event, GameRecord, RecordError, Undo

try:
    import fcntl
except ImportError:  # Windows: no flock (see the module's words)
    fcntl = None  # type: ignore[assignment]


def games_folder() -> Path:
    """The per-user folder of played games: ``$GUYENNE_GAMES``, else platformdirs' user data folder, else
    ``~/.local/share/guyenne_explore/games``."""
    given = os.environ.get("GUYENNE_GAMES")
    if given:
        return Path(given)
    try:
        from platformdirs import user_data_dir
    except ImportError:
        return Path.home() / ".local" / "share" / "guyenne_explore" / "games"
    return Path(user_data_dir("guyenne_explore")) / "games"


def _locked(path: Path, how: int) -> IO[bytes] | None:
    """``path`` opened and locked without waiting (``how``: fcntl's LOCK_EX or LOCK_SH), or None where another open
    file holds it; the lock lasts as long as the returned file is open (read only: a journal finished meanwhile is
    not made again, FileNotFoundError)."""
    fh = path.open("rb")
    if fcntl is not None:
        try:
            fcntl.flock(fh.fileno(), how | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            return None
    return fh


def played_elsewhere(path: Path) -> bool:
    """Whether a page (of this kernel or another) holds the journal ``path``: it plays that game now."""
    if fcntl is None:
        return False
    fh = _locked(path, fcntl.LOCK_SH)
    if fh is None:
        return True
    fh.close()
    return False


class JournalHeld(Exception):
    """The journal is held by another page, which plays its game now."""


class Journal:
    """A game in progress on disk, held by the page that plays it (see the module's words): :meth:`event` and
    :meth:`undo` append a line each, on disk before they return; :meth:`release` lets another page resume it."""

    def __init__(self, path: Path) -> None:
        """Hold the journal ``path`` (it exists); JournalHeld where another page holds it."""
        self.path = path
        self._held = _locked(path, fcntl.LOCK_EX if fcntl is not None else 0)
        if self._held is None:
            raise JournalHeld(_("{file} is being played in another page").format(file=path.name))

    def release(self) -> None:
        """Let go of the journal (the game left unfinished, or over): another page may resume it."""
        if self._held is not None:
            self._held.close()
            self._held = None

    @classmethod
    def begin(cls, folder: Path, record: GameRecord) -> "Journal":
        """A new journal in ``folder`` for ``record`` (its header and start; any events it already has)."""
        folder.mkdir(parents=True, exist_ok=True)
        date = record.header.date.replace(":", "") if record.header is not None else "game"
        path = folder / f"{date}-{uuid.uuid4().hex[:8]}.jsonl"
        path.touch(exist_ok=False)
        journal = cls(path)
        data = record.to_json()
        journal._append({"header": data.get("header"), "start": data["start"]})
        for i, event in enumerate(record.events):
            journal.event(event, record.thought(i))
        return journal

    def event(self, event: Event, think_ms: int | None) -> None:
        """Keep the next event of the game (with its thinking time)."""
        line = event.to_json()
        if think_ms is not None:
            line["think_ms"] = think_ms
        self._append({"event": line})

    def undo(self, undo: Undo) -> None:
        """Keep a move taken back (the events from ``undo.at`` on are gone from the game)."""
        self._append({"undo": undo.to_json()})

    def finish(self, record: GameRecord) -> Path:
        """The game is over: write its record beside the journal (whole, then renamed) and remove the journal."""
        done = self.path.with_suffix(".json")
        partial = self.path.with_suffix(".json.part")
        partial.write_text(json.dumps(record.to_json(), indent=1), encoding="utf-8")
        os.replace(partial, done)
        self.path.unlink(missing_ok=True)
        self.release()
        return done

    def _append(self, line: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


def read_journal(path: Path) -> GameRecord:
    """The game a journal holds, replayed through the engine; a RecordError names the line and what is wrong."""
    lines = path.read_text(encoding="utf-8").split("\n")
    complete = [line for line in lines[:-1] if line.strip()]  # the last piece has no newline: a line being written
    if not complete:
        raise RecordError(_("{file}: no game in it (an empty journal)").format(file=path.name))
    try:
        parsed = [json.loads(line) for line in complete]
    except json.JSONDecodeError as exc:
        raise RecordError(_("{file}: not a journal of a game: {error}").format(file=path.name, error=exc)) from None
    first, rest = parsed[0], parsed[1:]
    if not isinstance(first, dict) or not all(isinstance(x, dict) and len(x) == 1 for x in rest):
        raise RecordError(_("{file}: not a journal of a game (a start line, then one event or undo a line)").format(
            file=path.name))
    moves: list[Any] = []
    undos: list[Any] = []
    for i, line in enumerate(rest, start=2):
        if "event" in line:
            moves.append(line["event"])
        elif "undo" in line:
            undo = Undo.from_json(line["undo"], f"{path.name}, line {i}, undo")
            undos.append(line["undo"])
            del moves[undo.at:]
        else:
            raise RecordError(_("{file}, line {line}: an event or an undo, not {keys}").format(
                file=path.name, line=i, keys=", ".join(line)))
    data = {key: value for key, value in first.items() if value is not None}
    return GameRecord.from_json({**data, "moves": moves, "undos": undos})


class Unfinished(NamedTuple):
    """The games in progress in a folder, newest first: those no page plays now (to resume), those a page plays now,
    and the journals that cannot be read, with why."""

    good: list[tuple[Path, GameRecord]]
    bad: list[tuple[Path, str]]
    elsewhere: list[tuple[Path, GameRecord]]


def unfinished(folder: Path, mine: Path | None = None) -> Unfinished:
    """The games in progress in ``folder`` (:class:`Unfinished`); ``mine``, the journal this page holds, is in none
    of its lists."""
    found = Unfinished([], [], [])
    for path in sorted(folder.glob("*.jsonl"), reverse=True) if folder.is_dir() else []:
        if path == mine:
            continue
        try:
            record = read_journal(path)
            elsewhere = played_elsewhere(path)
        except FileNotFoundError:  # finished meanwhile, by the page that played it
            continue
        except (OSError, ValueError) as exc:  # RecordError, PositionError, a replay that does not fit
            found.bad.append((path, str(exc)))
        else:
            (found.elsewhere if elsewhere else found.good).append((path, record))
    return found
