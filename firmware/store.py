"""The match store: the log of every match in a SQLite file, the truth after a power cut.

Each committed move is written in its own transaction with WAL and a full sync, so a
match resumes from the log with no committed move lost.

    >>> store = MatchStore.open(":memory:")
    >>> match_id = store.start_match({"game": "deserto", "seats": ["Ana", "Bogdan"]})
    >>> store.append_move(match_id, {"seat": 0, "move": "stuck"})
    >>> store.moves(match_id)
    [{'seat': 0, 'move': 'stuck'}]
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
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
"""


@dataclass(frozen=True)
class StoredMatch:
    id: int
    header: dict[str, Any]
    finished: bool
    result: dict[str, Any] | None


class MatchStore:
    """Match headers and their append-only move logs in one SQLite file."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    @classmethod
    def open(cls, path: str | Path) -> MatchStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(SCHEMA)
        return cls(connection)

    def close(self) -> None:
        self._db.close()

    def start_match(self, header: dict[str, Any]) -> int:
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO matches (header) VALUES (?)", (json.dumps(header),)
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append_move(self, match_id: int, move: dict[str, Any]) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO moves (match_id, position, move) VALUES "
                "(?, (SELECT COUNT(*) FROM moves WHERE match_id = ?), ?)",
                (match_id, match_id, json.dumps(move)),
            )

    def drop_last_move(self, match_id: int) -> None:
        with self._db:
            self._db.execute(
                "DELETE FROM moves WHERE match_id = ? AND position = "
                "(SELECT MAX(position) FROM moves WHERE match_id = ?)",
                (match_id, match_id),
            )

    def finish_match(self, match_id: int, result: dict[str, Any]) -> None:
        with self._db:
            self._db.execute(
                "UPDATE matches SET finished = 1, result = ? WHERE id = ?",
                (json.dumps(result), match_id),
            )

    def moves(self, match_id: int) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT move FROM moves WHERE match_id = ? ORDER BY position", (match_id,)
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def unfinished_match(self) -> StoredMatch | None:
        """The latest match still in progress, to resume after a restart."""
        row = self._db.execute(
            "SELECT id, header, finished, result FROM matches WHERE finished = 0 "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else _stored(row)

    def matches(self) -> list[StoredMatch]:
        rows = self._db.execute(
            "SELECT id, header, finished, result FROM matches ORDER BY id"
        ).fetchall()
        return [_stored(row) for row in rows]


def _stored(row: tuple[Any, ...]) -> StoredMatch:
    return StoredMatch(
        id=row[0],
        header=json.loads(row[1]),
        finished=bool(row[2]),
        result=None if row[3] is None else json.loads(row[3]),
    )
