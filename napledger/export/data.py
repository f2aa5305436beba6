"""The plain data an export is made from.

The CLI builds these from the database; the writer never sees a database session.
Nothing here imports openpyxl.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from napledger.core.seating import RosterChange

STATUSES = ("live", "voided", "replaced")


@dataclass(frozen=True)
class StakeRow:
    """One bid of the session's stake table; ``tricks`` is 0 for misère."""

    bid: str
    tricks: int
    win: int  # chips from each opponent when made
    lose: int  # chips to each opponent when failed
    misere: bool = False  # made by taking no tricks at all
    enabled: bool = True  # False: switched off in this session, cannot be bid
    pot_bid: bool = False  # made: takes the pot; failed (pool_fail_doubles): pays it its amount
    fail_pot: int = 0  # chips a failed bidder also pays into the pot


@dataclass(frozen=True)
class LedgerRow:
    """One transfer between accounts; ``"pot"`` is the pot's account."""

    deal: int | None  # None: made at the close of the session (the pot shared or taken)
    revision: int
    payer: str
    payee: str
    chips: int


@dataclass(frozen=True)
class DealRow:
    number: int  # deal number within the session
    revision: int  # 1 for the original record, 2.. for amendments
    status: str  # "live" | "voided" | "replaced"
    dealer: str
    bidder: str | None  # None when passed out
    bid: str | None
    outcome: str  # human text: "made (5 tricks)", "revoke by Eve", "passed out", ...
    revoker: str | None
    peeps: tuple[str, ...]
    purchases: tuple[tuple[str, int], ...]  # (player, cards bought)
    pot_after: int  # chips in the pot after the deal
    # Chips each player gained (+) or lost (-). For a voided or replaced deal: what it
    # had paid while it counted; it no longer does, so no total includes it.
    changes: Mapping[str, int]
    recorded_at: datetime
    note: str | None = None  # free text typed with the deal or its amendment
    seated: tuple[str, ...] | None = None  # who sat for it; None: everyone of the session
    # Its transfers, when the store streams them with the deal (else in the session's ledger).
    ledger: tuple[LedgerRow, ...] = ()

    def __post_init__(self) -> None:
        # An unknown status would silently drop a deal from the running totals.
        if self.status not in STATUSES:
            raise ValueError(f"deal {self.number}: unknown status {self.status!r}")


@dataclass(frozen=True)
class SessionExport:
    id: int
    name: str
    variant: str
    currency: str
    chip_value: Decimal
    created: datetime
    closed: datetime | None
    players: tuple[str, ...]  # everyone who sat, in seat order
    chips: Mapping[str, int]  # final chips per player (after any close)
    pot: int  # chips left in the pot at the end
    # Each party's net money as `settle` counts it ("pot" where money sits in a carried
    # box; an open session as if closed now with the pot split). The evening's one
    # settlement is the fewest payments squaring the sum of these over its sessions.
    net: Mapping[str, Decimal]
    stakes: tuple[StakeRow, ...]
    settings: Mapping[str, str | int | bool]
    # In order; may be very long (50,000): the store streams it, reading the deals again
    # each time it is iterated, so the writer goes over it once.
    deals: Iterable[DealRow]
    ledger: Sequence[LedgerRow]  # transfers not carried by their deals, and the close's
    # Settings this game does not have, each with the reason; its value in ``settings``
    # is what the game does without it.
    absent: Mapping[str, str] = field(default_factory=dict)
    opening_pot: int = 0  # chips carried in from an earlier session's pot
    carried_from: str | None = None  # the name of that session
    # How the pot left at the close: "split", "carry" or a player; None while open.
    pot_to: str | None = None
    carried_to: str | None = None  # the session that took the carried pot, if one has
    # Chips the close paid each player out of the pot (none when carried or open).
    close_shares: Mapping[str, int] = field(default_factory=dict)
    # The joins and leaves, in the order made: the Deals sheet lists them between the
    # deals, as `hands` does.
    roster: Sequence[RosterChange] = ()


def deal_records(sessions: Iterable[SessionExport]) -> int:
    """How many deal records the sessions have (a stored history counts them in the store)."""
    return sum(
        len(s.deals) if isinstance(s.deals, Sized) else sum(1 for _ in s.deals) for s in sessions
    )
