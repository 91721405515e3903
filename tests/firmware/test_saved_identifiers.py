"""The learnt identifiers kept in the data folder: `run` loads the one saved at install
and answers as if it had learnt it; a missing, unreadable or stale file is learnt again
with one line and saved anew, never a crash."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from firmware import saved_identifiers
from firmware.enrollment import build_reader, deck_identifier, learn_faces, reference_images
from firmware.saved_identifiers import identifier_path, saved_or_learnt
from referee.games import get_game
from vision.identify import CardIdentifier
from vision.mat import default_mat


@pytest.fixture(scope="module")
def small() -> CardIdentifier:
    """A Deserto identifier learnt from a few views: quick to learn."""
    references = reference_images(get_game("deserto").deck)
    return CardIdentifier.from_references(references, np.random.default_rng(1), views=4)


class Learning:
    """learn() for saved_or_learnt, counting its calls."""

    def __init__(self, identifier: CardIdentifier) -> None:
        self.identifier, self.calls = identifier, 0

    def __call__(self) -> CardIdentifier:
        self.calls += 1
        return self.identifier


def patches() -> list[np.ndarray]:
    rng = np.random.default_rng(2)
    return [rng.integers(0, 256, (88, 64, 3), np.uint8) for _ in range(8)]


def test_learnt_once_then_loaded_with_the_same_answers(
    tmp_path: Path, small: CardIdentifier, capsys: pytest.CaptureFixture[str],
) -> None:
    saved_or_learnt(tmp_path / "a", "deserto", "deck v1", Learning(small))
    said = capsys.readouterr()
    assert said.err == "" and said.out.startswith("tableref: learnt the deserto cards")
    learn, err = Learning(small), io.StringIO()
    assert saved_or_learnt(tmp_path, "deserto", "deck v1", learn, err, err) is small
    assert learn.calls == 1
    assert err.getvalue().count("\n") == 1
    assert "learnt the deserto cards, saved in" in err.getvalue()
    err = io.StringIO()
    loaded = saved_or_learnt(tmp_path, "deserto", "deck v1", learn, err, err)
    assert learn.calls == 1 and err.getvalue() == ""
    assert loaded is not small and loaded.codes == small.codes
    assert loaded.identify_many(patches()) == small.identify_many(patches())


def test_other_cards_or_code_are_learnt_again(tmp_path: Path, small: CardIdentifier,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    learn = Learning(small)
    saved_or_learnt(tmp_path, "deserto", "deck v1", learn, io.StringIO())
    err = io.StringIO()
    saved_or_learnt(tmp_path, "deserto", "deck v2", learn, err, err)  # the deck's data changed
    assert learn.calls == 2 and "was of other cards or older code" in err.getvalue()
    monkeypatch.setattr(saved_identifiers, "code_version", lambda: "the code changed")
    err = io.StringIO()
    saved_or_learnt(tmp_path, "deserto", "deck v2", learn, err, err)
    assert learn.calls == 3 and "older code" in err.getvalue()
    saved_or_learnt(tmp_path, "deserto", "deck v2", learn, io.StringIO())
    assert learn.calls == 3  # saved anew under the new version


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04 not a zip", b"\x93NUMPY junk"])
def test_an_unreadable_file_is_learnt_again_and_replaced(tmp_path: Path, small: CardIdentifier,
                                                         damage: bytes) -> None:
    path = identifier_path(tmp_path, "deserto")
    path.parent.mkdir()
    path.write_bytes(damage)
    learn, err = Learning(small), io.StringIO()
    assert saved_or_learnt(tmp_path, "deserto", "deck v1", learn, err, err) is small
    assert learn.calls == 1 and err.getvalue().count("\n") == 1
    assert "could not be read" in err.getvalue()
    saved_or_learnt(tmp_path, "deserto", "deck v1", learn, io.StringIO())
    assert learn.calls == 1
    assert [p.name for p in path.parent.iterdir()] == ["deserto.npz"]  # no temporary left


def test_a_data_folder_that_cannot_be_written_only_means_learning_again(
    tmp_path: Path, small: CardIdentifier,
) -> None:
    (tmp_path / "identifiers").write_text("a file where the folder goes")
    learn, err = Learning(small), io.StringIO()
    assert saved_or_learnt(tmp_path, "deserto", "deck v1", learn, err, err) is small
    [line] = err.getvalue().splitlines()
    assert "cannot save them" in line and "they are learnt again next start" in line


def test_a_command_that_only_reads_loads_but_never_writes(tmp_path: Path,
                                                          small: CardIdentifier) -> None:
    learn, err = Learning(small), io.StringIO()
    assert saved_or_learnt(tmp_path, "deserto", "v1", learn, err, err, save=False) is small
    assert err.getvalue() == "" and not (tmp_path / "identifiers").exists()
    saved_or_learnt(tmp_path, "deserto", "v1", learn, io.StringIO())
    loaded = saved_or_learnt(tmp_path, "deserto", "v1", learn, err, err, save=False)
    assert learn.calls == 2 and loaded is not small and err.getvalue() == ""


def test_the_reader_of_a_packaged_deck_loads_what_was_saved(tmp_path: Path) -> None:
    deck = get_game("deserto").deck
    learnt = build_reader(deck, default_mat(), data=tmp_path).identifier
    assert identifier_path(tmp_path, "deserto").is_file()
    deck_identifier.cache_clear()  # as a new process would
    misses = learn_faces.cache_info().misses
    loaded = build_reader(deck, default_mat(), data=tmp_path).identifier
    assert learn_faces.cache_info().misses == misses and loaded is not learnt
    assert loaded.identify_many(patches()) == learnt.identify_many(patches())
