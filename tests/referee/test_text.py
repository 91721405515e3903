"""referee.text: English sentences kept byte for byte, rendered again in another language;
and the catalogues: every sentence the code can say is translated, with the same
placeholders, every card has its name, and nothing is left that no code says."""

from __future__ import annotations

import ast
import inspect
import json
import pickle
import random
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core import Header, Match, Move
from referee.decks import load_deck
from referee.games import GAMES, get_game
from referee.games.deserto import CELL_GAP_MM, CELLS, OFF, Deserto
from referee.games.tempus import SERIES, Tempus
from referee.notation import read_log, replay
from referee.table import TableView, ViewCard
from referee.text import (
    LANGUAGES,
    LOCALES,
    SEAT_PARAMS,
    Catalogue,
    Text,
    catalogue,
    in_every_language,
    t,
    tn,
    untranslated,
)
from referee.text import translate as render

ROOT = Path(__file__).parents[2]
#: Where code may say a sentence: every package of the project.
PACKAGES = ("referee", "vision", "hardware", "firmware", "webui")
FOREIGN = [language for language in LANGUAGES if language != "en"]
LOGS = ROOT / "tests" / "fixtures" / "referee"

ROMANIAN = Catalogue(
    templates={
        "{card} may not go on {card}": "{card} nu se poate pune peste {card}",
        "a {name}": "un {name}",
        "seat {seat} won {cards} cards": "{seat} a câștigat {cards} cărți",
        "set {number}": "setul {number}",
        "the camera does not see {sets}": "camera nu vede {sets}",
        "broken {seat}": "stricat {chair}",
    },
    words={"vizier": "vizir", "nw": "NV"},
)


# -- Text: the English sentence, unchanged ------------------------------------------------


def test_a_text_is_its_english_sentence() -> None:
    message = t("seat {seat} won {cards} cards", seat=1, cards=12)
    assert isinstance(message, str)
    assert message == "seat 1 won 12 cards"
    assert str(message) == "seat 1 won 12 cards" and f"{message}" == "seat 1 won 12 cards"
    assert hash(message) == hash("seat 1 won 12 cards")
    assert json.dumps({"message": message}) == '{"message": "seat 1 won 12 cards"}'
    assert message.template == "seat {seat} won {cards} cards"
    assert message.params == {"seat": 1, "cards": 12}


def test_a_text_keeps_format_specs_and_repeated_placeholders() -> None:
    assert t("{card} may not go on {card}", card="vizier") == "vizier may not go on vizier"
    assert t("{points:+d} points", points=3) == "+3 points"
    assert t("no placeholder") == "no placeholder"


def test_a_text_within_a_text_reads_as_its_english() -> None:
    inner = t("a {name}", name="vizier")
    outer = t("{card} may not go on {card}", card=inner)
    assert outer == "a vizier may not go on a vizier"
    assert outer.params["card"] is inner


def test_joined_texts_read_as_the_english_joined() -> None:
    first, second = t("set {number}", number=1), t("set {number}", number=2)
    joined = Text.joined("; ", [first, second])
    assert joined == "set 1; set 2"
    assert joined.parts == (first, second) and joined.separator == "; "
    assert Text.joined(", ", []) == ""
    assert Text.joined(", ", iter(["nw", "ne"])) == "nw, ne"


# -- translate ----------------------------------------------------------------------------


def test_translate_renders_the_template_and_the_words() -> None:
    message = t("{card} may not go on {card}", card=t("a {name}", name="vizier"))
    assert render(message, ROMANIAN) == "un vizir nu se poate pune peste un vizir"


def test_translate_leaves_numbers_and_unknown_words_alone() -> None:
    message = t("seat {seat} won {cards} cards", seat=1, cards=0)
    assert render(message, ROMANIAN, ("Ana", "Bogdan")) == "Bogdan a câștigat 0 cărți"
    assert render(t("a {name}", name="oasis"), ROMANIAN) == "un oasis"


