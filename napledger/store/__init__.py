"""The database layer: tables, engine and transactions, schema migrations, session operations."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from napledger.store.book import Book, Table
from napledger.store.db import make_engine, resolve_url, transaction
from napledger.store.schema import pending, upgrade


@contextmanager
def open_book(db: str | None, write: bool = True) -> Iterator[Book]:
    """The book of one database, inside the single transaction of one command."""
    url = resolve_url(db)
    engine = make_engine(url, write)
    try:
        with transaction(engine) as session:
            behind = bool(pending(session.connection()))
        if behind:
            bring_up_to_date(url)
        with transaction(engine) as session:
            yield Book(session)
    finally:
        engine.dispose()


def bring_up_to_date(url: str) -> None:
    """Migrate in a writer's transaction of its own, which re-checks under the write lock.

    Even a reading command upgrades: a reader's snapshot could not take the lock later.
    """
    engine = make_engine(url, write=True)
    try:
        with transaction(engine) as session:
            applied, backup = upgrade(session.connection())
    finally:
        engine.dispose()
    if backup is not None:
        print(
            f"napledger: upgraded the database schema ({', '.join(applied)}); "
            f"the old file is kept at {backup}",
            file=sys.stderr,
        )


__all__ = ["Book", "Table", "open_book"]
