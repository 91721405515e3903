"""What players read: no seat numbered from 0, no raw option value, no [INF] marker.

Walks every catalogue (referee/locales/*, webui/locales/*) and template: a sentence names
a seat by its player (the catalogues' name forms, `referee.text.SEAT_PARAMS`), numbers
shown to people count from 1, and the new-match form names every choice in words.
"""

from __future__ import annotations

import html
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from referee.games import GAMES, get_game
from referee.text import LANGUAGES, LOCALES, SEAT_PARAMS, catalogue
from webui.i18n import load_catalogues
from webui.options import choice_key, every_key

ROOT = Path(__file__).parents[2]
TEMPLATES = sorted((ROOT / "webui" / "templates").rglob("*.html"))
PAGE_LOCALES = sorted((ROOT / "webui" / "locales").glob("*.json"))
#: The word each language puts before a seat's number, when it numbers seats.
SEAT_WORDS = {
    "en": r"[Ss]eats?(?:\(s\))?",
    "ro": r"[Jj]ucător\w*|[Ll]ocul",
    "it": r"[Gg]iocator\w*",
    "es": r"[Jj]ugador\w*",
    "pt": r"[Jj]ogador\w*",
}


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _seat_templates() -> set[str]:
    """Every template the code says that names a seat (Romanian translates them all)."""
    return {
        template for template in catalogue("ro").templates
        if _placeholders(template) & SEAT_PARAMS
        and re.search(r"[Ss]eat(?:\(s\))? \{", template)
    }


def _forms(translated: str | dict[str, str]) -> list[str]:
    """A translation's sentence, or each of its plural forms."""
    return list(translated.values()) if isinstance(translated, dict) else [translated]


def _all_catalogue_texts() -> list[tuple[str, str]]:
    texts = []
    for path in sorted(LOCALES.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for kind in ("templates", "words"):
            texts += [(f"{path.parent.name}/{path.name}", form)
                      for v in data.get(kind, {}).values() for form in _forms(v)]
    for path in PAGE_LOCALES:
        strings = json.loads(path.read_text(encoding="utf-8"))["strings"]
        texts += [(path.name, text) for text in strings.values()]
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_that_names_a_seat_names_its_player(language: str) -> None:
    """In each language (English too) a seat reads as the player's name, never as
    "seat 0" or "jucătorul 0": no seat word before a seat's placeholder."""
    templates = catalogue(language).templates
    seat_word = re.compile(rf"(?:{SEAT_WORDS[language]}) \{{(\w+)\}}")
    wrong = []
    for template in sorted(_seat_templates()):
        translated = templates.get(template)
        if translated is None:
            wrong.append(f"no name form: {template!r}")
            continue
        wrong += [f"{said!r}" for said in _forms(translated)
                  for found in seat_word.finditer(said)
                  if found[1] in SEAT_PARAMS or found[1] == "seats"]
    assert wrong == []


def test_seat_lists_are_not_written_as_numbers() -> None:
    """A list of seats is a list of names too ("seat(s) 0, 2" was 0-based)."""
    assert [t for t in catalogue("ro").templates if re.search(r"[Ss]eat\(s\) \{", t)] == []


#: "card(s)", "carta(s)", "passo/i", "carte/cărți": a plural that did not choose its form.
UNCHOSEN_PLURAL = re.compile(r"\w\((?:s|es|e|i)\)|\b\w+/(?:e|i|s|es|\w*ți|\w*ii|\w*che)\b")


def test_no_catalogue_or_template_writes_a_plural_both_ways() -> None:
    """A number has its own form in each language (`referee.text.tn`; the page's
    `.one`/`.few`/`.other` keys): never "1 card(s)" or "1 carte/cărți"."""
    found = [(where, text) for where, text in _all_catalogue_texts()
             if UNCHOSEN_PLURAL.search(text)]
    templates = [path.name for path in TEMPLATES
                 if UNCHOSEN_PLURAL.search(path.read_text(encoding="utf-8"))]
    assert found == [] and templates == []
    assert UNCHOSEN_PLURAL.search("captures 1 card(s)")
    assert UNCHOSEN_PLURAL.search("capturează 1 carte/cărți")


def test_no_catalogue_shows_an_inf_marker_or_an_internal_word() -> None:
    found = [(where, text) for where, text in _all_catalogue_texts()
             if re.search(r"\[INF|\bthe seed\b|\btrue:|\bfalse:", text)]
    assert found == []


def test_no_template_shows_an_inf_marker_or_a_game_s_own_option_doc() -> None:
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        assert "[INF" not in text and "option.doc" not in text and ".doc" not in text, path


def test_templates_count_seats_and_moves_from_1_for_people() -> None:
    """A seat or move index printed as text (not in an attribute) is shown plus 1."""
    expression = re.compile(r"\{\{\s*([^}]*?)\s*\}\}")
    bare = re.compile(r"(?:\.seat|(?<!loop)\.index|\.concerns|(?<!\.)\bindex|\bseat)$")
    numbered = re.compile(r"\b(?:number|index|step)=([^,)]+)")
    wrong = []
    for path in TEMPLATES:
        # a statement's own ">" ({% if a > b %}) is no tag's end
        text = re.sub(r"\{%.*?%\}", lambda m: " " * len(m[0]), path.read_text(encoding="utf-8"))
        for found in expression.finditer(text):
            expr, before = found[1], text[: found.start()]
            in_a_tag = before.rfind("<") > before.rfind(">")  # an attribute's value
            if bare.search(expr) and not in_a_tag:
                wrong.append(f"{path.name}: {{{{ {expr} }}}}")
            for value in numbered.findall(expr):
                zero_based = re.search(r"\bseat\b|\.seat\b|(?<!loop)\.index\b|\bconcerns", value)
                if zero_based and "+ 1" not in value:
                    wrong.append(f"{path.name}: {value}")
    assert wrong == []


def _games() -> list[dict[str, Any]]:
    """The games as `TableService.games` gives them to the page, docs included."""
    games = [get_game(name) for name in sorted(GAMES)]
    return [{"name": g.name, "title": g.title, "min_seats": g.min_seats,
             "max_seats": g.max_seats,
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                          "doc": o.doc} for o in g.options]} for g in games]


