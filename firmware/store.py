"""The match store: every match in a SQLite file, the truth after a power cut.

Each committed move is written in its own transaction with WAL and a full sync, so a
match resumes from the log with no committed move lost. Beside the moves the file
keeps what the page adds: overrides (an accepted flagged move), photo crops of
flagged moves, an audit log of admin actions, and settings (the admin PIN's hash).

    >>> store = MatchStore.open(":memory:")
    >>> match_id = store.start_match({"game": "deserto", "seats": ["Ana", "Bogdan"]})
    >>> store.append_move(match_id, {"seat": 0, "move": "stuck"}, t=1.5)
    >>> store.moves(match_id), store.last_move_time(match_id)
    ([{'seat': 0, 'move': 'stuck'}], 1.5)
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    position INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (match_id, position)
);
CREATE TABLE IF NOT EXISTS photos (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    position INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    PRIMARY KEY (match_id, position)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    match_id INTEGER REFERENCES matches(id),
    at TEXT NOT NULL,
    what TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

#: Columns added after the first release, with their definitions: old files gain them.
ADDED_COLUMNS = {
    "matches": {"started": "TEXT", "ended": "TEXT"},
    "moves": {"t": "REAL", "accepted": "INTEGER NOT NULL DEFAULT 0"},
}


@dataclass(frozen=True)
class StoredMatch:
    id: int
    header: dict[str, Any]
    finished: bool
    result: dict[str, Any] | None
    started: str | None = None
    ended: str | None = None


@dataclass(frozen=True)
class StoredMove:
    """One logged move with what the table added to it."""

    move: dict[str, Any]
    t: float | None
    accepted: bool


class MatchStore:
    """Match headers, their append-only move logs and the page's records in one file.

    Safe to share between the live loop and the page's threads: one lock orders calls.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        self._lock = threading.RLock()

    @classmethod
    def open(cls, path: str | Path) -> MatchStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(SCHEMA)
        for table, columns in ADDED_COLUMNS.items():
            present = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
            for name, definition in columns.items():
                if name not in present:
                    connection.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
        return cls(connection)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- matches ------------------------------------------------------------------

    def start_match(self, header: dict[str, Any]) -> int:
        with self._lock, self._db:
            cursor = self._db.execute(
                "INSERT INTO matches (header, started) VALUES (?, ?)", (json.dumps(header), _now())
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def finish_match(self, match_id: int, result: dict[str, Any]) -> None:
        """The match ended (played out, or ended on the page): it goes to the history."""
        with self._lock, self._db:
            self._db.execute(
                "UPDATE matches SET finished = 1, result = ?, ended = ? WHERE id = ?",
                (json.dumps(result), _now(), match_id),
            )

    def reopen_match(self, match_id: int) -> None:
        """Undo of the move that ended a match: it is in progress again."""
        with self._lock, self._db:
            self._db.execute(
                "UPDATE matches SET finished = 0, result = NULL, ended = NULL WHERE id = ?",
                (match_id,),
            )

    def unfinished_match(self) -> StoredMatch | None:
        """The latest match still in progress, to resume after a restart."""
        with self._lock:
            row = self._db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE finished = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else _stored(row)

    def match(self, match_id: int) -> StoredMatch | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
        return None if row is None else _stored(row)

    def matches(self) -> list[StoredMatch]:
        with self._lock:
            rows = self._db.execute(f"SELECT {MATCH_COLUMNS} FROM matches ORDER BY id").fetchall()
        return [_stored(row) for row in rows]

    # -- moves --------------------------------------------------------------------

    def append_move(self, match_id: int, move: dict[str, Any], t: float | None = None) -> None:
        """Log one move; `t` is the time (s) on the camera's clock when it was seen."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO moves (match_id, position, move, t) VALUES "
                "(?, (SELECT COUNT(*) FROM moves WHERE match_id = ?), ?, ?)",
                (match_id, match_id, json.dumps(move), t),
            )

    def drop_last_move(self, match_id: int) -> None:
        with self._lock, self._db:
            last = self._db.execute(
                "SELECT MAX(position) FROM moves WHERE match_id = ?", (match_id,)
            ).fetchone()[0]
            if last is None:
                return
            for table in ("moves", "photos"):
                self._db.execute(
                    f"DELETE FROM {table} WHERE match_id = ? AND position = ?", (match_id, last)
                )

    def moves(self, match_id: int) -> list[dict[str, Any]]:
        return [stored.move for stored in self.logged_moves(match_id)]

    def logged_moves(self, match_id: int) -> list[StoredMove]:
        with self._lock:
            rows = self._db.execute(
                "SELECT move, t, accepted FROM moves WHERE match_id = ? ORDER BY position",
                (match_id,),
            ).fetchall()
        return [StoredMove(json.loads(move), t, bool(accepted)) for move, t, accepted in rows]

    def move_count(self, match_id: int) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,)
            ).fetchone()
        return int(row[0])

    def last_move_time(self, match_id: int) -> float | None:
        """When the last logged move was seen (camera clock), to resume a replay after it."""
        with self._lock:
            row = self._db.execute(
                "SELECT t FROM moves WHERE match_id = ? ORDER BY position DESC LIMIT 1",
                (match_id,),
            ).fetchone()
        return None if row is None else row[0]

    def accept_move(self, match_id: int, position: int) -> bool:
        """Mark a flagged move as accepted by the table; False if there is no such move."""
        with self._lock, self._db:
            cursor = self._db.execute(
                "UPDATE moves SET accepted = 1 WHERE match_id = ? AND position = ?",
                (match_id, position),
            )
        return cursor.rowcount == 1

    # -- photos, events, settings -------------------------------------------------

    def save_photo(self, match_id: int, position: int, jpeg: bytes) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO photos (match_id, position, jpeg) VALUES (?, ?, ?)",
                (match_id, position, jpeg),
            )

    def photo(self, match_id: int, position: int) -> bytes | None:
        with self._lock:
            row = self._db.execute(
                "SELECT jpeg FROM photos WHERE match_id = ? AND position = ?",
                (match_id, position),
            ).fetchone()
        return None if row is None else bytes(row[0])

    def photo_positions(self, match_id: int) -> set[int]:
        with self._lock:
            rows = self._db.execute(
                "SELECT position FROM photos WHERE match_id = ?", (match_id,)
            ).fetchall()
        return {row[0] for row in rows}

    def log_event(self, match_id: int | None, what: dict[str, Any]) -> None:
        """The audit log: what the admin did on the page (undo, accept, correct, end)."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO events (match_id, at, what) VALUES (?, ?, ?)",
                (match_id, _now(), json.dumps(what)),
            )

    def events(self, match_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT at, what FROM events WHERE match_id = ? ORDER BY id", (match_id,)
            ).fetchall()
        return [{"at": at, **json.loads(what)} for at, what in rows]

    def setting(self, name: str) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM settings WHERE name = ?", (name,)
            ).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, name: str, value: str) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)", (name, value)
            )


MATCH_COLUMNS = "id, header, finished, result, started, ended"


def _stored(row: tuple[Any, ...]) -> StoredMatch:
    return StoredMatch(
        id=row[0],
        header=json.loads(row[1]),
        finished=bool(row[2]),
        result=None if row[3] is None else json.loads(row[3]),
        started=row[4],
        ended=row[5],
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
