"""Reading forms strictly: types kept, ranges and choices checked, nothing guessed."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from webui import forms
from webui.security import Refused


def form(**fields: Any) -> MultiDict[str, str]:
    return MultiDict(fields)


def test_a_choice_keeps_its_json_type() -> None:
    assert forms.choice(form(x="true"), "x", "x", [True, False]) is True
    assert forms.choice(form(x='"house"'), "x", "x", ["house", "official"]) == "house"
    assert forms.choice(form(x="3"), "x", "x", [3, 4]) == 3
    for text, choices in (("1", [True, False]), ("true", [1, 0]), ('"3"', [3]), ("3", ["3"]),
                          ("{", [True]), ("null", [True])):
        with pytest.raises(Refused) as refused:
            forms.choice(form(x=text), "x", "x", choices)
        assert refused.value.status == 400 and refused.value.key == "error.choice"


@pytest.mark.parametrize("text", ["", " ", "1.5", "1e2", "0x10", "٣", "+3", "99999999999"])
def test_a_whole_number_is_only_digits(text: str) -> None:
    with pytest.raises(Refused):
        forms.whole(form(n=text), "n", "n", -10, 10**12)


def test_a_whole_number_in_range() -> None:
    assert forms.whole(form(n=" 7 "), "n", "n", 0, 7) == 7
    assert forms.whole(form(n="-2"), "n", "n", -2, 0) == -2
    with pytest.raises(Refused) as refused:
        forms.whole(form(n="8"), "n", "n", 0, 7)
    assert refused.value.params == {"field": "n", "lowest": 0, "highest": 7}


def test_the_start_header_from_the_form(data: dict[str, Any]) -> None:
    fields = MultiDict([("game", "uno"), ("seat", "Ana"), ("seat", ""), ("seat", "Cleo"),
                        ("first", "0")])
    assert forms.start_header(fields, data["games"]) == {
        "game": "uno", "seats": ["Ana", "Cleo"], "first": 0, "options": {}
    }


def test_a_page_move_without_fields(data: dict[str, Any]) -> None:
    offered = [{"move": "uno", "title": "UNO!", "seats": [1], "fields": [], "fixed": {}}]
    seats = data["playing"]["seats"]
    assert forms.page_move(form(move="uno", seat="1"), offered, seats) == (1, "uno", {})
