"""Learnt card identifiers of our own art saved in the data folder, so `run` loads a deck's
instead of learning it: learning takes seconds and, while it lasts, about 100 MB more memory
than the whole table needs afterwards (too much for a 1 GB Pi that also serves 30 phones).

    <data>/identifiers/<deck>.npz           our art

(A deck the table enrolled, by the camera or from photos, is named by
vision.template_identifier, learnt in well under a second with little memory: not saved.)
The install learns them (python -m firmware.warmup --data ...); `vision identify` and
`replay` load them but never write. Each file carries the version it was
learnt under: what it was learnt from (the deck's data, the profile, the photos) and the
code that learns and reads cards. A file of another version, unreadable or missing, is
learnt again and saved anew, said in one line once learnt (stderr when the file could not
be read); a data folder that cannot be written (said on stderr) only means the next start
learns again.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import cv2
import numpy as np
from numpy.lib.npyio import NpzFile
from numpy.typing import NDArray

import vision
from vision.identifier_store import StaleIdentifier, identifier_arrays, identifier_from_arrays
from vision.identify import CardIdentifier

FOLDER = "identifiers"


@functools.cache
def code_version() -> str:
    """A digest of the code an identifier depends on: every vision module (the learning,
    its kernels, the deck art it learns from), the enrolment glue, numpy's and OpenCV's
    versions. Any change to them makes the saved identifiers stale."""
    digest = hashlib.sha256(f"numpy {np.__version__} opencv {cv2.__version__}".encode())
    sources = sorted(Path(vision.__file__).parent.glob("*.py"))
    sources.append(Path(__file__).with_name("enrollment.py"))
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def identifier_path(data: Path, name: str) -> Path:
    return data / FOLDER / f"{name}.npz"


def saved_or_learnt(data: Path, name: str, source: str, learn: Callable[[], CardIdentifier],
                    out: TextIO | None = None, err: TextIO | None = None,
                    save: bool = True) -> CardIdentifier:
    """The identifier saved as `name` in the data folder if it was learnt from `source`
    (a digest of the references) by this code; else `learn()`, saved for the next start
    (unless `save` is False: a command that only reads leaves the data folder as it is).
    A first learning or one after a change of cards or code is said on `out` (stdout), a
    file that cannot be read or written on `err` (stderr)."""
    version = f"{code_version()}:{source}"
    path = identifier_path(data, name)
    try:
        with path.open("rb") as file:
            return identifier_from_arrays(saved_arrays(file), version)
    except FileNotFoundError:
        said = f"tableref: learnt the {name} cards, saved in {path} for the next start"
        stream = out
    except StaleIdentifier:
        said = f"tableref: learnt the {name} cards again: {path} was of other cards or " \
               "older code"
        stream = out
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        said = f"tableref: learnt the {name} cards again: {path} could not be read " \
               f"({type(error).__name__})"
        stream = err or sys.stderr
    identifier = learn()
    if not save:
        return identifier
    try:
        write(path, identifier, version)
    except OSError as error:
        said = f"tableref: learnt the {name} cards, but cannot save them in {path} " \
               f"({error.strerror}): they are learnt again next start"
        stream = err or sys.stderr
    print(said, file=stream or sys.stdout, flush=True)
    return identifier


def saved_arrays(file: BinaryIO) -> dict[str, NDArray[Any]]:
    """Every array of an .npz file (ValueError if it is not one)."""
    loaded = np.load(file, allow_pickle=False)
    if not isinstance(loaded, NpzFile):
        raise ValueError("not an .npz file")
    with loaded:
        return {name: loaded[name] for name in loaded.files}


def write(path: Path, identifier: CardIdentifier, version: str) -> None:
    """Write the identifier whole or not at all (a temporary file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-",
                                         suffix=".npz")
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez(out, allow_pickle=False, **identifier_arrays(identifier, version))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
