"""Reading the admin forms strictly: a malformed field refuses the whole request before
the table is asked anything, so a bad form changes nothing.

Choices travel as JSON (`"true"`, `"\\"house\\""`, `"3"`) so that a house option keeps
its type: `true` is not `1`, and the game checks both. What a form may contain comes
from the control (the games, the snapshot's page moves and unknown cards), never from
rules written here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict

from webui.security import Label, Refused

PIN = re.compile(r"[0-9]{4,8}")
WHOLE = re.compile(r"-?[0-9]{1,9}")
LONGEST_NAME = 24
SEAT_KINDS = ("press", "hold", "double")

Form = MultiDict[str, str]


def field(form: Form, name: str, label: str | Label) -> str:
    """A field that must be there and not blank, stripped."""
    value = (form.get(name) or "").strip()
    if not value:
        raise Refused(400, "error.missing", field=label)
    return value


def whole(form: Form, name: str, label: str | Label, lowest: int, highest: int) -> int:
    """A whole number from `lowest` to `highest`."""
    value = field(form, name, label)
    if not WHOLE.fullmatch(value) or not lowest <= int(value) <= highest:
        raise Refused(400, "error.whole", field=label, lowest=lowest, highest=highest)
    return int(value)


def same(a: Any, b: Any) -> bool:
    """Equal and of the same type (JSON true is not 1)."""
    return type(a) is type(b) and bool(a == b)


def choice(form: Form, name: str, label: str | Label, choices: Sequence[Any]) -> Any:
    """One of `choices`, sent as its JSON text."""
    text = field(form, name, label)
    try:
        value = json.loads(text)
    except ValueError:
        raise Refused(400, "error.choice", field=label) from None
    if not any(same(value, allowed) for allowed in choices):
        raise Refused(400, "error.choice", field=label)
    return value


def pin(form: Form, name: str = "pin") -> str:
    """A PIN: 4 to 8 digits, nothing else."""
    value = form.get(name) or ""
    if not PIN.fullmatch(value):
        raise Refused(400, "error.pin_format")
    return value


def new_pin(form: Form) -> str:
    """The PIN typed twice, the same both times."""
    value = pin(form, "pin")
    if form.get("again") != value:
        raise Refused(400, "error.pin_mismatch")
    return value


def seat_press(form: Form, seats: Sequence[Mapping[str, Any]]) -> tuple[int, str]:
    """A seat button on the page: a seat without a physical button, and a gesture."""
    without = [int(seat["seat"]) for seat in seats if seat.get("button") is False]
    if not without:
        raise Refused(400, "error.no_page_buttons")
    numbers = [int(seat["seat"]) for seat in seats]
    seat = whole(form, "seat", Label("field.seat"), min(numbers), max(numbers))
    if seat not in without:
        raise Refused(400, "error.seat_has_button")
    kind = field(form, "kind", Label("field.kind"))
    if kind not in SEAT_KINDS:
        raise Refused(400, "error.kind")
    return seat, kind


def claimed_press(form: Form, seats: Sequence[Mapping[str, Any]]) -> int | None:
    """The seat a phone says is its own ("This is me"), or None to let it go: a seat
    whose buttons are on the page."""
    if not form.get("seat"):
        return None
    without = [int(seat["seat"]) for seat in seats if seat.get("button") is False]
    if not without:
        raise Refused(400, "error.no_page_buttons")
    seat = whole(form, "seat", Label("field.seat"), min(without), max(without))
    if seat not in without:
        raise Refused(400, "error.seat_has_button")
    return seat


def start_header(form: Form, games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """{game, seats, first, options} for `start_match`, from the new-match form."""
    name = field(form, "game", Label("field.game"))
    game = next((item for item in games if item.get("name") == name), None)
    if game is None:
        raise Refused(400, "error.game", game=name)
    names = [value.strip() for value in form.getlist("seat") if value.strip()]
    lowest, highest = int(game["min_seats"]), int(game["max_seats"])
    if not lowest <= len(names) <= highest:
        raise Refused(400, "error.seat_count", title=game.get("title", name),
                      lowest=lowest, highest=highest, given=len(names))
    for seat_name in names:
        if len(seat_name) > LONGEST_NAME:
            raise Refused(400, "error.name_length", longest=LONGEST_NAME)
    if len({seat_name.casefold() for seat_name in names}) != len(names):
        raise Refused(400, "error.name_twice")
    first = whole(form, "first", Label("field.first"), 0, len(names) - 1)
    options = {
        option["name"]: choice(form, f"option-{option['name']}", Label("field.option"),
                               option["choices"])
        for option in game.get("options") or []
        if option.get("choices")
    }
    return {"game": name, "seats": names, "first": first, "options": options}


def page_move(form: Form, offered: Sequence[Mapping[str, Any]],
              seats: Sequence[Mapping[str, Any]]) -> tuple[int, str, dict[str, Any]]:
    """(seat, kind, answers) for one of the snapshot's page moves."""
    kind = field(form, "move", Label("field.move"))
    candidates = [item for item in offered if item.get("move") == kind]
    if not candidates or not seats:
        raise Refused(400, "error.page_move", move=kind)
    numbers = [int(seat["seat"]) for seat in seats]
    seat = whole(form, "seat", Label("field.seat"), min(numbers), max(numbers))
    move = next((item for item in candidates if seat in (item.get("seats") or [])), None)
    if move is None:
        raise Refused(400, "error.page_move_seat")
    answers: dict[str, Any] = {}
    for item in move.get("fields") or []:
        label = str(item.get("label") or item["name"])
        if item.get("choices"):
            answers[item["name"]] = choice(form, f"field-{item['name']}", label,
                                           item["choices"])
        else:
            answers[item["name"]] = whole(form, f"field-{item['name']}", label,
                                          int(item.get("minimum", 0)),
                                          int(item.get("maximum", 0)))
    return seat, kind, answers


def unknown_card(form: Form, unknown: Sequence[Mapping[str, Any]],
                 codes: Sequence[str]) -> tuple[int, str]:
    """(card, code): which of the snapshot's unknown cards, and the code it is."""
    numbers = [int(item["card"]) for item in unknown]
    if not numbers:
        raise Refused(400, "error.no_unknown")
    card = whole(form, "card", Label("field.card"), min(numbers), max(numbers))
    if card not in numbers:
        raise Refused(400, "error.no_unknown")
    code = field(form, "code", Label("field.code"))
    if code not in codes:
        raise Refused(400, "error.code", code=code)
    return card, code


def flagged_index(form: Form, snapshot: Mapping[str, Any]) -> int:
    """The index of the flagged play to accept: the one the snapshot shows (if the page
    was stale and another play is flagged now, the table is asked again)."""
    flagged = snapshot.get("flagged")
    if not flagged:
        raise Refused(400, "error.nothing_flagged")
    if whole(form, "index", Label("field.index"), 0, 10**9) != int(flagged["index"]):
        raise Refused(400, "error.flag_moved")
    return int(flagged["index"])
