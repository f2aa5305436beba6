"""The plain, frozen values the session API returns: no ORM row leaves the store.

Those with nothing worked out lazily are named tuples: a frozen dataclass costs every
command that imports the store about a millisecond to define (issue #23).

`ClosePlan` is the core's (napledger/core/session.py), named here for the front ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import cached_property
from itertools import islice
from typing import NamedTuple

from napledger.core.history import ScoredDeal
from napledger.core.ledger import Transfer, balances, in_seat_order
from napledger.core.money import chips_money, shown_amount, shown_money
from napledger.core.reading import by_chips
from napledger.core.rules import Deal, Rules
from napledger.core.seating import RosterChange
from napledger.core.session import ClosePlan as ClosePlan  # named here for the front ends
from napledger.core.settle import Payment


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
        first: napledger.core.reading.by_chips)."""
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


class CloseRecord(NamedTuple):
    """One close of a session; one taken back by `reopen` is kept, no longer live."""

    pot_to: str  # split, carry or a player
    pot: int  # chips in the pot at the close
    # The close's postings: the chips it moved into (+) or out of (-) each
    # account, the pot's included (not what each account held at the close).
    shares: Mapping[str, int]
    live: bool
    closed_at: datetime


# One thing that happened at the table, as `hands` lists it.
Event = ScoredDeal | RosterChange | CloseRecord


@dataclass(frozen=True)
class History:
    """Every revision of every deal, scored, the changes to who sits, and the closes."""

    scoreboard: Scoreboard
    deals: Sequence[ScoredDeal]
    roster: Sequence[RosterChange]
    closes: Sequence[CloseRecord] = ()

    @cached_property
    def timeline(self) -> tuple[Event, ...]:
        """Deals, joins and leaves, and closes in the order a reader meets them.

        A join or leave stands before the first deal it was in force for (or at the end:
        in force from the next deal); a close stands before the first deal recorded after
        it (a correction of an older deal does not move it), else at the end. The opening
        seating is not an event.
        """
        changes = [c for c in self.roster if c.kind != "seat"]
        closes = list(self.closes)
        out: list[Event] = []
        for deal in self.deals:
            stamp = deal.recorded_at
            while closes and deal.revision == 1 and stamp and closes[0].closed_at < stamp:
                out.append(closes.pop(0))
            while changes and changes[0].from_deal <= deal.number:
                out.append(changes.pop(0))
            out.append(deal)
        return (*out, *changes, *closes)

    def recent(self, most: int) -> tuple[ScoredDeal, ...]:
        """The last `most` live deals, the newest first (the page's last deals)."""
        return tuple(islice((d for d in reversed(self.deals) if d.live), most))

    def payments(self, event: ScoredDeal | CloseRecord) -> tuple[tuple[str, int], ...]:
        """A live deal's changes, or a close's shares, as every front end lists them: in
        seat order, the pot last; an account a deal's payments touched shows even at 0 (a
        dealer who anted and won it back took part in the deal)."""
        players = self.scoreboard.players
        if isinstance(event, CloseRecord):
            return tuple(in_seat_order(event.shares, players))
        touched = {a for x in event.transfers for a in (x.payer, x.payee)}
        return tuple(in_seat_order(event.entries, players, touched))

    @cached_property
    def running(self) -> tuple[tuple[str, Mapping[str, int]], ...]:
        """Each account's balance after each live deal and after the live close, labelled
        "N" or "close": the last one is the scoreboard (a close's shares of the pot
        included), so a chart drawn from it ends where the table stands."""
        return tuple((label, total) for label, total, _seated in self.steps)

    @cached_property
    def steps(self) -> tuple[tuple[str, Mapping[str, int], tuple[str, ...]], ...]:
        """`running`, with who sat at each step (a close: those of the deal before it), so
        a chart can leave a gap while a player is not at the table."""
        out: list[tuple[str, Mapping[str, int], tuple[str, ...]]] = []
        total: dict[str, int] = {}
        seated: tuple[str, ...] = self.scoreboard.seating
        for event in self.timeline:
            if isinstance(event, ScoredDeal) and event.live:
                total = balances([event.entries], start=total)
                seated = event.deal.seated if event.deal is not None else seated
                out.append((event.label, total, seated))
            elif isinstance(event, CloseRecord) and event.live:
                total = balances([event.shares], start=total)
                out.append(("close", total, seated))
        return tuple(out)


class DealResult(NamedTuple):
    """A deal recorded or amended: N.revision, the record, and what each account gained."""

    number: int
    revision: int
    deal: Deal
    changes: Mapping[str, int]
    scoreboard: Scoreboard


class Voided(NamedTuple):
    number: int
    scoreboard: Scoreboard


class Seated(NamedTuple):
    """A join or a leave: the player as the book spells them."""

    player: str
    scoreboard: Scoreboard


class Closed(NamedTuple):
    transfers: Sequence[Transfer]  # the pot shared out (none when carried)
    scoreboard: Scoreboard


class Settlement(NamedTuple):
    """Each party's net money over some sessions and the fewest payments that square it."""

    sessions: Sequence[SessionInfo]
    net: Mapping[str, Decimal]
    currency: str
    chip_value: Decimal | None  # None when the sessions had different chip values
    payments: Sequence[Payment]
    places: int = 2  # money is shown with this many places (napledger.core.money)

    def shown_money(self, amount: Decimal | int, signed: bool = False, label: bool = False) -> str:
        """An amount of this settlement as a person reads it (`0.35`, `+0.35 GBP`)."""
        return shown_amount(amount, self.places, self.currency, signed, label)


class TableView(NamedTuple):
    """What table mode's prompt and short forms need between commands."""

    name: str
    seated: tuple[str, ...]
    rules: Rules
    number: int  # the number the next deal gets
    dealer: str | None  # None once closed
