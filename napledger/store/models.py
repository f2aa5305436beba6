"""The tables. Deal records are the truth; entries are the postings derived from them.

The database is built by the migrations in `schema.py`; a change here needs one there.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import ConfigDict
from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, UniqueConstraint, text
from sqlmodel import AutoString, Field, SQLModel, UTCDateTime


def now() -> datetime:
    return datetime.now(UTC)


# A table model is built from its columns, never validated, so pydantic's validator for
# it is left unbuilt until something asks (nothing in napledger does): building both
# cost a one-shot command some 4 ms as it starts (issue #23).
DEFERRED: Any = ConfigDict(defer_build=True)  # Any: SQLModel types it in a private module


class SessionRow(SQLModel, table=True):
    model_config = DEFERRED
    __tablename__ = "sessions"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    key: str = Field(unique=True)
    variant: str
    rules_json: str  # the frozen snapshot of the rules chosen at `new`
    chip_value: str  # a Decimal, kept as text so it is never a float
    currency: str = ""
    seating_json: str  # who sits now, clockwise
    players_json: str  # everyone who has sat this session, in the order they sat down
    first_dealer: str
    opening_pot: int = 0
    carried_from: int | None = Field(default=None, foreign_key="sessions.id")
    pot_to: str | None = None  # how the pot left at the close: split, carry or a player
    created_at: datetime = Field(default_factory=now)
    closed_at: datetime | None = None
    language: str | None = None  # the table's own language (en, ru, pl), or None: the reader's


class DealRevision(SQLModel, table=True):
    """One revision of a deal (amending adds the next; the old one is marked replaced)."""

    __tablename__ = "deals"
    model_config = DEFERRED
    __table_args__ = (
        UniqueConstraint("session_id", "number", "revision"),
        Index("ix_deals_session_status", "session_id", "status", "number"),
        Index(
            "ux_deals_one_live",
            "session_id",
            "number",
            unique=True,
            # Partial on every database (migration 0002 makes it); the PostgreSQL keyword is
            # left out here because it alone would load that dialect on every SQLite command.
            sqlite_where=text("status = 'live'"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="sessions.id")
    number: int
    revision: int = 1
    status: str = "live"  # live, voided or replaced (by a later revision)
    record_json: str
    pot_after: int = 0
    recorded_at: datetime = Field(default_factory=now)


# The tables nothing builds objects of are plain tables beside the two model classes:
# the book reads and writes them by column, and each model class costs a one-shot command
# (`hand`, `table`) a few milliseconds to build as it starts (issue #23). They are on
# SQLModel's metadata with the types SQLModel would give them, so the migrations build
# exactly these (tests/store/test_schema.py compares the two).

meta = Table(
    "meta",
    SQLModel.metadata,
    Column("key", AutoString, primary_key=True),
    Column("value", AutoString, nullable=False),
)

# Everyone who has ever sat, so that `ann` in March is `Ann` from January.
players = Table(
    "players",
    SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("name", AutoString, nullable=False),
    Column("key", AutoString, nullable=False, unique=True),  # the folded name
)

# One account's net chips in one deal (or in the close, when deal_id is null).
entries = Table(
    "entries",
    SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False),
    Column("deal_id", Integer, ForeignKey("deals.id"), nullable=True, index=True),
    Column("account", AutoString, nullable=False),
    Column("chips", Integer, nullable=False),
    # Covers the session's totals (migration 0006): chips are read from the index.
    Index("ix_entries_session_account_chips", "session_id", "account", "chips"),
)

# One change to who sits: the record of the seating, as deal records are of the money.
roster = Table(
    "roster",
    SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False, index=True),
    Column("from_deal", Integer, nullable=False),  # in force from this deal number on
    Column("kind", AutoString, nullable=False),  # seat (the opening seating), join or leave
    Column("player", AutoString, nullable=False),
    # The place in the clockwise order taken (seat, join) or left (leave).
    Column("seat", Integer, nullable=False),
    Column("recorded_at", UTCDateTime, nullable=False, default=now),
)

# One close of a session; a reopened one stays, voided, with the shares it had paid.
closes = Table(
    "closes",
    SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False, index=True),
    Column("pot_to", AutoString, nullable=False),  # split, carry or a player
    Column("pot", Integer, nullable=False),  # chips in the pot at the close
    # The close's postings: the chips it moved into (+) or out of (-) each account, the
    # pot's included (not what each account held at the close).
    Column("shares_json", AutoString, nullable=False),
    Column("status", AutoString, nullable=False, default="live"),  # or voided by `reopen`
    Column("closed_at", UTCDateTime, nullable=False, default=now),
    Column("reopened_at", UTCDateTime, nullable=True),
)

# Each account's chips in one session: the sum of its entries, kept by the database's
# triggers (migration 0007), never written by napledger itself.
balances = Table(
    "balances",
    SQLModel.metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("account", String, primary_key=True),
    Column("chips", Integer, nullable=False),
)
