"""Changing a ledger behind napledger's back, as a broken disk or a hand with sqlite3
would: what `verify` must find."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any


def rewrite_record(db_path: Path, number: int, **fields: Any) -> None:
    """Deal `number`'s stored record with `fields` changed (None: taken out)."""
    with sqlite3.connect(db_path) as db:
        (text,) = db.execute("SELECT record_json FROM deals WHERE number = ?", (number,)).fetchone()
        record = json.loads(text)
        for key, value in fields.items():
            if value is None:
                record.pop(key, None)
            else:
                record[key] = value
        db.execute(
            "UPDATE deals SET record_json = ? WHERE number = ?", (json.dumps(record), number)
        )


def tamper(db_path: Path, *statements: str) -> None:
    """Each SQL statement run on the file; each must change something (but a PRAGMA or a
    DROP)."""
    with sqlite3.connect(db_path) as db:
        for sql in statements:
            changed = db.execute(sql).rowcount
            assert sql.startswith(("PRAGMA", "DROP")) or changed >= 1, sql
