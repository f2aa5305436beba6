"""The database layer: tables, engine and transactions, schema migrations, session operations."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from napledger.store.book import Book, Table
from napledger.store.db import make_engine, resolve_url, transaction
from napledger.store.schema import upgrade


@contextmanager
def open_book(db: str | None, write: bool = True) -> Iterator[Book]:
    """The book of one database, inside the single transaction of one command."""
    engine = make_engine(resolve_url(db), write)
    try:
        with transaction(engine) as session:
            upgrade(session.connection())
            yield Book(session)
    finally:
        engine.dispose()


__all__ = ["Book", "Table", "open_book"]
