"""UNO: the cards and the state (`state`), what the referee knows of hidden hands
(`hands`), the rules (`rules`, judged in `judging`), the discard pile and the buttons
read (`table`), a move in words (`words`) and what the page may enter (`page`)."""

from referee.games.uno.rules import BACK, COLOURS, WILDS, Uno, UnoState, UnoTable

__all__ = ["BACK", "COLOURS", "WILDS", "Uno", "UnoState", "UnoTable"]
