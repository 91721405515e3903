"""The deck profile: written whole or not at all, shared as one archive, and used by the
reader in place of our art once it exists."""

from __future__ import annotations

import io
import json
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.deck_profile import (
    ProfileError,
    find_profile,
    import_profile,
    load_profile,
    write_profile,
)
from firmware.enrol import EnrolledDeck, PassInfo
from firmware.enrollment import build_reader, learn_profile, reference_images
from referee.games import get_game
from vision.mat import default_mat

CARD_MM = (60.0, 91.0)  # not Deserto's print-and-play size


def enrolled_deserto(passes: int = 1, dark_rims: bool = False, dark_faces: bool = False
                     ) -> EnrolledDeck:
    art = reference_images(get_game("deserto").deck)
    return EnrolledDeck(
        deck="deserto", card_mm=CARD_MM,
        views={code: [image] * passes for code, image in art.items()},
        passes=[PassInfo((60.0, 70.0, 58.0), 1.1, 14)] * passes,
        confusable=[("oasis", "treasure", 0.4)], dark_rims=dark_rims, dark_faces=dark_faces,
        unsure=[("vizier", 0.6)],
    )


def test_a_profile_is_written_whole_and_read_back(tmp_path: Path) -> None:
    folder = write_profile(tmp_path, enrolled_deserto(passes=2), "picamera")
    profile = load_profile(folder)
    assert folder == tmp_path / "decks/deserto"
    assert profile.card_mm == CARD_MM
    assert set(profile.faces) == {"vizier", "brigand", "treasure", "oasis", "back"}
    assert all(len(profile.images()[code]) == 2 for code in profile.faces)
    assert profile.data["confusable"] == [["oasis", "treasure", 0.4]]
    assert profile.data["unsure"] == [["vizier", 0.6]]
    assert profile.data["dark_rims"] is False and not profile.dark_rims
    assert find_profile(tmp_path, "deserto") == profile
    assert find_profile(tmp_path, "tempus") is None and find_profile(None, "deserto") is None


def test_a_failed_write_leaves_the_earlier_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_profile(tmp_path, enrolled_deserto(), "picamera")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    calls = {"n": 0}
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 4:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space left"):
        write_profile(tmp_path, enrolled_deserto(passes=2), "webcam")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert sorted(p.name for p in folder.parent.iterdir()) == ["deserto"]  # no scraps


@pytest.mark.parametrize("suffix", [".zip", ".tar.gz"])
def test_a_profile_travels_to_another_table(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    folder = write_profile(here, enrolled_deserto(), "picamera")
    archive = tmp_path / f"deserto{suffix}"
    assert main(["deck", "profile", "export", "deserto", "--out", str(archive),
                 "--data", str(here)]) == 0
    assert main(["deck", "profile", "import", str(archive), "--data", str(there)]) == 0
    assert "deserto: profile installed" in capsys.readouterr().out
    copied = there / "decks/deserto"
    assert {p.name: p.read_bytes() for p in copied.iterdir()} == {
        p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_bad_archive_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_profile(tmp_path / "data", enrolled_deserto(), "picamera")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    escaping = tmp_path / "escaping.tar.gz"
    with tarfile.open(escaping, "w:gz") as archive:
        content = b"{}"
        info = tarfile.TarInfo("../profile.json")
        info.size = len(content)
        archive.addfile(info, io.BytesIO(content))
    with pytest.raises(ProfileError, match="not a plain file name"):
        import_profile(tmp_path / "data", escaping)
    partial = tmp_path / "partial.zip"
    profile = json.loads((folder / "profile.json").read_text())
    with zipfile.ZipFile(partial, "w") as archive:
        archive.writestr("profile.json", json.dumps(profile))
        archive.write(folder / "vizier.1.jpg", "vizier.1.jpg")
    assert main(["deck", "profile", "import", str(partial), "--data", str(tmp_path / "data")]) == 2
    assert "is missing" in capsys.readouterr().err
    (tmp_path / "junk.zip").write_bytes(b"not an archive")
    with pytest.raises(ProfileError, match="not a .zip or .tar.gz deck profile"):
        import_profile(tmp_path / "data", tmp_path / "junk.zip")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert main(["deck", "profile", "export", "tempus", "--out", str(tmp_path / "t.zip"),
                 "--data", str(tmp_path / "data")]) == 2
    assert "no profile of tempus" in capsys.readouterr().err


def test_the_reader_learns_from_the_profile_and_relearns_when_it_changes(
    tmp_path: Path,
) -> None:
    deck = get_game("deserto").deck
    assert build_reader(deck, default_mat(), data=tmp_path).card_mm == deck.card_mm  # our art
    write_profile(tmp_path, enrolled_deserto(), "picamera")
    learnt = learn_profile.cache_info().misses
    reader = build_reader(deck, default_mat(), data=tmp_path)
    assert reader.card_mm == CARD_MM
    assert build_reader(deck, default_mat(), data=tmp_path).identifier is reader.identifier
    assert learn_profile.cache_info().misses == learnt + 1
    write_profile(tmp_path, enrolled_deserto(passes=2), "webcam")  # enrolled again
    assert build_reader(deck, default_mat(), data=tmp_path).identifier is not reader.identifier
    # photos given on the command line still win over the profile
    photos = tmp_path / "photos"
    photos.mkdir()
    assert build_reader(deck, default_mat(), photos, tmp_path).card_mm == deck.card_mm


@pytest.mark.parametrize(("field", "other", "wrong"), [("dark_rims", "dark_faces", "yes"),
                                                      ("dark_faces", "dark_rims", 1)])
def test_the_profile_keeps_what_it_measured_for_the_reader_and_an_older_one_reads_light(
    tmp_path: Path, field: str, other: str, wrong: object
) -> None:
    # dark_rims (the cards' rim darker than the mat) and dark_faces (faces dark with no
    # light rim), each alone
    deck = get_game("deserto").deck
    folder = write_profile(tmp_path, enrolled_deserto(**{field: True}), "picamera")
    assert getattr(load_profile(folder), field)
    reader = build_reader(deck, default_mat(), data=tmp_path)
    assert getattr(reader, field) and not getattr(reader, other)
    # a profile written before it was measured: light, no error
    data = json.loads((folder / "profile.json").read_text(encoding="utf-8"))
    del data[field]
    (folder / "profile.json").write_text(json.dumps(data), encoding="utf-8")
    assert not getattr(load_profile(folder), field)
    assert not getattr(build_reader(deck, default_mat(), data=tmp_path), field)
    data[field] = wrong
    (folder / "profile.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProfileError, match="fields missing"):
        load_profile(folder)
