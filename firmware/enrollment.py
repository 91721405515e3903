"""Which card faces the camera knows: a deck's reference images, and a reader built on them.

By default the references are our own print-and-play art, painted from the deck data.
A table that plays with its own commercial deck enrols it through its camera (`tableref
enrol`, docs/enrolment.md): the deck profile in the data folder then replaces the art,
with the card size it measured. Or it photographs each face once and puts the pictures,
named `<code>.jpg` or `<code>.png` (a card on a table, or already cut out), in a folder;
those replace the art and the profile (`tableref vision identify --deck-photos DIR`,
`tableref run --deck-photos DIR`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from firmware.deck_profile import find_profile, load_profile, profile_folder
from firmware.saved_identifiers import photos_digest, saved_or_learnt
from referee import decks
from referee.decks import Deck, load_deck
from vision.deck_art import FaceArt, paint_back, paint_face
from vision.enrolment import find_card_in_photo
from vision.identify import CardIdentifier
from vision.mat import MatSpec
from vision.table_reader import TableReader

BACK = "back"
ENROLLMENT_SEED = 20261129


def deck_arts(deck: Deck) -> list[FaceArt]:
    """Our print-and-play art for every face of `deck`."""
    return [FaceArt.from_json(face.code, face.art) for face in deck.faces]


def reference_images(deck: Deck, enrolled: Path | None = None) -> dict[str, np.ndarray]:
    """One reference image per face (and the back): the card in each photo of `enrolled`
    (found and cut out upright), else our art."""
    references = {art.code: paint_face(art, deck.card_mm) for art in deck_arts(deck)}
    references[BACK] = paint_back(str(deck.back.get("colour", "#6b3f1d")), deck.card_mm)
    if enrolled is None:
        return references
    if not enrolled.is_dir():
        raise EnrollmentError(f"{enrolled}: no such folder of deck photos")
    for code in list(references):
        for suffix in (".jpg", ".jpeg", ".png"):
            path = enrolled / f"{code}{suffix}"
            if not path.is_file():
                continue
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None or min(image.shape[:2]) < 32:
                raise EnrollmentError(f"{path}: not a readable photo of a card")
            references[code] = find_card_in_photo(np.asarray(image, dtype=np.uint8))
            break
    return references


class EnrollmentError(Exception):
    """A folder of deck photos that cannot be used; the message says which file."""


def build_reader(deck: Deck, mat: MatSpec, enrolled: Path | None = None,
                 data: Path | None = None, save: bool = True) -> TableReader:
    """A table reader that knows every face of `deck` on `mat`: from the photos in
    `enrolled`, else from the deck's profile in the data folder `data`, else our art. With
    a data folder, the identifier saved there is loaded, or the one learnt saved there
    (unless `save` is False) for the next start."""
    profile = find_profile(data, deck.name) if enrolled is None else None
    if profile is not None:
        return TableReader(mat, deck_identifier(deck.name, None, profile.key(), data, save),
                           profile.card_mm)
    return TableReader(mat, deck_identifier(deck.name, enrolled, None, data, save),
                       deck.card_mm)


@functools.lru_cache(maxsize=8)
def deck_identifier(deck_name: str, enrolled: Path | None, profile_key: str | None,
                    data: Path | None, save: bool = True) -> CardIdentifier:
    """The identifier of a deck's faces (from the photos in `enrolled`, else its profile in
    `data` whose content is `profile_key`, else our art), once per process: loaded from
    the data folder if it was saved there, else learnt (and saved)."""
    learn: Callable[[], CardIdentifier]
    if profile_key is not None and data is not None:
        folder, key = profile_folder(data, deck_name), profile_key
        name, source, learn = f"{deck_name}-profile", key, lambda: learn_profile(folder, key)
    elif enrolled is not None:
        if not enrolled.is_dir():
            raise EnrollmentError(f"{enrolled}: no such folder of deck photos")
        name, source = f"{deck_name}-photos", photos_digest(enrolled)
        learn = functools.partial(learn_faces, deck_name, enrolled)
    else:
        name, source = deck_name, deck_digest(deck_name)
        learn = functools.partial(learn_faces, deck_name)
    if data is None:
        return learn()
    return saved_or_learnt(data, name, source, learn, save=save)


def learn_now(deck: Deck, data: Path) -> None:
    """Learn the identifier `run` will load for `deck` (its profile's in `data`, else our
    art's) and save it there now, not at the next start of the table."""
    profile = find_profile(data, deck.name)
    deck_identifier(deck.name, None, None if profile is None else profile.key(), data)


def deck_digest(deck_name: str) -> str:
    """What our art of a packaged deck is painted from: its data file."""
    text = resources.files(decks).joinpath(f"{deck_name}.json").read_bytes()
    return hashlib.sha256(text).hexdigest()


@functools.lru_cache(maxsize=4)
def learn_profile(folder: Path, key: str) -> CardIdentifier:
    """The identifier for a deck profile, learnt once per profile content (`key`) from
    every view of each face (one per enrolment pass)."""
    rng = np.random.default_rng(ENROLLMENT_SEED)
    views = load_profile(folder).images()
    return CardIdentifier.from_references(views, rng)


@functools.lru_cache(maxsize=8)
def learn_faces(deck_name: str, enrolled: Path | None = None) -> CardIdentifier:
    """The identifier for a packaged deck, learnt from our art or the photos in `enrolled`
    once per process."""
    # A fixed seed: the same references always teach the same identifier.
    rng = np.random.default_rng(ENROLLMENT_SEED)
    return CardIdentifier.from_references(reference_images(load_deck(deck_name), enrolled), rng)
