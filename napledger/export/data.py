"""The plain data an export is made from.

The CLI builds these from the database; the writer never sees a database session.
Nothing here imports openpyxl.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

STATUSES = ("live", "voided", "replaced")


@dataclass(frozen=True)
class StakeRow:
    """One bid of the session's stake table; ``tricks`` is 0 for misère."""

    bid: str
    tricks: int
    win: int
    lose: int


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
    changes: Mapping[str, int]  # chips each player gained (+) or lost (-); empty unless live
    recorded_at: datetime
    note: str | None = None  # free text typed with the deal or its amendment

    def __post_init__(self) -> None:
        # An unknown status would silently drop a deal from the running totals.
        if self.status not in STATUSES:
            raise ValueError(f"deal {self.number}: unknown status {self.status!r}")


@dataclass(frozen=True)
class LedgerRow:
    """One transfer between accounts; ``"pot"`` is the pot's account."""

    deal: int | None  # None: made at the close of the session (the pot shared or taken)
    revision: int
    payer: str
    payee: str
    chips: int


@dataclass(frozen=True)
class PaymentRow:
    """One settlement transfer, in money."""

    payer: str
    payee: str
    money: Decimal


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
    settlement: tuple[PaymentRow, ...]
    stakes: tuple[StakeRow, ...]
    settings: Mapping[str, str | int | bool]
    deals: Sequence[DealRow]  # in order; may be very long (50,000)
    ledger: Sequence[LedgerRow]