def test_translate_each_part_of_a_joined_text_on_its_own() -> None:
    joined = Text.joined("; ", [t("set {number}", number=3), t("a {name}", name="vizier")])
    assert render(joined, ROMANIAN) == "setul 3; un vizir"
    words = Text.joined(", ", ["nw", "se"])
    assert render(t("the camera does not see {sets}", sets=words), ROMANIAN) == (
        "camera nu vede NV, se"
    )


def test_translate_a_plain_string_as_a_word() -> None:
    assert render("vizier", ROMANIAN) == "vizir"
    assert render("a sentence nobody marked", ROMANIAN) == "a sentence nobody marked"


def test_a_missing_translation_falls_back_to_english() -> None:
    message = t("{card} is new here", card=t("a {name}", name="vizier"))
    assert render(message, ROMANIAN) == "un vizir is new here"
    assert render(message, Catalogue()) == "a vizier is new here"


def test_a_broken_translation_falls_back_to_the_english_sentence() -> None:
    assert render(t("broken {seat}", seat=1), ROMANIAN) == "broken 1"


def test_a_seat_reads_as_its_player_s_name_and_the_log_keeps_the_number() -> None:
    message = t("seat {seat} took back its move", seat=1)
    texts = in_every_language(message, ("Ana", "Bogdan"))
    assert set(texts) == set(LANGUAGES)
    assert str(message) == "seat 1 took back its move"
    assert texts["en"] == "Bogdan took back their move"
    assert texts["ro"] == "Bogdan și-a retras mutarea"


def test_a_seat_without_a_name_reads_as_its_number_from_1() -> None:
    assert in_every_language(t("seat {seat} took back its move", seat=0))["en"] == (
        "#1 took back their move"
    )


def test_english_has_a_catalogue_for_seats_by_name_cells_and_card_names() -> None:
    english = catalogue("en")
    assert english.words["nw"] == "NW" and english.words["blue-draw2"] == "blue draw 2"
    assert english.templates and all(
        _placeholders(template) & SEAT_PARAMS for template in english.templates
    )
    assert catalogue("xx") == Catalogue()


# -- pickling (a verdict crosses processes and is stored) ---------------------------------


def test_a_text_pickles_with_its_template_and_parameters() -> None:
    message = t("{card} may not go on {card}", card=t("a {name}", name="vizier"))
    copy = pickle.loads(pickle.dumps(message))
    assert isinstance(copy, Text) and copy == message
    assert copy.template == message.template
    card = copy.params["card"]
    assert isinstance(card, Text) and card.params == {"name": "vizier"}
    assert render(copy, ROMANIAN) == render(message, ROMANIAN)


def test_a_joined_text_pickles_with_its_parts() -> None:
    joined = Text.joined("; ", [t("set {number}", number=1), "nw"])
    copy = pickle.loads(pickle.dumps(joined))
    assert isinstance(copy, Text) and copy == joined
    assert copy.parts == joined.parts and copy.separator == "; "
    assert render(copy, ROMANIAN) == "setul 1; NV"


# -- the catalogues -----------------------------------------------------------------------


