"""The schema's version: an ordered list of named migrations, each recorded once applied.

A migration is frozen once released: it spells out its own tables and never reads the
models, so a later change to `models.py` needs a new migration here, never an edit.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    inspect,
    text,
)

from napledger.core.errors import NapError
from napledger.core.seating import RosterChange, changes_between


def _initial(connection: Connection) -> None:
    """The first released schema (napledger 0.1), exactly as it shipped."""
    meta = MetaData()
    Table("meta", meta, Column("key", String, primary_key=True), Column("value", String, nullable=False))  # fmt: skip
    Table(
        "players",
        meta,
        Column("id", Integer, primary_key=True),
        Column("name", String, nullable=False),
        Column("key", String, nullable=False, unique=True),
    )
    Table(
        "sessions",
        meta,
        Column("id", Integer, primary_key=True),
        Column("name", String, nullable=False),
        Column("key", String, nullable=False, unique=True),
        Column("variant", String, nullable=False),
        Column("rules_json", String, nullable=False),
        Column("chip_value", String, nullable=False),
        Column("currency", String, nullable=False),
        Column("seating_json", String, nullable=False),
        Column("players_json", String, nullable=False),
        Column("first_dealer", String, nullable=False),
        Column("opening_pot", Integer, nullable=False),
        Column("carried_from", Integer, ForeignKey("sessions.id")),
        Column("pot_to", String),
        Column("created_at", DateTime, nullable=False),
        Column("closed_at", DateTime),
    )
    Table(
        "deals",
        meta,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False),
        Column("number", Integer, nullable=False),
        Column("revision", Integer, nullable=False),
        Column("status", String, nullable=False),
        Column("record_json", String, nullable=False),
        Column("pot_after", Integer, nullable=False),
        Column("recorded_at", DateTime, nullable=False),
        UniqueConstraint("session_id", "number", "revision"),
        Index("ix_deals_session_status", "session_id", "status", "number"),
    )
    Table(
        "entries",
        meta,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False),
        Column("deal_id", Integer, ForeignKey("deals.id"), index=True),
        Column("account", String, nullable=False),
        Column("chips", Integer, nullable=False),
        Index("ix_entries_session_account", "session_id", "account"),
    )
    meta.create_all(connection)


def _one_live_revision(connection: Connection) -> None:
    # The database itself now refuses a second live version of one deal, whatever the code does.
    connection.execute(
        text(
            "CREATE UNIQUE INDEX ux_deals_one_live ON deals (session_id, number) "
            "WHERE status = 'live'"
        )
    )


MIGRATION_LOCK = 0x4E61_704C  # any constant that other applications are unlikely to use


def _roster(connection: Connection) -> None:
    """Who sits becomes a record of its own; older sessions get theirs from their deals."""
    meta = MetaData()
    Table("sessions", meta, Column("id", Integer, primary_key=True))  # only for the foreign key
    roster = Table(
        "roster",
        meta,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False, index=True),
        Column("from_deal", Integer, nullable=False),
        Column("kind", String, nullable=False),
        Column("player", String, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("recorded_at", DateTime, nullable=False),
    )
    roster.create(connection)
    stamp = datetime.now(UTC)
    rows = []
    for session_id, seating_json in connection.execute(
        text("SELECT id, seating_json FROM sessions")
    ):
        deals = connection.execute(
            text(
                "SELECT number, status, record_json FROM deals WHERE session_id = :s ORDER BY number"
            ),
            {"s": session_id},
        ).all()
        seatings = [(n, json.loads(r)["seated"]) for n, status, r in deals if status == "live"]
        next_deal = max((n for n, _, _ in deals), default=0) + 1
        seatings.append((next_deal, json.loads(seating_json)))
        first = seatings[0][1]
        changes = [RosterChange(1, "seat", p, i) for i, p in enumerate(first)]
        for (_, before), (number, after) in itertools.pairwise(seatings):
            changes += changes_between(before, after, number)
        rows += [
            {"session_id": session_id, "recorded_at": stamp, **dataclasses.asdict(c)}
            for c in changes
        ]
    if rows:
        connection.execute(roster.insert(), rows)


def _closes(connection: Connection) -> None:
    """Each close becomes a record of its own, so that a reopened one is kept, voided."""
    meta = MetaData()
    Table("sessions", meta, Column("id", Integer, primary_key=True))  # only for the foreign key
    closes = Table(
        "closes",
        meta,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False, index=True),
        Column("pot_to", String, nullable=False),
        Column("pot", Integer, nullable=False),
        Column("shares_json", String, nullable=False),
        Column("status", String, nullable=False),
        Column("closed_at", DateTime, nullable=False),
        Column("reopened_at", DateTime),
    )
    closes.create(connection)
    # The dates are copied in SQL, as stored: no round trip through Python's types.
    connection.execute(
        text(
            "INSERT INTO closes (session_id, pot_to, pot, shares_json, status, closed_at) "
            "SELECT id, COALESCE(pot_to, 'split'), 0, '{}', 'live', closed_at FROM sessions "
            "WHERE closed_at IS NOT NULL"
        )
    )
    for (session_id,) in connection.execute(text("SELECT session_id FROM closes")).all():
        shares = {
            account: chips
            for account, chips in connection.execute(
                text(
                    "SELECT account, chips FROM entries WHERE session_id = :s AND deal_id IS NULL"
                ),
                {"s": session_id},
            )
        }
        pot = connection.execute(
            text(
                "SELECT s.opening_pot + COALESCE(SUM(e.chips), 0) FROM sessions s LEFT JOIN "
                "entries e ON e.session_id = s.id AND e.account = 'pot' AND e.deal_id IS NOT NULL "
                "WHERE s.id = :s GROUP BY s.opening_pot"
            ),
            {"s": session_id},
        ).scalar_one()
        connection.execute(
            text("UPDATE closes SET pot = :p, shares_json = :j WHERE session_id = :s"),
            {
                "p": pot,
                "j": json.dumps(shares, ensure_ascii=False, sort_keys=True),
                "s": session_id,
            },
        )


def _currency_codes(connection: Connection) -> None:
    """Currencies in ASCII letters become capitals, as new sessions' are since they are
    checked where made: a `gbp` stored before then must carry and settle with `GBP`.
    The rule is spelt out here, not borrowed from money.py, so this step stays as released."""
    for session_id, currency in connection.execute(text("SELECT id, currency FROM sessions")).all():
        if currency.isascii() and currency.isalpha() and currency != currency.upper():
            connection.execute(
                text("UPDATE sessions SET currency = :c WHERE id = :s"),
                {"c": currency.upper(), "s": session_id},
            )


def _covering_totals(connection: Connection) -> None:
    """The session's totals (a GROUP BY account summing chips) read from the index alone:
    with chips in it, a deal's balances no longer visit every row of the evening. It
    replaces the (session_id, account) index, which it begins with."""
    connection.execute(text("DROP INDEX IF EXISTS ix_entries_session_account"))
    connection.execute(
        text(
            "CREATE INDEX IF NOT EXISTS ix_entries_session_account_chips "
            "ON entries (session_id, account, chips)"
        )
    )


# Each account's chips in a session, kept by the database as entries are written: a deal
# reads its session's totals (and the pot) as a handful of rows, whatever the evening's
# length. Triggers keep them, so no write of an entry (the book's, an upgrade's, a hand
# fixing the file) can leave them behind; an account whose last entry goes loses its row,
# as a GROUP BY over the entries would.
_SQLITE_BALANCE_TRIGGERS = (
    """CREATE TRIGGER entries_balance_insert AFTER INSERT ON entries BEGIN
        INSERT INTO balances (session_id, account, chips)
        VALUES (NEW.session_id, NEW.account, NEW.chips)
        ON CONFLICT (session_id, account) DO UPDATE SET chips = chips + excluded.chips;
    END""",
    """CREATE TRIGGER entries_balance_delete AFTER DELETE ON entries BEGIN
        UPDATE balances SET chips = chips - OLD.chips
        WHERE session_id = OLD.session_id AND account = OLD.account;
        DELETE FROM balances
        WHERE session_id = OLD.session_id AND account = OLD.account AND NOT EXISTS (
            SELECT 1 FROM entries WHERE session_id = OLD.session_id AND account = OLD.account
        );
    END""",
    """CREATE TRIGGER entries_balance_update AFTER UPDATE OF session_id, account, chips
    ON entries BEGIN
        UPDATE balances SET chips = chips - OLD.chips
        WHERE session_id = OLD.session_id AND account = OLD.account;
        DELETE FROM balances
        WHERE session_id = OLD.session_id AND account = OLD.account AND NOT EXISTS (
            SELECT 1 FROM entries WHERE session_id = OLD.session_id AND account = OLD.account
        );
        INSERT INTO balances (session_id, account, chips)
        VALUES (NEW.session_id, NEW.account, NEW.chips)
        ON CONFLICT (session_id, account) DO UPDATE SET chips = chips + excluded.chips;
    END""",
)
_POSTGRES_BALANCE_TRIGGERS = (
    """CREATE OR REPLACE FUNCTION napledger_entries_balance() RETURNS trigger AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
            UPDATE balances SET chips = chips - OLD.chips
            WHERE session_id = OLD.session_id AND account = OLD.account;
            DELETE FROM balances
            WHERE session_id = OLD.session_id AND account = OLD.account AND NOT EXISTS (
                SELECT 1 FROM entries WHERE session_id = OLD.session_id AND account = OLD.account
            );
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            INSERT INTO balances (session_id, account, chips)
            VALUES (NEW.session_id, NEW.account, NEW.chips)
            ON CONFLICT (session_id, account) DO UPDATE SET chips = balances.chips + EXCLUDED.chips;
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER entries_balance AFTER INSERT OR DELETE OR UPDATE OF session_id, account, chips
    ON entries FOR EACH ROW EXECUTE FUNCTION napledger_entries_balance()""",
)


def _balances(connection: Connection) -> None:
    """Each session's totals per account, kept by triggers on the entries (see above) and
    filled from the entries already there."""
    meta = MetaData()
    Table("sessions", meta, Column("id", Integer, primary_key=True))  # only for the foreign key
    Table(
        "balances",
        meta,
        Column("session_id", Integer, ForeignKey("sessions.id"), primary_key=True),
        Column("account", String, primary_key=True),
        Column("chips", Integer, nullable=False),
    ).create(connection)
    connection.execute(
        text(
            "INSERT INTO balances (session_id, account, chips) "
            "SELECT session_id, account, SUM(chips) FROM entries GROUP BY session_id, account"
        )
    )
    postgres = connection.dialect.name == "postgresql"
    for statement in _POSTGRES_BALANCE_TRIGGERS if postgres else _SQLITE_BALANCE_TRIGGERS:
        connection.execute(text(statement))


def _session_language(connection: Connection) -> None:
    """A session may keep the language its table speaks (`new ... --lang ru`), for its page
    and its workbook; the sessions before it keep none and follow whoever reads them."""
    connection.execute(text("ALTER TABLE sessions ADD COLUMN language VARCHAR"))


def _deal_swings(connection: Connection) -> None:
    """Each account's entries of deals (not of closes) in an index of their own, partial on
    every database: `stats` reads every player's biggest win and loss in one deal from it
    alone (the deal's id in it too, which SQLite asks of the partial index's rows), where
    the entries' covering index sent it to each row for its deal."""
    connection.execute(
        text(
            "CREATE INDEX IF NOT EXISTS ix_entries_deal_swings "
            "ON entries (session_id, account, chips, deal_id) WHERE deal_id IS NOT NULL"
        )
    )


