"""Kanaloa in words: a move as a player says it, and what a legal move did: the trump,
the trick's winner, the boat's way and what comes next, so the table never argues."""

from __future__ import annotations

from referee.core import Move
from referee.games.kanaloa.state import HAND_SIZE, KanaloaState, Void, lead_colour, tiki
from referee.text import Text, t


def describe(move: Move) -> Text:
    """`move` after the seat's name ("plays blue-7"), read from the move alone."""
    kind = move.kind
    if kind == "ring":
        return t("lays the ring of {count} ocean cards", count=len(move.get("cards")))
    if kind == "deal":
        return t("deals {count} cards each", count=HAND_SIZE)
    if kind == "remove":
        return t("removes {card} from the ring", card=move.get("card"))
    if kind == "dolphin":
        return t("takes the dolphin's step") if move.get("step") else t(
            "lets the dolphin's step go")
    if kind == "boat":
        return t("has its boat seen on {space}", space=move.get("space"))
    if "trump" in move.fields:
        return t("plays {card}, announcing {trump} as trump",
                 card=move.get("card"), trump=move.get("trump"))
    return t("plays {card}", card=move.get("card"))


def news(before: KanaloaState, move: Move, after: KanaloaState) -> Text:
    """What a legal `move` played in `before` did, ending with what comes next."""
    seat, kind, card = move.seat, move.kind, move.get("card")
    if kind == "ring":
        assert after.race is not None, "a ring laid is a race"
        return t("the ring of {count} ocean cards is laid: every boat starts on {space}",
                 count=len(after.race.cards), space=after.race.spaces[0].name)
    if kind == "deal":
        assert after.race is not None, "the deal comes after the ring"
        return t("seat {seat} deals {count} cards each for round {round}; the trump is {trump}",
                 seat=seat, count=HAND_SIZE, round=before.round, trump=after.race.trump())
    if kind == "boat":
        return t("seat {seat}'s boat is on {space}, as the referee has it",
                 seat=seat, space=move.get("space"))
    if kind == "remove":
        assert after.race is not None, "a removal comes after the ring"
        said = t("seat {seat} removes {card}: {count} ocean cards left",
                 seat=seat, card=card, count=len(after.race.cards))
    elif kind == "dolphin":
        assert after.race is not None, "a dolphin's step comes after the ring"
        space = after.race.space_of(seat).name
        said = (t("seat {seat}'s boat takes the dolphin's step to {space}", seat=seat, space=space)
                if move.get("step") else t("seat {seat}'s boat stays on {space}",
                                           seat=seat, space=space))
        return _then(before, after, said)
    else:
        said = _played(before, seat, card)
        if after.removal is not None and after.removal.rule == "KAN-OCTOPUS":
            return t("{play}; seat {seat} removes a free ocean card", play=said, seat=seat)
    if after.sailing == before.sailing:
        return said
    return _then(before, after, _sailed(after, said))


def _played(before: KanaloaState, seat: int, card: str) -> Text:
    """A card put on the trick: a lead with its trump, a card that does not follow."""
    if not before.trick:
        assert before.race is not None, "a trick is played once the ring is laid"
        return t("{card} leads; the trump is {trump}", card=card, trump=before.race.trump())
    lead = lead_colour(before.trick, before.options["special_lead"])
    played = tiki(card)
    if lead is not None and played is not None and played[0] != lead:
        return t("{card}: seat {seat} shows no {colour}", card=card, seat=seat, colour=lead)
    return t("{card} on the trick", card=card)


def _sailed(after: KanaloaState, said: Text) -> Text:
    """KAN-WIN and KAN-MOVE as the referee worked them out."""
    sailing = after.sailing
    assert sailing is not None, "a trick won has a boat that sailed"
    done = t("{play}; seat {seat} wins the trick with {card} (trump {trump}): its boat sails to "
             "{space}", play=said, seat=sailing.winner, card=sailing.card, trump=sailing.trump,
             space=sailing.landed)
    if sailing.skipped:
        done = t("{move}, passing {count} boat(s)", move=done, count=sailing.skipped)
    if sailing.dolphin_steps:
        done = t("{move}, with {count} dolphin step(s)", move=done, count=sailing.dolphin_steps)
    return done


def _then(before: KanaloaState, after: KanaloaState, said: Text) -> Text:
    """`said`, then what the table does next: the game won, a dolphin's step to choose,
    the round's end, or the next lead and its trump."""
    if after.phase == "over":
        return t("{move}; seat {seat}'s boat laps the rearmost boat: seat {seat} wins the game",
                 move=said, seat=after.winner)
    if after.dolphin is not None:
        return t("{move}; a dolphin: seat {seat} may sail on one more space",
                 move=said, seat=after.dolphin)
    if after.round > before.round:
        if after.removal is not None:
            return t("{move}; round {round} ends: seat {seat} removes a free ocean card and "
                     "deals", move=said, round=before.round, seat=after.dealer)
        return t("{move}; round {round} ends: seat {seat} deals", move=said,
                 round=before.round, seat=after.dealer)
    assert after.race is not None, "a trick is won once the ring is laid"
    return t("{move}; seat {seat} leads, the trump is {trump}",
             move=said, seat=after.leader, trump=after.race.trump())


def revoke_proof(void: Void, card: str, index: int) -> Text:
    """KAN-FOLLOW, proven: the seat played the colour it did not follow earlier in the
    round, and there is no drawing in a round, so it held that colour then."""
    return t("seat {seat} plays {card} at move {index}, so it held {colour} when it played "
             "{revoke} at move {earlier} without following {colour}",
             seat=void.seat, card=card, index=index, colour=void.colour, revoke=void.card,
             earlier=void.index)
