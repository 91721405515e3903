"""What the page may ask of the table: the live snapshot, setup, corrections, history.

`firmware.service.TableService` implements this; the web app only calls it, so the
page stays a thin layer over what firmware stores and publishes. Every method that
changes something raises `ControlError` with a one-line message for the page when the
request cannot be carried out, and then changes nothing.

The snapshot (`LiveFeed.snapshot`) is a JSON object:

    version       int, bumped on every change
    status        "waiting" (no match) | "playing" | "finished"
    match_id      int | None
    game, title   the game's name and title ("" while waiting)
    seats         [{seat, name, score, to_play, cards_in_hand, button}]  button: the seat
                  has a physical button (else the page offers one)
    table         [{zone, zone_texts: {language: name}, cards: [code], top: code | None,
                  ...}] as the referee sees it
    verdicts      the latest rulings, oldest first: {index, seat, ok, rules, message,
                  severity?, concerns?, texts: {language: message}, accepted: bool,
                  photo: key | None}
    flagged       the latest illegal verdict not yet accepted or taken back, or None
    message       a question for the table or a problem ("" if none); message_texts
                  the same per language
    unknown       [{card: n, x_mm, y_mm, photo: key | None}] cards in view that the
                  camera could not name; `correct_card(n, code)` names one
    codes         the deck's card codes (for corrections and the card art)
    page_moves    [PageMove.to_json() + {"title_texts": {language: title}}], each field
                  with "label_texts" and "choice_texts" (one {language: text} per choice)
    board         None, or what the page draws besides the zones (referee.board): {title,
                  track: [{card, spaces: [{space, name, colour, marks: [...], seats}]}],
                  notes: [{text, colours: [...], seat: seat | None}]}; each word or
                  sentence as {word, texts: {language: text}}
    winners       [seat]
    dealing       the seat dealing now (UNO's deal and first card), else None
    languages     ["en", "ro", ...]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from webui.feed import LiveFeed


class ControlError(Exception):
    """A request the table cannot carry out; the message says why, in one line (English),
    and `texts` ({language: message}), when given, in the page's languages."""

    def __init__(self, message: str, texts: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.texts = dict(texts or {})


class TableControl(LiveFeed, Protocol):
    """The table behind the page (see the module docstring for the snapshot)."""

    # -- setup and corrections (the page asks for the admin PIN first) -------------

    def games(self) -> list[dict[str, Any]]:
        """Games a match can start with: [{name, title, min_seats, max_seats,
        options: [{name, default, choices, doc}]}]."""
        ...

    def start_match(self, header: dict[str, Any]) -> None:
        """Start {game, seats: [names], first, options}; ends the match in progress."""
        ...

    def end_match(self) -> None:
        """End the match in progress now; it goes to the history with its scores."""
        ...

    def undo(self) -> None:
        """Take back the last move."""
        ...

    def accept(self, index: int) -> None:
        """The table accepts the flagged move `index` (an override, logged)."""
        ...

    def correct_card(self, card: int, code: str) -> None:
        """Card `card` of the snapshot's "unknown" list is `code`."""
        ...

    def page_move(self, seat: int, kind: str, fields: dict[str, Any]) -> None:
        """Enter one of the snapshot's "page_moves" for `seat` with the answers `fields`."""
        ...

    # -- seat buttons on the phone (no PIN: like the physical button) ---------------

    def press(self, seat: int, kind: str) -> None:
        """A seat's button on the page: kind is "press", "hold" or "double"."""
        ...

    # -- history ------------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """Ended matches, newest first: [{id, game, title, seats, scores, winners,
        started, ended, moves}] (times as ISO 8601 strings)."""
        ...

    def match_record(self, match_id: int) -> dict[str, Any]:
        """One match move by move: {id, game, title, seats, result, events, moves:
        [{index, seat, move, description, description_texts, ok, rules, message, texts,
        accepted, photo, scores}]}; a move's description is the game's words for it,
        `description_texts` the same in every language."""
        ...

    def tally(self) -> list[dict[str, Any]]:
        """Per game, per player name across ended matches (not those ended before a
        move): [{game, title, lowest_wins, players: [{name, matches, wins, points}]}]."""
        ...

    # -- enrolling the table's own deck (behind the PIN) -------------------------------

    def enrolment(self) -> dict[str, Any] | None:
        """The enrolment under way, or None: {game, title, state ("laying", "confirm",
        "written", "failed"), pass, passes, message, asked: [code] (to lay out now, row by
        row), rows: [cards per row], progress: [seen, total], crops: [{n, name}],
        problems: [text], codes: [code], card_mm, dark_rims (the cards' rim is darker
        than the mat), dark_faces (some faces dark with no light rim round them),
        confusable: [[code, code, share]], unsure: [[code, share]] (faces often left
        unknown), folder}; message_texts ({language: message}),
        problem_texts ([{language: problem}]) and card_texts ({code: {language: name}})
        say the same in each of the page's languages."""
        ...

    def start_enrolment(self, game: str, second_pass: bool) -> None:
        """Enrol `game`'s deck from the camera's frames (the match, if any, waits)."""
        ...

    def answer_enrolment(self, names: dict[int, str], keep: bool = False) -> None:
        """The crops shown are right as named here (crop number -> code); `keep`: keep
        them whatever the layout's problems say (a card framed unlike the others, a pair
        the first pass knows swapped), else a problem refuses them."""
        ...

    def look_again_enrolment(self) -> None:
        """Forget the crops shown and look at the same layout again (the table has put
        the right cards in their places)."""
        ...

    def stop_enrolment(self) -> None:
        """Stop (nothing is written if the enrolment is not done) and forget it."""
        ...

    def enrolment_crop(self, number: int) -> bytes | None:
        """Crop `number` (from 1) of the layout to confirm, as PNG, or None."""
        ...

    # -- pictures -----------------------------------------------------------------------

    def card_image(self, game: str, code: str) -> bytes | None:
        """The face of `code` from `game`'s deck art, as PNG, or None."""
        ...

    def photo(self, key: str) -> bytes | None:
        """The JPEG crop a snapshot or record names by `key`, or None."""
        ...

    # -- the admin PIN ------------------------------------------------------------------

    def pin_is_set(self) -> bool: ...

    def set_pin(self, pin: str) -> None:
        """Set the PIN (first run, or a change after the old one was checked)."""
        ...

    def check_pin(self, pin: str) -> bool: ...

    def secret_key(self) -> bytes:
        """A random key kept with the data, to sign the page's cookies across restarts."""
        ...
