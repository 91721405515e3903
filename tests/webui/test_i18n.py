"""Languages: the chrome from webui/locales, verdicts from the snapshot, the choice of
language from the browser and the switch."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from firmware.enrol_words import ENGLISH as ENROLMENT
from referee.core import Header, Match, Move
from referee.games import get_game
from referee.text import in_every_language
from webui.control import ControlError
from webui.i18n import (
    LOCALES,
    Catalogue,
    attached,
    load_catalogues,
    localized,
    negotiate,
    safe_next,
    standalone,
)
from webui.security import Label

WEBUI = Path(__file__).parents[2] / "webui"


def test_romanian_from_the_browser_language(phone: Any) -> None:
    page = phone.page("/", headers={"Accept-Language": "ro-RO,ro;q=0.9,en;q=0.8"})
    assert '<html lang="ro">' in page
    assert "Jucători" in page and "Mutare semnalată" in page
    assert "trebuie să ia cartea înapoi" in page  # the flagged seat, whose turn it stays


def test_every_verdict_text_comes_in_the_pages_language(phone: Any) -> None:
    page = phone.page("/", headers={"Accept-Language": "ro"})
    assert "Un brigand nu poate sta lângă un vizir" in page
    assert "Cartea din pătratul de nord-vest este un vizir?" in page
    assert "A brigand may not go next to a vizier" not in page


def test_a_language_firmware_did_not_translate_falls_back_to_english(phone: Any) -> None:
    page = phone.page("/", headers={"Accept-Language": "it"})
    assert "Giocatori" in page  # the chrome is Italian
    assert "A brigand may not go next to a vizier" in page  # the verdict stays English


def test_a_verdict_of_the_referee_reads_in_italian_on_an_italian_phone(
    data: dict[str, Any], make_table: Callable[..., Any], make_app: Callable[..., Flask]
) -> None:
    """The snapshot holds a real Deserto verdict as firmware sends it (its text in every
    language of referee.text); a phone switched to Italian shows the Italian, on the page
    and in the part a live update swaps in."""
    match = Match(get_game("deserto"), Header("deserto", ("Ana", "Bogdan")))
    match.play(Move(0, "place", {"cell": "nw", "card": "vizier"}))
    message = match.play(Move(1, "place", {"cell": "ne", "card": "brigand"})).verdict.message
    texts = in_every_language(message)
    assert set(texts) == set(load_catalogues())  # every language the page offers
    snapshot = data["playing"]
    flagged = {**snapshot["flagged"], "message": str(message), "texts": texts}
    assert snapshot["verdicts"][-1]["index"] == flagged["index"]
    snapshot["flagged"] = snapshot["verdicts"][-1] = flagged
    with make_app(make_table(snapshot)).test_client() as client:
        assert client.get("/lang/it?next=/").status_code == 303
        page = client.get("/").get_data(as_text=True)
        fragment = client.get("/live").get_data(as_text=True)  # what a live update swaps in
    assert '<html lang="it">' in page and "Giocatori" in page
    for shown in (page, fragment):
        assert shown.count("non si può posare un brigante vicino a un visir") == 2  # flag, moves
        assert str(message) not in shown


def test_english_for_an_unknown_or_missing_language(phone: Any) -> None:
    assert "Players" in phone.page("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert "Players" in phone.page("/")


def test_the_switch_remembers_the_choice_in_a_cookie(phone: Any) -> None:
    page = phone.page("/")
    assert 'href="/lang/ro?next=/"' in page and 'data-lang="ro"' in page
    response = phone.get("/lang/ro?next=/history")
    assert response.status_code == 303 and response.headers["Location"] == "/history"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=ro;") and "SameSite=Lax" in cookie
    page = phone.page("/", headers={"Accept-Language": "en"})  # the switch wins
    assert "Jucători" in page
    assert 'data-lang="ro" lang="ro" hreflang="ro" title="Română" class="current"' in page


def test_the_switch_goes_back_only_to_this_site(phone: Any) -> None:
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:x"):
        response = phone.get("/lang/en", query_string={"next": target})
        assert response.headers["Location"] == "/", target


def test_an_unknown_language_is_refused(phone: Any, refused: Callable[..., str]) -> None:
    response = phone.get("/lang/xx")
    assert response.status_code == 400
    assert refused(response) == "The page has no language xx."
    assert "Set-Cookie" not in response.headers or "lang=" not in response.headers["Set-Cookie"]


def test_the_admin_forms_and_refusals_are_translated(table: Any, phone: Any,
                                                     refused: Callable[..., str]) -> None:
    phone.get("/lang/ro")
    assert "PIN de administrare" in phone.page("/admin")
    response = phone.post("/admin/login", {"pin": "0000"})
    assert refused(response) == (
        "PIN greșit. Mai sunt 4 încercări până când acest telefon trebuie să aștepte."
    )


def test_a_refusal_the_table_says_in_each_language_reads_in_the_phones(
    table: Any, admin: Any, refused: Callable[..., str]
) -> None:
    table.refuse_with = ControlError("two crops would be red 9: rename the other one too",
                                     {"ro": "două decupaje ar fi 9 roșu: schimbați-l și pe "
                                            "celălalt"})
    admin.get("/lang/ro")
    assert refused(admin.post("/admin/undo")) == \
        "două decupaje ar fi 9 roșu: schimbați-l și pe celălalt"
    admin.get("/lang/it")  # a language it was not said in: English
    assert refused(admin.post("/admin/undo")) == \
        "two crops would be red 9: rename the other one too"


def accept(header: str) -> LanguageAccept:
    return parse_accept_header(header, LanguageAccept)


def test_negotiate() -> None:
    offered = ["en", "ro", "it"]
    assert negotiate(None, accept("ro-RO"), offered) == "ro"
    assert negotiate(None, accept("de, it;q=0.4"), offered) == "it"
    assert negotiate(None, accept(""), offered) == "en"
    assert negotiate("it", accept("ro"), offered) == "it"
    assert negotiate("xx", accept("ro"), offered) == "ro"


def test_localized_prefers_the_translation_and_falls_back() -> None:
    verdict = {"message": "fine", "texts": {"ro": "în regulă", "it": ""}}
    assert localized(verdict, "ro") == "în regulă"
    assert localized(verdict, "it") == "fine"
    assert localized({"title": "Count", "title_texts": {"ro": "Număr"}}, "ro", "title",
                     "title_texts") == "Număr"
    assert localized(None, "ro") == ""


def test_news_with_a_mark_goes_on_the_move_and_loses_it_on_a_line_of_its_own() -> None:
    assert attached("; Bogdan to play") and attached(": 0 points against them")
    assert not attached("and captures 1 card") and not attached("")
    assert standalone("; Bogdan to play") == "Bogdan to play"
    assert standalone(": 0 puncte în minus") == "0 puncte în minus"
    assert standalone("and captures 1 card") == "and captures 1 card"


def test_safe_next() -> None:
    assert safe_next("/history/1?move=2") == "/history/1?move=2"
    assert safe_next(None) == "/" and safe_next("http://x/") == "/"


def test_a_catalogue_fills_in_and_translates_labels() -> None:
    catalogue = Catalogue("ro", "Română", {"error.missing": "Completați „{field}”.",
                                           "field.seat": "locul"})
    assert catalogue.say("error.missing", field=Label("field.seat")) == "Completați „locul”."
    assert catalogue.say("error.missing", field="Culoare") == "Completați „Culoare”."
    assert catalogue.say("no.such.key") == "no.such.key"


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    """The enrolment's sentences (their English in firmware.enrol_words) are checked by
    tests/firmware/test_enrol_words.py."""
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))["strings"]
    for path in LOCALES.glob("*.json"):
        strings = {key: text for key, text in
                   json.loads(path.read_text(encoding="utf-8"))["strings"].items()
                   if key not in ENROLMENT and key.rsplit(".", 1)[0] not in ENROLMENT}
        missing = set(english) - set(strings) - {"app.name"}
        assert not missing, f"{path.name} lacks {sorted(missing)}"
        # a language may have more plural forms than English ("few" in Romanian)
        extra = {key for key in set(strings) - set(english)
                 if not (key.endswith(".few") and key[:-4] + ".other" in english)}
        assert not extra, f"{path.name} has keys en.json lacks: {sorted(extra)}"
        for key, text in strings.items():
            model = english.get(key) or english[key.rsplit(".", 1)[0] + ".other"]
            assert placeholders(text) == placeholders(model), (path.name, key)


def test_romanian_italian_spanish_and_portuguese_are_offered() -> None:
    assert set(load_catalogues()) == {"en", "ro", "it", "es", "pt"}
    assert next(iter(load_catalogues())) == "en"


def test_every_key_the_code_uses_is_in_english() -> None:
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))["strings"]
    used: set[str] = set()
    for path in WEBUI.rglob("*.html"):
        used |= set(re.findall(r"\bt\(['\"]([a-z_]+\.[a-z_0-9]+)['\"]", path.read_text()))
    for path in WEBUI.glob("*.py"):
        text = path.read_text()
        used |= set(re.findall(r'(?:Refused\(\d+, |done\(|Label\(|say\()"([a-z_]+\.[a-z_.0-9]+)"',
                               text))
    used |= {f"status.{status}" for status in ("waiting", "playing", "finished")}
    assert used, "the scan found no keys"
    plural = {key for key in used if f"{key}.other" in english}
    assert not used - plural - set(english), sorted(used - set(english))


@pytest.mark.parametrize("language", ["en", "ro", "it", "es", "pt"])
def test_every_page_renders_in_every_language(admin: Any, language: str) -> None:
    admin.get(f"/lang/{language}")
    for path in ("/", "/live", "/admin", "/admin/new", "/admin/new?game=deserto", "/history",
                 "/history/1?move=2"):
        page = admin.page(path)
        text = re.sub(r"<[^>]*>", " ", page)  # what the reader sees, not file names
        assert not re.search(r"\b(?:nav|seats|admin|error|status|flag|pin)\.[a-z_]+\b", text), path
