"""Stopping cleanly: SIGTERM (systemd stopping the service) and Ctrl-C set an event that
the loop checks between frames, so a stop never lands in the middle of a logged move and
the SQLite log is closed properly. And quickly: the process exits well within a second.

    with stop_on_signals() as stop:
        drive(service, camera, presses, stop=stop, live=True)
"""

from __future__ import annotations

import atexit
import gc
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(Exception):
    """Raised between two frames of a replay when a stop was asked for."""


@contextmanager
def stop_on_signals(stop: threading.Event | None = None) -> Iterator[threading.Event]:
    """An event set by SIGTERM or SIGINT while inside; the old handlers come back after.

    Outside the main thread (where Python runs no signal handler) the event is only
    set by whoever holds it."""
    stop = stop or threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handle(_signal: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = {number: signal.signal(number, handle) for number in STOP_SIGNALS}
    collect_nothing_at_exit()
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def collect_nothing_at_exit() -> None:
    """Freeze every object still alive once the process exits (the log is closed by then).

    Python's finalisation runs the cycle collector over them several times, and with
    numba's compiled kernels loaded that is half a second of a stop on this machine
    (0.1 s a pass): frozen objects are never scanned. Registered once per process."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def wait_until(stop: threading.Event) -> None:
    """Block until `stop` is set; short waits so a signal handler runs at once."""
    while not stop.wait(0.1):
        pass
