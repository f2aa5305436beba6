"""The tables. Deal records are the truth; entries are the postings derived from them.

The database is built by the migrations in `schema.py`; a change here needs one there.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, UniqueConstraint, text
from sqlmodel import Field, SQLModel


def now() -> datetime:
    return datetime.now(UTC)


class Meta(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class Player(SQLModel, table=True):
    """Everyone who has ever sat, so that `ann` in March is `Ann` from January."""

    __tablename__ = "players"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    key: str = Field(unique=True)  # the folded name


class SessionRow(SQLModel, table=True):
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


class Entry(SQLModel, table=True):
    """One account's net chips in one deal (or in the close, when deal_id is null)."""

    __tablename__ = "entries"
    # Covers the session's totals (migration 0006): chips are read from the index.
    __table_args__ = (Index("ix_entries_session_account_chips", "session_id", "account", "chips"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="sessions.id")
    deal_id: int | None = Field(default=None, foreign_key="deals.id", index=True)
    account: str
    chips: int


class RosterRow(SQLModel, table=True):
    """One change to who sits: the record of the seating, as deal records are of the money."""

    __tablename__ = "roster"
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="sessions.id", index=True)
    from_deal: int  # in force from this deal number on
    kind: str  # seat (the opening seating), join or leave
    player: str
    seat: int  # the place in the clockwise order taken (seat, join) or left (leave)
    recorded_at: datetime = Field(default_factory=now)


class CloseRow(SQLModel, table=True):
    """One close of a session; a reopened one stays, voided, with the shares it had paid."""

    __tablename__ = "closes"
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="sessions.id", index=True)
    pot_to: str  # split, carry or a player
    pot: int  # chips in the pot at the close
    # The close's postings: the chips it moved into (+) or out of (-) each
    # account, the pot's included (not what each account held at the close).
    shares_json: str
    status: str = "live"  # live, or voided by `reopen`
    closed_at: datetime = Field(default_factory=now)
    reopened_at: datetime | None = None


# Each account's chips in one session: the sum of its entries, kept by the database's
# triggers (migration 0007), never written by napledger itself. A plain table, not a
# model class: nothing builds rows of it, and a command starts faster without one more.
balances = Table(
    "balances",
    SQLModel.metadata,
    Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
    Column("account", String, primary_key=True),
    Column("chips", Integer, nullable=False),
)
