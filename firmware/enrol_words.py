"""What an enrolment tells the table, as one catalogue: key -> the English sentence.

The session (`firmware.enrol`) says each sentence as a `Said`: a plain `str` holding the
English words, exactly as the terminal prints them, that also keeps its key and values.
The page says it again in the reader's language from its own locale files
(`webui/locales/*.json` hold the same keys; `firmware.enrol_page` fills them in), with
the cards named in the table's words ("9 roșu") where the terminal prints their codes.

    >>> said = Said("enrol.say.next", cards=Cards(["red-9", "back"]))
    >>> str(said), said.key
    ('next: red-9, back', 'enrol.say.next')

The terminal's own syntax (the confirm prompt's `y`, `N=CODE`, `y!`, `again`) has no
key: the page asks with buttons and never shows it.
"""

from __future__ import annotations

from typing import Any

ENGLISH: dict[str, str] = {
    # a frame the camera cannot use (vision.calibration.FrameTrouble)
    "enrol.frame.no_frame": "the camera sends no picture: is it plugged in?",
    "enrol.frame.not_image": "the camera's picture cannot be read: check the camera",
    "enrol.frame.too_small": "the camera's picture is too small to see the mat: check the "
                             "camera's settings",
    "enrol.frame.two_streams": "the camera's two pictures do not match: check the camera's "
                               "settings",
    "enrol.frame.tags_unseen": "the mat's tags are not all in view: is the whole mat seen?",
    "enrol.frame.tags_covered": "something lies on a tag in the mat's corners: clear the "
                                "corners",
    "enrol.frame.mat_not_flat": "the mat's corners do not agree: lay the mat flat, not folded",
    # while the table lays out the cards asked for
    "enrol.say.take_away": "take the cards just seen away, then lay out the next ones",
    "enrol.say.clutter": "something else lies on the mat (a hand, cards touching): lay the "
                         "cards apart and take your hands away",
    "enrol.say.count": "lay out {count} cards apart; I see {seen}",
    "enrol.say.hold_still": "hold still",
    "enrol.say.blurred": "the picture is blurred: hold still, and check the camera's focus",
    "enrol.say.no_edges": "the cards' edges do not show against the mat: more light?",
    "enrol.say.off_size": "card {number} is {width} x {height} mm, the deck's are "
                          "{deck_width} x {deck_height} mm: a card of another deck? Put the "
                          "right card there",
    "enrol.say.look_again": "look again: lay out {cards}",
    "enrol.say.next": "next: {cards}",
    "enrol.say.second_pass": "first pass done. Move the mat to another place or light, then "
                             "lay out {cards}",
    "enrol.say.every_face": "every face seen",
    "enrol.say.not_written": "the deck profile could not be written ({reason}); the earlier "
                             "one is kept",
    # what the table is asked about before the crops are kept
    "enrol.problem.framed_one": "card {number} is framed unlike the others (a card of "
                                "another deck?)",
    "enrol.problem.framed_many": "cards {numbers} and {last} are framed unlike the others "
                                 "(cards of another deck?)",
    "enrol.problem.swapped": "{first} and {second} look swapped (crops {crop} and "
                             "{other_crop}), here or in the first pass",
    "enrol.problem.looks_like": "crop {number}, laid as {laid}, looks like {seen}",
    # answers that cannot be carried out
    "enrol.error.twice": "two crops would be {card}: rename the other one too",
    "enrol.error.no_crops": "no crops to confirm now: lay out the cards asked for first",
    "enrol.error.no_data": "this table has no data folder to keep a deck profile in",
    "enrol.error.none": "no enrolment under way (it was stopped): start one again",
}


class Cards(tuple[str, ...]):
    """Card codes a sentence names: the terminal prints the codes, the page its words."""

    def __str__(self) -> str:
        return ", ".join(self)


class Said(str):
    """One of the catalogue's sentences in English, with its key and values."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, **params: Any) -> Said:
        self = super().__new__(cls, ENGLISH[key].format(**params))
        self.key = key
        self.params = params
        return self
