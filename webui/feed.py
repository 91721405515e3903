"""The live feed: the snapshot firmware publishes and the page shows.

    >>> feed = InMemoryFeed()
    >>> feed.publish({"status": "playing", "message": "Ana to play"})
    1
    >>> feed.snapshot()["message"], feed.wait_for_change(0, timeout=0.0)
    ('Ana to play', 1)
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from typing import Any, Protocol

WAITING_SNAPSHOT: dict[str, Any] = {
    "game": "",
    "title": "tableref",
    "seats": [],
    "table": [],
    "verdicts": [],
    "status": "waiting",
    "message": "Waiting for the table",
    "winners": [],
}


class LiveFeed(Protocol):
    """Where the web app reads the table's state from."""

    def snapshot(self) -> dict[str, Any]:
        """The current state as a JSON-serialisable dict with an int "version"."""
        ...

    def wait_for_change(self, version: int, timeout: float) -> int:
        """Block until the version differs from ``version`` or ``timeout`` s pass.

        Returns the current version.
        """
        ...


class InMemoryFeed:
    """A thread-safe :class:`LiveFeed` that firmware publishes snapshots into."""

    def __init__(self, initial: Mapping[str, Any] = WAITING_SNAPSHOT) -> None:
        self._changed = threading.Condition()
        self._version = 0
        self._snapshot_json = json.dumps({**initial, "version": 0})
        self._closed = False

    def publish(self, snapshot: Mapping[str, Any]) -> int:
        """Replace the snapshot, wake every waiting page and return the new version.

        Raises TypeError if the snapshot is not JSON-serialisable.
        """
        with self._changed:
            version = self._version + 1
            self._snapshot_json = json.dumps({**snapshot, "version": version})
            self._version = version
            self._changed.notify_all()
            return version

    def snapshot(self) -> dict[str, Any]:
        with self._changed:
            text = self._snapshot_json
        snapshot: dict[str, Any] = json.loads(text)
        return snapshot

    def wait_for_change(self, version: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._version != version, timeout)
            return self._version

    def close(self) -> None:
        """Wake every waiting page now and make later waits return at once: on a stop, an
        event stream writes to its closed connection and ends, instead of holding its
        server thread until the next keep-alive."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
