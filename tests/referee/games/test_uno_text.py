"""UNO in Romanian: every card has its name as Romanian tables say it (the seed's terms),
and whatever UNO says at the table (verdicts, deferred verdicts, questions, take-backs,
the page's offers) reads entirely in Romanian while its English stays as it was."""

from __future__ import annotations

import ast
import json
import random
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core import Header, Match, Move
from referee.games import uno
from referee.games.uno import COLOURS, WILDS, Uno, UnoTable
from referee.notation import read_log, replay
from referee.table import TableView, ViewCard
from referee.text import LOCALES, Text, catalogue, translate, untranslated

GAME = Uno()
RO = catalogue("ro")
LOGS = Path(__file__).parents[2] / "fixtures" / "referee" / "uno"
UNO_FILE = json.loads((LOCALES / "ro" / "uno.json").read_text(encoding="utf-8"))
CORE_FILE = json.loads((LOCALES / "ro" / "core.json").read_text(encoding="utf-8"))


def placeholders(template: str | dict[str, str]) -> set[str]:
    if isinstance(template, dict):  # plural forms: those of "other"
        return placeholders(template["other"])
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# -- the words ---------------------------------------------------------------------------------


def test_every_card_and_colour_has_its_romanian_name() -> None:
    codes = list(GAME.deck.codes)
    assert [code for code in [*codes, *COLOURS] if code not in RO.words] == []
    names = [RO.words[code] for code in codes]
    assert len(set(names)) == len(names), "two cards with one name"


def test_the_cards_are_named_as_the_seed_names_them() -> None:
    assert [RO.words[code] for code in ("red-7", "green-0", "blue-draw2", "yellow-skip")] == [
        "7 roșu", "0 verde", "+2 albastru", "„Stai o tură” galben",
    ]
    assert RO.words["red-reverse"] == "„Schimbă sensul” roșu"
    assert [RO.words[code] for code in WILDS] == ["„Schimbă culoarea”", "+4"]


def test_every_sentence_uno_can_say_has_its_romanian() -> None:
    trees = [ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted(Path(uno.__file__).parent.glob("*.py"))]
    said = [
        node.args[0]
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id in ("t", "tn")
    ]
    assert all(isinstance(first, ast.Constant) for first in said), "a template built at run time"
    sentences = {first.value for first in said if isinstance(first, ast.Constant)}
    assert len(sentences) > 90
    assert sorted(sentence for sentence in sentences if sentence not in RO.templates) == []
    assert sorted(set(UNO_FILE["templates"]) - sentences) == [], "a sentence UNO no longer says"


def test_the_uno_file_keeps_the_placeholders_and_leaves_the_shared_sentences_to_core() -> None:
    templates = UNO_FILE["templates"]
    assert [e for e, ro in templates.items() if placeholders(e) != placeholders(ro)] == []
    assert sorted(set(templates) & set(CORE_FILE["templates"])) == []


# -- the example logs -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["round", "flagged", "deferred"])
def test_the_example_logs_read_entirely_in_romanian(name: str) -> None:
    lines = (LOGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    match = replay(read_log(lines))
    for ruling in match.rulings:
        for said in (ruling, *ruling.deferred):
            message = said.verdict.message
            if not message:
                continue  # the move says it all
            assert isinstance(message, Text), said
            assert untranslated(message, RO) == [], said


def test_a_few_sentences_in_romanian() -> None:
    match = replay(read_log((LOGS / "deferred.jsonl").read_text(encoding="utf-8").splitlines()))
    wild, proof = match.rulings[3].verdict.message, match.rulings[8].deferred[0].verdict.message
    assert wild == "on red-9"  # after "plays wild, green named"
    assert translate(wild, RO) == "pe 9 roșu"
    assert translate(proof, RO, match.header.seats) == (
        "Chiara avea 8 roșu când a jucat o carte „Schimbă culoarea” pe 9 roșu (roșu) "
        "la mutarea 4: mai multe decât a putut trage de atunci"
    )
    double = match.game.judge(match.state, Move(0, "play", {"cards": ["red-8", "red-8"]}))
    assert translate(double.message, RO) == "pe 8 roșu"


# -- what UNO says at the table -----------------------------------------------------------------

FACES = [*sorted(set(GAME.deck.codes) - {"blank"}), None]


def _view(rng: random.Random, match: Match[Any]) -> TableView:
    """The discard pile's top (mostly as the referee has it), now and then hands at seats."""
    state = match.state
    top = state.top if state.top is not None and rng.random() < 0.5 else rng.choice(FACES)
    cards = [ViewCard(top, 2.0, 3.0)] if rng.random() < 0.9 else []
    if rng.random() < 0.1:
        cards.append(ViewCard(rng.choice(FACES), -4.0, 1.0))
    if state.phase == "reveal" or rng.random() < 0.1:
        for seat in range(state.seats):
            x, y = UnoTable.seat_place(seat, state.seats)
            laid = rng.randint(0, 4)
            cards += [ViewCard(rng.choice(FACES), x + 30.0 * i, y) for i in range(laid)]
    return TableView((ViewCard("back", 110.0, 0.0), *cards))


def _written(rng: random.Random, seat: int, seats: int) -> Move:
    card = rng.choice(FACES[:-1])
    cards = [card, card] if rng.random() < 0.2 else [card]
    played: dict[str, Any] = {"cards": cards}
    if card in WILDS:
        played["colour"] = rng.choice([*COLOURS, None])
    if card.endswith("-0") and rng.random() < 0.5:
        played["swap"] = rng.randrange(seats)
    return rng.choice([
        Move(seat, "play", played),
        Move(seat, "play", played),
        Move(seat, "colour", {"colour": rng.choice(COLOURS)}),
        Move(seat, "draw", {"count": rng.choice([1, 1, 2, 4])}),
        Move(seat, "uno"),
        Move(seat, "catch", {"target": rng.randrange(seats)}),
        Move(seat, "challenge"),
        Move(seat, "reveal", {"cards": rng.sample(FACES[:-1], rng.randint(0, 5))}),
        Move(seat, "deal"),
        Move(seat, "turn-up", {"card": card}),
    ])


def _match(rng: random.Random) -> Match[Any]:
    """A match of 2 to 7 players under random house options, any seat to start."""
    seats = tuple(f"seat{n}" for n in range(rng.randint(2, 7)))
    options = {o.name: rng.choice(o.choices) for o in GAME.options if o.name != "target"}
    return Match(GAME, Header("uno", seats, rng.randrange(len(seats)), options))


def test_what_uno_says_reads_entirely_in_romanian(
    random_play: Callable[..., Iterator[Any]]
) -> None:
    said = [
        message
        for seed in range(150)
        for rng in [random.Random(seed)]
        for message in random_play(_match(rng), rng, _view, _written, steps=150, page_moves=True)
    ]
    assert [message for message in said if not isinstance(message, Text | str)] == []
    # a plain move's verdict is empty: the move says it all
    plain = sorted({message for message in said if not isinstance(message, Text)}
                   - {*COLOURS, ""})
    assert plain == []
    missing = sorted({item for message in said for item in untranslated(message, RO)})
    assert missing == []
    said_templates = {template for message in said for template in templates(message)}
    assert len(said_templates) > 80  # the random play says most of what UNO can say


def templates(message: str) -> Iterator[str]:
    """The templates of `message` and of the sentences within it."""
    if isinstance(message, Text):
        if message.template:
            yield message.template
        for inner in (*message.parts, *message.params.values()):
            if isinstance(inner, str):
                yield from templates(inner)
