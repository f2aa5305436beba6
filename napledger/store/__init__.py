"""The database layer: tables, engine and transactions, schema migrations, session operations."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from napledger.store.book import Book, Table
from napledger.store.db import check_same_file, make_engine, resolve_url, transaction
from napledger.store.schema import pending, upgrade

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

# Engines kept open across commands while `keep_engines` is active (table mode), so that
# one more command costs its transaction and not a new connection with its PRAGMAs.
_kept: dict[tuple[str, bool], Engine] | None = None


@contextmanager
def keep_engines() -> Iterator[None]:
    """Within this block every `open_book` on the same database reuses one engine."""
    global _kept
    outer, _kept = _kept, {}
    try:
        yield
    finally:
        for engine in _kept.values():
            engine.dispose()
        _kept = outer


@contextmanager
def open_book(db: str | None, write: bool = True) -> Iterator[Book]:
    """The book of one database, inside the single transaction of one command."""
    url = resolve_url(db)
    kept = _kept
    engine = kept.get((url, write)) if kept is not None else None
    if engine is None:
        engine = make_engine(url, write)
        if kept is not None:
            kept[(url, write)] = engine
    try:
        # Up to date, as nearly always: the command runs in this very transaction.
        behind = False
        with transaction(engine) as session:
            if pending(session.connection()):
                behind = True
            else:
                yield Book(session)
        if behind:
            bring_up_to_date(url)
            with transaction(engine) as session:
                yield Book(session)
    finally:
        if kept is None:
            engine.dispose()


def check_kept_files() -> None:
    """Refuse (MovedDatabaseError) when a kept engine's path now names another file or none."""
    for engine in (_kept or {}).values():
        check_same_file(engine)


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


__all__ = ["Book", "Table", "check_kept_files", "keep_engines", "open_book"]
