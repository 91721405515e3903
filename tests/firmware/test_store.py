"""The SQLite store keeps each match's log, in WAL mode, across reopening."""

from __future__ import annotations

from pathlib import Path

from firmware.store import MatchStore

HEADER = {"game": "deserto", "seats": ["Ana", "Bogdan"], "first": 0, "options": {}}


def test_moves_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "data" / "tableref.sqlite"
    store = MatchStore.open(path)
    match_id = store.start_match(HEADER)
    store.append_move(match_id, {"seat": 0, "move": "place", "cell": "nw", "card": "oasis"})
    store.append_move(match_id, {"seat": 1, "move": "stuck"})
    store.close()
    reopened = MatchStore.open(path)
    resumed = reopened.unfinished_match()
    assert resumed is not None and resumed.id == match_id and resumed.header == HEADER
    assert [m["move"] for m in reopened.moves(match_id)] == ["place", "stuck"]
    mode = reopened._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_undo_drops_only_the_last_move(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "t.sqlite")
    match_id = store.start_match(HEADER)
    for seat in (0, 1, 0):
        store.append_move(match_id, {"seat": seat, "move": "stuck"})
    store.drop_last_move(match_id)
    store.append_move(match_id, {"seat": 1, "move": "stuck"})
    assert [m["seat"] for m in store.moves(match_id)] == [0, 1, 1]


def test_a_finished_match_is_not_resumed(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "t.sqlite")
    match_id = store.start_match(HEADER)
    store.finish_match(match_id, {"final": True, "scores": {"0": 3, "1": 1}, "winners": [0]})
    assert store.unfinished_match() is None
    [stored] = store.matches()
    assert stored.finished and stored.result == {
        "final": True, "scores": {"0": 3, "1": 1}, "winners": [0]
    }


def test_the_move_count_is_counted_in_the_file(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "t.sqlite")
    match_id = store.start_match(HEADER)
    assert store.move_count(match_id) == 0
    for seat in (0, 1):
        store.append_move(match_id, {"seat": seat, "move": "stuck"})
    assert store.move_count(match_id) == len(store.moves(match_id)) == 2
