"""The tables. Deal records are the truth; entries are the postings derived from them.

The database is built by the migrations in `schema.py`; a change here needs one there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, UniqueConstraint, text
from sqlmodel import AutoString, SQLModel, UTCDateTime


def now() -> datetime:
    return datetime.now(UTC)


# Every table is a plain table on SQLModel's metadata, with the types SQLModel gives its
# models' columns, so the migrations build exactly these (tests/store/test_schema.py
# compares the two). The book reads and writes them by column: a model class costs a
# one-shot command (`hand`, `table`) milliseconds to build as it starts and its ORM loading
# more at each run, for nothing the book uses (issue #23).

sessions = Table(
    "sessions",
    SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("name", AutoString, nullable=False),
    Column("key", AutoString, nullable=False, unique=True),  # the folded name
    Column("variant", AutoString, nullable=False),
    Column("rules_json", AutoString, nullable=False),  # the rules chosen at `new`, frozen
    Column("chip_value", AutoString, nullable=False),  # a Decimal, as text: never a float
    Column("currency", AutoString, nullable=False, default=""),
    Column("seating_json", AutoString, nullable=False),  # who sits now, clockwise
    # Everyone who has sat this session, in the order they sat down.
    Column("players_json", AutoString, nullable=False),
    Column("first_dealer", AutoString, nullable=False),
    Column("opening_pot", Integer, nullable=False, default=0),
    Column("carried_from", Integer, ForeignKey("sessions.id"), nullable=True),
    # How the pot left at the close: split, carry or a player.
    Column("pot_to", AutoString, nullable=True),
    Column("created_at", UTCDateTime, nullable=False, default=now),
    Column("closed_at", UTCDateTime, nullable=True),
    # The table's own language (en, ru, pl), or None: the reader's.
    Column("language", AutoString, nullable=True),
    # Where an imported session came from ("ledger ID session N", "sheet sha256:..."), else
    # None: the key `import` finds an evening by, so that it is never brought in twice.
    Column("source", AutoString, nullable=True, index=True),
)


@dataclass
class SessionRow:
    """A session's row as read (`sessions`); the book writes every change to it back."""

    id: int
    name: str
    key: str
    variant: str
    rules_json: str
    chip_value: str
    currency: str
    seating_json: str
    players_json: str
    first_dealer: str
    opening_pot: int
    carried_from: int | None
    pot_to: str | None
    created_at: datetime
    closed_at: datetime | None
    language: str | None
    source: str | None = None


# One revision of a deal (amending adds the next; the old one is marked replaced).
deals = Table(
    "deals",
    SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("revision", Integer, nullable=False, default=1),
    # live, voided or replaced (by a later revision)
    Column("status", AutoString, nullable=False, default="live"),
    Column("record_json", AutoString, nullable=False),
    Column("pot_after", Integer, nullable=False, default=0),
    Column("recorded_at", UTCDateTime, nullable=False, default=now),
    Column("voided_at", UTCDateTime, nullable=True),  # when a voided revision was voided
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
    # The entries of deals alone, for each player's biggest swing (migration 0009, partial
    # on every database; the PostgreSQL keyword left out as for the deals' index).
    Index(
        "ix_entries_deal_swings",
        "session_id",
        "account",
        "chips",
        "deal_id",
        sqlite_where=text("deal_id IS NOT NULL"),
    ),
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
