"""Serving the app with waitress in a background thread, so firmware's loop keeps the main one.

    server = serve(create_app(feed), host="0.0.0.0", port=8000)
    ...
    server.stop()
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

#: How much output a connection's buffer takes before waitress starts a new one (the
#: old one freed once sent) and makes the task wait for the phone to read. With waitress's
#: 16 MB, the buffer of a phone's open event stream keeps every snapshot it was sent, up
#: to 1 MB in memory: on a Kanaloa table 30 phones held 60 MB more (benchmarks/memory.py).
OUTPUT_BUFFER_BYTES = 64 * 1024


class RunningServer:
    """A waitress server running in its own thread; :meth:`stop` ends it."""

    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        self._socket_map: dict[int, Any] = {}
        self._server: Any = create_server(
            app, map=self._socket_map, host=host, port=port, threads=threads,
            outbuf_high_watermark=OUTPUT_BUFFER_BYTES,
        )
        self.host = str(self._server.effective_host)
        self.port = int(self._server.effective_port)
        self._thread = threading.Thread(target=self._server.run, name="webui", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0, wake: Callable[[], object] | None = None) -> None:
        """Close every connection, stop the server thread and its workers (waiting at most
        `timeout` s for each). `wake`, called once the connections are closed, ends the
        responses that wait (the pages' event streams: `InMemoryFeed.close`), so the
        workers need not be waited for."""
        # Sockets belong to the server thread: close them there, which ends its loop. Not
        # the wake-up pipe (closing waitress's listener closes it too): a worker still
        # writing a response pulls it, and on a closed pipe that is an OSError waitress
        # prints with a traceback. Taken out of the loop, it is closed once the workers are
        # done (left open if one outlives `timeout`: the process is ending). A second stop
        # finds it closed.
        server, trigger = self._server, self._server.trigger

        def close_connections() -> None:
            trigger.del_channel()
            for dispatcher in list(self._socket_map.values()):
                with contextlib.suppress(OSError):
                    if dispatcher is server:
                        wasyncore.dispatcher.close(server)  # the listener alone
                    else:
                        dispatcher.close()

        with contextlib.suppress(OSError):
            trigger.pull_trigger(close_connections)
        self._thread.join(timeout)
        if wake is not None:
            wake()
        server.task_dispatcher.shutdown(timeout=timeout)
        if not server.task_dispatcher.threads:
            server.close()  # the wake-up pipe


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 72) -> RunningServer:
    """Start serving ``app`` in a background thread; port 0 picks a free port.

    Each open page holds one thread for its event stream, and on every move each page
    fetches its changed part too: 30 phones need 30 threads held plus 30 at once, so
    the default leaves room for both (fewer than 40 is refused).
    """
    if threads < 40:
        raise ValueError(f"threads={threads}: use at least 40 so 30 phones with open pages fit")
    server = RunningServer(app, host, port, threads)
    server.start()
    return server