def _sentences() -> Iterator[tuple[str, str | None]]:
    """(where, template) for every call of `referee.text.t` in the project's code;
    template is None when the call does not pass a literal string."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            names = {
                alias.asname or alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "referee.text"
                for alias in node.names
                if alias.name in ("t", "tn")
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in names
                ):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    first = node.args[0] if node.args else None
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        yield where, first.value
                    else:
                        yield where, None


SENTENCES = list(_sentences())
TEMPLATES = {template for _, template in SENTENCES if template is not None}


def _placeholders(template: Any) -> set[str]:
    """The parameter names a `str.format` template uses ("{seat}", "{n:+d}" -> seat, n);
    for plural forms, those of the "other" form (the others may say "one" in words)."""
    if isinstance(template, dict):
        return _placeholders(template["other"])
    return {
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(template)
        if name is not None
    }


def _files(language: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        (path.name, json.loads(path.read_text(encoding="utf-8")))
        for path in sorted((LOCALES / language).glob("*.json"))
    ]


def test_the_scan_finds_every_game_s_sentences() -> None:
    modules = {where.split(":")[0] for where, _ in SENTENCES}
    games = {inspect.getfile(factory) for factory in GAMES.values()}
    assert {str(Path(path).relative_to(ROOT)) for path in games} <= modules
    assert "seat {seat} took back its move" in TEMPLATES


def test_every_sentence_is_a_literal_template() -> None:
    """A template built at run time could not be checked against the catalogues."""
    assert [where for where, template in SENTENCES if template is None] == []


@pytest.mark.parametrize("language", FOREIGN)
def test_every_sentence_is_translated_with_the_same_placeholders(language: str) -> None:
    templates = catalogue(language).templates
    missing = sorted(template for template in TEMPLATES if template not in templates)
    assert missing == [], f"{language}: no translation for {missing}"
    different = sorted(
        template
        for template in TEMPLATES
        if _placeholders(templates[template]) != _placeholders(template)
    )
    assert different == [], f"{language}: other placeholders in {different}"


@pytest.mark.parametrize("language", FOREIGN)
def test_plural_forms_are_the_language_s_own(language: str) -> None:
    """A translated sentence with forms has "one" and "other" ("few" in Romanian), each
    with no placeholder the sentence does not give."""
    wanted = {"one", "few", "other"} if language == "ro" else {"one", "other"}
    for english, translated in catalogue(language).templates.items():
        if isinstance(translated, dict):
            assert set(translated) == wanted, english
            for form in translated.values():
                assert _placeholders(form) <= _placeholders(english), (english, form)


def test_a_sentence_with_plural_forms_says_each_number_in_its_form() -> None:
    captures = [tn("and captures {count} cards", "and captures 1 card", count=n)
                for n in (1, 2, 20, 101)]
    assert [str(said) for said in captures] == [
        "and captures 1 card", "and captures 2 cards", "and captures 20 cards",
        "and captures 101 cards"]
    assert [render(said, catalogue("ro")) for said in captures] == [
        "și capturează 1 carte", "și capturează 2 cărți", "și capturează 20 de cărți",
        "și capturează 101 cărți"]
    assert [render(said, catalogue("it")) for said in captures[:2]] == [
        "e vince 1 carta", "e vince 2 carte"]
    copy = pickle.loads(pickle.dumps(captures[0]))
    assert copy == "and captures 1 card" and render(copy, catalogue("es")) == "y gana 1 carta"
    with pytest.raises(TypeError):
        tn("{number} cards", "1 card", number=1)


@pytest.mark.parametrize("language", FOREIGN)
def test_no_translation_is_left_that_no_code_says(language: str) -> None:
    stale = sorted(set(catalogue(language).templates) - TEMPLATES)
    assert stale == [], f"{language}: no code says {stale}"


@pytest.mark.parametrize("language", FOREIGN)
def test_the_files_of_a_language_never_disagree(language: str) -> None:
    """The files merge into one catalogue: a template or a word that two files translate
    differently would be shown one way in both games."""
    seen: dict[tuple[str, str], tuple[str, str]] = {}
    clashes = []
    for name, data in _files(language):
        assert set(data) <= {"templates", "words"}, name
        for kind in ("templates", "words"):
            for english, translated in data.get(kind, {}).items():
                key = (kind, english)
                if key in seen and seen[key][1] != translated:
                    clashes.append(f"{english!r}: {seen[key][0]} and {name}")
                seen.setdefault(key, (name, translated))
    assert clashes == []


@pytest.mark.parametrize("language", FOREIGN)
@pytest.mark.parametrize("deck", ["deserto", "tempus"])
def test_every_card_has_its_name(language: str, deck: str) -> None:
    words = catalogue(language).words
    assert [code for code in load_deck(deck).codes if code not in words] == []


@pytest.mark.parametrize("language", FOREIGN)
def test_the_cells_colours_and_series_faces_have_their_names(language: str) -> None:
    words = catalogue(language).words
    named = [*CELLS, OFF, *SERIES, "red", "violet"]
    assert [word for word in named if word not in words] == []


EXAMPLE_LOGS = sorted(
    path
    for game in ("deserto", "tempus")
    for path in (LOGS / game).glob("*.jsonl")
    if path.stem != "malformed"
)


@pytest.mark.parametrize("language", FOREIGN)
@pytest.mark.parametrize("log", EXAMPLE_LOGS, ids=lambda path: f"{path.parent.name}-{path.stem}")
def test_the_example_logs_read_entirely_in_the_language(language: str, log: Path) -> None:
    match = replay(read_log(log.read_text(encoding="utf-8").splitlines()))
    for ruling in match.rulings:
        if not ruling.verdict.message:
            continue  # a plain move: the move says it all
        assert isinstance(ruling.verdict.message, Text), ruling
        assert untranslated(ruling.verdict.message, catalogue(language)) == [], ruling



# -- known sentences in Italian, Spanish and Portuguese -----------------------------------


def _said(name: str, *moves: Move) -> Text:
    """What the game says of the last of `moves`, played in order from a new match for two."""
    match = Match(get_game(name), Header(name, ("Ana", "Bogdan")))
    for move in moves:
        ruling = match.play(move)
    message = ruling.verdict.message
    assert isinstance(message, Text)
    return message


VIZIER_NW = Move(0, "place", {"cell": "nw", "card": "vizier"})
RED_10_OPENS = Move(0, "open", {"series": "plus", "card": "red-10"})
UNO_DEALT = (Move(1, "deal", {}), Move(1, "turn-up", {"card": "red-9"}))

#: english, then what it reads in Italian, Spanish and Portuguese.
KNOWN: list[tuple[Text, dict[str, str]]] = [
    (
        _said("deserto", Move(0, "place", {"cell": "nw", "card": "treasure"}),
              Move(1, "place", {"cell": "ne", "card": "brigand"})),
        {"it": "e vince 1 carta", "es": "y gana 1 carta", "pt": "e ganha 1 carta"},
    ),
    (
        _said("deserto", VIZIER_NW, Move(1, "place", {"cell": "ne", "card": "brigand"})),
        {
            "it": "non si può posare un brigante vicino a un visir",
            "es": "no se puede poner un ladrón al lado de un visir",
            "pt": "não se pode pôr um ladrão ao lado de um vizir",
        },
    ),
    (
        t("{card} may not go on {card}", card=t("an oasis")),
        {
            "it": "non si può posare un'oasi su un'oasi",
            "es": "no se puede poner un oasis sobre un oasis",
            "pt": "não se pode pôr um oásis sobre um oásis",
        },
    ),
    (
        _said("tempus", RED_10_OPENS, Move(1, "capture", {"set": 1, "card": "violet-12"})),
        {
            "it": "12 viola non può andare sul 10 rosso: il set è rosso",
            "es": "el 12 violeta no puede ir sobre el 10 rojo: el set es rojo",
            "pt": "o 12 violeta não pode ir sobre o 10 vermelho: o set é vermelho",
        },
    ),
    (
        _said("tempus", RED_10_OPENS, Move(1, "capture", {"set": 1, "card": "joker-11"})),
        {
            "it": "e lo prende a Ana",
            "es": "y se lo quita a Ana",
            "pt": "e tira-o a Ana",
        },
    ),
    (
        _said("uno", *UNO_DEALT, Move(0, "play", {"cards": ["wild"], "colour": "green"})),
        {
            "it": "sul 9 rosso",
            "es": "sobre el 9 rojo",
            "pt": "sobre o 9 vermelho",
        },
    ),
    (
        _said("uno", *UNO_DEALT, Move(0, "play", {"cards": ["blue-draw2"]})),
        {
            "it": "Pesca due blu non va né sul rosso né sul 9 rosso",
            "es": "el Roba dos azul no va ni con el rojo ni con el 9 rojo",
            "pt": "o Compre duas azul não combina nem com o vermelho nem com o 9 vermelho",
        },
    ),
    (
        Text.joined("; ", [t("it is seat {current}'s turn, not {seat}'s", current=0, seat=1),
                           t("seat {seat} took back its move", seat=1)]),
        {
            "it": "tocca a Ana, non a Bogdan; Bogdan ha annullato la sua mossa",
            "es": "le toca a Ana, no a Bogdan; Bogdan ha deshecho su jugada",
            "pt": "é a vez de Ana, não de Bogdan; Bogdan anulou a sua jogada",
        },
    ),
]


@pytest.mark.parametrize("language", ["it", "es", "pt"])
@pytest.mark.parametrize(
    "message, expected", KNOWN, ids=[str(message)[:40] for message, _ in KNOWN]
)
def test_known_sentences_read_as_a_referee_says_them(
    language: str, message: Text, expected: dict[str, str]
) -> None:
    names = ("Ana", "Bogdan")
    assert render(message, catalogue(language), names) == expected[language]
    assert in_every_language(message, names)[language] == expected[language]


#: The cards as seed 002 names them (Deserto) and as each language's UNO decks name them.
CARD_NAMES = {
    "it": {"vizier": "visir", "brigand": "brigante", "treasure": "tesoro", "oasis": "oasi",
           "red-draw2": "Pesca due rosso", "green-skip": "Salta turno verde",
           "blue-reverse": "Cambio giro blu", "wild": "Jolly",
           "wild-draw4": "Jolly pesca quattro"},
    "es": {"vizier": "visir", "brigand": "ladrón", "treasure": "tesoro", "oasis": "oasis",
           "red-draw2": "Roba dos rojo", "green-skip": "Salta turno verde",
           "blue-reverse": "Cambio de sentido azul", "wild": "Cambio de color",
           "wild-draw4": "Roba cuatro"},
    "pt": {"vizier": "vizir", "brigand": "ladrão", "treasure": "tesouro", "oasis": "oásis",
           "red-draw2": "Compre duas vermelho", "green-skip": "Pular verde",
           "blue-reverse": "Inverter azul", "wild": "Coringa",
           "wild-draw4": "Coringa compre quatro"},
}


@pytest.mark.parametrize("language", sorted(CARD_NAMES))
def test_the_cards_have_their_names_in_the_language(language: str) -> None:
    words = catalogue(language).words
    assert {code: words.get(code) for code in CARD_NAMES[language]} == CARD_NAMES[language]


@pytest.mark.parametrize("language", FOREIGN)
@pytest.mark.parametrize("deck", ["deserto", "tempus", "uno"])
def test_no_two_cards_share_a_name(language: str, deck: str) -> None:
    names = [catalogue(language).words.get(code, code) for code in load_deck(deck).codes]
    assert len(set(names)) == len(names)


def test_the_page_s_languages_after_english_and_romanian() -> None:
    assert LANGUAGES == ("en", "ro", "it", "es", "pt")


# -- what the games say at the table, in every language -----------------------------------
#
# Random play: the table reads random views and presses, and random moves are written as
# a log would have them, legal or not. Whatever the game says must read in every language.

DESERTO_FACES = [*Deserto().deck.codes, None]
TEMPUS_FACES = [*Tempus().deck.codes[:-2], None]  # the two series faces are never played


def _deserto_view(rng: random.Random, match: Match[Any]) -> TableView:
    """Cards on the square's cells (any face, sometimes unreadable), sometimes one beside it."""
    width, height = Deserto().deck.card_mm
    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    cards = [
        ViewCard(
            rng.choice(DESERTO_FACES),
            sx * (width + CELL_GAP_MM) / 2,
            sy * (height + CELL_GAP_MM) / 2,
        )
        for sx, sy in corners
        if rng.random() < 0.75
    ]
    if rng.random() < 0.15:
        cards.append(ViewCard(rng.choice(DESERTO_FACES), 1.5 * width, 0.0))
    return TableView(tuple(cards))


