"""The enrolment's sentences: one English catalogue the terminal prints, and the page's
locale files saying each of them in every language, cards in the table's words."""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest

from firmware.enrol_page import in_every_language
from firmware.enrol_words import ENGLISH, Cards, Said

ROOT = Path(__file__).resolve().parents[2]
LOCALES = sorted((ROOT / "webui/locales").glob("*.json"))
PLURAL_FORMS = ("one", "few", "other")


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("path", [p for p in LOCALES if p.stem != "en"], ids=lambda p: p.stem)
def test_every_sentence_has_its_words_in_every_language(path: Path) -> None:
    """Each key, or its plural forms ("one" and "other"; Romanian's "few" too), with the
    English sentence's placeholders; no key the session does not say."""
    strings = json.loads(path.read_text(encoding="utf-8"))["strings"]
    for key, english in ENGLISH.items():
        forms = [key] if key in strings else [f"{key}.{form}" for form in PLURAL_FORMS
                                              if f"{key}.{form}" in strings]
        assert forms and (forms == [key] or {f"{key}.one", f"{key}.other"} <= set(forms)), \
            (path.name, key)
        for form in forms:
            assert _placeholders(strings[form]) == _placeholders(english), (path.name, form)
            assert strings[form] != english, (path.name, form)  # translated, not copied
    said = {key.rsplit(".", 1)[0] if key.endswith(tuple(f".{form}" for form in PLURAL_FORMS))
            else key for key in strings}
    extra = {key for key in said if key.startswith(("enrol.say.", "enrol.frame.",
                                                    "enrol.problem.", "enrol.error."))
             } - set(ENGLISH)
    assert not extra, (path.name, sorted(extra))


def test_every_sentence_of_the_catalogue_is_said_and_nothing_else() -> None:
    """The keys the firmware says (`Said("...")`) are exactly the catalogue's."""
    used = set()
    for path in (ROOT / "firmware").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Said":
                assert isinstance(node.args[0], ast.Constant), f"{path.name}:{node.lineno}"
                used.add(node.args[0].value)
    assert used == set(ENGLISH)


def test_the_terminal_reads_the_english_sentence_with_the_codes() -> None:
    said = Said("enrol.problem.swapped", first=Cards(["red-9"]), second=Cards(["red-6"]),
                crop=7, other_crop=8)
    assert said == "red-9 and red-6 look swapped (crops 7 and 8), here or in the first pass"
    assert str(Said("enrol.say.next", cards=Cards(["red-9", "back"]))) == "next: red-9, back"


def test_the_page_says_it_in_each_language_with_the_cards_in_its_words() -> None:
    texts = in_every_language(Said("enrol.say.look_again", cards=Cards(["red-9", "back"])))
    assert texts["en"] == "look again: lay out red 9, back"
    assert texts["ro"] == "mă uit din nou: așezați 9 roșu, spatele"
    assert texts["it"] == "guardo di nuovo: disponete 9 rosso, dorso"
    counted = [in_every_language(Said("enrol.say.count", count=n, seen=0))["ro"]
               for n in (1, 8)]
    assert counted == ["așezați 1 carte; văd 0", "așezați 8 cărți despărțite; văd 0"]


def test_a_message_that_is_not_the_sessions_reads_the_same_in_every_language() -> None:
    texts = in_every_language("the frame is not an image")
    assert set(texts) == {p.stem for p in LOCALES}
    assert set(texts.values()) == {"the frame is not an image"}
