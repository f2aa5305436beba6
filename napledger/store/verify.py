"""`verify`'s fetching: what the pure check (`napledger.core.audit`) needs, read from the book,
and SQLite's own check of the file."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile

from sqlalchemy import text

from napledger.core.audit import (
    CarriedPot,
    Problem,
    Report,
    SessionRecords,
    StoredClose,
    check_session,
)
from napledger.core.words import _
from napledger.store import identity
from napledger.store.book import Book
from napledger.store.models import SessionRow


def verify(book: Book) -> Report:
    problems = foreign_log(book) + integrity(book)
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
        closing=store.changes_by_deal().get(None, {}),
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
    for table, rowid, parent, _key in connection.execute(text("PRAGMA foreign_key_check")):
        problems.append(Problem(f"{table} row {rowid} points to a missing {parent} row"))
    return problems


def foreign_log(book: Book) -> list[Problem]:
    """A SQLite file's write-ahead log that is not its own: the ledger read with the log
    (as SQLite reads it) against the file alone. Another ledger's id, or an older
    generation than the file's, means the log was left beside a file put in its place
    (a backup copied over a ledger still open), and would overwrite it at the next
    checkpoint. (A reading transaction never checkpoints: the file is still as found.)"""
    connection = book.db.connection()
    path = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not path:
        return []
    log = f"{path}-wal"
    try:
        if os.path.getsize(log) <= 32:  # the header alone: no frame waiting
            return []
    except OSError:
        return []
    read = identity.read(connection)
    with tempfile.TemporaryDirectory() as folder:
        alone = os.path.join(folder, "alone.db")
        try:
            shutil.copyfile(path, alone)
            copy = sqlite3.connect(alone)
            try:
                found = dict(copy.execute(identity.READ.text).fetchall())
            finally:
                copy.close()
        except (OSError, sqlite3.Error):
            return []
    if read is None or identity.ID not in found or identity.GENERATION not in found:
        return []
    if found[identity.ID] != read[0]:
        return [Problem(_("the write-ahead log {log} belongs to another ledger").format(log=log))]
    if int(found[identity.GENERATION]) > read[1]:
        return [
            Problem(
                _(
                    "the write-ahead log {log} is older than its file (a copy put in its "
                    "place while napledger had it open?)"
                ).format(log=log)
            )
        ]
    return []