def _ledger_id(connection: Connection) -> None:
    """The ledger's own id and a generation every write moves on (store/identity.py): a
    running server notices another ledger, or an older copy, put in its database's place."""
    from napledger.store.identity import stamp

    stamp(connection)


def _import_source(connection: Connection) -> None:
    """An imported session remembers where it came from (`import`: "ledger ID session N",
    or a score sheet's "sheet sha256:..."), so the same evening is never brought in twice;
    and a void keeps when it was made, so that an import replays it at the same point."""
    connection.execute(text("ALTER TABLE sessions ADD COLUMN source VARCHAR"))
    connection.execute(text("CREATE INDEX IF NOT EXISTS ix_sessions_source ON sessions (source)"))
    timestamp = "TIMESTAMP" if connection.dialect.name == "postgresql" else "DATETIME"
    connection.execute(text(f"ALTER TABLE deals ADD COLUMN voided_at {timestamp}"))


MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("0001_initial", _initial),
    ("0002_one_live_revision", _one_live_revision),
    ("0003_roster", _roster),
    ("0004_closes", _closes),
    ("0005_currency_codes", _currency_codes),
    ("0006_covering_totals", _covering_totals),
    ("0007_balances", _balances),
    ("0008_session_language", _session_language),
    ("0009_deal_swings", _deal_swings),
    ("0010_ledger_id", _ledger_id),
    ("0011_import_source", _import_source),
]