def _deserto_move(rng: random.Random, seat: int, seats: int) -> Move:
    if rng.random() < 0.1:
        return Move(seat, "stuck")
    cell = rng.choice([*CELLS, *CELLS, OFF])
    return Move(seat, "place", {"cell": cell, "card": rng.choice(DESERTO_FACES)})


def _tempus_view(rng: random.Random, match: Match[Any]) -> TableView:
    """The sets in front of seats (mostly as the referee has them), sometimes new cards."""
    pairs = [(held.series, held.top) for held in match.state.sets if rng.random() < 0.85]
    pairs += [(rng.choice(SERIES), rng.choice(TEMPUS_FACES)) for _ in range(rng.randint(0, 2))]
    cards = []
    for series, top in pairs:
        x, y = rng.uniform(-200.0, 200.0), rng.choice([-150.0, 150.0])
        cards += [ViewCard(f"series-{series}", x, y), ViewCard(top, x + 40.0, y)]
    return TableView(tuple(cards))


def _tempus_move(rng: random.Random, seat: int, seats: int) -> Move:
    card = rng.choice(TEMPUS_FACES)
    number = rng.choice([1, 2, 3, 4])
    return rng.choice(
        [
            Move(seat, "open", {"series": rng.choice(SERIES), "card": card}),
            Move(seat, "capture", {"set": number, "card": card}),
            Move(seat, "capture", {"set": number, "card": card, "series": rng.choice(SERIES)}),
            Move(seat, "feed", {"set": rng.choice([number, None]), "card": card}),
            Move(seat, "bury", {"card": card}),
            Move(seat, "count", {"cards": rng.randrange(8)}),
        ]
    )


