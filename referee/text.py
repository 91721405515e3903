"""Sentences the referee says, in English, that the page can say in another language.

A verdict's message is a `Text`: a plain `str` (the English sentence, exactly as the
CLI and the logs print it) that also remembers its template and parameters. The page
renders it again from a catalogue (`referee/locales/<language>/*.json`).

    >>> message = t("{card} may not go on {card}", card=t("a {name}", name="vizier"))
    >>> str(message)
    'a vizier may not go on a vizier'
    >>> romanian = Catalogue({"{card} may not go on {card}": "{card} nu poate sta pe {card}",
    ...                       "a {name}": "un {name}"}, {"vizier": "vizir"})
    >>> translate(message, romanian)
    'un vizir nu poate sta pe un vizir'

A catalogue file holds {"templates": {english: translated}, "words": {english: translated}};
"words" translates parameters that are plain strings (card codes, cell names, colours).
A template or word the catalogue does not know stays in English: the page never fails
for a missing translation, and a test lists what is missing.

A parameter named in `SEAT_PARAMS` holding an int is a seat (0-based, as in the log).
The plain `str` keeps the log's "seat 1"; people read the player's name there: given
the seats' names, `translate` puts the name in, using the catalogue's name form of the
template ("{seat} is stuck", "{seat} nu poate"). English has such a catalogue too
(`referee/locales/en/`), holding only the templates that name seats.

    >>> stuck = t("seat {seat} is stuck", seat=1)
    >>> str(stuck), translate(stuck, Catalogue({"seat {seat} is stuck": "{seat} is stuck"}),
    ...                       ("Ana", "Bogdan"))
    ('seat 1 is stuck', 'Bogdan is stuck')

A sentence with a number of things has plural forms (:func:`tn`, like gettext's
ngettext): English says "1 card" and "2 cards", Romanian "1 carte", "2 cărți" and
"20 de cărți". The catalogue holds such a template's forms by CLDR name ("one", "few",
"other"); its `count` parameter picks one.

    >>> str(tn("captures {count} cards", "captures 1 card", count=1))
    'captures 1 card'
    >>> forms = {"one": "ia o carte", "few": "ia {count} cărți", "other": "ia {count} de cărți"}
    >>> translate(tn("captures {count} cards", "captures 1 card", count=20),
    ...           Catalogue({"captures {count} cards": forms}, language="ro"))
    'ia 20 de cărți'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: The languages the page offers; English is the referee's own.
LANGUAGES = ("en", "ro", "it", "es", "pt")
LOCALES = Path(__file__).with_name("locales")


class Text(str):
    """An English sentence that remembers its template and parameters.

    Build one with :func:`t`; join several with :meth:`Text.joined`.
    """

    template: str
    params: Mapping[str, Any]
    parts: tuple[str, ...]
    separator: str
    singular: str  # the English form for a `count` of 1, when the template has forms

    def __new__(cls, template: str, params: Mapping[str, Any], singular: str = "") -> Text:
        english = singular if singular and params.get("count") == 1 else template
        self = super().__new__(cls, english.format(**params))
        self.template = template
        self.params = dict(params)
        self.parts = ()
        self.separator = ""
        self.singular = singular
        return self

    @classmethod
    def joined(cls, separator: str, parts: Iterable[str]) -> Text:
        """Several sentences as one ("; " between breaches), each translated on its own."""
        items = tuple(parts)
        self = super().__new__(cls, separator.join(items))
        self.template = ""
        self.params = {}
        self.parts = items
        self.separator = separator
        self.singular = ""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if self.parts:
            return (Text.joined, (self.separator, self.parts))
        return (Text, (self.template, self.params, self.singular))


def t(template: str, **params: Any) -> Text:
    """A sentence from a `str.format` template; parameters may be Texts themselves."""
    return Text(template, params)


def tn(template: str, singular: str, **params: Any) -> Text:
    """A sentence with plural forms: `template` for most numbers, `singular` for a
    `count` of 1 (in English; a catalogue gives each language its own forms)."""
    if "count" not in params:
        raise TypeError("a sentence with plural forms needs its count")
    return Text(template, params, singular)


#: A translated template: one sentence, or its plural forms by CLDR name.
Translation = str | Mapping[str, str]


@dataclass(frozen=True)
class Catalogue:
    """One language: translated templates and translated words (parameter values)."""

    templates: Mapping[str, Translation] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict)
    language: str = "en"  # picks the plural forms


def plural_form(language: str, number: int) -> str:
    """"one", "few" or "other", by CLDR's rules for the page's languages: Romanian says
    "1 carte", "2 cărți", "20 de cărți"; the others "1" against the rest."""
    if number == 1:
        return "one"
    if language == "ro" and (number == 0 or 1 <= number % 100 <= 19):
        return "few"
    return "other"


#: Parameter names that hold a seat when their value is an int: people read a name there.
SEAT_PARAMS = frozenset({
    "seat", "current", "previous", "owner", "target", "dealer", "accused", "challenger",
    "drawer", "starter", "facing", "first", "other",
})


def translate(message: str, catalogue: Catalogue, names: Sequence[str] = ()) -> str:
    """`message` in the catalogue's language, seats by their `names` (a seat without a
    name reads "#2", from 1); what the catalogue does not know stays English."""
    if not isinstance(message, Text):
        return catalogue.words.get(message, message)
    if message.parts or not message.template:
        return message.separator.join(
            translate(part, catalogue, names) for part in message.parts
        )
    params = {
        name: _translate_param(name, value, catalogue, names)
        for name, value in message.params.items()
    }
    template = _form(message, catalogue)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return str(message)  # a broken translation must not hide the verdict


def _form(message: Text, catalogue: Catalogue) -> str:
    """The template of `message` in the catalogue's language, in its plural form."""
    found = catalogue.templates.get(message.template)
    count = message.params.get("count")
    if isinstance(found, Mapping):
        form = plural_form(catalogue.language, count) if isinstance(count, int) else "other"
        return found.get(form) or found.get("other") or message.template
    if found is not None:
        return found
    return message.singular if message.singular and count == 1 else message.template


