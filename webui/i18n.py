"""The page's own words in the reader's language, and the language switch.

Verdicts arrive already translated in the snapshot (`texts`, `message_texts`, ...);
this module only translates the page's chrome, from one JSON file per language in
`webui/locales/` ({"name": "Română", "strings": {key: text}}). `en.json` holds every
key; another language that lacks a key shows it in English, so adding a language is
adding one file. The language comes from the `lang` cookie the switch sets, else the
browser's Accept-Language, else English.

    catalogues = load_catalogues()
    catalogues["ro"].say("seats.title")   # 'Jucători'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, g, redirect, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.wrappers import Response as BaseResponse

from webui.context import site
from webui.security import Label, Refused

LOCALES = Path(__file__).with_name("locales")
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


@dataclass(frozen=True)
class Catalogue:
    """One language of the page's chrome."""

    code: str
    name: str  # the language's own name, for the switch
    strings: Mapping[str, str]

    def say(self, key: str, **params: Any) -> str:
        """The text of `key` filled with `params` (a `Label` parameter is translated too).

        A key with plural forms (`key.one`, `key.few`, `key.other`) takes the form for
        its `count` or `left` parameter, by the language's rule."""
        template = self.strings.get(key) or self._plural(key, params) or key
        values = {
            name: self.strings.get(value, value) if isinstance(value, Label) else value
            for name, value in params.items()
        }
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return template


    def _plural(self, key: str, params: Mapping[str, Any]) -> str | None:
        number = next((params[name] for name in PLURAL_PARAMS if name in params), None)
        if not isinstance(number, int):
            return None
        form = plural_form(self.code, number)
        return self.strings.get(f"{key}.{form}") or self.strings.get(f"{key}.other")


#: The parameters whose number picks a plural form.
PLURAL_PARAMS = ("count", "left")


def plural_form(language: str, number: int) -> str:
    """"one", "few" or "other" (CLDR's rules; Romanian says "20 de încercări")."""
    if number == 1:
        return "one"
    if language == "ro" and (number == 0 or 1 <= number % 100 <= 19):
        return "few"
    return "other"


def load_catalogues(folder: Path = LOCALES) -> dict[str, Catalogue]:
    """Every language in `folder`, English first; a missing key falls back to English."""
    english = _read(folder / "en.json")
    catalogues = {"en": Catalogue("en", english["name"], dict(english["strings"]))}
    for path in sorted(folder.glob("*.json")):
        if path.stem != "en":
            data = _read(path)
            strings = {**english["strings"], **data["strings"]}
            catalogues[path.stem] = Catalogue(path.stem, data["name"], strings)
    return catalogues


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def negotiate(cookie: str | None, accept: LanguageAccept, available: Sequence[str]) -> str:
    """The switch's choice if it is offered, else the browser's best match, else English."""
    if cookie in available:
        return str(cookie)
    return accept.best_match(available) or "en"  # "ro-RO" matches "ro"


def localized(item: Mapping[str, Any] | None, language: str, field: str = "message",
              texts: str = "texts") -> str:
    """`item[field]` in `language` from `item[texts]` when firmware translated it."""
    if not item:
        return ""
    translations = item.get(texts) or {}
    text = translations.get(language) if isinstance(translations, Mapping) else None
    return str(text if text else item.get(field) or "")


#: A verdict's news that goes on the move's own sentence with a mark, not a space
#: ("discards red 13" + "; Bogdan to play").
MARKS = (",", ";", ":")


def attached(news: str) -> bool:
    """Does `news` go on the move's words without a space between?"""
    return news.startswith(MARKS)


def standalone(news: str) -> str:
    """`news` shown on a line of its own, without the mark that joins it to the move."""
    return news.lstrip("".join(MARKS) + " ") if attached(news) else news


def safe_next(target: str | None) -> str:
    """A path on this site to go back to; anything else (another host) goes home."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else "/"


def site_catalogues() -> dict[str, Catalogue]:
    return site().catalogues


def current() -> Catalogue:
    """The catalogue of the language this request is shown in."""
    catalogues = site().catalogues
    return catalogues.get(getattr(g, "lang", "en"), catalogues["en"])


def choose_language() -> None:
    """Before each request: pick the language once."""
    g.lang = negotiate(request.cookies.get(COOKIE), request.accept_languages,
                       list(site().catalogues))


@bp.get("/lang/<code>")
def switch(code: str) -> BaseResponse:
    """The language switch: remember the choice in a cookie and go back."""
    if code not in site().catalogues:
        raise Refused(400, "error.language", language=code)
    response = redirect(safe_next(request.args.get("next")), code=303)
    response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax")
    return response
