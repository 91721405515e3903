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
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from firmware.deck_profile import find_profile, load_profile, profile_folder
from firmware.saved_identifiers import saved_or_learnt
from referee import decks
from referee.decks import Deck, load_deck
from vision.deck_art import FaceArt, paint_back, paint_face
from vision.enrolment import cards_in_photos
from vision.identify import CardIdentifier, Identifier
from vision.mat import MatSpec
from vision.table_reader import TableReader
from vision.template_identifier import TemplateIdentifier

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
    photos: dict[str, np.ndarray] = {}
    for code in list(references):
        for suffix in (".jpg", ".jpeg", ".png"):
            path = enrolled / f"{code}{suffix}"
            if not path.is_file():
                continue
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None or min(image.shape[:2]) < 32:
                raise EnrollmentError(f"{path}: not a readable photo of a card")
            photos[code] = np.asarray(image, dtype=np.uint8)
            break
    # all at once: the cards found whole show the deck's proportions, by which a card
    # touching or running off its photo's edge is found too
    references |= dict(zip(photos, cards_in_photos(list(photos.values())), strict=True))
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
                           profile.card_mm, dark_rims=profile.dark_rims,
                           dark_faces=profile.dark_faces)
    return TableReader(mat, deck_identifier(deck.name, enrolled, None, data, save),
                       deck.card_mm)


@functools.lru_cache(maxsize=8)
def deck_identifier(deck_name: str, enrolled: Path | None, profile_key: str | None,
                    data: Path | None, save: bool = True) -> Identifier:
    """The identifier of a deck's faces (from the photos in `enrolled`, else its profile in
    `data` whose content is `profile_key`, else our art), once per process. Real cards (a
    profile, photos) are learnt in a moment; our art's discriminant takes seconds and
    memory, so it is loaded from the data folder if it was saved there, else learnt (and
    saved)."""
    if profile_key is not None and data is not None:
        return learn_profile(profile_folder(data, deck_name), profile_key)
    if enrolled is not None:
        if not enrolled.is_dir():
            raise EnrollmentError(f"{enrolled}: no such folder of deck photos")
        return learn_photos(deck_name, enrolled)
    learn = functools.partial(learn_faces, deck_name)
    if data is None:
        return learn()
    return saved_or_learnt(data, deck_name, deck_digest(deck_name), learn, save=save)


def deck_digest(deck_name: str) -> str:
    """What our art of a packaged deck is painted from: its data file."""
    text = resources.files(decks).joinpath(f"{deck_name}.json").read_bytes()
    return hashlib.sha256(text).hexdigest()


@functools.lru_cache(maxsize=4)
def learn_profile(folder: Path, key: str) -> TemplateIdentifier:
    """The identifier for a deck profile, learnt once per profile content (`key`) from
    every view of each face (one per enrolment pass): real cards, named by shape and
    colour (vision.template_identifier)."""
    return TemplateIdentifier.from_references(load_profile(folder).images())


@functools.lru_cache(maxsize=8)
def learn_faces(deck_name: str) -> CardIdentifier:
    """The identifier of our own art for a packaged deck, learnt once per process: a
    discriminant (vision.identify)."""
    deck = load_deck(deck_name)
    # A fixed seed: the same references always teach the same identifier.
    return CardIdentifier.from_references(reference_images(deck),
                                          np.random.default_rng(ENROLLMENT_SEED),
                                          card_mm=deck.card_mm)


@functools.lru_cache(maxsize=8)
def learn_photos(deck_name: str, enrolled: Path) -> TemplateIdentifier:
    """The identifier of a packaged deck whose faces the photos in `enrolled` show (our
    art for the others): real cards, compared by shape and colour."""
    return TemplateIdentifier.from_references(reference_images(load_deck(deck_name), enrolled))
