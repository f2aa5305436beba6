"""The timeline: what happened at the table, row by row, as every front end lists it.

A session reads as one list of rows: the pot carried in from another session, every
version of every deal, each join and leave, and each close (one taken back by `reopen`
too), each with its label, its status, what it says, what it paid, the pot after it and
each account's running balance. `hands`, the page, `/s/N/json` and the workbook's Deals
sheet lay out these rows and decide nothing about them. The rows are made as they are
read, so a workbook streams a history of 50,000 deals through them without holding it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from itertools import islice
from typing import NamedTuple

from napledger.core.ledger import POT, Payment, balances, changes_from, in_seat_order
from napledger.core.read.board import Scoreboard
from napledger.core.read.history import ScoredDeal
from napledger.core.read.said import (
    CLOSE,
    OPEN,
    pot_at_close,
    pot_carried_in,
    pot_row_label,
    roster_said,
)
from napledger.core.rules import Rules
from napledger.core.rules.scoring import extras, outcome
from napledger.core.rules.texts import bid_name
from napledger.core.seating import RosterChange
from napledger.core.words import NC_, pgettext

# What a row is: the pot carried in, a deal, a join or leave, a close.
OPENING, DEAL, SEATING, CLOSING = "open", "deal", "seat", "close"

# A row's state, as its Status says it: a deal that counts, one voided or replaced by a
# correction, a close (live, or taken back by `reopen`).
STATUSES = (
    NC_("deal status", "live"),
    NC_("deal status", "voided"),
    NC_("deal status", "replaced"),
    NC_("deal status", "reopened"),
)


def status_said(status: str) -> str:
    """A row's state in the language spoken: live, voided, replaced, reopened."""
    return pgettext("deal status", status)


class CloseRecord(NamedTuple):
    """One close of a session; one taken back by `reopen` is kept, no longer live."""

    pot_to: str  # split, carry or a player
    pot: int  # chips in the pot at the close
    # The close's changes: the chips it moved into (+) or out of (-) each
    # account, the pot's included (not what each account held at the close).
    shares: Mapping[str, int]
    live: bool
    closed_at: datetime


# One thing that happened at the table, in the order `events` gives.
Event = ScoredDeal | RosterChange | CloseRecord


def events(
    deals: Iterable[ScoredDeal], roster: Sequence[RosterChange], closes: Sequence[CloseRecord]
) -> Iterator[Event]:
    """Deals, joins and leaves, and closes in the order a reader meets them.

    A join or leave stands before the first deal it was in force for (or at the end:
    in force from the next deal); a close stands before the first deal recorded after
    it (a correction of an older deal does not move it), else at the end. The opening
    seating is not an event. The deals are read once, as they come.
    """
    changes = [c for c in roster if c.kind != "seat"]
    waiting = list(closes)
    for deal in deals:
        stamp = deal.recorded_at
        while waiting and deal.revision == 1 and stamp and waiting[0].closed_at < stamp:
            yield waiting.pop(0)
        while changes and changes[0].from_deal <= deal.number:
            yield changes.pop(0)
        yield deal
    yield from changes
    yield from waiting


class Row(NamedTuple):
    """One row of the timeline, in the language spoken when it was made."""

    kind: str  # OPENING, DEAL, SEATING or CLOSING
    label: str  # 3, 3.2 (deal 3's second version), the pot's open and close; "" a join
    status: str  # live, voided, replaced; a close taken back by `reopen`: reopened
    said: str  # a deal's outcome, or what the row tells (the pot carried, a join)
    dealer: str | None = None
    bidder: str | None = None
    bid: str | None = None  # the bid's name, as said
    extras: str = ""  # peeps and purchases, which cost fees
    note: str | None = None  # typed with the deal
    # Each account's change in seat order, the pot last: what a live row paid, what a
    # voided or replaced deal or a reopened close had paid (it no longer counts).
    changes: tuple[tuple[str, int], ...] = ()
    pot: int | None = None  # chips in the pot after it (none: it does not count)
    seated: tuple[str, ...] = ()  # who was at the table for it
    # Each account's running balance after it (the pot's account too), where it counts.
    totals: Mapping[str, int] | None = None
    payments: tuple[Payment, ...] = ()  # who paid whom, where it counts
    deal: ScoredDeal | None = None
    recorded_at: datetime | None = None

    @property
    def live(self) -> bool:
        return self.status == "live"

    @property
    def counts(self) -> bool:
        """A live deal or a live close: a step of the running balances."""
        return self.live and self.kind in (DEAL, CLOSING)

    @property
    def status_said(self) -> str:
        return status_said(self.status)

    @property
    def words(self) -> tuple[str, ...]:
        """What the row says, in the order every front end shows it: its state where it
        does not count, what happened, the peeps and purchases, the note."""
        shown = [] if self.live else [self.status_said]
        return (*shown, self.said, *filter(None, (self.extras, self.note)))

    @property
    def text(self) -> str:
        """What the row says in one line, where a front end has one cell for it (`hands`,
        the page): "voided: made (3 tricks); Ann peeped — a note"."""
        state = "" if self.live else f"{self.status_said}: "
        said = "; ".join(filter(None, (self.said, self.extras)))
        return state + said + (f" — {self.note}" if self.note else "")