def applied(connection: Connection) -> list[str]:
    if not inspect(connection).has_table("schema_migrations"):
        return []
    return [row[0] for row in connection.execute(text("SELECT name FROM schema_migrations"))]


def pending(connection: Connection) -> list[str]:
    """The migrations this database lacks; an error if a newer napledger has written it."""
    done = applied(connection)
    if not done and inspect(connection).get_table_names():
        raise NapError(
            f"{where(connection)} is a database, but not a napledger one; it was left untouched"
        )
    known = [name for name, _ in MIGRATIONS]
    unknown = [name for name in done if name not in known]
    if unknown:
        raise NapError(
            f"{where(connection)} was written by a newer napledger (schema {unknown[-1]}); "
            "upgrade napledger to use it (the file was left untouched)"
        )
    return [name for name in known if name not in done]


def upgrade(connection: Connection) -> tuple[list[str], Path | None]:
    """Apply what is missing, in order; returns the names applied and the backup made."""
    if not pending(connection):
        return [], None
    if connection.dialect.name == "postgresql":
        # Tables starting on a fresh shared database at once: one migrates, the others
        # wait for it and then find nothing left to do. (SQLite writers are already serial.)
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
    done = applied(connection)
    todo = pending(connection)
    if not todo:
        return [], None
    # A database that already holds data is copied first, so an upgrade can always be undone.
    copy = backup(connection) if done else None
    if not done:
        connection.execute(
            text(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(name VARCHAR PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)"
            )
        )
    for name, step in MIGRATIONS:
        if name in todo:
            step(connection)
            connection.execute(
                text("INSERT INTO schema_migrations (name) VALUES (:n)"), {"n": name}
            )
    return todo, copy


def where(connection: Connection) -> str:
    from napledger.store.db import describe

    return describe(str(connection.engine.url))


def backup(connection: Connection) -> Path | None:
    """A consistent copy of a SQLite file beside it (other databases have their own backups)."""
    path = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not path or path == ":memory:":
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = Path(f"{path}.bak-{stamp}")
    n = 1
    while target.exists():
        target, n = Path(f"{path}.bak-{stamp}-{n}"), n + 1
    # SQLite's backup API, not a file copy: it includes what is still in the WAL file. It
    # reads through a second connection, since ours holds the write lock (which still lets
    # readers in, until we write).
    try:
        source, copy = sqlite3.connect(path), sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            source.close()
            copy.close()
    except (OSError, sqlite3.Error) as error:
        raise NapError(
            f"cannot copy {path} to {target} before upgrading its schema ({error}); "
            "nothing was changed"
        ) from None
    return target