@pytest.mark.parametrize("path", PAGE_LOCALES, ids=[p.stem for p in PAGE_LOCALES])
def test_every_house_option_and_choice_has_words_in_every_language(path: Path) -> None:
    strings = json.loads(path.read_text(encoding="utf-8"))["strings"]
    missing = [key for key in every_key(_games()) if key not in strings]
    assert missing == []


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_new_match_form_names_every_choice(
    language: str, game: str, table: Any, admin: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(table, "games", _games)
    admin.get(f"/lang/{language}")
    form = admin.page(f"/admin/new?game={game}")
    words = load_catalogues()[language]
    named = {words.say(key) if (key := choice_key(game, o.name, c)) else str(c)
             for o in get_game(game).options for c in o.choices}
    seats = {words.say("seat.unnamed", number=n) for n in range(1, 11)}
    choices = re.findall(r"<option[^>]*>([^<]*)</option>"
                         r'|<span class="choice-text">([^<]*)</span>', form)
    shown = {html.unescape(text).strip() for pair in choices for text in pair if text}
    labels = re.findall(r"<(?:label|legend)[^>]*>([^<]*)</(?:label|legend)>", form)
    assert shown and shown <= named | seats, shown - named - seats
    assert not [text for text in shown if "_" in text or text.startswith("option.")]
    assert not [label for label in labels if "_" in label or "option." in label]
    assert "[INF" not in form and "the seed" not in form
    docs = [o.doc for o in get_game(game).options]
    assert not [doc for doc in docs if doc in form]
    if language == "ro":  # the page's language, not English
        english = load_catalogues()["en"]
        assert not set(labels) & {english.say(f"option.{game}.{o.name}")
                                  for o in get_game(game).options}