class PotFlow(NamedTuple):
    """Where one session's pot came from and went, in chips."""

    carried_in: int
    paid_in: int  # by the live deals that added to it (antes, fees, failed bids)
    taken: int  # by the live deals that took from it (a nap taking the pot)
    left: int  # in it after the last deal, before the close


class Timeline:
    """A session's rows in order, made as they are read (its deals may be streamed).

    After a walk it knows what the walk added up: the live deals, the pot's flow and each
    player's last running total (what the board shows).
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        deals: Iterable[ScoredDeal],
        roster: Sequence[RosterChange] = (),
        closes: Sequence[CloseRecord] = (),
        opening_pot: int = 0,
        carried_from: str | None = None,
        carried_to: str | None = None,
        whole: bool = True,
    ) -> None:
        self.rules, self.players = rules, tuple(players)
        self.deals, self.roster, self.closes = deals, roster, closes
        self.opening_pot, self.carried_from, self.carried_to = opening_pot, carried_from, carried_to
        self.whole = whole  # False: the newest deals only (no opening, no running totals)
        self.live = self.paid_in = self.taken = 0
        self.left = opening_pot
        self.totals: dict[str, int] = {}

    def __iter__(self) -> Iterator[Row]:
        self.live = self.paid_in = self.taken = 0
        self.left = self.opening_pot
        self.totals = {}
        if self.opening_pot and self.whole:
            yield Row(
                OPENING,
                pot_row_label(OPEN),
                "live",
                pot_carried_in(self.opening_pot, self.carried_from),
                pot=self.opening_pot,
            )
        seated: tuple[str, ...] = self.players
        for event in events(self.deals, self.roster, self.closes):
            if isinstance(event, RosterChange):
                yield Row(SEATING, "", "live", roster_said(event))
            elif isinstance(event, CloseRecord):
                yield self._close(event, seated)
            else:
                row = self._deal(event)
                if row.counts:
                    seated = row.seated
                yield row

    @property
    def pot_flow(self) -> PotFlow:
        return PotFlow(self.opening_pot, self.paid_in, self.taken, self.left)

    def _running(self, changes: Mapping[str, int]) -> Mapping[str, int] | None:
        self.totals = balances([changes], start=self.totals)
        return self.totals if self.whole else None

    def _deal(self, d: ScoredDeal) -> Row:
        deal = d.deal
        assert deal is not None  # a strict history has read every record
        # A voided or replaced deal keeps no changes: what it paid is scored again.
        paid = d.payments if d.live else d.would_have_paid
        changes = (d.changes if d.live else None) or changes_from(paid)
        touched = {a for x in paid for a in (x.payer, x.payee)}
        in_order = tuple(in_seat_order(changes, self.players, touched))
        # A player with a payment in the deal was at the table, whatever the record says.
        seated = tuple(dict.fromkeys([*deal.seated, *(a for a in changes if a != POT)]))
        totals = None
        if d.live:
            self.live += 1
            moved = sum(c for a, c in changes.items() if a != POT)
            # Payments sum to zero: what the players lost together went into the pot.
            self.paid_in += max(-moved, 0)
            self.taken += max(moved, 0)
            self.left = d.stored_pot_after
            totals = self._running(changes)
        return Row(
            DEAL,
            d.label,
            d.status,
            outcome(self.rules, deal),
            dealer=deal.dealer,
            bidder=deal.bidder,
            bid=bid_name(deal.bid) if deal.bid else None,
            extras=extras(deal),
            note=deal.note,
            changes=in_order,
            pot=d.stored_pot_after if d.live else None,
            seated=seated,
            totals=totals,
            payments=d.payments,
            deal=d,
            recorded_at=d.recorded_at,
        )

    def _close(self, close: CloseRecord, seated: tuple[str, ...]) -> Row:
        carried_to = self.carried_to if close.live else None
        said = pot_at_close(close.pot, close.pot_to, carried_to)
        in_order = tuple(in_seat_order(close.shares, self.players))
        if not close.live:
            return Row(CLOSING, pot_row_label(CLOSE), "reopened", said, changes=in_order)
        return Row(
            CLOSING,
            pot_row_label(CLOSE),
            "live",
            said,
            changes=in_order,
            pot=close.pot + close.shares.get(POT, 0),
            seated=seated,
            totals=self._running(close.shares),
            payments=tuple(Payment(POT, a, c) for a, c in in_order if a != POT and c),
            recorded_at=close.closed_at,
        )


@dataclass(frozen=True)
class History:
    """Every revision of every deal, scored, the changes to who sits, and the closes."""

    scoreboard: Scoreboard
    deals: Sequence[ScoredDeal]
    roster: Sequence[RosterChange]
    closes: Sequence[CloseRecord] = ()
    carried_from: str | None = None  # the session the opening pot came from, by name
    carried_to: str | None = None  # the session that took the pot carried on, by name

    @cached_property
    def timeline(self) -> tuple[Event, ...]:
        """Deals, joins and leaves, and closes in the order a reader meets them (`events`)."""
        return tuple(events(self.deals, self.roster, self.closes))

    def rows(self) -> Timeline:
        """The timeline's rows: the pot carried in first, every deal, join, leave and close."""
        t = self.scoreboard
        return Timeline(
            t.rules,
            t.players,
            self.deals,
            self.roster,
            self.closes,
            t.session.opening_pot,
            self.carried_from,
            self.carried_to,
        )

    def last_rows(self, most: int) -> tuple[Row, ...]:
        """The timeline's last `most` rows, the newest first (the page's last deals),
        scoring no more than the last `most` deals: an event placed before them is
        before all of them, and so not among the last `most` rows either."""
        t = self.scoreboard
        window = self.deals[-most:] if len(self.deals) > most else self.deals
        rows = Timeline(
            t.rules,
            t.players,
            window,
            self.roster,
            self.closes,
            t.session.opening_pot,
            self.carried_from,
            self.carried_to,
            whole=len(window) == len(self.deals),
        )
        return tuple(reversed(list(rows)[-most:]))

    @property
    def next_number(self) -> int:
        """The number the next deal takes: above the last one's, voided or not (a number
        is never given again, as `SessionState.next_number`)."""
        return (self.deals[-1].number if self.deals else 0) + 1

    def recent(self, most: int) -> tuple[ScoredDeal, ...]:
        """The last `most` live deals, the newest first."""
        return tuple(islice((d for d in reversed(self.deals) if d.live), most))

    def changes(self, event: ScoredDeal | CloseRecord) -> tuple[tuple[str, int], ...]:
        """A live deal's changes, or a close's shares, as every front end lists them: in
        seat order, the pot last; an account a deal's payments touched shows even at 0 (a
        dealer who anted and won it back took part in the deal)."""
        players = self.scoreboard.players
        if isinstance(event, CloseRecord):
            return tuple(in_seat_order(event.shares, players))
        touched = {a for x in event.payments for a in (x.payer, x.payee)}
        return tuple(in_seat_order(event.changes, players, touched))

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
                total = balances([event.changes], start=total)
                seated = event.deal.seated if event.deal is not None else seated
                out.append((event.label, total, seated))
            elif isinstance(event, CloseRecord) and event.live:
                total = balances([event.shares], start=total)
                out.append(("close", total, seated))
        return tuple(out)
