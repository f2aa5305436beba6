"""The workbook's columns about one player, named once for every sheet that has them.

Deals gives each player three columns (the chips a deal changed, the money they are
worth, the running total), Balance one (the chips after each step). Russian and Polish
name the player before a colon («Аня: итого», „Ania: razem”), never declined.
"""

from __future__ import annotations

from napledger.core.words import _


def player_columns(player: str) -> tuple[str, str, str]:
    """A player's change, money and running total on Deals, as the headers say them."""
    return (
        _("{player} change").format(player=player),
        _("{player} money").format(player=player),
        _("{player} total").format(player=player),
    )


def player_chips(player: str) -> str:
    """A player's chips after each step, the header of their column on Balance."""
    return _("{player} chips").format(player=player)


def header_words() -> list[str]:
    """The words a player's Deals headers put beside the name («изменение», „pieniądze”),
    to leave room for the longest unbroken."""
    return [word for header in player_columns("") for word in header.replace(":", " ").split()]
