"""The deck profile: a table's own deck as its camera enrolled it, kept in the data folder.

    <data>/decks/<deck>/profile.json    deck, card size and rims, when, each pass's light,
                                        the faces
    <data>/decks/<deck>/<code>.<n>.jpg  the views of each face (n: the pass), the back too

`run`, `replay` and `vision identify` learn the deck's faces from it once it exists.
A profile is written whole or not at all: into a folder beside it, every file synced,
then renamed into place, so a failure at any point leaves the earlier profile as it
was. `export_profile` / `import_profile` carry it to another table as one .zip or
.tar.gz.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import cv2
import numpy as np

from firmware.enrol import EnrolledDeck
from referee.core import RefereeError
from referee.decks import load_deck

PROFILE_FILE = "profile.json"
FORMAT = 1
VIEW_QUALITY = 92
MAX_ARCHIVE_BYTES = 200_000_000


class ProfileError(Exception):
    """A deck profile that cannot be read, written, exported or imported; one line."""


@dataclass(frozen=True)
class DeckProfile:
    """A profile as stored: where, which deck, the card size, the view files per face."""

    folder: Path
    deck: str
    card_mm: tuple[float, float]
    faces: dict[str, list[str]]  # code -> view file names, first pass first
    data: dict[str, Any]  # the whole profile.json
    dark_rims: bool = False  # the cards' rim is darker than the mat (find_cards looks so)
    dark_faces: bool = False  # some faces dark with no light rim (find_cards looks so)

    def key(self) -> str:
        """What the learnt identifier is cached under: the profile's content."""
        digest = hashlib.sha256((self.folder / PROFILE_FILE).read_bytes())
        return f"{self.folder}:{digest.hexdigest()}"

    def images(self) -> dict[str, list[np.ndarray]]:
        """The views of every face (BGR), first pass first."""
        out: dict[str, list[np.ndarray]] = {}
        for code, names in self.faces.items():
            views = []
            for name in names:
                image = cv2.imread(str(self.folder / name), cv2.IMREAD_COLOR)
                if image is None:
                    raise ProfileError(f"{self.folder / name}: missing or not an image")
                views.append(np.asarray(image, np.uint8))
            out[code] = views
        return out


def profile_folder(data: Path, deck: str) -> Path:
    return data / "decks" / deck


def find_profile(data: Path | None, deck: str) -> DeckProfile | None:
    """The deck's profile in the data folder, if one was written."""
    if data is None:
        return None
    folder = profile_folder(data, deck)
    if not (folder / PROFILE_FILE).is_file():
        return None
    return load_profile(folder)


def load_profile(folder: Path) -> DeckProfile:
    """Read and check a profile folder; ProfileError says what is wrong."""
    path = folder / PROFILE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ProfileError(f"{path}: cannot read the deck profile ({error.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProfileError(f"{path}: not a valid deck profile (bad JSON)") from None
    try:
        if data["format"] != FORMAT:
            raise ProfileError(f"{path}: profile format {data['format']!r}, this table reads "
                               f"{FORMAT}")
        deck = str(data["deck"])
        width, height = (float(v) for v in data["card_mm"])
        faces = {str(code): [str(n) for n in names] for code, names in data["faces"].items()}
        dark_rims = data.get("dark_rims", False)  # a profile written before: light rims
        dark_faces = data.get("dark_faces", False)  # and light faces
        if not isinstance(dark_rims, bool) or not isinstance(dark_faces, bool):
            raise ValueError("dark_rims and dark_faces are true or false")
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ProfileError(f"{path}: not a valid deck profile (fields missing)") from None
    try:
        codes = set(load_deck(deck).codes)
    except RefereeError:
        raise ProfileError(f"{path}: profile of an unknown deck {deck!r}") from None
    missing = sorted(codes - set(faces))
    if missing:
        raise ProfileError(f"{path}: no views of {', '.join(missing[:4])}")
    for names in faces.values():
        for name in names:
            if not _plain_name(name) or not (folder / name).is_file():
                raise ProfileError(f"{path}: view {name!r} is missing")
    return DeckProfile(folder=folder, deck=deck, card_mm=(width, height), faces=faces, data=data,
                       dark_rims=dark_rims, dark_faces=dark_faces)


def write_profile(data: Path, enrolled: EnrolledDeck, camera: str,
                  now: datetime | None = None) -> Path:
    """Write the enrolled deck as its profile in the data folder, whole or not at all."""
    when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    files: dict[str, bytes] = {}
    faces: dict[str, list[str]] = {}
    for code, views in enrolled.views.items():
        faces[code] = []
        for n, view in enumerate(views, start=1):
            ok, jpeg = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, VIEW_QUALITY])
            if not ok:
                raise ProfileError(f"the view {n} of {code} could not be encoded")
            name = f"{code}.{n}.jpg"
            files[name] = jpeg.tobytes()
            faces[code].append(name)
    profile = {
        "format": FORMAT, "deck": enrolled.deck,
        "card_mm": [round(enrolled.card_mm[0], 1), round(enrolled.card_mm[1], 1)],
        "dark_rims": enrolled.dark_rims, "dark_faces": enrolled.dark_faces,
        "enrolled": when, "camera": camera,
        "passes": [p.to_json() for p in enrolled.passes],
        "confusable": [[a, b, share] for a, b, share in enrolled.confusable],
        "unsure": [[code, share] for code, share in enrolled.unsure],
        "faces": faces,
    }
    files[PROFILE_FILE] = (json.dumps(profile, indent=2) + "\n").encode()
    folder = profile_folder(data, enrolled.deck)
    _replace_folder(folder, files)
    return folder


