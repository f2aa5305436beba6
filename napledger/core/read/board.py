"""The board: one session's state as every scoreboard shows it, its lines in one order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import cached_property
from typing import NamedTuple

from napledger.core.money import chips_money, shown_money
from napledger.core.read.said import by_chips
from napledger.core.rules import Rules


class SessionInfo(NamedTuple):
    id: int
    name: str
    variant: str
    chip_value: Decimal  # money one chip is worth
    currency: str
    opening_pot: int  # chips carried in from `carried_from`
    carried_from: int | None
    pot_to: str | None  # how the pot left at the close: split, carry or a player
    created_at: datetime
    closed_at: datetime | None
    language: str | None = None  # the table's own language, kept from `new --lang`

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


@dataclass(frozen=True)
class Scoreboard:
    """One session's state as a scoreboard shows it."""

    session: SessionInfo
    rules: Rules
    seating: tuple[str, ...]  # who sits now, clockwise
    players: tuple[str, ...]  # everyone who has sat, in the order they sat down
    chips: Mapping[str, int]
    pot: int
    hands: int  # live deals
    next_dealer: str | None  # None once closed
    voided: int = 0  # deal numbers voided: said apart from the deals played

    @property
    def chip_value(self) -> Decimal:
        return self.session.chip_value

    def money(self, chips: int) -> str:
        """Chips as money, a decimal string with the currency's places."""
        return chips_money(chips, self.chip_value, self.session.currency)

    def shown_money(self, chips: int, signed: bool = False, label: bool = False) -> str:
        """Chips as money as a person reads it (`+0.70`, `+0.70 GBP` `label`led)."""
        return shown_money(chips, self.chip_value, self.session.currency, signed, label)

    @property
    def sits_out(self) -> tuple[str, ...]:
        """Who sits the next deal out: seated but dealt no cards (the dealer, at a table as
        big as the rules' dealer_sits_out_from)."""
        if self.next_dealer is None:
            return ()
        dealt = self.rules.dealt_in(self.seating, self.next_dealer)
        return tuple(p for p in self.seating if p not in dealt)

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """The scoreboard's lines, in the order every front end draws them (most chips
        first: napledger.core.read.said.by_chips)."""
        open_ = self.session.closed_at is None
        return tuple(
            Standing(p, self.chips[p], open_ and p not in self.seating)
            for p in by_chips(self.players, self.chips)
        )


class Standing(NamedTuple):
    """One player's line of the scoreboard."""

    player: str
    chips: int
    # Left the table while the session goes on (shown as such); once it is closed, nobody.
    away: bool