def untranslated(message: str, catalogue: Catalogue) -> list[str]:
    """The templates and words of `message` that `catalogue` would leave in English.

    Numbers, lists of numbers, the signs + and - and rule ids need no translation.
    Tests use it to prove that what the referee says reads wholly in each language.
    """
    if not isinstance(message, Text):
        plain = message.strip(" ,0123456789+-")
        if not plain or NEEDS_NO_WORDS.fullmatch(message) or message in catalogue.words:
            return []
        return [message]
    if message.parts:
        return [item for part in message.parts for item in untranslated(part, catalogue)]
    missing = [] if message.template in catalogue.templates else [message.template]
    for value in message.params.values():
        if isinstance(value, str):
            missing += untranslated(value, catalogue)
    return missing


#: A rule id ("UNO-MATCH"): the same in every language.
NEEDS_NO_WORDS = re.compile(r"[A-Z]+(-[A-Z0-9]+)+")


def is_seat(name: str, value: Any) -> bool:
    """Does parameter `name` hold a seat index?"""
    return name in SEAT_PARAMS and isinstance(value, int) and not isinstance(value, bool)


def seat_name(seat: int, names: Sequence[str]) -> str:
    """The player at `seat`, or its number from 1 when the name is not known."""
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


def _translate_param(name: str, value: Any, catalogue: Catalogue, names: Sequence[str]) -> Any:
    if is_seat(name, value):
        return seat_name(value, names)
    return translate(value, catalogue, names) if isinstance(value, str) else value


@cache
def catalogue(language: str) -> Catalogue:
    """The catalogue of `language`, merged from every file in its folder (English holds
    only the name forms of the templates that name seats)."""
    templates: dict[str, Translation] = {}
    words: dict[str, str] = {}
    folder = LOCALES / language
    if language not in LANGUAGES or not folder.is_dir():
        return Catalogue()
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        templates.update(data.get("templates", {}))
        words.update(data.get("words", {}))
    return Catalogue(templates, words, language)


def in_every_language(message: str, names: Sequence[str] = ()) -> dict[str, str]:
    """{"en": ..., "ro": ...}: what the live page needs to show `message` in any language,
    seats by their players' `names`."""
    return {
        language: translate(message, catalogue(language), names) for language in LANGUAGES
    }