def _replace_folder(folder: Path, files: Mapping[str, bytes]) -> None:
    """Put `files` in `folder` in one step: written and synced beside it, then renamed
    over it. Until the rename, the earlier folder is untouched."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
    try:
        for name, content in files.items():
            with (fresh / name).open("wb") as out:
                out.write(content)
                out.flush()
                os.fsync(out.fileno())
        _sync_dir(fresh)
        old = folder.parent / f".{folder.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if folder.exists():
            folder.rename(old)
        fresh.rename(folder)
        _sync_dir(folder.parent)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _plain_name(name: str) -> bool:
    path = PurePosixPath(name)
    return len(path.parts) == 1 and name not in ("", ".", "..") and "\\" not in name


def export_profile(data: Path, deck: str, out: Path) -> Path:
    """The deck's profile as one archive (.zip, or .tar.gz / .tgz) to share."""
    profile = find_profile(data, deck)
    if profile is None:
        raise ProfileError(f"no profile of {deck} in {data}: run `tableref enrol --game ...` "
                           "first")
    names = [PROFILE_FILE] + [n for views in profile.faces.values() for n in views]
    if out.name.endswith(".zip"):
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in names:
                archive.write(profile.folder / name, name)
    elif out.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(out, "w:gz") as archive:
            for name in names:
                archive.add(profile.folder / name, name)
    else:
        raise ProfileError(f"{out}: name it .zip or .tar.gz")
    return out


def import_profile(data: Path, archive: Path) -> DeckProfile:
    """Install a profile archive (from `export_profile`) as its deck's profile here,
    whole or not at all; ProfileError names what is wrong with it."""
    files = _archive_files(archive)
    if PROFILE_FILE not in files:
        raise ProfileError(f"{archive}: no {PROFILE_FILE} in it: not a deck profile")
    with tempfile.TemporaryDirectory() as scratch:
        check = Path(scratch)
        for name, content in files.items():
            (check / name).write_bytes(content)
        deck = load_profile(check).deck
    folder = profile_folder(data, deck)
    _replace_folder(folder, files)
    return load_profile(folder)


def _archive_files(archive: Path) -> dict[str, bytes]:
    """The plain files of an archive (no folders, no links, no paths out of it)."""
    if not archive.is_file():
        raise ProfileError(f"{archive}: no such file")
    if archive.stat().st_size > MAX_ARCHIVE_BYTES:
        raise ProfileError(f"{archive}: too large for a deck profile")
    files: dict[str, bytes] = {}
    try:
        if zipfile.is_zipfile(archive):
            with zipfile.ZipFile(archive) as z:
                for info in z.infolist():
                    if info.is_dir():
                        continue
                    files[_member(archive, info.filename)] = z.read(info)
        else:
            with tarfile.open(archive, "r:*") as t:
                for member in t.getmembers():
                    if member.isdir():
                        continue
                    extracted = t.extractfile(member) if member.isfile() else None
                    if extracted is None:
                        raise ProfileError(f"{archive}: {member.name!r} is not a plain file")
                    files[_member(archive, member.name)] = extracted.read()
    except (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError):
        raise ProfileError(f"{archive}: not a .zip or .tar.gz deck profile") from None
    return files


def _member(archive: Path, name: str) -> str:
    if not _plain_name(name):
        raise ProfileError(f"{archive}: {name!r} is not a plain file name")
    return name

