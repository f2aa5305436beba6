"""The ledger knows itself: an id made once, with the ledger, and a generation that every
write moves on, both kept in the database (`meta`), on SQLite and PostgreSQL alike.

A long-running process (`serve`, `play`) remembers what it last read. Another ledger put
in the file's place (or the club database's) has another id; a backup restored under it
has an older generation. Either way what the process holds no longer matches the
database, and it stops: its pages end saying why, and it writes nothing more.
"""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any
from urllib.parse import quote

from sqlalchemy import text

ID, GENERATION = "ledger_id", "ledger_generation"

READ = text("SELECT key, value FROM meta WHERE key IN ('ledger_id', 'ledger_generation')")
ADVANCE = text(
    "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS VARCHAR) "
    "WHERE key = 'ledger_generation'"
)


def stamp(connection: Any) -> None:
    """A new ledger's id and first generation (a migration of its own for older ledgers)."""
    connection.execute(
        text("INSERT INTO meta (key, value) VALUES (:k, :v)"), {"k": ID, "v": uuid.uuid4().hex}
    )
    connection.execute(text("INSERT INTO meta (key, value) VALUES (:k, '0')"), {"k": GENERATION})


def read(connection: Any) -> tuple[str, int] | None:
    """The ledger's id and generation; None where there are none (not a napledger file)."""
    found = dict(connection.execute(READ).all())
    if ID not in found or GENERATION not in found:
        return None
    return str(found[ID]), int(found[GENERATION])


def read_file(path: str) -> tuple[str, int] | None:
    """A SQLite file's ledger as a connection opened now finds it: one kept open may trust
    pages it read before, when nothing in the write-ahead log says they changed, and a
    file copied over the ledger (`cp`) changes no log. None: nothing could be read."""
    try:
        connection = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True)
        try:
            found = dict(connection.execute(READ.text).fetchall())
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    if ID not in found or GENERATION not in found:
        return None
    return str(found[ID]), int(found[GENERATION])


def advance(connection: Any) -> None:
    """Every write moves the generation on, in the write's own transaction."""
    connection.execute(ADVANCE)
