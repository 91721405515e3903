"""The in-memory feed firmware publishes into."""

from __future__ import annotations

import doctest
import threading

import pytest

import webui.feed
from webui import InMemoryFeed


def test_publish_bumps_the_version_and_copies_the_snapshot() -> None:
    feed = InMemoryFeed()
    assert feed.snapshot()["version"] == 0
    seats = [{"seat": 0, "name": "Ana", "score": 0}]
    assert feed.publish({"status": "playing", "seats": seats}) == 1
    seats[0]["score"] = 99
    snapshot = feed.snapshot()
    assert snapshot == {
        "status": "playing",
        "seats": [{"seat": 0, "name": "Ana", "score": 0}],
        "version": 1,
    }
    snapshot["status"] = "changed by a reader"
    assert feed.snapshot()["status"] == "playing"


def test_a_snapshot_that_is_not_json_is_refused_and_nothing_changes() -> None:
    feed = InMemoryFeed()
    with pytest.raises(TypeError):
        feed.publish({"when": object()})
    assert feed.snapshot()["version"] == 0


def test_wait_for_change_times_out_or_wakes_on_publish() -> None:
    feed = InMemoryFeed()
    assert feed.wait_for_change(0, timeout=0.01) == 0
    assert feed.wait_for_change(5, timeout=0.01) == 0
    publisher = threading.Timer(0.05, feed.publish, args=({"status": "playing"},))
    publisher.start()
    # Woken by the publish: a timeout would return the old version, 0.
    assert feed.wait_for_change(0, timeout=30.0) == 1
    publisher.join()


def test_close_wakes_a_waiting_page_and_later_waits_return_at_once() -> None:
    feed = InMemoryFeed()
    woken: list[int] = []
    waiter = threading.Thread(target=lambda: woken.append(feed.wait_for_change(0, 3600.0)))
    waiter.start()
    feed.close()
    waiter.join(timeout=60)  # a guard: without the close it would wait an hour
    assert not waiter.is_alive() and woken == [0]
    assert feed.wait_for_change(0, 3600.0) == 0
    assert feed.publish({"status": "playing"}) == 1  # a late publish is harmless


def test_the_docstring_example_runs() -> None:
    assert doctest.testmod(webui.feed).failed == 0
