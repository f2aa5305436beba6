"""`verify`'s fetching: what the pure check (`napledger.core.audit`) needs, read from the book,
and SQLite's own check of the file."""

from __future__ import annotations

import json

from sqlalchemy import text

from napledger.core.audit import (
    CarriedPot,
    Problem,
    Report,
    SessionRecords,
    StoredClose,
    check_session,
)
from napledger.store.book import Book
from napledger.store.models import SessionRow


def verify(book: Book) -> Report:
    problems = integrity(book)
    sessions = book.sessions()
    deals = 0
    for row in sessions:
        records = session_records(book, row)
        problems += check_session(records)
        deals += sum(d.live for d in records.deals)
    return Report(problems, len(sessions), deals)


def session_records(book: Book, row: SessionRow) -> SessionRecords:
    source = None if row.carried_from is None else book.row(row.carried_from)
    store = book.session(row)
    return SessionRecords(
        name=str(row.name),
        rules_json=row.rules_json,
        opening_pot=row.opening_pot,
        carried_from=row.carried_from,
        carried=(
            CarriedPot(source.name, source.pot_to, book.session(source).pot()) if source else None
        ),
        closed=row.closed_at is not None,
        pot_to=row.pot_to,
        seating=tuple(json.loads(row.seating_json)),
        first_dealer=row.first_dealer,
        deals=store.records(strict=False),
        closing=store.entries_by_deal().get(None, {}),
        live_closes=tuple(StoredClose(c.pot_to, c.pot, c.shares) for c in store.closes() if c.live),
        roster=store.roster(),
        next_number=store.next_number(),
    )


def integrity(book: Book) -> list[Problem]:
    """SQLite's own check of pages, indexes and foreign keys."""
    connection = book.db.connection()
    if connection.dialect.name != "sqlite":
        return []
    found = [r[0] for r in connection.execute(text("PRAGMA integrity_check"))]
    problems = [Problem(f"integrity check: {line}") for line in found if line != "ok"]
    for table, rowid, parent, _ in connection.execute(text("PRAGMA foreign_key_check")):
        problems.append(Problem(f"{table} row {rowid} points to a missing {parent} row"))
    return problems
