"""Load check of the live page: 30 phones with the page open while a game is played.

Run by hand (not a test):

    .venv/bin/python benchmarks/page_load.py [--phones 30] [--speed 2]

It starts `tableref demo` in a subprocess (the bundled Deserto game replayed at
`--speed` x real time through the whole pipeline, on a fresh data folder), then opens
`--phones` pages at once: each loads the page, its stylesheet and script, then keeps the
server-sent event stream open as a phone's browser does. Every snapshot carries
`published_at`, the server's clock when the move was published, so each phone measures
the delay from move to event, and, fetching the page's changed part (`/live`) as the
page's script does, from move to page updated. Printed: the updates each phone got,
failed requests, and the latencies' p50, p95 and max. Both processes share this
machine's clock and its two cores, so the figures include the load of the replay itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit


@dataclass
class Phone:
    """One phone with the page open: what it received and how late."""

    number: int
    latencies: list[float] = field(default_factory=list)  # move to event received
    shown: list[float] = field(default_factory=list)  # move to the page's part re-fetched
    versions: set[int] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)


def open_page(host: str, port: int, phone: Phone, stop: threading.Event) -> None:
    """Load the page like a browser, then read its event stream until `stop`."""
    try:
        for path in ("/", "/static/style.css", "/static/live.js"):
            connection = http.client.HTTPConnection(host, port, timeout=10)
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status != 200:
                phone.errors.append(f"GET {path}: HTTP {response.status}")
        while not stop.is_set():
            read_events(host, port, phone, stop)
    except OSError as error:
        if not stop.is_set():  # the demo ending closes every stream: not a failure
            phone.errors.append(f"{type(error).__name__}: {error}")


def read_events(host: str, port: int, phone: Phone, stop: threading.Event) -> None:
    """One event stream, until the server ends it (it does every minute) or `stop`."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    if response.status != 200:
        phone.errors.append(f"GET /events: HTTP {response.status}")
        time.sleep(1)
        return
    first = True  # a stream starts with the snapshot as it is: no move to time
    while not stop.is_set():
        line = response.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            received = time.time()
            snapshot = json.loads(line[6:])
            version = int(snapshot.get("version", 0))
            if not first and version not in phone.versions and "published_at" in snapshot:
                published = float(snapshot["published_at"])
                phone.latencies.append(received - published)
                # As the page's script does: fetch the changed part of the page.
                refresh = http.client.HTTPConnection(host, port, timeout=10)
                refresh.request("GET", "/live")
                answer = refresh.getresponse()
                answer.read()
                refresh.close()
                if answer.status == 200:
                    phone.shown.append(time.time() - published)
                else:
                    phone.errors.append(f"GET /live: HTTP {answer.status}")
            phone.versions.add(version)
            first = False
    connection.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def start_demo(speed: float, data: str, session: Path | None = None,
               ) -> tuple[subprocess.Popen[str], str, int] | None:
    """The demo (of `session`, else the bundled one) started in a subprocess with its log
    in `data`, and the host and port of its page once it prints them; None (said on
    stderr) if it never does."""
    command = [sys.executable, "-m", "firmware.cli", "demo", "--port", "0",
               "--speed", str(speed), "--data", data]
    if session is not None:
        command += ["--session", str(session)]
    demo = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert demo.stdout is not None
    line = next((line for line in iter(demo.stdout.readline, "")
                 if line.startswith("tableref page: ")), "")
    if not line:
        print("the demo did not start", file=sys.stderr)
        demo.kill()
        return None
    address = urlsplit(line.split()[2])
    return demo, address.hostname or "127.0.0.1", address.port or 80


def until_finished(demo: subprocess.Popen[str]) -> str:
    """The demo's "replay finished: ..." line, once the game is over (the lines it prints
    before are skipped); "" if it ends without one."""
    assert demo.stdout is not None
    return next((line for line in iter(demo.stdout.readline, "")
                 if line.startswith("replay finished")), "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--speed", type=float, default=2.0, help="replay speed of the game")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as data:
        launched = start_demo(args.speed, data)
        if launched is None:
            return 1
        demo, host, port = launched
        assert demo.stdout is not None
        stop = threading.Event()
        phones = [Phone(n) for n in range(args.phones)]
        threads = [threading.Thread(target=open_page, args=(host, port, phone, stop))
                   for phone in phones]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        finished = until_finished(demo)
        time.sleep(2.0)  # the last update reaches every phone
        stop.set()
        demo.terminate()
        demo.wait(timeout=30)
        for thread in threads:
            thread.join(timeout=40)
        elapsed = time.monotonic() - started

    latencies = [ms * 1000 for phone in phones for ms in phone.latencies]
    updates = [len(phone.versions) for phone in phones]
    errors = [error for phone in phones for error in phone.errors]
    print(f"{args.phones} phones, one game replayed at {args.speed}x in {elapsed:.0f} s "
          f"({finished.strip()})")
    print(f"updates per phone: min {min(updates)}, max {max(updates)}; "
          f"failed requests: {len(errors)}")
    for error in errors[:5]:
        print(f"  {error}")
    shown = [ms * 1000 for phone in phones for ms in phone.shown]
    for name, values in (("move to event", latencies), ("move to page updated", shown)):
        if values:
            print(f"{name}: p50 {percentile(values, 0.5):.1f} ms, "
                  f"p95 {percentile(values, 0.95):.1f} ms, max {max(values):.1f} ms, "
                  f"mean {statistics.fmean(values):.1f} ms over {len(values)} updates")
    return 0 if latencies and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
