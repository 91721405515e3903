"""The enrolment the admin page drives: the same `EnrolSession` as `tableref enrol`, fed
the live loop's frames while it runs, answered from the page's forms, and written as
the deck profile when every face has been seen (whole or not at all).

What the session says (`firmware.enrol_words`) reaches the page in every language the
page offers (its locale files hold the same keys), the cards named as the page names
them in play (referee's words, "9 roșu") and the back as the page's `enrol.back`.

`TableService` holds one and forwards the page's requests to it (webui.control's
enrolment methods); the status it returns is what the page draws.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from firmware.deck_profile import write_profile
from firmware.enrol import BACK, EnrolError, EnrolSession
from firmware.enrol_words import ENGLISH, Cards, Said
from referee.core import RefereeError
from referee.games import get_game
from referee.text import catalogue, translate
from vision.enrolment import grid_rows
from vision.mat import MatSpec
from webui.control import ControlError
from webui.i18n import Catalogue, load_catalogues

CROP_WIDTH_PX = 168  # the crops as the page shows them


class PageEnrolment:
    """One enrolment started from the page, until it is written or stopped."""

    def __init__(self, game: str, mat: MatSpec, data: Path | None, second_pass: bool) -> None:
        if data is None:
            raise refused(Said("enrol.error.no_data"))
        try:
            self.game = get_game(game)
        except RefereeError as error:
            raise ControlError(str(error)) from None
        self.data = data
        self.session = EnrolSession(self.game.deck, mat, passes=2 if second_pass else 1)
        self.folder: Path | None = None
        self.failure = ""

    def on_frame(self, frame: np.ndarray | None, full: np.ndarray | None = None) -> None:
        if self.session.state != "laying" or frame is None:
            return
        self.session.on_frame(frame, full)

    def answer(self, names: dict[int, str], keep: bool = False) -> None:
        """The table's answer: the crops (numbered from 1) named so, then confirmed;
        `keep`: kept whatever the layout's problems say (`y!` in the terminal)."""
        session = self.session
        if session.state != "confirm" or session.layout is None:
            raise refused(Said("enrol.error.no_crops"))
        renames = [f"{n}={code}" for n, code in sorted(names.items())
                   if 1 <= n <= len(session.layout.names) and session.layout.names[n - 1] != code]
        try:
            if renames:
                session.answer(" ".join(renames))
            session.answer("y!" if keep else "y")
        except EnrolError as error:
            raise refused(error.args[0]) from None
        if session.state == "confirm" and session.layout is not None:
            # a problem of the layout (a card framed unlike the others, a swapped pair)
            # refused a plain yes: say why
            problems = [in_every_language(p) for p in session.layout.problems]
            raise ControlError("; ".join(session.layout.problems),
                               {language: "; ".join(p[language] for p in problems)
                                for language in _page_words()})
        if session.state == "done":
            self._write()

    def look_again(self) -> None:
        """Forget the crops shown and look at the layout again (the right cards laid)."""
        if self.session.state != "confirm":
            raise refused(Said("enrol.error.no_crops"))
        self.session.answer("again")

    def _write(self) -> None:
        try:
            self.folder = write_profile(self.data, self.session.result(), "page")
        except OSError as error:
            self.failure = Said("enrol.say.not_written", reason=error.strerror)

    def crop(self, number: int) -> bytes | None:
        layout = self.session.layout
        if layout is None or not 1 <= number <= len(layout.crops):
            return None
        crop = layout.crops[number - 1]
        scale = CROP_WIDTH_PX / crop.shape[1]
        shown = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        ok, png = cv2.imencode(".png", shown)
        return png.tobytes() if ok else None

    def status(self) -> dict[str, Any]:
        session = self.session
        layout = session.layout
        result = session.result() if session.state == "done" else None
        state = session.state
        if self.folder is not None:
            state = "written"
        elif self.failure:
            state = "failed"
        return {
            "game": self.game.name, "title": self.game.title, "state": state,
            "pass": session.pass_number, "passes": session.passes,
            "message": self.failure or session.message,
            "message_texts": in_every_language(self.failure or session.message),
            "asked": session.asked() if state == "laying" else [],
            "rows": grid_rows(len(session.asked())) if state == "laying" else [],
            "progress": list(session.progress()),
            "crops": [] if layout is None else [
                {"n": i + 1, "name": name} for i, name in enumerate(layout.names)],
            "problems": [] if layout is None else list(layout.problems),
            "problem_texts": [] if layout is None else [in_every_language(p)
                                                        for p in layout.problems],
            "codes": list(session.codes),
            "card_texts": {code: {language: card_words(code, language)
                                  for language in _page_words()} for code in session.codes},
            "card_mm": None if session.card_mm is None else list(session.card_mm),
            "dark_rims": session.dark_rims,
            "dark_faces": session.dark_faces,
            "confusable": [] if result is None else [list(p) for p in result.confusable],
            "unsure": [] if result is None else [list(u) for u in result.unsure],
            "folder": None if self.folder is None else str(self.folder),
        }


def in_every_language(message: str) -> dict[str, str]:
    """{"en": ..., "ro": ...}: `message` as the page says it in each of its languages; a
    message that is not one of the session's sentences reads the same in all."""
    if not isinstance(message, Said):
        return {language: str(message) for language in _page_words()}
    texts = {}
    for language, words in _page_words().items():
        values = {name: ", ".join(card_words(code, language) for code in value)
                  if isinstance(value, Cards) else value
                  for name, value in message.params.items()}
        texts[language] = words.say(message.key, **values)
    return texts


def card_words(code: str, language: str) -> str:
    """A card as the page names it in `language` ("9 roșu"; the back as "spatele")."""
    if code == BACK:
        return _page_words()[language].say("enrol.back")
    return translate(code, catalogue(language))


@cache
def _page_words() -> dict[str, Catalogue]:
    """The page's catalogues with the session's sentences; a language without one of
    them (or its plural forms) says it in English."""
    words = {}
    for language, page in load_catalogues().items():
        english = {key: text for key, text in ENGLISH.items()
                   if key not in page.strings and f"{key}.other" not in page.strings}
        words[language] = Catalogue(language, page.name, {**page.strings, **english})
    return words


def refused(message: str) -> ControlError:
    """The page's refusal of an answer (one of the session's sentences), in every
    language."""
    return ControlError(str(message), in_every_language(message))
