"""Kanaloa in words: a move as a player says it, and what a legal move did: the trump,
the trick's winner, the boat's way and what comes next, so the table never argues."""

from __future__ import annotations

from referee.core import Move
from referee.games.kanaloa.state import HAND_SIZE, KanaloaState, Void, lead_colour, tiki
from referee.text import Text, t, tn


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


def news(before: KanaloaState, move: Move, after: KanaloaState) -> str:
    """What a legal `move` played in `before` did beyond itself (the move says the card),
    ending with what comes next: read after the move ("plays blue 7 and leads; ...")."""
    seat, kind = move.seat, move.kind
    if kind == "ring":
        assert after.race is not None, "a ring laid is a race"
        return t("and every boat starts on {space}", space=after.race.spaces[0].name)
    if kind == "deal":
        assert after.race is not None, "the deal comes after the ring"
        return t("for round {round}; the trump is {trump}",
                 round=before.round, trump=after.race.trump())
    if kind == "boat":
        return t("as the referee has it")
    said: Text | None
    if kind == "remove":
        assert after.race is not None, "a removal comes after the ring"
        said = tn("and {count} ocean cards are left", "and 1 ocean card is left",
                  count=len(after.race.cards))
    elif kind == "dolphin":
        assert after.race is not None, "a dolphin's step comes after the ring"
        space = after.race.space_of(seat).name
        if move.get("step"):
            return _then(before, after, t("to {space}", space=space), seat)
        return _then(before, after, t("and their boat stays on {space}", space=space))
    else:
        said = _played(before, move)
        if after.removal is not None and after.removal.rule == "KAN-OCTOPUS":
            if said is None or before.trick:  # played to a trick, not led
                return _and(said, t("and removes a free ocean card"))
            return Text.joined("; ", [said, t("seat {seat} removes a free ocean card",
                                               seat=seat)])
    if after.sailing == before.sailing:
        return said or ""
    return _then(before, after, _and(said, _sailed(after, seat)))


def _and(said: Text | None, then: Text) -> Text:
    """`then`, an "and ..." clause of the move's own player, after what the move did."""
    return Text.joined(" ", [said, then]) if said else then


def _played(before: KanaloaState, move: Move) -> Text | None:
    """A card put on the trick: a lead with its trump (unless the move announced it), a
    card that does not follow."""
    card = move.get("card")
    if not before.trick:
        assert before.race is not None, "a trick is played once the ring is laid"
        return t("and leads") if "trump" in move.fields else _leads(before.race.trump())
    lead = lead_colour(before.trick, before.options["special_lead"])
    played = tiki(card)
    if lead is not None and played is not None and played[0] != lead:
        return t("showing no {colour}", colour=lead)
    return None


def _leads(trump: str) -> Text:
    return t("and leads; the trump is {trump}", trump=trump)


def _sailed(after: KanaloaState, seat: int) -> Text:
    """KAN-WIN and KAN-MOVE as the referee worked them out: the card that won is named
    only when it is not the one `seat` just played."""
    sailing = after.sailing
    assert sailing is not None, "a trick won has a boat that sailed"
    if sailing.winner == seat:
        done = t("and wins the trick (trump {trump}): their boat sails to {space}",
                 trump=sailing.trump, space=sailing.landed)
    else:
        done = t("and seat {seat} wins the trick with {card} (trump {trump}): their boat "
                 "sails to {space}", seat=sailing.winner, card=sailing.card,
                 trump=sailing.trump, space=sailing.landed)
    if sailing.skipped:
        done = tn("{move}, passing {count} boats", "{move}, passing 1 boat",
                  move=done, count=sailing.skipped)
    if sailing.dolphin_steps:
        done = tn("{move}, with {count} dolphin steps", "{move}, with 1 dolphin step",
                  move=done, count=sailing.dolphin_steps)
    return done


def _then(before: KanaloaState, after: KanaloaState, said: Text, mover: int | None = None
          ) -> Text:
    """`said`, then what the table does next: the game won, a dolphin's step to choose,
    the round's end, or the next lead and its trump ("and leads" when `said` is the
    `mover`'s own clause and they lead)."""
    if after.phase == "over":
        then = t("seat {seat}'s boat laps the rearmost boat: seat {seat} wins the game",
                 seat=after.winner)
    elif after.dolphin is not None:
        then = t("a dolphin: seat {seat} may sail on one more space", seat=after.dolphin)
    elif after.round > before.round:
        then = (t("round {round} ends: seat {seat} removes a free ocean card and deals",
                  round=before.round, seat=after.dealer) if after.removal is not None
                else t("round {round} ends: seat {seat} deals", round=before.round,
                       seat=after.dealer))
    else:
        assert after.race is not None, "a trick is won once the ring is laid"
        if after.leader == mover:
            return _and(said, _leads(after.race.trump()))
        then = t("seat {seat} leads, the trump is {trump}", seat=after.leader,
                 trump=after.race.trump())
    return Text.joined("; ", [said, then])


def revoke_proof(void: Void, card: str, index: int) -> Text:
    """KAN-FOLLOW, proven: the seat played the colour it did not follow earlier in the
    round, and there is no drawing in a round, so it held that colour then. Moves are said
    from 1, as the table counts them."""
    return t("seat {seat} plays {card} at move {index}, so it held {colour} when it played "
             "{revoke} at move {earlier} without following {colour}",
             seat=void.seat, card=card, index=index + 1, colour=void.colour, revoke=void.card,
             earlier=void.index + 1)

#: Each rule a verdict can name, in words (shared/rules/kanaloa.md).
RULE_NAMES = {
    "KAN-SETUP": t("Laying the ring"),
    "KAN-DEAL": t("The deal"),
    "KAN-FOLLOW": t("Follow the lead colour"),
    "KAN-LEAD-COLOUR": t("The lead colour"),
    "KAN-TRUMP": t("The trump"),
    "KAN-WIN": t("Who wins the trick"),
    "KAN-MOVE": t("The winner's boat sails"),
    "KAN-ONE-PER-SPACE": t("One boat a space"),
    "KAN-DOLPHIN": t("The dolphin's step"),
    "KAN-DOLPHIN-CHAIN": t("Dolphin after dolphin"),
    "KAN-OCTOPUS": t("The Octopus removes an ocean card"),
    "KAN-ROUND-REMOVE": t("An ocean card removed after a round"),
    "KAN-NEXT-ROUND": t("The next round"),
    "KAN-END": t("The end of the game"),
}