PLAY = {"deserto": (_deserto_view, _deserto_move), "tempus": (_tempus_view, _tempus_move)}


def _match(name: str, rng: random.Random) -> Match[Any]:
    """A match of the game under random house options (not the deal sizes, which must agree)."""
    game = get_game(name)
    seats = tuple(f"seat{n}" for n in range(rng.randint(game.min_seats, game.max_seats)))
    options = {
        option.name: rng.choice(option.choices)
        for option in game.options
        if isinstance(option.default, bool | str)
    }
    return Match(game, Header(name, seats, options=options))


@pytest.mark.parametrize("language", FOREIGN)
@pytest.mark.parametrize("name", sorted(PLAY))
def test_what_a_game_says_reads_entirely_in_the_language(
    language: str, name: str, random_play: Callable[..., Iterator[Any]]
) -> None:
    view, written = PLAY[name]
    said = [
        message
        for seed in range(200)
        for rng in [random.Random(seed)]
        for message in random_play(_match(name, rng), rng, view, written, steps=80)
    ]
    # sentences are Texts; the choices the page offers are words
    assert [message for message in said if not isinstance(message, Text | str)] == []
    known = catalogue(language)
    assert sorted({missing for message in said for missing in untranslated(message, known)}) == []


def test_untranslated_names_what_a_catalogue_would_leave_in_english() -> None:
    known = Catalogue({"{card} on {cells}": "{card} pe {cells}"}, {"vizier": "vizir"})
    said = t("{card} on {cells}", card="vizier", cells=Text.joined(", ", ["nw", "ne"]))
    assert untranslated(said, known) == ["nw", "ne"]
    assert untranslated(t("{card} on {cells}", card="vizier", cells="1, 2"), known) == []
    assert untranslated(Text.joined("; ", [t("new {x}", x="UNO-MATCH")]), known) == ["new {x}"]
